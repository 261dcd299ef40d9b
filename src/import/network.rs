//! `--network`: a built-in network by name and size, or a graph file
//! (docs/schedules.md, "Networks").

use super::{at_line, ImportError};
use models::{Graph, Grid, Hypercube, MeshBus, Ports, Switching, Topology};
use properties::NodeId;
use serde::Deserialize;
use std::path::Path;

/// A network a schedule runs on.
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
            $crate::import::network::Network::Cube($t) => $body,
            $crate::import::network::Network::Grid($t) => $body,
            $crate::import::network::Network::MeshBus($t) => $body,
            $crate::import::network::Network::Graph($t) => $body,
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
    /// (models::schedule::bounds): the cube's dimensions, a grid's halves
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

/// The network `spec` names (`hypercube:3`, `mesh:4x4`, `torus:5x5`,
/// `mesh-bus:4`, `graph:FILE`) under `switching` and `ports`.
pub fn network(spec: &str, switching: Switching, ports: Ports) -> Result<Network, ImportError> {
    let usage = || {
        ImportError::Usage(format!(
            "--network {spec}: expected hypercube:N, mesh:AxB, torus:AxB, mesh-bus:N or \
             graph:FILE"
        ))
    };
    let (kind, arg) = spec.split_once(':').ok_or_else(usage)?;
    let number = |what: &str| {
        arg.parse::<u32>()
            .map_err(|_| ImportError::Usage(format!("--network {spec}: {what} is a number")))
    };
    Ok(match kind {
        "hypercube" | "cube" => {
            let n = number("the dimension")?;
            if !(1..=Hypercube::MAX_DIM).contains(&n) {
                return Err(ImportError::Usage(format!(
                    "--network {spec}: a cube's dimension is 1 to {}",
                    Hypercube::MAX_DIM
                )));
            }
            Network::Cube(Hypercube::new(n, switching, ports))
        }
        "mesh" | "torus" => {
            let torus = kind == "torus";
            let sides = models::topology::grid::parse_sides(arg, torus)
                .map_err(|why| ImportError::Usage(format!("--network {spec}: {why}")))?;
            Network::Grid(Grid::new(&sides, torus, switching, ports))
        }
        "mesh-bus" => {
            let n = number("the side")?;
            if !(2..=MeshBus::MAX_SIDE).contains(&n) {
                return Err(ImportError::Usage(format!(
                    "--network {spec}: a mesh-bus side is 2 to {}",
                    MeshBus::MAX_SIDE
                )));
            }
            Network::MeshBus(MeshBus::new(n))
        }
        "graph" => Network::Graph(graph_file(Path::new(arg), switching, ports)?),
        _ => return Err(usage()),
    })
}

/// A graph file as written (docs/schedules.md, "Networks").
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GraphFile {
    format: String,
    version: u32,
    nodes: u32,
    #[serde(default)]
    names: Vec<String>,
    #[serde(default)]
    links: Vec<(u32, u32)>,
    #[serde(default)]
    arcs: Vec<(u32, u32)>,
}

/// The graph in the file at `path`.
pub fn graph_file(path: &Path, switching: Switching, ports: Ports) -> Result<Graph, ImportError> {
    let text = super::read(path)?;
    graph_text(&text, &path.display().to_string(), switching, ports)
}

/// The graph in `text`, read from `file`.
pub fn graph_text(
    text: &str,
    file: &str,
    switching: Switching,
    ports: Ports,
) -> Result<Graph, ImportError> {
    let g: GraphFile = serde_json::from_str(text).map_err(|e| at_line(file, &e))?;
    let bad = |why: String| ImportError::File {
        file: file.to_string(),
        line: 0,
        column: 0,
        why,
    };
    super::header(file, "network", "commcheck-network", &g.format, g.version)?;
    if g.nodes > models::topology::graph::MAX_NODES {
        return Err(bad(format!(
            "{} nodes: at most {}",
            g.nodes,
            models::topology::graph::MAX_NODES
        )));
    }
    let mut arcs = g.arcs;
    for &(u, v) in &g.links {
        arcs.push((u, v));
        arcs.push((v, u));
    }
    let name = super::file_name(file);
    Graph::new(
        &format!("graph {name}"),
        g.nodes,
        g.names,
        &arcs,
        switching,
        ports,
    )
    .map_err(bad)
}
