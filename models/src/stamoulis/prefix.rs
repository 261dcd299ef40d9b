//! PREFIX: the parallel prefix of Stamoulis and Tsitsiklis, "An efficient
//! algorithm for multiple simultaneous broadcasts in the hypercube", IPL 46
//! (1993), section 2.4, which phase 1 of `kbcast` runs.
//!
//! # The computation
//! "Compute all partial sums of the form sum_{y=x}^{2^d-1} a_y. This
//! prefix problem can be solved ... in time 2d, by using 2^{d+1} - 1
//! processors connected in a complete binary tree ... It can also be solved
//! in the d-cube in time 2d, by embedding such a tree in the d-cube. At the
//! end, node x knows the value of sum_{y >= x} a_y." The paper leaves the
//! embedding to its reference; we use the standard one, which takes 2d
//! slots exactly:
//! * the tree node of the subcube of nodes c 2^l .. (c+1) 2^l - 1 (level l)
//!   lives at cube node c 2^l, its first leaf; its left child lives there
//!   too, its right child at c 2^l + 2^(l-1), one arc away across
//!   dimension l. Every tree edge is a node to itself or one arc.
//! * Up-sweep, slot l = 1..d: each right child of level l - 1 sends the sum
//!   of its subcube to its parent, which adds it. Node 0 ends with K.
//! * Down-sweep, slot d + m, level l = d - m + 1: each tree node of level l
//!   sends its right child the sum of the terms beyond its own subcube, and
//!   adds the right subcube's sum (kept from the up-sweep) for its left
//!   child, which it hosts. Leaf x ends with r_x = a_x + (terms beyond x).
//!
//! The values are control messages (no packet). The check: every node's
//! r_x (a result, under completeness), 2d slots, at most one value per arc
//! per slot; for every 0/1 input at d <= 4 (every subset of nodes), and
//! with `--multiset` for inputs a_x >= 2 (`kbcast`'s nodes with several
//! packets).

use crate::config::{Config, Param};
use crate::entry::{Entry, Info};
use crate::protocol::{Arrival, Inputs, Judging, Protocol};
use crate::stamoulis::broadcasters;
use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Task, Transmission};

/// The registry entry.
pub const ENTRY: Entry<Prefix> = Entry {
    info: Info {
        name: "prefix",
        summary: "the parallel prefix r_x = sum of a_y over y >= x, by a tree embedded in the cube",
        reference: "Stamoulis and Tsitsiklis 1993, section 2.4",
        claim: "2d slots; every node x ends knowing r_x, for every input",
        params: &[
            Param {
                flag: "--broadcasters",
                meaning: "the nodes with a_x = 1, comma-separated (default: every subset)",
                range: |d| (0, 1 << d),
                below: "",
            },
            broadcasters::MULTISET,
        ],
        memory: crate::entry::Footprint::Whole(|_| 0),
        ..broadcasters::INFO
    },
    build: Prefix::new,
};

/// The prefix at one configuration.
#[derive(Clone, Debug)]
pub struct Prefix {
    cube: Hypercube,
    given: Option<Vec<NodeId>>,
}

impl Prefix {
    /// The prefix at `cfg`.
    pub fn new(cfg: Config) -> Self {
        Prefix {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
            given: broadcasters::given(&cfg),
        }
    }
}

/// A node's sums. Flat (no heap): the executor holds one a node, 2^25
/// of them at the largest size, whose allocations and frees took longer
/// than the run's first slot.
#[derive(Clone, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Sums {
    /// a_x.
    pub own: u32,
    /// The sum over the subcube this node hosts so far (up-sweep).
    pub acc: u32,
    /// right[l - 1]: the sum of the right subcube received in up slot l
    /// (l up to the dimension; the rest stay 0).
    pub right: [u32; Hypercube::MAX_DIM as usize],
    /// The sum of the terms beyond the subcube of the tree node this node
    /// acts for (down-sweep); r_x = own + beyond at the end.
    pub beyond: u32,
}

