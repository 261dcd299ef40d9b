//! PARTITION: gossip on the n x n mesh-bus for long messages. Fujita,
//! "Gossiping in Mesh-Bus Computers by Packets with Bounded Length",
//! section 5.1 (Theorems 5 and 6) and section 6 (Theorem 8).
//!
//! # The algorithm
//! m = floor(2l/n), sigma = ceil(n/m); N splits into blocks N_1 .. N_sigma
//! of m consecutive indices, the last taking the rest.
//! * Phase 1, as SIMPLE's: node (i, j) writes t(i, j) on R_i if i + j is
//!   even, on C_j if odd.
//! * Phase 2: "for all x in parallel, each node u in N_x x N_x sends
//!   V_1(u) (resp. H_1(u)) through row-bus (resp. column-bus)": the
//!   diagonal blocks relay what phase 1 brought them.
//! * Phase 3: "for each i, node u in {(i, i + tm) : t in Z} sends V_2(u)
//!   through row-bus R_i", and likewise (j + tm, j) sends H_2 on C_j.
//!
//! Readings (docs/errata.md, Fujita): a writer hears its own write (as in
//! SIMPLE), so V_2(i, k) is the even-sum tokens of the rows of k's block
//! and H_2(k, j) the odd-sum tokens of the columns of k's block; the
//! phases follow each other (phase 2 from step tau + 1 for min(m, n)
//! steps, phase 3 after it); the order of a bus's writers in each phase is
//! open, an input of the check (every order where there are at most 4096,
//! else the order along the bus and seeded shuffles: `mesh_bus::Orders`),
//! and nothing sent depends on it.
//!
//! Section 6 "modifies" PARTITION for l = Theta(n) "in such a way that m =
//! floor(2c)" where l <= cn, and notes "2l < mn (i.e., n/m < n^2/2l)". With
//! c = l/n that is PARTITION's own m, for which 2l < mn is false; the least
//! c that makes it true gives m = ceil(2l/n), `partition-sec6` (on
//! `partition-fixed`'s blocks). Its phase-3 sets then hold the even-sum
//! tokens of m rows, about mn/2 >= l: the check shows whether a message
//! keeps to l tokens.
//!
//! Where m does not divide n the last block is short, and a row i whose
//! index mod m is past its length has no phase-3 writer in it: the
//! even-sum tokens of the last block's rows never reach that row. The
//! check shows it (docs/errata.md); `partition-fixed` lets the last
//! block's writer on row i be its member at (i mod its length).
//!
//! # Bounds
//! Theorem 6: tau + m + sigma steps (from its proof: phase 1 tau, phase 2
//! m, phase 3 sigma), for l >= ceil(n/2) (m >= 1). Lower bounds: Theorems
//! 1 and 2, printed beside.

use crate::config::{Config, Param};
use crate::entry::{Entry, Info};
use crate::fujita::gossip;
use crate::protocol::{Arrival, Choices, Hints, Inputs, Judging, Protocol};
use crate::topology::mesh_bus::{self, Bus, LineTokens, MeshBus, Orders, Stripe};
use properties::bounds::fujita;
use properties::{Claims, NodeId, PacketId, Slot, Transmission};

/// `--ell` for PARTITION: m = floor(2l/n) must be at least 1.
const ELL: Param = Param {
    flag: "--ell",
    meaning: "tokens per message, ceil(n/2)..=n^2 (default n)",
    range: |n| (n.div_ceil(2) as u64, n as u64 * n as u64),
    below: "PARTITION needs m = floor(2l/n) >= 1, that is l >= ceil(n/2); for shorter \
            messages use simple (Theorem 3) or simple-packed (Theorem 4)",
};

const INFO: Info = Info {
    name: "partition",
    summary: "mesh-bus gossip for long messages: diagonal blocks relay, one writer per block",
    reference: "Fujita, Gossiping in Mesh-Bus Computers, sections 5.1 and 6 (Theorems 5, 6, 8)",
    claim: "tau + m + sigma steps, tau = ceil(n/2), m = floor(2l/n), sigma = ceil(n/m); \
            complete, one writer per bus, at most l tokens a message (default l = n)",
    params: &[ELL],
    ..gossip::INFO
};

/// The registry entry of PARTITION as printed.
pub const ENTRY: Entry<Partition> = Entry {
    info: INFO,
    build: |cfg| Partition::new(cfg, false),
};

