//! The naive 2^p-ary subcube tree: Wang and Ku's broadcasting tree without
//! Hamming codes. Wang and Ku, ICS'95, section 3, Figs. 3 and 4(a).
//!
//! # The algorithm
//! The levels are NOB's ([`crate::wang_ku::nob::levels`]): in step i the source of
//! every A-subcube sends one worm into each other child subcube AP',
//! keeping the rest of its address, by e-cube routing. Fig. 3: 000000
//! sends into the 01-, 10- and 11-subcubes; Fig. 4(a), step 3: 000000
//! sends to 000001, 000010 and 000011.
//!
//! # The claim it fails
//! It is held to what Wang-Ku require of a broadcasting tree (every node
//! once, ceil(n/p) steps, no contention), and Fig. 4(a) shows it contends:
//! "message directed towards 000011 will compete channels with message
//! directed towards 000001 or 000010". The checker finds that contention
//! from n = 3 on (p = 2): the worms to 110 and 100 share arc 000->100.

use crate::blocks::broadcast::{self, single_source_broadcast, Packet};
use crate::catalog::{Entry, Info, Reach};
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::protocol::{Arrival, Protocol};
use crate::topology::hypercube::Hypercube;
use crate::wang_ku::nob::{levels, Levels};
use properties::{bounds, Claims, NodeId, PropertyName, Route, Slot, Transmission};

/// The naive tree at one configuration.
#[derive(Clone, Debug)]
pub struct NaiveTree {
    cube: Hypercube,
    levels: Vec<u32>,
}

/// The step a node performs in the next slot, if any, and for which
/// source's packet: a source of step i stays the source of its own child
/// subcube in step i+1 ("each recipient will turn into the next-step's
/// source node in each child subcube", and so does the sender).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NaiveState {
    next: Option<Packet>,
}

/// The registry entry.
pub const ENTRY: Entry<NaiveTree> = Entry {
    info: Info {
        name: "naive-tree",
        summary: "2^p-ary subcube tree without Hamming codes (Fig. 4(a))",
        reference: "Wang & Ku, ICS'95, section 3, Figs. 3 and 4(a)",
        claim: "claimed as nob's (the paper shows it contends): ceil(n / floor(log2(n+1))) steps",
        modes: &[(Wh, All)],
        reach: Reach {
            lockstep: 18,
            actor: 5,
            actor_auto: 4,
        },
        params: &[],
        memory: crate::catalog::one_packet_bytes,
        shape: crate::catalog::Shape::Cube,
    },
    build: NaiveTree::new,
};

impl NaiveTree {
    pub fn new(cfg: Config) -> Self {
        NaiveTree {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
            levels: levels(cfg.n, Levels::Text),
        }
    }

    fn send_step(&self, node: NodeId, source: NodeId, i: u8, out: &mut Vec<Transmission<Packet>>) {
        let i = i as usize;
        if i == 0 || i > self.levels.len() {
            return;
        }
        let a: u32 = self.levels[..i - 1].iter().sum();
        let p = self.levels[i - 1];
        let r = self.cube.dim() - a - p;
        let x = node ^ source;
        let own = (x >> r) & ((1 << p) - 1);
        let msg = Packet {
            source,
            step: i as u8 + 1,
        };
        for q in (0..1u32 << p).filter(|&q| q != own) {
            let to = (x & !(((1 << p) - 1) << r)) | (q << r);
            out.push(Transmission {
                route: Route::Worm {
                    from: node,
                    to: to ^ source,
                    first: None,
                },
                msg,
            });
        }
    }
}

impl Protocol for NaiveTree {
    type State = NaiveState;
    single_source_broadcast!();

    fn claims(&self) -> Claims {
        use PropertyName::*;
        let claimed = [Completeness, NoDuplication, ContentionFreedom, TimeBound];
        broadcast::claims(&self.cube, &claimed, Some(bounds::nob(self.cube.dim())))
    }

    fn init(&self, source: &NodeId, node: NodeId) -> NaiveState {
        NaiveState {
            next: (node == *source).then_some(Packet {
                source: node,
                step: 1,
            }),
        }
    }

    fn step(
        &self,
        node: NodeId,
        state: &mut NaiveState,
        _slot: Slot,
        arrivals: &[Arrival<Packet>],
        _choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let tasks = state
            .next
            .take()
            .into_iter()
            .chain(arrivals.iter().map(|a| a.msg));
        for task in tasks {
            self.send_step(node, task.source, task.step, out);
            if (task.step as usize) < self.levels.len() {
                state.next = Some(Packet {
                    step: task.step + 1,
                    ..task
                });
            }
        }
        state.next.is_some()
    }
}
