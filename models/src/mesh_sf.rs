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
//! * With `--source` the bound is that source's; over every source it is
//!   the largest of theirs.

use crate::broadcast::Packet;
use crate::catalog::{Config, Entry, Info, Ports, Reach, Shape};
use crate::catalog::{Ports::*, Switching::*};
use crate::grid::{Dir, Grid};
use crate::protocol::{Arrival, Protocol};
use crate::topology::Topology;
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Task, Transmission};

const INFO: Info = Info {
    name: "mesh-sf",
    summary: "store-and-forward mesh broadcast on a dimension-order spanning tree",
    reference: "lecture notes, section 11, Store-and-forward OAB, Meshes",
    claim: "all-port: the source's eccentricity (at most the diameter); one-port: \
            max(ecc, ceil(log2 N)) unless the first side is odd with the source in its \
            middle; one copy per node, N - 1 transmissions, contention-free",
    modes: &[(Sf, All), (Sf, One)],
    reach: Reach {
        lockstep: 16,
        actor: 0,
        actor_auto: 0,
    },
    params: &[],
    memory: crate::catalog::one_packet_bytes_grid,
    shape: Shape::Grid { torus: false },
};

/// The registry entry of the notes' algorithm as printed.
pub const ENTRY: Entry<MeshSf> = Entry {
    info: INFO,
    build: |cfg| MeshSf::new(cfg, false),
};

/// The registry entry of the farthest-first variant.
pub const FARTHEST: Entry<MeshSf> = Entry {
    info: Info {
        name: "mesh-sf-farthest",
        summary: "mesh-sf sending the longer side first in every dimension (one-port)",
        reference: "lecture notes, section 11, Meshes: the farthest-first approach",
        ..INFO
    },
    build: |cfg| MeshSf::new(cfg, true),
};

/// The broadcast on one mesh.
#[derive(Clone, Debug)]
pub struct MeshSf {
    grid: Grid,
    farthest: bool,
    /// The source given with `--source`, whose bound the claim is.
    source: Option<NodeId>,
}

/// A node's state: the packet (named by its source), where it came from
/// (dimension and direction of travel; None at the source) and the slot of
/// the node's first send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    Waiting,
    Informed {
        packet: NodeId,
        from: Slot,
        via: Option<(u8, Dir)>,
    },
}

impl MeshSf {
    pub fn new(cfg: Config, farthest: bool) -> Self {
        MeshSf {
            grid: Grid::of(&cfg, false),
            farthest,
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

    /// What `node` sends, in order, having got the packet `via` (None: the
    /// source): each a direction along a dimension with a neighbour there.
    fn sends(&self, node: NodeId, via: Option<(u8, Dir)>) -> Vec<(usize, Dir)> {
        let g = &self.grid;
        let mut out = Vec::new();
        let next = match via {
            None => 0,
            Some((i, dir)) => {
                out.push((i as usize, dir));
                i as usize + 1
            }
        };
        for j in next..g.dims() {
            let longer = self.farthest || (via.is_none() && j == 0);
            for dir in self.both(j, g.coord(node, j), longer) {
                out.push((j, dir));
            }
        }
        out.retain(|&(j, dir)| g.neighbour(node, j, dir).is_some());
        out
    }

    /// The source's eccentricity: its distance to the farthest node.
    pub fn eccentricity(&self, source: NodeId) -> Slot {
        let g = &self.grid;
        (0..g.dims())
            .map(|i| {
                let (a, z) = (g.coord(source, i), g.sides()[i]);
                a.max(z - 1 - a)
            })
            .sum()
    }

    /// The bound claimed from `source`, if any.
    fn bound(&self, source: NodeId) -> Option<Slot> {
        let ecc = self.eccentricity(source);
        match self.grid.ports() {
            Ports::All => Some(ecc),
            Ports::One => {
                let z = self.grid.sides()[0];
                let middle = z % 2 == 1 && self.grid.coord(source, 0) == z / 2;
                (!middle).then(|| ecc.max(self.grid.nodes().next_power_of_two().ilog2()))
            }
        }
    }
}

impl Protocol for MeshSf {
    type Topo = Grid;
    type Input = NodeId;
    type State = State;
    type Msg = Packet;

    fn topology(&self) -> &Grid {
        &self.grid
    }

    fn source_input(&self, source: NodeId) -> Option<NodeId> {
        Some(source)
    }

    fn describe_input(&self, &source: &NodeId) -> String {
        format!("source {}", self.grid.node_label(source))
    }

    fn task(&self, &source: &NodeId) -> Task {
        Task::Broadcast {
            nodes: self.grid.nodes(),
            sources: vec![source],
        }
    }

    fn claims(&self) -> Claims {
        use PropertyName::*;
        let sources: Vec<NodeId> = match self.source {
            Some(s) => vec![s],
            None => (0..self.grid.nodes()).collect(),
        };
        let bounds: Vec<Option<Slot>> = sources.iter().map(|&s| self.bound(s)).collect();
        let mut claimed = vec![
            Completeness,
            NoDuplication,
            ContentionFreedom,
            Causality,
            Transmissions,
        ];
        // A time is claimed where every source checked has one.
        let bound = bounds.iter().copied().collect::<Option<Vec<Slot>>>();
        if bound.is_some() {
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
            bound: bound.and_then(|b| b.into_iter().max()),
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

    fn packets(&self, msg: &Packet, mut f: impl FnMut(PacketId)) {
        f(msg.source)
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
        let sends = self.sends(node, via);
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

    fn event_driven(&self) -> bool {
        false
    }
}
