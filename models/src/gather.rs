//! GATHER: single node gather, a packet from every other node to the root,
//! the dual of `scatter`. Bertsekas, Ozveren, Stamoulis, Tseng and
//! Tsitsiklis, "Optimal Communication Algorithms for Hypercubes" (1991),
//! sections 1 and 3.
//!
//! # The algorithm
//! "An algorithm that solves the single node scatter (or gather) problem
//! consists of a schedule of packet transmissions on each link ... By
//! reversing this schedule ... for every algorithm that solves the single
//! node scatter problem [there is one for gather] that takes the same
//! amount of communication time." A scatter run on tree T sends the packet
//! for x from the root in slot s_x and it arrives in slot
//! s_x + |x| - 1 (|x| = hops = weight). Reversed in a run of T_s slots,
//! node x sends its own packet to its parent in slot T_s + 2 - s_x - |x|,
//! and every relay forwards a packet to its parent in the slot after it
//! arrives.
//!
//! # Choices the paper leaves open
//! The scatter's tree (see `scatter`) and its tie-breaking: each order in
//! which the root could send (farthest first, ties in any order) gives one
//! gather schedule. Every (tree, order) is an input, up to
//! [`MAX_SCHEDULES`]; the check says when there are more.
//!
//! # Bounds (Tables 1 and 2)
//! As scatter: MLA ceil((2^d - 1)/d), SLA 2^d - 1 slots; d 2^(d-1)
//! transmissions.

use crate::catalog::{Config, Entry, Info, Ports, Reach};
use crate::catalog::{Ports::*, Switching::*};
use crate::hypercube::Hypercube;
use crate::protocol::{Arrival, Protocol, Symmetry};
use crate::scatter::{balanced_trees, Parcel, Tree, MAX_TREES};
use crate::topology::Topology;
use properties::bounds::bertsekas;
use properties::{Claims, NodeId, PacketId, Route, Slot, Task, Transmission};

/// The registry entry.
pub const ENTRY: Entry<Gather> = Entry {
    info: Info {
        name: "gather",
        summary: "single node gather: every scatter schedule reversed",
        reference: "Bertsekas et al. 1991, sections 1 and 3",
        claim: "MLA: ceil((2^d-1)/d) slots, SLA: 2^d-1 slots; d 2^(d-1) transmissions; \
                every packet delivered once, contention-free",
        modes: &[(Sf, All), (Sf, One)],
        reach: Reach {
            lockstep: 4,
            actor: 0,
            actor_auto: 0,
        },
        params: &[],
        memory: crate::catalog::personal_packet_bytes,
    },
    build: Gather::new,
};

/// Schedules past this many are not enumerated (the executor runs the
/// first).
pub const MAX_SCHEDULES: usize = 4096;

/// Single node gather at one configuration.
#[derive(Clone, Debug)]
pub struct Gather {
    cube: Hypercube,
    trees: Vec<Tree>,
    /// (tree, the slot each relative node sends its own packet in).
    schedules: Vec<(u32, Vec<Slot>)>,
    /// Schedules in all (saturating; at least `schedules.len()`).
    total: u64,
    /// Whether every tree was built (see `scatter::MAX_TREES`).
    complete: bool,
}

/// n!, saturating.
fn factorial(n: u64) -> u64 {
    (1..=n)
        .try_fold(1u64, |a, b| a.checked_mul(b))
        .unwrap_or(u64::MAX)
}

/// The root's send groups of a scatter on `tree`: per subtree (MLA) or
/// one (SLA), each split into blocks of equal distance, farthest first.
fn blocks(tree: &Tree, d: u32, ports: Ports) -> Vec<Vec<Vec<NodeId>>> {
    let mut nodes: Vec<NodeId> = (1..1u32 << d).collect();
    nodes.sort_by_key(|&x| (std::cmp::Reverse(x.count_ones()), x));
    let groups: Vec<Vec<NodeId>> = match ports {
        Ports::One => vec![nodes],
        Ports::All => (0..d)
            .map(|j| {
                nodes
                    .iter()
                    .copied()
                    .filter(|&x| tree.top(x) == 1 << j)
                    .collect()
            })
            .collect(),
    };
    groups
        .into_iter()
        .map(|g| {
            g.chunk_by(|a, b| a.count_ones() == b.count_ones())
                .map(<[NodeId]>::to_vec)
                .collect()
        })
        .collect()
}

