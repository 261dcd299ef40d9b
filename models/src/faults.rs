//! Faults of the network (docs/architecture.md, "Faults"): an arc, a link
//! (both its arcs), a bus or a node that fails, from the start or from a
//! given slot on (fail-stop), and what the one run semantics makes of them.
//!
//! * A transmission over a failed arc, or through a crashed node, is
//!   lost: under store-and-forward at the failed hop (a link is one hop,
//!   a fan-out loses only its failed links), under wormhole the whole
//!   worm. It still counts as sent and takes its resources in its slot:
//!   the sender did send it, and the header that meets the failed channel
//!   holds the path it has set up until the slot ends.
//! * A write on a failed bus is lost to every reader; a crashed node
//!   reads nothing, and the bus still carries what others write (a bus is
//!   a shared medium, not a chain of links through its nodes).
//! * A crashed node neither sends, receives nor relays from its slot on.
//! * completeness asks of every healthy node only what it can still get:
//!   a packet held at the end by a healthy node from which it is reachable
//!   over healthy arcs, buses and nodes ([`Faults::excuser`]).

use crate::topology::Topology;
use properties::{NodeId, PacketId, ResourceId, Route, Slot};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// What fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// One direction of a link.
    Arc(NodeId, NodeId),
    /// Both directions of a link (the first node the lower).
    Link(NodeId, NodeId),
    /// A node: it crashes.
    Node(NodeId),
    /// A bus (the resource a write on it takes): no write on it arrives.
    Bus(ResourceId),
}

/// One fault: a part, down from slot `from` on (1: from the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fault {
    /// What fails.
    pub part: Part,
    /// The first slot in which it is down.
    pub from: Slot,
}

/// Why `--fault` text names no fault of the network, in one line
/// (`text` is the text given).
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum FaultError {
    /// Text of more than one line.
    #[error("--fault {text:?}: a fault is one line of text")]
    Lines {
        /// The text.
        text: String,
    },
    /// A slot after `@` that is not a number from 1.
    #[error("--fault {text}: the slot after @ is a number from 1")]
    Slot {
        /// The text.
        text: String,
    },
    /// No `kind:` before the part.
    #[error("--fault {text}: expected arc:U->V, link:U-V, node:V or bus:B, optionally @SLOT")]
    Form {
        /// The text.
        text: String,
    },
    /// A node the network does not have.
    #[error("--fault {text}: '{node}' is not a node of the network")]
    NotANode {
        /// The text.
        text: String,
        /// The node as given.
        node: String,
    },
    /// Two nodes that no link joins.
    #[error("--fault {text}: {from} and {to} are not linked")]
    NotLinked {
        /// The text.
        text: String,
        /// The first node, labelled.
        from: String,
        /// The second.
        to: String,
    },
    /// An arc not written `arc:U->V`.
    #[error("--fault {text}: an arc is written arc:U->V")]
    ArcForm {
        /// The text.
        text: String,
    },
    /// A link not written `link:U-V`.
    #[error("--fault {text}: a link is written link:U-V")]
    LinkForm {
        /// The text.
        text: String,
    },
    /// A bus of a network without buses.
    #[error("--fault {text}: the network has links, not buses")]
    NoBuses {
        /// The text.
        text: String,
    },
    /// A bus the network does not have.
    #[error("--fault {text}: '{bus}' is not a bus of the network (they are named like {like})")]
    NotABus {
        /// The text.
        text: String,
        /// The bus as given.
        bus: String,
        /// One of the network's buses.
        like: String,
    },
    /// A part that is not an arc, a link, a node or a bus.
    #[error("--fault {text}: '{kind}' is not arc, link, node or bus")]
    Kind {
        /// The text.
        text: String,
        /// The kind given.
        kind: String,
    },
}

impl Fault {
    /// `part`, down from the start.
    pub fn at_start(part: Part) -> Fault {
        Fault { part, from: 1 }
    }

