//! MNB: multinode broadcast on the d-cube, every node's packet to every
//! other node. Bertsekas, Ozveren, Stamoulis, Tseng and Tsitsiklis,
//! "Optimal Communication Algorithms for Hypercubes" (1991), section 2.
//!
//! # The algorithm
//! A single node broadcast from node 0 is given as link sets A_1 .. A_q
//! ([`crate::bertsekas::rotation`]); the broadcast from node t uses
//! A_i(t) = {(t xor x, t xor y) | (x, y) in A_i}. Node u therefore sends, for
//! every (x, y) in A_i, the packet of t = u xor x to u xor x xor y.
//! * MLA (all ports): every A_i(t) in slot i. The links of A_i have distinct
//!   types, so the sets A_i(t) over all t are disjoint: no contention, and
//!   q = ceil((2^d - 1)/d) slots.
//! * SLA (one port): "at time n(y), we transmit the packet of node t on link
//!   (t xor x, t xor y)": one link of the tree per slot, 2^d - 1 slots, each
//!   node sending and receiving one packet per slot.
//!
//! Every variant of the construction's open choices is an input of the
//! exhaustive check ([`crate::bertsekas::rotation::Choices`]); the executor runs
//! variant 0.
//!
//! # Bounds (Tables 1 and 2)
//! * MLA: ceil((2^d - 1)/d) slots; SLA: 2^d - 1 slots.
//! * 2^d (2^d - 1) transmissions, one reception per node and packet.

use crate::bertsekas::rotation::{binomial_links, Choices, Construction, Sets};
use crate::blocks::broadcast::Packet;
use crate::config::{Config, Ports};
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Hints, Inputs, Protocol};
use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
use properties::bounds::bertsekas;
use properties::{Claims, NodeId, PacketId, Route, Slot, Task, Transmission};

