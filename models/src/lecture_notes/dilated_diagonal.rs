//! The dilated-diagonal broadcast on all-port wormhole tori T(5^k, 5^k).
//! Lecture notes, section 11, "All-port WH meshes and tori",
//! "Dilated-diagonal-based approach".
//!
//! # The algorithm
//! "This algorithm works optimally for 2D tori T(5^k, 5^k) ... It consists
//! of three phases:
//! * Phase 1: Broadcast the packet into all rows so that each row contains
//!   exactly one copy. This can be done in ceil(log_5 n) rounds by
//!   recursive splitting the torus into 5 horizontal strips of
//!   approximatively the same width and sending the packet from the
//!   source's strip to all other 4 strips in one round along link-disjoint
//!   paths using XY routing.
//! * Phase 2: Align the packets to the main diagonal in all rows in
//!   parallel. Hence, only one round is needed.
//! * Phase 3: Each node on the main diagonal views the torus as decomposed
//!   into 5 diagonal bands of approximatively same width, the main diagonal
//!   is in the middle of the first one. In one step, it informs four nodes
//!   on middle diagonals of the other four bands so that all the 4n paths
//!   are pairwise link-disjoint. This is performed recursively in each
//!   diagonal band."
//!
//! Readings (the notes' figure is not in the text; docs/errata.md, item
//! 16). Coordinates are taken relative to the source (the torus is vertex
//! symmetric), (x, y) with x the first coordinate, routed first ("XY"); a
//! "row" is a line of fixed y, so the strips of phase 1 are ranges of y.
//! * Phase 1, round t: each holder, alone in a strip of height h =
//!   n/5^(t-1) centred on it, sends to the middles of the other four
//!   sub-strips (h' = h/5): to (x, y + h') and (x, y - h') straight along
//!   its line, and to (x + 1, y + 2h') and (x - 1, y - 2h'), one hop
//!   sideways first. The four worms leave by four different arcs and stay
//!   in the strip, so all of a round's worms are link-disjoint.
//! * Phase 2: each holder (x, y) sends along its row to (y, y), where it
//!   is not there already.
//! * Phase 3, round t: each holder on the middle diagonal d (x - y = d) of
//!   a band of width w = n/5^(t-1) informs the middles d +- w', d +- 2w' of
//!   the other four (w' = w/5): (x + w', y) and (x - w', y) along its row,
//!   (x, y - 2w') and (x, y + 2w') along its line. Holders of a row are w
//!   apart and reach w' < w/2 along it, holders of a line w apart reach
//!   2w' < w: the 4n (and later) paths are link-disjoint.
//!
//! # Claims
//! "Works optimally": the lower bound of the all-port WH torus, log_5 N =
//! 2k rounds, is claimed with completeness and contention-freedom. The
//! three phases as written take k + 1 + k = 2k + 1: the checker shows the
//! round phase 2 adds. Nothing is said about duplicates: the off-diagonal
//! holders of phase 1 hear the packet again in phase 3 (observed).

use crate::blocks::broadcast::Packet;
use crate::blocks::translated::Schedule;
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Choices, Hints, Inputs, Protocol, Sources};
use crate::topology::grid::Grid;
use crate::topology::Family;
use properties::{Claims, NodeId, PacketId, PropertyName, Slot, Transmission};

/// The registry entry.
pub const ENTRY: Entry<DilatedDiagonal> = Entry {
    info: Info {
        name: "dilated-diagonal",
        summary: "all-port wormhole torus broadcast: rows by strips, the diagonal, then bands",
        reference: "lecture notes, section 11, All-port WH tori, dilated-diagonal approach",
        claim: "optimal on T(5^k,5^k): log_5 N = 2k rounds; complete, contention-free",
        modes: &[(Wh, All)],
        reach: Reach::lockstep_only(25),
        params: &[],
        memory: crate::entry::Footprint::ByNode(crate::entry::one_packet_bytes_grid),
        family: Family::Grid { torus: true },
    },
    build: DilatedDiagonal::new,
};

/// Why `sides` is not a torus the algorithm covers, if it is not.
pub fn check_sides(sides: &[u32]) -> Option<String> {
    let power = |z: u32| {
        let mut x = 1u32;
        while x < z {
            x = x.saturating_mul(5);
        }
        x == z && z >= 5
    };
    match sides {
        [a, b] if a == b && power(*a) => None,
        _ => Some(format!(
            "dilated-diagonal covers the square tori T(5^k,5^k) of the notes' optimal case \
             (5x5, 25x25, 125x125, 625x625, 3125x3125), not {}",
            sides
                .iter()
                .map(|z| z.to_string())
                .collect::<Vec<_>>()
                .join("x")
        )),
    }
}

