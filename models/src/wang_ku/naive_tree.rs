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

use crate::blocks::broadcast::Packet;
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Codes, Hints, Inputs, Protocol, Sources};
use crate::topology::hypercube::Hypercube;
use crate::wang_ku::nob::{levels, Levels};
use crate::wang_ku::subcube_tree::{self, Partition, TreeState};
use properties::{Claims, NodeId, PacketId, Route, Slot, Transmission};

/// The naive tree at one configuration.
#[derive(Clone, Debug)]
pub struct NaiveTree {
    cube: Hypercube,
    levels: Vec<u32>,
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
        memory: crate::entry::Footprint::ByNode(crate::entry::one_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: NaiveTree::new,
};

impl NaiveTree {
    /// The naive tree at `cfg` (NOB's levels).
    pub fn new(cfg: Config) -> Self {
        NaiveTree {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
            levels: levels(cfg.n, Levels::Text),
        }
    }

    fn send_step(&self, node: NodeId, source: NodeId, i: u8, out: &mut Vec<Transmission<Packet>>) {
        let x = node ^ source;
        let Some(Partition { p, r, big_p, .. }) =
            Partition::of(&self.levels, self.cube.dim(), x, i)
        else {
            return;
        };
        let own = big_p as u32;
        let msg = Packet {
            source,
            step: i + 1,
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
    // Held to what Wang-Ku require of a broadcasting tree (it fails).
    type Topo = Hypercube;
    type Input = NodeId;
    type State = TreeState;
    type Msg = Packet;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    // The logic is computed for source 0 and relabelled by xor.
    fn domain(&self) -> impl Inputs<NodeId> + '_ {
        Sources::xor(&self.cube)
    }

    fn claims(&self) -> Claims {
        subcube_tree::claims(&self.cube)
    }

    fn init(&self, source: &NodeId, node: NodeId) -> TreeState {
        TreeState::new(source, node)
    }

    fn packets(&self, msg: &Packet, mut f: impl FnMut(PacketId)) {
        f(msg.source)
    }

    fn hints(&self) -> Hints {
        Hints::EVENT_DRIVEN
    }

    const PACKS: bool = true;

    fn codes(&self) -> Option<impl Codes<NodeId, TreeState, Packet> + '_> {
        Some(subcube_tree::TreeCodes)
    }

    fn step(
        &self,
        node: NodeId,
        state: &mut TreeState,
        _slot: Slot,
        arrivals: &[Arrival<Packet>],
        _choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        state.step(arrivals, self.levels.len(), true, |_, task| {
            self.send_step(node, task.source, task.step, out)
        })
    }
}
