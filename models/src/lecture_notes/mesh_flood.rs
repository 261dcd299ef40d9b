//! Flooding on meshes and tori. Lecture notes, section 11,
//! "Store-and-forward one-to-all broadcast", "1-port vs. all-port model".
//!
//! # The algorithm
//! "Any all-port SF network has a trivial optimal OAB with the number of
//! rounds equal to its diameter, called flooding algorithm. It works for
//! ... mesh-based networks ... The source sends the packet to all its
//! neighbors, which make a copy of it and forward it to all its remaining
//! neighbors." As on the cube (`flood`): a node forwards once, in the slot
//! after it is first informed, to every neighbour it did not get the packet
//! from in that slot; later copies are dropped (one rule, `blocks::flood_rule`;
//! here a node's neighbours are along each dimension, down and up).
//!
//! # Claims
//! * Rounds: the diameter at most; from a source s, its eccentricity
//!   (with `--source` the claim is that source's, over every source the
//!   diameter).
//! * No claim of one copy: "some nodes can receive the packet more than
//!   once if the graph contains cycles". A mesh's squares are cycles: a
//!   node off the source's lines hears the packet from two neighbours at
//!   once, and the checker shows the duplicates as an observation, as it
//!   does for the cube.

use crate::blocks::broadcast::Packet;
pub use crate::blocks::flood_rule::FloodState;
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Inputs, Judging, Protocol, Sources};
use crate::topology::grid::{Dir, Grid, TORUS};
use crate::topology::Family;
use crate::topology::Topology;
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Transmission};

/// The registry entry.
pub const ENTRY: Entry<MeshFlood> = Entry {
    info: Info {
        name: "mesh-flood",
        summary: "flooding on a mesh or torus: forward to every neighbour but the senders",
        reference: "lecture notes, section 11, Store-and-forward OAB, 1-port vs. all-port",
        claim: "the source's eccentricity (at most the diameter); complete, contention-free \
                (duplicates on every square: observed)",
        modes: &[(Sf, All)],
        reach: Reach::lockstep_only(16),
        params: &[TORUS],
        memory: crate::entry::Footprint::ByNode(crate::entry::one_packet_bytes_grid),
        family: Family::Grid { torus: false },
    },
    build: MeshFlood::new,
};

/// Flooding on one mesh or torus.
#[derive(Clone, Debug)]
pub struct MeshFlood {
    grid: Grid,
    /// The source given with `--source`, whose bound the claim is.
    source: Option<NodeId>,
}

impl MeshFlood {
    /// Flooding on the mesh or torus of `cfg`.
    pub fn new(cfg: Config) -> Self {
        MeshFlood {
            grid: Grid::of(&cfg, false),
            source: cfg.params.source,
        }
    }

    /// The source's eccentricity (`Grid::eccentricity`).
    pub fn eccentricity(&self, source: NodeId) -> Slot {
        self.grid.eccentricity(source)
    }
}

impl Protocol for MeshFlood {
    type State = FloodState;
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
        let bound = match self.source {
            Some(s) => self.eccentricity(s),
            None => (0..self.grid.nodes())
                .map(|s| self.eccentricity(s))
                .max()
                .unwrap_or(0),
        };
        Claims {
            claimed: vec![Completeness, ContentionFreedom, Causality, TimeBound],
            bound: Some(bound),
            lower_bound: Some(bound),
            transmissions: None,
        }
    }

    fn init(&self, &source: &NodeId, node: NodeId) -> FloodState {
        FloodState::new(node == source)
    }

    fn step(
        &self,
        node: NodeId,
        state: &mut FloodState,
        _: Slot,
        arrivals: &[Arrival<Packet>],
        _: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let g = &self.grid;
        let links = (0..g.dims())
            .flat_map(|i| [Dir::Down, Dir::Up].map(|dir| (i, dir)))
            .filter_map(|(i, dir)| g.neighbour(node, i, dir))
            .map(|to| (to, Route::Link { from: node, to }));
        state.step(node, arrivals, links, out);
        false
    }

    fn judging(&self) -> Option<impl Judging<NodeId, FloodState, Packet> + '_> {
        Some(self)
    }
}

/// More of the claim.
impl Judging<NodeId, FloodState, Packet> for &MeshFlood {
    /// Each source's own eccentricity (the claims' bound is the largest).
    fn bound(&self, &source: &NodeId, _claimed: Option<Slot>) -> Option<Slot> {
        Some(self.eccentricity(source))
    }
}
