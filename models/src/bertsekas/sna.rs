//! SNA: single node accumulation, the dual of `snb`. Bertsekas, Ozveren,
//! Stamoulis, Tseng and Tsitsiklis, "Optimal Communication Algorithms for
//! Hypercubes" (1991), section 1, "Single Node and Multinode Accumulation"
//! and Fig. 2.
//!
//! # The algorithm
//! Every node holds one term; the root must end with all of them, terms
//! "combined" into one packet per link. "From this information [the links
//! of a broadcast and the time transmission begins on each], one can
//! construct a set of times for starting transmission of a packet along
//! each link of the list in the reverse direction": the link into x, used
//! in slot t of the broadcast, carries x's combined subtree back to its
//! parent in slot d + 1 - t. A node has then received its children's sums
//! (their links come later in the broadcast, so earlier here).
//!
//! A combined packet is written as the subtree it sums (`Sum`); its
//! packets are the terms of that subtree, so causality checks that the
//! sender holds every term it claims to have added.
//!
//! # Bounds (Tables 1 and 2)
//! d slots under MLA and SLA; 2^d - 1 transmissions.

use crate::bertsekas::snb::reached;
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Inputs, Protocol, Symmetry};
use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
use properties::bounds::bertsekas;
use properties::{Claims, NodeId, PacketId, Route, Slot, Task, Transmission};

/// The registry entry.
pub const ENTRY: Entry<Sna> = Entry {
    info: Info {
        name: "sna",
        summary: "single node accumulation: the Fig. 4 broadcast reversed, terms combined",
        reference: "Bertsekas et al. 1991, section 1, Fig. 2",
        claim: "d slots (MLA and SLA); 2^d-1 transmissions; every term reaches the root once",
        modes: &[(Sf, All), (Sf, One)],
        reach: Reach::lockstep_only(14),
        params: &[],
        memory: crate::entry::Footprint::Whole(crate::entry::personal_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: Sna::new,
};

/// Single node accumulation on the reversed Fig. 4 schedule.
#[derive(Clone, Debug)]
pub struct Sna {
    cube: Hypercube,
}

/// A combined packet: the sum of the terms of the subtree below `below`
/// (relative to `root`) for `root`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Sum {
    /// The root the terms are for.
    pub root: NodeId,
    /// The relative node whose subtree's terms are summed.
    pub below: NodeId,
}

impl Sna {
    /// Single node accumulation at `cfg`.
    pub fn new(cfg: Config) -> Self {
        Sna {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
        }
    }
}

impl Protocol for Sna {
    type Topo = Hypercube;
    /// The root.
    type Input = NodeId;
    /// The root, known to every node.
    type State = NodeId;
    type Msg = Sum;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn claims(&self) -> Claims {
        let d = self.cube.dim();
        Claims::optimal(
            bertsekas::single_broadcast_time(d),
            bertsekas::single_broadcast_transmissions(d),
        )
    }

    fn init(&self, root: &NodeId, _: NodeId) -> NodeId {
        *root
    }

    /// The terms of the subtree below `below`: every identity that agrees
    /// with it on the bits from its rightmost one up.
    fn packets(&self, sum: &Sum, mut f: impl FnMut(PacketId)) {
        let x = sum.below;
        let low = if x == 0 {
            self.cube.dim()
        } else {
            x.trailing_zeros()
        };
        for z in x..x + (1 << low) {
            f(sum.root ^ z)
        }
    }

    fn step(
        &self,
        node: NodeId,
        root: &mut NodeId,
        slot: Slot,
        _: &[Arrival<Sum>],
        _: u32,
        out: &mut Vec<Transmission<Sum>>,
    ) -> bool {
        let x = node ^ *root;
        if x == 0 {
            return false;
        }
        let d = self.cube.dim();
        let t = d + 1 - reached(x, d, self.cube.ports());
        if t == slot {
            let parent = x & (x - 1);
            out.push(Transmission {
                route: Route::Link {
                    from: node,
                    to: parent ^ *root,
                },
                msg: Sum {
                    root: *root,
                    below: x,
                },
            });
        }
        t > slot
    }

    fn domain(&self) -> impl Inputs<NodeId> + '_ {
        self
    }
}

/// The inputs the claim ranges over.
impl Inputs<NodeId> for &Sna {
    fn task(&self, root: &NodeId) -> Task {
        Task::Accumulate {
            nodes: self.cube.nodes(),
            roots: vec![*root],
        }
    }

    fn source_input(&self, root: NodeId) -> Option<NodeId> {
        Some(root)
    }

    fn describe(&self, root: &NodeId) -> String {
        format!("root {}", self.cube.node_label(*root))
    }

    fn symmetry(&self) -> Option<Symmetry> {
        Some(Symmetry::XorTranslation)
    }
}