    /// The fault as `--fault` takes it (`arc:0001->0011@2`, `node:0110`).
    pub fn arg(&self, t: &impl Topology) -> String {
        let l = |v| t.node_label(v);
        let part = match self.part {
            Part::Arc(u, v) => format!("arc:{}->{}", l(u), l(v)),
            Part::Link(u, v) => format!("link:{}-{}", l(u), l(v)),
            Part::Node(v) => format!("node:{}", l(v)),
            Part::Bus(b) => {
                let buses = t.buses();
                let name = buses.iter().find(|m| m.resource == b).map(|m| &m.name);
                format!("bus:{}", name.cloned().unwrap_or_else(|| b.to_string()))
            }
        };
        match self.from {
            1 => part,
            s => format!("{part}@{s}"),
        }
    }

    /// The fault in words (`link 0001-0011 from slot 2`).
    pub fn words(&self, t: &impl Topology) -> String {
        let arg = self.arg(t);
        let (part, at) = arg.split_once('@').unwrap_or((&arg, ""));
        let part = part.replacen(':', " ", 1);
        match at {
            "" => part,
            s => format!("{part} from slot {s}"),
        }
    }

    /// Reads `--fault` text: `arc:U->V`, `link:U-V`, `node:V` or
    /// `bus:B`, then optionally `@SLOT`, nodes as the network labels them
    /// (bits on a cube, `2,3` or `(2,3)` on a mesh) or by id, buses by
    /// name (`R_2`, `C_1` on a mesh-bus). Refuses, in one line, a node not
    /// in the network, an arc that is not a link, a bus it does not have,
    /// slot 0.
    pub fn parse(text: &str, t: &impl Topology) -> Result<Fault, FaultError> {
        let given = || text.to_string();
        if text.chars().any(char::is_control) {
            return Err(FaultError::Lines { text: given() });
        }
        let (body, from) = match text.split_once('@') {
            Some((b, s)) => match s.trim().parse::<Slot>() {
                Ok(s) if s >= 1 => (b, s),
                _ => return Err(FaultError::Slot { text: given() }),
            },
            None => (text, 1),
        };
        let (kind, rest) = body
            .split_once(':')
            .ok_or_else(|| FaultError::Form { text: given() })?;
        let node = |s: &str| {
            node_named(s.trim(), t).ok_or_else(|| FaultError::NotANode {
                text: given(),
                node: s.trim().to_string(),
            })
        };
        let linked = |u: NodeId, v: NodeId| match t.invalid(&Route::Link { from: u, to: v }) {
            None => Ok(()),
            Some(_) => Err(FaultError::NotLinked {
                text: given(),
                from: t.node_label(u),
                to: t.node_label(v),
            }),
        };
        let part = match kind.trim() {
            "arc" => {
                let (u, v) = rest
                    .split_once("->")
                    .ok_or_else(|| FaultError::ArcForm { text: given() })?;
                let (u, v) = (node(u)?, node(v)?);
                linked(u, v)?;
                Part::Arc(u, v)
            }
            "link" => {
                let (u, v) = rest
                    .split_once('-')
                    .filter(|(_, v)| !v.starts_with('>'))
                    .ok_or_else(|| FaultError::LinkForm { text: given() })?;
                let (u, v) = (node(u)?, node(v)?);
                linked(u, v)?;
                Part::Link(u.min(v), u.max(v))
            }
            "node" => Part::Node(node(rest)?),
            "bus" => {
                let buses = t.buses();
                let named = buses
                    .iter()
                    .find(|m| m.name == rest.trim())
                    .map(|m| Part::Bus(m.resource));
                named.ok_or_else(|| match buses.first() {
                    None => FaultError::NoBuses { text: given() },
                    Some(m) => FaultError::NotABus {
                        text: given(),
                        bus: rest.trim().to_string(),
                        like: m.name.clone(),
                    },
                })?
            }
            other => {
                return Err(FaultError::Kind {
                    text: given(),
                    kind: other.to_string(),
                })
            }
        };
        Ok(Fault { part, from })
    }
}

