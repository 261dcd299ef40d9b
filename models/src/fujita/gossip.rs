//! What Fujita's gossip algorithms (SIMPLE, PARTITION, CENTRALIZE) share:
//! section 2's problem on the n x n mesh-bus. Every node's token goes to
//! every node, a message carries at most l tokens (`--ell`), the order of
//! a bus's writers in each phase is left open (the input: every order, or
//! seeded shuffles, `mesh_bus::Orders`), and every report prints the lower
//! bounds of Theorems 1 and 2. Each algorithm fixes its schedule in
//! advance, so its nodes send without reading their arrivals (causality
//! checks they hold what they send).

use crate::config::{Config, Param, Ports::All, Switching::Sf};
use crate::entry::{Info, Reach};
use crate::protocol::{Hints, Inputs, Judging, Symmetry};
use crate::topology::mesh_bus::{MeshBus, Orders};
use crate::topology::Family;
use crate::topology::Topology;
use properties::bounds::fujita;
use properties::{Claims, NodeId, PropertyName, Slot, Task};

/// What the gossip entries say alike: buses are written whole (the
/// engines' store-and-forward, all-port), the lock-step model to side 16,
/// `--ell`, a bit of holdings per node and token, the mesh-bus from side
/// 2. Each entry fills in its name, summary, reference and claim
/// (`..gossip::INFO`), and its own `--ell` where the range differs.
pub const INFO: Info = Info::family(
    &[(Sf, All)],
    Reach::lockstep_only(16),
    &[ELL],
    crate::entry::Footprint::ByNode(gossip_bytes),
    Family::MeshBus { min: 2 },
);

/// `--ell`: tokens per message, 1..=n^2.
pub const ELL: Param = Param {
    flag: "--ell",
    meaning: "tokens per message, 1..=n^2 (default: the algorithm's own, said in its claim)",
    range: |n| (1, n as u64 * n as u64),
    below: "",
};

/// l from the configuration, or `default` where --ell was not given.
pub fn ell(cfg: &Config, default: u64) -> u32 {
    cfg.params.ell.unwrap_or(default) as u32
}

/// Holdings of a gossip: a bit per node and token, n^4 bits.
pub fn gossip_bytes(n: u32) -> u64 {
    (n as u64)
        .checked_pow(4)
        .map_or(u64::MAX, |b| b.div_ceil(8))
}

/// The two lower bounds every mesh-bus gossip report prints (Theorems 1
/// and 2), the larger first in `Claims::lower_bound`.
pub fn lower_bounds(n: u32, l: u32) -> Vec<(&'static str, Slot)> {
    vec![
        (
            "Theorem 1 (l unbounded)",
            fujita::theorem1(n as u64) as Slot,
        ),
        (
            "Theorem 2 (bus capacity)",
            fujita::theorem2(n as u64, l as u64) as Slot,
        ),
    ]
}

/// Every node's token to every node, at most l tokens a message.
pub fn task(nodes: u32, l: u32) -> Task {
    Task::Gossip {
        nodes,
        per_message: l,
    }
}

/// What every gossip claims: complete, one writer per bus, causality, at
/// most l tokens a message, and within `bound` steps where the paper gives
/// one; the larger of the lower bounds beside.
pub fn claims(n: u32, l: u32, bound: Option<Slot>) -> Claims {
    use PropertyName::*;
    let mut claimed = vec![Completeness, ContentionFreedom, Causality, MessageLength];
    if bound.is_some() {
        claimed.push(TimeBound);
    }
    Claims {
        claimed,
        bound,
        lower_bound: lower_bounds(n, l).iter().map(|b| b.1).max(),
        transmissions: None,
    }
}

/// The inputs of a mesh-bus gossip: the order of every bus's writers
/// ([`Orders`]); every run gossips the `l` tokens of each of `nodes`.
pub struct Writers<'a> {
    /// The orders.
    pub orders: &'a Orders,
    /// How many nodes gossip.
    pub nodes: u32,
    /// Tokens a node.
    pub l: u32,
}

impl<'a> Writers<'a> {
    /// The orders of `mesh`'s writers, each node gossiping `l` tokens.
    pub fn of(mesh: &MeshBus, orders: &'a Orders, l: u32) -> Self {
        Writers {
            orders,
            nodes: mesh.nodes(),
            l,
        }
    }
}

impl Inputs<u32> for Writers<'_> {
    fn task(&self, _: &u32) -> Task {
        task(self.nodes, self.l)
    }
    fn source_input(&self, _: NodeId) -> Option<u32> {
        None
    }
    fn all(&self) -> Vec<u32> {
        self.orders.inputs()
    }
    fn sourced(&self, _: NodeId) -> Vec<u32> {
        Vec::new()
    }
    fn first(&self) -> u32 {
        0
    }
    fn total(&self) -> u64 {
        self.orders.total()
    }
    fn covered(&self) -> &'static str {
        self.orders.covered()
    }
    fn describe(&self, &v: &u32) -> String {
        self.orders.describe(v)
    }
    fn symmetry(&self) -> Option<Symmetry> {
        None
    }
}

/// What every gossip's run is judged by beyond its task: section 2's
/// lower bounds at side n and l tokens, and the last step of a schedule
/// fixed in advance past the claimed bound (CENTRALIZE's rounds).
pub struct Bounds {
    /// The side.
    pub n: u32,
    /// Tokens a node.
    pub l: u32,
    /// The schedule's last step, where it may pass the bound.
    pub last_step: Option<Slot>,
}

impl<I, S, M> Judging<I, S, M> for Bounds {
    fn lower_bounds(&self) -> Vec<(&'static str, Slot)> {
        lower_bounds(self.n, self.l)
    }

    fn last_step(&self) -> Option<Slot> {
        self.last_step
    }
}

/// A gossip's schedule is fixed (no arrival read); a write's tokens reach
/// a line of nodes, so the executor keeps holdings token by token.
pub const HINTS: Hints = Hints {
    event_driven: false,
    holdings_by_packet: true,
    reads_arrivals: false,
};
