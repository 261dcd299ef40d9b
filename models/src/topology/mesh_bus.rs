//! The n x n mesh-bus computer of Fujita, "Gossiping in Mesh-Bus Computers
//! by Packets with Bounded Length", section 2: node (i, j) on row bus R_i
//! and column bus C_j, every bus CREW.
//!
//! Node (i, j) (the paper's 1-based row i, column j) has id (i - 1) n +
//! (j - 1). Resources are the 2n buses: R_i is i - 1, C_j is n + j - 1. A
//! write `Route::Bus { from, bus }` occupies its bus for the step (two
//! writers of one bus in one step are a contention-freedom violation: the
//! CW of CREW is exclusive) and is received by every other node on the bus
//! (the CR: everyone eavesdrops). A node may write on both its buses in
//! one step ("can send a message ... through the two buses").

use crate::topology::{Medium, Topology};
use properties::{NodeId, PacketId, ResourceId, Route};

/// An n x n mesh with row and column buses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshBus {
    n: u32,
}

/// A bus: a row's or a column's (0-based index).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Bus {
    /// Row bus R_i (0-based i).
    Row(u32),
    /// Column bus C_j (0-based j).
    Col(u32),
}

impl MeshBus {
    /// The largest side: a message's tokens along a line are a mask of
    /// this many bits ([`Mask`]); n = 256 is the largest size
    /// (65 536 nodes, 512 MB of holdings).
    pub const MAX_SIDE: u32 = 256;

    /// The n x n mesh-bus.
    pub fn new(n: u32) -> Self {
        assert!((1..=Self::MAX_SIDE).contains(&n), "side {n} out of range");
        MeshBus { n }
    }

    /// The side n.
    pub fn side(&self) -> u32 {
        self.n
    }

    /// The node at 0-based (row, column).
    #[inline]
    pub fn node(&self, row: u32, col: u32) -> NodeId {
        row * self.n + col
    }

    /// The 0-based (row, column) of `node`.
    #[inline]
    pub fn at(&self, node: NodeId) -> (u32, u32) {
        (node / self.n, node % self.n)
    }

    /// The resource id of `bus`.
    #[inline]
    pub fn bus(&self, bus: Bus) -> u32 {
        match bus {
            Bus::Row(i) => i,
            Bus::Col(j) => self.n + j,
        }
    }

    /// The bus with resource id `id`.
    pub fn bus_of(&self, id: u32) -> Bus {
        match id < self.n {
            true => Bus::Row(id),
            false => Bus::Col(id - self.n),
        }
    }

    /// A write by `from` on `bus`.
    pub fn write(&self, from: NodeId, bus: Bus) -> Route {
        Route::Bus {
            from,
            bus: self.bus(bus),
        }
    }

    /// The nodes on `bus`, in order along it.
    pub fn on(&self, bus: Bus) -> impl Iterator<Item = NodeId> + '_ {
        (0..self.n).map(move |k| match bus {
            Bus::Row(i) => self.node(i, k),
            Bus::Col(j) => self.node(k, j),
        })
    }

    fn bus_label(&self, id: u32) -> String {
        match self.bus_of(id) {
            Bus::Row(i) => format!("R_{}", i + 1),
            Bus::Col(j) => format!("C_{}", j + 1),
        }
    }

    fn why_invalid(&self, route: &Route) -> Option<String> {
        let Route::Bus { from, bus } = *route else {
            return Some("a mesh-bus computer has buses, not links".into());
        };
        if from >= self.nodes() {
            return Some(format!(
                "node {from} is not a node of the {0}x{0} mesh",
                self.n
            ));
        }
        if bus >= 2 * self.n {
            return Some(format!(
                "bus {bus} is not a bus of the {0}x{0} mesh",
                self.n
            ));
        }
        let (i, j) = self.at(from);
        match self.bus_of(bus) {
            Bus::Row(r) if r == i => None,
            Bus::Col(c) if c == j => None,
            _ => Some(format!(
                "{} is not on {}",
                self.node_label(from),
                self.bus_label(bus)
            )),
        }
    }
}

