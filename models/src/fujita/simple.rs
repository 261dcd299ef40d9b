//! SIMPLE and its refinement: gossip on the n x n mesh-bus with messages of
//! at most l tokens. Fujita, "Gossiping in Mesh-Bus Computers by Packets
//! with Bounded Length", section 4 ("Short Packets").
//!
//! # The algorithm (section 4.1)
//! "Phase 1: If i + j is even (resp. odd), then node (i, j) sends t(i, j)
//! through row-bus R_i (resp. column-bus C_j). Phase 2: Let H(i, j) (resp.
//! V(i, j)) be the set of tokens received by node (i, j) through row-bus
//! R_i (resp. column-bus C_j) in Phase 1. Each node (i, j) sends V(i, j)
//! (resp. H(i, j)) through row-bus R_i (resp. column-bus C_j)."
//!
//! Readings (docs/errata.md, Fujita):
//! * A writer hears its own write ("each node always eavesdrops on" its
//!   buses), so H(i, j) holds t(i, j) when i + j is even and V(i, j) when
//!   it is odd. Without that, t(i, j) never reaches the rest of its line in
//!   phase 2 and the gossip is incomplete: that reading is its own
//!   variant, `simple-own-unheard`.
//! * The phases follow each other: phase 2 starts at step tau + 1, tau =
//!   ceil(n/2), on every bus.
//! * A bus's writers take turns, each sending its set in ceil(|set|/l)
//!   messages of consecutive steps. The paper leaves the order of the
//!   writers open in both phases; every order is a permutation of each
//!   bus's writers, an input of the check: every order at n = 2, else the
//!   order along the bus and seeded shuffles (`mesh_bus::Orders`). In SIMPLE nothing a writer sends depends on
//!   the order, and a bus busy without a gap takes the sum of its writers'
//!   messages in any order, so every order gives the same verdicts and
//!   time; the check shows it on the orders it covers.
//! * Both phases' sets are what phase 1 delivers, known from the schedule:
//!   a node sends them without reading its arrivals, and the checker's
//!   causality property verifies it holds each token it sends.
//!
//! # The refinement (section 4.2, `simple-packed`)
//! "Since each message can carry at most l tokens, during Phase 1, each
//! node can send at most l - 1 other tokens having been received in
//! previous steps of Phase 1." A node writing on its row packs the tokens
//! of V it has received on its column (a node writing on its column, those
//! of H from its row): up to l - 1 of them, the earliest received; in
//! phase 2 it sends only the rest. Every bus's phase-1 writers write in
//! steps 1, 2, ..., so by step t a node holds min(t - 1, |V|) of V whatever
//! the order; which ones depends on the column's order.
//!
//! # Bounds
//! * Theorem 3: SIMPLE takes at most n^2/2l - n/2l + ceil(3n/2) steps;
//!   Corollary 2: at most n^2/2l + n/2l + ceil(n/2) when l divides ceil(n/2).
//! * Theorem 4: with packing, at most n^2/2l - n/2l + n + 2 "when l <
//!   ceil(n/2) and l does not divide ceil(n/2)" (elsewhere the paper
//!   claims no time for the refinement, and neither does the check).
//! * Lower bounds, printed beside: Theorem 1, floor(n/2) + ceil(log2 n) - 1
//!   (l unbounded); Theorem 2, n^2/2l + n/2l.

use crate::config::Config;
use crate::entry::{Entry, Info};
use crate::fujita::gossip;
use crate::protocol::{Arrival, Choices, Hints, Inputs, Judging, Protocol};
use crate::topology::mesh_bus::{self, Bus, LineTokens, MeshBus, Orders};
use properties::bounds::fujita;
use properties::{Claims, NodeId, PacketId, Slot, Transmission};

