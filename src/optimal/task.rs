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

/// Most nodes `check optimal` takes: it keeps every pair's distance and
/// routes (8192 nodes: 2^26 pairs, a quarter of a GB of distances).
pub const MOST_NODES: u32 = 1 << 13;

/// Why text names no task, or a network has no transmissions the
/// optimal searches take: one line for the person who asked.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum TaskError {
    /// Stopped (the timeout) while the routes were listed.
    #[error("stopped (a budget or an interrupt) while listing every pair's routes")]
    Stopped,
    /// A network too large for a table of every pair of nodes.
    #[error(
        "{nodes} nodes: check optimal lists the routes of every pair of nodes, on at most \
         {MOST_NODES} nodes"
    )]
    TooLarge {
        /// The network's nodes.
        nodes: u32,
    },
    /// A root that is not a number.
    #[error("task {text}: '{root}' is not a node number")]
    Root {
        /// The task as given.
        text: String,
        /// The root as given.
        root: String,
    },
    /// A root the network does not have.
    #[error("task {text}: node {node} is not among the {nodes} nodes")]
    RootOutOfRange {
        /// The task as given.
        text: String,
        /// The root.
        node: NodeId,
        /// The network's nodes.
        nodes: u32,
    },
    /// A root given to a task without one.
    #[error("task {text}: {name} has no root")]
    Unrooted {
        /// The task as given.
        text: String,
        /// Its name.
        name: String,
    },
    /// A name that is not a task's.
    #[error("unknown task '{name}'; accepted: {TASKS}")]
    Unknown {
        /// The name given.
        name: String,
    },
    /// `--routes` on a mesh-bus.
    #[error("--routes is for worms; a mesh-bus has buses")]
    RoutesOnBus,
    /// A bus write the network refuses.
    #[error("a write on bus {bus}: {why}")]
    BusWrite {
        /// The bus's name.
        bus: String,
        /// What the network says.
        why: String,
    },
    /// A path over an arc the network has no resource for.
    #[error("the arc {from} -> {to} is not a resource of the network")]
    NotAResource {
        /// The arc's first node, labelled.
        from: String,
        /// Its second.
        to: String,
    },
    /// A send that reaches more than its destination.
    #[error(
        "a send {from} -> {to} reaches more than its destination; the optimal searches take \
         point-to-point sends only"
    )]
    NotPointToPoint {
        /// The sender, labelled.
        from: String,
        /// The destination, labelled.
        to: String,
    },
}

impl Task {
    /// Reads `broadcast:3`, `mnb`, `te`, ...; the root defaults to node 0.
    pub fn parse(text: &str, nodes: u32) -> Result<Task, TaskError> {
        let (name, root) = match text.split_once(':') {
            Some((name, root)) => {
                let r: NodeId = root.parse().map_err(|_| TaskError::Root {
                    text: text.to_string(),
                    root: root.to_string(),
                })?;
                if r >= nodes {
                    return Err(TaskError::RootOutOfRange {
                        text: text.to_string(),
                        node: r,
                        nodes,
                    });
                }
                (name, Some(r))
            }
            None => (text, None),
        };
        let rooted = |make: fn(NodeId) -> Task| Ok(make(root.unwrap_or(0)));
        let unrooted = |task: Task| match root {
            Some(_) => Err(TaskError::Unrooted {
                text: text.to_string(),
                name: name.to_string(),
            }),
            None => Ok(task),
        };
        match name {
            "broadcast" => rooted(Task::Broadcast),
            "scatter" => rooted(Task::Scatter),
            "gather" => rooted(Task::Gather),
            "allgather" | "mnb" => unrooted(Task::Allgather),
            "alltoall" | "te" => unrooted(Task::Alltoall),
            _ => Err(TaskError::Unknown {
                name: name.to_string(),
            }),
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
    /// Any path: the worms of a slot are arc-disjoint walks, encoded as
    /// flows on the arcs rather than as enumerated paths.
    Any,
}

impl Routes {
    /// Its name as `--routes` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Routes::Network => "network",
            Routes::Minimal => "minimal",
            Routes::Any => "any",
        }
    }
}