impl Topology for MeshBus {
    fn nodes(&self) -> u32 {
        self.n * self.n
    }

    fn resources(&self) -> ResourceId {
        2 * self.n as u64
    }

    #[inline]
    fn occupy(&self, route: &Route, mut f: impl FnMut(ResourceId)) {
        if let Route::Bus { bus, .. } = *route {
            f(bus as ResourceId)
        }
    }

    #[inline]
    fn receivers(&self, route: &Route, mut f: impl FnMut(NodeId)) {
        let Route::Bus { from, bus } = *route else {
            panic!("a mesh-bus computer has buses, not links");
        };
        for v in self.on(self.bus_of(bus)) {
            if v != from {
                f(v)
            }
        }
    }

    #[inline]
    fn receivers_run(&self, route: &Route) -> Option<(NodeId, u32, u32)> {
        let Route::Bus { bus, .. } = *route else {
            return None;
        };
        Some(match self.bus_of(bus) {
            Bus::Row(i) => (i * self.n, 1, self.n),
            Bus::Col(j) => (j, self.n, self.n),
        })
    }

    #[inline]
    /// The write on the row or column bus `from` shares with `to` (a
    /// node elsewhere is no bus's reader: an arc, which is refused).
    fn message_route(&self, from: NodeId, to: NodeId, _: bool) -> Route {
        let ((r, c), (r2, c2)) = (self.at(from), self.at(to));
        match (r == r2, c == c2) {
            (true, _) => self.write(from, Bus::Row(r)),
            (_, true) => self.write(from, Bus::Col(c)),
            _ => Route::Link { from, to },
        }
    }

    fn invalid(&self, route: &Route) -> Option<String> {
        self.why_invalid(route)
    }

    fn path(&self, route: &Route) -> Vec<NodeId> {
        match *route {
            Route::Bus { bus, .. } if bus < 2 * self.n => self.on(self.bus_of(bus)).collect(),
            _ => vec![route.from()],
        }
    }

    fn position(&self, node: NodeId) -> (f32, f32) {
        let (i, j) = self.at(node);
        (j as f32, i as f32)
    }

    fn buses(&self) -> Vec<Medium> {
        (0..2 * self.n)
            .map(|b| Medium {
                resource: b as ResourceId,
                name: self.bus_label(b),
                nodes: self.on(self.bus_of(b)).collect(),
            })
            .collect()
    }

    fn links(&self, mut f: impl FnMut(NodeId, NodeId)) {
        // The buses, drawn as the segments between neighbours on them.
        for i in 0..self.n {
            for j in 0..self.n {
                if j + 1 < self.n {
                    f(self.node(i, j), self.node(i, j + 1));
                }
                if i + 1 < self.n {
                    f(self.node(i, j), self.node(i + 1, j));
                }
            }
        }
    }

    fn arc_ends(&self, _: ResourceId) -> Option<(NodeId, NodeId)> {
        None
    }

    fn node_label(&self, node: NodeId) -> String {
        let (i, j) = self.at(node);
        format!("({},{})", i + 1, j + 1)
    }

    fn resource_label(&self, r: ResourceId) -> String {
        format!("bus {}", self.bus_label(r as u32))
    }

    fn route_label(&self, route: &Route) -> String {
        match *route {
            Route::Bus { from, bus } if bus < 2 * self.n => {
                format!("{} on {}", self.node_label(from), self.bus_label(bus))
            }
            _ => format!("{route:?}"),
        }
    }
}

/// A set of positions along a line of at most [`MeshBus::MAX_SIDE`]
/// nodes, one bit each.
pub type Mask = [u64; 4];

/// What a gossip message carries: the tokens of the nodes of one line (a
/// row or a column, not necessarily the bus it is written on) at the
/// positions set in `mask` (the token of node v has id v). The checker
/// reads the tokens off the message, checks the sender holds each
/// (causality) and that there are at most l (message-length).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct LineTokens {
    /// The line whose tokens it carries.
    pub line: Bus,
    /// Which positions along it.
    pub mask: Mask,
}

