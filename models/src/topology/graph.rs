//! A network a user describes: any nodes and directed arcs (a GPU server's
//! links, a cube with a missing link), read from a file by the front half
//! (docs/schedules.md, "Networks") and checked here.
//!
//! The arcs are the resources, numbered in (from, to) order; under
//! one-port a node's out-port and in-port are resources too, as on the
//! cube and the grids. A link written once in the file is two arcs.
//!
//! **Routing.** A store-and-forward transmission crosses one arc. A worm
//! follows, unless the schedule gives its path, the *lowest-neighbour
//! shortest path*: from each node it takes the arc to the lowest-numbered
//! neighbour that is one hop nearer the destination. The rule is
//! deterministic, and on the n-cube it is not the catalogue's e-cube
//! (from 110 to 001 it goes 110, 010, 000, 001: bits cleared before bits
//! set); give the cube as `hypercube:n` for e-cube. An explicit path for a pair of nodes
//! ([`Graph::with_paths`]) replaces the rule for that pair.

use crate::config::{Ports, Switching};
use crate::topology::Topology;
use properties::{NodeId, ResourceId, Route};
use std::collections::{HashMap, VecDeque};

pub use super::parts::{Arc, LinkAttrs, LinkKind, Node, NodeKind, Parts, MAX_LANES};

/// Most nodes of a graph network.
pub const MAX_NODES: u32 = 1 << 20;

/// Most nodes for which worms are routed by the rule: it keeps the
/// distance between every pair (two bytes each, 32 MB at the limit).
pub const MAX_ROUTED: u32 = 4096;

/// Why nodes, arcs or paths are not a network commcheck takes, in one
/// line for the person who wrote the file.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum GraphError {
    /// No nodes, or more than [`MAX_NODES`].
    #[error("a graph has 1 to {MAX_NODES} nodes, not {nodes}")]
    Nodes {
        /// The nodes given.
        nodes: u32,
    },
    /// Some nodes named and not others.
    #[error("{names} names for {nodes} nodes: name every node or none")]
    Names {
        /// The names given.
        names: usize,
        /// The nodes.
        nodes: u32,
    },
    /// An arc from or to a node out of range.
    #[error("arc {from}->{to}: nodes are numbered 0 to {}", .nodes - 1)]
    ArcOutOfRange {
        /// Its first node.
        from: NodeId,
        /// Its last node.
        to: NodeId,
        /// The graph's nodes.
        nodes: u32,
    },
    /// A link of no lanes, or too many.
    #[error("arc {from}->{to} has {lanes} lanes: a link has 1 to {MAX_LANES}")]
    Lanes {
        /// Its first node.
        from: NodeId,
        /// Its last node.
        to: NodeId,
        /// The lanes given.
        lanes: u32,
    },
    /// Two arcs between one ordered pair of nodes that say different things.
    #[error("two different arcs {from}->{to}: give a link once, with its lanes")]
    TwoArcs {
        /// Its first node.
        from: NodeId,
        /// Its last node.
        to: NodeId,
    },
    /// An arc from a node to itself.
    #[error("arc {node}->{node} from a node to itself")]
    Loop {
        /// The node.
        node: NodeId,
    },
    /// A path of no nodes.
    #[error("an empty path")]
    EmptyPath,
    /// A path through a node out of range.
    #[error("a path names node {node}; {graph} has nodes 0 to {}", .nodes - 1)]
    PathOutOfRange {
        /// The node.
        node: NodeId,
        /// The graph's name in reports.
        graph: String,
        /// The graph's nodes.
        nodes: u32,
    },
    /// A path of one node.
    #[error("the path {node} has no arc")]
    NoArc {
        /// The node's label.
        node: String,
    },
    /// A path over a pair of nodes that is not an arc.
    #[error("the path {path} uses {from}->{to}, which is not an arc")]
    NotAnArc {
        /// The path, as `a->b->c`.
        path: String,
        /// The pair's first node, labelled.
        from: String,
        /// Its second.
        to: String,
    },
    /// A path that visits a node twice.
    #[error("the path {path} visits a node twice")]
    Revisits {
        /// The path, as `a->b->c`.
        path: String,
    },
    /// Two paths between one pair of nodes.
    #[error(
        "two paths from {from} to {to}, {first} and {second}: worms between two nodes follow \
         one path"
    )]
    TwoPaths {
        /// The pair's first node, labelled.
        from: String,
        /// Its second.
        to: String,
        /// The path given first.
        first: String,
        /// The other.
        second: String,
    },
}

