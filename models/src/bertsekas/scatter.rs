//! SCATTER: single node scatter, a distinct packet from the root to every
//! other node. Bertsekas, Ozveren, Stamoulis, Tseng and Tsitsiklis,
//! "Optimal Communication Algorithms for Hypercubes" (1991), section 3.
//!
//! # The algorithm
//! The root sends along a spanning tree T, "giving priority to nodes
//! furthest away from s (break ties arbitrarily)"; every other node
//! forwards a packet not its own to the next node on its tree path in the
//! slot after it arrives ("each of these packets completes its journey in
//! exactly k time units").
//! * MLA: the root sends one packet into each subtree T_i per slot. T is
//!   the balanced shortest-path tree of "Single Node Scatter Under the MLA
//!   Assumption" ([`balanced_trees`]): R_11 hangs from the root, and each
//!   later class R_kn (in the order of section 2) hangs element by element
//!   from a compatible class R_(k-1)n' (d elements, one bit fewer), the
//!   element t' with m(t') = m_kn under the first element t of R_kn;
//!   1..1 hangs from the element x of R_(d-1)1 with m(x) = m(1..1). Every
//!   node x is then in subtree T_m(x), of at most ceil((2^d - 1)/d) nodes.
//! * SLA: the root sends one packet per slot, farthest first over the whole
//!   tree; "any spanning tree" of shortest paths: here the Fig. 4 tree of
//!   `snb` (parent = x with its rightmost one cleared).
//!
//! # Choices the paper leaves open
//! * ties among the farthest packets: a choice of the root in every slot
//!   (the exhaustive check branches on each);
//! * MLA: the first element of R_11 ("we choose arbitrarily"), the
//!   compatible class and the first element t of each later class: every
//!   tree these choices build is an input (up to [`MAX_TREES`]; the check
//!   says when there are more). The order of the classes within N_k is the
//!   one of `mnb` (least element first): at d <= 5 each N_k has at most one
//!   class besides R_k1, so the order is forced where the check is
//!   exhaustive.
//!
//! # Bounds (Tables 1 and 2)
//! MLA: ceil((2^d - 1)/d) slots; SLA: 2^d - 1 slots; d 2^(d-1)
//! transmissions (every packet on a shortest path).

use crate::bertsekas::rotation::{rotate, Choices};
use crate::config::{Config, Ports};
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Choices as OpenChoices, Inputs, Protocol, Symmetry};
use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
use properties::bounds::bertsekas;
use properties::{Claims, NodeId, PacketId, Route, Slot, Task, Transmission};

