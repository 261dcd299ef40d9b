//! HKA: the Ho-Kao broadcast in all-port wormhole-routed hypercubes.
//! Lecture notes, section 11, "Wormhole switching one-to-all broadcast",
//! "Hypercube".
//!
//! # The algorithm
//! "Divide recursively Q_n into sufficiently small subcubes of nearly equal
//! size and apply DTA inside these subcubes. HKA assumes e-cube routing
//! with checking the bits left-to-right and uses ascending dimension-simple
//! paths: given a sequence of dimension numbers 0 <= i_1 < ... < i_d <=
//! n-1, an ascending dimension-simple path is any path u_0, ..., u_d of
//! nodes in Q_n such that u_j is obtained from u_{j-1} by complementing bit
//! i_j. It follows that all d paths u_0 -> u_j are pairwise node-disjoint if
//! e-cube WH routing is used, so that u_0 can send d packets to all these
//! destinations simultaneously. HKA constructs an ascending
//! dimension-simple path u_0, ..., u_n such that Q_n can be partitioned
//! into n+1 disjoint subcubes S_i, of equal or nearly equal size, such that
//! subcube S_i contains u_i."
//!
//! Readings (the notes give the idea and a figure for n = 7, not the
//! construction; docs/errata.md, item 15):
//! * The path flips every free dimension of the subcube in increasing
//!   order, so u_j differs from u_0 in the j lowest free dimensions.
//! * The partition is a balanced binary search over 0..m (m free
//!   dimensions): splitting the indices k.. from ..k on dimension i_k
//!   separates u_0..u_{k-1} (bit i_k as u_0's) from u_k..u_m. Each S_j
//!   keeps the free dimensions not split on above it, so the subcubes
//!   differ in dimension by at most one ("nearly equal size"); for m = 7
//!   they are the eight Q_4 of the figure.
//! * Each u_j, informed in the round u_0 sends, goes on in S_j the same
//!   way while S_j has more than 6 dimensions, and with DTA (the double
//!   tree of `dt`) once it has at most 6, where the notes call DTA optimal.
//!   Every worm stays inside its subcube, so subcubes never share an arc.
//!
//! # Claims
//! "Optimal up to a small multiplicative constant for n >= 7": no exact
//! count, so no time bound is judged; the report prints the all-port lower
//! bound ceil(n / log2(n+1)) (the least a with (n+1)^a >= 2^n), and `check
//! table lecture-bounds` prints HKA's steps beside DTA's, NOB's and it.
//! Complete, one copy per node, contention-free are claimed.

use crate::blocks::broadcast::{self, Packet};
use crate::blocks::translated::Schedule;
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Choices, Codes, Hints, Inputs, Protocol, Sources};
use crate::topology::hypercube::Hypercube;
use properties::{Claims, NodeId, PacketId, PropertyName, Slot, Transmission};

/// Subcubes of at most this many dimensions run DTA.
pub const DTA_MAX: u32 = 6;

/// The registry entry.
pub const ENTRY: Entry<Hka> = Entry {
    info: Info {
        name: "ho-kao",
        summary: "Ho-Kao: an ascending dimension-simple path into n+1 subcubes, DTA inside",
        reference: "lecture notes, section 11, Wormhole switching OAB, Hypercube (HKA)",
        claim: "complete, one copy per node, contention-free (no exact step count claimed: \
                optimal up to a small constant factor)",
        modes: &[(Wh, All)],
        reach: Reach::lockstep_only(16),
        params: &[],
        memory: crate::entry::Footprint::Whole(hka_bytes),
        family: crate::topology::Family::Cube,
    },
    build: Hka::new,
};

/// HKA's holdings and its schedule, which every rank keeps whole: a worm
/// to each node but the source, 12 bytes each (3.2 GB at d = 28, which the
/// holdings alone left out: the run aborted under a 4 GB address space
/// where it should have been refused).
fn hka_bytes(d: u32) -> u64 {
    let worm = std::mem::size_of::<(NodeId, Slot, NodeId)>() as u64;
    crate::entry::one_packet_bytes(d).saturating_add(worm.saturating_mul(1u64 << d.min(63)))
}

/// HKA at one configuration.
#[derive(Clone, Debug)]
pub struct Hka {
    cube: Hypercube,
    /// The worms from source 0, each e-cube; a source s relabels them by
    /// xor.
    schedule: Schedule,
}

/// The double tree (DTA) in Q_m from 0, as `dt` runs it: (round, from,
/// to). Round 1: the worm to the complement and the neighbours over
/// dimensions 0..m-2; round 2: the neighbour over m-1; then the
/// dimension-ordered binomial trees of depth ceil(m/2) from 0 and m -
/// ceil(m/2) - 1 from the complement, each node sending in the round after
/// it is informed.
pub fn dta(m: u32) -> Vec<(Slot, NodeId, NodeId)> {
    let all: NodeId = (1u64 << m) as NodeId - 1;
    let (ds, dc) = (m.div_ceil(2), (m - m.div_ceil(2)).saturating_sub(1));
    let mut out = vec![(1, 0, all)];
    out.extend((0..m.saturating_sub(1)).map(|d| (1, 0, 1 << d)));
    if m >= 2 {
        out.push((2, 0, 1 << (m - 1)));
    }
    // Binomial tree children of `rel` (relative to `root`) below `depth`.
    let mut queue: Vec<(Slot, NodeId, NodeId, u32)> = Vec::new();
    for &(r, _, to) in &out.clone() {
        match to == all {
            true => queue.push((r, all, 0, dc)),
            false => queue.push((r, 0, to, ds)),
        }
    }
    while let Some((r, root, rel, depth)) = queue.pop() {
        if rel.count_ones() + 1 > depth {
            continue;
        }
        let above = if rel == 0 {
            0
        } else {
            32 - rel.leading_zeros()
        };
        for d in above..m {
            let child = rel ^ (1 << d);
            out.push((r + 1, root ^ rel, root ^ child));
            queue.push((r + 1, root, child, depth));
        }
    }
    out.sort_unstable();
    out
}

