//! Slots, nodes, packets, resources, routes and transmissions: the words of
//! the one run semantics (docs/architecture.md).

use std::sync::Arc;

/// A time slot; the first slot is 1 (the papers' step, round or slot).
pub type Slot = u32;

/// A node of the topology, numbered densely from 0.
pub type NodeId = u32;

/// A packet: the unit whose delivery the properties count.
pub type PacketId = u32;

/// A resource a transmission occupies for one slot (a directed arc, a bus, a
/// port), numbered densely by the topology.
pub type ResourceId = u64;

/// Where a transmission goes and which resources it takes; the topology turns
/// a route into resources and receivers.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Route {
    /// A store-and-forward hop over the one directed arc `from -> to`.
    Link {
        /// The sender.
        from: NodeId,
        /// The neighbour it sends to.
        to: NodeId,
    },
    /// A wormhole worm from `from` to `to`; when `first` is set the worm is
    /// forced over that dimension first (Wang-Ku rule 3), and otherwise
    /// follows the topology's deterministic routing (e-cube on hypercubes).
    Worm {
        /// The sender.
        from: NodeId,
        /// The destination.
        to: NodeId,
        /// The dimension forced first, if any.
        first: Option<u8>,
    },
    /// A write by `from` on bus `bus` (CREW mesh-bus; read by every other
    /// node on the bus).
    Bus {
        /// The writer.
        from: NodeId,
        /// The bus (the topology's resource id).
        bus: u32,
    },
    /// One message over several store-and-forward links out of `from` in
    /// one slot, one link per set bit of `ports` (on the hypercube bit i is
    /// dimension i): it stands for those `Link`s, sent in increasing port
    /// order, and is judged as they would be. A node forwarding a packet to
    /// its children in a tree says so once, and the executor checks once
    /// that it holds the packet.
    Fan {
        /// The sender.
        from: NodeId,
        /// The links, one bit a port.
        ports: u32,
    },
}

impl Route {
    /// The sending node.
    pub fn from(&self) -> NodeId {
        match *self {
            Route::Link { from, .. }
            | Route::Worm { from, .. }
            | Route::Bus { from, .. }
            | Route::Fan { from, .. } => from,
        }
    }

    /// How many transmissions the route stands for: one per link of a
    /// fan-out, else one.
    #[inline]
    pub fn transmissions(&self) -> u32 {
        match *self {
            Route::Fan { ports, .. } => ports.count_ones(),
            _ => 1,
        }
    }
}

/// One transmission of one slot: a route and the message it carries.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Transmission<M> {
    /// Where it goes.
    pub route: Route,
    /// What it carries.
    pub msg: M,
}

impl<M> Transmission<M> {
    /// `msg` over the link (or, under wormhole, the worm) from `from` to
    /// `to`.
    pub fn link(from: NodeId, to: NodeId, msg: M) -> Self {
        Transmission {
            route: Route::Link { from, to },
            msg,
        }
    }
}

/// What the run must achieve: which packets each node starts with, which it
/// must hold at the end, and whether packets may be combined
/// (docs/architecture.md, "Properties").
///
/// A broadcast packet is required by every node; every other task's packet
/// has one origin and one destination, and a node between them relays it:
/// it holds the packet from its arrival until it sends it on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Task {
    /// Every listed packet is broadcast from its origin to every node:
    /// single-node broadcast (one source), K simultaneous broadcasts,
    /// multinode broadcast (every node). A node's first packet has the
    /// node's id; its (m+1)-th has id m x nodes + node (Stamoulis and
    /// Tsitsiklis's nodes with several packets), so the origin is the id
    /// mod nodes.
    Broadcast {
        /// The number of nodes.
        nodes: u32,
        /// The packets broadcast (each named as above).
        sources: Vec<NodeId>,
    },
    /// Single node scatter: `root` sends a distinct packet to every other
    /// node (packet id = the destination).
    Scatter {
        /// The number of nodes.
        nodes: u32,
        /// The sender of every packet.
        root: NodeId,
    },
    /// Single node gather: every other node sends its packet (id = the
    /// origin) to `root`.
    Gather {
        /// The number of nodes.
        nodes: u32,
        /// The receiver of every packet.
        root: NodeId,
    },
    /// Total exchange: every node sends a distinct packet to every other
    /// (packet id = origin x nodes + destination).
    TotalExchange {
        /// The number of nodes.
        nodes: u32,
    },
    /// Accumulation at every listed root of one term from every other node,
    /// terms combinable into one transmission (the papers' "combined"
    /// packets): single node accumulation (one root), multinode
    /// accumulation (every node). The term of node u for the root at index
    /// r of `roots` is packet u x roots.len() + r.
    Accumulate {
        /// The number of nodes.
        nodes: u32,
        /// The roots, each accumulating a term from every other node.
        roots: Vec<NodeId>,
    },
    /// Gossip: every node's token (packet id = the node) to every node, a
    /// message carrying at most `per_message` of them (Fujita's mesh-bus
    /// gossip with l-token messages).
    Gossip {
        /// The number of nodes.
        nodes: u32,
        /// The most tokens a message carries (l).
        per_message: u32,
    },
    /// A schedule's collective (docs/schedules.md): each packet (a chunk,
    /// or one rank's contribution to a reduced chunk) has its origin and
    /// the nodes that must end holding it; a message may carry several
    /// (a partial sum, several chunks). Nodes keep what they receive.
    Schedule(Arc<Needs>),
}