/// The registry entry.
pub const ENTRY: Entry<Scatter> = Entry {
    info: Info {
        name: "scatter",
        summary: "single node scatter, farthest first on a balanced shortest-path tree",
        reference: "Bertsekas et al. 1991, section 3",
        claim: "MLA: ceil((2^d-1)/d) slots, SLA: 2^d-1 slots; d 2^(d-1) transmissions; \
                every packet delivered once, contention-free",
        modes: &[(Sf, All), (Sf, One)],
        reach: Reach::lockstep_only(5),
        params: &[],
        memory: crate::entry::Footprint::Whole(crate::entry::personal_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: Scatter::new,
};

/// Trees past this many are not enumerated (the executor uses the first).
pub const MAX_TREES: usize = 4096;

/// A shortest-path spanning tree from node 0, by parent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// `parent[x]` for x != 0.
    pub parent: Vec<NodeId>,
}

impl Tree {
    /// Every node's [`Tree::top`] (the root's 0), in one pass where a
    /// parent comes before its children (a node with one bit fewer, as in
    /// every tree here), else by the walk: the 25-cube's 33 million nodes
    /// walked to the root one by one, once per subtree, took minutes to
    /// build gather's model.
    pub fn tops(&self) -> Vec<NodeId> {
        let mut tops = vec![0; self.parent.len()];
        for x in 1..self.parent.len() {
            tops[x] = match self.parent[x] {
                0 => x as NodeId,
                p if (p as usize) < x => tops[p as usize],
                _ => self.top(x as NodeId),
            };
        }
        tops
    }

    /// `nodes` (none the root) of the d-cube split by the subtree they
    /// hang in: group j under the root's neighbour across dimension j,
    /// each group in the order given.
    pub fn by_subtree(&self, nodes: Vec<NodeId>, d: u32) -> Vec<Vec<NodeId>> {
        let tops = self.tops();
        let mut groups = vec![Vec::new(); d as usize];
        for x in nodes {
            groups[tops[x as usize].trailing_zeros() as usize].push(x);
        }
        groups
    }

    /// The neighbour of the root on x's path: the subtree x is in.
    pub fn top(&self, mut x: NodeId) -> NodeId {
        while self.parent[x as usize] != 0 {
            x = self.parent[x as usize];
        }
        x
    }

    /// The next node after `at` on the path to `to` (a descendant of `at`).
    pub fn next_hop(&self, at: NodeId, mut to: NodeId) -> Option<NodeId> {
        while to != 0 {
            let p = self.parent[to as usize];
            if p == at {
                return Some(to);
            }
            to = p;
        }
        None
    }

    /// The Fig. 4 tree: parent = x with its rightmost one cleared.
    pub fn binomial(d: u32) -> Tree {
        Tree {
            parent: (0..1u32 << d).map(|x| x & x.wrapping_sub(1)).collect(),
        }
    }
}

/// The balanced trees of section 3 for d >= 2, every choice, up to
/// `cap`; the bool says whether that was all of them.
pub fn balanced_trees(d: u32, cap: usize) -> (Vec<Tree>, bool) {
    let choices = Choices::new(d);
    // Classes in numbering order with the number of their first element.
    let mut classes: Vec<(u32, Vec<NodeId>, u32)> = Vec::new();
    let mut n = 1;
    for (k, level) in choices.classes().iter().enumerate() {
        for class in level {
            classes.push((k as u32 + 1, class.clone(), n));
            n += class.len() as u32;
        }
    }
    let mut class_of = vec![u32::MAX; 1 << d];
    for (ix, (_, class, _)) in classes.iter().enumerate() {
        for &x in class {
            class_of[x as usize] = ix as u32;
        }
    }
    let mut b = Builder {
        d,
        classes,
        class_of,
        parent: vec![0; 1 << d],
        order: Vec::new(),
        out: Vec::new(),
    };
    let complete = b.run(cap);
    (b.out, complete)
}

struct Builder {
    d: u32,
    /// (k, elements, number of the first element).
    classes: Vec<(u32, Vec<NodeId>, u32)>,
    /// The class of each identity (0 and 1..1 have none).
    class_of: Vec<u32>,
    parent: Vec<NodeId>,
    /// Per class placed so far, its elements from the first in rotation
    /// order.
    order: Vec<Vec<NodeId>>,
    out: Vec<Tree>,
}

impl Builder {
    fn m(&self, n: u32) -> u32 {
        1 + (n - 1) % self.d
    }

    /// Every tree, depth first over the classes (iteratively: the 20-cube
    /// has some 52,000 classes), until `cap`; true if that was all.
    fn run(&mut self, cap: usize) -> bool {
        // (class, its options, the next option to try)
        type Frame = (usize, Vec<(NodeId, NodeId)>, usize);
        let mut stack: Vec<Frame> = vec![(0, self.options(0), 0)];
        while let Some(top) = stack.last_mut() {
            let (ix, next) = (top.0, top.2);
            if next == top.1.len() {
                stack.pop();
                continue;
            }
            if self.out.len() >= cap {
                return false;
            }
            let (t, t_prime) = top.1[next];
            top.2 += 1;
            self.place(ix, t, t_prime);
            if ix + 1 == self.classes.len() {
                self.finish();
            } else {
                let options = self.options(ix + 1);
                stack.push((ix + 1, options, 0));
            }
        }
        true
    }

    /// The ways to place class `ix`: (first element t, its parent t').
    /// R_11: any first element. Later classes: for each compatible class D
    /// (d elements, one bit fewer), t' is D's element with m(t') = m_kn
    /// and t any element of the class above t'.
    fn options(&self, ix: usize) -> Vec<(NodeId, NodeId)> {
        let d = self.d;
        let (k, class, start) = &self.classes[ix];
        if *k == 1 {
            return class.iter().map(|&e| (e, 0)).collect();
        }
        let m_c = self.m(*start);
        // Each element t and each bit b it can lose: t ^ b is in a class
        // D, and is an option's t' where D is compatible and t ^ b is its
        // element with m = m_kn. The class is closed under rotation: t is
        // rotate^i(r) for its least element r, and t ^ b is rotate^i(r ^
        // b') for the bit b' of r rotated back, in the class of r ^ b'. So
        // D is looked up once per bit of r, not per element and bit (those
        // random reads of a table of 2^d classes took a minute on the
        // 25-cube). Listed as the paper's order has them: by D, then by t.
        let r = class[0];
        let mut options: Vec<(usize, usize, NodeId, NodeId)> = Vec::new();
        let mut ones = r;
        while ones != 0 {
            let b = ones & ones.wrapping_neg();
            ones ^= b;
            let j = self.class_of[(r ^ b) as usize] as usize;
            if self.classes[j].1.len() != d as usize {
                continue;
            }
            let chosen = self.order[j][((m_c + d - self.m(self.classes[j].2)) % d) as usize];
            let (mut t, mut t_prime) = (r, r ^ b);
            for _ in 0..class.len() {
                if t_prime == chosen {
                    let place = class
                        .iter()
                        .position(|&e| e == t)
                        .expect("a class holds its rotations");
                    options.push((j, place, t, t_prime));
                }
                t = rotate(t, d);
                t_prime = rotate(t_prime, d);
            }
        }
        options.sort_unstable();
        let options: Vec<(NodeId, NodeId)> =
            options.into_iter().map(|(_, _, t, tp)| (t, tp)).collect();
        #[cfg(test)]
        assert_eq!(options, self.options_by_pairs(ix), "d={d}, class {ix}");
        options
    }

    /// [`Builder::options`] as the paper states them: for each compatible
    /// class D, each element t of the class and each bit it can lose
    /// (the test's reference).
    #[cfg(test)]
    fn options_by_pairs(&self, ix: usize) -> Vec<(NodeId, NodeId)> {
        let d = self.d;
        let (_, class, start) = &self.classes[ix];
        let m_c = self.m(*start);
        let mut options = Vec::new();
        for (j, (_, other, first)) in self.classes.iter().enumerate().take(self.order.len()) {
            if other.len() != d as usize {
                continue;
            }
            let chosen = self.order[j][((m_c + d - self.m(*first)) % d) as usize];
            for &t in class {
                if (t ^ chosen).count_ones() == 1 && chosen & t == chosen {
                    options.push((t, chosen));
                }
            }
        }
        options
    }

    /// Hangs class `ix` from first element t under t', element by element.
    fn place(&mut self, ix: usize, t: NodeId, t_prime: NodeId) {
        let d = self.d;
        let (k, len) = (self.classes[ix].0, self.classes[ix].1.len());
        self.order.truncate(ix);
        let (mut x, mut xp) = (t, t_prime);
        let mut order = Vec::with_capacity(len);
        for _ in 0..len {
            order.push(x);
            self.parent[x as usize] = xp;
            x = rotate(x, d);
            xp = if k == 1 { 0 } else { rotate(xp, d) };
        }
        self.order.push(order);
    }

    /// Hangs 1..1 from the element x of R_(d-1)1 with m(x) = m(1..1) and
    /// keeps the tree.
    fn finish(&mut self) {
        let d = self.d;
        let all = (1u32 << d) - 1;
        let last = self.classes.len() - 1;
        let first_m = self.m(self.classes[last].2);
        let x = self.order[last][((self.m(all) + d - first_m) % d) as usize];
        self.parent[all as usize] = x;
        self.out.push(Tree {
            parent: self.parent.clone(),
        });
    }
}

/// Single node scatter at one configuration.
#[derive(Clone, Debug)]
pub struct Scatter {
    cube: Hypercube,
    trees: Vec<Tree>,
    complete: bool,
}

/// A node's state: the root and tree (known to all), and at the root the
/// packets not yet sent, per subtree (MLA) or all in one group (SLA), each
/// group in blocks of one distance, nearest first, so that the farthest
/// are the last block (its length is the number of ties).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ScatterState {
    /// The root.
    pub root: NodeId,
    /// The tree (an index into the balanced ones).
    pub tree: u32,
    /// At the root, the packets not yet sent: groups of blocks of one distance.
    pub remaining: Vec<Vec<Vec<NodeId>>>,
}

