//! `check schedule FILE`: a schedule from a file, on a network, checked by
//! the same engines and judged by the same properties as the catalogue
//! (docs/schedules.md).

use super::{check_deciding, CheckError, Engine, Options, Subject};
use crate::cost::bounds::{Cut, Machine};
use crate::cost::links::{LinkModel, Sent};
use crate::cost::{Cost, Model};
use crate::engine::lockstep::LockStep;
use crate::import::collective::Collective;
use crate::import::network::build;
use crate::import::{self, ImportError};
use crate::report::{Counterexample, Finder, Outcome, PropertyReport};
use models::catalog::{Config, Params};
use models::schedule::causal::{Speeds, Verdict};
use models::schedule::scheduled::{Scheduled, Stop};
use models::schedule::{Kind, Schedule};
use models::topology::parts::NodeKind;
use models::with_network;
use models::Protocol;
use models::{Graph, Ports, Switching, Topology};
use models::{Network, NetworkSpec};
use properties::{NodeId, Status};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The formats a schedule file may be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// commcheck's own (JSON).
    Commcheck,
    /// LogGOPSim's GOAL (text), for a collective named apart.
    Goal,
    /// msccl-tools' MSCCL-IR (XML).
    Msccl,
    /// A Chakra execution trace (protobuf, one file a rank).
    Chakra,
    /// An MSCCL++ execution plan (JSON).
    Mscclpp,
}

impl Format {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Commcheck => "commcheck",
            Format::Goal => "goal",
            Format::Msccl => "msccl",
            Format::Chakra => "chakra",
            Format::Mscclpp => "mscclpp",
        }
    }

    /// The format of `file` by its name: GOAL for `.goal`, MSCCL-IR for
    /// `.xml`, a Chakra trace for `.et`, a folder or the prefix of
    /// `FILE.0.et`, else commcheck's.
    pub fn guess(file: &std::path::Path) -> Format {
        let trace = || file.is_dir() || import::chakra::rank_file(file, 0).is_file();
        match file.extension().and_then(|e| e.to_str()) {
            Some("goal") => Format::Goal,
            Some("xml") => Format::Msccl,
            Some("et") => Format::Chakra,
            _ if trace() => Format::Chakra,
            _ => Format::Commcheck,
        }
    }
}

/// Where ranks go on the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Map {
    /// Rank r on node r.
    Identity,
    /// Rank r on node r xor (r >> 1) of the cube.
    Gray,
    /// The nodes listed in a JSON file, one per rank.
    File(PathBuf),
}

/// A schedule check as the command line asks for it.
#[derive(Clone, Debug)]
pub struct ScheduleRequest {
    /// The schedule file.
    pub file: PathBuf,
    /// Its format (None: guessed from the file's name).
    pub format: Option<Format>,
    /// The collective, for a format that does not state it (GOAL).
    pub collective: Option<Collective>,
    /// `--packet-bytes` (GOAL): a message is a packet a this many bytes
    /// or part (None: one packet).
    pub packet_bytes: Option<u64>,
    /// `--cost`: the cost model that also times the schedule.
    pub cost: Option<crate::cost::Model>,
    /// `--bytes`: a chunk's bytes, where the file gives no sizes.
    pub bytes: Option<u64>,
    /// `--network`.
    pub network: NetworkSpec,
    /// `--map`.
    pub map: Map,
    /// The switching technique.
    pub switching: Switching,
    /// The port model.
    pub ports: Ports,
    /// `--load`: report the link load, and do not claim contention-freedom.
    pub load: bool,
    /// `--all-orders`: explore every order of a slot's local work, not
    /// only the reduction's (the same ends, found the long way).
    pub all_orders: bool,
    /// `--no-reduction`: search every order in which competing sends take
    /// their ports, also where one run decides every claimed property
    /// (`Scheduled::one_run_decides`).
    pub no_reduction: bool,
    /// Engines and budgets.
    pub options: Options,
    /// The schedule itself, where it is not read from `file` (a
    /// catalogue run written as one); `file` then only names it.
    pub given: Option<Arc<Schedule>>,
}

