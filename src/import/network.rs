//! `--network`: a family of networks at a size, a built-in machine, or a
//! network file (commcheck's graph JSON, NCCL's or RCCL's topology XML,
//! ASTRA-sim's YAML), built into `models::Network` (docs/networks.md).

use super::{at_line, ImportError, Step};
use models::topology::graph::GraphError;
use models::topology::machines::Builtin;
use models::topology::parts::{Arc, LinkAttrs, LinkKind, Node, NodeKind, Parts};
use models::topology::{NetworkFormat, NetworkSpec, SpecError};
use models::{Graph, Grid, Hypercube, MeshBus, Network, Ports, Switching};
use properties::NodeId;
use serde::Deserialize;
use std::path::Path;

/// The network `spec` names, built under `switching` and `ports`: its
/// files read here, once.
pub fn build(
    spec: &NetworkSpec,
    switching: Switching,
    ports: Ports,
) -> Result<Network, ImportError> {
    Ok(match spec {
        NetworkSpec::Cube(n) => Network::Cube(Hypercube::new(*n, switching, ports)),
        NetworkSpec::Grid { sides, torus } => {
            Network::Grid(Grid::new(sides, *torus, switching, ports))
        }
        NetworkSpec::MeshBus(n) => Network::MeshBus(MeshBus::new(*n)),
        NetworkSpec::Machine(name) => {
            let machine = Builtin::parse(name).map_err(|why| {
                ImportError::Usage(
                    SpecError {
                        spec: name.clone(),
                        why,
                    }
                    .to_string(),
                )
            })?;
            let graph = machine.parts().build(name, switching, ports);
            Network::Graph(graph.map_err(|e| ImportError::Usage(format!("{name}: {e}")))?)
        }
        NetworkSpec::File { format, path } => {
            Network::Graph(network_file(path, *format, switching, ports)?)
        }
    })
}

/// The network in the file at `path`, in `format` (guessed from its
/// content where not given).
pub fn network_file(
    path: &Path,
    format: NetworkFormat,
    switching: Switching,
    ports: Ports,
) -> Result<Graph, ImportError> {
    let text = super::read(path)?;
    network_text(&text, &path.display().to_string(), format, switching, ports)
}

/// The network in `text`, read from `file` in `format`.
pub fn network_text(
    text: &str,
    file: &str,
    format: NetworkFormat,
    switching: Switching,
    ports: Ports,
) -> Result<Graph, ImportError> {
    let format = match format {
        NetworkFormat::Guess => guess(text),
        known => known,
    };
    let name = super::file_name(file);
    let parts = match format {
        NetworkFormat::Graph | NetworkFormat::Guess => {
            return graph_text(text, file, switching, ports)
        }
        NetworkFormat::NcclTopo => super::topo_xml::read(text, file)?,
        NetworkFormat::Astra => super::astra::read(text, file)?,
    };
    parts
        .build(&format!("{} {name}", format.prefix()), switching, ports)
        .map_err(|e| whole_file(file, e.to_string()))
}

/// The format of a network file by its content: topology XML opens with
/// `<` (after any comments), commcheck's graph with `{`, else ASTRA-sim's
/// YAML.
fn guess(text: &str) -> NetworkFormat {
    match text.trim_start().as_bytes().first() {
        Some(b'<') => NetworkFormat::NcclTopo,
        Some(b'{') => NetworkFormat::Graph,
        _ => NetworkFormat::Astra,
    }
}

/// An error of `file` as a whole.
fn whole_file(file: &str, why: String) -> ImportError {
    ImportError::File {
        file: file.to_string(),
        line: 0,
        column: 0,
        why,
    }
}

/// The head of a graph file: which version the rest is in.
#[derive(Deserialize)]
struct GraphHead {
    format: String,
    version: u32,
}

/// A graph file of version 1: nodes counted, links and arcs as pairs.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GraphFile {
    #[allow(dead_code)]
    format: String,
    #[allow(dead_code)]
    version: u32,
    nodes: u32,
    #[serde(default)]
    names: Vec<String>,
    #[serde(default)]
    links: Vec<(u32, u32)>,
    #[serde(default)]
    arcs: Vec<(u32, u32)>,
}

/// A graph file of version 2: a machine's parts (docs/networks.md).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MachineFile {
    #[allow(dead_code)]
    format: String,
    #[allow(dead_code)]
    version: u32,
    nodes: Vec<NodeEntry>,
    #[serde(default)]
    links: Vec<LinkEntry>,
    #[serde(default)]
    arcs: Vec<LinkEntry>,
}

/// A node of a version-2 file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeEntry {
    name: String,
    kind: String,
    #[serde(default)]
    forwards: Option<bool>,
}

/// A node named by number or by name.
#[derive(Deserialize)]
#[serde(untagged)]
enum NodeRef {
    Number(u32),
    Name(String),
}

/// A link (both ways) or an arc (one way) of a version-2 file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkEntry {
    between: (NodeRef, NodeRef),
    #[serde(default = "plain")]
    kind: String,
    #[serde(default = "one")]
    lanes: u32,
    #[serde(default)]
    bandwidth: Option<f64>,
    #[serde(default)]
    latency: Option<f64>,
}

fn plain() -> String {
    LinkKind::Link.name().to_string()
}

fn one() -> u32 {
    1
}

/// The graph in the file at `path`.
pub fn graph_file(path: &Path, switching: Switching, ports: Ports) -> Result<Graph, ImportError> {
    let text = super::read(path)?;
    graph_text(&text, &path.display().to_string(), switching, ports)
}