/// The send slot s_x of every relative node for the order numbered
/// `index` (each block permuted by its digit, factorial number system).
fn send_slots(blocks: &[Vec<Vec<NodeId>>], d: u32, mut index: u64) -> Vec<Slot> {
    let mut s = vec![0; 1 << d];
    for group in blocks {
        let mut slot = 0;
        for block in group {
            let mut rank = index % factorial(block.len() as u64);
            index /= factorial(block.len() as u64);
            let mut free = block.clone();
            while !free.is_empty() {
                let f = factorial(free.len() as u64 - 1);
                let x = free.remove((rank / f) as usize);
                rank %= f;
                slot += 1;
                s[x as usize] = slot;
            }
        }
    }
    s
}

impl Gather {
    pub fn new(cfg: Config) -> Self {
        let d = cfg.n;
        let (trees, complete) = match cfg.ports {
            Ports::All if d >= 2 => balanced_trees(
                d,
                if d <= crate::catalog::ENUMERATED_UP_TO {
                    MAX_TREES
                } else {
                    1
                },
            ),
            _ => (vec![Tree::binomial(d)], true),
        };
        let mut schedules = Vec::new();
        let mut total = 0u64;
        for (t, tree) in trees.iter().enumerate() {
            let b = blocks(tree, d, cfg.ports);
            let orders = b
                .iter()
                .flatten()
                .fold(1u64, |a, blk| a.saturating_mul(factorial(blk.len() as u64)));
            total = total.saturating_add(orders);
            for index in 0..orders {
                if schedules.len() >= MAX_SCHEDULES {
                    break;
                }
                let s = send_slots(&b, d, index);
                let total = (1..1u32 << d)
                    .map(|x| s[x as usize] + x.count_ones() - 1)
                    .max()
                    .unwrap_or(0);
                let own = (0..1u32 << d)
                    .map(|x| {
                        if x == 0 {
                            0
                        } else {
                            total + 2 - s[x as usize] - x.count_ones()
                        }
                    })
                    .collect();
                schedules.push((t as u32, own));
            }
        }
        Gather {
            cube: Hypercube::new(d, cfg.switching, cfg.ports),
            trees,
            schedules,
            total,
            complete,
        }
    }
}

/// A node's state: the root and the schedule, known to all.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GatherState {
    pub root: NodeId,
    pub schedule: u32,
}

impl Protocol for Gather {
    type Topo = Hypercube;
    /// (root, schedule).
    type Input = (NodeId, u32);
    type State = GatherState;
    type Msg = Parcel;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn source_input(&self, root: NodeId) -> Option<(NodeId, u32)> {
        Some((root, 0))
    }

    fn sourced_inputs(&self, root: NodeId) -> Vec<(NodeId, u32)> {
        (0..self.schedules.len() as u32)
            .map(|s| (root, s))
            .collect()
    }

    fn inputs_total(&self) -> u64 {
        (self.cube.nodes() as u64).saturating_mul(self.total)
    }

    fn describe_input(&self, &(root, s): &(NodeId, u32)) -> String {
        let of = if self.complete { "" } else { "at least " };
        format!(
            "root {}, schedule {s} of {of}{} (tree {})",
            self.cube.node_label(root),
            self.total,
            self.schedules[s as usize].0
        )
    }

    fn task(&self, &(root, _): &(NodeId, u32)) -> Task {
        Task::Gather {
            nodes: self.cube.nodes(),
            root,
        }
    }

    fn claims(&self) -> Claims {
        // Scatter's, by duality (section 1).
        let d = self.cube.dim();
        let time = match self.cube.ports() {
            Ports::All => bertsekas::scatter_time_mla(d),
            Ports::One => bertsekas::scatter_time_sla(d),
        };
        Claims::optimal(time, bertsekas::scatter_transmissions(d))
    }

    fn init(&self, &(root, schedule): &(NodeId, u32), _: NodeId) -> GatherState {
        GatherState { root, schedule }
    }

    fn packets(&self, msg: &Parcel, mut f: impl FnMut(PacketId)) {
        f(msg.packet)
    }

    fn step(
        &self,
        node: NodeId,
        s: &mut GatherState,
        slot: Slot,
        arrivals: &[Arrival<Parcel>],
        _: u32,
        out: &mut Vec<Transmission<Parcel>>,
    ) -> bool {
        let x = node ^ s.root;
        if x == 0 {
            return false;
        }
        let (tree, own) = &self.schedules[s.schedule as usize];
        let parent = self.trees[*tree as usize].parent[x as usize] ^ s.root;
        let mut send = |origin: NodeId| {
            out.push(Transmission {
                route: Route::Link {
                    from: node,
                    to: parent,
                },
                msg: Parcel { packet: origin },
            })
        };
        for a in arrivals {
            send(a.msg.packet);
        }
        let mine = own[x as usize];
        if mine == slot {
            send(node);
        }
        mine > slot
    }

    fn symmetry(&self) -> Option<Symmetry> {
        Some(Symmetry::XorTranslation)
    }

    fn event_driven(&self) -> bool {
        false
    }
}
