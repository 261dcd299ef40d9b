//! Recursive doubling: one-to-all broadcast on one-port wormhole meshes and
//! tori, dimension by dimension. Lecture notes, section 11, "One-port WH
//! meshes" and "One-port WH tori".
//!
//! # The algorithm
//! "The copies of the packet are disseminated dimension by dimension ...
//! every node must participate in broadcasting in one dimension the whole
//! time, until all nodes in respective linear paths are informed, since
//! the basic procedure is the recursive doubling ... The linear paths are
//! recursively split into halves and in each new half, a new source is
//! chosen." On M(z_1, ..., z_k) from (a_1, ..., a_k): "In phase i, all
//! informed nodes form submesh M(*^i, a_{i+1}, ..., a_n). In phase i+1, all
//! informed nodes become sources in linear arrays along dimension i+1."
//! Sides that are not powers of two use "exactly the same binary
//! splitting, except that some nodes can idle in a given round ... force
//! that idling nodes to wait for the next round". On a torus, "OAB in WH
//! T(z) is exactly the same as OAB in WH M(z) with the source in the
//! corner."
//!
//! Readings (docs/errata.md, lecture notes):
//! * A segment [lo, hi) splits at lo + ceil((hi - lo)/2). Its holder sends
//!   one worm into the other half, to the node at its own offset there, or
//!   the other half's last node where that half is one shorter; then each
//!   half goes on alone. A line of z nodes takes ceil(log2 z) rounds, and
//!   every phase as many as its line, so phase i starts when phase i - 1
//!   has had all its rounds (idle lines wait).
//! * On a torus positions are counted from the source round the ring, the
//!   source is the corner 0, and a worm goes the shorter way round (the
//!   round-1 worm of an odd ring goes down floor(z/2) hops rather than up
//!   ceil(z/2): it is alone in its round).
//!
//! # Claims
//! "The time lower bound in one-port WH network is log |V(G)| ... 1-port
//! meshes and tori can easily achieve this lower bound by simulating the
//! hypercube broadcast scheme": ceil(log2 N) rounds, claimed with one copy
//! per node and contention-freedom (arcs and ports). Dimension by
//! dimension it takes the sum of ceil(log2 z_i), which is more than
//! ceil(log2 N) where sides are not powers of two (M(3,5): 2 + 3 = 5 >
//! 4): the checker shows it. The torus's base latency, "(t_s + m t_m)
//! ceil(log z) + t_d (z - 1)", counts the worms of round i as ceil(z/2^i)
//! hops long: `halving` gives those lengths.

use crate::blocks::broadcast::Packet;
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Choices, Hints, Inputs, Protocol, Sources};
use crate::topology::grid::{Grid, TORUS};
use crate::topology::Family;
use crate::topology::Topology;
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Transmission};
use std::ops::Range;

/// The registry entry.
pub const ENTRY: Entry<RecursiveDoubling> = Entry {
    info: Info {
        name: "recursive-doubling",
        summary: "one-port wormhole broadcast on a mesh or torus, halving each line in turn",
        reference: "lecture notes, section 11, One-port WH meshes and tori",
        claim: "ceil(log2 N) rounds; one copy per node, contention-free (arcs and ports), \
                N - 1 transmissions",
        modes: &[(Wh, One)],
        reach: Reach::lockstep_only(16),
        params: &[TORUS],
        memory: crate::entry::Footprint::ByNode(crate::entry::one_packet_bytes_grid),
        family: Family::Grid { torus: false },
    },
    build: RecursiveDoubling::new,
};

/// The broadcast on one mesh or torus.
#[derive(Clone, Debug)]
pub struct RecursiveDoubling {
    grid: Grid,
}

/// A node's sends of the source's packet: (slot, destination), in slot
/// order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Plan {
    /// The source.
    pub source: NodeId,
    /// (slot, destination) of each send.
    pub sends: Vec<(Slot, NodeId)>,
}

/// ceil(log2 z): the rounds of a line of z nodes.
pub fn rounds(z: u32) -> u32 {
    z.next_power_of_two().ilog2()
}

/// The halving of the line 0..z from `holder`: calls `f(round, from, to)`
/// for every worm, round 1 first within each segment.
pub fn halving(z: u32, holder: u32, mut f: impl FnMut(u32, u32, u32)) {
    fn split(lo: u32, hi: u32, h: u32, round: u32, f: &mut impl FnMut(u32, u32, u32)) {
        let Some((new, kept, taken)) = halve(lo, hi, h) else {
            return;
        };
        f(round, h, new);
        split(kept.start, kept.end, h, round + 1, f);
        split(taken.start, taken.end, new, round + 1, f);
    }
    split(0, z, holder, 1, &mut f);
}