/// The packets of a [`Task::Schedule`]: where each starts and who needs it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Needs {
    /// The number of nodes.
    pub nodes: u32,
    /// Per packet, the node it starts at.
    pub origin: Vec<NodeId>,
    /// Per packet, the nodes that must hold it when the run ends.
    pub need: Vec<Need>,
    /// Whether one message may carry several packets (chunks, or the
    /// contributions a partial sum combines).
    pub combining: bool,
}

impl Needs {
    /// The fewest messages that do the task where messages combine, where
    /// that is known: from one origin, one to each node that needs
    /// anything; to one node, one from each origin it needs. (Otherwise
    /// it depends on the task: 2R - 2 for an allgather of one-way calls,
    /// Harary and Schwenk; commcheck does not guess.)
    fn fewest_combined(&self) -> Option<u64> {
        let n = self.nodes as usize;
        let (mut origin, mut taker) = (vec![false; n], vec![false; n]);
        // A list many packets share is read once for its first origin,
        // and once more for a second (whose node the first left out).
        let mut read: std::collections::HashMap<Option<*const [NodeId]>, (NodeId, bool)> =
            Default::default();
        let everyone: Vec<NodeId> = match self.need.contains(&Need::Everyone) {
            true => (0..self.nodes).collect(),
            false => Vec::new(),
        };
        for (need, &o) in self.need.iter().zip(&self.origin) {
            let (key, list) = match need {
                Need::Everyone => (None, &everyone[..]),
                Need::Nodes(list) => (Some(Arc::as_ptr(list)), &list[..]),
            };
            if list.iter().all(|&v| v == o) {
                continue;
            }
            origin[o as usize] = true;
            match read.get_mut(&key) {
                None => {
                    list.iter()
                        .filter(|&&v| v != o)
                        .for_each(|&v| taker[v as usize] = true);
                    read.insert(key, (o, false));
                }
                Some((first, again)) if !*again && *first != o => {
                    taker[*first as usize] |= list.binary_search(first).is_ok();
                    *again = true;
                }
                Some(_) => {}
            }
        }
        let count = |marks: &[bool]| marks.iter().filter(|&&m| m).count();
        match (count(&origin), count(&taker)) {
            (0, _) => Some(0),
            (1, t) => Some(t as u64),
            (o, 1) => Some(o as u64),
            _ => None,
        }
    }
}

/// Who must end holding one packet of a schedule.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Need {
    /// Every node (a broadcast's, an allgather's chunk).
    Everyone,
    /// The nodes listed, in increasing order (a gather's root, a reduced
    /// chunk's result holders; none for a barrier's contribution to
    /// nobody). Shared: the packets of a collective mostly need one list
    /// (every rank, on a network with switches).
    Nodes(Arc<[NodeId]>),
}

impl Need {
    /// True if `node` must end holding the packet.
    pub fn includes(&self, node: NodeId) -> bool {
        match self {
            Need::Everyone => true,
            Need::Nodes(nodes) => nodes.binary_search(&node).is_ok(),
        }
    }

    /// How many of `nodes` nodes must end holding the packet.
    pub fn count(&self, nodes: u32) -> u64 {
        match self {
            Need::Everyone => nodes as u64,
            Need::Nodes(list) => list.len() as u64,
        }
    }
}

impl Task {
    /// Broadcast: the packet of `source` to every node.
    pub fn broadcast(nodes: u32, source: NodeId) -> Task {
        Task::Broadcast {
            nodes,
            sources: vec![source],
        }
    }

    /// Multinode broadcast: every node's packet to every node.
    pub fn multinode_broadcast(nodes: u32) -> Task {
        Task::Broadcast {
            nodes,
            sources: (0..nodes).collect(),
        }
    }