impl std::fmt::Debug for Sums {
    /// `right` up to its last sum received (the Explorer shows states).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let received = self
            .right
            .iter()
            .rposition(|&r| r != 0)
            .map_or(0, |i| i + 1);
        f.debug_struct("Sums")
            .field("own", &self.own)
            .field("acc", &self.acc)
            .field("right", &&self.right[..received])
            .field("beyond", &self.beyond)
            .finish()
    }
}

impl Sums {
    /// Before slot 1, with a_x = `own`.
    pub fn new(own: u32) -> Sums {
        Sums {
            own,
            acc: own,
            ..Sums::default()
        }
    }

    /// r_x, once the down-sweep is over.
    pub fn rank(&self) -> u32 {
        self.own + self.beyond
    }

    /// Node x takes `value`, which came in `slot` (1..=2d).
    pub fn take(&mut self, d: u32, slot: Slot, value: u32) {
        if slot <= d {
            self.acc += value;
            self.right[slot as usize - 1] = value;
        } else {
            self.beyond = value;
        }
    }

    /// What node x sends in `slot` (1..=2d), if anything: (to, value).
    pub fn give(&mut self, x: NodeId, d: u32, slot: Slot) -> Option<(NodeId, u32)> {
        let low = |l: u32| x & ((1 << l) - 1);
        if slot <= d {
            let l = slot;
            (low(l) == 1 << (l - 1)).then(|| (x - (1 << (l - 1)), self.acc))
        } else if slot <= 2 * d {
            let l = 2 * d - slot + 1;
            (low(l) == 0).then(|| {
                let sent = self.beyond;
                self.beyond += self.right[l as usize - 1];
                (x + (1 << (l - 1)), sent)
            })
        } else {
            None
        }
    }
}

/// r_x for every node: the sum of a_y over y >= x, with a_y the times y is
/// listed in `set`.
pub fn ranks(set: &[NodeId], nodes: u32) -> Vec<u32> {
    let mut r = vec![0u32; nodes as usize + 1];
    for &y in set {
        r[y as usize] += 1;
    }
    for x in (0..nodes as usize).rev() {
        r[x] += r[x + 1];
    }
    r.truncate(nodes as usize);
    r
}

/// r_x of one node: the entries of the sorted `set` at or above x.
pub fn rank(set: &[NodeId], x: NodeId) -> usize {
    set.len() - set.partition_point(|&y| y < x)
}

/// A prefix value in transit.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Value(pub u32);

impl Protocol for Prefix {
    type Topo = Hypercube;
    /// The nodes with a_x >= 1, sorted, each listed a_x times.
    type Input = Vec<NodeId>;
    type State = Sums;
    type Msg = Value;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn claims(&self) -> Claims {
        use PropertyName::*;
        let d = self.cube.dim();
        Claims {
            claimed: vec![Completeness, ContentionFreedom, Causality, TimeBound],
            bound: Some(2 * d),
            lower_bound: Some(d),
            transmissions: None,
        }
    }

    fn init(&self, set: &Vec<NodeId>, node: NodeId) -> Sums {
        // The set is sorted: the node's entries are one run, found by two
        // searches (a scan of the whole set a node was quadratic: the
        // 25-cube's run never reached its first slot).
        let own = (rank(set, node) - rank(set, node + 1)) as u32;
        Sums::new(own)
    }

    fn packets(&self, _: &Value, _: impl FnMut(PacketId)) {}

    fn step(
        &self,
        node: NodeId,
        s: &mut Sums,
        slot: Slot,
        arrivals: &[Arrival<Value>],
        _: u32,
        out: &mut Vec<Transmission<Value>>,
    ) -> bool {
        let d = self.cube.dim();
        for a in arrivals {
            s.take(d, slot - 1, a.msg.0);
        }
        if let Some((to, v)) = s.give(node, d, slot) {
            out.push(Transmission {
                route: Route::Link { from: node, to },
                msg: Value(v),
            });
        }
        slot < 2 * d
    }

    fn domain(&self) -> impl Inputs<Vec<NodeId>> + '_ {
        self
    }

    fn judging(&self) -> Option<impl Judging<Vec<NodeId>, Sums, Value> + '_> {
        Some(self)
    }
}