/// A network of any shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    nodes: u32,
    /// Node names, where the file gives them (else the number).
    names: Vec<String>,
    /// What each node is ([`NodeKind::Node`] throughout a version-1 graph).
    kinds: Vec<NodeKind>,
    /// Whether worms cross each node ([`Node::forwards`]).
    forwards: Vec<bool>,
    /// The arcs, sorted and distinct.
    arcs: Vec<(NodeId, NodeId)>,
    /// What each arc is, in the same order.
    attrs: Vec<LinkAttrs>,
    /// Arc i's lanes are resources `lanes[i]..lanes[i + 1]` (the arc's
    /// number where every arc has one lane).
    lanes: Vec<ResourceId>,
    /// Node u's arcs are `arcs[first[u]..first[u + 1]]`.
    first: Vec<u32>,
    /// Hops from u to v at `u * nodes + v` (u16::MAX: unreachable), where
    /// worms are routed by the rule.
    distance: Vec<u16>,
    /// Paths given for pairs of nodes (from the source to the destination).
    paths: HashMap<(NodeId, NodeId), Vec<NodeId>>,
    switching: Switching,
    ports: Ports,
    /// The network's name in reports (`graph dgx1.json`).
    name: String,
    /// Where each node goes in pictures, for a machine's parts
    /// ([`layout`](super::layout)); empty: on a circle.
    positions: Vec<(f32, f32)>,
}

impl Graph {
    /// The network of `nodes` nodes and `arcs` (each a directed arc; write
    /// both directions for a link), named `name` in reports, or why it is
    /// not one commcheck takes: a node out of range, an arc from a node to
    /// itself, too many nodes. `names` is empty or one name a node. Its
    /// nodes have no kind and forward; its links are plain, one lane each
    /// (a version-1 graph file).
    pub fn new(
        name: &str,
        nodes: u32,
        names: Vec<String>,
        arcs: &[(NodeId, NodeId)],
        switching: Switching,
        ports: Ports,
    ) -> Result<Graph, GraphError> {
        if nodes == 0 || nodes > MAX_NODES {
            return Err(GraphError::Nodes { nodes });
        }
        if !names.is_empty() && names.len() != nodes as usize {
            return Err(GraphError::Names {
                names: names.len(),
                nodes,
            });
        }
        let arcs: Vec<Arc> = arcs
            .iter()
            .map(|&(from, to)| Arc {
                from,
                to,
                attrs: LinkAttrs::PLAIN,
            })
            .collect();
        let kinds = vec![NodeKind::Node; nodes as usize];
        Graph::build(name, nodes, names, kinds, None, arcs, switching, ports)
    }

