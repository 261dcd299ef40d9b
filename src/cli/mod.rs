//! The front half of `check`: the command line read once ([`args`]) and
//! resolved once into a typed [`Command`] ([`resolve`]), which `main`
//! runs. Every refusal is one line; the checks themselves live with the
//! request (`commcheck::check::Request`), so nothing is validated twice.

pub mod args;
pub mod help;

use anyhow::{anyhow, bail};
use args::{Cli, FormatArg, NodeText};
use commcheck::check::machine::Machine;
use commcheck::check::schedule::{Map, ScheduleRequest};
use commcheck::check::{Options, Request};
use commcheck::engine::Engine;
use commcheck::table::{self, Table};
use models::catalog::{Algorithm, Params};
use models::{Grid, Ports, Shape, Switching, Topology};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

/// What `check` was asked to do, typed.
pub enum Command {
    /// `check list`: a line each, or `long`, or the Markdown table.
    List {
        /// Paper, claim and modes under each name.
        long: bool,
        /// The catalogue as docs/catalogue.md's table.
        markdown: bool,
    },
    /// `check help ALG`, `check ALG --help`.
    Help(Algorithm),
    /// `check table NAME`.
    Table {
        /// Which table.
        table: Table,
        /// How to print it.
        format: table::Format,
        /// `--max-side` (the Fujita sweep).
        max_side: Option<u32>,
        /// `--timeout`: each optimum's (`check table optimal`).
        timeout: Option<Duration>,
        /// Show the sweep's progress on stderr.
        progress: bool,
    },
    /// `check claims [PAPER]`: the claims ledger.
    Claims {
        /// The papers whose claims are judged.
        papers: Vec<commcheck::claims::Paper>,
        /// How to print it.
        format: table::Format,
        /// Show which claim is being judged on stderr.
        progress: bool,
    },
    /// `--svg`, `--dot`, `--svg-load`, `--trace`, `--write-schedule`,
    /// `--write-goal`: files of one run, of an algorithm or a schedule.
    Export(Exported, Exports),
    /// `--explore`: serve the model in stateright's Explorer.
    Explore(Request, String),
    /// A check, or one per K or l of a sweep, printed as text or JSON.
    Check(Vec<Request>, bool),
    /// `check schedule FILE`, printed as text or JSON.
    Schedule(ScheduleRequest, bool),
    /// `check schedule FILE --explore`.
    ExploreSchedule(ScheduleRequest, String),
    /// `check optimal TASK NETWORK`, printed as text or JSON.
    Optimal(commcheck::check::optimal::OptimalRequest, bool),
}

/// What exports are made of, owned.
pub enum Exported {
    /// A catalogue algorithm.
    Algorithm(Request),
    /// A schedule file (`--write-*` do not apply).
    Schedule(ScheduleRequest),
}

impl Exported {
    /// The same, borrowed, as the exports take it.
    pub fn of(&self) -> commcheck::show::export::Of<'_> {
        match self {
            Exported::Algorithm(r) => commcheck::show::export::Of::Algorithm(r),
            Exported::Schedule(r) => commcheck::show::export::Of::Schedule(r),
        }
    }
}

/// The files `--svg`, `--dot`, `--svg-load` and `--trace` ask for.
#[derive(Default)]
pub struct Exports {
    /// `--svg FILE [--slot K]`.
    pub svg: Option<(PathBuf, Option<u32>)>,
    /// `--dot FILE`.
    pub dot: Option<PathBuf>,
    /// `--svg-load FILE`.
    pub svg_load: Option<PathBuf>,
    /// `--trace FILE`.
    pub trace: Option<PathBuf>,
    /// `--write-schedule FILE`.
    pub write_schedule: Option<PathBuf>,
    /// `--write-goal FILE`.
    pub write_goal: Option<PathBuf>,
}

impl Exports {
    /// True if any file is asked for.
    pub fn any(&self) -> bool {
        self.svg.is_some()
            || self.dot.is_some()
            || self.svg_load.is_some()
            || self.trace.is_some()
            || self.write_schedule.is_some()
            || self.write_goal.is_some()
    }
}

/// Broadcasts the lecture notes name but describe too thinly to encode:
/// the names, what they are, why not, and the errata item.
const UNENCODED: [(&[&str], &str, &str, u32); 2] = [
    (
        &["eds"],
        "the extended-dominating-set broadcast",
        "its dominating nodes and paths are in a figure, not in the text",
        17,
    ),
    (
        &["recursive-tiling", "tiling"],
        "the recursive-tiling broadcast",
        "its tiles' sources and paths are in a figure, not in the text",
        18,
    ),
];