/// A packet, by its id: the destination in a scatter, the origin in a
/// gather (the node it is personal to).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Parcel {
    /// The packet's id.
    pub packet: NodeId,
}

impl Scatter {
    /// Scatter at `cfg`: its balanced trees (every one where they are few).
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
        Scatter {
            cube: Hypercube::new(d, cfg.switching, cfg.ports),
            trees,
            complete,
        }
    }
}

/// Tables 1 and 2's single node scatter: optimal in time (MLA ceil((2^d -
/// 1)/d) slots, SLA 2^d - 1) and in transmissions (d 2^(d-1)); gather's
/// too, by duality (section 1).
pub fn claims(cube: &Hypercube) -> Claims {
    let d = cube.dim();
    let time = match cube.ports() {
        Ports::All => bertsekas::scatter_time_mla(d),
        Ports::One => bertsekas::scatter_time_sla(d),
    };
    Claims::optimal(time, bertsekas::scatter_transmissions(d))
}

impl Protocol for Scatter {
    type Topo = Hypercube;
    /// (root, tree).
    type Input = (NodeId, u32);
    type State = ScatterState;
    type Msg = Parcel;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn claims(&self) -> Claims {
        claims(&self.cube)
    }

    fn init(&self, &(root, tree): &(NodeId, u32), node: NodeId) -> ScatterState {
        let mut remaining = Vec::new();
        if node == root {
            let t = &self.trees[tree as usize];
            let d = self.cube.dim();
            let mut all: Vec<NodeId> = (1..1u32 << d).collect();
            // Nearest first; by subtree under MLA.
            all.sort_by_key(|&x| (x.count_ones(), x));
            let groups: Vec<Vec<NodeId>> = match self.cube.ports() {
                Ports::One => vec![all],
                Ports::All => t.by_subtree(all, d),
            };
            remaining = groups
                .into_iter()
                .filter(|g| !g.is_empty())
                .map(|g| {
                    g.chunk_by(|a, b| a.count_ones() == b.count_ones())
                        .map(<[NodeId]>::to_vec)
                        .collect()
                })
                .collect();
        }
        ScatterState {
            root,
            tree,
            remaining,
        }
    }

