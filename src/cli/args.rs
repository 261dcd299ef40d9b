//! The command line as clap reads it: every flag typed by a value enum or
//! a value parser, each parser beside the flag it reads and worded for the
//! person who typed it (one line: `main` prints a parser's message alone).
//!
//! One subcommand a command (`list`, `help`, `table`, `claims`,
//! `schedule`, `optimal`), each with the flags it takes, shared ones in
//! groups (`Budgets`, `Modes`, `Machine`, `Pictures`, `Printed`): a flag
//! a command does not take is refused by clap, and `cli::refusal` says so
//! in one line. An algorithm's name is any other first word: its command
//! line is read by [`AlgorithmArgs`] (`check nob 4`). A size, a table's
//! name and a paper stay text here and are typed by `cli::resolve`, where
//! what they mean is known.

use crate::check::schedule::{Format as ScheduleFormat, Map};
use crate::engine::{memory, Engine};
use crate::import::collective::Collective;
use crate::table;
use clap::{Args, Parser, Subcommand, ValueEnum};
use models::catalog::{Ports, Switching};
use models::NetworkSpec;
use std::path::PathBuf;

/// `--routes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RoutesArg {
    /// The network's own route: e-cube, dimension order, lowest-neighbour.
    Network,
    /// Any shortest path.
    Minimal,
    /// Any path (worms as flows on the arcs).
    Any,
}

/// `--method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// The exhaustive search for a broadcast on the network's own routes
    /// (up to 64 nodes), else SAT.
    Auto,
    /// SAT, its refutations checked as DRAT.
    Sat,
    /// The exhaustive search over informed sets (broadcasts, up to 64
    /// nodes, the network's own routes).
    Search,
}

impl From<MethodArg> for crate::optimal::least::Method {
    fn from(m: MethodArg) -> Self {
        match m {
            MethodArg::Auto => Self::Auto,
            MethodArg::Sat => Self::Sat,
            MethodArg::Search => Self::Search,
        }
    }
}

impl From<RoutesArg> for crate::optimal::task::Routes {
    fn from(r: RoutesArg) -> Self {
        match r {
            RoutesArg::Network => Self::Network,
            RoutesArg::Minimal => Self::Minimal,
            RoutesArg::Any => Self::Any,
        }
    }
}

/// Checks a communication algorithm exhaustively at small sizes, or runs it
/// once at large sizes, against the claims of its paper.
#[derive(Parser, Debug)]
#[command(
    name = "check",
    version,
    subcommand_required = true,
    // `--timeout -1` is a bad value of --timeout (said so), not a flag.
    allow_negative_numbers = true,
    // `check help ALG` is ours: an algorithm's page.
    disable_help_subcommand = true,
    override_usage = "check <ALGORITHM> <N> [OPTIONS]   (`check list` names the algorithms)\n       \
                      check <COMMAND> [ARGS] [OPTIONS]",
    after_help = "Examples:\n  check nob 4\n  check naive-tree 3 --source 0\n  \
                  check nob 24 --engine executor\n  check list\n  check help nob\n  \
                  check table wang-ku\n  check table bertsekas\n  check table stamoulis\n  check table fujita --max-side 64\n  check table lecture-bounds\n  check claims wang-ku\n  check mesh-sf 5x7 --ports one --source 2,3\n  check recursive-doubling 8x8 --torus\n\n\
                  `check ALG --help` or `check help ALG` describes one algorithm: its paper, \
                  claims, parameters, modes and engine reach.\n\n\
                  Exit codes: 0 claims hold, 1 a claim is violated, 2 usage error, \
                  3 unknown (budget, Ctrl-C, or a property the engine cannot judge)."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Sub,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Sub {
    /// Lists the algorithms, a line each
    List(ListArgs),
    /// Describes the commands, a command, or an algorithm: its paper, claims,
    /// parameters, modes and reach
    Help(HelpArgs),
    /// Prints a paper's table as the paper prints it, from runs
    #[command(allow_negative_numbers = true)]
    Table(TableArgs),
    /// Judges the papers' claims, one by one (the claims ledger)
    Claims(ClaimsArgs),
    /// Checks a schedule file (commcheck, GOAL, MSCCL-IR) on a network
    #[command(allow_negative_numbers = true)]
    Schedule(Box<ScheduleArgs>),
    /// Finds and certifies the least slots a task needs on a network
    #[command(allow_negative_numbers = true)]
    Optimal(OptimalArgs),
    /// An algorithm and its size (`check nob 4`; `check list` names them),
    /// read by `AlgorithmArgs`
    #[command(external_subcommand)]
    Algorithm(Vec<String>),
}