impl ScheduleRequest {
    /// The check of `file` on `network` as the command line's defaults
    /// make it: format guessed, identity mapping, store-and-forward,
    /// all-port, contention-freedom claimed, default engines and budgets.
    pub fn new(file: impl Into<PathBuf>, network: NetworkSpec) -> ScheduleRequest {
        ScheduleRequest {
            file: file.into(),
            format: None,
            collective: None,
            packet_bytes: None,
            cost: None,
            bytes: None,
            network,
            map: Map::Identity,
            switching: Switching::Sf,
            ports: Ports::All,
            load: false,
            all_orders: false,
            no_reduction: false,
            options: Options::default(),
            given: None,
        }
    }

    /// The command line that checks this schedule (for titles and
    /// `reproduce with` lines).
    pub fn command(&self) -> String {
        let mut s = format!(
            "check schedule {} --network {}",
            self.file.display(),
            self.network
        );
        match &self.map {
            Map::Identity => {}
            Map::Gray => s += " --map gray",
            Map::File(f) => s += &format!(" --map {}", f.display()),
        }
        if let Some(f) = self.format {
            s += &format!(" --format {}", f.name());
        }
        if let Some(c) = self.collective.as_ref().and_then(Collective::arg) {
            s += &format!(" --collective {c}");
        }
        if let Some(b) = self.packet_bytes {
            s += &format!(" --packet-bytes {b}");
        }
        if let Some(m) = &self.cost {
            s += &format!(" --cost {m}");
        }
        if let Some(b) = self.bytes {
            s += &format!(" --bytes {b}");
        }
        if self.load {
            s += " --load";
        }
        if self.all_orders {
            s += " --all-orders";
        }
        if self.no_reduction {
            s += " --no-reduction";
        }
        s + &format!(" --switching {} --ports {}", self.switching, self.ports)
    }
}

/// The schedule `req` names, read in its format.
pub fn read_schedule(req: &ScheduleRequest) -> Result<Schedule, ImportError> {
    if let Some(given) = &req.given {
        return Ok(Schedule::clone(given));
    }
    let file = req.file.display().to_string();
    let format = req.format.unwrap_or(Format::guess(&req.file));
    if req.packet_bytes.is_some() && format != Format::Goal {
        return Err(ImportError::Usage(format!(
            "--packet-bytes sizes GOAL's messages; {file} gives no sizes in bytes (a chunk is a \
             packet)"
        )));
    }
    // Without --cost, --bytes sizes an MSCCL++ plan's pipelines alone.
    let untimed_bytes = req.bytes.is_some() && req.cost.is_none();
    let no_pipeline = ImportError::Usage(format!(
        "--bytes sizes a chunk for --cost, and for an MSCCL++ plan's pipelines; {file} has no \
         pipeline: give --cost to time it"
    ));
    if untimed_bytes && matches!(format, Format::Goal | Format::Chakra | Format::Msccl) {
        return Err(no_pipeline);
    }
    if format == Format::Chakra {
        return import::chakra::read(&req.file, req.collective.as_ref());
    }
    if format == Format::Goal {
        // GOAL is read a line at a time, the file never held whole.
        let input = std::fs::File::open(&req.file).map_err(|e| ImportError::Unreadable {
            file: file.clone(),
            why: e.to_string(),
        })?;
        let input = std::io::BufReader::with_capacity(1 << 16, input);
        return import::goal::read_from(input, &file, req.collective.as_ref(), req.packet_bytes);
    }
    let text = import::read(&req.file)?;
    let plan = format == Format::Mscclpp
        || (req.format.is_none() && format == Format::Commcheck && import::mscclpp::is_plan(&text));
    if untimed_bytes && !(plan && text.contains("\"iter_context\"")) {
        return Err(no_pipeline);
    }
    match (format, &req.collective) {
        (_, None) if plan => import::mscclpp::read(&text, &file, req.bytes),
        (Format::Msccl, None) => import::msccl::read(&text, &file),
        (_, None) => import::commcheck::read(&text, &file),
        (_, Some(_)) => Err(ImportError::Usage(format!(
            "{file} is in {}, which names its collective: --collective is for GOAL and Chakra \
             traces",
            match format {
                Format::Msccl => "MSCCL-IR",
                _ if plan => "an MSCCL++ plan",
                _ => "commcheck's format",
            }
        ))),
    }
}

