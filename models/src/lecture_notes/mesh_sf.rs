//! Store-and-forward one-to-all broadcast on meshes by dimension-order
//! spanning trees. Lecture notes, section 11, "Store-and-forward one-to-all
//! broadcast", "Meshes".
//!
//! # The algorithm
//! "Every node uses dimensions in the same order, say 1, ..., n, so that
//! the communication pattern generates dimension-order spanning trees."
//! * All-port: "The source ... will start OAB just by sending the packet to
//!   all output channels. Every other node: if the packet arrived via
//!   channel of direction i, then forward it in direction i further (if
//!   possible) and simultaneously send it to all neighbors in directions
//!   j = i+1, ..., n-1 upward and downward (if they exist)."
//! * One-port: "[The source] starts by sending the packet along the first
//!   dimension, first to the direction with the longer path ahead, and then
//!   it injects the packet sequentially into channels of further directions
//!   2-, 2+, ..., n-, n+. Every other node: if the packet arrived via
//!   channel in dimension i, then { if you are not the last node in
//!   direction i, then forward it in direction i further; for j = i+1, ...,
//!   n-1 do sequentially { if you are not the first node in dimension j,
//!   forward it in direction j-; if you are not the last node in dimension
//!   j, forward it in direction j+ } }", one send a slot.
//!
//! Readings (docs/errata.md, lecture notes):
//! * Dimensions are numbered 1..k in the text and 0..k-1 here; a node's
//!   first send goes in the slot after the packet arrives.
//! * "The longer path ahead" on a tie (an odd side, the source in its
//!   middle): the downward direction first, as the j-, j+ order of the
//!   other dimensions.
//! * As printed, only the source's first dimension goes farthest first;
//!   every other line goes j- then j+. The notes credit "the farthest-first
//!   approach" with the optimality, so `mesh-sf-farthest` sends the longer
//!   side first in every dimension (a node's line in dimension j has the
//!   source's coordinate a_j, so every line of a dimension has the same
//!   longer side).
//!
//! # Claims
//! * All-port: "The number of rounds is equal to the diameter at most";
//!   it is optimal: each node is reached at its distance from the source,
//!   so the run takes the source's eccentricity. One copy per node (a
//!   spanning tree), N - 1 transmissions.
//! * One-port: "dimension-order spanning trees give optimal OABs" with the
//!   farthest-first approach, "except for the case when the first dimension
//!   has odd size and the source is exactly in the middle of it". The
//!   claimed time is the trivial lower bound max(ecc(s), ceil(log2 N)) of a
//!   source s outside that case; no time is claimed inside it.
//! * Each run is judged against its own source's bound
//!   (`ProtocolExt::bound`): over every source, every source with a claimed
//!   time is judged, and the report gives the range of the bounds.
//!
//! # Tori (section 11, "Tori")
//! "Tori are vertex symmetric, so that we can use the mesh algorithm above
//! with the source sitting in the middle of the mesh. Without any
//! precautions, we will have duplication of packets in final rounds in
//! each cycle. There are two solutions: to ignore the second packet, so
//! that in each cycle of the torus, one hop will be superfluous; to
//! prevent one of two nodes opposite to the source within each cycle to
//! forward the packet. This would require some additional information in
//! the packet header."
//! * `torus-sf` (the first): every informed node forwards in its direction
//!   round the ring, always possible on a torus, and starts both
//!   directions of every later dimension; a node forwards only its first
//!   copy and ignores the rest. Where the two wavefronts of a ring meet,
//!   copies cross: the duplicates are observed, not hidden. "One hop will
//!   be superfluous" in each cycle: the ring's last hop delivers a copy
//!   its receiver holds, one slot after the ring is informed, so the
//!   all-port claim is the torus's eccentricity plus one (the completion
//!   time counts every delivery); completeness and contention-freedom are
//!   claimed. (A node that gets both copies at once takes the first
//!   sender's and forwards it on: "ignore the second packet".)
//! * `torus-sf-cut` (the second): the header names the source, so a node
//!   knows its offset r from it along the ring; the upward side of each
//!   ring takes floor(z/2) hops and the downward side ceil(z/2) - 1 (for
//!   even z the node opposite the source is reached from one side only).
//!   That is the mesh algorithm centred on the source: one copy per node,
//!   N - 1 transmissions, and all-port in the torus's eccentricity, sum
//!   of floor(z_i/2), claimed. One-port sends the upward (longer or equal)
//!   side first; no one-port time is claimed for tori (an odd ring has a
//!   tie at every source), the lower bound is printed.

use crate::blocks::broadcast::Packet;
use crate::config::{Config, Ports};
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Inputs, Judging, Protocol, Sources};
use crate::topology::grid::{Dir, Grid};
use crate::topology::Family;
use crate::topology::Topology;
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Transmission};

