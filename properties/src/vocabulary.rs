//! Slots, nodes, packets, resources, routes and transmissions: the words of
//! the one run semantics (docs/architecture.md).

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Route {
    /// A store-and-forward hop over the one directed arc `from -> to`.
    Link { from: NodeId, to: NodeId },
    /// A wormhole worm from `from` to `to`; when `first` is set the worm is
    /// forced over that dimension first (Wang-Ku rule 3), and otherwise
    /// follows the topology's deterministic routing (e-cube on hypercubes).
    Worm {
        from: NodeId,
        to: NodeId,
        first: Option<u8>,
    },
    /// A write by `from` on bus `bus` (CREW mesh-bus; read by every other
    /// node on the bus).
    Bus { from: NodeId, bus: u32 },
}

impl Route {
    /// The sending node.
    pub fn from(&self) -> NodeId {
        match *self {
            Route::Link { from, .. } | Route::Worm { from, .. } | Route::Bus { from, .. } => from,
        }
    }
}

/// One transmission of one slot: a route and the message it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Transmission<M> {
    pub route: Route,
    pub msg: M,
}

/// What the run must achieve: which packets each node starts with and which
/// it must hold at the end (docs/architecture.md, "Properties").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Task {
    /// Every listed source broadcasts its own packet (packet id = the source's
    /// node id) to every node: single-node broadcast (one source), K
    /// simultaneous broadcasts, multinode broadcast (every node).
    Broadcast { nodes: u32, sources: Vec<NodeId> },
}

impl Task {
    /// Number of nodes of the run.
    pub fn nodes(&self) -> u32 {
        match self {
            Task::Broadcast { nodes, .. } => *nodes,
        }
    }

    /// The packets of the task, in increasing id order.
    pub fn packets(&self) -> Vec<PacketId> {
        match self {
            Task::Broadcast { sources, .. } => {
                let mut p = sources.clone();
                p.sort_unstable();
                p.dedup();
                p
            }
        }
    }

    /// The node a packet originates at (for NOHO).
    pub fn origin(&self, packet: PacketId) -> NodeId {
        match self {
            Task::Broadcast { .. } => packet,
        }
    }

    /// Calls `f` with every packet `node` holds before slot 1.
    pub fn initial(&self, node: NodeId, mut f: impl FnMut(PacketId)) {
        match self {
            Task::Broadcast { sources, .. } => {
                if sources.contains(&node) {
                    f(node)
                }
            }
        }
    }

    /// Calls `f` with every packet `node` must hold when the run ends.
    pub fn required(&self, _node: NodeId, mut f: impl FnMut(PacketId)) {
        match self {
            Task::Broadcast { sources, .. } => sources.iter().for_each(|&s| f(s)),
        }
    }

    /// The number of deliveries an optimal run makes: one per node and
    /// required packet it does not start with.
    pub fn needed_deliveries(&self) -> u64 {
        match self {
            Task::Broadcast { nodes, sources } => sources.len() as u64 * (*nodes as u64 - 1),
        }
    }
}