const INFO: Info = Info {
    name: "simple",
    summary: "mesh-bus gossip: own token on a bus, then each node relays one line's tokens",
    reference: "Fujita, Gossiping in Mesh-Bus Computers, section 4.1 (Theorem 3, Corollary 2)",
    claim: "n^2/2l - n/2l + ceil(3n/2) steps (n^2/2l + n/2l + ceil(n/2) if l divides \
            ceil(n/2)); complete, one writer per bus, at most l tokens a message \
            (default l = 1)",
    ..gossip::INFO
};

/// The registry entry of SIMPLE.
pub const ENTRY: Entry<Simple> = Entry {
    info: INFO,
    build: |cfg| Simple::new(cfg, false),
};

/// The registry entry of SIMPLE with phase-1 packing.
pub const PACKED: Entry<Simple> = Entry {
    info: Info {
        name: "simple-packed",
        summary: "SIMPLE packing up to l - 1 earlier tokens into each phase-1 message",
        reference: "Fujita, Gossiping in Mesh-Bus Computers, section 4.2 (Theorem 4)",
        claim: "n^2/2l - n/2l + n + 2 steps when l < ceil(n/2) and l does not divide it; \
                complete, one writer per bus, at most l tokens a message (default l = 1)",
        ..INFO
    },
    build: |cfg| Simple::new(cfg, true),
};

/// The registry entry of SIMPLE whose writers do not hear their own write.
pub const OWN_UNHEARD: Entry<Simple> = Entry {
    info: Info {
        name: "simple-own-unheard",
        summary: "SIMPLE as printed if a writer does not hear its own phase-1 write",
        reference: "Fujita, Gossiping in Mesh-Bus Computers, section 4.1 (docs/errata.md)",
        ..INFO
    },
    build: |cfg| Simple {
        hears_own: false,
        ..Simple::new(cfg, false)
    },
};

/// SIMPLE at one side and l.
#[derive(Clone, Debug)]
pub struct Simple {
    mesh: MeshBus,
    l: u32,
    packed: bool,
    /// Whether a phase-1 writer's own token is among what it received
    /// on its bus (the reading; `simple-own-unheard` has it not).
    hears_own: bool,
    orders: Orders,
}

/// A node's schedule, fixed by the order of every bus's writers.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Plan {
    /// Phase 1: the step of the node's one write, its bus and message.
    first: Slot,
    bus: Bus,
    msg: LineTokens,
    /// Phase 2: the first step of its turn on its row, and the tokens of
    /// V it still has to send there; the same on its column with H.
    row_at: Slot,
    v: LineTokens,
    col_at: Slot,
    h: LineTokens,
}

impl Simple {
    /// SIMPLE at `cfg`, with phase-1 packing where `packed` (section 4.2).
    pub fn new(cfg: Config, packed: bool) -> Self {
        let (mesh, n) = (MeshBus::new(cfg.n), cfg.n);
        // Phase 1: a row's writers are those of even i + j, a column's
        // those of odd; phase 2: every node of each bus.
        let first = (0..n).flat_map(|x| {
            [
                (1, Bus::Row(x), (n - x % 2).div_ceil(2)),
                (1, Bus::Col(x), (n - (x + 1) % 2).div_ceil(2)),
            ]
        });
        let second = (0..n).flat_map(|x| [(2, Bus::Row(x), n), (2, Bus::Col(x), n)]);
        let orders = Orders::new(&mesh, first.chain(second));
        Simple {
            mesh,
            l: gossip::ell(&cfg, 1),
            packed,
            hears_own: true,
            orders,
        }
    }

    fn n(&self) -> u32 {
        self.mesh.side()
    }

    /// Phase 1's writers of `bus` (positions along it), in the order of
    /// `variant`: on row i those of even i + j, on column j those of odd
    /// i + j.
    fn writers(&self, variant: u32, bus: Bus) -> Vec<u32> {
        let n = self.n();
        let along: Vec<u32> = match bus {
            Bus::Row(i) => (i % 2..n).step_by(2).collect(),
            Bus::Col(j) => ((j + 1) % 2..n).step_by(2).collect(),
        };
        self.orders
            .order(variant, bus, 1, along.len() as u32)
            .into_iter()
            .map(|k| along[k as usize])
            .collect()
    }