/// The graph in `text`, read from `file`: version 1 (nodes and links) or
/// version 2 (a machine's parts).
pub fn graph_text(
    text: &str,
    file: &str,
    switching: Switching,
    ports: Ports,
) -> Result<Graph, ImportError> {
    let head: GraphHead = serde_json::from_str(text).map_err(|e| at_line(file, &e))?;
    super::header(
        (file, text),
        "network",
        "commcheck-network",
        &head.format,
        head.version,
        2,
    )?;
    let name = format!("graph {}", super::file_name(file));
    if head.version == 2 {
        let m: MachineFile = serde_json::from_str(text).map_err(|e| at_line(file, &e))?;
        return machine(m, file)?
            .build(&name, switching, ports)
            .map_err(|e| whole_file(file, e.to_string()));
    }
    let g: GraphFile = serde_json::from_str(text).map_err(|e| at_line(file, &e))?;
    if g.nodes > models::topology::graph::MAX_NODES {
        return Err(super::at_field(
            file,
            text,
            &[Step::Key("nodes")],
            format!(
                "{} nodes: at most {}",
                g.nodes,
                models::topology::graph::MAX_NODES
            ),
        ));
    }
    let mut arcs = g.arcs.clone();
    for &(u, v) in &g.links {
        arcs.push((u, v));
        arcs.push((v, u));
    }
    Graph::new(&name, g.nodes, g.names, &arcs, switching, ports).map_err(|e| {
        super::at_field(
            file,
            text,
            &graph_place(&g.links, &g.arcs, &e),
            e.to_string(),
        )
    })
}

/// Where in a version-1 graph file the entry is that `e` refuses: the
/// link or arc it names (the first that names its pair), else the field.
fn graph_place(links: &[(u32, u32)], arcs: &[(u32, u32)], e: &GraphError) -> Vec<Step<'static>> {
    let pair = match *e {
        GraphError::Nodes { .. } => return vec![Step::Key("nodes")],
        GraphError::Names { .. } => return vec![Step::Key("names")],
        GraphError::ArcOutOfRange { from, to, .. }
        | GraphError::Lanes { from, to, .. }
        | GraphError::TwoArcs { from, to } => (from, to),
        GraphError::Loop { node } => (node, node),
        _ => return Vec::new(),
    };
    let link = links
        .iter()
        .position(|&(u, v)| (u, v) == pair || (v, u) == pair);
    match (link, arcs.iter().position(|&a| a == pair)) {
        (_, Some(i)) => vec![Step::Key("arcs"), Step::Item(i)],
        (Some(i), None) => vec![Step::Key("links"), Step::Item(i)],
        (None, None) => Vec::new(),
    }
}

/// The parts a version-2 file describes, or the first thing in it that is
/// not one (a kind not known, a node named twice or not at all, a
/// bandwidth or latency that is not a positive number).
fn machine(m: MachineFile, file: &str) -> Result<Parts, ImportError> {
    let bad = |why: String| whole_file(file, why);
    if m.nodes.len() > models::topology::graph::MAX_NODES as usize {
        return Err(bad(format!(
            "{} nodes: at most {}",
            m.nodes.len(),
            models::topology::graph::MAX_NODES
        )));
    }
    let mut parts = Parts::default();
    let mut numbers = std::collections::HashMap::new();
    for node in m.nodes {
        let kind = NodeKind::parse(&node.kind).ok_or_else(|| {
            let kinds: Vec<&str> = NodeKind::ALL.iter().map(|k| k.name()).collect();
            bad(format!(
                "node {}: kind {:?}, expected one of {}",
                node.name,
                node.kind,
                kinds.join(", ")
            ))
        })?;
        let number = parts.nodes.len() as NodeId;
        if numbers.insert(node.name.clone(), number).is_some() {
            return Err(bad(format!("two nodes are named {}", node.name)));
        }
        parts.nodes.push(Node {
            name: node.name,
            kind,
            forwards: node.forwards,
        });
    }
    let count = parts.nodes.len() as u32;
    let node = |r: &NodeRef| -> Result<NodeId, ImportError> {
        match r {
            NodeRef::Number(v) if *v < count => Ok(*v),
            NodeRef::Number(v) => Err(bad(format!(
                "node {v}: nodes are numbered 0 to {}",
                count.saturating_sub(1)
            ))),
            NodeRef::Name(name) => numbers
                .get(name)
                .copied()
                .ok_or_else(|| bad(format!("no node is named {name}"))),
        }
    };
    let attrs = |l: &LinkEntry| -> Result<LinkAttrs, ImportError> {
        let kind = LinkKind::parse(&l.kind).ok_or_else(|| {
            let kinds: Vec<&str> = LinkKind::ALL.iter().map(|k| k.name()).collect();
            bad(format!(
                "link kind {:?}, expected one of {}",
                l.kind,
                kinds.join(", ")
            ))
        })?;
        for (what, value) in [("bandwidth", l.bandwidth), ("latency", l.latency)] {
            if value
                .is_some_and(|x| !(x.is_finite() && x >= 0.0) || (what == "bandwidth" && x == 0.0))
            {
                return Err(bad(format!(
                    "a {what} of {}: expected a positive number",
                    value.unwrap_or_default()
                )));
            }
        }
        Ok(LinkAttrs {
            kind,
            lanes: l.lanes,
            bandwidth: l.bandwidth,
            latency: l.latency,
        })
    };
    for l in &m.links {
        let (u, v) = (node(&l.between.0)?, node(&l.between.1)?);
        parts.link(u, v, attrs(l)?);
    }
    for l in &m.arcs {
        let (from, to) = (node(&l.between.0)?, node(&l.between.1)?);
        parts.arcs.push(Arc {
            from,
            to,
            attrs: attrs(l)?,
        });
    }
    Ok(parts)
}