/// A node named as the network labels it, or by its id. (A large cube's
/// labels are read as bits rather than searched.)
fn node_named(text: &str, t: &impl Topology) -> Option<NodeId> {
    let bare = text.trim_start_matches('(').trim_end_matches(')');
    let zero = t.node_label(0);
    let found = if t.nodes() > 1 << 16 {
        let bits = zero.len() == bare.len() && zero.bytes().all(|b| b == b'0');
        bits.then(|| u32::from_str_radix(bare, 2).ok())
            .flatten()
            .filter(|&v| v < t.nodes())
    } else {
        (0..t.nodes()).find(|&v| {
            let label = t.node_label(v);
            label.trim_start_matches('(').trim_end_matches(')') == bare
        })
    };
    found.or_else(|| bare.parse().ok().filter(|&v| v < t.nodes()))
}

/// The faults of one run, indexed for the judge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    list: Vec<Fault>,
    /// Each failed arc (u, v) as u << 32 | v, with its first slot down.
    arcs: HashMap<u64, Slot>,
    /// Each crashed node, with its first slot down.
    nodes: BTreeMap<NodeId, Slot>,
    /// Each failed bus, with its first slot down.
    buses: BTreeMap<ResourceId, Slot>,
}

impl Faults {
    /// The faults listed (a fault named twice counts from its earliest slot).
    pub fn new(mut list: Vec<Fault>) -> Faults {
        list.sort();
        list.dedup();
        let mut faults = Faults::default();
        let earliest = |m: &mut Slot, s: Slot| *m = (*m).min(s);
        for f in &list {
            match f.part {
                Part::Arc(u, v) => earliest(faults.arcs.entry(arc(u, v)).or_insert(f.from), f.from),
                Part::Link(u, v) => {
                    for key in [arc(u, v), arc(v, u)] {
                        earliest(faults.arcs.entry(key).or_insert(f.from), f.from);
                    }
                }
                Part::Node(v) => earliest(faults.nodes.entry(v).or_insert(f.from), f.from),
                Part::Bus(b) => earliest(faults.buses.entry(b).or_insert(f.from), f.from),
            }
        }
        faults.list = list;
        faults
    }

    /// No fault at all.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The faults, in order.
    pub fn list(&self) -> &[Fault] {
        &self.list
    }

    /// True if `node` has crashed by `slot`.
    #[inline]
    pub fn crashed(&self, node: NodeId, slot: Slot) -> bool {
        self.nodes.get(&node).is_some_and(|&s| s <= slot)
    }

    /// The slot from which `node` is down, if it crashes.
    pub fn crash_slot(&self, node: NodeId) -> Option<Slot> {
        self.nodes.get(&node).copied()
    }

    /// True if nothing crosses arc u -> v in `slot`: the arc failed, or
    /// one of its ends crashed.
    #[inline]
    pub fn arc_down(&self, u: NodeId, v: NodeId, slot: Slot) -> bool {
        self.arcs.get(&arc(u, v)).is_some_and(|&s| s <= slot)
            || self.crashed(u, slot)
            || self.crashed(v, slot)
    }

    /// True if bus `bus` has failed by `slot`.
    #[inline]
    pub fn bus_down(&self, bus: ResourceId, slot: Slot) -> bool {
        self.buses.get(&bus).is_some_and(|&s| s <= slot)
    }

    /// True if what `route` carries to `to` in `slot` is lost (see the
    /// module header).
    pub fn lost(&self, t: &impl Topology, route: &Route, to: NodeId, slot: Slot) -> bool {
        match *route {
            Route::Link { from, to } => self.arc_down(from, to, slot),
            Route::Fan { from, .. } => self.arc_down(from, to, slot),
            Route::Bus { bus, .. } => {
                self.bus_down(bus as ResourceId, slot) || self.crashed(to, slot)
            }
            Route::Worm { .. } => t
                .path(route)
                .windows(2)
                .any(|w| self.arc_down(w[0], w[1], slot)),
        }
    }

