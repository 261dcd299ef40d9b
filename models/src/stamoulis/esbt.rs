//! ESBT: Johnsson and Ho's d edge-disjoint spanning binomial trees, as
//! Stamoulis and Tsitsiklis use them. "An efficient algorithm for multiple
//! simultaneous broadcasts in the hypercube", IPL 46 (1993), sections 2.2
//! and 2.3.
//!
//! # The trees
//! "This imbedding consists of d completely unbalanced trees T(1), ...,
//! T(d). Tree T(j) is rooted at node e_j. The index-order of crossing the
//! hypercube dimensions in the paths of tree T(j) is as follows:
//! (j mod d) + 1, [(j + 1) mod d] + 1, ..., [(j + d - 1) mod d] + 1." In
//! T(j), node y is reached from e_j by crossing the dimensions of e_j xor
//! y in that order (section 2.2), so its parent is y with the last of them
//! flipped.
//!
//! # What is checked
//! * `check esbt d` runs the d roots' broadcasts at once, each along its
//!   tree, one level per slot: every node gets every root's packet once,
//!   in d slots (the depth: shortest paths), with no arc used twice in a
//!   slot; d (2^d - 1) transmissions.
//! * The trees' structure, which a run in lock step shows only level by
//!   level, is checked by the tests below for d = 1..10: each T(j) is a
//!   spanning out-tree of shortest paths in its index order, and the d
//!   trees are pairwise arc-disjoint (hence also after every arc is
//!   reversed), which phases 2 and 3 of `kbcast` rely on.

use crate::blocks::broadcast::Packet;
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Inputs, Protocol};
use crate::stamoulis::broadcasters;
use crate::topology::hypercube::Hypercube;
use properties::{Claims, NodeId, PacketId, Route, Slot, Task, Transmission};

/// The registry entry.
pub const ENTRY: Entry<Esbt> = Entry {
    info: Info {
        name: "esbt",
        summary: "the d edge-disjoint spanning binomial trees, broadcast from e_1..e_d at once",
        reference: "Stamoulis and Tsitsiklis 1993, sections 2.2-2.3 (Johnsson and Ho)",
        claim: "each T(j) spans by shortest paths in its index order: d slots, every node \
                gets each root's packet once; the trees are arc-disjoint",
        modes: &[(Sf, All)],
        reach: Reach::lockstep_only(12),
        params: &[],
        memory: crate::entry::Footprint::ByNode(crate::entry::every_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: Esbt::new,
};

/// The d trees' broadcasts at one configuration.
#[derive(Clone, Debug)]
pub struct Esbt {
    cube: Hypercube,
}

impl Esbt {
    /// ESBT at `cfg`.
    pub fn new(cfg: Config) -> Self {
        Esbt {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
        }
    }
}

/// Where dimension i (1-based) comes in T(j)'s index order (0-based):
/// (j mod d) + 1 first, ..., j last.
pub fn position(j: u32, i: u32, d: u32) -> u32 {
    (i + d - 1 - j % d) % d
}

/// x's bits (dimensions 1..d as bits 0..d-1) rotated so that T(j)'s index
/// order becomes increasing: dimension i goes to bit position(j, i, d).
fn rotate(j: u32, x: u32, d: u32) -> u32 {
    // j is 1..=d: j mod d without a division.
    let r = if j >= d { j - d } else { j };
    rotate_by(r, x, d)
}

/// The inverse of [`rotate`].
fn unrotate(j: u32, x: u32, d: u32) -> u32 {
    let r = if j >= d { j - d } else { j };
    rotate_by(if r == 0 { 0 } else { d - r }, x, d)
}

/// The d low bits set (every dimension of the d-cube).
fn low_bits(d: u32) -> u32 {
    u32::MAX.checked_shr(32 - d).unwrap_or(0)
}

/// x's low d bits rotated right by r < d.
#[inline]
fn rotate_by(r: u32, x: u32, d: u32) -> u32 {
    let full = low_bits(d);
    match r {
        0 => x,
        _ => ((x >> r) | (x << (d - r))) & full,
    }
}

/// The parent of y in T(j) on the d-cube (None for the root e_j): y with
/// the last dimension of e_j xor y in T(j)'s order flipped.
pub fn parent(j: u32, y: NodeId, d: u32) -> Option<NodeId> {
    let x = rotate(j, y ^ (1 << (j - 1)), d);
    (x != 0).then(|| y ^ unrotate(j, 1 << (31 - x.leading_zeros()), d))
}

/// The dimensions (bit i - 1 for dimension i) that lead from y to its
/// children in T(j): those after every dimension of e_j xor y in T(j)'s
/// order. That order runs over bits s..d - 1, then 0..s - 1 (s = j mod d),
/// so no rotation is needed: past the highest bit set among the last
/// ones (0..s - 1), or else past the highest bit set, wrapping to 0..s - 1.
/// (On every phase-3 delivery of `kbcast`.)
#[inline]
pub fn child_dimensions(j: u32, y: NodeId, d: u32) -> u32 {
    let full = low_bits(d);
    let s = if j >= d { j - d } else { j };
    let last = (1u32 << s) - 1;
    let x = y ^ (1 << (j - 1));
    // The bits above the highest bit set in a non-zero z.
    let above = |z: u32| u32::MAX.checked_shl(32 - z.leading_zeros()).unwrap_or(0);
    if x & last != 0 {
        last & above(x & last)
    } else if x != 0 {
        (full & above(x)) | last
    } else {
        full
    }
}

/// The children of y in T(j): y with one dimension flipped that comes
/// after every dimension of e_j xor y in T(j)'s order (in increasing
/// dimension order).
pub fn children(j: u32, y: NodeId, d: u32) -> impl Iterator<Item = NodeId> {
    let mut mask = child_dimensions(j, y, d);
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros();
            mask &= mask - 1;
            y ^ (1 << b)
        })
    })
}

