//! Which network: [`Shape`], a family of networks and what its size n
//! means (what a catalogued algorithm runs on, before a size is given),
//! and [`Network`], one network of a family, built (what `--network`
//! names). `network.shape()` is its family; nothing else converts one
//! into the other.

use super::{Graph, Grid, Hypercube, MeshBus, Topology};
use crate::config::{Ports, Switching};
use properties::NodeId;

/// The network an algorithm runs on, and what its size n means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// The n-cube: n is the dimension, 2^n nodes.
    Cube,
    /// The n x n mesh-bus: n is the side, n^2 nodes; the algorithm needs
    /// at least `min` (a side of 1 has no bus to use).
    MeshBus {
        /// The least side.
        min: u32,
    },
    /// A mesh or torus of any sides (`5x7` on the command line, where a
    /// bare `16` is the line M(16)); a config's n without sides (a table's)
    /// is the n x n one. `torus`: always a torus (else a mesh, or a torus
    /// with `--torus` where the algorithm takes it).
    Grid {
        /// Always a torus.
        torus: bool,
    },
    /// A graph a user describes: n is its number of nodes (a schedule's
    /// network, never a catalogued algorithm's).
    Graph,
}

impl Shape {
    /// The sizes n accepted.
    pub fn sizes(self) -> (u32, u32) {
        match self {
            Shape::Cube => (1, Hypercube::MAX_DIM),
            Shape::MeshBus { min } => (min, MeshBus::MAX_SIDE),
            Shape::Grid { torus } => (2 + torus as u32, 4096),
            Shape::Graph => (1, crate::topology::graph::MAX_NODES),
        }
    }

    /// What n is called ("dimension", "side").
    pub fn size_word(self) -> &'static str {
        match self {
            Shape::Cube => "dimension",
            Shape::MeshBus { .. } | Shape::Grid { .. } => "side",
            Shape::Graph => "number of nodes",
        }
    }

    /// The number of nodes at size n (saturating).
    pub fn nodes(self, n: u32) -> u64 {
        match self {
            Shape::Cube => 1u64.checked_shl(n).unwrap_or(u64::MAX),
            Shape::MeshBus { .. } | Shape::Grid { .. } => n as u64 * n as u64,
            Shape::Graph => n as u64,
        }
    }

    /// The network in words (`the 4-cube`, `the 4x4 mesh-bus`).
    pub fn network(self, n: u32) -> String {
        match self {
            Shape::Cube => format!("the {n}-cube"),
            Shape::MeshBus { .. } => format!("the {n}x{n} mesh-bus"),
            Shape::Grid { torus: false } => format!("M({n},{n})"),
            Shape::Grid { torus: true } => format!("T({n},{n})"),
            Shape::Graph => format!("a graph of {n} nodes"),
        }
    }
}

/// A network: one of the topologies above, built at a size and under
/// modes. What a schedule runs on, what `check optimal` searches and a
/// picture draws; a catalogued algorithm names its [`Shape`] and builds
/// its own.
pub enum Network {
    /// `hypercube:n`.
    Cube(Hypercube),
    /// `mesh:AxB`, `torus:AxB`.
    Grid(Grid),
    /// `mesh-bus:n`.
    MeshBus(MeshBus),
    /// `graph:FILE`.
    Graph(Graph),
}

/// Runs `$body` with `$t` bound to the network's topology.
#[macro_export]
macro_rules! with_network {
    ($net:expr, |$t:ident| $body:expr) => {
        match $net {
            $crate::topology::Network::Cube($t) => $body,
            $crate::topology::Network::Grid($t) => $body,
            $crate::topology::Network::MeshBus($t) => $body,
            $crate::topology::Network::Graph($t) => $body,
        }
    };
}

impl Network {
    /// The number of nodes.
    pub fn nodes(&self) -> u32 {
        with_network!(self, |t| t.nodes())
    }

    /// Its name in reports (`the 3-cube`, `M(4,4)`, `graph dgx1.json`).
    pub fn name(&self) -> String {
        match self {
            Network::Cube(c) => format!("the {}-cube", c.dim()),
            Network::Grid(g) => g.name(),
            Network::MeshBus(b) => format!("the {0}x{0} mesh-bus", b.side()),
            Network::Graph(g) => g.network().unwrap_or_default(),
        }
    }

