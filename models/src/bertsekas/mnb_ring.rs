//! MNB-RING: multinode broadcast under SLA on a ring embedded in the
//! d-cube. Bertsekas, Ozveren, Stamoulis, Tseng and Tsitsiklis, "Optimal
//! Communication Algorithms for Hypercubes" (1991), section 2, "Multinode
//! Broadcast Under the SLA Assumption".
//!
//! # The algorithm
//! "Embed a ring on the d-cube and require each node to transmit at each
//! time unit, to its clockwise neighbor on the ring the packet it received
//! at the previous time unit from its counterclockwise neighbor. This
//! algorithm starts with each node transmitting its packet to its
//! clockwise neighbor and terminates after 2^d - 1 time units."
//!
//! The ring is the reflected Gray code g(k) = k xor (k >> 1) (the embedding
//! the paper cites from its textbook): consecutive codes, and the last and
//! the first, differ in one bit. In slot s the node at ring position k
//! sends the packet of the node at position k - s + 1.
//!
//! # Bounds (Tables 1 and 2)
//! 2^d - 1 slots; 2^d (2^d - 1) transmissions.

use crate::blocks::broadcast::Packet;
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Hints, Inputs, Protocol};
use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
use properties::bounds::bertsekas;
use properties::{Claims, NodeId, PacketId, Route, Slot, Task, Transmission};

/// The registry entry.
pub const ENTRY: Entry<MnbRing> = Entry {
    info: Info {
        name: "mnb-ring",
        summary: "multinode broadcast around a Gray-code ring (SLA)",
        reference: "Bertsekas et al. 1991, section 2, Multinode Broadcast Under SLA",
        claim: "2^d-1 slots; 2^d(2^d-1) transmissions; complete, one copy per node, \
                contention-free",
        modes: &[(Sf, One)],
        reach: Reach::lockstep_only(9),
        params: &[],
        memory: crate::entry::Footprint::ByNode(crate::entry::every_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: MnbRing::new,
};

/// The ring schedule.
#[derive(Clone, Debug)]
pub struct MnbRing {
    cube: Hypercube,
}

/// The node at ring position k.
fn gray(k: u32) -> NodeId {
    k ^ (k >> 1)
}

/// The ring position of node v (the inverse of [`gray`]).
fn position(v: NodeId) -> u32 {
    let mut k = v;
    let mut shift = v >> 1;
    while shift != 0 {
        k ^= shift;
        shift >>= 1;
    }
    k
}

impl MnbRing {
    /// The Gray-code ring at `cfg`.
    pub fn new(cfg: Config) -> Self {
        MnbRing {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
        }
    }
}

impl Protocol for MnbRing {
    type Topo = Hypercube;
    /// The ring leaves nothing open: one input.
    type Input = u32;
    type State = ();
    type Msg = Packet;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn claims(&self) -> Claims {
        let d = self.cube.dim();
        Claims::optimal(
            bertsekas::scatter_time_sla(d),
            bertsekas::multinode_transmissions(d),
        )
    }

    fn init(&self, _: &u32, _: NodeId) {}

    fn packets(&self, msg: &Packet, mut f: impl FnMut(PacketId)) {
        f(msg.source)
    }

    fn step(
        &self,
        node: NodeId,
        _: &mut (),
        slot: Slot,
        _: &[Arrival<Packet>],
        _: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let nodes = self.cube.nodes();
        let last = nodes - 1;
        if slot > last {
            return false;
        }
        let k = position(node);
        let from = (k + nodes - (slot - 1)) % nodes;
        out.push(Transmission {
            route: Route::Link {
                from: node,
                to: gray((k + 1) % nodes),
            },
            msg: Packet {
                source: gray(from),
                step: 0,
            },
        });
        slot < last
    }

    fn domain(&self) -> impl Inputs<u32> + '_ {
        self
    }

    fn hints(&self) -> Hints {
        Hints::SCHEDULED
    }
}

/// The inputs the claim ranges over.
impl Inputs<u32> for &MnbRing {
    fn task(&self, _: &u32) -> Task {
        Task::multinode_broadcast(self.cube.nodes())
    }

    fn all(&self) -> Vec<u32> {
        vec![0]
    }

    fn describe(&self, _: &u32) -> String {
        "the Gray-code ring".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gray_ring_is_a_ring_of_the_cube() {
        for d in 1..=8u32 {
            let n = 1u32 << d;
            for k in 0..n {
                assert_eq!(position(gray(k)), k);
                assert_eq!((gray(k) ^ gray((k + 1) % n)).count_ones(), 1, "d={d} k={k}");
            }
        }
    }
}