/// `check list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Each algorithm's paper, claim and modes too
    #[arg(long)]
    pub long: bool,
    /// markdown: the catalogue as docs/catalogue.md's table
    #[arg(long, value_name = "FORMAT", value_parser = table_format, conflicts_with = "long")]
    pub format: Option<table::Format>,
}

/// `check help [NAME]`.
#[derive(Args, Debug)]
pub struct HelpArgs {
    /// A command (list, table, claims, schedule, optimal) or an algorithm;
    /// none: the commands
    pub algorithm: Option<String>,
}

/// How a table or the ledger is printed.
#[derive(Args, Debug)]
pub struct Printed {
    /// text (the default), markdown, csv (one line per cell) or json
    /// (--json is the same)
    #[arg(long, value_name = "FORMAT", value_parser = table_format)]
    pub format: Option<table::Format>,
    #[command(flatten)]
    pub output: Output,
}

/// What a command prints: JSON, or text with or without progress.
#[derive(Args, Debug)]
pub struct Output {
    /// Print the report as one JSON object (no progress)
    #[arg(long)]
    pub json: bool,
    /// No progress on stderr
    #[arg(long, conflicts_with = "json")]
    pub quiet: bool,
}

/// `check table NAME`.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// The table (`check table` alone lists them)
    pub name: Option<String>,
    /// For `table fujita`: the largest side swept (a power of two, 4..=256)
    /// [default: 256]
    #[arg(long, value_name = "N", value_parser = max_side)]
    pub max_side: Option<u32>,
    /// For `table optimal`: each optimum's time, in seconds [default: 60];
    /// for `table fujita`: the whole table's, or `none` [default: 60]
    #[arg(long, value_name = "SECS", value_parser = check_timeout)]
    pub timeout: Option<u64>,
    #[command(flatten)]
    pub printed: Printed,
}

/// `check claims [PAPER]`.
#[derive(Args, Debug)]
pub struct ClaimsArgs {
    /// A paper: wang-ku, bertsekas, stamoulis, fujita, lecture-notes
    /// (default: all)
    pub paper: Option<String>,
    #[command(flatten)]
    pub printed: Printed,
}

/// `--cost`, `--bytes`: the run also timed, in microseconds.
#[derive(Args, Debug, Clone)]
pub struct Timing {
    /// Also time the run under a cost model, in microseconds:
    /// loggops[:L=2500,o=1500,g=1000,G=6,O=0,S=65535] (LogGOPSim's
    /// defaults), alpha-beta[:latency=500,bandwidth=50] or
    /// astra[:latency=500,bandwidth=50] (over the network's links; the
    /// parameters for links that give none) (docs/cost.md)
    #[arg(long, value_name = "MODEL", value_parser = cost_model)]
    pub cost: Option<crate::cost::Model>,
    /// The bytes of a chunk or packet, where the file gives no sizes
    /// (MSCCL-IR, MSCCL++, commcheck's format, the catalogue's
    /// algorithms): a send of k chunks is k x BYTES. It also sets how
    /// many iterations an MSCCL++ plan's pipelines run (with or without
    /// --cost)
    #[arg(long, value_name = "BYTES", value_parser = |t: &str| byte_count("--bytes", t))]
    pub bytes: Option<u64>,
}

/// The budgets of a check.
#[derive(Args, Debug)]
pub struct Budgets {
    /// Search threads and executor threads (1..=256)
    #[arg(long, value_parser = threads)]
    pub threads: Option<usize>,
    /// Stop an exhaustive search after this many generated states
    #[arg(long, value_name = "N", value_parser = max_states)]
    pub max_states: Option<u64>,
    /// Stop an exhaustive search or an executor run after this many seconds
    /// [default: a search stops after 60 s; `none`: runs to its end]
    #[arg(long, value_name = "SECS", value_parser = check_timeout)]
    pub timeout: Option<u64>,
    /// Memory the check may use, in GB [default: what the machine, its
    /// cgroup and ulimit -v allow, less a margin]
    #[arg(long, value_name = "GB", value_parser = max_memory)]
    pub max_memory: Option<u64>,
    /// Search on for the observed properties once every claimed property
    /// has its verdict (by default the search stops there)
    #[arg(long)]
    pub observe_all: bool,
}