    /// The nodes reachable over arcs, buses and nodes still up at `slot`
    /// from the healthy nodes in `start`, as a mark per node. `adj` holds
    /// each node's hops: a neighbour over a link (`None`), or over a bus.
    fn reached(
        &self,
        adj: &[Vec<(NodeId, Option<ResourceId>)>],
        start: impl Iterator<Item = NodeId>,
        slot: Slot,
    ) -> Vec<bool> {
        let mut seen = vec![false; adj.len()];
        let mut queue: Vec<NodeId> = start.filter(|&u| !self.crashed(u, slot)).collect();
        for &u in &queue {
            seen[u as usize] = true;
        }
        while let Some(u) = queue.pop() {
            for &(v, bus) in &adj[u as usize] {
                let down = match bus {
                    None => self.arc_down(u, v, slot),
                    Some(b) => self.bus_down(b, slot) || self.crashed(v, slot),
                };
                if !seen[v as usize] && !down {
                    seen[v as usize] = true;
                    queue.push(v);
                }
            }
        }
        seen
    }

    /// What completeness excuses at the end (`slot`) of a run: `node`
    /// missing `packet` is excused if it has crashed, or if no healthy
    /// node holding the packet at the end reaches it over arcs and nodes
    /// still up. `holds` says who holds what at the end. (One search per
    /// packet asked about, from all its healthy holders at once.)
    pub fn excuser<'a, T: Topology>(
        &'a self,
        t: &'a T,
        slot: Slot,
        holds: impl Fn(NodeId, PacketId) -> bool + 'a,
    ) -> impl FnMut(NodeId, PacketId) -> bool + 'a {
        let mut adj: Vec<Vec<(NodeId, Option<ResourceId>)>> = vec![Vec::new(); t.nodes() as usize];
        let buses = t.buses();
        if buses.is_empty() {
            t.links(|u, v| {
                adj[u as usize].push((v, None));
                adj[v as usize].push((u, None));
            });
        }
        // A bus takes a writer to every node on it, past crashed ones.
        for m in &buses {
            for &u in &m.nodes {
                let others = m.nodes.iter().filter(|&&v| v != u);
                let others = others.map(|&v| (v, Some(m.resource)));
                adj[u as usize].extend(others);
            }
        }
        let mut reach: HashMap<PacketId, Vec<bool>> = HashMap::new();
        move |node, packet| {
            if self.crashed(node, slot) {
                return true;
            }
            let reached = reach.entry(packet).or_insert_with(|| {
                let holders = (0..t.nodes()).filter(|&u| holds(u, packet));
                self.reached(&adj, holders, slot)
            });
            !reached[node as usize]
        }
    }

    /// The faults in words, `none` if there are none.
    pub fn words(&self, t: &impl Topology) -> String {
        match self.list.is_empty() {
            true => "no faults".into(),
            false => self
                .list
                .iter()
                .map(|f| f.words(t))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The image of these faults under v -> v xor s (the hypercube's
    /// translation, `Symmetry::XorTranslation`).
    pub fn translated(&self, s: NodeId) -> Faults {
        Faults::new(
            self.list
                .iter()
                .map(|f| Fault {
                    part: match f.part {
                        Part::Arc(u, v) => Part::Arc(u ^ s, v ^ s),
                        Part::Link(u, v) => Part::Link((u ^ s).min(v ^ s), (u ^ s).max(v ^ s)),
                        Part::Node(v) => Part::Node(v ^ s),
                        Part::Bus(b) => Part::Bus(b),
                    },
                    from: f.from,
                })
                .collect(),
        )
    }
}

fn arc(u: NodeId, v: NodeId) -> u64 {
    (u as u64) << 32 | v as u64
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Arc(u, v) => write!(f, "arc {u}->{v}"),
            Part::Link(u, v) => write!(f, "link {u}-{v}"),
            Part::Node(v) => write!(f, "node {v}"),
            Part::Bus(b) => write!(f, "bus {b}"),
        }
    }
}