/// One transmission a slot may carry: packets from `from` to `to` over
/// `path`, taking `uses`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hop {
    /// The sender.
    pub from: NodeId,
    /// The receivers, sorted: one over a link or a worm, every other node
    /// on the bus for a bus write.
    pub to: Vec<NodeId>,
    /// The nodes it crosses, sender to receiver (a worm's; a link's two
    /// ends; empty for a bus write).
    pub path: Vec<NodeId>,
    /// Whether `path` is the network's own route (a schedule file need not
    /// name it).
    pub own: bool,
    /// The resources it takes for its slot, sorted: its arcs (or its
    /// bus), and under one-port its sender's out-port and its receiver's
    /// in-port.
    pub uses: Vec<ResourceId>,
}

/// The arcs of a network, for worms on any path (`--routes any`).
#[derive(Clone, Debug)]
pub struct Flows {
    /// Every arc: its tail, its head, its resource.
    pub arcs: Vec<(NodeId, NodeId, ResourceId)>,
    /// One-port: a node starts at most one worm a slot and ends at most
    /// one.
    pub one_port: bool,
}

/// A task on a network, as the encoding sees it.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Nodes, numbered from 0.
    pub nodes: u32,
    /// The task's packets.
    pub packets: Vec<Packet>,
    /// Every transmission a slot may carry (under `--routes any`, none
    /// of the worms: those are `flows`).
    pub hops: Vec<Hop>,
    /// Worms on any path, as flows on these arcs.
    pub flows: Option<Flows>,
    /// Slots from node to node (u32::MAX where unreachable): hops over
    /// links or bus writes.
    pub dist: Vec<Vec<u32>>,
    /// Worms (a transmission crosses any number of arcs in its slot)
    /// rather than one arc (or one bus) a slot.
    pub wormhole: bool,
    /// The most packets one transmission carries: one over links; a bus
    /// write carries up to l tokens (Fujita's l, `--ell`).
    pub per_message: u32,
    /// Per node, the most receivers its transmissions of one slot reach,
    /// and the most transmissions that reach it in one slot (for the
    /// lower bounds).
    fan_out: Vec<u32>,
    fan_in: Vec<u32>,
    /// Arcs of the network (0 on a mesh-bus).
    arc_count: u32,
    /// Buses of the network (0 over links).
    bus_count: u32,
}

/// A lower bound on the slots of an instance, and the argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    /// No schedule has fewer slots.
    pub slots: u32,
    /// Why, in one sentence with its numbers.
    pub why: String,
}

impl Bound {
    /// The argument's name: `growth bound`, `receive bound`, ...
    pub fn brief(&self) -> String {
        match self.why.split_once(':') {
            Some(("none", _)) => "none".into(),
            Some((name, _)) if !name.contains(' ') => format!("{name} bound"),
            _ => "one slot is the least".into(),
        }
    }
}

impl Instance {
    /// `task` on `t`, its transmissions as the topology's run semantics
    /// makes them ([`Topology::message_route`], [`Topology::occupy`]):
    /// under store-and-forward one arc to a neighbour; under wormhole a
    /// worm to any node, on the network's own route, on every shortest
    /// path or on any path (`routes`), taking the arcs it crosses and the
    /// ports its own route takes; on a mesh-bus a write on a bus, read by
    /// every other node on it, taking the bus.
    pub fn new<T: Topology>(
        t: &T,
        task: Task,
        wormhole: bool,
        routes: Routes,
    ) -> Result<Instance, TaskError> {
        Self::until(t, task, wormhole, routes, &super::Stop::default())
    }

