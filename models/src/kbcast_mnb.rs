//! KBCAST-MNB: the three-phase K-broadcast algorithm specialised to the
//! multinode broadcast (K = 2^d), without its prefix phase. Stamoulis and
//! Tsitsiklis, "An efficient algorithm for multiple simultaneous
//! broadcasts in the hypercube", IPL 46 (1993), section 3.2.
//!
//! # The algorithm
//! "For the case K = 2^d ... the first phase of the algorithm is not
//! necessary, because it is known that r_x = 2^d - x for every node x."
//! * Phase 2: node x sends its packet to the root e_j(x) of tree T(j(x))
//!   (see `esbt`), j(x) = (r_x - 1) mod d + 1, along "the reverse of the
//!   path from e_j(x) to x that is contained in T(j(x))". Packets for one
//!   root meet on its reversed tree and wait for an arc ("due to
//!   pipelining, all N_j packets ... will have been received after at most
//!   N_j + d - 1 slots"); which waiting packet goes first is left open, and
//!   the exhaustive check branches on every choice. The reversed trees are
//!   arc-disjoint, so each node keeps one queue per tree.
//! * Phase 3: each root e_j broadcasts the packets it received along T(j),
//!   one per slot, in the order they came (a root's own packet first, ties
//!   by origin), starting when it detects the end of phase 2: the paper
//!   gives that time, ceil(2^d/d) + d - 1 slots, from which the claimed
//!   total follows. A packet that came later would follow as soon as it is
//!   there. Every other node forwards what it gets to its children in T(j).
//!
//! The termination packet that ends phase 3 carries no data; it is not
//! modelled, and the data's last delivery comes one slot before the claimed
//! total, which counts it ("max_j {N_j + d}" slots for phase 3).
//!
//! # Bounds
//! Claim: 2 ceil(2^d/d) + 2d - 1 slots, complete, and packets sent to
//! different roots or broadcast on different trees "do not interfere"
//! (contention-free). Whether a node ever gets a packet twice the paper
//! does not say: observed (phase 3's tree spans the packet's origin and
//! its phase-2 relays, which have it already). Lower bound: the multinode
//! broadcast's ceil((2^d - 1)/d) (section 3.1).

use crate::broadcast::Packet;
use crate::catalog::{Config, Entry, Info, Reach};
use crate::catalog::{Ports::*, Switching::*};
use crate::esbt;
use crate::hypercube::Hypercube;
use crate::protocol::{Arrival, Protocol};
use crate::topology::Topology;
use properties::bounds::stamoulis;
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Task, Transmission};

/// The registry entry.
pub const ENTRY: Entry<KbcastMnb> = Entry {
    info: Info {
        name: "kbcast-mnb",
        summary: "multinode broadcast by the three-phase algorithm without its prefix phase",
        reference: "Stamoulis and Tsitsiklis 1993, section 3.2",
        claim: "2 ceil(2^d/d) + 2d - 1 slots (with the termination packet); complete and \
                contention-free for every order of waiting packets",
        modes: &[(Sf, All)],
        reach: Reach {
            lockstep: 5,
            actor: 0,
            actor_auto: 0,
        },
        params: &[],
        memory: crate::catalog::every_packet_bytes,
    },
    build: KbcastMnb::new,
};

/// The multinode broadcast at one configuration.
#[derive(Clone, Debug)]
pub struct KbcastMnb {
    cube: Hypercube,
}

impl KbcastMnb {
    pub fn new(cfg: Config) -> Self {
        KbcastMnb {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
        }
    }

    /// The tree (1-based) whose root gets x's packet: j(x) = (r_x - 1) mod
    /// d + 1 with r_x = 2^d - x.
    pub fn tree(&self, x: NodeId) -> u32 {
        let d = self.cube.dim();
        let r = self.cube.nodes() - x;
        (r - 1) % d + 1
    }

    /// The slot after which roots start phase 3: ceil(2^d/d) + d - 1.
    pub fn phase_two(&self) -> Slot {
        let d = self.cube.dim();
        self.cube.nodes().div_ceil(d) + d - 1
    }
}

/// A transmission: the packet and its phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Phased {
    pub packet: Packet,
    /// 2: on its way to the root; 3: broadcast from it.
    pub phase: u8,
}

/// A node's state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MnbState {
    /// Phase 2, per tree (index j - 1): packets waiting to go up, by
    /// origin, in increasing order.
    pub up: Vec<Vec<NodeId>>,
    /// At a root: the packets it got, in order, and how many it has sent.
    pub got: Vec<NodeId>,
    pub sent: u32,
}

impl Protocol for KbcastMnb {
    type Topo = Hypercube;
    /// The number of broadcasters, 2^d (one input: every node).
    type Input = u32;
    type State = MnbState;
    type Msg = Phased;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn inputs(&self) -> Vec<u32> {
        vec![self.cube.nodes()]
    }