/// Every set of at most `most` links (both arcs of each; buses on a
/// mesh-bus, [`links`]) of `t` failing from the start, in increasing
/// order of size then of links, the empty set first.
pub fn link_fault_sets(t: &impl Topology, most: u32) -> Vec<Faults> {
    subsets(&links(t), most)
}

/// The links of `t` as parts that fail, or its buses on a network of
/// buses (a bus is a mesh-bus's link).
pub fn links(t: &impl Topology) -> Vec<Part> {
    let mut links = Vec::new();
    each_link(t, |part| links.push(part));
    links
}

/// Calls `f` on each of [`links`], without listing them.
pub fn each_link(t: &impl Topology, mut f: impl FnMut(Part)) {
    let buses = t.buses();
    buses.iter().for_each(|m| f(Part::Bus(m.resource)));
    if buses.is_empty() {
        t.links(|u, v| f(Part::Link(u, v)));
    }
}

/// Every set of at most `most` failed arcs (one direction of a link
/// each) of `t`, from the start.
pub fn arc_fault_sets(t: &impl Topology, most: u32) -> Vec<Faults> {
    subsets(&arcs(t), most)
}

/// The arcs of `t` (both directions of each link) as parts that fail.
pub fn arcs(t: &impl Topology) -> Vec<Part> {
    let mut arcs = Vec::new();
    t.links(|u, v| arcs.extend([Part::Arc(u, v), Part::Arc(v, u)]));
    arcs
}

/// Every set of at most `most` crashed nodes of `t`, from the start.
pub fn node_fault_sets(t: &impl Topology, most: u32) -> Vec<Faults> {
    subsets(&nodes(t), most)
}

/// The nodes of `t` as parts that fail.
pub fn nodes(t: &impl Topology) -> Vec<Part> {
    (0..t.nodes()).map(Part::Node).collect()
}

fn subsets(parts: &[Part], most: u32) -> Vec<Faults> {
    let sets = Subsets::new(parts.to_vec(), most);
    (0..sets.count())
        .map(|r| Faults::new(sets.nth(r)))
        .collect()
}

/// Every set of at most `most` of `parts` failing from the start, in
/// increasing order of size then lexicographic order of parts (the
/// empty set first), reached by its index without listing those before
/// it: a sweep of fault sets may have millions, and a check makes each
/// one only when it runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subsets {
    parts: Vec<Part>,
    most: u32,
}

impl Subsets {
    /// The sets of at most `most` of `parts`.
    pub fn new(parts: Vec<Part>, most: u32) -> Subsets {
        let most = most.min(parts.len() as u32);
        Subsets { parts, most }
    }

    /// How many sets (saturating; at least one, the empty set).
    pub fn count(&self) -> u64 {
        count_sets(self.parts.len() as u64, self.most)
    }

    /// Set `r` (below [`Subsets::count`]).
    pub fn nth(&self, mut r: u64) -> Vec<Fault> {
        let n = self.parts.len() as u64;
        for k in 0..=self.most as u64 {
            let of_size = binomial(n, k).min(u64::MAX as u128) as u64;
            if r < of_size {
                return nth_combination(n, k, r)
                    .into_iter()
                    .map(|i| Fault::at_start(self.parts[i as usize]))
                    .collect();
            }
            r -= of_size;
        }
        panic!("fault set {r} past the last of {} sets", self.count())
    }
}

/// C(n, k), exact while it fits (saturating past u128).
fn binomial(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        c = match c.checked_mul((n - i) as u128) {
            Some(x) => x / (i + 1) as u128,
            None => return u128::MAX,
        };
    }
    c
}