    /// Its directed arcs and the cuts the schedule's lower bounds try
    /// (models::schedule::lower_bounds): the cube's dimensions, a grid's halves
    /// along each axis, a graph's lower and upper node numbers. None on
    /// the mesh-bus, whose buses are not arcs.
    pub fn arcs_and_cuts(&self) -> (Vec<(NodeId, NodeId)>, Vec<Vec<bool>>) {
        let nodes = self.nodes();
        match self {
            Network::Cube(c) => {
                let arcs = (0..nodes)
                    .flat_map(|u| (0..c.dim()).map(move |d| (u, u ^ (1 << d))))
                    .collect();
                let cuts = (0..c.dim())
                    .map(|d| (0..nodes).map(|v| v >> d & 1 == 1).collect())
                    .collect();
                (arcs, cuts)
            }
            Network::Grid(g) => {
                let mut arcs = Vec::new();
                g.links(|u, v| arcs.extend([(u, v), (v, u)]));
                let cuts = (0..g.dims())
                    .filter(|&i| g.sides()[i] > 1)
                    .map(|i| {
                        (0..nodes)
                            .map(|v| g.coord(v, i) < g.sides()[i] / 2)
                            .collect()
                    })
                    .collect();
                (arcs, cuts)
            }
            Network::MeshBus(_) => (Vec::new(), Vec::new()),
            Network::Graph(g) => {
                let cut = (0..nodes).map(|v| v < nodes / 2).collect();
                (g.arcs().to_vec(), vec![cut])
            }
        }
    }
}

impl Network {
    /// Its family.
    pub fn shape(&self) -> Shape {
        match self {
            Network::Cube(_) => Shape::Cube,
            Network::Grid(g) => Shape::Grid { torus: g.torus() },
            Network::MeshBus(_) => Shape::MeshBus { min: 2 },
            Network::Graph(_) => Shape::Graph,
        }
    }

    /// The size n its family names it by: the cube's dimension, a grid's
    /// longest side, the mesh-bus's side, a graph's number of nodes.
    pub fn size(&self) -> u32 {
        match self {
            Network::Cube(c) => c.dim(),
            Network::Grid(g) => g.sides().iter().copied().max().unwrap_or(0),
            Network::MeshBus(b) => b.side(),
            Network::Graph(g) => g.nodes(),
        }
    }

    /// The nodes ranks run on, in order: every node, but on a machine its
    /// accelerators ([`Graph::rank_nodes`]).
    pub fn rank_nodes(&self) -> Vec<NodeId> {
        match self {
            Network::Graph(g) => g.rank_nodes(),
            _ => (0..self.nodes()).collect(),
        }
    }

    /// A grid's sides (the others are named by their size alone).
    pub fn sides(&self) -> Option<Vec<u32>> {
        match self {
            Network::Grid(g) => Some(g.sides().to_vec()),
            _ => None,
        }
    }

    /// Its switching technique (a mesh-bus's writes are stored and
    /// forwarded: one bus, one slot).
    pub fn switching(&self) -> Switching {
        match self {
            Network::Cube(c) => c.switching(),
            Network::Grid(g) => g.switching(),
            Network::MeshBus(_) => Switching::Sf,
            Network::Graph(g) => g.switching(),
        }
    }

    /// Its port model (a mesh-bus node writes and reads its buses at
    /// once).
    pub fn ports(&self) -> Ports {
        match self {
            Network::Cube(c) => c.ports(),
            Network::Grid(g) => g.ports(),
            Network::MeshBus(_) => Ports::All,
            Network::Graph(g) => g.ports(),
        }
    }
}

impl From<Hypercube> for Network {
    fn from(t: Hypercube) -> Self {
        Network::Cube(t)
    }
}

impl From<Grid> for Network {
    fn from(t: Grid) -> Self {
        Network::Grid(t)
    }
}

impl From<MeshBus> for Network {
    fn from(t: MeshBus) -> Self {
        Network::MeshBus(t)
    }
}

impl From<Graph> for Network {
    fn from(t: Graph) -> Self {
        Network::Graph(t)
    }
}
