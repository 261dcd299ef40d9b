//! What `check optimal` schedules: a task (which packets start where and
//! must end where) on a network, and the transmissions one slot may
//! carry (docs/optimal.md, "The model").

use models::topology::Topology;
use properties::{NodeId, ResourceId, Route};
use std::collections::HashMap;

/// A collective task, as commcheck's schedule format names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// One packet from the root to every node.
    Broadcast(NodeId),
    /// Every node's packet to every node (multinode broadcast).
    Allgather,
    /// A packet from the root to each node.
    Scatter(NodeId),
    /// A packet from each node to the root.
    Gather(NodeId),
    /// A packet from every node to every other (total exchange).
    Alltoall,
}

/// The names `check optimal` takes, for errors.
pub const TASKS: &str = "broadcast[:ROOT], allgather (mnb), scatter[:ROOT], gather[:ROOT], \
                         alltoall (te)";

impl Task {
    /// Reads `broadcast:3`, `mnb`, `te`, ...; the root defaults to node 0.
    pub fn parse(text: &str, nodes: u32) -> Result<Task, String> {
        let (name, root) = match text.split_once(':') {
            Some((name, root)) => {
                let r: NodeId = root
                    .parse()
                    .map_err(|_| format!("task {text}: '{root}' is not a node number"))?;
                if r >= nodes {
                    return Err(format!(
                        "task {text}: node {r} is not among the {nodes} nodes"
                    ));
                }
                (name, Some(r))
            }
            None => (text, None),
        };
        let rooted = |make: fn(NodeId) -> Task| Ok(make(root.unwrap_or(0)));
        let unrooted = |task: Task| match root {
            Some(_) => Err(format!("task {text}: {name} has no root")),
            None => Ok(task),
        };
        match name {
            "broadcast" => rooted(Task::Broadcast),
            "scatter" => rooted(Task::Scatter),
            "gather" => rooted(Task::Gather),
            "allgather" | "mnb" => unrooted(Task::Allgather),
            "alltoall" | "te" => unrooted(Task::Alltoall),
            _ => Err(format!("unknown task '{name}'; accepted: {TASKS}")),
        }
    }

    /// Its name as `check optimal` takes it.
    pub fn arg(self) -> String {
        match self {
            Task::Broadcast(r) => format!("broadcast:{r}"),
            Task::Allgather => "allgather".into(),
            Task::Scatter(r) => format!("scatter:{r}"),
            Task::Gather(r) => format!("gather:{r}"),
            Task::Alltoall => "alltoall".into(),
        }
    }

    /// The collective as commcheck's schedule format writes it.
    pub fn collective(self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Task::Broadcast(r) => json!({"name": "broadcast", "root": r}),
            Task::Allgather => json!({"name": "allgather"}),
            Task::Scatter(r) => json!({"name": "scatter", "root": r}),
            Task::Gather(r) => json!({"name": "gather", "root": r}),
            Task::Alltoall => json!({"name": "alltoall"}),
        }
    }

    /// Packet c (the schedule format's chunk c): where it starts and the
    /// nodes it must reach.
    pub fn packets(self, nodes: u32) -> Vec<Packet> {
        let all: Vec<NodeId> = (0..nodes).collect();
        let packet = |origin, dests: Vec<NodeId>| Packet { origin, dests };
        match self {
            Task::Broadcast(r) => vec![packet(r, all)],
            Task::Allgather => all.iter().map(|&r| packet(r, all.clone())).collect(),
            Task::Scatter(r) => all.iter().map(|&d| packet(r, vec![d])).collect(),
            Task::Gather(r) => all.iter().map(|&s| packet(s, vec![r])).collect(),
            Task::Alltoall => all
                .iter()
                .flat_map(|&s| all.iter().map(move |&d| packet(s, vec![d])))
                .collect(),
        }
    }
}

