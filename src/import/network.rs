//! `--network`: a built-in network by name and size, or a graph file
//! (docs/schedules.md, "Networks"), read into `models::Network`.

use super::{at_line, ImportError};
use models::{Graph, Grid, Hypercube, MeshBus, Network, Ports, Switching};
use serde::Deserialize;
use std::path::Path;

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
    .map_err(|e| bad(e.to_string()))
}
