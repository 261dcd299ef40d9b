//! Which network. One network type, [`Network`]: a topology of any
//! family, built at a size under a switching technique and a port model;
//! what a schedule runs on, what `check optimal` searches, what the
//! pictures draw and the cost models time (a catalogued protocol holds its
//! own topology, and [`Network::from`] turns it into one). Two views of it
//! before it is built: [`NetworkSpec`], a network as `--network` names it
//! (a family at a size, a built-in machine, or a file, checked for form at
//! the command line and read when the check starts, by the front half's
//! `import::network::build`), and [`Family`], a network without its size
//! (what a catalogued algorithm runs on, and what its n means, before a
//! size is given). `network.family()` is a network's family; nothing else
//! converts one into another.

use super::{Graph, Grid, Hypercube, MeshBus, Topology};
use crate::config::{Ports, Switching};
use properties::NodeId;
use std::fmt;
use std::path::PathBuf;

/// The format of a network file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NetworkFormat {
    /// Told by the file's content: `<system` is NCCL's or RCCL's
    /// topology XML, a JSON object commcheck's graph, else ASTRA-sim's
    /// YAML (`graph:FILE`).
    Guess,
    /// commcheck's graph JSON, versions 1 and 2 (`graph-json:FILE`).
    Graph,
    /// NCCL's (`<system version="1">`) or RCCL's (`version="2"`)
    /// topology XML (`nccl-topo:FILE`).
    NcclTopo,
    /// ASTRA-sim's analytical network YAML (`astra:FILE`).
    Astra,
}

impl NetworkFormat {
    /// Its prefix in `--network`.
    pub fn prefix(self) -> &'static str {
        match self {
            NetworkFormat::Guess => "graph",
            NetworkFormat::Graph => "graph-json",
            NetworkFormat::NcclTopo => "nccl-topo",
            NetworkFormat::Astra => "astra",
        }
    }
}

/// A network as `--network` names it, checked for form when the command
/// line is read and built, files and all, when the check starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NetworkSpec {
    /// `hypercube:N`: the N-cube.
    Cube(u32),
    /// `mesh:AxB`, `torus:AxB` (up to four sides).
    Grid {
        /// The sides.
        sides: Vec<u32>,
        /// A torus (else a mesh).
        torus: bool,
    },
    /// `mesh-bus:N`: the N x N mesh-bus.
    MeshBus(u32),
    /// A built-in machine (`dgx-h100:4`, `npu-torus:4x4`), as named.
    Machine(String),
    /// A network file and its format.
    File {
        /// How to read it.
        format: NetworkFormat,
        /// Where it is.
        path: PathBuf,
    },
}

/// Why a `--network` names no network, in one line.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[error("--network {spec}: {why}")]
pub struct SpecError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong with it.
    pub why: String,
}

impl std::str::FromStr for NetworkSpec {
    type Err = SpecError;

    fn from_str(spec: &str) -> Result<NetworkSpec, SpecError> {
        let bad = |why: String| SpecError {
            spec: spec.to_string(),
            why,
        };
        if super::machines::is_machine(spec) {
            super::machines::Builtin::parse(spec).map_err(bad)?;
            return Ok(NetworkSpec::Machine(spec.to_string()));
        }
        let usage = || {
            bad(format!(
                "expected hypercube:N, mesh:AxB, torus:AxB, mesh-bus:N, graph:FILE, \
                 nccl-topo:FILE, astra:FILE or a machine ({})",
                super::machines::NAMES
            ))
        };
        let (kind, arg) = spec.split_once(':').ok_or_else(usage)?;
        let number = |what: &str| {
            arg.parse::<u32>()
                .map_err(|_| bad(format!("{what} is a number")))
        };
        let file = |format| NetworkSpec::File {
            format,
            path: PathBuf::from(arg),
        };
        Ok(match kind {
            "hypercube" | "cube" => {
                let n = number("the dimension")?;
                if !(1..=Hypercube::MAX_DIM).contains(&n) {
                    return Err(bad(format!(
                        "a cube's dimension is 1 to {}",
                        Hypercube::MAX_DIM
                    )));
                }
                NetworkSpec::Cube(n)
            }
            "mesh" | "torus" => {
                let torus = kind == "torus";
                let sides = super::grid::parse_sides(arg, torus).map_err(|e| bad(e.to_string()))?;
                NetworkSpec::Grid { sides, torus }
            }
            "mesh-bus" => {
                let n = number("the side")?;
                if !(2..=MeshBus::MAX_SIDE).contains(&n) {
                    return Err(bad(format!(
                        "a mesh-bus side is 2 to {}",
                        MeshBus::MAX_SIDE
                    )));
                }
                NetworkSpec::MeshBus(n)
            }
            "graph" => file(NetworkFormat::Guess),
            "graph-json" => file(NetworkFormat::Graph),
            "nccl-topo" => file(NetworkFormat::NcclTopo),
            "astra" => file(NetworkFormat::Astra),
            _ => return Err(usage()),
        })
    }
}