/// The broadcast on one torus.
#[derive(Clone, Debug)]
pub struct DilatedDiagonal {
    grid: Grid,
    /// k, with n = 5^k (0 where the torus is not one the notes cover).
    k: u32,
    /// The worms from the source (0, 0); a source s translates them.
    schedule: Schedule,
}

/// A node's state: the source, and the node relative to it.
pub type State = (NodeId, NodeId);

/// A position relative to the source, before wrapping round the torus.
type At = (i64, i64);

impl DilatedDiagonal {
    /// The dilated-diagonal broadcast at `cfg`.
    pub fn new(cfg: Config) -> Self {
        let grid = Grid::of(&cfg, true);
        let n = grid.sides()[0];
        let mut d = DilatedDiagonal {
            grid,
            k: 0,
            schedule: Schedule::default(),
        };
        if check_sides(d.grid.sides()).is_some() {
            return d;
        }
        d.k = n.ilog(5);
        let at = |x: i64, y: i64| {
            let m = n as i64;
            d.grid
                .node(&[x.rem_euclid(m) as u32, y.rem_euclid(m) as u32])
        };
        let mut worms: Vec<(Slot, At, At)> = Vec::new();
        // Phase 1: rows, by strips of y.
        let mut holders: Vec<At> = vec![(0, 0)];
        let mut h = n as i64;
        for t in 1..=d.k {
            h /= 5;
            let mut new = Vec::new();
            for &(x, y) in &holders {
                for (dx, dy) in [(0, h), (0, -h), (1, 2 * h), (-1, -2 * h)] {
                    worms.push((t, (x, y), (x + dx, y + dy)));
                    new.push((x + dx, y + dy));
                }
            }
            holders.extend(new);
        }
        // Phase 2: each row's copy to the diagonal.
        let align = d.k + 1;
        for &(x, y) in &holders {
            if (x - y).rem_euclid(n as i64) != 0 {
                worms.push((align, (x, y), (y, y)));
            }
        }
        // Phase 3: the diagonals, by bands.
        let mut holders: Vec<At> = (0..n as i64).map(|y| (y, y)).collect();
        let mut w = n as i64;
        for t in 1..=d.k {
            w /= 5;
            let mut new = Vec::new();
            for &(x, y) in &holders {
                for (dx, dy) in [(w, 0), (-w, 0), (0, -2 * w), (0, 2 * w)] {
                    worms.push((align + t, (x, y), (x + dx, y + dy)));
                    new.push((x + dx, y + dy));
                }
            }
            holders.extend(new);
        }
        d.schedule = Schedule::new(
            worms
                .into_iter()
                .map(|(t, (x, y), (u, v))| (t, at(x, y), at(u, v))),
        );
        d
    }

    /// `rel` (relative to (0, 0)) translated to source `s`.
    fn translate(&self, rel: NodeId, s: NodeId) -> NodeId {
        let g = &self.grid;
        let n = g.sides()[0];
        let c = |v: NodeId, i: usize| g.coord(v, i);
        g.node(&[(c(rel, 0) + c(s, 0)) % n, (c(rel, 1) + c(s, 1)) % n])
    }

    /// `node` relative to source `s`.
    fn relative(&self, node: NodeId, s: NodeId) -> NodeId {
        let g = &self.grid;
        let n = g.sides()[0];
        let c = |v: NodeId, i: usize| g.coord(v, i);
        g.node(&[
            (c(node, 0) + n - c(s, 0)) % n,
            (c(node, 1) + n - c(s, 1)) % n,
        ])
    }
}

impl Protocol for DilatedDiagonal {
    type State = State;
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
        use PropertyName::*;
        Claims {
            claimed: vec![Completeness, ContentionFreedom, Causality, TimeBound],
            bound: Some(2 * self.k),
            lower_bound: Some(2 * self.k),
            transmissions: None,
        }
    }

    fn init(&self, &source: &NodeId, node: NodeId) -> State {
        (source, self.relative(node, source))
    }

    fn step(
        &self,
        node: NodeId,
        &mut (source, rel): &mut State,
        slot: Slot,
        _: &[Arrival<Packet>],
        _: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let msg = Packet { source, step: 0 };
        let place = |to| self.translate(to, source);
        self.schedule.step(node, rel, slot, msg, place, out)
    }

    fn choices(&self) -> Option<impl Choices<State, Packet> + '_> {
        Some(self)
    }

    fn hints(&self) -> Hints {
        Hints::SCHEDULED
    }
}

/// Open choices and scheduled sends.
impl Choices<State, Packet> for &DilatedDiagonal {
    fn wake(&self, &(_, rel): &State, slot: Slot) -> Slot {
        self.schedule.wake(rel, slot)
    }
}