const INFO: Info = Info {
    name: "mesh-sf",
    summary: "store-and-forward mesh broadcast on a dimension-order spanning tree",
    reference: "lecture notes, section 11, Store-and-forward OAB, Meshes",
    claim: "all-port: the source's eccentricity (at most the diameter); one-port: \
            max(ecc, ceil(log2 N)) unless the first side is odd with the source in its \
            middle; one copy per node, N - 1 transmissions, contention-free",
    modes: &[(Sf, All), (Sf, One)],
    reach: Reach::lockstep_only(16),
    params: &[],
    memory: crate::entry::Footprint::ByNode(crate::entry::one_packet_bytes_grid),
    family: Family::Grid { torus: false },
};

/// The registry entry of the notes' algorithm as printed.
pub const ENTRY: Entry<MeshSf> = Entry {
    info: INFO,
    build: |cfg| MeshSf::new(cfg, Kind::Printed),
};

/// The registry entry of the farthest-first variant.
pub const FARTHEST: Entry<MeshSf> = Entry {
    info: Info {
        name: "mesh-sf-farthest",
        summary: "mesh-sf sending the longer side first in every dimension (one-port)",
        reference: "lecture notes, section 11, Meshes: the farthest-first approach",
        ..INFO
    },
    build: |cfg| MeshSf::new(cfg, Kind::Farthest),
};

/// The registry entry of the torus broadcast that ignores second copies.
pub const TORUS: Entry<MeshSf> = Entry {
    info: Info {
        name: "torus-sf",
        summary: "the mesh broadcast on a torus, second copies ignored (superfluous hops)",
        reference: "lecture notes, section 11, Store-and-forward OAB, Tori (first solution)",
        claim: "all-port: sum of floor(z_i/2) + 1 (one superfluous hop); complete, \
                contention-free (duplicates where each ring's wavefronts meet: observed)",
        family: Family::Grid { torus: true },
        ..INFO
    },
    build: |cfg| MeshSf::new(cfg, Kind::TorusIgnore),
};

/// The registry entry of the torus broadcast whose header stops one side.
pub const TORUS_CUT: Entry<MeshSf> = Entry {
    info: Info {
        name: "torus-sf-cut",
        summary: "the mesh broadcast on a torus, one node opposite the source not forwarding",
        reference: "lecture notes, section 11, Store-and-forward OAB, Tori (second solution)",
        claim: "all-port: sum of floor(z_i/2) (the torus's eccentricity); one copy per \
                node, N - 1 transmissions, contention-free",
        family: Family::Grid { torus: true },
        ..INFO
    },
    build: |cfg| MeshSf::new(cfg, Kind::TorusCut),
};

/// Which reading of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The mesh algorithm as printed (one-port: farthest first on the
    /// source's first dimension only).
    Printed,
    /// Farthest first in every dimension.
    Farthest,
    /// On a torus, forwarding round every ring, second copies ignored.
    TorusIgnore,
    /// On a torus, each ring cut opposite the source (header offsets).
    TorusCut,
}

impl Kind {
    fn torus(self) -> bool {
        matches!(self, Kind::TorusIgnore | Kind::TorusCut)
    }
}

/// The broadcast on one mesh or torus.
#[derive(Clone, Debug)]
pub struct MeshSf {
    grid: Grid,
    kind: Kind,
    /// The source given with `--source`, whose bound the claim is.
    source: Option<NodeId>,
}

/// A node's state: the packet (named by its source), where it came from
/// (dimension and direction of travel; None at the source) and the slot of
/// the node's first send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum State {
    /// Not informed yet.
    Waiting,
    /// Informed.
    Informed {
        /// The packet.
        packet: NodeId,
        /// The slot of the node's first send.
        from: Slot,
        /// The dimension and direction it came along (None at the source).
        via: Option<(u8, Dir)>,
    },
}

impl MeshSf {
    /// The broadcast of `kind` on the mesh or torus of `cfg`.
    pub fn new(cfg: Config, kind: Kind) -> Self {
        MeshSf {
            grid: Grid::of(&cfg, kind.torus()),
            kind,
            source: cfg.params.source,
        }
    }

    /// The two directions of dimension j at a node whose coordinate there
    /// is the source's `a`: the longer path ahead first where `longer`,
    /// else down then up.
    fn both(&self, j: usize, a: u32, longer: bool) -> [Dir; 2] {
        let z = self.grid.sides()[j];
        match longer && z - 1 - a > a {
            true => [Dir::Up, Dir::Down],
            false => [Dir::Down, Dir::Up],
        }
    }

    /// On a torus, how far each side of a ring of z nodes reaches from
    /// its source: up floor(z/2), down ceil(z/2) - 1 where the ring is cut,
    /// and round and round (bounded by the ring) where it is not.
    fn side(&self, z: u32, dir: Dir) -> u32 {
        match (self.kind, dir) {
            (Kind::TorusCut, Dir::Up) => z / 2,
            (Kind::TorusCut, Dir::Down) => z.div_ceil(2) - 1,
            _ => z,
        }
    }