    /// [`Instance::new`], ended by `stop` (its routes are listed for
    /// every pair of nodes: on a large network, seconds) with
    /// [`TaskError::Stopped`]; refused where a table of every pair of
    /// nodes would not fit ([`MOST_NODES`]).
    pub fn until<T: Topology>(
        t: &T,
        task: Task,
        wormhole: bool,
        routes: Routes,
        stop: &super::Stop,
    ) -> Result<Instance, TaskError> {
        let n = t.nodes();
        if n > MOST_NODES {
            return Err(TaskError::TooLarge { nodes: n });
        }
        let buses = t.buses();
        // The arcs as resources, by their ends.
        let mut arcs: HashMap<(NodeId, NodeId), ResourceId> = HashMap::new();
        for r in 0..t.resources() {
            if let Some(ends) = t.arc_ends(r) {
                arcs.insert(ends, r);
            }
        }
        let mut adjacent = vec![Vec::new(); n as usize];
        let mut hops = Vec::new();
        if !buses.is_empty() {
            if routes != Routes::Network {
                return Err(TaskError::RoutesOnBus);
            }
            for bus in &buses {
                for &u in &bus.nodes {
                    let Some(&v) = bus.nodes.iter().find(|&&v| v != u) else {
                        continue;
                    };
                    let route = t.message_route(u, v, false);
                    if let Some(why) = t.invalid(&route) {
                        return Err(TaskError::BusWrite {
                            bus: bus.name.clone(),
                            why,
                        });
                    }
                    let mut to = Vec::new();
                    t.receivers(&route, |r| to.push(r));
                    let mut uses = Vec::new();
                    t.occupy(&route, |r| uses.push(r));
                    to.sort_unstable();
                    uses.sort_unstable();
                    adjacent[u as usize].extend(to.iter().copied());
                    hops.push(Hop {
                        from: u,
                        to,
                        path: Vec::new(),
                        own: true,
                        uses,
                    });
                }
            }
        } else {
            t.links(|u, v| {
                adjacent[u as usize].push(v);
                adjacent[v as usize].push(u);
            });
        }
        let wormhole = wormhole && buses.is_empty();
        let mut dist: Vec<Vec<u32>> = Vec::with_capacity(n as usize);
        for s in 0..n {
            if stop.stopped() {
                return Err(TaskError::Stopped);
            }
            dist.push(hops_from(&adjacent, s));
        }
        let mut flows = None;
        if buses.is_empty() {
            for u in 0..n {
                if stop.stopped() {
                    return Err(TaskError::Stopped);
                }
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
                    if wormhole && routes == Routes::Any {
                        // Worms are flows; the ports tell one-port apart.
                        let f = flows.get_or_insert_with(|| Flows {
                            arcs: Vec::new(),
                            one_port: false,
                        });
                        f.one_port |= !ports.is_empty();
                        continue;
                    }
                    let paths = match (wormhole, routes) {
                        (true, Routes::Minimal) => shortest_paths(&adjacent, &dist, u, v),
                        _ => vec![own.clone()],
                    };
                    for path in paths {
                        let mut uses = ports.clone();
                        for w in path.windows(2) {
                            uses.push(*arcs.get(&(w[0], w[1])).ok_or_else(|| {
                                TaskError::NotAResource {
                                    from: t.node_label(w[0]),
                                    to: t.node_label(w[1]),
                                }
                            })?);
                        }
                        uses.sort_unstable();
                        uses.dedup();
                        hops.push(Hop {
                            from: u,
                            to: vec![v],
                            own: path == own,
                            path,
                            uses,
                        });
                    }
                }
            }
        }
        let mut arc_list: Vec<(NodeId, NodeId, ResourceId)> =
            arcs.iter().map(|(&(u, v), &r)| (u, v, r)).collect();
        arc_list.sort_unstable();
        if let Some(f) = flows.as_mut() {
            f.arcs = arc_list.clone();
        }
        // Fan-out and fan-in a slot. Over links: a node's transmissions
        // each leave over one of its out-arcs and arrive over one of its
        // in-arcs; where every transmission of a node shares a resource
        // (a one-port node's port), one. On a mesh-bus: one write a bus.
        let mut fan_out = vec![0u32; n as usize];
        let mut fan_in = vec![0u32; n as usize];
        let one_port = flows.as_ref().is_some_and(|f| f.one_port);
        if buses.is_empty() {
            for &(u, v, _) in &arc_list {
                fan_out[u as usize] += 1;
                fan_in[v as usize] += 1;
            }
            for u in 0..n {
                let from = hops.iter().filter(|h| h.from == u).map(|h| &h.uses[..]);
                if one_port || share_a_resource(from) {
                    fan_out[u as usize] = fan_out[u as usize].min(1);
                }
                let into = hops
                    .iter()
                    .filter(|h| h.to.contains(&u))
                    .map(|h| &h.uses[..]);
                if one_port || share_a_resource(into) {
                    fan_in[u as usize] = fan_in[u as usize].min(1);
                }
            }
        } else {
            // A write reaches its bus's other nodes; a node reads every
            // bus it is on, one write a bus.
            for h in &hops {
                fan_out[h.from as usize] += h.to.len() as u32;
            }
            for bus in &buses {
                for &v in &bus.nodes {
                    fan_in[v as usize] += 1;
                }
            }
        }
        Ok(Instance {
            nodes: n,
            packets: task.packets(n),
            hops,
            flows,
            dist,
            wormhole,
            per_message: 1,
            fan_out,
            fan_in,
            arc_count: arc_list.len() as u32,
            bus_count: buses.len() as u32,
        })
    }

    /// The same instance with bus writes that carry up to `ell` packets.
    pub fn carrying(mut self, ell: u32) -> Instance {
        self.per_message = ell.max(1);
        self
    }

    /// The same instance with only the worms that cross at most `arcs`
    /// arcs: fewer variables, so a witness may be found sooner; a
    /// witness of it is one of the whole instance, a refutation is not.
    pub fn shorter(&self, arcs: usize) -> Instance {
        let mut short = self.clone();
        short.hops.retain(|h| h.path.len() <= arcs + 1);
        short
    }

    /// The slots packet `p` needs to reach `v` by distance: the hops (or
    /// bus writes) between them; one for a worm; none where it starts.
    pub fn earliest(&self, p: &Packet, v: NodeId) -> u32 {
        match (v == p.origin, self.wormhole) {
            (true, _) => 0,
            (false, true) => 1,
            (false, false) => self.dist[p.origin as usize][v as usize],
        }
    }

    /// The greatest of the lower bounds the task's counting arguments
    /// give (docs/optimal.md, "Lower bounds"), each sound for every
    /// schedule of the model:
    /// * distance: a packet reaches a node no sooner than [`Self::earliest`];
    /// * growth: a packet's holders at most multiply by 1 + F a slot,
    ///   where a node's transmissions of one slot reach at most F nodes;
    /// * receiving: a node receives at most its fan-in times the packets
    ///   a message carries a slot, and must receive every packet it ends
    ///   with and did not start with;
    /// * sending: likewise a node must send every packet it starts with
    ///   that some other node needs;
    /// * arcs: over links, a packet crosses at least its distance in arcs
    ///   to one destination, and at least one arc per destination; the
    ///   network's arcs carry at most one packet each a slot;
    /// * sends: over links, the nodes start at most their fan-outs'
    ///   sum of transmissions a slot (one a node under one-port), each one
    ///   arc crossed under store-and-forward, one receipt under wormhole;
    /// * writes: on a mesh-bus, a packet needs at least as many writes as
    ///   its new holders over the most one write reaches, and the buses
    ///   carry at most one write of l packets each a slot (Fujita's
    ///   Theorem 2, for any task).
    pub fn lower_bound(&self) -> Bound {
        let n = self.nodes as usize;
        let mut best = Bound {
            slots: 0,
            why: "every packet starts where it must end".into(),
        };
        let mut offer = |slots: u32, why: String| {
            if slots > best.slots {
                best = Bound { slots, why };
            }
        };
        // Distance.
        for p in &self.packets {
            for &d in &p.dests {
                let e = self.earliest(p, d);
                if e == u32::MAX {
                    offer(
                        u32::MAX,
                        format!("node {d} cannot be reached from node {}", p.origin),
                    );
                } else {
                    offer(
                        e,
                        match self.wormhole {
                            true => format!("a packet of node {} must move to node {d}", p.origin),
                            false => format!(
                                "distance: node {d} is {e} hops from node {}, where a packet it \
                                 needs starts",
                                p.origin
                            ),
                        },
                    );
                }
            }
        }
        // Growth: the origin's own fan-out in the first slot, then at
        // most the greatest.
        let f = u64::from(self.fan_out.iter().copied().max().unwrap_or(0));
        for p in &self.packets {
            let mut need: Vec<NodeId> = p.dests.clone();
            need.push(p.origin);
            need.sort_unstable();
            need.dedup();
            let need = need.len() as u64;
            let first = u64::from(self.fan_out[p.origin as usize]);
            let (mut have, mut t) = (1u64, 0u32);
            let mut steps = Vec::new();
            while have < need && f > 0 {
                have = match t {
                    0 => 1 + first,
                    _ => have.saturating_mul(1 + f),
                };
                t += 1;
                steps.push(have);
            }
            if t > 1 {
                offer(
                    t,
                    format!(
                        "growth: node {}'s transmissions of a slot reach at most {first} nodes \
                         and any node's at most {f}, so at most {} hold a packet of node {} after \
                         slots 1 to {}, fewer than the {need} that must",
                        p.origin,
                        steps[..steps.len() - 1]
                            .iter()
                            .map(u64::to_string)
                            .collect::<Vec<_>>()
                            .join(", "),
                        p.origin,
                        t - 1
                    ),
                );
            }
        }
        // Receiving and sending.
        let mut gets = vec![0u64; n];
        let mut gives = vec![0u64; n];
        for p in &self.packets {
            for &d in p.dests.iter().filter(|&&d| d != p.origin) {
                gets[d as usize] += 1;
            }
            if p.dests.iter().any(|&d| d != p.origin) {
                gives[p.origin as usize] += 1;
            }
        }
        let per = u64::from(self.per_message);
        for v in 0..n {
            for (count, fan, verb) in [
                (gets[v], self.fan_in[v], "receive"),
                (gives[v], self.fan_out[v], "send"),
            ] {
                let fan = u64::from(fan) * per;
                if count > 0 && fan > 0 {
                    offer(
                        count.div_ceil(fan) as u32,
                        format!(
                            "{verb}: node {v} must {verb} {count} packets, at most {fan} a slot"
                        ),
                    );
                }
            }
        }
        // Arcs.
        if self.arc_count > 0 {
            let crossings: u64 = self
                .packets
                .iter()
                .map(|p| {
                    let far = p
                        .dests
                        .iter()
                        .map(|&d| self.dist[p.origin as usize][d as usize])
                        .filter(|&d| d != u32::MAX)
                        .max()
                        .unwrap_or(0);
                    let new = p.dests.iter().filter(|&&d| d != p.origin).count() as u32;
                    u64::from(far.max(new))
                })
                .sum();
            let arcs = u64::from(self.arc_count);
            offer(
                crossings.div_ceil(arcs) as u32,
                format!(
                    "arcs: the packets must cross at least {crossings} arcs, at most {arcs} a slot"
                ),
            );
            // Sends: a node starts at most its fan-out of transmissions a
            // slot (one under one-port); under store-and-forward each
            // crosses one arc, a worm gives one new holder.
            let sends: u64 = self.fan_out.iter().map(|&f| u64::from(f)).sum();
            let (needed, what) = match self.wormhole {
                false => (crossings, "arcs crossed, one a transmission"),
                true => (self.fewest_transmissions(), "receipts, one a worm"),
            };
            if sends > 0 && sends < arcs {
                offer(
                    needed.div_ceil(sends) as u32,
                    format!(
                        "sends: the packets need at least {needed} transmissions ({what}), the \
                         nodes start at most {sends} a slot"
                    ),
                );
            }
        }
        // Writes.
        if self.bus_count > 0 {
            let writes = self.fewest_transmissions();
            let per_slot = u64::from(self.bus_count) * per;
            offer(
                writes.div_ceil(per_slot) as u32,
                format!(
                    "writes: the packets need at least {writes} bus writes of one packet, the \
                     {} buses carry at most {per_slot} a slot",
                    self.bus_count
                ),
            );
        }
        best
    }

    /// The fewest packet transmissions (a packet over one hop) any
    /// schedule makes: every destination that does not start with a
    /// packet receives it, a worm or a link reaching one node and a bus
    /// write at most a bus's other nodes; under store-and-forward a packet
    /// for one destination crosses at least its distance.
    pub fn fewest_transmissions(&self) -> u64 {
        let reach = self
            .hops
            .iter()
            .map(|h| h.to.len() as u64)
            .max()
            .unwrap_or(1);
        self.packets
            .iter()
            .map(|p| {
                let new = p.dests.iter().filter(|&&d| d != p.origin).count() as u64;
                match (self.wormhole, p.dests.as_slice()) {
                    (false, [d]) if self.arc_count > 0 => {
                        u64::from(self.dist[p.origin as usize][*d as usize])
                    }
                    _ => new.div_ceil(reach.max(1)),
                }
            })
            .sum()
    }
}

/// Whether some resource is taken by every one of these transmissions (a
/// one-port node's port): then at most one of them a slot, which is the
/// fan-out (fan-in) rule of the counting bounds, for [`Instance`] and the
/// exhaustive search alike. None at all shares nothing.
pub fn share_a_resource<'a>(mut uses: impl Iterator<Item = &'a [ResourceId]>) -> bool {
    let Some(first) = uses.next() else {
        return false;
    };
    let mut common = first.to_vec();
    for u in uses {
        common.retain(|r| u.contains(r));
    }
    !common.is_empty()
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
) -> Result<Option<Route>, TaskError> {
    let route = t.message_route(u, v, wormhole);
    if t.invalid(&route).is_some() {
        return Ok(None);
    }
    let mut reached = Vec::new();
    t.receivers(&route, |r| reached.push(r));
    if reached != [v] {
        return Err(TaskError::NotPointToPoint {
            from: t.node_label(u),
            to: t.node_label(v),
        });
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