/// The node of each of `ranks` ranks on `net` under `map`.
fn placement(map: &Map, ranks: u32, net: &Network) -> Result<Vec<NodeId>, ImportError> {
    let hosts = net.rank_nodes();
    let nodes = hosts.len() as u32;
    if ranks > nodes {
        return Err(ImportError::Usage(format!(
            "{ranks} ranks on {} of {nodes} {}: one rank a node",
            net.name(),
            match nodes == net.nodes() {
                true => "nodes",
                false => "nodes ranks run on",
            }
        )));
    }
    let place: Vec<NodeId> = match map {
        Map::Identity => hosts[..ranks as usize].to_vec(),
        Map::Gray => {
            if !matches!(net, Network::Cube(_)) {
                return Err(ImportError::Usage(
                    "--map gray places ranks on a hypercube's nodes; this network is not one"
                        .into(),
                ));
            }
            (0..ranks).map(|r| r ^ (r >> 1)).collect()
        }
        Map::File(path) => {
            let text = import::read(path)?;
            let file = path.display().to_string();
            let place = serde_json::from_str::<Vec<NodeId>>(&text)
                .map_err(|e| import::at_line(&file, &e))?;
            let refuse = |entry: Option<usize>, why: String| {
                let path: Vec<import::Step> = entry.map(import::Step::Item).into_iter().collect();
                import::at_field(&file, &text, &path, why)
            };
            if place.len() != ranks as usize {
                return Err(refuse(
                    None,
                    format!(
                        "lists {} node(s); the schedule has {ranks} ranks, one node each",
                        place.len()
                    ),
                ));
            }
            let mut placed: HashMap<NodeId, u32> = HashMap::new();
            for (r, &v) in place.iter().enumerate() {
                if v >= net.nodes() {
                    return Err(refuse(
                        Some(r),
                        format!(
                            "rank {r} (entry {}) is placed on node {v}; {} has nodes 0 to {}",
                            r + 1,
                            net.name(),
                            net.nodes() - 1
                        ),
                    ));
                }
                if let Some(q) = placed.insert(v, r as u32) {
                    return Err(refuse(
                        Some(r),
                        format!(
                            "ranks {q} and {r} (entries {} and {}) are placed on one node, {v}",
                            q + 1,
                            r + 1
                        ),
                    ));
                }
            }
            place
        }
    };
    let Network::Graph(g) = net else {
        return Ok(place);
    };
    let mut host = vec![false; g.nodes() as usize];
    hosts.iter().for_each(|&v| host[v as usize] = true);
    if let Some(&v) = place
        .iter()
        .find(|&&v| !host.get(v as usize).unwrap_or(&true))
    {
        return Err(ImportError::Usage(format!(
            "--map places a rank on {}, a {}: ranks run on {}",
            g.node_label(v),
            g.kind(v).name(),
            match hosts.first().is_some_and(|&h| g.kind(h).is_accelerator()) {
                true => "the accelerators",
                false => "nodes that are not switches",
            }
        )));
    }
    Ok(place)
}

/// A schedule ready to run: placed on its network, with its claims and
/// the subject reports name.
#[derive(Clone)]
pub struct Prepared {
    /// The schedule.
    pub schedule: Schedule,
    /// Its network (a cube or grid whose worms the schedule routes
    /// itself: the same network as a graph, [`routed`]).
    pub net: Network,
    /// The node of each rank.
    pub place: Vec<NodeId>,
    /// What reports call it.
    pub subject: Subject,
    /// The network's arcs and cuts, for the lower bounds
    /// ([`Network::arcs_and_cuts`], of the network as named).
    pub arcs_and_cuts: (Vec<(NodeId, NodeId)>, Vec<Vec<bool>>),
}

