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

use crate::bertsekas::scatter::{self, balanced_trees, Parcel, Tree, MAX_TREES};
use crate::config::{Config, Ports};
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Choices, Inputs, Protocol, Symmetry};
use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
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
        reach: Reach::lockstep_only(4),
        params: &[],
        memory: crate::entry::Footprint::Whole(memory),
        family: crate::topology::Family::Cube,
    },
    build: Gather::new,
};

/// Holdings, and per node the tree (4 bytes), its place in its block
/// (8) and the block (4), with the sort that builds them (8), and the
/// executor's calendar entry while it waits for its send (8).
fn memory(d: u32) -> u64 {
    crate::entry::personal_packet_bytes(d).saturating_add(32u64 << d.min(40))
}

/// Schedules past this many are not enumerated (the executor runs the
/// first). Every one at d = 4 under SLA (4! 6! 4! = 414,720 orders) and
/// at d = 5 under MLA (737,280 on 720 trees).
pub const MAX_SCHEDULES: u64 = 1 << 20;

/// Single node gather at one configuration.
#[derive(Clone, Debug)]
pub struct Gather {
    cube: Hypercube,
    trees: Vec<Tree>,
    /// Per tree, the scatter's send orders on it.
    orders: Vec<Orders>,
    /// Per tree, the number of its first schedule (the orders before it).
    first: Vec<u64>,
    /// Schedules enumerated per root: the first of every tree's orders,
    /// tree by tree, up to [`MAX_SCHEDULES`].
    enumerated: u32,
    /// Schedules in all (saturating; at least `enumerated`).
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

/// The orders in which a scatter's root may send on one tree: per subtree
/// (MLA) or one group (SLA), blocks of equal distance, farthest first,
/// each block in any order. Order `index` permutes each block by its digit
/// in the factorial number system; a node's send slot is decoded on its
/// own, so that no schedule is ever stored whole (at d = 20 one is 4 MB).
#[derive(Clone, Debug)]
struct Orders {
    /// Per block: the slot before its first send, the product of the
    /// earlier blocks' factorials (saturating: the digit's place) and its
    /// nodes in increasing order.
    blocks: Vec<(Slot, u64, Vec<NodeId>)>,
    /// Per relative node: its block and its place in it.
    place: Vec<(u32, u32)>,
    /// Orders in all (saturating).
    count: u64,
    /// The scatter's last arrival, the same for every order (a block's
    /// nodes are equally far).
    time: Slot,
}

impl Orders {
    fn new(tree: &Tree, d: u32, ports: Ports) -> Orders {
        let mut nodes: Vec<NodeId> = (1..1u32 << d).collect();
        nodes.sort_by_key(|&x| (std::cmp::Reverse(x.count_ones()), x));
        let groups: Vec<Vec<NodeId>> = match ports {
            Ports::One => vec![nodes],
            Ports::All => tree.by_subtree(nodes, d),
        };
        let (mut blocks, mut place, mut count, mut time) =
            (Vec::new(), vec![(0, 0); 1 << d], 1u64, 0);
        for group in groups {
            let mut before = 0;
            for block in group.chunk_by(|a, b| a.count_ones() == b.count_ones()) {
                for (i, &x) in block.iter().enumerate() {
                    place[x as usize] = (blocks.len() as u32, i as u32);
                }
                let len = block.len() as Slot;
                time = time.max(before + len + block[0].count_ones() - 1);
                blocks.push((before, count, block.to_vec()));
                count = count.saturating_mul(factorial(len as u64));
                before += len;
            }
        }
        Orders {
            blocks,
            place,
            count,
            time,
        }
    }

    /// The slot s_x in which the root sends x's packet in order `index`.
    fn send_slot(&self, index: u64, x: NodeId) -> Slot {
        let (b, i) = self.place[x as usize];
        let (before, place, ref block) = self.blocks[b as usize];
        let mut rank = (index / place) % factorial(block.len() as u64);
        if rank == 0 {
            return before + i + 1;
        }
        // The Lehmer code: position k takes the (digit)-th node not taken.
        let mut free: Vec<u32> = (0..block.len() as u32).collect();
        for k in 0..block.len() {
            let f = factorial((free.len() - 1) as u64);
            if free.remove((rank / f) as usize) == i {
                return before + k as Slot + 1;
            }
            rank %= f;
        }
        unreachable!("a block's permutation places each of its nodes")
    }
}

impl Gather {
    /// Gather at `cfg`: its trees and their farthest-first schedules.
    pub fn new(cfg: Config) -> Self {
        let d = cfg.n;
        let (trees, complete) = match cfg.ports {
            Ports::All if d >= 2 => balanced_trees(
                d,
                if d <= crate::entry::ENUMERATED_UP_TO {
                    MAX_TREES
                } else {
                    1
                },
            ),
            _ => (vec![Tree::binomial(d)], true),
        };
        let orders: Vec<Orders> = trees.iter().map(|t| Orders::new(t, d, cfg.ports)).collect();
        let first: Vec<u64> = orders
            .iter()
            .scan(0u64, |before, o| {
                let first = *before;
                *before = before.saturating_add(o.count);
                Some(first)
            })
            .collect();
        let total = orders.iter().fold(0u64, |a, o| a.saturating_add(o.count));
        Gather {
            cube: Hypercube::new(d, cfg.switching, cfg.ports),
            trees,
            orders,
            first,
            enumerated: total.min(MAX_SCHEDULES) as u32,
            total,
            complete,
        }
    }