/// The inputs the claim ranges over.
impl Inputs<Vec<NodeId>> for &Prefix {
    /// No packet moves: the task is the results.
    fn task(&self, _: &Vec<NodeId>) -> Task {
        broadcasters::task(&self.cube, &[])
    }

    fn all(&self) -> Vec<Vec<NodeId>> {
        if let Some(b) = &self.given {
            return vec![b.clone()];
        }
        let n = self.cube.nodes();
        let limit = (1u64 << n.min(63)).min(broadcasters::MAX_SETS as u64);
        (0..limit)
            .map(|bits| (0..n).filter(|&x| bits & (1 << x) != 0).collect())
            .collect()
    }

    fn first(&self) -> Vec<NodeId> {
        self.given
            .clone()
            .unwrap_or_else(|| (0..self.cube.nodes()).collect())
    }

    fn total(&self) -> u64 {
        match self.given {
            Some(_) => 1,
            None => 1u64.checked_shl(self.cube.nodes()).unwrap_or(u64::MAX),
        }
    }

    fn covered(&self) -> &'static str {
        "the 65,536 subsets of nodes 0..15"
    }

    fn describe(&self, set: &Vec<NodeId>) -> String {
        let ones = broadcasters::describe(&self.cube, set);
        format!("a_x = 1 at {}", ones.trim_start_matches("broadcasters "))
    }
}

/// More of the claim.
impl Judging<Vec<NodeId>, Sums, Value> for &Prefix {
    fn control(&self, _: &Value) -> bool {
        true
    }

    fn wrong_result(&self, set: &Vec<NodeId>, node: NodeId, s: &Sums) -> Option<u64> {
        (s.rank() as usize != rank(set, node)).then_some(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// r_x by hand on the 2-cube with a = (1, 0, 1, 1): r = (3, 2, 2, 1).
    #[test]
    fn ranks_by_hand() {
        assert_eq!(ranks(&[0, 2, 3], 4), vec![3, 2, 2, 1]);
        assert_eq!(ranks(&[1, 1], 4), vec![2, 2, 0, 0]);
        for x in 0..4 {
            assert_eq!(
                rank(&[0, 2, 3], x),
                ranks(&[0, 2, 3], 4)[x as usize] as usize
            );
        }
    }

    /// The schedule of the 3-cube by hand: up slot 1 odd nodes send to
    /// their even neighbour, slot 2 nodes 2 and 6 send to 0 and 4, slot 3
    /// node 4 to 0; down slot 4 node 0 to 4, slot 5 nodes 0 and 4 to 2 and
    /// 6, slot 6 even nodes to odd ones.
    #[test]
    fn who_sends_when_by_hand() {
        let senders = |slot: Slot| -> Vec<(NodeId, NodeId)> {
            (0..8)
                .filter_map(|x| {
                    let mut s = Sums::new(0);
                    s.give(x, 3, slot).map(|(to, _)| (x, to))
                })
                .collect()
        };
        assert_eq!(senders(1), vec![(1, 0), (3, 2), (5, 4), (7, 6)]);
        assert_eq!(senders(2), vec![(2, 0), (6, 4)]);
        assert_eq!(senders(3), vec![(4, 0)]);
        assert_eq!(senders(4), vec![(0, 4)]);
        assert_eq!(senders(5), vec![(0, 2), (4, 6)]);
        assert_eq!(senders(6), vec![(0, 1), (2, 3), (4, 5), (6, 7)]);
        assert!(senders(7).is_empty());
    }

    /// A node's own entries, found by two searches of the sorted set, are
    /// those a scan of the set counts (every subset of the 3-cube, and a
    /// multiset).
    #[test]
    fn a_nodes_own_entries_are_those_a_scan_counts() {
        let p = Prefix::new(Config {
            n: 3,
            switching: crate::config::Switching::Sf,
            ports: crate::config::Ports::All,
            params: Default::default(),
        });
        let sets = (&p).all().into_iter().chain([vec![1, 1, 5, 5, 5, 7]]);
        for set in sets {
            for x in 0..8 {
                let count = set.iter().filter(|&&y| y == x).count() as u32;
                assert_eq!(p.init(&set, x), Sums::new(count), "{set:?} at {x}");
            }
        }
    }
}