/// Resolves the command line into what to do; every refusal is one line.
pub fn resolve(cli: Cli) -> anyhow::Result<Command> {
    let no_more = |what: &str| -> anyhow::Result<()> {
        match &cli.arg {
            Some(extra) => bail!("`check {what}` takes no argument; got '{extra}'"),
            None => Ok(()),
        }
    };
    let table = (cli.target == "table" || cli.target == "claims")
        .then(|| cli.arg.as_deref().map(Table::parse));
    if cli.target == "schedule" {
        return schedule(&cli);
    }
    if cli.target == "optimal" {
        return optimal(&cli);
    }
    if cli.network_arg.is_some() {
        bail!(
            "`check {}` takes one argument; got also '{}'",
            cli.target,
            cli.network_arg.as_deref().unwrap_or_default()
        );
    }
    if cli.routes.is_some()
        || cli.max_slots.is_some()
        || cli.method.is_some()
        || cli.fewest_transmissions
    {
        bail!(
            "--routes, --method, --fewest-transmissions and --max-slots are for `check optimal \
             TASK NETWORK`"
        );
    }
    if cli.network.is_some()
        || cli.map.is_some()
        || cli.collective.is_some()
        || cli.packet_bytes.is_some()
    {
        bail!("--network, --map, --collective and --packet-bytes are for `check schedule FILE`");
    }
    if cli.all_orders {
        bail!("--all-orders is for `check schedule FILE`");
    }
    if cli.load {
        bail!(
            "--load is for `check schedule FILE`: an algorithm's claims are its paper's (its \
             report gives the link load wherever two transmissions share a resource)"
        );
    }
    if cli.max_side.is_some()
        && (cli.target != "table" || !matches!(table, Some(Some(Some(Table::Fujita)))))
    {
        bail!("--max-side is for `check table fujita`");
    }
    if cli.timeout.is_some()
        && (cli.target == "claims"
            || (cli.target == "table" && !matches!(table, Some(Some(Some(Table::Optimal))))))
    {
        bail!("--timeout is for a check, `check optimal` and `check table optimal`");
    }
    if let Some(FormatArg::Schedule(f)) = cli.format {
        bail!(
            "--format {} is a schedule's format: for `check schedule FILE`",
            f.name()
        );
    }
    if cli.long && cli.target != "list" {
        bail!("--long is for `check list`");
    }
    if cli.format.is_some() && table.is_none() && cli.target != "list" {
        bail!("--format is for `check table NAME`; a check's report takes --json");
    }
    match cli.target.as_str() {
        "list" => {
            no_more("list")?;
            let markdown = match cli.format {
                None | Some(FormatArg::Table(table::Format::Text)) => false,
                Some(FormatArg::Table(table::Format::Markdown)) if !cli.long => true,
                _ => bail!("`check list` prints text, or with --format markdown its table"),
            };
            return Ok(Command::List {
                long: cli.long,
                markdown,
            });
        }
        "help" => {
            let name = cli
                .arg
                .as_deref()
                .ok_or_else(|| anyhow!("`check help` names an algorithm: `check help nob`"))?;
            return Ok(Command::Help(Algorithm::parse(name)?));
        }
        "table" | "claims" => {
            let format = match (
                cli.format.map(|f| match f {
                    FormatArg::Table(t) => t,
                    FormatArg::Schedule(_) => table::Format::Text,
                }),
                cli.json,
            ) {
                (None, false) => table::Format::Text,
                (None, true) | (Some(table::Format::Json), _) => table::Format::Json,
                (Some(f), false) => f,
                (Some(f), true) => {
                    bail!("--json prints the table as JSON; it does not take --format {f}")
                }
            };
            if cli.target == "claims" {
                use commcheck::claims::Paper;
                let papers = match cli.arg.as_deref() {
                    None => Paper::ALL.to_vec(),
                    Some(name) => vec![Paper::parse(name).ok_or_else(|| {
                        anyhow!(
                            "unknown paper '{name}'; accepted: {}",
                            Paper::NAMES.join(", ")
                        )
                    })?],
                };
                return Ok(Command::Claims {
                    papers,
                    format,
                    progress: std::io::stderr().is_terminal() && !cli.quiet,
                });
            }
            let table = match cli.arg.as_deref().map(Table::parse) {
                Some(Some(table)) => table,
                other => bail!(
                    "unknown table {}; accepted: {}",
                    match other {
                        None => "(none given)".to_string(),
                        Some(_) => format!("'{}'", cli.arg.as_deref().unwrap_or_default()),
                    },
                    Table::NAMES.join(", ")
                ),
            };
            return Ok(Command::Table {
                table,
                format,
                max_side: cli.max_side,
                timeout: cli.timeout.map(Duration::from_secs),
                progress: std::io::stderr().is_terminal() && !cli.quiet,
            });
        }
        _ => {}
    }
    if let Some((_, what, why, item)) = UNENCODED
        .iter()
        .find(|(names, ..)| names.contains(&cli.target.as_str()))
    {
        bail!(
            "{what} is not encoded: the lecture notes give its round counts, but {why} \
             (docs/errata.md, item {item})"
        );
    }
    let algorithm =
        Algorithm::parse(&cli.target).map_err(|e| match help::suggest(&cli.target) {
            Some(s) => anyhow!("{e} (did you mean '{s}'?)"),
            None => e.into(),
        })?;
    let req = request(&cli, algorithm)?;
    let exports = exports(&cli)?;
    let engine = req.options.engine;
    if exports.any() {
        if cli.json {
            bail!(
                "--svg, --dot, --svg-load, --trace and --write-* write files; they do not print \
                 a --json report"
            );
        }
        if matches!(engine, Some(Engine::Actor | Engine::Exhaustive)) || cli.explore.is_some() {
            bail!(
                "--svg, --dot, --svg-load, --trace and --write-* show the executor's run; they \
                 take neither --explore nor --engine {}",
                engine.map_or("", Engine::name)
            );
        }
        return Ok(Command::Export(Exported::Algorithm(req), exports));
    }
    if let Some(addr) = &cli.explore {
        if engine == Some(Engine::Executor) {
            bail!(
                "--explore serves the lock-step model (or with --engine actor the actor \
                 model); it does not take --engine executor"
            );
        }
        if cli.json {
            bail!("--explore serves a web page; it does not print a --json report");
        }
        return Ok(Command::Explore(req, addr.clone()));
    }
    Ok(Command::Check(sweep(&cli, req)?, cli.json))
}