/// The worms node `me` sends in [`halving`], as `f(round, to)`: only the
/// segments that hold `me` are followed, log z of them (a node's init
/// walked every worm of its lines: the 4096 x 4096 mesh never reached
/// its first slot).
pub fn halving_from(z: u32, holder: u32, me: u32, mut f: impl FnMut(u32, u32)) {
    let (mut lo, mut hi, mut h, mut round) = (0, z, holder, 1);
    while let Some((new, kept, taken)) = halve(lo, hi, h) {
        if h == me {
            f(round, new);
        }
        (lo, hi, h) = match kept.contains(&me) {
            true => (kept.start, kept.end, h),
            false => (taken.start, taken.end, new),
        };
        round += 1;
    }
}

/// One halving of the segment lo..hi held by `h`: the node `h` sends to,
/// the half `h` keeps and the half the new holder takes; none where the
/// segment is a single node.
fn halve(lo: u32, hi: u32, h: u32) -> Option<(u32, Range<u32>, Range<u32>)> {
    if hi - lo < 2 {
        return None;
    }
    let mid = lo + (hi - lo).div_ceil(2);
    Some(match h < mid {
        true => ((mid + (h - lo)).min(hi - 1), lo..mid, mid..hi),
        false => (lo + (h - mid), mid..hi, lo..mid),
    })
}

impl RecursiveDoubling {
    /// Recursive doubling on the mesh or torus of `cfg`.
    pub fn new(cfg: Config) -> Self {
        RecursiveDoubling {
            grid: Grid::of(&cfg, false),
        }
    }

    /// The first slot of phase i (0-based): after every round of the
    /// lines before it.
    fn phase_start(&self, i: usize) -> Slot {
        1 + self.grid.sides()[..i]
            .iter()
            .map(|&z| rounds(z))
            .sum::<u32>()
    }
}

impl Protocol for RecursiveDoubling {
    type State = Plan;
    type Topo = Grid;
    type Input = NodeId;
    type Msg = Packet;

    fn topology(&self) -> &Grid {
        &self.grid
    }

    // Grids have no xor symmetry: every source is an input.
    fn domain(&self) -> impl Inputs<NodeId> + '_ {
        Sources::of(&self.grid)
    }

    fn packets(&self, msg: &Packet, mut f: impl FnMut(PacketId)) {
        f(msg.source)
    }

    fn claims(&self) -> Claims {
        let log = rounds(self.grid.nodes());
        Claims {
            claimed: PropertyName::OPTIMAL.to_vec(),
            bound: Some(log),
            lower_bound: Some(log),
            transmissions: None,
        }
    }

    fn init(&self, &source: &NodeId, node: NodeId) -> Plan {
        let g = &self.grid;
        let mut sends = Vec::new();
        for i in 0..g.dims() {
            // Phase i's lines are those through the nodes informed so far:
            // every later coordinate the source's.
            if (i + 1..g.dims()).any(|j| g.coord(node, j) != g.coord(source, j)) {
                continue;
            }
            let (z, a, x) = (g.sides()[i], g.coord(source, i), g.coord(node, i));
            // Positions along the line: on a torus counted from the source
            // round the ring (the source the corner 0), on a mesh as they
            // stand.
            let torus = g.torus();
            let (holder, me) = match torus {
                true => (0, (x + z - a) % z),
                false => (a, x),
            };
            let at = |p: u32| if torus { (p + a) % z } else { p };
            let start = self.phase_start(i);
            halving_from(z, holder, me, |round, to| {
                sends.push((start + round - 1, g.with(node, i, at(to))));
            });
        }
        sends.sort_unstable();
        Plan { source, sends }
    }

    fn step(
        &self,
        node: NodeId,
        plan: &mut Plan,
        slot: Slot,
        _: &[Arrival<Packet>],
        _: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let msg = Packet {
            source: plan.source,
            step: 0,
        };
        for &(_, to) in plan.sends.iter().filter(|s| s.0 == slot) {
            out.push(Transmission {
                route: Route::Worm {
                    from: node,
                    to,
                    first: None,
                },
                msg,
            });
        }
        plan.sends.last().is_some_and(|s| s.0 > slot)
    }

    fn choices(&self) -> Option<impl Choices<Plan, Packet> + '_> {
        Some(self)
    }

    fn hints(&self) -> Hints {
        Hints::SCHEDULED
    }
}

/// Open choices and scheduled sends.
impl Choices<Plan, Packet> for &RecursiveDoubling {
    fn wake(&self, plan: &Plan, slot: Slot) -> Slot {
        plan.sends
            .iter()
            .map(|s| s.0)
            .find(|&at| at > slot)
            .unwrap_or(slot + 1)
    }
}