impl LineTokens {
    /// No tokens yet, of `line`.
    pub fn new(line: Bus) -> Self {
        LineTokens { line, mask: [0; 4] }
    }

    /// Adds the token at position `k` along the line.
    pub fn add(&mut self, k: u32) {
        self.mask[k as usize / 64] |= 1 << (k % 64);
    }

    /// Takes token `k` out.
    pub fn remove(&mut self, k: u32) {
        self.mask[k as usize / 64] &= !(1 << (k % 64));
    }

    /// How many tokens.
    pub fn count(&self) -> u32 {
        self.mask.iter().map(|w| w.count_ones()).sum()
    }

    /// Every token, along the line, on the mesh of side `n`.
    pub fn each(&self, n: u32, mut f: impl FnMut(PacketId)) {
        for (i, &w) in self.mask.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let k = i as u32 * 64 + w.trailing_zeros();
                w &= w - 1;
                f(match self.line {
                    Bus::Row(r) => r * n + k,
                    Bus::Col(c) => k * n + c,
                });
            }
        }
    }
}

/// Tokens of several lines: those of lines `lo..hi` (rows, or columns)
/// whose i + j has the parity `odd` (PARTITION's phase-3 sets: the
/// even-sum tokens of a block of rows, the odd-sum ones of a block of
/// columns).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Stripe {
    /// Rows (else columns).
    pub rows: bool,
    /// The first line.
    pub lo: u32,
    /// One past the last.
    pub hi: u32,
    /// The parity of i + j of the tokens.
    pub odd: bool,
}

impl Stripe {
    /// Every token, line by line, on the mesh of side `n`.
    pub fn each(&self, n: u32, mut f: impl FnMut(PacketId)) {
        for x in self.lo..self.hi {
            for k in (0..n).filter(|k| ((x + k) % 2 == 1) == self.odd) {
                f(match self.rows {
                    true => x * n + k,
                    false => k * n + x,
                });
            }
        }
    }
}

/// One line's tokens whose i + j has the parity `odd` (SIMPLE's and
/// PARTITION's phase-1 sets: H(i, j) is row i's even-sum tokens, V(i, j)
/// column j's odd-sum ones).
pub fn parity_line(line: Bus, n: u32, odd: bool) -> LineTokens {
    let (Bus::Row(x) | Bus::Col(x)) = line;
    let mut s = LineTokens::new(line);
    for k in (0..n).filter(|k| ((x + k) % 2 == 1) == odd) {
        s.add(k);
    }
    s
}

/// How many tokens [`parity_line`] holds, without making it: the k in
/// 0..n of the parity that makes x + k's parity `odd`.
pub fn parity_count(line: Bus, n: u32, odd: bool) -> u32 {
    let (Bus::Row(x) | Bus::Col(x)) = line;
    // Even k where x's parity is already the one asked for.
    match (x % 2 == 1) == odd {
        true => n.div_ceil(2),
        false => n / 2,
    }
}

/// Checks list every writer order where there are at most this many.
pub const EVERY_ORDER: u64 = 4096;

/// Seeded shuffles a check lists past [`EVERY_ORDER`], the order along
/// every bus among them, up to side [`SAMPLED_SIDE`]; past that side a
/// check runs the order along every bus alone.
pub const SAMPLED_ORDERS: u32 = 64;
/// See [`SAMPLED_ORDERS`].
pub const SAMPLED_SIDE: u32 = 6;

/// The writer orders a mesh-bus algorithm leaves open: for each phase and
/// bus, how many writers take turns on it in an order the paper does not
/// fix. An order of the whole run (the input of a check) picks one
/// permutation per (phase, bus). Where there are at most [`EVERY_ORDER`]
/// of them, input v is the v-th in mixed radix (each digit a permutation's
/// rank, so 0 is the order along every bus) and a check lists them all;
/// past it, input 0 is the order along every bus and input v > 0 a shuffle
/// seeded by (v, bus, phase), and a check lists [`SAMPLED_ORDERS`] of them
/// (up to side [`SAMPLED_SIDE`]; past it input 0 alone).
#[derive(Clone, Debug)]
pub struct Orders {
    /// By phase (1-based) and bus id: the product of the radices of the
    /// turns before it (in phase-major order), and its writers.
    turns: Vec<Option<(u64, u32)>>,
    buses: u32,
    side: u32,
    /// Every order, or None past u64.
    total: Option<u64>,
}