    fn packets(&self, msg: &Parcel, mut f: impl FnMut(PacketId)) {
        f(msg.packet)
    }

    fn step(
        &self,
        node: NodeId,
        s: &mut ScatterState,
        _: Slot,
        arrivals: &[Arrival<Parcel>],
        mut choice: u32,
        out: &mut Vec<Transmission<Parcel>>,
    ) -> bool {
        let root = s.root;
        let tree = &self.trees[s.tree as usize];
        let x = node ^ root;
        let send = |dest_rel: NodeId, out: &mut Vec<Transmission<Parcel>>| {
            let hop = tree.next_hop(x, dest_rel).expect("a descendant");
            out.push(Transmission {
                route: Route::Link {
                    from: node,
                    to: hop ^ root,
                },
                msg: Parcel {
                    packet: dest_rel ^ root,
                },
            });
        };
        for a in arrivals {
            let y = a.msg.packet ^ root;
            if y != x {
                send(y, out);
            }
        }
        for g in s.remaining.iter_mut() {
            let block = g.last_mut().expect("groups are not empty");
            let k = block.len() as u32;
            let pick = block.len() - 1 - (choice % k) as usize;
            choice /= k;
            let y = block.remove(pick);
            if block.is_empty() {
                g.pop();
            }
            send(y, out);
        }
        s.remaining.retain(|g| !g.is_empty());
        !s.remaining.is_empty()
    }

    fn domain(&self) -> impl Inputs<(NodeId, u32)> + '_ {
        self
    }

    fn choices(&self) -> Option<impl OpenChoices<ScatterState, Parcel> + '_> {
        Some(self)
    }
}

/// The inputs the claim ranges over.
impl Inputs<(NodeId, u32)> for &Scatter {
    fn task(&self, &(root, _): &(NodeId, u32)) -> Task {
        Task::Scatter {
            nodes: self.cube.nodes(),
            root,
        }
    }

    fn source_input(&self, root: NodeId) -> Option<(NodeId, u32)> {
        Some((root, 0))
    }

    fn sourced(&self, root: NodeId) -> Vec<(NodeId, u32)> {
        (0..self.trees.len() as u32).map(|t| (root, t)).collect()
    }

    fn total(&self) -> u64 {
        (self.cube.nodes() as u64) * self.trees.len() as u64
    }

    fn describe(&self, &(root, tree): &(NodeId, u32)) -> String {
        let of = if self.complete { "" } else { "at least " };
        format!(
            "root {}, tree {tree} of {of}{}",
            self.cube.node_label(root),
            self.trees.len()
        )
    }

    fn symmetry(&self) -> Option<Symmetry> {
        Some(Symmetry::XorTranslation)
    }
}

/// Open choices and scheduled sends.
impl OpenChoices<ScatterState, Parcel> for &Scatter {
    /// The root chooses among the farthest packets of each group.
    fn ways(&self, _: NodeId, s: &ScatterState, _: Slot, _: &[Arrival<Parcel>]) -> u32 {
        s.remaining
            .iter()
            .map(|g| g.last().map_or(1, |b| b.len() as u32))
            .fold(1u32, |a, b| a.saturating_mul(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tree is a shortest-path spanning tree whose subtrees hold at
    /// most ceil((2^d - 1)/d) nodes (the construction's two properties).
    #[test]
    fn balanced_trees_are_balanced_shortest_path_trees() {
        for d in 2..=6u32 {
            let (trees, _) = balanced_trees(d, 64);
            assert!(!trees.is_empty(), "d={d}");
            // Builder::options is held to options_by_pairs at each class.
            assert!(!balanced_trees(d + 4, 8).0.is_empty(), "d={}", d + 4);
            let limit = ((1u32 << d) - 1).div_ceil(d) as usize;
            for t in &trees {
                let mut sizes = vec![0usize; d as usize];
                for x in 1..1u32 << d {
                    let p = t.parent[x as usize];
                    assert_eq!((x ^ p).count_ones(), 1, "d={d}: a link");
                    assert_eq!(p.count_ones() + 1, x.count_ones(), "d={d}: shortest");
                    sizes[t.top(x).trailing_zeros() as usize] += 1;
                }
                assert!(sizes.iter().all(|&s| s <= limit), "d={d}: {sizes:?}");
            }
        }
    }
}
