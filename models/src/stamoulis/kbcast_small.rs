//! KBCAST-SMALL: K simultaneous broadcasts, each along the completely
//! unbalanced spanning tree rooted at its broadcaster, every tree in the
//! same (increasing) index order. Stamoulis and Tsitsiklis, "An efficient
//! algorithm for multiple simultaneous broadcasts in the hypercube", IPL
//! 46 (1993), sections 2.2 and 3.3.1.
//!
//! # The algorithm
//! "Each of the K nodes broadcasts its packet along a completely
//! unbalanced spanning tree rooted at itself, with all these trees having
//! the same index-order of crossing the hypercube dimensions; e.g. the
//! increasing index-order." In the tree of root z, node y is reached by
//! crossing the dimensions of z xor y in increasing order, so a node x
//! holding z's packet forwards it across every dimension above the highest
//! dimension of z xor x (the root: across every dimension).
//!
//! Copies that want one arc in one slot wait: "each copy of a packet
//! suffers at most K - 1 units of delay caused by contention". A node keeps,
//! per outgoing arc, the packets waiting for it and sends one per slot on
//! each arc (all-port, the paper's model). Which waiting packet goes first
//! is left open (the argument holds for any order).
//!
//! # Orders
//! Copies waiting for one arc (z, z xor e_j) have the same future: past
//! the arc both are forwarded across exactly the dimensions above j, in
//! the same subtree. Swapping which goes first relabels the rest of the
//! run, so every order gives the same times and verdicts up to the
//! packets' names, and the check takes one (the lowest origin first).
//! This is our reduction, not the paper's argument, so it is tested:
//! `every_order` branches on every choice of every node in every slot,
//! and a test compares the two on every set at d <= 3 and for K <= 3 at
//! d = 4.
//!
//! # Inputs
//! The claim quantifies over every K-tuple of broadcasting nodes. The trees
//! are xor-translates of one another, so the run from S xor t is the run
//! from S relabelled: one set per translation orbit is checked (a test
//! checks every set at small d and compares). `--k` picks K (default d,
//! the case the section is for); `--broadcasters` checks one set.
//!
//! # Bounds
//! Claim (section 3.3.1): at most d + K - 1 slots. Lower bound (section
//! 3.1): max{d, (2^d - 1) K / (d 2^d)}. Each packet crosses each arc of its
//! tree once: K (2^d - 1) transmissions (observed, not claimed).

use crate::blocks::broadcast::Packet;
use crate::config::Config;
use crate::entry::{Entry, Info};
use crate::protocol::{Arrival, Choices, Inputs, Judging, Protocol};
use crate::stamoulis::broadcasters;
use crate::topology::hypercube::Hypercube;
use properties::bounds::stamoulis;
use properties::{Claims, NodeId, PacketId, Route, Slot, Transmission};

/// The registry entry.
pub const ENTRY: Entry<KbcastSmall> = Entry {
    info: Info {
        name: "kbcast-small",
        summary: "K broadcasts, each on its own completely unbalanced tree, one index order",
        reference: "Stamoulis and Tsitsiklis 1993, section 3.3.1",
        claim: "at most d + K - 1 slots for every K-tuple of broadcasters and every order \
                of waiting packets; complete, one copy per node",
        params: &[
            broadcasters::k_param(
                "the number of broadcasting nodes, 1..=2^d (default d); every K-set \
                 is checked, one per xor-translation orbit",
            ),
            broadcasters::ONE_SET,
        ],
        ..broadcasters::INFO
    },
    build: KbcastSmall::new,
};

/// K broadcasts on same-order unbalanced trees at one configuration.
#[derive(Clone, Debug)]
pub struct KbcastSmall {
    cube: Hypercube,
    /// The broadcasting sets (one per translation orbit unless a test
    /// asks for every one).
    pub sets: broadcasters::Sets,
    /// Branch on every order of copies waiting for an arc (tests), not
    /// one (see "Orders").
    pub every_order: bool,
    /// Judged by other claims than section 3.3.1's (`fixed-trees`: section
    /// 3.1's adversary), if any.
    pub judge: Option<Judge>,
}

/// Claims about prespecified trees that another section makes, judged on
/// these trees instead of section 3.3.1's (the module that makes them
/// sets them: `fixed-trees`).
#[derive(Clone, Copy, Debug)]
pub struct Judge {
    /// The trees' claims, from section 3.3.1's.
    pub claims: fn(Claims) -> Claims,
    /// The sometimes claim ([`ProtocolExt::forced`](crate::ProtocolExt::forced)).
    pub forced: fn(&KbcastSmall) -> (Slot, bool),
}

/// The dimensions (0-based) across which a node forwards the packet of
/// `origin` in its tree: those above the highest one of origin xor node.
pub fn onward(origin: NodeId, node: NodeId, d: u32) -> std::ops::Range<u32> {
    let x = origin ^ node;
    let above = if x == 0 { 0 } else { 32 - x.leading_zeros() };
    above..d
}