    fn source_input(&self, _: NodeId) -> Option<u32> {
        None
    }

    fn describe_input(&self, _: &u32) -> String {
        "every node broadcasting".into()
    }

    fn task(&self, _: &u32) -> Task {
        Task::multinode_broadcast(self.cube.nodes())
    }

    fn claims(&self) -> Claims {
        use PropertyName::*;
        let d = self.cube.dim();
        let k = self.cube.nodes() as u64;
        Claims {
            // The paper does not say that no node gets a packet twice:
            // observed (phase 3 broadcasts to the packet's origin too).
            claimed: vec![Completeness, ContentionFreedom, Causality, TimeBound],
            bound: Some(stamoulis::multinode_three_phase(d) as Slot),
            lower_bound: Some((k - 1).div_ceil(d as u64) as Slot),
            transmissions: None,
        }
    }

    fn init(&self, _: &u32, node: NodeId) -> MnbState {
        let d = self.cube.dim();
        let j = self.tree(node);
        let mut s = MnbState {
            up: vec![Vec::new(); d as usize],
            got: Vec::new(),
            sent: 0,
        };
        if node == 1 << (j - 1) {
            s.got.push(node);
        } else {
            s.up[j as usize - 1].push(node);
        }
        s
    }

    fn packets(&self, msg: &Phased, mut f: impl FnMut(PacketId)) {
        f(msg.packet.source)
    }

    fn choices(&self, node: NodeId, s: &MnbState, _: Slot, arrivals: &[Arrival<Phased>]) -> u32 {
        let mut sizes: Vec<u32> = s.up.iter().map(|q| q.len() as u32).collect();
        for a in arrivals.iter().filter(|a| a.msg.phase == 2) {
            let j = self.tree(a.msg.packet.source);
            if node != 1 << (j - 1) {
                sizes[j as usize - 1] += 1;
            }
        }
        sizes
            .iter()
            .filter(|&&n| n > 0)
            .fold(1u32, |a, &n| a.saturating_mul(n))
    }

    fn step(
        &self,
        node: NodeId,
        s: &mut MnbState,
        slot: Slot,
        arrivals: &[Arrival<Phased>],
        mut choice: u32,
        out: &mut Vec<Transmission<Phased>>,
    ) -> bool {
        let d = self.cube.dim();
        let send = |out: &mut Vec<Transmission<Phased>>, to: NodeId, origin, phase| {
            out.push(Transmission {
                route: Route::Link { from: node, to },
                msg: Phased {
                    packet: Packet {
                        source: origin,
                        step: 0,
                    },
                    phase,
                },
            })
        };
        // Arrivals: phase-2 packets join the queue up their tree (or the
        // root's list); phase-3 packets go on to this node's children.
        let mut came: Vec<NodeId> = Vec::new();
        for a in arrivals {
            let origin = a.msg.packet.source;
            let j = self.tree(origin);
            if a.msg.phase == 3 {
                for c in esbt::children(j, node, d) {
                    send(out, c, origin, 3);
                }
            } else if node == 1 << (j - 1) {
                came.push(origin);
            } else {
                let q = &mut s.up[j as usize - 1];
                let at = q.partition_point(|&z| z < origin);
                q.insert(at, origin);
            }
        }
        came.sort_unstable();
        s.got.extend(came);
        // Phase 2: one waiting packet per tree goes up its arc.
        for (i, q) in s.up.iter_mut().enumerate() {
            if q.is_empty() {
                continue;
            }
            let pick = choice as usize % q.len();
            choice /= q.len() as u32;
            let origin = q.remove(pick);
            let parent = esbt::parent(i as u32 + 1, node, d).expect("not the root");
            send(out, parent, origin, 2);
        }
        // Phase 3 at a root: the next packet it has, one per slot.
        if slot > self.phase_two() && (s.sent as usize) < s.got.len() {
            let origin = s.got[s.sent as usize];
            s.sent += 1;
            let j = node.trailing_zeros() + 1;
            for c in esbt::children(j, node, d) {
                send(out, c, origin, 3);
            }
        }
        let root = node.is_power_of_two() && node < 1 << d;
        let broadcasting = slot <= self.phase_two() || (s.sent as usize) < s.got.len();
        s.up.iter().any(|q| !q.is_empty()) || (root && broadcasting)
    }

    fn event_driven(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// d = 3: r_x = 8 - x, j(x) = (r_x - 1) mod 3 + 1: node 0 -> 2 (r 8),
    /// node 7 -> 1 (r 1), node 5 -> 3 (r 3); phase 2 ends after
    /// ceil(8/3) + 2 = 5 slots.
    #[test]
    fn roots_and_phase_two_by_hand() {
        let p = KbcastMnb::new(crate::Algorithm::KbcastMnb.config(3, None, None).unwrap());
        assert_eq!([p.tree(0), p.tree(7), p.tree(5)], [2, 1, 3]);
        assert_eq!(p.phase_two(), 5);
    }
}