/// The switching and port models.
#[derive(Args, Debug)]
pub struct Modes {
    /// Switching: wh (wormhole) or sf (store-and-forward)
    #[arg(long, value_enum)]
    pub switching: Option<SwitchingArg>,
    /// Port model: all or one
    #[arg(long, value_enum)]
    pub ports: Option<PortsArg>,
}

/// The machine: faults, delays and skew.
#[derive(Args, Debug)]
pub struct MachineArgs {
    /// A fault in every run: arc:U->V, link:U-V or node:V, nodes as the
    /// network labels them, optionally @SLOT (down from that slot on);
    /// may be repeated
    #[arg(long, value_name = "FAULT")]
    pub fault: Vec<String>,
    /// Check under every set of at most F failed links (exhaustive engines)
    #[arg(long, value_name = "F", value_parser = |t: &str| small("--faults", t, 8))]
    pub faults: Option<u32>,
    /// Check under every set of at most F failed arcs, one direction of a
    /// link each (exhaustive engines)
    #[arg(long, value_name = "F", value_parser = |t: &str| small("--arc-faults", t, 8))]
    pub arc_faults: Option<u32>,
    /// Check under every set of at most F crashed nodes (exhaustive engines)
    #[arg(long, value_name = "F", value_parser = |t: &str| small("--node-faults", t, 8))]
    pub node_faults: Option<u32>,
    /// Fail each link with probability P (0..1), drawn from --seed
    #[arg(long, value_name = "P", value_parser = |t: &str| probability("--random-faults", t))]
    pub random_faults: Option<f64>,
    /// Crash each node with probability P (0..1), drawn from --seed
    #[arg(long, value_name = "P", value_parser = |t: &str| probability("--random-node-faults", t))]
    pub random_node_faults: Option<f64>,
    /// The draw of --random-faults and --random-node-faults [default: 1]
    #[arg(long, value_name = "S", value_parser = |t: &str| number("--seed", t))]
    pub seed: Option<u64>,
    /// Any transmission may land up to D slots late, every choice explored
    /// (exhaustive engines)
    #[arg(long, value_name = "D", value_parser = |t: &str| small("--delay", t, 4))]
    pub delay: Option<u32>,
    /// Nodes start up to S slots apart, every way explored (exhaustive
    /// engines)
    #[arg(long, value_name = "S", value_parser = |t: &str| small("--skew", t, 4))]
    pub skew: Option<u32>,
}

/// Files of one run (the executor's).
#[derive(Args, Debug)]
pub struct Pictures {
    /// Write the picture of one slot of the run (from --source, else the
    /// first input) as SVG: the slot of its first violation, else its last
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// With --svg: the slot to draw
    #[arg(long, value_name = "K")]
    pub slot: Option<u32>,
    /// Write the run (as --svg picks it) as a Graphviz graph: an edge per
    /// delivery, labelled with its slot (networks up to 4096 nodes)
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    /// Write the run's resource use as an SVG heatmap, resources x slots:
    /// idle, busy, contended (up to 4096 resources and 1024 slots)
    #[arg(long, value_name = "FILE")]
    pub svg_load: Option<PathBuf>,
    /// Write the run as JSON lines, one per transmission: slot, sender,
    /// route, resources, payload, receivers (networks up to 65,536 nodes,
    /// runs up to 1,000,000 transmissions)
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
}

/// The engine, and the Explorer.
#[derive(Args, Debug)]
pub struct Engines {
    /// exhaustive (lock-step and actor model), lockstep, actor, or executor
    #[arg(long, value_enum)]
    pub engine: Option<EngineArg>,
    /// Serve the model in stateright's Explorer [default: 127.0.0.1:3000]
    #[arg(long, num_args = 0..=1, default_missing_value = "127.0.0.1:3000", value_name = "ADDR",
          conflicts_with = "json")]
    pub explore: Option<String>,
    #[command(flatten)]
    pub output: Output,
}