    /// Number of nodes of the run.
    pub fn nodes(&self) -> u32 {
        match self {
            Task::Broadcast { nodes, .. }
            | Task::Scatter { nodes, .. }
            | Task::Gather { nodes, .. }
            | Task::TotalExchange { nodes }
            | Task::Accumulate { nodes, .. }
            | Task::Gossip { nodes, .. } => *nodes,
            Task::Schedule(needs) => needs.nodes,
        }
    }

    /// One past the largest packet id (ids of personalised tasks are dense;
    /// an id whose origin is its destination is not a packet).
    pub fn packet_ids(&self) -> u64 {
        let n = self.nodes() as u64;
        match self {
            Task::Broadcast { sources, .. } => sources.iter().max().map_or(0, |&s| s as u64 + 1),
            Task::Scatter { .. } | Task::Gather { .. } | Task::Gossip { .. } => n,
            Task::TotalExchange { .. } => n * n,
            Task::Accumulate { roots, .. } => n * roots.len() as u64,
            Task::Schedule(needs) => needs.origin.len() as u64,
        }
    }

    /// The packets of a broadcast, in increasing id order (empty for the
    /// other tasks, whose packets are `0..packet_ids()`).
    pub fn broadcast_packets(&self) -> Vec<PacketId> {
        match self {
            Task::Broadcast { sources, .. } => {
                let mut p = sources.clone();
                p.sort_unstable();
                p.dedup();
                p
            }
            Task::Gossip { nodes, .. } => (0..*nodes).collect(),
            Task::Schedule(needs) => (0..needs.origin.len() as PacketId).collect(),
            _ => Vec::new(),
        }
    }

    /// Per node, true if the task requires some packet of it (a
    /// schedule's switches require none).
    pub fn requires_anything(&self) -> Vec<bool> {
        let nodes = self.nodes() as usize;
        let Task::Schedule(needs) = self else {
            return vec![true; nodes];
        };
        let mut any = vec![false; nodes];
        let mut last: Option<*const [NodeId]> = None;
        for need in &needs.need {
            match need {
                Need::Everyone => return vec![true; nodes],
                // One list shared by many packets is read once.
                Need::Nodes(list) if last != Some(Arc::as_ptr(list)) => {
                    last = Some(Arc::as_ptr(list));
                    list.iter().for_each(|&v| any[v as usize] = true);
                }
                Need::Nodes(_) => {}
            }
        }
        any
    }

    /// The node a packet originates at (for NOHO).
    pub fn origin(&self, packet: PacketId) -> NodeId {
        match self {
            // A node's first packet is its id: no division for it.
            Task::Broadcast { nodes, .. } if packet < *nodes => packet,
            Task::Broadcast { nodes, .. } => packet % nodes,
            Task::Gather { .. } | Task::Gossip { .. } => packet,
            Task::Scatter { root, .. } => *root,
            // A shift on the cube (on every transmission's path).
            Task::TotalExchange { nodes } if nodes.is_power_of_two() => {
                packet >> nodes.trailing_zeros()
            }
            Task::TotalExchange { nodes } => packet / nodes,
            Task::Accumulate { roots, .. } => packet / roots.len() as u32,
            Task::Schedule(needs) => needs.origin[packet as usize],
        }
    }

    /// The first of the consecutive `packets` whose origin is `node`.
    pub fn first_own(&self, node: NodeId, packets: std::ops::Range<PacketId>) -> Option<PacketId> {
        match self {
            Task::Schedule(needs) => needs.origin[packets.start as usize..packets.end as usize]
                .iter()
                .position(|&o| o == node)
                .map(|i| packets.start + i as PacketId),
            _ => packets.clone().find(|&p| self.origin(p) == node),
        }
    }

    /// The one node a packet is for, or None for a broadcast packet (every
    /// node's).
    pub fn destination(&self, packet: PacketId) -> Option<NodeId> {
        match self {
            Task::Broadcast { .. } | Task::Gossip { .. } | Task::Schedule(_) => None,
            Task::Scatter { .. } => Some(packet),
            Task::Gather { root, .. } => Some(*root),
            Task::TotalExchange { nodes } if nodes.is_power_of_two() => Some(packet & (nodes - 1)),
            Task::TotalExchange { nodes } => Some(packet % nodes),
            Task::Accumulate { roots, .. } => Some(roots[packet as usize % roots.len()]),
        }
    }

    /// True if `packet` is a packet of the task (a personalised id whose
    /// origin is its destination is not).
    pub fn is_packet(&self, packet: PacketId) -> bool {
        match self {
            Task::Broadcast { sources, .. } => sources.contains(&packet),
            Task::Gossip { nodes, .. } => packet < *nodes,
            Task::Schedule(needs) => (packet as usize) < needs.origin.len(),
            _ => {
                (packet as u64) < self.packet_ids()
                    && self.destination(packet) != Some(self.origin(packet))
            }
        }
    }

