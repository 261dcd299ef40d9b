//! FT-TREES: a fault-tolerant broadcast derived from the d disjoint
//! spanning trees of Stamoulis and Tsitsiklis, section 2.3 (Johnsson and
//! Ho's d-ESBT). Not an algorithm of the paper: commcheck's own use of its
//! trees (docs/faults.md), built to be checked against faults.
//!
//! # The algorithm
//! Relative to the source s (every node is relabelled v -> v xor s):
//! * slot 1: the source sends its packet to each neighbour e_1, ..., e_d,
//!   the copy to e_j marked j;
//! * a node that receives a copy marked j forwards it, marked j, to its
//!   children in T(j) (`esbt::children`), in the next slot, whatever it
//!   held before. The source is a leaf of every T(j) and is left out:
//!   nothing is sent back to it.
//!
//! The arcs s -> e_j belong to no tree (in T(k), k != j, e_j's parent is
//! e_j xor e_k), and the trees are pairwise arc-disjoint, so every node y
//! is reached along d arc-disjoint paths s -> e_j -> (T(j) down to y).
//!
//! # Claims (checked, not quoted)
//! * d + 1 slots: each T(j) has depth d below e_j;
//! * every node other than the source gets exactly d copies, one per tree:
//!   d (2^d - 1) transmissions; no-duplication is not claimed;
//! * contention-free: one slot's transmissions lie on distinct trees'
//!   arcs or on the source's own arcs;
//! * under any d - 1 failed *arcs* every node is informed (d arc-disjoint
//!   paths, Menger). Whether that survives d - 1 failed *links* (both arcs
//!   of each) or d - 1 crashed nodes, the checker answers
//!   (`check ft-trees 3 --faults 2`, `--node-faults 2`; docs/faults.md).

use crate::blocks::broadcast::{self, Packet};
use crate::config::Config;
use crate::config::{Ports::All, Switching::Sf};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Hints, Inputs, Protocol, Sources};
use crate::stamoulis::esbt::children;
use crate::topology::hypercube::Hypercube;
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Transmission};

/// The registry entry.
pub const ENTRY: Entry<FtTrees> = Entry {
    info: Info {
        name: "ft-trees",
        summary: "fault-tolerant broadcast down the d disjoint trees T(j), d + 1 steps",
        reference: "derived from Stamoulis and Tsitsiklis 1993, section 2.3 (docs/faults.md)",
        claim: "d + 1 steps; d copies per node, d (2^d - 1) transmissions, contention-free; \
                every node informed under any d - 1 failed arcs",
        modes: &[(Sf, All)],
        // d copies of one packet interleave: the actor model of the
        // 3-cube has 8 M states.
        reach: Reach {
            lockstep: 10,
            actor: 2,
            actor_auto: 2,
        },
        params: &[],
        memory: crate::entry::Footprint::ByNode(footprint),
        family: crate::topology::Family::Cube,
    },
    build: FtTrees::new,
};

/// Its executor's bytes at dimension `d` beyond the nodes': the packet's
/// holdings, and the slot's arrivals past a node's first (a node takes up
/// to d copies in a slot, kept until the next; a growing list, so twice
/// them).
fn footprint(d: u32) -> u64 {
    let extra = std::mem::size_of::<(NodeId, Arrival<Packet>)>() as u64;
    let nodes = 1u64.checked_shl(d).filter(|_| d < 63).unwrap_or(u64::MAX);
    crate::entry::one_packet_bytes(d).saturating_add(
        nodes
            .saturating_mul(d.saturating_sub(1) as u64)
            .saturating_mul(2 * extra),
    )
}

/// The fault-tolerant broadcast at one configuration.
#[derive(Clone, Debug)]
pub struct FtTrees {
    cube: Hypercube,
}

impl FtTrees {
    /// FT-TREES at `cfg`.
    pub fn new(cfg: Config) -> Self {
        FtTrees {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
        }
    }

    /// The copies `node` sends on a copy marked `j` of the packet of
    /// `source`: to its children in T(j), relative to the source, but
    /// never back to the source.
    pub fn forward(&self, source: NodeId, node: NodeId, j: u32, mut f: impl FnMut(NodeId)) {
        let d = self.cube.dim();
        for c in children(j, node ^ source, d) {
            if c != 0 {
                f(c ^ source);
            }
        }
    }
}

impl Protocol for FtTrees {
    /// The source, on the source's own node.
    type State = Option<NodeId>;
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
        let d = self.cube.dim();
        let claimed = [Completeness, ContentionFreedom, TimeBound, Transmissions];
        Claims {
            transmissions: Some(d as u64 * ((1u64 << d) - 1)),
            ..broadcast::claims(&self.cube, &claimed, Some(d + 1))
        }
    }

    fn init(&self, source: &NodeId, node: NodeId) -> Option<NodeId> {
        (node == *source).then_some(*source)
    }

    fn step(
        &self,
        node: NodeId,
        source: &mut Option<NodeId>,
        slot: Slot,
        arrivals: &[Arrival<Packet>],
        _choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let d = self.cube.dim();
        let mut send = |to: NodeId, source: NodeId, j: u32| {
            out.push(Transmission {
                route: Route::Link { from: node, to },
                msg: Packet {
                    source,
                    step: j as u8,
                },
            })
        };
        if let (1, Some(s)) = (slot, *source) {
            for j in 1..=d {
                send(node ^ (1 << (j - 1)), s, j);
            }
        }
        for a in arrivals {
            let (s, j) = (a.msg.source, a.msg.step as u32);
            self.forward(s, node, j, |c| send(c, s, j));
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Algorithm;

    /// Every node y != source is reached along d paths that share no arc:
    /// s -> e_j, then T(j) down to y, checked by following the copies.
    #[test]
    fn the_d_paths_to_every_node_share_no_arc() {
        for d in 1..=8 {
            let ft = FtTrees::new(Algorithm::FtTrees.config(d as u64, None, None).unwrap());
            for source in [0, (1 << d) - 1] {
                let mut arcs: Vec<(NodeId, NodeId)> = Vec::new();
                let mut copies = vec![0u32; 1 << d];
                for j in 1..=d {
                    let mut level = vec![(source, source ^ (1 << (j - 1)))];
                    while let Some((u, v)) = level.pop() {
                        arcs.push((u, v));
                        copies[v as usize] += 1;
                        ft.forward(source, v, j, |c| level.push((v, c)));
                    }
                }
                let all = arcs.len();
                arcs.sort_unstable();
                arcs.dedup();
                assert_eq!(arcs.len(), all, "d = {d}: an arc used twice");
                assert_eq!(all as u64, d as u64 * ((1 << d) - 1));
                for (v, &c) in copies.iter().enumerate() {
                    let want = if v as NodeId == source { 0 } else { d };
                    assert_eq!(c, want, "d = {d}, node {v}");
                }
            }
        }
    }
}