    /// What `node` sends, in order, having got the packet of `source` `via`
    /// (None: at the source): each a direction along a dimension with a
    /// neighbour there.
    fn sends(&self, node: NodeId, source: NodeId, via: Option<(u8, Dir)>) -> Vec<(usize, Dir)> {
        let g = &self.grid;
        let mut out = Vec::new();
        let next = match via {
            None => 0,
            Some((i, dir)) => {
                let i = i as usize;
                let z = g.sides()[i];
                // Hops taken so far along this ring.
                let up = (g.coord(node, i) + z - g.coord(source, i)) % z;
                let gone = if dir == Dir::Up { up } else { z - up };
                if !g.torus() || gone < self.side(z, dir) {
                    out.push((i, dir));
                }
                i + 1
            }
        };
        for j in next..g.dims() {
            let order = match self.kind {
                Kind::Printed => self.both(j, g.coord(node, j), via.is_none() && j == 0),
                Kind::Farthest => self.both(j, g.coord(node, j), true),
                // Up is the longer or equal side of a ring.
                Kind::TorusIgnore | Kind::TorusCut => [Dir::Up, Dir::Down],
            };
            for dir in order {
                if self.side(g.sides()[j], dir) > 0 {
                    out.push((j, dir));
                }
            }
        }
        out.retain(|&(j, dir)| g.neighbour(node, j, dir).is_some());
        out
    }

    /// The source's eccentricity (`Grid::eccentricity`).
    pub fn eccentricity(&self, source: NodeId) -> Slot {
        self.grid.eccentricity(source)
    }

    /// The bound claimed from `source`, if any.
    fn source_bound(&self, source: NodeId) -> Option<Slot> {
        let ecc = self.eccentricity(source);
        match (self.kind, self.grid.ports()) {
            (Kind::TorusIgnore, Ports::All) => Some(ecc + 1),
            (Kind::TorusIgnore, _) | (Kind::TorusCut, Ports::One) => None,
            (_, Ports::All) => Some(ecc),
            (_, Ports::One) => {
                let z = self.grid.sides()[0];
                let middle = z % 2 == 1 && self.grid.coord(source, 0) == z / 2;
                (!middle).then(|| ecc.max(self.grid.nodes().next_power_of_two().ilog2()))
            }
        }
    }
}

impl Protocol for MeshSf {
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
        let sources: Vec<NodeId> = match self.source {
            Some(s) => vec![s],
            None => (0..self.grid.nodes()).collect(),
        };
        let bounds: Vec<Slot> = sources
            .iter()
            .filter_map(|&s| self.source_bound(s))
            .collect();
        let mut claimed = match self.kind {
            Kind::TorusIgnore => vec![Completeness, ContentionFreedom, Causality],
            _ => vec![
                Completeness,
                NoDuplication,
                ContentionFreedom,
                Causality,
                Transmissions,
            ],
        };
        // A time is claimed where some source checked has one; each run is
        // judged against its own source's (`ProtocolExt::bound`).
        if !bounds.is_empty() {
            claimed.push(TimeBound);
        }
        let lower = sources
            .iter()
            .map(|&s| match self.grid.ports() {
                Ports::All => self.eccentricity(s),
                Ports::One => self
                    .eccentricity(s)
                    .max(self.grid.nodes().next_power_of_two().ilog2()),
            })
            .max();
        Claims {
            claimed,
            bound: bounds.into_iter().max(),
            lower_bound: lower,
            transmissions: None,
        }
    }

    fn init(&self, &source: &NodeId, node: NodeId) -> State {
        match node == source {
            true => State::Informed {
                packet: source,
                from: 1,
                via: None,
            },
            false => State::Waiting,
        }
    }

    fn step(
        &self,
        node: NodeId,
        state: &mut State,
        slot: Slot,
        arrivals: &[Arrival<Packet>],
        _: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let g = &self.grid;
        if let (State::Waiting, Some(a)) = (*state, arrivals.first()) {
            // The direction the packet travelled: the arc a.from -> node.
            // Later copies (none in a tree) are left unread.
            let via = (0..g.dims())
                .flat_map(|i| [(i, Dir::Up), (i, Dir::Down)])
                .find(|&(i, dir)| g.neighbour(a.from, i, dir) == Some(node))
                .map(|(i, dir)| (i as u8, dir));
            *state = State::Informed {
                packet: a.msg.source,
                from: slot,
                via: Some(via.expect("a packet comes over an arc")),
            };
        }
        let State::Informed { packet, from, via } = *state else {
            return false;
        };
        let sends = self.sends(node, packet, via);
        let msg = Packet {
            source: packet,
            step: 0,
        };
        let mut later = false;
        for (k, &(j, dir)) in sends.iter().enumerate() {
            let at = match g.ports() {
                Ports::All => from,
                Ports::One => from + k as Slot,
            };
            if at == slot {
                let to = g.neighbour(node, j, dir).expect("kept where it exists");
                out.push(Transmission {
                    route: Route::Link { from: node, to },
                    msg,
                });
            }
            later |= at > slot;
        }
        later
    }

    fn judging(&self) -> Option<impl Judging<NodeId, State, Packet> + '_> {
        Some(self)
    }
}

/// More of the claim.
impl Judging<NodeId, State, Packet> for &MeshSf {
    fn bound(&self, &source: &NodeId, _claimed: Option<Slot>) -> Option<Slot> {
        self.source_bound(source)
    }
}