/// `check schedule FILE --network NET`.
#[derive(Args, Debug)]
pub struct ScheduleArgs {
    /// The schedule file
    pub file: Option<String>,
    /// The file's format: commcheck, goal, msccl, chakra or mscclpp
    /// (default: goal for a .goal file, msccl for .xml, chakra for .et, a
    /// folder or the prefix of FILE.0.et, mscclpp for JSON with `gpus`,
    /// else commcheck)
    #[arg(long, value_name = "FORMAT", value_parser = schedule_format)]
    pub format: Option<ScheduleFormat>,
    /// The network: hypercube:N, mesh:AxB, torus:AxB, mesh-bus:N, a
    /// machine (dgx1, dgx-a100[:K], dgx-h100[:K], mi300x[:K],
    /// npu-torus:AxB) or a file (graph:FILE, nccl-topo:FILE, astra:FILE)
    #[arg(long, value_name = "NETWORK", value_parser = network_spec)]
    pub network: Option<NetworkSpec>,
    /// Where ranks go, identity (rank r on node r), gray
    /// (the cube's Gray code) or a JSON file listing each rank's node
    #[arg(long, value_name = "MAP", value_parser = map)]
    pub map: Option<Map>,
    /// Of a GOAL file: what it computes, broadcast:ROOT,
    /// reduce:ROOT, scatter:ROOT, gather:ROOT, allgather, reduce-scatter,
    /// allreduce, alltoall or barrier
    #[arg(long, value_name = "COLLECTIVE", value_parser = Collective::parse)]
    pub collective: Option<Collective>,
    /// Of a GOAL file: a message is one packet a this many
    /// bytes or part (default: one packet a message)
    #[arg(long, value_name = "BYTES", value_parser = |t: &str| byte_count("--packet-bytes", t))]
    pub packet_bytes: Option<u64>,
    #[command(flatten)]
    pub timing: Timing,
    /// Report the link load (the most transmissions on
    /// one resource in one slot, and where) and do not claim
    /// contention-freedom
    #[arg(long)]
    pub load: bool,
    /// Explore every order in which a rank's local
    /// operations and arrivals of one slot may be taken, instead of one
    /// order for each set that differ only in independent ones (the same
    /// runs, found the long way; docs/schedules.md, "Orders")
    #[arg(long)]
    pub all_orders: bool,
    /// Search every order in which competing sends take their ports, also
    /// where one run decides every claimed property (a race-free schedule
    /// complete at every speed: docs/schedules.md, "One run for every
    /// order"); for the worst completion time
    #[arg(long)]
    pub no_reduction: bool,
    #[command(flatten)]
    pub engines: Engines,
    #[command(flatten)]
    pub modes: Modes,
    #[command(flatten)]
    pub budgets: Budgets,
    #[command(flatten)]
    pub machine: MachineArgs,
    #[command(flatten)]
    pub pictures: Pictures,
    /// Write the executor's run as MSCCL-IR (for MSCCL and RCCL): each
    /// send fixed to the slot it went in
    #[arg(long, value_name = "FILE")]
    pub write_msccl: Option<PathBuf>,
    /// Write the executor's run as an MSCCL++ plan: packet writes and
    /// reads, each send fixed to the slot it went in
    #[arg(long, value_name = "FILE")]
    pub write_mscclpp: Option<PathBuf>,
}