/// One packet of a task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    /// The node that starts with it.
    pub origin: NodeId,
    /// The nodes that must end with it.
    pub dests: Vec<NodeId>,
}

/// Which paths a worm may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Routes {
    /// The network's own route (e-cube on a cube, dimension order on a
    /// grid, lowest-neighbour shortest paths on a graph).
    Network,
    /// Any shortest path.
    Minimal,
}

impl Routes {
    /// Its name as `--routes` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Routes::Network => "network",
            Routes::Minimal => "minimal",
        }
    }
}

/// One transmission a slot may carry: a packet from `from` to `to` over
/// `path`, taking `uses`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hop {
    /// The sender.
    pub from: NodeId,
    /// The receiver.
    pub to: NodeId,
    /// The nodes it crosses, sender to receiver.
    pub path: Vec<NodeId>,
    /// Whether `path` is the network's own route (a schedule file need not
    /// name it).
    pub own: bool,
    /// The resources it takes for its slot, sorted: its arcs, and under
    /// one-port its sender's out-port and its receiver's in-port.
    pub uses: Vec<ResourceId>,
}

/// A task on a network, as the encoding sees it.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Nodes, numbered from 0.
    pub nodes: u32,
    /// The task's packets.
    pub packets: Vec<Packet>,
    /// Every transmission a slot may carry.
    pub hops: Vec<Hop>,
    /// Hop distances between nodes (u32::MAX where unreachable).
    pub dist: Vec<Vec<u32>>,
    /// Worms (a transmission crosses any number of arcs in its slot)
    /// rather than one arc a slot.
    pub wormhole: bool,
}

impl Instance {
    /// `task` on `t`, its transmissions as the topology's run semantics
    /// makes them ([`Topology::message_route`], [`Topology::occupy`]):
    /// under store-and-forward one arc to a neighbour; under wormhole a
    /// worm to any node, on the network's own route or on every shortest
    /// path (`routes`), taking the arcs it crosses and the ports its own
    /// route takes.
    pub fn new<T: Topology>(
        t: &T,
        task: Task,
        wormhole: bool,
        routes: Routes,
    ) -> Result<Instance, String> {
        let n = t.nodes();
        if !t.buses().is_empty() {
            return Err(
                "check optimal takes networks of links; a mesh-bus's writes reach every node on \
                 a bus (not yet encoded)"
                    .into(),
            );
        }
        let mut adjacent = vec![Vec::new(); n as usize];
        t.links(|u, v| {
            adjacent[u as usize].push(v);
            adjacent[v as usize].push(u);
        });
        let dist: Vec<Vec<u32>> = (0..n).map(|s| hops_from(&adjacent, s)).collect();
        // The arcs as resources, by their ends.
        let mut arcs: HashMap<(NodeId, NodeId), ResourceId> = HashMap::new();
        for r in 0..t.resources() {
            if let Some(ends) = t.arc_ends(r) {
                arcs.insert(ends, r);
            }
        }
        let mut hops = Vec::new();
        for u in 0..n {
            for v in (0..n).filter(|&v| v != u) {
                if !wormhole && dist[u as usize][v as usize] != 1 {
                    continue;
                }
                let Some(route) = point_to_point(t, u, v, wormhole)? else {
                    continue;
                };
                let own = t.path(&route);
                let mut uses = Vec::new();
                t.occupy(&route, |r| uses.push(r));
                // What the route takes besides its arcs: the ports.
                let own_arcs: Vec<ResourceId> = own
                    .windows(2)
                    .filter_map(|w| arcs.get(&(w[0], w[1])).copied())
                    .collect();
                let ports: Vec<ResourceId> = uses
                    .iter()
                    .copied()
                    .filter(|r| !own_arcs.contains(r))
                    .collect();
                let paths = match (wormhole, routes) {
                    (true, Routes::Minimal) => shortest_paths(&adjacent, &dist, u, v),
                    _ => vec![own.clone()],
                };
                for path in paths {
                    let mut uses = ports.clone();
                    for w in path.windows(2) {
                        uses.push(*arcs.get(&(w[0], w[1])).ok_or_else(|| {
                            format!(
                                "the arc {} -> {} is not a resource of the network",
                                t.node_label(w[0]),
                                t.node_label(w[1])
                            )
                        })?);
                    }
                    uses.sort_unstable();
                    uses.dedup();
                    hops.push(Hop {
                        from: u,
                        to: v,
                        own: path == own,
                        path,
                        uses,
                    });
                }
            }
        }
        Ok(Instance {
            nodes: n,
            packets: task.packets(n),
            hops,
            dist,
            wormhole,
        })
    }