/// The request the command line names for `algorithm`, validated by the
/// request's own constructors.
fn request(cli: &Cli, algorithm: Algorithm) -> anyhow::Result<Request> {
    let shape = algorithm.shape();
    let ((min, max), word) = (shape.sizes(), shape.size_word());
    let size = cli.arg.as_deref().ok_or_else(|| match shape {
        Shape::Grid { .. } => anyhow!(
            "missing the sides: `check {} 5x7` (each side at least {min}; 16 alone is the line \
             M(16))",
            cli.target
        ),
        _ => anyhow!(
            "missing the {word} n: `check {} N` with N in {min}..={max}",
            cli.target
        ),
    })?;
    let sides = match shape {
        Shape::Grid { torus } => {
            let sides = models::topology::grid::parse_sides(size, torus || cli.torus)
                .map_err(|why| anyhow!("{}: {why}", algorithm.name()))?;
            if algorithm == Algorithm::DilatedDiagonal {
                if let Some(why) = models::lecture_notes::dilated_diagonal::check_sides(&sides) {
                    bail!("{why}");
                }
            }
            Some(sides)
        }
        _ => None,
    };
    let n: u64 = match &sides {
        Some(sides) => *sides.iter().max().expect("at least one side") as u64,
        None => size.parse().map_err(|_| {
            if !size.is_empty() && size.bytes().all(|b| b.is_ascii_digit()) {
                anyhow!(
                    "{word} {size} is out of range for {}: accepted {min}..={max}",
                    algorithm.name()
                )
            } else {
                anyhow!("{word} '{size}' is not a number: accepted {min}..={max}")
            }
        })?,
    };
    let params = Params {
        k: cli.k,
        ell: cli.ell,
        broadcasters: cli.broadcasters.clone().map(|b| b.0),
        multiset: cli.multiset,
        sides,
        torus: cli.torus,
        source: None,
    };
    let mut req = Request::new(
        algorithm,
        n,
        cli.switching.map(Into::into),
        cli.ports.map(Into::into),
    )?
    .with_params(params)?;
    req.options = options(cli, req.options.threads);
    match &cli.source {
        None => Ok(req),
        Some(text) => {
            let source = match req.grid() {
                Some(grid) => grid_node(&grid, text)?,
                None => cube_node(&req, text)?,
            };
            Ok(req.with_source(source)?)
        }
    }
}