    /// True if `node` must end holding `packet`: every node a broadcast
    /// packet, its destination another, the nodes a schedule names.
    pub fn requires(&self, node: NodeId, packet: PacketId) -> bool {
        match self {
            Task::Schedule(needs) => needs.need[packet as usize].includes(node),
            _ => self.destination(packet).is_none_or(|d| d == node),
        }
    }

    /// True if every packet is required by every node, so that a node
    /// keeps what it relays (nothing is released).
    pub fn is_broadcast(&self) -> bool {
        matches!(
            self,
            Task::Broadcast { .. } | Task::Gossip { .. } | Task::Schedule(_)
        )
    }

    /// True if several packets may travel as one transmission (terms of a
    /// sum); otherwise a transmission carries one packet.
    pub fn combining(&self) -> bool {
        matches!(
            self,
            Task::Accumulate { .. } | Task::Gossip { .. } | Task::Schedule(_)
        )
    }

    /// The most packets one message may carry, where a combining task
    /// bounds it (a gossip's l).
    pub fn message_limit(&self) -> Option<u32> {
        match self {
            Task::Gossip { per_message, .. } => Some(*per_message),
            _ => None,
        }
    }

    /// The fewest transmissions that can do the task: one per needed
    /// delivery where a transmission carries one packet to one node; for a
    /// gossip on the n x n mesh-bus, each token needs n + 1 bus writes and
    /// a message carries at most l of them (Fujita's Theorem 2 count),
    /// ceil(n^2 (n + 1) / l); for a schedule whose messages combine, what
    /// [`Needs`] knows (None: not known).
    pub fn least_transmissions(&self) -> Option<u64> {
        match self {
            Task::Gossip { nodes, per_message } => {
                let n = (*nodes as f64).sqrt().round() as u64;
                Some((n * n * (n + 1)).div_ceil(*per_message as u64))
            }
            Task::Schedule(needs) if needs.combining => needs.fewest_combined(),
            _ => Some(self.needed_deliveries()),
        }
    }

    /// The number of deliveries a run must make: one per node and packet
    /// required of it that it does not start with.
    pub fn needed_deliveries(&self) -> u64 {
        let n = self.nodes() as u64;
        match self {
            Task::Broadcast { .. } => self.broadcast_packets().len() as u64 * (n - 1),
            Task::Gossip { .. } => n * (n - 1),
            Task::Scatter { .. } | Task::Gather { .. } => n - 1,
            Task::TotalExchange { .. } => n * (n - 1),
            Task::Accumulate { roots, .. } => roots.len() as u64 * (n - 1),
            Task::Schedule(needs) => needs
                .need
                .iter()
                .zip(&needs.origin)
                .map(|(need, &o)| need.count(needs.nodes) - need.includes(o) as u64)
                .sum(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fewest combined messages, counted with shared lists read once,
    /// equal the count by definition (distinct origins of packets someone
    /// else needs, distinct nodes needing another's packet) on random
    /// schedules' needs whose packets share lists, or need everyone.
    #[test]
    fn fewest_combined_counts_as_defined() {
        let mut next = crate::seeded(7);
        for _ in 0..500 {
            let nodes = 1 + next(5) as u32;
            let lists: Vec<Need> = (0..3)
                .map(|_| match next(4) {
                    0 => Need::Everyone,
                    _ => Need::Nodes((0..nodes).filter(|_| next(2) == 0).collect()),
                })
                .collect();
            let packets = next(6) as usize;
            let needs = Needs {
                nodes,
                origin: (0..packets).map(|_| next(nodes as u64) as NodeId).collect(),
                need: (0..packets)
                    .map(|_| lists[next(3) as usize].clone())
                    .collect(),
                combining: true,
            };
            let needs_ref = &needs;
            let wanted = |p: usize| {
                let o = needs_ref.origin[p];
                (0..nodes).filter(move |&v| v != o && needs_ref.need[p].includes(v))
            };
            let mut origins: Vec<NodeId> = (0..packets)
                .filter(|&p| wanted(p).next().is_some())
                .map(|p| needs.origin[p])
                .collect();
            let mut takers: Vec<NodeId> = (0..packets).flat_map(wanted).collect();
            for v in [&mut origins, &mut takers] {
                v.sort_unstable();
                v.dedup();
            }
            let expected = match (origins.len(), takers.len()) {
                (0, _) => Some(0),
                (1, t) => Some(t as u64),
                (o, 1) => Some(o as u64),
                _ => None,
            };
            assert_eq!(
                needs.fewest_combined(),
                expected,
                "{nodes} nodes, {:?}",
                needs.need
            );
        }
    }
}