    /// How many of its tokens a phase-1 writer at step `first` on a bus
    /// packs beside its own: those of the other line heard before, at most
    /// l - 1 (none without packing).
    fn packs(&self, first: Slot, heard: u32) -> u32 {
        match self.packed {
            true => (first - 1).min(heard).min(self.l - 1),
            false => 0,
        }
    }

    /// The first step of `me`'s turn in phase 2 on `bus`, whose writers
    /// (positions 0..n along it) send `count(k)` tokens each.
    fn turn(&self, variant: u32, bus: Bus, me: u32, count: impl Fn(u32) -> u32) -> Slot {
        let tau = fujita::tau(self.n() as u64) as Slot;
        let mut at = tau + 1;
        for k in self.orders.order(variant, bus, 2, self.n()) {
            if k == me {
                return at;
            }
            at += count(k).div_ceil(self.l);
        }
        unreachable!("every writer has a turn")
    }

    /// Message `m` of a node's turn: the m-th l tokens of `set`.
    fn chunk(&self, set: &LineTokens, m: u32) -> LineTokens {
        let mut msg = LineTokens::new(set.line);
        let (skip, n) = (m * self.l, self.n());
        let mut seen = 0;
        for k in 0..n {
            if set.mask[k as usize / 64] & (1 << (k % 64)) != 0 {
                if seen >= skip && seen < skip + self.l {
                    msg.add(k);
                }
                seen += 1;
            }
        }
        msg
    }
}

impl Protocol for Simple {
    type Topo = MeshBus;
    /// The order of every bus's writers (`mesh_bus::Orders`).
    type Input = u32;

    fn topology(&self) -> &MeshBus {
        &self.mesh
    }