/// A `--source` on a cube (or a network without coordinates): one number.
fn cube_node(req: &Request, text: &NodeText) -> anyhow::Result<u64> {
    match text {
        NodeText::Bits(v) => Ok(*v),
        NodeText::Numbers(n) if n.len() == 1 => Ok(n[0]),
        NodeText::Numbers(_) | NodeText::Neither(_) => {
            let typed = match text {
                NodeText::Neither(t) => t.clone(),
                _ => format!("{text:?}"),
            };
            match req.algorithm.shape() {
                Shape::Cube => bail!(
                    "source '{typed}' is not a node number: accepted 0..={} (or 0b followed by \
                     bits)",
                    (1u64 << req.config.n) - 1
                ),
                _ => bail!(
                    "{} gossips from every node: it has no single source, so --source does not \
                     apply",
                    req.algorithm.name()
                ),
            }
        }
    }
}

/// A `--source` on a mesh or torus: coordinates counted from 0 (`2,3`)
/// or a node id.
fn grid_node(grid: &Grid, text: &NodeText) -> anyhow::Result<u64> {
    let name = grid.name();
    let numbers = match text {
        NodeText::Numbers(n) => n,
        NodeText::Bits(_) | NodeText::Neither(_) => bail!(
            "source '{}' is neither coordinates (such as {}) nor a node id of {name}",
            match text {
                NodeText::Neither(t) => t.clone(),
                _ => format!("{text:?}"),
            },
            vec!["0"; grid.dims()].join(",")
        ),
    };
    let typed = numbers
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    match numbers.len() {
        1 if grid.dims() > 1 || numbers[0] < grid.nodes() as u64 => Ok(numbers[0]),
        k if k == grid.dims() => {
            for (i, (&a, &z)) in numbers.iter().zip(grid.sides()).enumerate() {
                if a >= z as u64 {
                    bail!(
                        "source ({typed}) is outside {name}: coordinate {} is {a}, accepted \
                         0..={}",
                        i + 1,
                        z - 1
                    );
                }
            }
            let coords: Vec<u32> = numbers.iter().map(|&a| a as u32).collect();
            Ok(grid.node(&coords) as u64)
        }
        k => bail!(
            "source '{typed}' has {k} coordinates; {name} has {}",
            grid.dims()
        ),
    }
}

/// `--all-k`, `--all-ell`: one request per value in the algorithm's range,
/// in order; else the one request.
fn sweep(cli: &Cli, req: Request) -> anyhow::Result<Vec<Request>> {
    let algorithm = req.algorithm;
    let values = |flag: &str, all: &str| -> anyhow::Result<std::ops::RangeInclusive<u64>> {
        let Some(p) = algorithm.info().params.iter().find(|p| p.flag == flag) else {
            bail!("{} does not take {flag}, so not {all}", algorithm.name());
        };
        let (lo, hi) = (p.range)(req.config.n);
        Ok(lo..=hi)
    };
    let with = |k: Option<u64>, ell: Option<u64>| -> anyhow::Result<Request> {
        let params = Params {
            k: k.or(req.config.params.k),
            ell: ell.or(req.config.params.ell),
            ..req.config.params.clone()
        };
        Ok(req.clone().with_params(params)?)
    };
    match (cli.all_k, cli.all_ell) {
        (true, true) => bail!("--all-k and --all-ell exclude each other"),
        (true, false) => {
            if cli.k.is_some() || cli.broadcasters.is_some() {
                bail!("--all-k checks every K: it excludes --k and --broadcasters");
            }
            values("--k", "--all-k")?
                .map(|k| with(Some(k), None))
                .collect()
        }
        (false, true) => {
            if cli.ell.is_some() {
                bail!("--all-ell checks every l: it excludes --ell");
            }
            values("--ell", "--all-ell")?
                .map(|l| with(None, Some(l)))
                .collect()
        }
        (false, false) => Ok(vec![req]),
    }
}

/// The files the command line asks for.
fn exports(cli: &Cli) -> anyhow::Result<Exports> {
    if cli.slot.is_some() && cli.svg.is_none() {
        bail!("--slot picks the slot --svg draws; give --svg FILE too");
    }
    Ok(Exports {
        svg: cli.svg.clone().map(|f| (f, cli.slot)),
        dot: cli.dot.clone(),
        svg_load: cli.svg_load.clone(),
        trace: cli.trace.clone(),
        write_schedule: cli.write_schedule.clone(),
        write_goal: cli.write_goal.clone(),
    })
}