/// The registry entry of PARTITION with a writer in the short last block
/// for every row and column.
pub const FIXED: Entry<Partition> = Entry {
    info: Info {
        name: "partition-fixed",
        summary: "PARTITION whose short last block has a phase-3 writer on every line",
        claim: "tau + m + sigma steps (as Theorem 6); complete, one writer per bus, at most l \
                tokens a message (default l = n)",
        ..INFO
    },
    build: |cfg| Partition::new(cfg, true),
};

/// The registry entry of section 6's modified PARTITION.
pub const SECTION_6: Entry<Partition> = Entry {
    info: Info {
        name: "partition-sec6",
        summary: "section 6's modified PARTITION: m = ceil(2l/n), so that 2l < mn",
        reference: "Fujita, Gossiping in Mesh-Bus Computers, section 6 (Theorem 8)",
        claim: "tau + m + sigma steps, m = ceil(2l/n) (Theorem 6's count); complete, one \
                writer per bus, at most l tokens a message (default l = n)",
        ..FIXED.info
    },
    build: Partition::section_6,
};

/// PARTITION at one side and l.
#[derive(Clone, Debug)]
pub struct Partition {
    mesh: MeshBus,
    l: u32,
    /// m: floor(2l/n), or section 6's ceil(2l/n).
    m: u32,
    fixed: bool,
    orders: Orders,
}

/// What a message carries: one line's tokens (phases 1 and 2) or a
/// block's (phase 3).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Msg {
    /// One line's tokens (phases 1 and 2).
    Line(LineTokens),
    /// A block's (phase 3).
    Stripe(Stripe),
}

/// A node's writes: step, bus, message, in step order.
pub type Plan = Vec<(Slot, Bus, Msg)>;

impl Partition {
    /// PARTITION at `cfg`, as printed or (`fixed`) with a phase-3 writer in the short last block for every line.
    pub fn new(cfg: Config, fixed: bool) -> Self {
        let (n, l) = (cfg.n, gossip::ell(&cfg, cfg.n as u64));
        Partition::with_m(cfg, fixed, 2 * l / n)
    }

    /// Section 6's modified PARTITION (`partition-sec6`): m = ceil(2l/n),
    /// on `partition-fixed`'s blocks.
    pub fn section_6(cfg: Config) -> Self {
        let (n, l) = (cfg.n, gossip::ell(&cfg, cfg.n as u64));
        Partition::with_m(cfg, true, (2 * l).div_ceil(n))
    }

    fn with_m(cfg: Config, fixed: bool, m: u32) -> Self {
        let n = cfg.n;
        let mut p = Partition {
            mesh: MeshBus::new(n),
            l: gossip::ell(&cfg, n as u64),
            m,
            fixed,
            orders: Orders::new(&MeshBus::new(1), []),
        };
        if p.m() == 0 {
            // Refused by the catalog (l < n/2); no turns to order.
            return p;
        }
        // Phase 1 as SIMPLE's; phase 2: a line's block; phase 3: `third`.
        let turns = (0..n).flat_map(|x| {
            let (lo, hi) = p.block(x);
            let third = p.third(x).len() as u32;
            [
                (1, Bus::Row(x), (n - x % 2).div_ceil(2)),
                (1, Bus::Col(x), (n - (x + 1) % 2).div_ceil(2)),
                (2, Bus::Row(x), hi - lo),
                (2, Bus::Col(x), hi - lo),
                (3, Bus::Row(x), third),
                (3, Bus::Col(x), third),
            ]
        });
        p.orders = Orders::new(&p.mesh, turns.collect::<Vec<_>>());
        p
    }

    fn n(&self) -> u32 {
        self.mesh.side()
    }

    /// m = floor(2l/n) (section 6: ceil).
    pub fn m(&self) -> u32 {
        self.m
    }

    /// The block of index k: its first index and one past its last.
    fn block(&self, k: u32) -> (u32, u32) {
        let m = self.m();
        let lo = k / m * m;
        (lo, (lo + m).min(self.n()))
    }

    /// The step of writer `k` among `writers` (positions along `bus`) in
    /// `phase`, which starts at `start`, in the order of `variant`.
    fn turn(
        &self,
        variant: u32,
        bus: Bus,
        phase: u32,
        writers: &[u32],
        k: u32,
        start: Slot,
    ) -> Slot {
        let order = self.orders.order(variant, bus, phase, writers.len() as u32);
        let pos = order
            .iter()
            .position(|&w| writers[w as usize] == k)
            .expect("a writer");
        start + pos as Slot
    }

