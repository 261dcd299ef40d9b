//! SBT: spanning binomial tree broadcast on the n-cube.
//! Lecture notes, "Store-and-forward one-to-all broadcast", Hypercube; used
//! as the baseline of Wang and Ku, section 1 and Table I.
//!
//! # The algorithm
//! SBT_n is two SBT_(n-1) whose roots are joined by an edge. Relative to
//! the source s, the parent of node x is x with its highest one bit
//! cleared, so a node reached over dimension d forwards over the
//! dimensions above d ("if the packet arrived via channel of direction i
//! ... send it to all neighbors in directions j = i+1, ..., n-1", the
//! notes' dimension-ordered trees).
//! * all-port: a node forwards over all those dimensions in the slot after
//!   it is informed; (n choose i) nodes are informed in slot i.
//! * one-port: a node forwards over one dimension per slot, the lowest
//!   first; every informed node sends over dimension i-1 in slot i, so
//!   2^(i-1) nodes are informed in slot i.
//!
//! Every transmission is one arc, so wormhole and store-and-forward runs
//! occupy the same resources.
//!
//! # Bounds
//! * steps = n, one-port and all-port ("The SBT algorithm works optimally
//!   for both 1-port and all-port hypercube").
//! * transmissions = 2^n - 1 ("Both schemes are transmission optimal").
//!
//! # Example: all-port Q3 from 000
//! ```text
//! slot 1: 000->001, 000->010, 000->100
//! slot 2: 001->011, 001->101, 010->110
//! slot 3: 011->111
//! ```

use crate::blocks::broadcast::{self, Packet};
use crate::config::{Config, Ports};
use crate::config::{
    Ports::{All, One},
    Switching::{Sf, Wh},
};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Codes, Hints, Inputs, Protocol, Sources};
use crate::topology::hypercube::Hypercube;
use properties::{bounds, Claims, NodeId, PacketId, PropertyName, Slot, Transmission};

/// The SBT broadcast at one configuration.
#[derive(Clone, Debug)]
pub struct Sbt {
    cube: Hypercube,
}

/// The packet a node forwards (named by its source) and the next
/// dimension it forwards over, if it still has one.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct SbtState {
    source: NodeId,
    next_dim: Option<u32>,
}

/// The registry entry.
pub const ENTRY: Entry<Sbt> = Entry {
    info: Info {
        name: "sbt",
        summary: "spanning binomial tree broadcast, n steps",
        reference: "lecture notes, Store-and-forward OAB, Hypercube",
        claim: "n steps; complete, one copy per node, contention-free, 2^n - 1 transmissions",
        modes: &[(Wh, All), (Sf, All), (Sf, One), (Wh, One)],
        reach: Reach {
            lockstep: 20,
            actor: 5,
            actor_auto: 4,
        },
        params: &[],
        memory: crate::entry::Footprint::ByNode(crate::entry::one_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: Sbt::new,
};

impl Sbt {
    /// SBT at `cfg`.
    pub fn new(cfg: Config) -> Self {
        Sbt {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
        }
    }
}

impl Protocol for Sbt {
    type State = SbtState;
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

    fn hints(&self) -> Hints {
        Hints::EVENT_DRIVEN
    }

    fn claims(&self) -> Claims {
        use PropertyName::*;
        let claimed = [
            Completeness,
            NoDuplication,
            ContentionFreedom,
            TimeBound,
            Transmissions,
        ];
        broadcast::claims(&self.cube, &claimed, Some(bounds::sbt(self.cube.dim())))
    }

    // The next dimension fits a byte; `step` reads the sender's dimension.

    fn init(&self, source: &NodeId, node: NodeId) -> SbtState {
        SbtState {
            source: *source,
            next_dim: (node == *source).then_some(0),
        }
    }

    fn step(
        &self,
        node: NodeId,
        state: &mut SbtState,
        _slot: Slot,
        arrivals: &[Arrival<Packet>],
        _choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let n = self.cube.dim();
        for a in arrivals {
            // Reached over dimension d: forward over d+1, ..., n-1.
            let d = (a.from ^ node).trailing_zeros();
            state.next_dim = Some(d + 1);
            state.source = a.msg.source;
        }
        let msg = Packet {
            source: state.source,
            step: 0,
        };
        let Some(first) = state.next_dim.filter(|&d| d < n) else {
            state.next_dim = None;
            return false;
        };
        let last = match self.cube.ports() {
            Ports::All => n,
            Ports::One => first + 1,
        };
        for d in first..last {
            let route = broadcast::hop(&self.cube, node, node ^ (1 << d));
            out.push(Transmission { route, msg });
        }
        state.next_dim = (last < n).then_some(last);
        state.next_dim.is_some()
    }

    const PACKS: bool = true;

    fn codes(&self) -> Option<impl Codes<NodeId, SbtState, Packet> + '_> {
        Some(self)
    }
}

/// The dense drive's codes of a node and an arrival.
impl Codes<NodeId, SbtState, Packet> for &Sbt {
    fn pack_state(&self, source: &NodeId, _: NodeId, state: &SbtState) -> Option<u16> {
        let code = state.next_dim.map_or(0, |d| d + 1);
        (state.source == *source && code < 256).then_some(code as u16)
    }

    fn unpack_state(&self, source: &NodeId, _: NodeId, code: u16) -> SbtState {
        SbtState {
            source: *source,
            next_dim: (code as u32).checked_sub(1),
        }
    }

    fn pack_arrival(&self, &source: &NodeId, to: NodeId, a: &Arrival<Packet>) -> Option<u16> {
        broadcast::pack_arrival(source, to, a, true)
    }

    fn unpack_arrival(&self, &source: &NodeId, to: NodeId, code: u16) -> Arrival<Packet> {
        broadcast::unpack_arrival(source, to, code)
    }
}