/// Runs `$body` with `$s` bound to the schedule `$req` names, placed on
/// its network with its lower bounds (a `Scheduled` of the network's
/// topology), and `$subject` to what reports call it; returns the
/// preparation's errors as `CheckError`s. Given a [`Prepared`] second,
/// runs on it rather than reading the file again.
#[macro_export]
macro_rules! with_scheduled {
    ($req:expr, |$s:ident, $subject:ident| $body:expr) => {{
        let prepared = $crate::check::schedule::prepare($req)?;
        $crate::with_scheduled!($req, prepared, |$s, $subject| $body)
    }};
    ($req:expr, $prepared:expr, |$s:ident, $subject:ident| $body:expr) => {{
        let prepared: $crate::check::schedule::Prepared = $prepared;
        let mut claims = models::schedule::scheduled::default_claims(&prepared.schedule);
        if $req.load {
            claims
                .claimed
                .retain(|&p| p != properties::PropertyName::ContentionFreedom);
        }
        let (arcs, cuts) = prepared.arcs_and_cuts;
        let $subject = prepared.subject;
        models::with_network!(prepared.net, |t| {
            let $s = models::schedule::scheduled::Scheduled::new(
                prepared.schedule,
                t,
                prepared.place,
                $req.switching,
                $req.ports,
                claims,
            )
            .map_err(|e| $crate::check::CheckError::Usage(e.to_string()))?
            .with_lower_bounds(&arcs, &cuts)
            .with_orders(match $req.all_orders {
                true => models::schedule::orders::Orders::Every,
                false => models::schedule::orders::Orders::Reduced,
            });
            $body
        })
    }};
}

/// `net` as a graph whose worms follow the schedule's `paths` (nodes,
/// each from its sender to its receiver) and, between every other pair
/// the schedule sends between, the network's own route: a cube's e-cube
/// route, a grid's dimension order. Two paths for one pair are refused.
fn routed(
    net: Network,
    schedule: &Schedule,
    place: &[NodeId],
    paths: Vec<Vec<NodeId>>,
    switching: Switching,
    ports: Ports,
) -> Result<Graph, CheckError> {
    let mut all = paths;
    let own = |from: NodeId, to: NodeId| -> Vec<NodeId> {
        with_network!(&net, |t| {
            models::Topology::path(t, &models::Topology::message_route(t, from, to, true))
        })
    };
    let base = match &net {
        Network::Graph(g) => g.clone(),
        Network::MeshBus(_) => {
            return Err(CheckError::Usage(
                "the schedule gives paths: a mesh-bus has buses, not paths".into(),
            ))
        }
        _ => {
            if switching == Switching::Wh {
                for op in &schedule.ops {
                    if let Kind::Send { to, path: None, .. } = &op.kind {
                        let (u, v) = (place[op.rank as usize], place[*to as usize]);
                        if !all
                            .iter()
                            .any(|p| p.first() == Some(&u) && p.last() == Some(&v))
                        {
                            all.push(own(u, v));
                        }
                    }
                }
            }
            let mut arcs = Vec::new();
            let names = with_network!(&net, |t| {
                models::Topology::links(t, |u, v| arcs.extend([(u, v), (v, u)]));
                (0..net.nodes())
                    .map(|v| models::Topology::node_label(t, v))
                    .collect()
            });
            Graph::new(&net.name(), net.nodes(), names, &arcs, switching, ports)
                .map_err(|e| CheckError::Usage(e.to_string()))?
        }
    };
    base.with_paths(all)
        .map_err(|e| CheckError::Usage(e.to_string()))
}