impl Orders {
    /// The orders of `turns`: (phase, bus, writers), each pair once; a
    /// turn of fewer than two writers has one order.
    pub fn new(mesh: &MeshBus, turns: impl IntoIterator<Item = (u32, Bus, u32)>) -> Orders {
        let buses = 2 * mesh.side();
        let mut listed: Vec<(u32, u32, u32)> = turns
            .into_iter()
            .map(|(phase, bus, items)| (phase, mesh.bus(bus), items))
            .collect();
        listed.sort_unstable();
        let phases = listed.last().map_or(0, |t| t.0);
        let mut by = vec![None; ((phases + 1) * buses) as usize];
        let mut total = Some(1u64);
        for (phase, bus, items) in listed {
            let slot = &mut by[(phase * buses + bus) as usize];
            assert!(slot.is_none(), "phase {phase}, bus {bus} listed twice");
            *slot = Some((total.unwrap_or(u64::MAX), items));
            total = total.and_then(|t| t.checked_mul(factorial(items)?));
        }
        Orders {
            turns: by,
            buses,
            side: mesh.side(),
            total,
        }
    }

    /// How many orders there are (u64::MAX past it).
    pub fn total(&self) -> u64 {
        self.total.unwrap_or(u64::MAX)
    }

    /// Whether a check lists every order.
    pub fn every(&self) -> bool {
        self.total() <= EVERY_ORDER
    }

    /// The orders a check lists (its inputs).
    pub fn inputs(&self) -> Vec<u32> {
        match (self.every(), self.side <= SAMPLED_SIDE) {
            (true, _) => (0..self.total() as u32).collect(),
            (false, true) => (0..SAMPLED_ORDERS).collect(),
            (false, false) => vec![0],
        }
    }

    /// What the inputs cover, in words.
    pub fn covered(&self) -> &'static str {
        match (self.every(), self.side <= SAMPLED_SIDE) {
            (true, _) => "every order of every bus's writers",
            (false, true) => "the order along each bus and seeded shuffles of every bus's writers",
            (false, false) => "the order along each bus",
        }
    }

    /// Order `v` in words.
    pub fn describe(&self, v: u32) -> String {
        match (v, self.every()) {
            (0, _) => "every bus's writers in order along it".into(),
            (v, true) => format!("writers' order {v} of {}", self.total()),
            (v, false) => format!("writers' order shuffle {v}"),
        }
    }

    /// Order `variant` of the writers of `bus` in `phase`: positions
    /// 0..items in the order they write.
    pub fn order(&self, variant: u32, bus: Bus, phase: u32, items: u32) -> Vec<u32> {
        let mut v: Vec<u32> = (0..items).collect();
        let b = match bus {
            Bus::Row(i) => i,
            Bus::Col(j) => self.buses / 2 + j,
        };
        let turn = self
            .turns
            .get((phase * self.buses + b) as usize)
            .copied()
            .flatten();
        debug_assert_eq!(turn.map(|t| t.1), Some(items), "phase {phase} bus {b}");
        if variant == 0 || items < 2 {
            return v;
        }
        if self.every() {
            let (before, _) = turn.expect("every turn is listed");
            let rank = (variant as u64 / before) % factorial(items).expect("small");
            unrank(rank, &mut v);
            return v;
        }
        let mut x = (variant as u64) << 40 ^ (b as u64) << 8 ^ phase as u64;
        for i in (1..items as usize).rev() {
            // splitmix64
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            v.swap(i, (z % (i as u64 + 1)) as usize);
        }
        v
    }
}

/// k!, or None past u64.
fn factorial(k: u32) -> Option<u64> {
    (2..=k as u64).try_fold(1u64, |f, x| f.checked_mul(x))
}