/// `check optimal TASK NETWORK`.
#[derive(Args, Debug)]
pub struct OptimalArgs {
    /// The task: broadcast[:ROOT], allgather, scatter[:ROOT], gather[:ROOT]
    /// or alltoall
    pub task: Option<String>,
    /// The network: hypercube:N, mesh:AxB, torus:AxB, mesh-bus:N or
    /// graph:FILE (as `check schedule --network` takes it)
    #[arg(value_name = "NETWORK", value_parser = network_spec)]
    pub network_arg: Option<NetworkSpec>,
    /// The network, as the second argument gives it
    #[arg(long, value_name = "NETWORK", conflicts_with = "network_arg", value_parser = network_spec)]
    pub network: Option<NetworkSpec>,
    #[command(flatten)]
    pub modes: Modes,
    /// Under wormhole: the network's own route
    /// (network), any shortest path (minimal) or any path (any)
    #[arg(long, value_enum)]
    pub routes: Option<RoutesArg>,
    /// How the optimum is found and certified
    #[arg(long, value_enum)]
    pub method: Option<MethodArg>,
    /// Also the fewest packet transmissions at the
    /// optimal time (Bertsekas et al.'s Table 2)
    #[arg(long)]
    pub fewest_transmissions: bool,
    /// Tokens a bus write carries (a mesh-bus network)
    #[arg(long, value_name = "L", value_parser = |t: &str| number("--ell", t))]
    pub ell: Option<u64>,
    /// Stop after this many seconds, or `none` [default: 60]
    #[arg(long, value_name = "SECS", value_parser = check_timeout)]
    pub timeout: Option<u64>,
    /// The most slots tried (default 16)
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_slots: Option<u32>,
    /// Write the optimum's witness as a schedule in commcheck's format
    /// (for `check schedule FILE`)
    #[arg(long, value_name = "FILE")]
    pub write_schedule: Option<PathBuf>,
    /// Write the optimum's witness as MSCCL-IR (for MSCCL and RCCL)
    #[arg(long, value_name = "FILE")]
    pub write_msccl: Option<PathBuf>,
    /// Write the optimum's witness as an MSCCL++ plan
    #[arg(long, value_name = "FILE")]
    pub write_mscclpp: Option<PathBuf>,
    #[command(flatten)]
    pub output: Output,
}

/// `check ALG SIZE`: an algorithm of the catalogue.
#[derive(Parser, Debug)]
#[command(name = "check", allow_negative_numbers = true)]
pub struct AlgorithmArgs {
    /// The algorithm (`check list` names them)
    pub algorithm: String,
    /// The size: a hypercube's dimension n, a mesh-bus's side, a mesh's
    /// sides (5x7; 16 alone is the line M(16))
    pub size: Option<String>,
    /// Source node: on a cube decimal, or binary with 0b; on a mesh or
    /// torus coordinates counted from 0 (2,3) or a node id; default: one
    /// source per symmetry orbit
    #[arg(long, value_parser = node_text)]
    pub source: Option<NodeText>,
    /// Check every source instead of one per symmetry orbit
    #[arg(long)]
    pub all_sources: bool,
    /// Check every K the algorithm takes, one report per K (algorithms
    /// that take --k)
    #[arg(long, conflicts_with_all = ["k", "broadcasters", "all_ell"])]
    pub all_k: bool,
    /// Check every l the algorithm takes, one report per l (the mesh-bus
    /// algorithms)
    #[arg(long, conflicts_with = "ell")]
    pub all_ell: bool,
    /// Number of simultaneous broadcasts (algorithms that take it; `check
    /// help ALG` lists an algorithm's parameters)
    #[arg(long, value_name = "K", value_parser = |t: &str| number("--k", t))]
    pub k: Option<u64>,
    /// Tokens per bus message (algorithms that take it)
    #[arg(long, value_name = "L", value_parser = |t: &str| number("--ell", t))]
    pub ell: Option<u64>,
    /// The broadcasting nodes, comma-separated (algorithms that take it)
    #[arg(long, value_name = "NODES", value_parser = broadcasters)]
    pub broadcasters: Option<Broadcasters>,
    /// A node may broadcast several packets: listed as many times in
    /// --broadcasters, or every K-multiset with --k (algorithms that take it)
    #[arg(long)]
    pub multiset: bool,
    /// Report the distribution over random draws (kbcast-random): the
    /// drawn quantity beside the paper's bound, and the completion time
    #[arg(long)]
    pub distribution: bool,
    /// The torus of the given sides rather than the mesh (algorithms that
    /// take it)
    #[arg(long)]
    pub torus: bool,
    #[command(flatten)]
    pub engines: Engines,
    #[command(flatten)]
    pub modes: Modes,
    #[command(flatten)]
    pub budgets: Budgets,
    #[command(flatten)]
    pub machine: MachineArgs,
    #[command(flatten)]
    pub pictures: Pictures,
    #[command(flatten)]
    pub timing: Timing,
    /// Write the run as a schedule in commcheck's format: each
    /// transmission a send fixed to its slot, the task written out as
    /// postconditions (for `check schedule FILE`)
    #[arg(long, value_name = "FILE")]
    pub write_schedule: Option<PathBuf>,
    /// Write the run as a GOAL schedule (LogGOPSim): each rank's sends and
    /// receives in slot order, each send after the receives before it
    #[arg(long, value_name = "FILE")]
    pub write_goal: Option<PathBuf>,
    /// Write the run as MSCCL-IR (for MSCCL and RCCL): a threadblock per
    /// peer, dependencies where steps share a chunk, each send's slot kept
    #[arg(long, value_name = "FILE")]
    pub write_msccl: Option<PathBuf>,
    /// Write the run as an MSCCL++ plan: a thread block per peer, packet
    /// writes and reads, semaphores where steps share a chunk
    #[arg(long, value_name = "FILE")]
    pub write_mscclpp: Option<PathBuf>,
}