/// Reads, places and routes the schedule `req` names.
pub fn prepare(req: &ScheduleRequest) -> Result<Prepared, CheckError> {
    let schedule = read_schedule(req)?;
    let mut net = build(&req.network, req.switching, req.ports)?;
    let place = placement(&req.map, schedule.ranks, &net)?;
    let (family, n, sides) = (net.family(), net.size(), net.sides());
    let arcs_and_cuts = net.arcs_and_cuts();
    // Paths a schedule gives: on a graph they join it; a cube or grid
    // becomes the same network as a graph, routed as before elsewhere.
    let paths: Vec<Vec<NodeId>> = schedule
        .ops
        .iter()
        .filter_map(|op| match &op.kind {
            Kind::Send { path: Some(p), .. } => Some(p.clone()),
            _ => None,
        })
        .collect();
    if !paths.is_empty() {
        if let Some(bad) = place.iter().find(|&&v| v >= net.nodes()) {
            return Err(CheckError::Usage(format!(
                "a rank is placed on node {bad}; the network has {} nodes",
                net.nodes()
            )));
        }
        net = Network::Graph(routed(
            net,
            &schedule,
            &place,
            paths,
            req.switching,
            req.ports,
        )?);
    }
    let config = Config {
        n,
        switching: req.switching,
        ports: req.ports,
        params: Params {
            sides,
            ..Params::default()
        },
    };
    let subject = Subject {
        reproduce: Some(req.command()),
        ..Subject::new(&schedule.name, family, config)
    };
    Ok(Prepared {
        schedule,
        net,
        place,
        subject,
        arcs_and_cuts,
    })
}

/// Checks the schedule `req` names on its network, and times it under
/// the cost model it names. Reading, placing and routing a large file
/// takes seconds, so it is done under the budget as a catalogue model's
/// build is ([`super::done_within`]): where the budget or an interrupt
/// comes first, nothing is judged ([`CheckError::Unbuilt`]).
pub fn check_schedule(req: &ScheduleRequest) -> Result<Outcome, CheckError> {
    let start = std::time::Instant::now();
    let within = req.options.timeout;
    let ready = {
        let req = req.clone();
        move || prepare(&req).and_then(|p| Ok((time(&req, &p)?, p)))
    };
    let (cost, prepared) =
        super::done_within(ready, within).map_err(|why| CheckError::Unbuilt {
            what: format!("schedule {}", req.file.display()),
            why: why.into(),
        })??;
    // The check has what the reading left of the budget.
    let options = Options {
        timeout: within.map(|t| t.saturating_sub(start.elapsed())),
        ..req.options.clone()
    };
    if options.engine == Some(Engine::Actor) {
        return timing_free(req, prepared, cost);
    }
    let stop = Arc::new(budget_stop(&options));
    let (mut outcome, speeds) = crate::with_scheduled!(req, prepared, |scheduled, subject| {
        let speeds = scheduled.speeds();
        let decided = match req.no_reduction || req.load {
            true => 0,
            false => scheduled.one_run_decides(&speeds),
        };
        let scheduled = scheduled.with_stop(stop.clone());
        check_deciding(scheduled, &subject, &options, decided).map(|o| (o, speeds))
    })?;
    if stop.cut() {
        undecided_where_cut(&mut outcome);
    }
    outcome.properties.extend(speed_reports(speeds));
    outcome.cost = cost;
    Ok(outcome)
}

/// What stops a slot's listing of local orders: the time budget left in
/// `options` (or the default the search runs under where none was
/// given), the memory allowance (counted from here), `--max-states`
/// steps of one listing, or an interrupt.
fn budget_stop(options: &Options) -> Stop {
    use crate::engine::{memory, search};
    // Only a search lists orders (the executor takes the first), so the
    // default is a search's.
    let timeout = options.search_timeout(Engine::Exhaustive);
    // The executor's stop (Ctrl-C, a signal, the deadline), and memory.
    let progress = search::Progress {
        deadline: search::deadline(timeout),
        ..search::Progress::default()
    };
    let allowance = memory::allowance(options.max_memory);
    Stop::new(move |more| {
        progress.stop().is_some()
            || allowance.is_some_and(|a| memory::growth(a.base, a.address_space) + more > a.bytes)
    })
    .with_steps(options.max_states)
}