/// The `r`-th k-subset of 0..n in lexicographic order. Element i is the
/// largest c whose predecessors (the subsets whose element i is below c,
/// C(n - lo, m + 1) - C(n - c, m + 1) by the hockey-stick identity, m
/// the elements after it) number at most r: found by bisection, so a set
/// of millions of links is reached in a few dozen steps.
fn nth_combination(n: u64, k: u64, mut r: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(k as usize);
    let mut lo = 0;
    for i in 0..k {
        let m = k - i - 1;
        let all = binomial(n - lo, m + 1);
        let before = |c: u64| all - binomial(n - c, m + 1);
        let (mut a, mut b) = (lo, n - m - 1);
        while a < b {
            let mid = a + (b - a).div_ceil(2);
            match before(mid) <= r as u128 {
                true => a = mid,
                false => b = mid - 1,
            }
        }
        r -= before(a) as u64;
        out.push(a);
        lo = a + 1;
    }
    out
}

/// How many sets [`link_fault_sets`] or [`node_fault_sets`] would list:
/// the sum of C(parts, k) for k <= most (saturating), to refuse before
/// listing.
pub fn count_sets(parts: u64, most: u32) -> u64 {
    let mut total: u64 = 0;
    let mut c: u64 = 1;
    for k in 0..=most as u64 {
        if k > parts {
            break;
        }
        total = total.saturating_add(c);
        c = c.saturating_mul(parts - k) / (k + 1);
    }
    total
}

/// Each link or node fails with probability `p`, drawn from `seed`
/// (splitmix64: the same faults for the same seed on every machine).
pub fn random_faults(t: &impl Topology, p: f64, nodes: bool, seed: u64) -> Faults {
    let mut state = seed;
    let mut draw = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut list = Vec::new();
    if nodes {
        for v in 0..t.nodes() {
            if draw() < p {
                list.push(Fault::at_start(Part::Node(v)));
            }
        }
    } else {
        each_link(t, |part| {
            if draw() < p {
                list.push(Fault::at_start(part));
            }
        });
    }
    Faults::new(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The k-subsets of 0..n in lexicographic order, listed one after
    /// another (the definition the bisection must agree with).
    fn listed(n: u64, k: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        let mut c: Vec<u64> = (0..k).collect();
        if k > n {
            return out;
        }
        loop {
            out.push(c.clone());
            let Some(i) = (0..k).rev().find(|&i| c[i as usize] != i + n - k) else {
                return out;
            };
            c[i as usize] += 1;
            for j in i as usize + 1..k as usize {
                c[j] = c[j - 1] + 1;
            }
        }
    }

    #[test]
    fn each_subset_is_reached_by_its_index() {
        for n in 0..=9 {
            for k in 0..=n.min(5) {
                let sets = listed(n, k);
                assert_eq!(binomial(n, k), sets.len() as u128, "C({n}, {k})");
                for (r, set) in sets.iter().enumerate() {
                    assert_eq!(&nth_combination(n, k, r as u64), set, "n {n} k {k} r {r}");
                }
            }
        }
        // A set of a large network, far down the list.
        let n = 1 << 19;
        assert_eq!(nth_combination(n, 1, n - 1), vec![n - 1]);
        assert_eq!(nth_combination(n, 2, 0), vec![0, 1]);
        assert_eq!(nth_combination(n, 2, n - 1), vec![1, 2]);
    }

    #[test]
    fn subsets_go_by_size_then_order() {
        let parts: Vec<Part> = (0..5).map(Part::Node).collect();
        let sets = Subsets::new(parts, 2);
        assert_eq!(sets.count(), 1 + 5 + 10);
        let at = |r| sets.nth(r).iter().map(|f| f.part).collect::<Vec<_>>();
        assert_eq!(at(0), vec![]);
        assert_eq!(at(1), vec![Part::Node(0)]);
        assert_eq!(at(5), vec![Part::Node(4)]);
        assert_eq!(at(6), vec![Part::Node(0), Part::Node(1)]);
        assert_eq!(at(15), vec![Part::Node(3), Part::Node(4)]);
    }
}