/// The spec as `--network` takes it (for reproduce lines).
impl fmt::Display for NetworkSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkSpec::Cube(n) => write!(f, "hypercube:{n}"),
            NetworkSpec::Grid { sides, torus } => {
                let sides: Vec<String> = sides.iter().map(u32::to_string).collect();
                let kind = if *torus { "torus" } else { "mesh" };
                write!(f, "{kind}:{}", sides.join("x"))
            }
            NetworkSpec::MeshBus(n) => write!(f, "mesh-bus:{n}"),
            NetworkSpec::Machine(name) => f.write_str(name),
            NetworkSpec::File { format, path } => {
                write!(f, "{}:{}", format.prefix(), path.display())
            }
        }
    }
}

/// The network an algorithm runs on, and what its size n means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
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

impl Family {
    /// The sizes n accepted.
    pub fn sizes(self) -> (u32, u32) {
        match self {
            Family::Cube => (1, Hypercube::MAX_DIM),
            Family::MeshBus { min } => (min, MeshBus::MAX_SIDE),
            Family::Grid { torus } => (2 + torus as u32, 4096),
            Family::Graph => (1, crate::topology::graph::MAX_NODES),
        }
    }

    /// What n is called ("dimension", "side").
    pub fn size_word(self) -> &'static str {
        match self {
            Family::Cube => "dimension",
            Family::MeshBus { .. } | Family::Grid { .. } => "side",
            Family::Graph => "number of nodes",
        }
    }

    /// The number of nodes at size n (saturating).
    pub fn nodes(self, n: u32) -> u64 {
        match self {
            Family::Cube => 1u64.checked_shl(n).unwrap_or(u64::MAX),
            Family::MeshBus { .. } | Family::Grid { .. } => n as u64 * n as u64,
            Family::Graph => n as u64,
        }
    }

    /// The network in words (`the 4-cube`, `the 4x4 mesh-bus`).
    pub fn network(self, n: u32) -> String {
        match self {
            Family::Cube => format!("the {n}-cube"),
            Family::MeshBus { .. } => format!("the {n}x{n} mesh-bus"),
            Family::Grid { torus: false } => format!("M({n},{n})"),
            Family::Grid { torus: true } => format!("T({n},{n})"),
            Family::Graph => format!("a graph of {n} nodes"),
        }
    }
}

/// A network: one of the topologies above, built at a size and under
/// modes. What a schedule runs on, what `check optimal` searches and a
/// picture draws; a catalogued algorithm names its [`Family`] and builds
/// its own.
// One is built a check: the size of the larger variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
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
    /// along each axis, a graph's lower and upper node numbers (an arc of
    /// k lanes listed k times). None on the mesh-bus, whose buses are not
    /// arcs.
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
                // An arc of k lanes carries k a slot: it counts k times.
                let arcs = g
                    .arcs()
                    .iter()
                    .zip(g.attrs())
                    .flat_map(|(&arc, a)| std::iter::repeat_n(arc, a.lanes as usize))
                    .collect();
                (arcs, vec![cut])
            }
        }
    }
}

impl Network {
    /// Its family.
    pub fn family(&self) -> Family {
        match self {
            Network::Cube(_) => Family::Cube,
            Network::Grid(g) => Family::Grid { torus: g.torus() },
            Network::MeshBus(_) => Family::MeshBus { min: 2 },
            Network::Graph(_) => Family::Graph,
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