/// A search that listed some slot's local orders only in part decides
/// no "holds": each such verdict becomes unknown, saying why (its
/// violations stand: each was reached by a real order).
fn undecided_where_cut(outcome: &mut Outcome) {
    const WHY: &str = "the budget ran out while a slot's orders of local work were listed";
    for p in &mut outcome.properties {
        if p.status == Status::Holds {
            (p.status, p.reason) = (Status::Unknown, Some(WHY.into()));
        }
    }
    outcome
        .notes
        .push(format!("{WHY}: verdicts not reached are unknown"));
}

/// `--engine actor`: the schedule judged at every relative speed only,
/// its ranks running at their own speeds with no slots (the lock-step
/// properties, which are about slots, ports and links, are not judged).
fn timing_free(
    req: &ScheduleRequest,
    prepared: Prepared,
    cost: Option<Cost>,
) -> Result<Outcome, CheckError> {
    let start = std::time::Instant::now();
    let (speeds, (subject, network, inputs)) =
        crate::with_scheduled!(req, prepared, |scheduled, subject| {
            use models::{Inputs, ProtocolExt};
            let network = scheduled.topology().network();
            let task: Vec<String> = scheduled
                .domain()
                .all()
                .iter()
                .map(|i| scheduled.describe_input(i))
                .collect();
            Ok::<_, CheckError>((scheduled.speeds(), (subject, network, task)))
        })?;
    let properties: Vec<PropertyReport> = speed_reports(speeds).into();
    let reproduce = properties
        .iter()
        .any(|p| p.claimed && p.status == Status::Violated)
        .then(|| {
            subject
                .reproduce
                .as_ref()
                .map(|c| format!("{c} --engine actor"))
        })
        .flatten();
    Ok(Outcome {
        algorithm: subject.name.clone(),
        params: crate::report::Params {
            n: subject.config.n,
            switching: super::assemble::switching_name(req.switching).into(),
            ports: super::assemble::ports_name(req.ports).into(),
            network,
            ..Default::default()
        },
        engine: "actor (every relative speed)".into(),
        properties,
        inputs_checked: inputs.len(),
        inputs_total: inputs.len() as u64,
        inputs,
        cost,
        elapsed_ms: start.elapsed().as_millis(),
        notes: vec![
            "--engine actor judges the schedule at every relative speed only (race-freedom, \
             causal-completeness); completeness, contention, time and matching are about \
             slots, ports and links, judged in lock step (--engine exhaustive: both)"
                .into(),
        ],
        reproduce,
        ..Outcome::default()
    })
}

/// The timing-free semantics' verdicts as report lines: claimed where
/// judged (a schedule is meant to be right at every speed), an
/// observation where the schedule is outside it.
pub fn speed_reports(speeds: Speeds) -> [PropertyReport; 2] {
    [
        speed_report(RACE_FREEDOM, speeds.race_freedom),
        speed_report(CAUSAL_COMPLETENESS, speeds.causal_completeness),
    ]
}

/// One verdict of the timing-free semantics as property `name`'s line.
fn speed_report(name: &'static str, v: Verdict) -> PropertyReport {
    let mut r = PropertyReport {
        name,
        claimed: !matches!(v, Verdict::NotJudged(_)),
        status: Status::Holds,
        reason: None,
        counterexample: None,
        found_by: None,
        explorer_path: None,
    };
    match v {
        Verdict::Holds => {}
        Verdict::NotJudged(why) => (r.status, r.reason) = (Status::NotJudged, Some(why)),
        Verdict::Unknown(why) => (r.status, r.reason) = (Status::Unknown, Some(why)),
        Verdict::Violated {
            at,
            text,
            interleaving,
        } => {
            r.status = Status::Violated;
            r.found_by = Some(Finder::HappensBefore);
            r.counterexample = Some(
                Counterexample {
                    interleaving,
                    ..Counterexample::text(text)
                }
                .located(at),
            );
        }
    }
    r
}