/// The registry entry.
pub const ENTRY: Entry<Mnb> = Entry {
    info: Info {
        name: "mnb",
        summary: "multinode broadcast on rotation-class trees translated by xor",
        reference: "Bertsekas et al. 1991, section 2",
        claim: "MLA: ceil((2^d-1)/d) slots, SLA: 2^d-1 slots; 2^d(2^d-1) transmissions; \
                complete, one copy per node, contention-free",
        modes: &[(Sf, All), (Sf, One)],
        reach: Reach::lockstep_only(6),
        params: &[],
        memory: crate::entry::Footprint::ByNode(crate::entry::every_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: Mnb::new,
};

/// The registry entry of the text's floor reading of q and E_i.
pub const FLOOR: Entry<Mnb> = Entry {
    info: Info {
        name: "mnb-floor",
        summary: "mnb with q = floor((2^d-1)/d) and E_q the rest, as section 2 prints it",
        reference: "Bertsekas et al. 1991, section 2 (docs/errata.md)",
        claim: "MLA: ceil((2^d-1)/d) slots; 2^d(2^d-1) transmissions; complete, one copy \
                per node, contention-free",
        modes: &[(Sf, All)],
        reach: Reach::lockstep_only(6),
        params: &[],
        memory: crate::entry::Footprint::ByNode(crate::entry::every_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: Mnb::floor,
};

/// Multinode broadcast by xor-translated link sets.
#[derive(Clone, Debug)]
pub struct Mnb {
    cube: Hypercube,
    /// The link sets of every variant the check covers.
    trees: Vec<Tree>,
    /// Variants of the construction in all (the check covers `trees`).
    pub variants: u64,
    /// The claimed time, from the paper's table (the binomial variant is
    /// judged against the same claim).
    bound: Slot,
}

/// One single node broadcast from node 0, as the links of each slot.
#[derive(Clone, Debug)]
struct Tree {
    /// Links (x, y) sent in slot i + 1.
    slots: Vec<Vec<(NodeId, NodeId)>>,
}

/// Variants past this many are not enumerated (the executor runs the
/// first); `check` says how many were covered.
pub const MAX_VARIANTS: u64 = 1 << 16;

impl Tree {
    /// The MLA schedule of a construction: A_i in slot i.
    fn all_ports(links: Vec<Vec<(NodeId, NodeId)>>) -> Tree {
        Tree { slots: links }
    }

    /// The SLA schedule: link (x, y) in slot n(y).
    fn one_port(k: &Construction) -> Tree {
        let mut slots = vec![Vec::new(); (1 << k.dim()) - 1];
        for &(x, y) in k.links.iter().flatten() {
            slots[k.number[y as usize] as usize - 1].push((x, y));
        }
        Tree { slots }
    }
}

impl Mnb {
    /// The rotation-class construction, every variant up to
    /// [`MAX_VARIANTS`].
    pub fn new(cfg: Config) -> Self {
        Mnb::read(cfg, Sets::Ceil)
    }

    /// The construction with q and E_i read with floor, as printed
    /// (`mnb-floor`, docs/errata.md).
    pub fn floor(cfg: Config) -> Self {
        Mnb::read(cfg, Sets::Floor)
    }

    fn read(cfg: Config, sets: Sets) -> Self {
        let d = cfg.n;
        let cube = Hypercube::new(d, cfg.switching, cfg.ports);
        let choices = Choices::new(d.max(2));
        let variants = if d < 2 { 1 } else { choices.count() };
        let built = if d <= crate::entry::ENUMERATED_UP_TO {
            MAX_VARIANTS
        } else {
            1
        };
        let trees = (0..variants.min(built))
            .map(|v| {
                if d < 2 {
                    return Tree {
                        slots: vec![vec![(0, 1)]],
                    };
                }
                let k = choices.construction_read(v, sets);
                match cfg.ports {
                    Ports::All => Tree::all_ports(k.links),
                    Ports::One => Tree::one_port(&k),
                }
            })
            .collect();
        Mnb {
            bound: match cfg.ports {
                Ports::All => bertsekas::scatter_time_mla(d) as Slot,
                Ports::One => bertsekas::scatter_time_sla(d) as Slot,
            },
            cube,
            trees,
            variants,
        }
    }

    /// Every node on the plain spanning binomial tree of Fig. 4 (MLA):
    /// `mnb-sbt`, the flawed replication of Fig. 5.
    pub fn binomial(cfg: Config) -> Self {
        let d = cfg.n;
        Mnb {
            cube: Hypercube::new(d, cfg.switching, cfg.ports),
            trees: vec![Tree::all_ports(binomial_links(d))],
            variants: 1,
            bound: bertsekas::scatter_time_mla(d) as Slot,
        }
    }
}

impl Mnb {
    /// The links of variant `v`, per slot: (x, y) sent in slot i + 1.
    pub fn slots(&self, v: u32) -> &[Vec<(NodeId, NodeId)>] {
        &self.trees[v as usize].slots
    }

    /// How many variants the check covers.
    pub fn built(&self) -> usize {
        self.trees.len()
    }
}

impl Protocol for Mnb {
    type Topo = Hypercube;
    /// The variant of the construction.
    type Input = u32;
    /// The variant (the schedule is the input's; a node keeps nothing else).
    type State = u32;
    type Msg = Packet;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn claims(&self) -> Claims {
        Claims::optimal(
            self.bound as u64,
            bertsekas::multinode_transmissions(self.cube.dim()),
        )
    }

    fn init(&self, v: &u32, _: NodeId) -> u32 {
        *v
    }

    fn packets(&self, msg: &Packet, mut f: impl FnMut(PacketId)) {
        f(msg.source)
    }

    fn step(
        &self,
        node: NodeId,
        variant: &mut u32,
        slot: Slot,
        _: &[Arrival<Packet>],
        _: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        send(&self.trees[*variant as usize], node, slot, out)
    }

    fn domain(&self) -> impl Inputs<u32> + '_ {
        self
    }

    fn hints(&self) -> Hints {
        Hints::SCHEDULED
    }
}

/// The inputs the claim ranges over.
impl Inputs<u32> for &Mnb {
    fn task(&self, _: &u32) -> Task {
        Task::multinode_broadcast(self.cube.nodes())
    }

    fn all(&self) -> Vec<u32> {
        (0..self.trees.len() as u32).collect()
    }

    fn total(&self) -> u64 {
        self.variants
    }

    fn describe(&self, v: &u32) -> String {
        crate::entry::variant_label("construction", *v, self.variants)
    }
}

/// Sends, for every (x, y) of the tree's `slot`, the packet of u xor x from
/// u to u xor x xor y.
fn send(tree: &Tree, u: NodeId, slot: Slot, out: &mut Vec<Transmission<Packet>>) -> bool {
    let Some(links) = tree.slots.get(slot as usize - 1) else {
        return false;
    };
    for &(x, y) in links {
        out.push(Transmission {
            route: Route::Link {
                from: u,
                to: u ^ x ^ y,
            },
            msg: Packet {
                source: u ^ x,
                step: 0,
            },
        });
    }
    (slot as usize) < tree.slots.len()
}
