//! DT: the double tree broadcast in all-port wormhole-routed hypercubes.
//! Lecture notes, "Wormhole switching one-to-all broadcast", Hypercube
//! (McKinley and Trefftz's DTA); Wang and Ku, section 1 and Table I.
//!
//! # The algorithm (lecture notes)
//! "The idea is to send the packet to the node s', complement to the
//! source s, in the first round, in parallel with sending the packet to all
//! neighbors of s not involved in the communication with s'. Then both s
//! and s' build partial SBTs."
//!
//! 1. Round 1: s sends a worm to s' = s xor 1...1 (e-cube, so over
//!    dimension n-1 first) and one-arc worms to its neighbours over
//!    dimensions 0..n-2. The neighbour s xor 2^(n-1) sits on the worm's
//!    path and is "involved in the communication with s'".
//! 2. s's partial SBT covers the nodes at distance <= T = ceil(n/2) from s,
//!    s''s the nodes at distance <= n-T-1 from s' (the rest, disjointly).
//!    Both are the dimension-ordered binomial trees of [`crate::lecture_notes::sbt`]: a node
//!    reached over dimension d forwards over the dimensions above d, in the
//!    round after it is informed, while the tree's depth allows.
//! 3. The neighbour s xor 2^(n-1) is a leaf of s's tree (no dimension above
//!    n-1); s informs it in round 2, when the arc is free.
//!
//! # Readings
//! * Which neighbours are "involved": the one on the e-cube path to s'
//!   (no intermediate reception is assumed by the notes or Wang-Ku).
//! * "Partial SBTs": split by distance as above, so that no node is
//!   informed twice; the notes give no more detail.
//!
//! # Bounds
//! * steps <= ceil(n/2) (the notes; Wang-Ku section 1). Read this way the
//!   leaf of step 3 makes n = 2 take 2 steps, which Table I prints and the
//!   all-port lower bound forces (one step informs at most n = 2 nodes);
//!   the formula says 1: docs/errata.md.
//!
//! # Example: Q4 from 0000 (T = 2, s' = 1111)
//! ```text
//! round 1: 0000=>1111, 0000->0001, 0000->0010, 0000->0100
//! round 2: 0001->0011, 0001->0101, 0001->1001, 0010->0110, 0010->1010,
//!          0100->1100, 0000->1000, 1111->1110, 1111->1101, ... (s' tree depth 1)
//! ```

use crate::blocks::broadcast::{self, Packet};
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Codes, Hints, Inputs, Protocol, Sources};
use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
use properties::{bounds, Claims, NodeId, PacketId, PropertyName, Route, Slot, Transmission};

/// The double tree at one configuration.
#[derive(Clone, Debug)]
pub struct Dt {
    cube: Hypercube,
}

/// Only the source has something to remember: the round-2 send to the
/// neighbour on the path to s'.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct DtState {
    source_round: u8,
}

/// The registry entry.
pub const ENTRY: Entry<Dt> = Entry {
    info: Info {
        name: "dt",
        summary: "double tree broadcast, ceil(n/2) steps",
        reference: "lecture notes, Wormhole OAB, Hypercube (DTA)",
        claim: "ceil(n/2) steps; complete, contention-free",
        modes: &[(Wh, All)],
        reach: Reach {
            lockstep: 20,
            actor: 5,
            actor_auto: 4,
        },
        params: &[],
        memory: crate::entry::Footprint::ByNode(crate::entry::one_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: Dt::new,
};

impl Dt {
    /// DTA at `cfg`.
    pub fn new(cfg: Config) -> Self {
        Dt {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
        }
    }

    /// Depth of s's partial tree: T = ceil(n/2).
    fn depth_s(&self) -> u32 {
        self.cube.dim().div_ceil(2)
    }

    /// Depth of s''s partial tree: n - T - 1 (distances from s').
    fn depth_complement(&self) -> u32 {
        (self.cube.dim() - self.depth_s()).saturating_sub(1)
    }

    /// Sends to the children of `rel` (relative to the tree's `root`) in a
    /// dimension-ordered binomial tree of depth `depth`.
    fn children(
        &self,
        root: NodeId,
        rel: NodeId,
        depth: u32,
        msg: Packet,
        out: &mut Vec<Transmission<Packet>>,
    ) {
        if rel.count_ones() + 1 > depth {
            return;
        }
        let above = if rel == 0 {
            0
        } else {
            32 - rel.leading_zeros()
        };
        for d in above..self.cube.dim() {
            let from = root ^ rel;
            out.push(Transmission {
                route: broadcast::hop(&self.cube, from, from ^ (1 << d)),
                msg,
            });
        }
    }
}

impl Protocol for Dt {
    type State = DtState;
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
        let claimed = [Completeness, ContentionFreedom, TimeBound];
        broadcast::claims(
            &self.cube,
            &claimed,
            Some(bounds::double_tree(self.cube.dim())),
        )
    }

    // The source's round fits a byte; `step` reads no sender.

    fn init(&self, source: &NodeId, node: NodeId) -> DtState {
        DtState {
            source_round: u8::from(node == *source),
        }
    }

    fn step(
        &self,
        node: NodeId,
        state: &mut DtState,
        _slot: Slot,
        arrivals: &[Arrival<Packet>],
        _choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let n = self.cube.dim();
        let all = self.cube.nodes() - 1;
        let top = 1 << (n - 1);
        let msg = Packet {
            source: node,
            step: 0,
        };
        match state.source_round {
            1 => {
                // Round 1: the worm to s', and the neighbours off its path.
                out.push(Transmission {
                    route: Route::Worm {
                        from: node,
                        to: node ^ all,
                        first: None,
                    },
                    msg,
                });
                for d in 0..n - 1 {
                    out.push(Transmission {
                        route: broadcast::hop(&self.cube, node, node ^ (1 << d)),
                        msg,
                    });
                }
                state.source_round = if n >= 2 { 2 } else { 0 };
                return state.source_round != 0;
            }
            2 => {
                // Round 2: the neighbour that was on the path to s'.
                out.push(Transmission {
                    route: broadcast::hop(&self.cube, node, node ^ top),
                    msg,
                });
                state.source_round = 0;
                return false;
            }
            _ => {}
        }
        for a in arrivals {
            let s = a.msg.source;
            let rel = node ^ s;
            if rel == all {
                self.children(node, 0, self.depth_complement(), a.msg, out);
            } else if rel.count_ones() <= self.depth_s() {
                self.children(s, rel, self.depth_s(), a.msg, out);
            } else {
                self.children(s ^ all, rel ^ all, self.depth_complement(), a.msg, out);
            }
        }
        false
    }

    const PACKS: bool = true;

    fn codes(&self) -> Option<impl Codes<NodeId, DtState, Packet> + '_> {
        Some(self)
    }
}

/// The dense drive's codes of a node and an arrival.
impl Codes<NodeId, DtState, Packet> for &Dt {
    fn pack_state(&self, _: &NodeId, _: NodeId, state: &DtState) -> Option<u16> {
        Some(state.source_round as u16)
    }

    fn unpack_state(&self, _: &NodeId, _: NodeId, code: u16) -> DtState {
        DtState {
            source_round: code as u8,
        }
    }

    fn pack_arrival(&self, &source: &NodeId, to: NodeId, a: &Arrival<Packet>) -> Option<u16> {
        broadcast::pack_arrival(source, to, a, false)
    }

    fn unpack_arrival(&self, &source: &NodeId, to: NodeId, code: u16) -> Arrival<Packet> {
        broadcast::unpack_arrival(source, to, code)
    }
}