/// The permutation of rank `rank` (Lehmer code; 0 leaves `v` as it is).
fn unrank(mut rank: u64, v: &mut [u32]) {
    let items = v.len();
    for i in 0..items {
        let f = factorial((items - 1 - i) as u32).expect("small");
        let k = (rank / f) as usize;
        rank %= f;
        v[i..=i + k].rotate_right(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write reaches the other n - 1 nodes of its bus and takes that bus
    /// only; a write on another node's bus is refused.
    /// Where there are few orders, the inputs are every order once: at
    /// side 2 with a turn of 3 writers on R_1 and of 2 on C_1 in phase 1
    /// and of 2 on R_1 in phase 2, 3! 2! 2! = 24 distinct orders, the first
    /// along every bus. Past the limit, 64 inputs, the first along every
    /// bus and each a permutation; past side 6, the first alone.
    #[test]
    fn a_parity_line_has_as_many_tokens_as_its_count_says() {
        for n in 1..7 {
            for x in 0..n {
                for line in [Bus::Row(x), Bus::Col(x)] {
                    for odd in [false, true] {
                        assert_eq!(
                            parity_count(line, n, odd),
                            parity_line(line, n, odd).count(),
                            "{line:?} of {n}, odd {odd}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn orders_are_every_order_or_a_sample() {
        let m = MeshBus::new(2);
        let o = Orders::new(
            &m,
            [
                (1, Bus::Row(0), 3),
                (1, Bus::Col(0), 2),
                (2, Bus::Row(0), 2),
                (2, Bus::Col(1), 1),
            ],
        );
        assert_eq!((o.total(), o.every()), (24, true));
        let all: std::collections::HashSet<_> = o
            .inputs()
            .into_iter()
            .map(|v| {
                (
                    o.order(v, Bus::Row(0), 1, 3),
                    o.order(v, Bus::Col(0), 1, 2),
                    o.order(v, Bus::Row(0), 2, 2),
                    o.order(v, Bus::Col(1), 2, 1),
                )
            })
            .collect();
        assert_eq!(all.len(), 24);
        assert_eq!(o.order(0, Bus::Row(0), 1, 3), [0, 1, 2]);
        let big = MeshBus::new(6);
        let o = Orders::new(&big, (0..6).map(|x| (1, Bus::Row(x), 6)));
        assert!(!o.every() && o.total() == 720u64.pow(6));
        assert_eq!(o.inputs().len(), SAMPLED_ORDERS as usize);
        assert_eq!(o.order(0, Bus::Row(3), 1, 6), (0..6).collect::<Vec<_>>());
        let mut p = o.order(5, Bus::Row(3), 1, 6);
        p.sort_unstable();
        assert_eq!(p, (0..6).collect::<Vec<_>>());
        let past = Orders::new(&MeshBus::new(7), [(1, Bus::Row(0), 7)]);
        assert_eq!(past.inputs(), [0], "past side 6 the order along the bus");
    }

    #[test]
    fn a_write_reaches_its_bus() {
        let m = MeshBus::new(3);
        let from = m.node(1, 2);
        let mut got = Vec::new();
        m.receivers(&m.write(from, Bus::Row(1)), |v| got.push(m.node_label(v)));
        assert_eq!(got, ["(2,1)", "(2,2)"]);
        got.clear();
        m.receivers(&m.write(from, Bus::Col(2)), |v| got.push(m.node_label(v)));
        assert_eq!(got, ["(1,3)", "(3,3)"]);
        let mut taken = Vec::new();
        m.occupy(&m.write(from, Bus::Col(2)), |r| taken.push(r));
        assert_eq!(taken, [5]);
        assert_eq!(m.resource_label(5), "bus C_3");
        assert!(m.invalid(&m.write(from, Bus::Col(2))).is_none());
        let bad = m.invalid(&m.write(from, Bus::Row(0))).unwrap();
        assert_eq!(bad, "(2,3) is not on R_1");
        assert!(m
            .invalid(&Route::Link { from: 0, to: 1 })
            .is_some_and(|w| w.contains("buses")));
    }
}