/// The property that no two unordered operations of a rank access one
/// position, one writing ([`models::schedule::causal`]).
pub const RACE_FREEDOM: &str = "race-freedom";

/// The property that the collective's postcondition holds at every
/// relative speed ([`models::schedule::causal`]).
pub const CAUSAL_COMPLETENESS: &str = "causal-completeness";

/// The schedule `req` names (`prepared`), timed under its cost model
/// with the bounds beside (None without `--cost`).
pub fn time(req: &ScheduleRequest, prepared: &Prepared) -> Result<Option<Cost>, CheckError> {
    let usage = |e: crate::cost::CostError| CheckError::Usage(e.to_string());
    let Some(model) = &req.cost else {
        return Ok(None);
    };
    if req.packet_bytes.is_some() {
        return Err(CheckError::Usage(
            "--cost times a GOAL message whole: it does not take --packet-bytes".into(),
        ));
    }
    let ns = match model {
        Model::LogGops(p) => {
            crate::cost::loggops_time(&prepared.schedule, p, req.bytes).map_err(usage)?
        }
        Model::Links(m) => crate::with_scheduled!(req, prepared.clone(), |s, _subject| link_time(
            s, m, req.bytes
        ))?,
    };
    let mut cost = Cost::of(model, ns);
    let machine = machine_of(&prepared.net, &prepared.place, model);
    let bytes = req
        .bytes
        .filter(|_| prepared.schedule.ops.iter().all(|op| op.bytes == 0));
    cost.bound(crate::cost::bounds::bounds(
        &prepared.schedule,
        bytes,
        &machine,
    ));
    Ok(Some(cost))
}