impl Protocol for Esbt {
    type Topo = Hypercube;
    /// The number of roots, d: the roots are e_1..e_d (one input).
    type Input = u32;
    type State = ();
    type Msg = Packet;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn claims(&self) -> Claims {
        let d = self.cube.dim();
        broadcasters::claims(&self.cube, d as u64, d, true)
    }

    fn init(&self, _: &u32, _: NodeId) {}

    fn packets(&self, msg: &Packet, mut f: impl FnMut(PacketId)) {
        f(msg.source)
    }

    fn step(
        &self,
        node: NodeId,
        _: &mut (),
        slot: Slot,
        arrivals: &[Arrival<Packet>],
        _: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let d = self.cube.dim();
        // Slot 1: every root sends; later, whoever just got a packet
        // forwards it to its children in that packet's tree.
        let mut send = |root: NodeId| {
            let j = root.trailing_zeros() + 1;
            for c in children(j, node, d) {
                out.push(Transmission {
                    route: Route::Link { from: node, to: c },
                    msg: Packet {
                        source: root,
                        step: 0,
                    },
                });
            }
        };
        if slot == 1 && node.is_power_of_two() && node < 1 << d {
            send(node);
        }
        for a in arrivals {
            send(a.msg.source);
        }
        false
    }

    fn domain(&self) -> impl Inputs<u32> + '_ {
        self
    }
}

/// The inputs the claim ranges over.
impl Inputs<u32> for &Esbt {
    fn task(&self, _: &u32) -> Task {
        let roots: Vec<NodeId> = (0..self.cube.dim()).map(|j| 1 << j).collect();
        broadcasters::task(&self.cube, &roots)
    }

    fn all(&self) -> Vec<u32> {
        vec![self.cube.dim()]
    }

