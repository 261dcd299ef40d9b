//! SNB: single node broadcast on the spanning tree of Fig. 4. Bertsekas,
//! Ozveren, Stamoulis, Tseng and Tsitsiklis, "Optimal Communication
//! Algorithms for Hypercubes" (1991), section 2.
//!
//! # The algorithm
//! Relative to the root (node 0 after relabelling by xor), the parent of
//! x is x with its rightmost one cleared; the children of x set one bit to
//! the right of its rightmost one (every bit, for the root).
//! * MLA: a node sends to all its children in the slot after it is
//!   reached, so node x is reached in slot weight(x) (at most d).
//! * SLA: "giving priority to neighbors with larger identity numbers":
//!   node (00..0) sends to (10..0) at time 1, to (01..0) at time 2, ...;
//!   node (10..0) sends to (110..0) at time 2, to (101..0) at time 3, and
//!   so on. A child x | 2^j of x (j below x's rightmost one, position L)
//!   is reached L - j slots after x; the last node is reached in slot d.
//!
//! # Bounds (Tables 1 and 2)
//! d slots under MLA and SLA; 2^d - 1 transmissions.

use crate::blocks::broadcast::{self, Packet};
use crate::config::{Config, Ports};
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Inputs, Protocol, Sources};
use crate::topology::hypercube::Hypercube;
use properties::bounds::bertsekas;
use properties::{Claims, NodeId, PacketId, PropertyName, Slot, Transmission};

/// The registry entry.
pub const ENTRY: Entry<Snb> = Entry {
    info: Info {
        name: "snb",
        summary: "single node broadcast on the Fig. 4 spanning tree",
        reference: "Bertsekas et al. 1991, section 2, Fig. 4",
        claim: "d slots (MLA and SLA); 2^d-1 transmissions; complete, one copy per node, \
                contention-free",
        modes: &[(Sf, All), (Sf, One)],
        reach: Reach::lockstep_only(16),
        params: &[],
        memory: crate::entry::Footprint::ByNode(crate::entry::one_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: Snb::new,
};

/// The Fig. 4 tree and its schedule under the cube's port model.
#[derive(Clone, Debug)]
pub struct Snb {
    cube: Hypercube,
}

/// Relative to the root: the position (0-based) of x's rightmost one, d
/// for the root.
fn lowest(x: NodeId, d: u32) -> u32 {
    if x == 0 {
        d
    } else {
        x.trailing_zeros()
    }
}

/// The slot in which relative node x is reached, for x != 0.
pub fn reached(x: NodeId, d: u32, ports: Ports) -> Slot {
    match ports {
        Ports::All => x.count_ones(),
        Ports::One => {
            let parent = x & (x - 1);
            let before = if parent == 0 {
                0
            } else {
                reached(parent, d, ports)
            };
            before + lowest(parent, d) - x.trailing_zeros()
        }
    }
}

/// The children of relative node x, in the order they are sent to.
pub fn children(x: NodeId, d: u32) -> impl Iterator<Item = NodeId> {
    (0..lowest(x, d)).rev().map(move |j| x | (1 << j))
}

impl Snb {
    /// Single node broadcast at `cfg`.
    pub fn new(cfg: Config) -> Self {
        Snb {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
        }
    }
}

impl Protocol for Snb {
    /// The root, which every node knows (the algorithm is started at all
    /// nodes at once, the paper's global clock).
    type State = NodeId;
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

    fn claims(&self) -> Claims {
        use PropertyName::*;
        let d = self.cube.dim();
        let mut c = broadcast::claims(
            &self.cube,
            &[
                Completeness,
                NoDuplication,
                ContentionFreedom,
                TimeBound,
                Transmissions,
            ],
            Some(bertsekas::single_broadcast_time(d) as Slot),
        );
        c.transmissions = Some(bertsekas::single_broadcast_transmissions(d));
        c
    }

    fn init(&self, source: &NodeId, _: NodeId) -> NodeId {
        *source
    }

    fn step(
        &self,
        node: NodeId,
        root: &mut NodeId,
        slot: Slot,
        _: &[Arrival<Packet>],
        _: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let (d, ports) = (self.cube.dim(), self.cube.ports());
        let x = node ^ *root;
        let msg = Packet {
            source: *root,
            step: 0,
        };
        let mut later = false;
        for c in children(x, d) {
            let t = reached(c, d, ports);
            if t == slot {
                let route = broadcast::hop(&self.cube, node, node ^ (c ^ x));
                out.push(Transmission { route, msg });
            }
            later |= t > slot;
        }
        later
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's SLA example on the 4-cube: the root reaches 1000, 0100,
    /// 0010, 0001 at times 1..4; 1000 reaches 1100 at 2 and 1010 at 3.
    #[test]
    fn one_port_times_are_the_papers() {
        let t = |x| reached(x, 4, Ports::One);
        assert_eq!([t(0b1000), t(0b0100), t(0b0010), t(0b0001)], [1, 2, 3, 4]);
        assert_eq!([t(0b1100), t(0b1010)], [2, 3]);
        assert_eq!((1..16).map(t).max(), Some(4));
    }
}