fn small(flag: &str, text: &str, most: u64) -> Result<u32, String> {
    match number(flag, text)? {
        v if v <= most => Ok(v as u32),
        v => Err(format!("{flag} {v} is out of range: accepted 0..={most}")),
    }
}

fn probability(flag: &str, text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!(
            "{flag} '{text}' is not a probability: accepted 0 to 1, such as 0.01"
        )),
    }
}

/// `--engine`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum EngineArg {
    /// The lock-step model, and the actor model within its reach.
    Exhaustive,
    /// The lock-step model only.
    Lockstep,
    /// The asynchronous (actor) model only.
    Actor,
    /// One deterministic run.
    Executor,
}

impl From<EngineArg> for Engine {
    fn from(e: EngineArg) -> Engine {
        match e {
            EngineArg::Exhaustive => Engine::Exhaustive,
            EngineArg::Lockstep => Engine::Lockstep,
            EngineArg::Actor => Engine::Actor,
            EngineArg::Executor => Engine::Executor,
        }
    }
}

/// `--switching`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SwitchingArg {
    /// Wormhole.
    Wh,
    /// Store-and-forward.
    Sf,
}

impl From<SwitchingArg> for Switching {
    fn from(s: SwitchingArg) -> Switching {
        match s {
            SwitchingArg::Wh => Switching::Wh,
            SwitchingArg::Sf => Switching::Sf,
        }
    }
}

/// `--ports`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PortsArg {
    /// All-port (MLA).
    All,
    /// One-port (SLA).
    One,
}

impl From<PortsArg> for Ports {
    fn from(p: PortsArg) -> Ports {
        match p {
            PortsArg::All => Ports::All,
            PortsArg::One => Ports::One,
        }
    }
}

/// A `--source` as typed: numbers separated by commas (a node id, or a
/// mesh's coordinates), or `0b` and bits; what it names is the network's
/// to say (`cli::resolve`), and text that is neither is kept to be
/// refused there in the network's words.
#[derive(Clone, Debug)]
pub enum NodeText {
    /// Comma-separated numbers: one is a node id, several are coordinates.
    Numbers(Vec<u64>),
    /// `0b` followed by bits: a cube node.
    Bits(u64),
    /// Neither, as typed.
    Neither(String),
}

fn node_text(text: &str) -> Result<NodeText, String> {
    if let Some(bits) = text.strip_prefix("0b") {
        if let Ok(v) = u64::from_str_radix(bits, 2) {
            return Ok(NodeText::Bits(v));
        }
    }
    let numbers: Result<Vec<u64>, _> = text.split(',').map(|t| t.trim().parse()).collect();
    Ok(match numbers {
        Ok(n) => NodeText::Numbers(n),
        Err(_) => NodeText::Neither(text.to_string()),
    })
}

/// `--broadcasters 0,5,6` (or `0b101`): the node ids as given.
#[derive(Clone, Debug)]
pub struct Broadcasters(pub Vec<u32>);

fn broadcasters(list: &str) -> Result<Broadcasters, String> {
    list.split(',')
        .map(|t| {
            let t = t.trim();
            let parsed = match t.strip_prefix("0b") {
                Some(bits) => u32::from_str_radix(bits, 2),
                None => t.parse(),
            };
            parsed.map_err(|_| {
                format!(
                    "--broadcasters: '{t}' is not a node number (a comma-separated list such \
                     as 0,5,6, or 0b101)"
                )
            })
        })
        .collect::<Result<_, _>>()
        .map(Broadcasters)
}