    /// Phase 3's writers on line `x` (a row's columns, or a column's rows):
    /// those at x + tm, or, fixed, one in each block.
    fn third(&self, x: u32) -> Vec<u32> {
        let (n, m) = (self.n(), self.m());
        match self.fixed {
            false => (x % m..n).step_by(m as usize).collect(),
            true => (0..n.div_ceil(m))
                .map(|b| {
                    let (lo, hi) = self.block(b * m);
                    lo + (x % m) % (hi - lo)
                })
                .collect(),
        }
    }
}

impl Protocol for Partition {
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
    type Msg = Msg;

    fn claims(&self) -> Claims {
        let (n, l) = (self.n() as u64, self.l as u64);
        let bound = match self.m == 2 * self.l / self.n() {
            true => fujita::theorem6(n, l).expect("PARTITION is built only where m >= 1"),
            false => fujita::section6(n, l),
        };
        gossip::claims(self.n(), self.l, Some(bound as Slot))
    }

    fn init(&self, &variant: &u32, node: NodeId) -> Plan {
        let (n, m) = (self.n(), self.m());
        let (i, j) = self.mesh.at(node);
        let (row, col) = (Bus::Row(i), Bus::Col(j));
        let tau = fujita::tau(n as u64) as Slot;
        let mut plan = Vec::new();
        // Phase 1.
        let (bus, line, writers, me) = match (i + j) % 2 {
            0 => (row, col, (i % 2..n).step_by(2).collect::<Vec<_>>(), j),
            _ => (col, row, ((j + 1) % 2..n).step_by(2).collect(), i),
        };
        let mut own = LineTokens::new(line);
        own.add(if line == col { i } else { j });
        plan.push((
            self.turn(variant, bus, 1, &writers, me, 1),
            bus,
            Msg::Line(own),
        ));
        // Phase 2: the diagonal blocks.
        let (lo, hi) = self.block(i);
        if self.block(j) == (lo, hi) {
            let members: Vec<u32> = (lo..hi).collect();
            let v1 = mesh_bus::parity_line(col, n, true);
            let h1 = mesh_bus::parity_line(row, n, false);
            plan.push((
                self.turn(variant, row, 2, &members, j, tau + 1),
                row,
                Msg::Line(v1),
            ));
            plan.push((
                self.turn(variant, col, 2, &members, i, tau + 1),
                col,
                Msg::Line(h1),
            ));
        }
        // Phase 3.
        let start = tau + m.min(n) + 1;
        let on_row = self.third(i);
        if on_row.contains(&j) {
            let (lo, hi) = self.block(j);
            let v2 = Stripe {
                rows: true,
                lo,
                hi,
                odd: false,
            };
            plan.push((
                self.turn(variant, row, 3, &on_row, j, start),
                row,
                Msg::Stripe(v2),
            ));
        }
        let on_col = self.third(j);
        if on_col.contains(&i) {
            let (lo, hi) = self.block(i);
            let h2 = Stripe {
                rows: false,
                lo,
                hi,
                odd: true,
            };
            plan.push((
                self.turn(variant, col, 3, &on_col, i, start),
                col,
                Msg::Stripe(h2),
            ));
        }
        plan.sort_by_key(|w| w.0);
        plan
    }

    fn packets(&self, msg: &Msg, f: impl FnMut(PacketId)) {
        match msg {
            Msg::Line(t) => t.each(self.n(), f),
            Msg::Stripe(s) => s.each(self.n(), f),
        }
    }

    fn step(
        &self,
        node: NodeId,
        plan: &mut Plan,
        slot: Slot,
        _: &[Arrival<Msg>],
        _: u32,
        out: &mut Vec<Transmission<Msg>>,
    ) -> bool {
        for &(_, bus, msg) in plan.iter().filter(|w| w.0 == slot) {
            out.push(Transmission {
                route: self.mesh.write(node, bus),
                msg,
            });
        }
        plan.last().is_some_and(|w| w.0 > slot)
    }

    fn judging(&self) -> Option<impl Judging<u32, Plan, Msg> + '_> {
        Some(gossip::Bounds {
            n: self.mesh.side(),
            l: self.l,
            last_step: None,
        })
    }

    fn choices(&self) -> Option<impl Choices<Plan, Msg> + '_> {
        Some(self)
    }
}

/// Open choices and scheduled sends.
impl Choices<Plan, Msg> for &Partition {
    fn wake(&self, plan: &Plan, slot: Slot) -> Slot {
        plan.iter()
            .map(|w| w.0)
            .find(|&at| at > slot)
            .unwrap_or(slot + 1)
    }
}