impl KbcastSmall {
    /// Same-order trees at `cfg` (default K = d).
    pub fn new(cfg: Config) -> Self {
        KbcastSmall {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
            sets: broadcasters::Sets::new(&cfg, (cfg.n as u64).min(1 << cfg.n), true),
            every_order: false,
            judge: None,
        }
    }
}

/// A node's state: per outgoing dimension, the packets (by origin) waiting
/// to cross it, in increasing order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Queues(pub Vec<Vec<NodeId>>);

impl Queues {
    /// The queues once `arrivals` are added.
    fn with(&self, node: NodeId, arrivals: &[Arrival<Packet>], d: u32) -> Queues {
        let mut q = self.clone();
        for a in arrivals {
            for j in onward(a.msg.source, node, d) {
                let waiting = &mut q.0[j as usize];
                let at = waiting.partition_point(|&z| z < a.msg.source);
                waiting.insert(at, a.msg.source);
            }
        }
        q
    }
}

impl Protocol for KbcastSmall {
    type Topo = Hypercube;
    /// The broadcasting nodes, in increasing order.
    type Input = Vec<NodeId>;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn domain(&self) -> impl Inputs<Vec<NodeId>> + '_ {
        broadcasters::Broadcasters {
            sets: &self.sets,
            cube: &self.cube,
            covered:
        "one per xor-translation orbit, the first of them where there are more than 65,536: \
         the trees are translates, so every set's run is a relabelled run of one checked",
        }
    }

    type State = Queues;
    type Msg = Packet;

    fn claims(&self) -> Claims {
        let d = self.cube.dim();
        let bound = stamoulis::same_order_trees(d, self.sets.k) as Slot;
        let claims = broadcasters::claims(&self.cube, self.sets.k, bound, false);
        match self.judge {
            Some(judge) => (judge.claims)(claims),
            None => claims,
        }
    }

    fn init(&self, set: &Vec<NodeId>, node: NodeId) -> Queues {
        let d = self.cube.dim();
        let mine = set.binary_search(&node).is_ok();
        Queues(
            (0..d)
                .map(|_| if mine { vec![node] } else { Vec::new() })
                .collect(),
        )
    }

    fn packets(&self, msg: &Packet, mut f: impl FnMut(PacketId)) {
        f(msg.source)
    }

    fn step(
        &self,
        node: NodeId,
        q: &mut Queues,
        _: Slot,
        arrivals: &[Arrival<Packet>],
        mut choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let d = self.cube.dim();
        *q = q.with(node, arrivals, d);
        // The choice, digit by digit: which waiting packet crosses each
        // busy arc (dimensions in increasing order).
        for (j, waiting) in q.0.iter_mut().enumerate() {
            if waiting.is_empty() {
                continue;
            }
            let pick = choice as usize % waiting.len();
            choice /= waiting.len() as u32;
            let origin = waiting.remove(pick);
            out.push(Transmission {
                route: Route::Link {
                    from: node,
                    to: node ^ (1 << j),
                },
                msg: Packet {
                    source: origin,
                    step: 0,
                },
            });
        }
        q.0.iter().any(|w| !w.is_empty())
    }

    fn judging(&self) -> Option<impl Judging<Vec<NodeId>, Queues, Packet> + '_> {
        Some(self)
    }

    fn choices(&self) -> Option<impl Choices<Queues, Packet> + '_> {
        Some(self)
    }
}

/// More of the claim.
impl Judging<Vec<NodeId>, Queues, Packet> for &KbcastSmall {
    fn forced(&self) -> Option<(Slot, bool)> {
        self.judge.map(|judge| (judge.forced)(self))
    }
}

/// Open choices and scheduled sends.
impl Choices<Queues, Packet> for &KbcastSmall {
    fn ways(&self, node: NodeId, q: &Queues, _: Slot, arrivals: &[Arrival<Packet>]) -> u32 {
        if !self.every_order {
            return 1;
        }
        let q = q.with(node, arrivals, self.cube.dim());
        q.0.iter()
            .filter(|w| !w.is_empty())
            .fold(1u32, |a, w| a.saturating_mul(w.len() as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree of section 2.2: from root 000 of the 3-cube, node 110 is
    /// reached over 010 (dimension 2, then 3), and forwards nothing; 001
    /// forwards across dimensions 2 and 3; the root across all three.
    #[test]
    fn the_unbalanced_tree_crosses_dimensions_in_increasing_order() {
        assert_eq!(onward(0, 0, 3), 0..3);
        assert_eq!(onward(0, 0b001, 3), 1..3);
        assert_eq!(onward(0, 0b010, 3), 2..3);
        assert_eq!(onward(0, 0b110, 3), 3..3);
        // Subtree T_i of the root holds 2^(d-i) nodes (section 2.2): the
        // nodes whose lowest differing dimension is i.
        for i in 1..=4u32 {
            let size = (1..16u32).filter(|y| y.trailing_zeros() + 1 == i).count();
            assert_eq!(size, 1 << (4 - i));
        }
    }
}
