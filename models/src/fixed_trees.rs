//! FIXED-TREES: the strawman of Stamoulis and Tsitsiklis, "An efficient
//! algorithm for multiple simultaneous broadcasts in the hypercube", IPL 46
//! (1993), section 3.1: "each of the 2^d nodes of the hypercube is confined
//! to broadcast its packet (if it has one) along a prespecified spanning
//! tree".
//!
//! # The adversary
//! "For any fixed node x and for any of the 2^d prespecified trees except
//! for the one rooted at x, there exists exactly one arc of the form
//! (x xor e_j, x) that belongs to the tree. Thus, there exists some arc
//! (x xor e_j*, x) that belongs to at least (2^d - 1)/d of the trees ... an
//! adversary can choose the K broadcasting nodes in such a way that all of
//! the packets will be received by node x through arc (x xor e_j*, x); in
//! such a case the broadcasts last for at least K time units."
//!
//! # The model
//! The prespecified trees are those of section 3.3.1 (`kbcast-small`): node
//! z's completely unbalanced tree in increasing index order, so node x is
//! reached from z over the arc of the highest dimension of z xor x, which
//! 2^(d-1) of the trees share. Waiting packets cross an arc lowest origin
//! first (one prespecified discipline: one run per set; the adversary's
//! bound rests on an arc's capacity, which no order changes).
//!
//! # What is checked
//! A sometimes claim (`forced-slots`): among every K-set (one per
//! xor-translation orbit: the trees are translates), the checker must find
//! one whose broadcasts take at least K slots. The paper's pigeonhole gives
//! an arc shared by at least (2^d - 1)/d of any 2^d prespecified trees; in
//! these trees 2^(d-1) share one, so the claim applies for K <= 2^(d-1)
//! (above, it is an observation, and fails: no set forces K slots). Default
//! K = 2^(d-1), where K slots exceed the lower bound max{d, (2^d - 1)K/(d
//! 2^d)} for d >= 3. Completeness, one
//! copy and contention-freedom are the trees' and are checked as well.

use crate::broadcast::Packet;
use crate::catalog::{Config, Entry, Info, Param, Reach};
use crate::catalog::{Ports::*, Switching::*};
use crate::kbcast_small::{KbcastSmall, Queues};
use crate::protocol::{Arrival, Protocol};
use properties::{Claims, NodeId, PacketId, PropertyName, Slot, Task, Transmission};

/// The registry entry.
pub const ENTRY: Entry<FixedTrees> = Entry {
    info: Info {
        name: "fixed-trees",
        summary: "each node bound to its own prespecified tree: the adversary of section 3.1",
        reference: "Stamoulis and Tsitsiklis 1993, section 3.1",
        claim: "some K-tuple of broadcasters forces at least K slots (found by the checker)",
        modes: &[(Sf, All)],
        reach: Reach {
            lockstep: 4,
            actor: 0,
            actor_auto: 0,
        },
        params: &[
            Param {
                flag: "--k",
                meaning: "the number of broadcasting nodes, 1..=2^d (default 2^(d-1)); every \
                          K-set is searched, one per xor-translation orbit",
                range: |d| (1, 1 << d),
            },
            Param {
                flag: "--broadcasters",
                meaning: "one set of broadcasting nodes, comma-separated (K = its size)",
                range: |d| (1, 1 << d),
            },
        ],
        memory: crate::catalog::every_packet_bytes,
    },
    build: FixedTrees::new,
};

/// The prespecified trees at one configuration.
#[derive(Clone, Debug)]
pub struct FixedTrees(pub KbcastSmall);

impl FixedTrees {
    pub fn new(cfg: Config) -> Self {
        let d = cfg.n;
        let mut trees = KbcastSmall::new(cfg.clone());
        trees.sets = crate::broadcasters::Sets::new(&cfg, 1 << (d - 1), true);
        FixedTrees(trees)
    }
}

impl Protocol for FixedTrees {
    type Topo = <KbcastSmall as Protocol>::Topo;
    type Input = Vec<NodeId>;
    type State = Queues;
    type Msg = Packet;

    fn topology(&self) -> &Self::Topo {
        self.0.topology()
    }

    fn inputs(&self) -> Vec<Vec<NodeId>> {
        self.0.inputs()
    }

    fn first_input(&self) -> Vec<NodeId> {
        self.0.first_input()
    }

    fn inputs_total(&self) -> u64 {
        self.0.inputs_total()
    }

    fn covered_inputs(&self) -> &'static str {
        self.0.covered_inputs()
    }

    fn source_input(&self, _: NodeId) -> Option<Vec<NodeId>> {
        None
    }

    fn describe_input(&self, set: &Vec<NodeId>) -> String {
        self.0.describe_input(set)
    }

    fn task(&self, set: &Vec<NodeId>) -> Task {
        self.0.task(set)
    }

    /// The trees' properties; no time is claimed: the claim is the
    /// adversary's ([`Protocol::forced`]).
    fn claims(&self) -> Claims {
        use PropertyName::*;
        let mut c = self.0.claims();
        c.claimed = vec![Completeness, NoDuplication, ContentionFreedom, Causality];
        c.bound = None;
        c
    }

    /// K slots, claimed while K trees can share one arc into a node:
    /// K <= 2^(d-1) for these trees.
    fn forced(&self) -> Option<(Slot, bool)> {
        let (k, d) = (self.0.sets.k, self.0.topology().dim());
        Some((k as Slot, k <= 1 << (d - 1)))
    }

    fn init(&self, set: &Vec<NodeId>, node: NodeId) -> Queues {
        self.0.init(set, node)
    }

    fn packets(&self, msg: &Packet, f: impl FnMut(PacketId)) {
        self.0.packets(msg, f)
    }

    /// One discipline: the lowest origin first (choice 0).
    fn step(
        &self,
        node: NodeId,
        q: &mut Queues,
        slot: Slot,
        arrivals: &[Arrival<Packet>],
        _: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        self.0.step(node, q, slot, arrivals, 0, out)
    }

    fn symmetry(&self) -> Option<crate::protocol::Symmetry> {
        self.0.symmetry()
    }

    fn event_driven(&self) -> bool {
        false
    }
}
