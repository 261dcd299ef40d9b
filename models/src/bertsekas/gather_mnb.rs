//! GATHER-MNB: single node gather extracted from the optimal multinode
//! broadcast. Bertsekas, Ozveren, Stamoulis, Tseng and Tsitsiklis,
//! "Optimal Communication Algorithms for Hypercubes" (1991), section 3.
//!
//! # The algorithm
//! "For each node t, consider the single node broadcast tree of the
//! previous section, consisting of the links A_i(t), and let p(t, s) be the
//! path on this tree leading from t to the root s. A single node gather
//! algorithm is obtained by executing the multinode broadcast algorithm of
//! the previous section with the modification that the packet of each node
//! t is transmitted only on the path p(t, s)."
//!
//! So node u, in the slot in which `mnb` sends the packet of t = u xor x
//! over the link (x, y) of the tree translated by t, sends it only if
//! t xor y lies on p(t, s), that is if y lies on the tree's path from 0 to
//! t xor s. A relay holds what it receives until its slot comes; nothing
//! else moves. `gather` (scatter reversed) is the paper's other gather.
//!
//! Every variant of the construction is an input, as for `mnb`.
//!
//! # Bounds (section 3, Tables 1 and 2)
//! "The total number of packet transmissions in this algorithm is equal to
//! the lower bound of Eq. (2)", d 2^(d-1), and it "still requires
//! ceil((2^d - 1)/d) time units" (MLA; 2^d - 1 under SLA, where the path's
//! links follow the SLA tree's slots).

use crate::bertsekas::mnb::Mnb;
use crate::bertsekas::scatter::{self, Parcel};
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Hints, Inputs, Protocol, Symmetry};
use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
use properties::{Claims, NodeId, PacketId, Route, Slot, Task, Transmission};

/// The registry entry.
pub const ENTRY: Entry<GatherMnb> = Entry {
    info: Info {
        name: "gather-mnb",
        summary: "single node gather: the multinode broadcast, each packet only on its path",
        reference: "Bertsekas et al. 1991, section 3",
        claim: "MLA: ceil((2^d-1)/d) slots, SLA: 2^d-1 slots; d 2^(d-1) transmissions \
                (Eq. (2)); every packet delivered once, contention-free",
        modes: &[(Sf, All), (Sf, One)],
        reach: Reach::lockstep_only(6),
        params: &[],
        memory: crate::entry::Footprint::Whole(memory),
        family: crate::topology::Family::Cube,
    },
    build: GatherMnb::new,
};

/// Holdings, and per node its parent in the tree (4 bytes).
fn memory(d: u32) -> u64 {
    crate::entry::personal_packet_bytes(d).saturating_add(4u64 << d.min(40))
}

/// The gather at one configuration.
#[derive(Clone, Debug)]
pub struct GatherMnb {
    mnb: Mnb,
    /// Per variant of the construction, each node's parent in the tree
    /// rooted at 0.
    parents: Vec<Vec<NodeId>>,
}

impl GatherMnb {
    /// Every variant `mnb` builds at `cfg`.
    pub fn new(cfg: Config) -> Self {
        let mnb = Mnb::new(cfg);
        let nodes = mnb.topology().nodes() as usize;
        let parents = (0..mnb.built() as u32)
            .map(|v| {
                let mut parent = vec![0; nodes];
                for &(x, y) in mnb.slots(v).iter().flatten() {
                    parent[y as usize] = x;
                }
                parent
            })
            .collect();
        GatherMnb { mnb, parents }
    }

    /// True if `y` lies on the tree's path from 0 to `z`.
    fn on_path(parent: &[NodeId], y: NodeId, mut z: NodeId) -> bool {
        while z != 0 && z != y {
            z = parent[z as usize];
        }
        z == y
    }
}

impl Protocol for GatherMnb {
    type Topo = Hypercube;
    /// (root, variant of the construction).
    type Input = (NodeId, u32);
    /// The input, known to all: the schedule is the construction's.
    type State = (NodeId, u32);
    type Msg = Parcel;

    fn topology(&self) -> &Hypercube {
        self.mnb.topology()
    }

    /// Scatter's: the Table 1 time, Eq. (2)'s transmissions.
    fn claims(&self) -> Claims {
        scatter::claims(self.topology())
    }

    fn init(&self, input: &(NodeId, u32), _: NodeId) -> (NodeId, u32) {
        *input
    }

    fn packets(&self, msg: &Parcel, mut f: impl FnMut(PacketId)) {
        f(msg.packet)
    }

    fn step(
        &self,
        u: NodeId,
        &mut (root, v): &mut (NodeId, u32),
        slot: Slot,
        _: &[Arrival<Parcel>],
        _: u32,
        out: &mut Vec<Transmission<Parcel>>,
    ) -> bool {
        let slots = self.mnb.slots(v);
        let Some(links) = slots.get(slot as usize - 1) else {
            return false;
        };
        let parent = &self.parents[v as usize];
        for &(x, y) in links {
            let t = u ^ x;
            if t != root && Self::on_path(parent, y, t ^ root) {
                out.push(Transmission {
                    route: Route::Link { from: u, to: t ^ y },
                    msg: Parcel { packet: t },
                });
            }
        }
        (slot as usize) < slots.len()
    }

    fn domain(&self) -> impl Inputs<(NodeId, u32)> + '_ {
        self
    }

    fn hints(&self) -> Hints {
        Hints::SCHEDULED
    }
}

/// The inputs the claim ranges over.
impl Inputs<(NodeId, u32)> for &GatherMnb {
    fn task(&self, &(root, _): &(NodeId, u32)) -> Task {
        Task::Gather {
            nodes: self.topology().nodes(),
            root,
        }
    }

    fn source_input(&self, root: NodeId) -> Option<(NodeId, u32)> {
        Some((root, 0))
    }

    fn sourced(&self, root: NodeId) -> Vec<(NodeId, u32)> {
        (0..self.parents.len() as u32).map(|v| (root, v)).collect()
    }

    fn total(&self) -> u64 {
        (self.topology().nodes() as u64).saturating_mul(self.mnb.variants)
    }

    fn describe(&self, &(root, v): &(NodeId, u32)) -> String {
        format!(
            "root {}, {}",
            self.topology().node_label(root),
            crate::entry::variant_label("construction", v, self.mnb.variants)
        )
    }

    fn symmetry(&self) -> Option<Symmetry> {
        Some(Symmetry::XorTranslation)
    }
}
