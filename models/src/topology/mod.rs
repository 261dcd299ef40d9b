//! Topologies: nodes and the resources transmissions occupy
//! (docs/architecture.md, "Runs"). One file per network: the hypercube,
//! meshes and tori (`grid`), the mesh-bus, and a graph of any shape that a
//! user describes (`graph`, read from a file by the front half); a new
//! kind of network is a new file here implementing [`Topology`], and a
//! variant of [`Network`] (`network.rs`: which network, as a family
//! ([`Family`]) and as one built network).

pub mod graph;
pub mod grid;
pub mod hypercube;
pub mod layout;
pub mod machines;
pub mod mesh_bus;
pub mod network;
pub mod parts;

pub use graph::Graph;
pub use grid::Grid;
pub use hypercube::Hypercube;
pub use mesh_bus::MeshBus;
pub use network::{Family, Network, NetworkFormat, NetworkSpec, SpecError};

use properties::{NodeId, ResourceId, Route};

/// A bus of a network of buses, as faults name and fail it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Medium {
    /// The resource a write on the bus takes.
    pub resource: ResourceId,
    /// Its name in the paper's words (`R_1`), as `--fault bus:R_1` takes it.
    pub name: String,
    /// Its nodes in order along it.
    pub nodes: Vec<NodeId>,
}

/// Nodes, resources, and what a route occupies and reaches.
pub trait Topology: Send + Sync {
    /// Number of nodes; ids run from 0.
    fn nodes(&self) -> u32;

    /// Number of resources; ids run from 0 (arcs, buses, ports).
    fn resources(&self) -> ResourceId;

    /// Calls `f` with every resource `route` occupies for its slot, in path
    /// order (the arcs of a worm, the bus of a write, the ports it uses
    /// under one-port).
    fn occupy(&self, route: &Route, f: impl FnMut(ResourceId));

    /// How many transmissions resource `r` carries in a slot: a link of k
    /// lanes is resources r..r+k, of which [`occupy`](Topology::occupy)
    /// names the first, and k transmissions may cross it before one
    /// contends. 1 for every other resource.
    #[inline]
    fn lanes(&self, r: ResourceId) -> u32 {
        let _ = r;
        1
    }

    /// What the link whose first lane is resource `r` is made of, where
    /// the network says (a machine's links; None on the papers'
    /// networks, whose links say nothing of bandwidth).
    fn link_attrs(&self, r: ResourceId) -> Option<parts::LinkAttrs> {
        let _ = r;
        None
    }

    /// The most lanes of any resource ([`lanes`](Topology::lanes)).
    fn max_lanes(&self) -> u32 {
        1
    }

    /// Calls `f` with every node that receives what `route` carries.
    fn receivers(&self, route: &Route, f: impl FnMut(NodeId));

    /// Where `route` reaches a line of nodes (a bus): the nodes on it as
    /// (first, step, count), its writer among them. The executor then
    /// judges the write's receptions together rather than one arrival per
    /// receiver.
    fn receivers_run(&self, route: &Route) -> Option<(NodeId, u32, u32)> {
        let _ = route;
        None
    }

    /// Why `route` is not a route of this topology under its switching, if
    /// it is not (a bug in a protocol, reported rather than simulated).
    fn invalid(&self, route: &Route) -> Option<String>;

    /// The nodes `route` visits, in order (for pictures); for a fan-out,
    /// its sender and then its receivers.
    fn path(&self, route: &Route) -> Vec<NodeId>;

    /// False where worms take another path than the network's own routing
    /// (a schedule file must then name each worm's path).
    fn default_routing(&self) -> bool {
        true
    }

    /// Where to draw `node`, in units of one link (for pictures).
    fn position(&self, node: NodeId) -> (f32, f32);

    /// True for a node ranks do not run on, that only carries others'
    /// transmissions: a machine's switch, NIC or CPU beside its
    /// accelerators ([`Graph::rank_nodes`](graph::Graph::rank_nodes)).
    /// Pictures draw it as a square. The papers' networks have none.
    fn carries_only(&self, node: NodeId) -> bool {
        let _ = node;
        false
    }

    /// Calls `f(u, v)` for every link u < v (for pictures; on a network
    /// of buses, the segments between neighbours on them).
    fn links(&self, f: impl FnMut(NodeId, NodeId));

    /// How many links [`links`](Topology::links) lists (a report's
    /// utilization): counted, unless a network knows it without a walk.
    fn link_count(&self) -> u64 {
        let mut links = 0;
        self.links(|_, _| links += 1);
        links
    }

    /// The buses (shared media) of the network; none on a network of
    /// links. Faults fail a bus as a whole.
    fn buses(&self) -> Vec<Medium> {
        Vec::new()
    }

    /// The two ends of a resource that is an arc (for pictures and the
    /// optimal search); `None` for any other resource, and for an arc
    /// number that leads nowhere (past a mesh's border).
    fn arc_ends(&self, resource: ResourceId) -> Option<(NodeId, NodeId)>;

    /// A node as the paper writes it (a hypercube node in binary).
    fn node_label(&self, node: NodeId) -> String;

    /// A resource in the paper's words (`arc 0000->0010`).
    fn resource_label(&self, resource: ResourceId) -> String;

    /// The network's name where the size alone does not give it (`M(5,7)`,
    /// `T(6,6)`).
    fn network(&self) -> Option<String> {
        None
    }

    /// A route in the paper's words (`0000->0011`, `0000->0011 first over dim 0`).
    fn route_label(&self, route: &Route) -> String;

    /// The route of a message from `from` to `to` that names no path (a
    /// schedule's send): one arc under store-and-forward, else the
    /// topology's worm; on a mesh-bus, the write on the bus they share.
    fn message_route(&self, from: NodeId, to: NodeId, wormhole: bool) -> Route {
        match wormhole {
            false => Route::Link { from, to },
            true => Route::Worm {
                from,
                to,
                first: None,
            },
        }
    }
}

/// `arc u->v` for resource `r` of `t`, if it is an arc (by
/// [`Topology::arc_ends`] and the nodes' labels).
pub fn arc_label(t: &impl Topology, r: ResourceId) -> Option<String> {
    let (u, v) = t.arc_ends(r)?;
    Some(format!("arc {}->{}", t.node_label(u), t.node_label(v)))
}

/// The label of resource `r` of a network whose `arcs` arc resources come
/// first, then an out-port and an in-port a node (of `nodes`); `arc`
/// labels a resource that is an arc.
pub fn arc_or_port_label(
    r: ResourceId,
    arcs: u64,
    nodes: u64,
    arc: impl Fn(ResourceId) -> Option<String>,
    node: impl Fn(NodeId) -> String,
) -> String {
    if let Some(label) = arc(r) {
        label
    } else if r < arcs + nodes {
        format!("out-port of {}", node((r - arcs) as NodeId))
    } else {
        format!("in-port of {}", node((r - arcs - nodes) as NodeId))
    }
}