/// HKA in the subcube of `root` with free dimensions `free` (increasing),
/// from `start`: pushes (round, from, to).
fn split(root: NodeId, free: &[u32], start: Slot, out: &mut Vec<(Slot, NodeId, NodeId)>) {
    let m = free.len() as u32;
    if m <= DTA_MAX {
        // Map Q_m's dimension d onto free[d]: e-cube order is kept.
        let place = |v: NodeId| {
            (0..m).fold(root, |x, d| match v >> d & 1 {
                1 => x ^ (1 << free[d as usize]),
                _ => x,
            })
        };
        for (r, from, to) in dta(m) {
            out.push((start + r - 1, place(from), place(to)));
        }
        return;
    }
    // The path: u_j flips the j lowest free dimensions.
    let u = |j: usize| free[..j].iter().fold(root, |x, &d| x ^ (1 << d));
    for j in 1..=free.len() {
        out.push((start, root, u(j)));
    }
    // The subcubes: a balanced search over the indices 0..=m.
    fn parts(
        lo: usize,
        hi: usize,
        free: &[u32],
        kept: Vec<u32>,
        f: &mut impl FnMut(usize, Vec<u32>),
    ) {
        if lo == hi {
            return f(lo, kept);
        }
        let k = (lo + hi).div_ceil(2);
        // Dimension free[k - 1] separates u_lo..u_{k-1} from u_k..u_hi.
        let kept: Vec<u32> = kept.into_iter().filter(|&d| d != free[k - 1]).collect();
        parts(lo, k - 1, free, kept.clone(), f);
        parts(k, hi, free, kept, f);
    }
    let mut subcubes = Vec::new();
    parts(0, free.len(), free, free.to_vec(), &mut |j, kept| {
        subcubes.push((u(j), kept))
    });
    for (uj, kept) in subcubes {
        split(uj, &kept, start + 1, out);
    }
}

impl Hka {
    /// HKA at `cfg`: its subcubes and their schedule.
    pub fn new(cfg: Config) -> Self {
        let free: Vec<u32> = (0..cfg.n).collect();
        let mut worms = Vec::new();
        split(0, &free, 1, &mut worms);
        Hka {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
            schedule: Schedule::new(worms),
        }
    }

    /// The rounds HKA takes on this cube.
    pub fn rounds(&self) -> Slot {
        self.schedule.rounds()
    }
}

impl Protocol for Hka {
    /// The source, which every node knows (started at all nodes at once),
    /// and the node relative to it.
    type State = (NodeId, NodeId);
    type Topo = Hypercube;
    type Input = NodeId;
    type Msg = Packet;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    // The logic is computed for source 0 and relabelled by xor.
    fn domain(&self) -> impl Inputs<NodeId> + '_ {
        Sources::xor(&self.cube)
    }

    fn packets(&self, msg: &Packet, mut f: impl FnMut(PacketId)) {
        f(msg.source)
    }

    fn claims(&self) -> Claims {
        use PropertyName::*;
        broadcast::claims(
            &self.cube,
            &[Completeness, NoDuplication, ContentionFreedom],
            None,
        )
    }

    // A node's state never changes: the code says it is its first.

    fn init(&self, &source: &NodeId, node: NodeId) -> (NodeId, NodeId) {
        (source, node ^ source)
    }

    fn step(
        &self,
        node: NodeId,
        &mut (source, rel): &mut (NodeId, NodeId),
        slot: Slot,
        _: &[Arrival<Packet>],
        _: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let msg = Packet { source, step: 0 };
        self.schedule
            .step(node, rel, slot, msg, |to| to ^ source, out)
    }

    const PACKS: bool = true;

    fn codes(&self) -> Option<impl Codes<NodeId, (NodeId, NodeId), Packet> + '_> {
        Some(self)
    }

    fn choices(&self) -> Option<impl Choices<(NodeId, NodeId), Packet> + '_> {
        Some(self)
    }

    fn hints(&self) -> Hints {
        Hints::SCHEDULED
    }
}

/// Open choices and scheduled sends.
impl Choices<(NodeId, NodeId), Packet> for &Hka {
    fn wake(&self, &(_, rel): &(NodeId, NodeId), slot: Slot) -> Slot {
        self.schedule.wake(rel, slot)
    }
}

/// The dense drive's codes of a node and an arrival.
impl Codes<NodeId, (NodeId, NodeId), Packet> for &Hka {
    fn pack_state(&self, &source: &NodeId, node: NodeId, state: &(NodeId, NodeId)) -> Option<u16> {
        (*state == (source, node ^ source)).then_some(0)
    }

    fn unpack_state(&self, &source: &NodeId, node: NodeId, _: u16) -> (NodeId, NodeId) {
        (source, node ^ source)
    }

    fn pack_arrival(&self, &source: &NodeId, to: NodeId, a: &Arrival<Packet>) -> Option<u16> {
        broadcast::pack_arrival(source, to, a, false)
    }

    fn unpack_arrival(&self, &source: &NodeId, to: NodeId, code: u16) -> Arrival<Packet> {
        broadcast::unpack_arrival(source, to, code)
    }
}