    /// The fewest slots by distance: the farthest destination of any
    /// packet under store-and-forward; one under wormhole (where any
    /// packet must move at all). A lower bound the encoding assumes.
    pub fn distance_bound(&self) -> u32 {
        self.packets
            .iter()
            .flat_map(|p| {
                p.dests
                    .iter()
                    .map(move |&d| match (d == p.origin, self.wormhole) {
                        (true, _) => 0,
                        (false, true) => 1,
                        (false, false) => self.dist[p.origin as usize][d as usize],
                    })
            })
            .max()
            .unwrap_or(0)
    }
}

/// The route of a send `u -> v` (the network's own: one arc under
/// store-and-forward, its worm under wormhole), `None` where the network
/// has no such send, and an error where it reaches more than `v` (a bus
/// write): the optimal searches take point-to-point sends only.
pub fn point_to_point<T: Topology>(
    t: &T,
    u: NodeId,
    v: NodeId,
    wormhole: bool,
) -> Result<Option<Route>, String> {
    let route = t.message_route(u, v, wormhole);
    if t.invalid(&route).is_some() {
        return Ok(None);
    }
    let mut reached = Vec::new();
    t.receivers(&route, |r| reached.push(r));
    if reached != [v] {
        return Err(format!(
            "a send {} -> {} reaches more than its destination; the optimal searches take \
             point-to-point sends only",
            t.node_label(u),
            t.node_label(v)
        ));
    }
    Ok(Some(route))
}

/// Every shortest path from `u` to `v`, as nodes.
fn shortest_paths(
    adjacent: &[Vec<NodeId>],
    dist: &[Vec<u32>],
    u: NodeId,
    v: NodeId,
) -> Vec<Vec<NodeId>> {
    let mut out = Vec::new();
    let mut path = vec![u];
    fn walk(
        adjacent: &[Vec<NodeId>],
        dist: &[Vec<u32>],
        v: NodeId,
        path: &mut Vec<NodeId>,
        out: &mut Vec<Vec<NodeId>>,
    ) {
        let at = *path.last().expect("a path starts at its sender");
        if at == v {
            out.push(path.clone());
            return;
        }
        let mut next: Vec<NodeId> = adjacent[at as usize]
            .iter()
            .copied()
            .filter(|&w| dist[w as usize][v as usize] + 1 == dist[at as usize][v as usize])
            .collect();
        next.sort_unstable();
        next.dedup();
        for w in next {
            path.push(w);
            walk(adjacent, dist, v, path, out);
            path.pop();
        }
    }
    walk(adjacent, dist, v, &mut path, &mut out);
    out
}

/// Hops from `s` to every node (u32::MAX where unreachable).
pub fn hops_from(adjacent: &[Vec<NodeId>], s: NodeId) -> Vec<u32> {
    let mut d = vec![u32::MAX; adjacent.len()];
    d[s as usize] = 0;
    let mut queue = std::collections::VecDeque::from([s]);
    while let Some(u) = queue.pop_front() {
        for &v in &adjacent[u as usize] {
            if d[v as usize] == u32::MAX {
                d[v as usize] = d[u as usize] + 1;
                queue.push_back(v);
            }
        }
    }
    d
}