    /// Schedule `s`: its tree and its order on that tree.
    fn schedule(&self, s: u32) -> (usize, u64) {
        let t = self.first.partition_point(|&f| f <= s as u64) - 1;
        (t, s as u64 - self.first[t])
    }
}

/// A node's state: the root and the schedule, known to all, and what the
/// schedule tells this node: its parent and the slot in which it sends its
/// own packet.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct GatherState {
    /// The root.
    pub root: NodeId,
    /// The schedule (an index into the enumerated ones).
    pub schedule: u32,
    /// Where this node sends what it gathers.
    pub parent: NodeId,
    /// The slot in which it sends its own packet.
    pub own: Slot,
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

    /// Scatter's, by duality (section 1).
    fn claims(&self) -> Claims {
        scatter::claims(&self.cube)
    }

    fn init(&self, &(root, schedule): &(NodeId, u32), node: NodeId) -> GatherState {
        let x = node ^ root;
        if x == 0 {
            return GatherState {
                root,
                schedule,
                parent: node,
                own: 0,
            };
        }
        let (tree, index) = self.schedule(schedule);
        let o = &self.orders[tree];
        GatherState {
            root,
            schedule,
            parent: self.trees[tree].parent[x as usize] ^ root,
            // Reversed in a run of T_s slots, a packet the scatter sent in
            // slot s_x over |x| hops leaves x in slot T_s + 2 - s_x - |x|.
            own: o.time + 2 - o.send_slot(index, x) - x.count_ones(),
        }
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
        let parent = s.parent;
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
        if s.own == slot {
            send(node);
        }
        s.own > slot
    }

    fn domain(&self) -> impl Inputs<(NodeId, u32)> + '_ {
        self
    }

    fn choices(&self) -> Option<impl Choices<GatherState, Parcel> + '_> {
        Some(self)
    }
}

/// The inputs the claim ranges over.
impl Inputs<(NodeId, u32)> for &Gather {
    fn task(&self, &(root, _): &(NodeId, u32)) -> Task {
        Task::Gather {
            nodes: self.cube.nodes(),
            root,
        }
    }

    fn source_input(&self, root: NodeId) -> Option<(NodeId, u32)> {
        Some((root, 0))
    }

    fn sourced(&self, root: NodeId) -> Vec<(NodeId, u32)> {
        (0..self.enumerated).map(|s| (root, s)).collect()
    }

    fn total(&self) -> u64 {
        (self.cube.nodes() as u64).saturating_mul(self.total)
    }

    fn describe(&self, &(root, s): &(NodeId, u32)) -> String {
        let of = if self.complete { "" } else { "at least " };
        format!(
            "root {}, schedule {s} of {of}{} (tree {})",
            self.cube.node_label(root),
            self.total,
            self.schedule(s).0
        )
    }

    fn symmetry(&self) -> Option<Symmetry> {
        Some(Symmetry::XorTranslation)
    }
}

/// Open choices and scheduled sends.
impl Choices<GatherState, Parcel> for &Gather {
    fn wake(&self, s: &GatherState, slot: Slot) -> Slot {
        // A node waits for its own send; relays are woken by arrivals.
        s.own.max(slot + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Switching;
    use std::collections::HashSet;

    fn gather(d: u32, ports: Ports) -> Gather {
        Gather::new(Config {
            n: d,
            switching: Switching::Sf,
            ports,
            params: Default::default(),
        })
    }

    /// Every order decodes to a different schedule in which the root
    /// sends one packet per slot and subtree (SLA: per slot), farthest
    /// first; every order is enumerated at d = 4 under SLA, where there
    /// are 4! 6! 4! (blocks of weight 3, 2 and 1; one node of weight 4).
    #[test]
    fn every_order_is_a_different_farthest_first_schedule() {
        for (d, ports) in [(2, Ports::One), (3, Ports::One), (3, Ports::All)] {
            let g = gather(d, ports);
            let mut seen = HashSet::new();
            for s in 0..g.enumerated {
                let (t, index) = g.schedule(s);
                let o = &g.orders[t];
                let slots: Vec<Slot> = (1..1u32 << d).map(|x| o.send_slot(index, x)).collect();
                assert!(
                    seen.insert((t, slots.clone())),
                    "d={d} {ports}: {s} repeats"
                );
                for x in 1..1u32 << d {
                    for y in 1..1u32 << d {
                        let same_group =
                            ports == Ports::One || g.trees[t].top(x) == g.trees[t].top(y);
                        if x == y || !same_group {
                            continue;
                        }
                        let (sx, sy) = (slots[x as usize - 1], slots[y as usize - 1]);
                        assert_ne!(sx, sy, "d={d} {ports}: one send slot for {x} and {y}");
                        if x.count_ones() > y.count_ones() {
                            assert!(sx < sy, "d={d} {ports}: {x} is farther than {y}");
                        }
                    }
                }
            }
        }
        let g = gather(4, Ports::One);
        assert_eq!(g.total, 24 * 720 * 24);
        assert_eq!(g.enumerated as u64, g.total);
    }
}