    /// The machine of `nodes` (each with its name, its kind, and whether
    /// it forwards) and `arcs` (each with what it is), named `name` in
    /// reports, or why it is not one commcheck takes: as [`Graph::new`],
    /// and two different arcs between one ordered pair of nodes.
    pub fn machine(
        name: &str,
        nodes: Vec<Node>,
        arcs: Vec<Arc>,
        switching: Switching,
        ports: Ports,
    ) -> Result<Graph, GraphError> {
        let count = u32::try_from(nodes.len()).unwrap_or(u32::MAX);
        if count == 0 || count > MAX_NODES {
            return Err(GraphError::Nodes { nodes: count });
        }
        let forwards = nodes.iter().map(Node::forwards).collect();
        let kinds = nodes.iter().map(|v| v.kind).collect();
        let names = nodes.into_iter().map(|v| v.name).collect();
        Graph::build(
            name,
            count,
            names,
            kinds,
            Some(forwards),
            arcs,
            switching,
            ports,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn build(
        name: &str,
        nodes: u32,
        names: Vec<String>,
        kinds: Vec<NodeKind>,
        forwards: Option<Vec<bool>>,
        arcs: Vec<Arc>,
        switching: Switching,
        ports: Ports,
    ) -> Result<Graph, GraphError> {
        let mut sorted = Vec::with_capacity(arcs.len());
        for arc in arcs {
            let (u, v) = (arc.from, arc.to);
            if u >= nodes || v >= nodes {
                return Err(GraphError::ArcOutOfRange {
                    from: u,
                    to: v,
                    nodes,
                });
            }
            if u == v {
                return Err(GraphError::Loop { node: u });
            }
            if !(1..=MAX_LANES).contains(&arc.attrs.lanes) {
                return Err(GraphError::Lanes {
                    from: u,
                    to: v,
                    lanes: arc.attrs.lanes,
                });
            }
            sorted.push(arc);
        }
        sorted.sort_by_key(|a| (a.from, a.to));
        let mut distinct: Vec<Arc> = Vec::with_capacity(sorted.len());
        for arc in sorted {
            match distinct.last() {
                Some(last) if (last.from, last.to) == (arc.from, arc.to) => {
                    if last.attrs != arc.attrs {
                        return Err(GraphError::TwoArcs {
                            from: arc.from,
                            to: arc.to,
                        });
                    }
                }
                _ => distinct.push(arc),
            }
        }
        let mut first = vec![0u32; nodes as usize + 1];
        for a in &distinct {
            first[a.from as usize + 1] += 1;
        }
        for u in 0..nodes as usize {
            first[u + 1] += first[u];
        }
        let mut lanes = Vec::with_capacity(distinct.len() + 1);
        lanes.push(0);
        for a in &distinct {
            lanes.push(lanes[lanes.len() - 1] + a.attrs.lanes as ResourceId);
        }
        let forwards =
            forwards.unwrap_or_else(|| kinds.iter().map(|k| k.forwards_by_default()).collect());
        let mut graph = Graph {
            nodes,
            names,
            kinds,
            forwards,
            arcs: distinct.iter().map(|a| (a.from, a.to)).collect(),
            attrs: distinct.iter().map(|a| a.attrs).collect(),
            lanes,
            first,
            distance: Vec::new(),
            paths: HashMap::new(),
            switching,
            ports,
            name: name.to_string(),
            positions: Vec::new(),
        };
        if switching == Switching::Wh && nodes <= MAX_ROUTED {
            graph.distance = graph.all_distances();
        }
        Ok(graph)
    }

    /// The same network whose worms between the given pairs follow the
    /// given paths (each from its first node to its last, over arcs of
    /// the graph), or why a path is not one.
    pub fn with_paths(mut self, paths: Vec<Vec<NodeId>>) -> Result<Graph, GraphError> {
        for path in paths {
            let (Some(&from), Some(&to)) = (path.first(), path.last()) else {
                return Err(GraphError::EmptyPath);
            };
            if let Some(&node) = path.iter().find(|&&v| v >= self.nodes) {
                return Err(GraphError::PathOutOfRange {
                    node,
                    graph: self.name.clone(),
                    nodes: self.nodes,
                });
            }
            if path.len() < 2 {
                return Err(GraphError::NoArc {
                    node: self.node_label(from),
                });
            }
            for w in path.windows(2) {
                if self.arc_index(w[0], w[1]).is_none() {
                    return Err(GraphError::NotAnArc {
                        path: self.path_label(&path),
                        from: self.node_label(w[0]),
                        to: self.node_label(w[1]),
                    });
                }
            }
            let mut seen = path.clone();
            seen.sort_unstable();
            seen.dedup();
            if seen.len() != path.len() {
                return Err(GraphError::Revisits {
                    path: self.path_label(&path),
                });
            }
            if let Some(other) = self.paths.get(&(from, to)).filter(|&p| *p != path) {
                return Err(GraphError::TwoPaths {
                    from: self.node_label(from),
                    to: self.node_label(to),
                    first: self.path_label(other),
                    second: self.path_label(&path),
                });
            }
            self.paths.insert((from, to), path);
        }
        Ok(self)
    }

    /// `path` as `a->b->c`.
    fn path_label(&self, path: &[NodeId]) -> String {
        let names: Vec<String> = path.iter().map(|&v| self.node_label(v)).collect();
        names.join("->")
    }

    /// The arcs, in resource order.
    pub fn arcs(&self) -> &[(NodeId, NodeId)] {
        &self.arcs
    }

    /// The switching technique.
    pub fn switching(&self) -> Switching {
        self.switching
    }

    /// The port model.
    pub fn ports(&self) -> Ports {
        self.ports
    }

    /// The neighbours `u` has an arc to, in increasing order.
    pub fn out_neighbours(&self, u: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let (a, b) = (self.first[u as usize], self.first[u as usize + 1]);
        self.arcs[a as usize..b as usize].iter().map(|&(_, v)| v)
    }

    /// The number of arc u->v among the arcs, if there is one.
    fn arc_number(&self, u: NodeId, v: NodeId) -> Option<usize> {
        let (a, b) = (self.first[u as usize], self.first[u as usize + 1]);
        let out = &self.arcs[a as usize..b as usize];
        out.binary_search(&(u, v)).ok().map(|i| a as usize + i)
    }

    /// The resource of arc u->v (its first lane), if there is one.
    pub fn arc_index(&self, u: NodeId, v: NodeId) -> Option<ResourceId> {
        self.arc_number(u, v).map(|i| self.lanes[i])
    }

    /// What arc u->v is, if there is one.
    pub fn arc_attrs(&self, u: NodeId, v: NodeId) -> Option<LinkAttrs> {
        self.arc_number(u, v).map(|i| self.attrs[i])
    }

    /// What each arc is, in the order of [`arcs`](Graph::arcs).
    pub fn attrs(&self) -> &[LinkAttrs] {
        &self.attrs
    }

    /// What node `v` is.
    pub fn kind(&self, v: NodeId) -> NodeKind {
        self.kinds[v as usize]
    }

    /// Whether worms cross node `v` ([`Node::forwards`]).
    pub fn forwards(&self, v: NodeId) -> bool {
        self.forwards[v as usize]
    }

    /// True where some node is of a kind (a machine, not a version-1
    /// graph).
    pub fn has_parts(&self) -> bool {
        self.kinds.iter().any(|&k| k != NodeKind::Node)
    }

    /// True where some link has more than one lane.
    pub fn has_lanes(&self) -> bool {
        self.lanes.last().copied() != Some(self.arcs.len() as ResourceId)
    }

    /// The nodes ranks run on, in order: the accelerators where there are
    /// any (GPUs, NPUs), else every node that is not a switch.
    pub fn rank_nodes(&self) -> Vec<NodeId> {
        let accelerators = self.kinds.iter().any(|k| k.is_accelerator());
        (0..self.nodes)
            .filter(|&v| Self::takes_ranks(self.kinds[v as usize], accelerators))
            .collect()
    }

    /// Whether a node of `kind` takes ranks, where the machine has
    /// `accelerators` or not.
    fn takes_ranks(kind: NodeKind, accelerators: bool) -> bool {
        match accelerators {
            true => kind.is_accelerator(),
            false => !kind.is_switch(),
        }
    }

    /// The resources of the arcs' lanes (the ports', under one-port, come
    /// after them).
    fn lane_resources(&self) -> ResourceId {
        self.lanes[self.arcs.len()]
    }

    /// Hops from `u` to `v` by breadth-first search, None if unreachable.
    pub fn distance(&self, u: NodeId, v: NodeId) -> Option<u32> {
        if !self.distance.is_empty() {
            let d = self.distance[u as usize * self.nodes as usize + v as usize];
            return (d != u16::MAX).then_some(d as u32);
        }
        self.bfs(u)[v as usize]
    }

    /// Hops from `from` to every node (None: unreachable) on paths whose
    /// inner nodes forward.
    pub fn bfs(&self, from: NodeId) -> Vec<Option<u32>> {
        let mut dist = vec![None; self.nodes as usize];
        dist[from as usize] = Some(0);
        let mut queue = VecDeque::from([from]);
        while let Some(u) = queue.pop_front() {
            if u != from && !self.forwards[u as usize] {
                continue;
            }
            let d = dist[u as usize].unwrap_or(0);
            for v in self.out_neighbours(u) {
                if dist[v as usize].is_none() {
                    dist[v as usize] = Some(d + 1);
                    queue.push_back(v);
                }
            }
        }
        dist
    }

    /// The largest distance between two nodes ranks run on (None if one
    /// cannot reach another).
    pub fn diameter(&self) -> Option<u32> {
        let ranks = self.rank_nodes();
        let mut most = 0;
        for &u in &ranks {
            let dist = self.bfs(u);
            for &v in &ranks {
                most = most.max(dist[v as usize]?);
            }
        }
        Some(most)
    }

    /// The most arcs out of one node.
    pub fn max_degree(&self) -> u32 {
        (0..self.nodes as usize)
            .map(|u| self.first[u + 1] - self.first[u])
            .max()
            .unwrap_or(0)
    }

    fn all_distances(&self) -> Vec<u16> {
        let n = self.nodes as usize;
        let mut all = vec![u16::MAX; n * n];
        for u in 0..self.nodes {
            for (v, d) in self.bfs(u).into_iter().enumerate() {
                if let Some(d) = d {
                    all[u as usize * n + v] = d as u16;
                }
            }
        }
        all
    }

    /// The nodes a worm from `from` to `to` visits, in order: the path
    /// given for the pair, else the lowest-neighbour shortest path over
    /// nodes that forward; None
    /// if `to` cannot be reached (or worms are not routed on this graph).
    pub fn worm_path(&self, from: NodeId, to: NodeId) -> Option<Vec<NodeId>> {
        if let Some(path) = self.paths.get(&(from, to)) {
            return Some(path.clone());
        }
        if self.distance.is_empty() {
            return None;
        }
        let n = self.nodes as usize;
        let left = |u: NodeId| self.distance[u as usize * n + to as usize] as u32;
        if left(from) == u16::MAX as u32 {
            return None;
        }
        let mut path = vec![from];
        let mut u = from;
        while u != to {
            u = self
                .out_neighbours(u)
                .find(|&v| left(v) + 1 == left(u) && (v == to || self.forwards[v as usize]))?;
            path.push(u);
        }
        Some(path)
    }

    /// Calls `f` with every arc `route` crosses.
    fn hops(&self, route: &Route, mut f: impl FnMut(ResourceId)) {
        match *route {
            Route::Link { from, to } => f(self.arc_index(from, to).expect("a valid link")),
            Route::Worm { from, to, .. } => {
                let path = self.worm_path(from, to).expect("a routed worm");
                for w in path.windows(2) {
                    f(self.arc_index(w[0], w[1]).expect("a path over arcs"));
                }
            }
            Route::Bus { .. } | Route::Fan { .. } => {}
        }
    }
}

impl Parts {
    /// The machine built, named `name` in reports ([`Graph::machine`]).
    pub fn build(
        self,
        name: &str,
        switching: Switching,
        ports: Ports,
    ) -> Result<Graph, GraphError> {
        let kinds: Vec<NodeKind> = self.nodes.iter().map(|v| v.kind).collect();
        let links: Vec<(NodeId, NodeId)> = self.arcs.iter().map(|a| (a.from, a.to)).collect();
        let width = self.width;
        let mut graph = Graph::machine(name, self.nodes, self.arcs, switching, ports)?;
        if kinds.iter().any(|&k| k != NodeKind::Node) {
            graph.positions = super::layout::layout(&kinds, &links, width);
        }
        Ok(graph)
    }
}

impl Topology for Graph {
    fn nodes(&self) -> u32 {
        self.nodes
    }

    fn resources(&self) -> ResourceId {
        let arcs = self.lane_resources();
        match self.ports {
            Ports::All => arcs,
            Ports::One => arcs + 2 * self.nodes as u64,
        }
    }

    fn occupy(&self, route: &Route, mut f: impl FnMut(ResourceId)) {
        self.hops(route, &mut f);
        if self.ports == Ports::One {
            let (arcs, nodes) = (self.lane_resources(), self.nodes as u64);
            self.receivers(route, |v| f(arcs + nodes + v as u64));
            f(arcs + route.from() as u64);
        }
    }

    fn receivers(&self, route: &Route, mut f: impl FnMut(NodeId)) {
        match *route {
            Route::Link { to, .. } | Route::Worm { to, .. } => f(to),
            Route::Bus { .. } | Route::Fan { .. } => {}
        }
    }

    fn invalid(&self, route: &Route) -> Option<String> {
        let (from, to) = match *route {
            Route::Link { from, to } => (from, to),
            Route::Worm { from, to, first } => {
                if first.is_some() {
                    return Some("a worm on a graph takes no first dimension".into());
                }
                (from, to)
            }
            Route::Bus { .. } => return Some(format!("{} has no buses", self.name)),
            Route::Fan { .. } => return Some(format!("{} has no fan-outs", self.name)),
        };
        if from >= self.nodes || to >= self.nodes {
            return Some(format!("route {from}->{to} leaves {}", self.name));
        }
        if from == to {
            return Some(format!("route from {} to itself", self.node_label(from)));
        }
        let single = matches!(route, Route::Link { .. }) || self.switching == Switching::Sf;
        if single && self.arc_index(from, to).is_none() {
            return Some(format!(
                "{} -> {} is not an arc; store-and-forward moves a packet one arc per slot",
                self.node_label(from),
                self.node_label(to)
            ));
        }
        if !single && self.worm_path(from, to).is_none() {
            return Some(match self.distance.is_empty() && self.nodes > MAX_ROUTED {
                true => format!(
                    "worms are routed on graphs of at most {MAX_ROUTED} nodes (this has {}) \
                     unless the schedule gives their paths",
                    self.nodes
                ),
                false if self.has_parts() => format!(
                    "{} cannot reach {}: no path joins them through switches or nodes that \
                     forward (a {} does not pass a worm on)",
                    self.node_label(from),
                    self.node_label(to),
                    self.kind(from).name()
                ),
                false => format!(
                    "{} cannot reach {}",
                    self.node_label(from),
                    self.node_label(to)
                ),
            });
        }
        None
    }

    fn path(&self, route: &Route) -> Vec<NodeId> {
        match *route {
            Route::Worm { from, to, .. } => self.worm_path(from, to).unwrap_or(vec![from, to]),
            _ => {
                let mut path = vec![route.from()];
                self.receivers(route, |v| path.push(v));
                path
            }
        }
    }

    fn carries_only(&self, node: NodeId) -> bool {
        let accelerators = self.kinds.iter().any(|k| k.is_accelerator());
        !Self::takes_ranks(self.kinds[node as usize], accelerators)
    }

    /// A machine's parts where [`layout`](super::layout) puts them;
    /// other nodes on a circle, node 0 at the top, clockwise.
    fn position(&self, node: NodeId) -> (f32, f32) {
        if let Some(&at) = self.positions.get(node as usize) {
            return at;
        }
        let n = self.nodes as f32;
        let r = (n / std::f32::consts::PI).max(1.0);
        let a = 2.0 * std::f32::consts::PI * node as f32 / n;
        (r + r * a.sin(), r - r * a.cos())
    }

    fn links(&self, mut f: impl FnMut(NodeId, NodeId)) {
        for &(u, v) in &self.arcs {
            // A link once; a one-way arc too.
            if u < v || self.arc_index(v, u).is_none() {
                f(u.min(v), u.max(v));
            }
        }
    }

    fn lanes(&self, r: ResourceId) -> u32 {
        match self.lanes.binary_search(&r) {
            Ok(i) if i < self.arcs.len() => self.attrs[i].lanes,
            _ => 1,
        }
    }

    fn link_attrs(&self, r: ResourceId) -> Option<LinkAttrs> {
        match self.lanes.binary_search(&r) {
            Ok(i) if i < self.arcs.len() => Some(self.attrs[i]),
            _ => None,
        }
    }

    fn max_lanes(&self) -> u32 {
        self.attrs.iter().map(|a| a.lanes).max().unwrap_or(1)
    }

    fn arc_ends(&self, r: ResourceId) -> Option<(NodeId, NodeId)> {
        if r >= self.lane_resources() {
            return None;
        }
        let i = self.lanes.partition_point(|&first| first <= r) - 1;
        self.arcs.get(i).copied()
    }

    fn network(&self) -> Option<String> {
        Some(self.name.clone())
    }

    fn node_label(&self, node: NodeId) -> String {
        match self.names.get(node as usize) {
            Some(name) => name.clone(),
            None => node.to_string(),
        }
    }

    fn resource_label(&self, r: ResourceId) -> String {
        let arc = |r| super::arc_label(self, r);
        let node = |v| self.node_label(v);
        super::arc_or_port_label(r, self.lane_resources(), self.nodes as u64, arc, node)
    }

    fn route_label(&self, route: &Route) -> String {
        match *route {
            Route::Link { from, to } | Route::Worm { from, to, .. } => {
                format!("{}->{}", self.node_label(from), self.node_label(to))
            }
            Route::Bus { from, .. } | Route::Fan { from, .. } => self.node_label(from),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 3-cube written as a graph file would write it: a link per
    /// dimension and node.
    fn cube3(switching: Switching, ports: Ports) -> Graph {
        let mut arcs = Vec::new();
        for u in 0..8u32 {
            for d in 0..3 {
                arcs.push((u, u ^ (1 << d)));
            }
        }
        Graph::new("Q3", 8, Vec::new(), &arcs, switching, ports).unwrap()
    }

    /// Worms take the lowest neighbour one hop nearer (on the cube, bits
    /// cleared before bits set); the cube's distances are Hamming's.
    #[test]
    fn worms_take_the_lowest_nearer_neighbour() {
        let g = cube3(Switching::Wh, Ports::All);
        let worm = |from, to| {
            g.path(&Route::Worm {
                from,
                to,
                first: None,
            })
        };
        assert_eq!(worm(0, 7), [0, 1, 3, 7]);
        assert_eq!(worm(6, 1), [6, 2, 0, 1]);
        for u in 0..8 {
            for v in 0..8 {
                assert_eq!(g.distance(u, v), Some((u ^ v).count_ones()));
            }
        }
        assert_eq!(g.diameter(), Some(3));
        assert_eq!(g.max_degree(), 3);
    }

    /// A path given for a pair replaces the rule for that pair only, and
    /// a path that is not one is refused with its reason.
    #[test]
    fn explicit_paths_replace_the_rule() {
        let g = cube3(Switching::Wh, Ports::All)
            .with_paths(vec![vec![0, 4, 6, 7]])
            .unwrap();
        let mut arcs = Vec::new();
        g.occupy(
            &Route::Worm {
                from: 0,
                to: 7,
                first: None,
            },
            |r| arcs.push(g.resource_label(r)),
        );
        assert_eq!(arcs, ["arc 0->4", "arc 4->6", "arc 6->7"]);
        assert_eq!(g.worm_path(1, 7), Some(vec![1, 3, 7]));
        let bad = cube3(Switching::Wh, Ports::All).with_paths(vec![vec![0, 3]]);
        assert!(bad
            .unwrap_err()
            .to_string()
            .contains("0->3, which is not an arc"));
        let twice = cube3(Switching::Wh, Ports::All).with_paths(vec![vec![0, 1, 0, 2]]);
        assert!(twice.unwrap_err().to_string().contains("twice"));
    }

    /// A one-way arc is one resource; under one-port the ports follow the
    /// arcs; store-and-forward refuses a non-arc and a missing link.
    #[test]
    fn arcs_ports_and_invalid_routes() {
        let names = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let g = Graph::new(
            "G",
            3,
            names,
            &[(0, 1), (1, 0), (1, 2)],
            Switching::Sf,
            Ports::One,
        )
        .unwrap();
        assert_eq!(g.resources(), 3 + 6);
        let mut used = Vec::new();
        g.occupy(&Route::Link { from: 1, to: 2 }, |r| {
            used.push(g.resource_label(r))
        });
        assert_eq!(used, ["arc b->c", "in-port of c", "out-port of b"]);
        assert!(g
            .invalid(&Route::Link { from: 2, to: 1 })
            .unwrap()
            .contains("c -> b is not an arc"));
        assert!(g.invalid(&Route::Link { from: 0, to: 1 }).is_none());
        let mut links = Vec::new();
        g.links(|u, v| links.push((u, v)));
        assert_eq!(links, [(0, 1), (1, 2)]);
        assert_eq!(g.diameter(), None, "c reaches nobody");
    }

    /// Four GPUs on an NVSwitch and a ring of NVLinks between them: a worm
    /// from one GPU to another takes the direct link where there is one
    /// and the switch where there is not, never a third GPU; the switch's
    /// links carry as many worms a slot as they have lanes.
    #[test]
    fn gpus_do_not_forward_and_lanes_carry_several() {
        let mut nodes: Vec<Node> = (0..4)
            .map(|i| Node::new(format!("gpu{i}"), NodeKind::Gpu))
            .collect();
        nodes.push(Node::new("nvs", NodeKind::NvSwitch));
        let nv = |lanes| LinkAttrs::new(LinkKind::NvLink, lanes, 20.0 * lanes as f64);
        let mut arcs = Vec::new();
        for i in 0..4 {
            arcs.extend(Arc::both(i, 4, nv(3)));
            arcs.extend(Arc::both(i, (i + 1) % 4, nv(1)));
        }
        let g = Graph::machine("box", nodes, arcs, Switching::Wh, Ports::All).unwrap();
        assert_eq!(g.worm_path(0, 1), Some(vec![0, 1]));
        assert_eq!(
            g.worm_path(0, 2),
            Some(vec![0, 4, 2]),
            "through the switch, not gpu1"
        );
        assert_eq!(g.rank_nodes(), [0, 1, 2, 3]);
        assert_eq!(g.diameter(), Some(2));
        assert!(g.has_parts() && g.has_lanes());
        let up = g.arc_index(0, 4).unwrap();
        assert_eq!(g.lanes(up), 3);
        assert_eq!(g.max_lanes(), 3);
        for lane in 0..3 {
            assert_eq!(g.arc_ends(up + lane), Some((0, 4)));
            assert_eq!(g.resource_label(up + lane), "arc gpu0->nvs");
        }
        assert_eq!(g.arc_attrs(0, 4).map(|a| a.bandwidth), Some(Some(60.0)));
        assert_eq!(g.resources(), 8 * 3 + 8);
        // Without the switch, a GPU two hops away is out of a worm's reach.
        let ring: Vec<Node> = (0..4)
            .map(|i| Node::new(format!("gpu{i}"), NodeKind::Gpu))
            .collect();
        let arcs: Vec<Arc> = (0..4)
            .flat_map(|i| Arc::both(i, (i + 1) % 4, nv(1)))
            .collect();
        let g = Graph::machine(
            "ring",
            ring.clone(),
            arcs.clone(),
            Switching::Wh,
            Ports::All,
        )
        .unwrap();
        assert_eq!(g.worm_path(0, 2), None);
        assert!(g
            .invalid(&Route::Worm {
                from: 0,
                to: 2,
                first: None
            })
            .unwrap()
            .contains("cannot reach"));
        // Unless the network says its GPUs forward (a torus's NPUs do).
        let forwarding = ring
            .into_iter()
            .map(|v| Node {
                forwards: Some(true),
                ..v
            })
            .collect();
        let g = Graph::machine("ring", forwarding, arcs, Switching::Wh, Ports::All).unwrap();
        assert_eq!(g.worm_path(0, 2), Some(vec![0, 1, 2]));
    }

    /// A link given twice alike is one link; given twice unlike, or with
    /// no lanes, it is refused.
    #[test]
    fn links_are_given_once() {
        let nodes = || vec![Node::new("a", NodeKind::Gpu), Node::new("b", NodeKind::Gpu)];
        let one = LinkAttrs::new(LinkKind::Pcie, 1, 24.0);
        let twice = [Arc::both(0, 1, one), Arc::both(0, 1, one)].concat();
        assert!(Graph::machine("g", nodes(), twice, Switching::Sf, Ports::All).is_ok());
        let unlike = [
            Arc::both(0, 1, one),
            Arc::both(0, 1, LinkAttrs { lanes: 2, ..one }),
        ]
        .concat();
        let e = Graph::machine("g", nodes(), unlike, Switching::Sf, Ports::All).unwrap_err();
        assert!(e.to_string().contains("two different arcs 0->1"), "{e}");
        let none = Arc::both(0, 1, LinkAttrs { lanes: 0, ..one }).to_vec();
        let e = Graph::machine("g", nodes(), none, Switching::Sf, Ports::All).unwrap_err();
        assert!(e.to_string().contains("0 lanes"), "{e}");
    }

    /// Bad graphs are refused in one line naming the fault.
    #[test]
    fn bad_graphs_are_named() {
        let new = |n, arcs: &[(u32, u32)]| {
            Graph::new("G", n, Vec::new(), arcs, Switching::Sf, Ports::All)
                .unwrap_err()
                .to_string()
        };
        assert!(new(0, &[]).contains("1 to"));
        assert!(new(2, &[(0, 2)]).contains("numbered 0 to 1"));
        assert!(new(2, &[(1, 1)]).contains("to itself"));
        let names = Graph::new("G", 2, vec!["x".into()], &[], Switching::Sf, Ports::All);
        assert!(names
            .unwrap_err()
            .to_string()
            .contains("name every node or none"));
    }
}