fn number(flag: &str, text: &str) -> Result<u64, String> {
    let cut: String = text.chars().take(40).collect();
    text.parse()
        .map_err(|e: std::num::ParseIntError| match e.kind() {
            std::num::IntErrorKind::PosOverflow => {
                format!("{flag} '{cut}' is too large: at most {}", u64::MAX)
            }
            _ => format!("{flag} '{cut}' is not a whole number 0 or more"),
        })
}

fn threads(text: &str) -> Result<usize, String> {
    match number("--threads", text)? {
        t @ 1..=256 => Ok(t as usize),
        t => Err(format!("--threads {t} is out of range: accepted 1..=256")),
    }
}

fn max_states(text: &str) -> Result<u64, String> {
    match number("--max-states", text)? {
        0 => Err("--max-states 0 is out of range: accepted 1 and more".into()),
        m => Ok(m),
    }
}

fn timeout(text: &str) -> Result<u64, String> {
    match number("--timeout", text)? {
        0 => Err("--timeout 0 is out of range: accepted 1 second and more".into()),
        t => Ok(t),
    }
}

/// A check's `--timeout`: seconds, or `none` (no limit, u64::MAX, which
/// is no deadline: too far to add to the clock).
fn check_timeout(text: &str) -> Result<u64, String> {
    match text {
        "none" => Ok(u64::MAX),
        _ => timeout(text),
    }
}

fn max_memory(text: &str) -> Result<u64, String> {
    memory::parse_gb(text).ok_or_else(|| {
        format!(
            "--max-memory '{text}' is not a size in GB: accepted a number above 0, such as 2 \
             or 0.5"
        )
    })
}

/// `--max-side N`: the sides `check table fujita` sweeps end at N.
fn max_side(text: &str) -> Result<u32, String> {
    let sides = table::fujita::SIDES;
    let accepted = sides.map(|n| n.to_string()).join(", ");
    let n: u32 = text
        .parse()
        .map_err(|_| format!("--max-side {text} is not a side; accepted: {accepted}"))?;
    match sides.contains(&n) {
        true => Ok(n),
        false => Err(format!(
            "--max-side {n}: the table sweeps powers of two from 4 to 256 (where PARTITION \
             and CENTRALIZE are complete); accepted: {accepted}"
        )),
    }
}

/// `--format` of a table, the ledger or the list.
fn table_format(text: &str) -> Result<table::Format, String> {
    table::Format::parse(text).ok_or_else(|| {
        format!(
            "--format '{text}' is not a table's format: accepted {}",
            table::Format::NAMES.join(", ")
        )
    })
}

/// `--format` of a schedule file.
fn schedule_format(text: &str) -> Result<ScheduleFormat, String> {
    match text {
        "commcheck" => Ok(ScheduleFormat::Commcheck),
        "goal" => Ok(ScheduleFormat::Goal),
        "msccl" => Ok(ScheduleFormat::Msccl),
        "chakra" => Ok(ScheduleFormat::Chakra),
        "mscclpp" => Ok(ScheduleFormat::Mscclpp),
        _ => Err(format!(
            "--format '{text}' is not a schedule's format: accepted commcheck, goal, msccl, \
             chakra, mscclpp"
        )),
    }
}

/// `--network`: a network's name, checked for form (its files are read
/// when the check starts).
fn network_spec(text: &str) -> Result<NetworkSpec, models::topology::SpecError> {
    text.parse()
}

/// `--cost`: a cost model and its parameters.
fn cost_model(text: &str) -> Result<crate::cost::Model, String> {
    text.parse()
}

/// `--packet-bytes`, `--bytes` (`flag`): at least one byte.
fn byte_count(flag: &str, text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(b) if b > 0 => Ok(b),
        _ => Err(format!("{flag} {text}: a number of bytes, 1 or more")),
    }
}

/// `--map`.
fn map(text: &str) -> Result<Map, String> {
    Ok(match text {
        "identity" => Map::Identity,
        "gray" => Map::Gray,
        file => Map::File(PathBuf::from(file)),
    })
}
