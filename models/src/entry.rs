//! What an algorithm module says about itself ([`Entry`], [`Info`]): its
//! name, paper, claim, modes, the network it runs on ([`Family`]), how far
//! each engine finishes ([`Reach`]), and the cost model of its holdings
//! (the `*_bytes` functions). The algorithm modules build on it; the
//! catalog gathers their entries into the registry.

use crate::config::{Config, Param, Ports, Switching};
use crate::topology::Family;

/// How far each engine finishes without a budget on the reference
/// machine (2 cores; BENCHMARKS.md has the measurements): past `lockstep`
/// the default engine is the executor, past `actor` the actor model asks
/// for a budget, and up to `actor_auto` the default check runs the actor
/// model beside the lock-step one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The largest n the lock-step model finishes.
    pub lockstep: u32,
    /// The largest n the actor model finishes (0: it does not run).
    pub actor: u32,
    /// The largest n at which the default check runs the actor model too.
    pub actor_auto: u32,
}

impl Reach {
    /// The lock-step model up to n, the actor model not at all (the
    /// protocol is not event-driven).
    pub const fn lockstep_only(n: u32) -> Reach {
        Reach {
            lockstep: n,
            actor: 0,
            actor_auto: 0,
        }
    }
}

/// What an algorithm module says about itself: the one place its name,
/// paper, claim, modes and reach are written.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    /// The CLI token and report label.
    pub name: &'static str,
    /// One line on what it is.
    pub summary: &'static str,
    /// Where it comes from (paper, section).
    pub reference: &'static str,
    /// The paper's claim, in its words and formulas.
    pub claim: &'static str,
    /// The (switching, ports) combinations the paper defines it for; the
    /// first is the default.
    pub modes: &'static [(Switching, Ports)],
    /// Where each engine finishes without a budget (see [`Reach`]).
    pub reach: Reach,
    /// The parameters it takes beyond the size (K, l, broadcasters, a
    /// shape), each a command-line flag with its range and default.
    pub params: &'static [Param],
    /// What the executor's holdings and the algorithm's own tables take
    /// at dimension d, in bytes (the per-node state and inboxes are added
    /// from the types): known before anything is built, so that a check
    /// too big for the machine is refused before it allocates (the cost
    /// model of BENCHMARKS.md).
    pub memory: Footprint,
    /// The network, and what its size n means.
    pub family: Family,
}

impl Info {
    /// What a family of algorithms' entries say alike, their words left
    /// blank: each entry of the family fills in its name, summary,
    /// reference and claim (`..FAMILY`), and whatever else differs.
    pub const fn family(
        modes: &'static [(Switching, Ports)],
        reach: Reach,
        params: &'static [Param],
        memory: Footprint,
        family: Family,
    ) -> Info {
        Info {
            name: "",
            summary: "",
            reference: "",
            claim: "",
            modes,
            reach,
            params,
            memory,
            family,
        }
    }
}

/// A count of variants, a saturated total read as "more than 10^19".
pub fn count_words(total: u64) -> String {
    match total {
        u64::MAX => "more than 10^19".to_string(),
        total => total.to_string(),
    }
}

/// "`what` variant v of total" (a construction's variants, in reports).
pub fn variant_label(what: &str, v: u32, total: u64) -> String {
    format!("{what} variant {v} of {}", count_words(total))
}

/// The largest dimension at which a construction's open choices are
/// enumerated (past every lock-step reach of those algorithms); larger
/// sizes run the executor, which uses the first variant only.
pub const ENUMERATED_UP_TO: u32 = 6;

/// What the executor's holdings and an algorithm's own tables take at
/// dimension d, in bytes, and how a run over MPI ranks keeps them.
#[derive(Clone, Copy, Debug)]
pub enum Footprint {
    /// A broadcast's holdings, a bit per (node, packet): each rank keeps
    /// its own nodes' bits.
    ByNode(fn(u32) -> u64),
    /// Kept whole on every rank: a personalised task's holdings (by
    /// packet: who holds one in transit is the whole network's fact), an
    /// algorithm's own tables.
    Whole(fn(u32) -> u64),
}

impl Footprint {
    /// The bytes at dimension d in one process.
    pub fn bytes(self, d: u32) -> u64 {
        self.bytes_over(d, 1)
    }

    /// The bytes each of `ranks` ranks keeps at dimension d.
    pub fn bytes_over(self, d: u32, ranks: u64) -> u64 {
        match self {
            Footprint::ByNode(f) => f(d).div_ceil(ranks.max(1)),
            Footprint::Whole(f) => f(d),
        }
    }
}

/// Holdings of one broadcast packet: a bit per node.
pub fn one_packet_bytes(d: u32) -> u64 {
    (1u64 << d.min(63)).div_ceil(8)
}

/// Holdings of one packet on a grid of side at most n: a bit per node
/// (n x n; the catalog caps every grid at 2^24 nodes).
pub fn one_packet_bytes_grid(n: u32) -> u64 {
    (n as u64 * n as u64)
        .min(crate::topology::grid::Grid::MAX_NODES)
        .div_ceil(8)
}

/// Holdings of a packet per node (multinode broadcast): a bit per node and
/// packet.
pub fn every_packet_bytes(d: u32) -> u64 {
    1u64.checked_shl(2 * d)
        .filter(|_| 2 * d < 64)
        .map_or(u64::MAX, |b| b.div_ceil(8))
}

/// Holdings of a personalised packet per node (gather, accumulation): a
/// delivery bit and a relay word per packet.
pub fn personal_packet_bytes(d: u32) -> u64 {
    let ids = 1u64 << d.min(60);
    ids.div_ceil(8) + 4 * ids
}

/// Holdings of a personalised packet per pair of nodes (total exchange,
/// multinode accumulation): a delivery bit and a relay word per packet;
/// packet ids are 32-bit, so past d = 15 nothing fits.
pub fn pair_packet_bytes(d: u32) -> u64 {
    if 2 * d >= 32 {
        return u64::MAX;
    }
    let ids = 1u64 << (2 * d);
    ids.div_ceil(8) + 4 * ids
}

/// An algorithm's registry entry: what it says about itself and how to
/// build its protocol at a configuration.
pub struct Entry<P> {
    /// What the algorithm says about itself.
    pub info: Info,
    /// Its protocol at a configuration (checked by the catalog).
    pub build: fn(Config) -> P,
}