/// The engines, budgets and output the command line asks for.
fn options(cli: &Cli, threads: usize) -> Options {
    Options {
        all_sources: cli.all_sources,
        engine: cli.engine.map(Into::into),
        threads: cli.threads.unwrap_or(threads),
        max_states: cli.max_states,
        timeout: cli.timeout.map(Duration::from_secs),
        max_memory: cli.max_memory,
        progress: !cli.json && !cli.quiet && std::io::stderr().is_terminal(),
        announce: !cli.json && !cli.quiet,
        distribution: cli.distribution,
        source: None,
        machine: machine(cli),
    }
}

/// The machine the command line describes (`--fault`, `--delay`, ...).
fn machine(cli: &Cli) -> Machine {
    Machine {
        faults: cli.fault.clone(),
        link_faults: cli.faults,
        arc_faults: cli.arc_faults,
        node_faults: cli.node_faults,
        random_links: cli.random_faults,
        random_nodes: cli.random_node_faults,
        seed: cli.seed.unwrap_or(1),
        delay: cli.delay.unwrap_or(0),
        skew: cli.skew.unwrap_or(0),
    }
}

/// `check schedule FILE --network NET`: what it takes, typed; what it
/// does not take is refused by name.
/// Every flag that only some commands take, and whether it was given.
fn flags_given(cli: &Cli) -> Vec<(bool, &'static str)> {
    vec![
        (cli.source.is_some(), "--source"),
        (cli.all_sources, "--all-sources"),
        (cli.all_k, "--all-k"),
        (cli.all_ell, "--all-ell"),
        (cli.engine.is_some(), "--engine"),
        (cli.explore.is_some(), "--explore"),
        (cli.threads.is_some(), "--threads"),
        (cli.max_states.is_some(), "--max-states"),
        (cli.timeout.is_some(), "--timeout"),
        (cli.max_memory.is_some(), "--max-memory"),
        (cli.k.is_some(), "--k"),
        (cli.ell.is_some(), "--ell"),
        (cli.broadcasters.is_some(), "--broadcasters"),
        (cli.multiset, "--multiset"),
        (cli.distribution, "--distribution"),
        (cli.max_side.is_some(), "--max-side"),
        (cli.format.is_some(), "--format"),
        (cli.map.is_some(), "--map"),
        (cli.collective.is_some(), "--collective"),
        (cli.packet_bytes.is_some(), "--packet-bytes"),
        (cli.torus, "--torus"),
        (cli.svg.is_some(), "--svg"),
        (cli.slot.is_some(), "--slot"),
        (cli.dot.is_some(), "--dot"),
        (cli.svg_load.is_some(), "--svg-load"),
        (cli.trace.is_some(), "--trace"),
        (cli.load, "--load"),
        (cli.all_orders, "--all-orders"),
        (cli.write_goal.is_some(), "--write-goal"),
        (!cli.fault.is_empty(), "--fault"),
        (cli.faults.is_some(), "--faults"),
        (cli.arc_faults.is_some(), "--arc-faults"),
        (cli.node_faults.is_some(), "--node-faults"),
        (cli.random_faults.is_some(), "--random-faults"),
        (cli.random_node_faults.is_some(), "--random-node-faults"),
        (cli.seed.is_some(), "--seed"),
        (cli.delay.is_some(), "--delay"),
        (cli.skew.is_some(), "--skew"),
        (cli.switching.is_some(), "--switching"),
        (cli.ports.is_some(), "--ports"),
        (cli.routes.is_some(), "--routes"),
        (cli.method.is_some(), "--method"),
        (cli.fewest_transmissions, "--fewest-transmissions"),
        (cli.max_slots.is_some(), "--max-slots"),
        (cli.write_schedule.is_some(), "--write-schedule"),
        (cli.network.is_some(), "--network"),
        (cli.json, "--json"),
        (cli.quiet, "--quiet"),
    ]
}

/// Refuses, in one line, the first flag given that `refused` says
/// `check COMMAND` does not take.
fn refuse_flags(cli: &Cli, command: &str, refused: impl Fn(&str) -> bool) -> anyhow::Result<()> {
    match flags_given(cli)
        .into_iter()
        .find(|&(given, flag)| given && refused(flag))
    {
        Some((_, flag)) => bail!("`check {command}` does not take {flag}"),
        None => Ok(()),
    }
}