    fn describe(&self, _: &u32) -> String {
        "roots e_1..e_d".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit-rotation forms of parent and children agree with the
    /// definition read off the index order (`position`): every node for
    /// d = 1..8, 4098 nodes each for d = 20, 31 and 32.
    #[test]
    fn parent_and_children_follow_the_index_order() {
        // Every node up to d = 8; a spread of nodes at the widest cubes.
        let spread = |d: u32| {
            (0..4096u64).map(move |i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - d)) as u32)
        };
        let sizes = (1..=8u32)
            .map(|d| (d, (0..1u32 << d).collect::<Vec<_>>()))
            .chain([20, 31, 32].map(|d| (d, spread(d).chain([0, u32::MAX >> (32 - d)]).collect())));
        for (d, ys) in sizes {
            for j in 1..=d {
                for &y in &ys {
                    let x = y ^ (1 << (j - 1));
                    let dims = |x: u32| (1..=d).filter(move |&i| x & (1u32 << (i - 1)) != 0);
                    let last = dims(x).max_by_key(|&i| position(j, i, d));
                    assert_eq!(parent(j, y, d), last.map(|i| y ^ (1 << (i - 1))));
                    let after = |i: u32| dims(x).all(|k| position(j, k, d) < position(j, i, d));
                    let kids: Vec<u32> = (1..=d)
                        .filter(|&i| x & (1 << (i - 1)) == 0 && after(i))
                        .map(|i| y ^ (1 << (i - 1)))
                        .collect();
                    assert_eq!(
                        children(j, y, d).collect::<Vec<_>>(),
                        kids,
                        "d={d} j={j} y={y}"
                    );
                }
            }
        }
    }
    use std::collections::HashSet;

    /// T(1) of the 3-cube by hand: order 2, 3, 1 from root 001; 000 hangs
    /// from 001 (dimension 1, the last), 111 from 011 (path 2, 3).
    #[test]
    fn tree_one_of_the_three_cube_by_hand() {
        assert_eq!(parent(1, 0b001, 3), None);
        assert_eq!(parent(1, 0b011, 3), Some(0b001));
        assert_eq!(parent(1, 0b111, 3), Some(0b011));
        assert_eq!(parent(1, 0b000, 3), Some(0b001));
        assert_eq!(parent(1, 0b110, 3), Some(0b111));
    }

    /// Every T(j), d = 1..10: a spanning out-tree (every node reaches e_j
    /// by parents), each node at the depth of its Hamming distance from
    /// e_j, its path crossing dimensions in T(j)'s order, children the
    /// inverse of parents; and the d trees pairwise arc-disjoint.
    #[test]
    fn the_trees_span_by_ordered_shortest_paths_and_are_arc_disjoint() {
        for d in 1..=10u32 {
            let mut arcs = HashSet::new();
            for j in 1..=d {
                let root = 1 << (j - 1);
                for y in 0..1u32 << d {
                    if let Some(p) = parent(j, y, d) {
                        assert!(arcs.insert((p, y)), "d={d}: arc {p}->{y} in two trees");
                    }
                    let (mut at, mut depth, mut last) = (y, 0, u32::MAX);
                    while let Some(p) = parent(j, at, d) {
                        let i = (p ^ at).trailing_zeros() + 1;
                        // Walking up, positions decrease strictly.
                        assert!(position(j, i, d) < last, "d={d} j={j} y={y}");
                        last = position(j, i, d);
                        assert!(children(j, p, d).any(|c| c == at));
                        at = p;
                        depth += 1;
                    }
                    assert_eq!(at, root, "d={d} j={j} y={y}");
                    assert_eq!(depth, (y ^ root).count_ones(), "d={d} j={j} y={y}");
                }
            }
            // Each tree has 2^d - 1 arcs, none shared.
            assert_eq!(arcs.len() as u64, d as u64 * ((1u64 << d) - 1));
        }
    }

    /// The disjointness check is not vacuous: the same roots with one
    /// index order for every tree (increasing, as in section 3.3.1) share
    /// arcs from d = 3 on (at d = 2 they happen not to).
    #[test]
    fn same_order_trees_from_the_same_roots_share_arcs() {
        for d in 3..=6u32 {
            let mut arcs = HashSet::new();
            let mut shared = false;
            for j in 1..=d {
                let root: NodeId = 1 << (j - 1);
                for y in (0..1u32 << d).filter(|&y| y != root) {
                    let x = root ^ y;
                    let p = y ^ (1 << (31 - x.leading_zeros()));
                    shared |= !arcs.insert((p, y));
                }
            }
            assert!(shared, "d={d}");
        }
    }
}
