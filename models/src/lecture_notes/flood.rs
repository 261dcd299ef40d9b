//! Flooding. Lecture notes, "Store-and-forward one-to-all broadcast",
//! "1-port vs. all-port model".
//!
//! # The algorithm
//! "The source sends the packet to all its neighbors, which make a copy of
//! it and forward it to all its remaining neighbors." A node forwards once,
//! in the slot after it is first informed, to every neighbour it did not
//! receive the packet from in that slot; later copies are dropped. The
//! rule is `blocks::flood`'s, shared with `mesh-flood`; on the cube a
//! node's neighbours are across its n dimensions.
//!
//! # Claims
//! * rounds = the diameter n, in all-port store-and-forward networks
//!   ("trivial optimal OAB with the number of rounds equal to its
//!   diameter").
//! * No claim of one copy: "some nodes can receive the packet more than
//!   once if the graph contains cycles". The checker shows those
//!   duplicates as an observation: on Q_n a node at distance d hears the
//!   packet d times, all in slot d.

use crate::blocks::broadcast::{self, single_source_broadcast, Packet};
pub use crate::blocks::flood::FloodState;
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Protocol};
use crate::topology::hypercube::Hypercube;
use properties::{bounds, Claims, NodeId, PropertyName, Slot, Transmission};

/// Flooding at one configuration.
#[derive(Clone, Debug)]
pub struct Flood {
    cube: Hypercube,
}

/// The registry entry.
pub const ENTRY: Entry<Flood> = Entry {
    info: Info {
        name: "flood",
        summary: "flooding: forward to every neighbour but the senders",
        reference: "lecture notes, Store-and-forward OAB",
        claim: "n steps (the diameter); complete",
        modes: &[(Sf, All), (Wh, All)],
        reach: Reach::lockstep_only(19),
        params: &[],
        memory: crate::entry::one_packet_bytes,
        shape: crate::entry::Shape::Cube,
    },
    build: Flood::new,
};

impl Flood {
    /// Flooding at `cfg`.
    pub fn new(cfg: Config) -> Self {
        Flood {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
        }
    }
}

impl Protocol for Flood {
    type State = FloodState;
    single_source_broadcast!(batch);

    fn claims(&self) -> Claims {
        use PropertyName::*;
        broadcast::claims(
            &self.cube,
            &[Completeness, TimeBound],
            Some(bounds::sbt(self.cube.dim())),
        )
    }

    fn init(&self, source: &NodeId, node: NodeId) -> FloodState {
        FloodState::new(node == *source)
    }

    fn step(
        &self,
        node: NodeId,
        state: &mut FloodState,
        _slot: Slot,
        arrivals: &[Arrival<Packet>],
        _choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let cube = &self.cube;
        let links = (0..cube.dim()).map(|d| {
            let to = node ^ (1 << d);
            (to, broadcast::hop(cube, node, to))
        });
        state.step(node, arrivals, links, out);
        false
    }
}