    fn domain(&self) -> impl Inputs<u32> + '_ {
        gossip::Writers::of(&self.mesh, &self.orders, self.l)
    }

    fn hints(&self) -> Hints {
        gossip::HINTS
    }
    type State = Plan;
    type Msg = LineTokens;

    fn claims(&self) -> Claims {
        let (n, l) = (self.n() as u64, self.l as u64);
        let bound = match self.packed {
            false => Some(
                fujita::corollary2(n, l)
                    .map_or(fujita::theorem3(n, l), |c| c.min(fujita::theorem3(n, l))),
            ),
            true => fujita::theorem4(n, l),
        };
        gossip::claims(self.n(), self.l, bound.map(|b| b as Slot))
    }

    fn init(&self, &variant: &u32, node: NodeId) -> Plan {
        let n = self.n();
        let (i, j) = self.mesh.at(node);
        let (row, col) = (Bus::Row(i), Bus::Col(j));
        // V: column j's tokens of odd sum; H: row i's of even sum (each
        // with the node's own, heard as it wrote).
        let mut v = mesh_bus::parity_line(col, n, true);
        let mut h = mesh_bus::parity_line(row, n, false);
        // A writer's own token is in what it received only if it hears
        // its own write; `unheard(x)` is 1 where it is left out.
        let unheard = |own_in_set: bool| (own_in_set && !self.hears_own) as u32;
        if unheard((i + j) % 2 == 1) == 1 {
            v.remove(i);
        }
        if unheard((i + j) % 2 == 0) == 1 {
            h.remove(j);
        }
        let count = |s: &LineTokens| s.count();
        // Phase 1: the step of each writer on a bus.
        let step_of = |bus: Bus, k: u32| -> Slot {
            let w = self.writers(variant, bus);
            w.iter().position(|&x| x == k).expect("a writer") as Slot + 1
        };
        let (first, bus, msg) = if (i + j) % 2 == 0 {
            // On the row, packing V as heard so far on the column.
            let first = step_of(row, j);
            let mut msg = LineTokens::new(col);
            msg.add(i);
            let heard = self.writers(variant, col);
            for &k in heard.iter().take(self.packs(first, count(&v)) as usize) {
                msg.add(k);
                v.remove(k);
            }
            (first, row, msg)
        } else {
            let first = step_of(col, i);
            let mut msg = LineTokens::new(row);
            msg.add(j);
            let heard = self.writers(variant, row);
            for &k in heard.iter().take(self.packs(first, count(&h)) as usize) {
                msg.add(k);
                h.remove(k);
            }
            (first, col, msg)
        };
        // Phase 2: what every writer of my row still has of its V (row
        // writers packed some), and of my column of its H.
        // (Each writer's phase-1 step by its index along the bus: looked
        // up n times a node, searched it made init quartic in n.)
        let steps = |bus: Bus| {
            let mut at = vec![0; n as usize];
            for (s, &k) in self.writers(variant, bus).iter().enumerate() {
                at[k as usize] = s as Slot;
            }
            at
        };
        let row_steps = steps(row);
        let row_at = self.turn(variant, row, j, |k| {
            let full = mesh_bus::parity_count(Bus::Col(k), n, true) - unheard((i + k) % 2 == 1);
            match (i + k) % 2 == 0 {
                true => full - self.packs(row_steps[k as usize] + 1, full),
                false => full,
            }
        });
        let col_steps = steps(col);
        let col_at = self.turn(variant, col, i, |k| {
            let full = mesh_bus::parity_count(Bus::Row(k), n, false) - unheard((k + j) % 2 == 0);
            match (k + j) % 2 == 1 {
                true => full - self.packs(col_steps[k as usize] + 1, full),
                false => full,
            }
        });
        Plan {
            first,
            bus,
            msg,
            row_at,
            v,
            col_at,
            h,
        }
    }

    fn packets(&self, msg: &LineTokens, f: impl FnMut(PacketId)) {
        msg.each(self.n(), f)
    }

    fn step(
        &self,
        node: NodeId,
        plan: &mut Plan,
        slot: Slot,
        _: &[Arrival<LineTokens>],
        _: u32,
        out: &mut Vec<Transmission<LineTokens>>,
    ) -> bool {
        let (i, j) = self.mesh.at(node);
        if slot == plan.first {
            out.push(Transmission {
                route: self.mesh.write(node, plan.bus),
                msg: plan.msg,
            });
        }
        for (bus, at, set) in [
            (Bus::Row(i), plan.row_at, &plan.v),
            (Bus::Col(j), plan.col_at, &plan.h),
        ] {
            if slot >= at && slot - at < set.count().div_ceil(self.l) {
                out.push(Transmission {
                    route: self.mesh.write(node, bus),
                    msg: self.chunk(set, slot - at),
                });
            }
        }
        slot < last(plan, self.l)
    }

    fn judging(&self) -> Option<impl Judging<u32, Plan, LineTokens> + '_> {
        Some(gossip::Bounds {
            n: self.mesh.side(),
            l: self.l,
            last_step: None,
        })
    }

    fn choices(&self) -> Option<impl Choices<Plan, LineTokens> + '_> {
        Some(self)
    }
}

/// Open choices and scheduled sends.
impl Choices<Plan, LineTokens> for &Simple {
    fn wake(&self, plan: &Plan, slot: Slot) -> Slot {
        let mut next = Slot::MAX;
        if plan.first > slot {
            next = plan.first;
        }
        for (at, set) in [(plan.row_at, &plan.v), (plan.col_at, &plan.h)] {
            let end = at + set.count().div_ceil(self.l);
            if slot + 1 < end {
                next = next.min((slot + 1).max(at));
            }
        }
        match next {
            Slot::MAX => slot + 1,
            next => next,
        }
    }
}

/// The last step in which a node writes.
fn last(plan: &Plan, l: u32) -> Slot {
    let end = |at: Slot, s: &LineTokens| match s.count() {
        0 => 0,
        c => at + c.div_ceil(l) - 1,
    };
    plan.first
        .max(end(plan.row_at, &plan.v))
        .max(end(plan.col_at, &plan.h))
}