/// What the bounds of `model` on `net` are made of: per placed rank, the
/// bandwidth of its links in and out (GB/s); the most hops between two
/// placed ranks; the smallest latency of a link (ns). Links that give
/// none take the model's; under LogGOPS a rank's bandwidth is its
/// interface's, 1/G, and a message's latency L + 2o.
fn machine_of(net: &Network, place: &[NodeId], model: &Model) -> Machine {
    let m = match model {
        Model::LogGops(p) => {
            let bw = match p.big_g {
                0 => f64::INFINITY,
                g => 1.0 / g as f64,
            };
            return Machine {
                bandwidth: vec![(bw, bw); place.len()],
                hops: (place.len() > 1) as u32,
                latency: (p.l + 2 * p.o) as f64,
                cuts: Vec::new(),
            };
        }
        Model::Links(m) => m,
    };
    let (arcs, attrs): (
        Vec<(NodeId, NodeId)>,
        Vec<Option<models::topology::parts::LinkAttrs>>,
    ) = match net {
        Network::Graph(g) => (
            g.arcs().to_vec(),
            g.attrs().iter().map(|a| Some(*a)).collect(),
        ),
        _ => {
            let arcs = net.arcs_and_cuts().0;
            let none = vec![None; arcs.len()];
            (arcs, none)
        }
    };
    let nodes = net.nodes() as usize;
    let mut into = vec![0.0; nodes];
    let mut out = vec![0.0; nodes];
    let mut latency = f64::INFINITY;
    for (&(u, v), a) in arcs.iter().zip(&attrs) {
        let bw = a.and_then(|a| a.bandwidth).unwrap_or(m.bandwidth);
        out[u as usize] += bw;
        into[v as usize] += bw;
        latency = latency.min(a.and_then(|a| a.latency).unwrap_or(m.latency));
    }
    if !latency.is_finite() {
        latency = m.latency;
    }
    // Hops between placed ranks, over nodes that forward.
    let mut next: Vec<Vec<NodeId>> = vec![Vec::new(); nodes];
    for &(u, v) in &arcs {
        next[u as usize].push(v);
    }
    let forwards = |v: NodeId| match net {
        Network::Graph(g) => g.forwards(v),
        _ => true,
    };
    let mut hops = 0;
    for &from in place {
        let mut dist = vec![u32::MAX; nodes];
        dist[from as usize] = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(u) = queue.pop_front() {
            if u != from && !forwards(u) {
                continue;
            }
            for &v in &next[u as usize] {
                if dist[v as usize] == u32::MAX {
                    dist[v as usize] = dist[u as usize] + 1;
                    queue.push_back(v);
                }
            }
        }
        for &to in place {
            if dist[to as usize] != u32::MAX {
                hops = hops.max(dist[to as usize]);
            }
        }
    }
    let bandwidth = place
        .iter()
        .map(|&v| (into[v as usize], out[v as usize]))
        .collect();
    // The network's own cuts, and on a machine each server (what stays
    // joined without its network switches) against the rest.
    let mut sides = net.arcs_and_cuts().1;
    if let Network::Graph(g) = net {
        let server = models::topology::layout::servers(&arcs, nodes, |v| {
            g.kind(v as NodeId) == NodeKind::Switch
        });
        let count = server
            .iter()
            .filter(|&&s| s != usize::MAX)
            .max()
            .map_or(0, |&s| s + 1);
        if count > 1 {
            sides.extend((0..count).map(|c| server.iter().map(|&s| s == c).collect()));
        }
    }
    let mut cuts = Vec::new();
    for side in &sides {
        let on = place.iter().filter(|&&v| side[v as usize]).count() as u32;
        let off = place.len() as u32 - on;
        for way in [true, false] {
            let bandwidth = arcs
                .iter()
                .zip(&attrs)
                .filter(|((u, v), _)| side[*u as usize] == way && side[*v as usize] != way)
                .map(|(_, a)| a.and_then(|a| a.bandwidth).unwrap_or(m.bandwidth))
                .sum();
            let (from, to) = if way { (on, off) } else { (off, on) };
            cuts.push(Cut {
                from,
                to,
                bandwidth,
            });
        }
    }
    Machine {
        bandwidth,
        hops,
        latency,
        cuts,
    }
}

/// Each rank's finishing time (ns) in the run the executor makes of `s`
/// (every choice at its first option), timed by the link model `m`.
fn link_time<T: Topology + 'static>(
    s: Scheduled<T>,
    m: &LinkModel,
    bytes: Option<u64>,
) -> Result<Vec<f64>, CheckError> {
    let sizes =
        crate::cost::sizes(s.schedule(), bytes).map_err(|e| CheckError::Usage(e.to_string()))?;
    let place = s.place().to_vec();
    // A schedule has one input, its own.
    let model = LockStep::new(Arc::new(s), vec![()]);
    let t = model.protocol.topology();
    let mut slots = Vec::new();
    model.first_choice_each(0, |state| {
        let sent = state.sent.iter().map(|tx| {
            let mut arcs = Vec::new();
            t.occupy(&tx.route, |r| {
                if t.arc_ends(r).is_some() {
                    arcs.push(r)
                }
            });
            let mut to = Vec::new();
            t.receivers(&tx.route, |v| to.push(v));
            // A get's request carries no data: its latency only.
            let op = &model.protocol.schedule().ops[tx.msg.op as usize];
            let request = !tx.msg.back
                && matches!(op.kind, models::schedule::Kind::Move { from, .. } if from.0 != op.rank);
            Sent {
                from: tx.route.from(),
                to,
                arcs,
                bytes: if request { 0 } else { sizes[tx.msg.op as usize] },
            }
        });
        slots.push(sent.collect());
        Ok::<_, CheckError>(())
    })?;
    let ns = crate::cost::links::finish_times(m, t.nodes(), &slots, |r| t.link_attrs(r));
    Ok(place.iter().map(|&v| ns[v as usize]).collect())
}
