//! MNA: multinode accumulation, the dual of `mnb`: every node ends with the
//! sum of one term from every other node (a separate term per root).
//! Bertsekas, Ozveren, Stamoulis, Tseng and Tsitsiklis, "Optimal
//! Communication Algorithms for Hypercubes" (1991), section 1 ("a single
//! node (or multinode) accumulation problem can be solved in the same time
//! as a single node (multinode, respectively) broadcast problem") and
//! section 2.
//!
//! # The algorithm
//! The multinode broadcast of `mnb` reversed in time: where the broadcast
//! from t uses link (t xor x, t xor y) in slot i, the accumulation at t
//! sends, in slot q + 1 - i, the combined sum of t's terms of the subtree
//! below y from t xor y to t xor x (q = the broadcast's length). Node u
//! therefore sends, for every (x, y) of the tree's slot q + 1 - s, the sum
//! for root u xor y to u xor y xor x. Under MLA the link sets A_i are
//! reversed; under SLA the one-link-per-slot schedule is.
//!
//! Every variant of the construction is an input, as in `mnb`.
//!
//! # Bounds (Tables 1 and 2)
//! MLA: ceil((2^d - 1)/d) slots; SLA: 2^d - 1 slots; 2^d (2^d - 1)
//! transmissions, each a combined sum.

use crate::bertsekas::mnb::Mnb;
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Hints, Inputs, Protocol};
use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
use properties::bounds::bertsekas;
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Task, Transmission};

/// The registry entry.
pub const ENTRY: Entry<Mna> = Entry {
    info: Info {
        name: "mna",
        summary: "multinode accumulation: mnb's schedule reversed, terms combined",
        reference: "Bertsekas et al. 1991, sections 1 and 2",
        claim: "MLA: ceil((2^d-1)/d) slots, SLA: 2^d-1 slots; 2^d(2^d-1) transmissions; \
                every term reaches its root once",
        modes: &[(Sf, All), (Sf, One)],
        reach: Reach::lockstep_only(6),
        params: &[],
        memory: crate::entry::Footprint::Whole(crate::entry::pair_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: Mna::new,
};

/// Multinode accumulation on the reversed `mnb` schedules.
#[derive(Clone, Debug)]
pub struct Mna {
    mnb: Mnb,
    cube: Hypercube,
    /// Per variant, the members of the subtree below each relative node.
    below: Vec<Vec<Vec<NodeId>>>,
}

/// A combined packet: the sum for `root` of the terms of the subtree below
/// relative node `below` in the tree of `variant`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Sum {
    /// The variant of the construction.
    pub variant: u32,
    /// The root the terms are for.
    pub root: NodeId,
    /// The relative node whose subtree's terms are summed.
    pub below: NodeId,
}

impl Mna {
    /// Multinode accumulation at `cfg`: every variant's subtrees.
    pub fn new(cfg: Config) -> Self {
        let mnb = Mnb::new(cfg.clone());
        let nodes = 1usize << cfg.n;
        let below = (0..mnb.built() as u32)
            .map(|v| {
                let mut children = vec![Vec::new(); nodes];
                for &(x, y) in mnb.slots(v).iter().flatten() {
                    children[x as usize].push(y);
                }
                (0..nodes as NodeId)
                    .map(|y| {
                        let mut members = vec![y];
                        let mut i = 0;
                        while i < members.len() {
                            members.extend(children[members[i] as usize].iter().copied());
                            i += 1;
                        }
                        members
                    })
                    .collect()
            })
            .collect();
        Mna {
            cube: mnb.topology().clone(),
            mnb,
            below,
        }
    }
}

impl Protocol for Mna {
    type Topo = Hypercube;
    /// The variant of the construction.
    type Input = u32;
    /// The variant.
    type State = u32;
    type Msg = Sum;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn claims(&self) -> Claims {
        let d = self.cube.dim();
        let mut c = self.mnb.claims();
        // Table 1's strong optimality; no length limit (a combined message
        // is one packet) and no schedule to match: nothing else to claim.
        c.claimed = PropertyName::OPTIMAL.to_vec();
        c.transmissions = Some(bertsekas::multinode_transmissions(d));
        c
    }

    fn init(&self, v: &u32, _: NodeId) -> u32 {
        *v
    }

    fn packets(&self, s: &Sum, mut f: impl FnMut(PacketId)) {
        let n = self.cube.nodes();
        for &z in &self.below[s.variant as usize][s.below as usize] {
            f((s.root ^ z) * n + s.root)
        }
    }

    fn step(
        &self,
        node: NodeId,
        variant: &mut u32,
        slot: Slot,
        _: &[Arrival<Sum>],
        _: u32,
        out: &mut Vec<Transmission<Sum>>,
    ) -> bool {
        let slots = self.mnb.slots(*variant);
        let q = slots.len() as Slot;
        if slot > q {
            return false;
        }
        for &(x, y) in &slots[(q - slot) as usize] {
            out.push(Transmission {
                route: Route::Link {
                    from: node,
                    to: node ^ y ^ x,
                },
                msg: Sum {
                    variant: *variant,
                    root: node ^ y,
                    below: y,
                },
            });
        }
        slot < q
    }

    fn domain(&self) -> impl Inputs<u32> + '_ {
        self
    }

    fn hints(&self) -> Hints {
        Hints::SCHEDULED
    }
}

/// MNB's constructions, one tree each, every node a root.
impl Inputs<u32> for &Mna {
    fn task(&self, _: &u32) -> Task {
        Task::Accumulate {
            nodes: self.cube.nodes(),
            roots: (0..self.cube.nodes()).collect(),
        }
    }

    fn all(&self) -> Vec<u32> {
        self.mnb.domain().all()
    }

    fn total(&self) -> u64 {
        self.mnb.domain().total()
    }

    fn describe(&self, v: &u32) -> String {
        self.mnb.domain().describe(v)
    }
}