/// `check optimal TASK NETWORK`.
fn optimal(cli: &Cli) -> anyhow::Result<Command> {
    use commcheck::check::optimal::OptimalRequest;
    let usage = "`check optimal TASK NETWORK`: a task (broadcast[:ROOT], allgather, \
                 scatter[:ROOT], gather[:ROOT], alltoall) and a network (hypercube:N, mesh:AxB, \
                 torus:AxB, mesh-bus:N, graph:FILE)";
    let task = cli.arg.clone().ok_or_else(|| anyhow!("{usage}"))?;
    let network = match (&cli.network_arg, &cli.network) {
        (Some(n), None) | (None, Some(n)) => n.clone(),
        (Some(_), Some(_)) => bail!("`check optimal` takes its network once: NETWORK or --network"),
        (None, None) => bail!("{usage}"),
    };
    let takes = [
        "--switching",
        "--ports",
        "--routes",
        "--method",
        "--fewest-transmissions",
        "--ell",
        "--timeout",
        "--max-slots",
        "--write-schedule",
        "--network",
        "--json",
        "--quiet",
    ];
    refuse_flags(cli, "optimal", |flag| !takes.contains(&flag))?;
    Ok(Command::Optimal(
        OptimalRequest {
            task,
            network,
            switching: cli.switching.map_or(Switching::Sf, Into::into),
            ports: cli.ports.map_or(Ports::All, Into::into),
            routes: cli
                .routes
                .map_or(commcheck::optimal::task::Routes::Network, Into::into),
            max_slots: cli.max_slots.unwrap_or(16),
            method: cli
                .method
                .map_or(commcheck::check::optimal::Method::Auto, Into::into),
            fewest_transmissions: cli.fewest_transmissions,
            ell: cli.ell,
            timeout: cli.timeout.map(std::time::Duration::from_secs),
            write_schedule: cli.write_schedule.clone(),
        },
        cli.json,
    ))
}

fn schedule(cli: &Cli) -> anyhow::Result<Command> {
    let file = cli.arg.as_deref().ok_or_else(|| {
        anyhow!("`check schedule` names a file: `check schedule FILE --network hypercube:3`")
    })?;
    let network = cli.network.clone().ok_or_else(|| {
        anyhow!(
            "`check schedule` runs on a network: --network hypercube:N, mesh:AxB, torus:AxB, \
             mesh-bus:N or graph:FILE"
        )
    })?;
    let format = match cli.format {
        None => None,
        Some(FormatArg::Schedule(f)) => Some(f),
        Some(FormatArg::Table(t)) => {
            bail!("--format {t} is a table's; a schedule's is commcheck, goal or msccl")
        }
    };
    let refused = [
        "--source",
        "--all-sources",
        "--all-k",
        "--all-ell",
        "--k",
        "--ell",
        "--broadcasters",
        "--multiset",
        "--distribution",
        "--max-side",
        "--torus",
        "--write-schedule",
        "--write-goal",
        "--routes",
        "--method",
        "--fewest-transmissions",
        "--max-slots",
    ];
    refuse_flags(cli, "schedule", |flag| refused.contains(&flag))?;
    if matches!(cli.engine.map(Into::into), Some(Engine::Actor)) {
        bail!(
            "a schedule runs in lock-step slots (docs/schedules.md): --engine exhaustive, \
             lockstep or executor"
        );
    }
    let request = ScheduleRequest {
        file: file.into(),
        format,
        collective: cli.collective.clone(),
        packet_bytes: cli.packet_bytes,
        network,
        map: cli.map.clone().unwrap_or(Map::Identity),
        switching: cli.switching.map_or(Switching::Sf, Into::into),
        ports: cli.ports.map_or(Ports::All, Into::into),
        load: cli.load,
        all_orders: cli.all_orders,
        options: options(cli, Options::default().threads),
    };
    let exports = exports(cli)?;
    if exports.any() {
        if cli.json || cli.explore.is_some() || cli.engine.is_some() {
            bail!(
                "--svg, --dot, --svg-load and --trace write files of the executor's run; they \
                 take neither --json, --explore nor --engine"
            );
        }
        return Ok(Command::Export(Exported::Schedule(request), exports));
    }
    if let Some(addr) = &cli.explore {
        if cli.json {
            bail!("--explore serves a web page; it does not print a --json report");
        }
        if matches!(cli.engine.map(Into::into), Some(Engine::Executor)) {
            bail!("--explore serves the lock-step model; it does not take --engine executor");
        }
        return Ok(Command::ExploreSchedule(request, addr.clone()));
    }
    Ok(Command::Schedule(request, cli.json))
}
