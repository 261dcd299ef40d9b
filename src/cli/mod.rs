//! The front half of `check`: the command line read once ([`args`]) and
//! resolved once into a typed [`Command`] ([`resolve`]), which `main`
//! runs. Every refusal is one line: clap's, for the flags a command does
//! not take and those that exclude each other, told by [`refusal`]; what
//! clap cannot express (a flag that depends on a value, such as
//! `--engine executor` with `--explore`) is checked here; the rest lives with
//! the request (`crate::check::Request`), so nothing is validated
//! twice.

// A flattened group of flags has its help in its own fields.
#[allow(missing_docs)]
pub mod args;
pub mod help;

use crate::check::machine::Machine;
use crate::check::schedule::{Map, ScheduleRequest};
use crate::check::{CheckError, Options, Request};
use crate::engine::Engine;
use crate::report::Outcome;
use crate::table::{self, Table};
use anyhow::{anyhow, bail};
use args::{
    AlgorithmArgs, ClaimsArgs, Cli, NodeText, OptimalArgs, Printed, ScheduleArgs, Sub, TableArgs,
};
use clap::{CommandFactory, Parser};
use models::catalog::{Algorithm, Params};
use models::{Family, Grid, Ports, Switching, Topology};
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
    /// `check help [NAME]`, `check ALG --help`: the page to print.
    Help(String),
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
        /// Say on stderr, before a long table starts, that it is long.
        announce: bool,
    },
    /// `check claims [PAPER]`: the claims ledger.
    Claims {
        /// The papers whose claims are judged.
        papers: Vec<crate::claims::Paper>,
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
    /// A check, or one per K or l of a sweep, printed as text or JSON,
    /// each run timed where `--cost` asks.
    Check(Vec<Request>, bool, Option<args::Timing>),
    /// `check schedule FILE`, printed as text or JSON.
    Schedule(ScheduleRequest, bool),
    /// `check schedule FILE --explore`.
    ExploreSchedule(ScheduleRequest, String),
    /// `check optimal TASK NETWORK`, printed as text or JSON.
    Optimal(crate::check::optimal::OptimalRequest, bool),
}

/// What exports are made of, owned.
pub enum Exported {
    /// A catalogue algorithm.
    Algorithm(Request),
    /// A schedule file (of the `--write-*`, `--write-msccl`, `--write-mscclpp`).
    Schedule(ScheduleRequest),
}

impl Exported {
    /// The same, borrowed, as the exports take it.
    pub fn of(&self) -> crate::show::export::Of<'_> {
        match self {
            Exported::Algorithm(r) => crate::show::export::Of::Algorithm(r),
            Exported::Schedule(r) => crate::show::export::Of::Schedule(r),
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
    /// `--write-msccl FILE`.
    pub write_msccl: Option<PathBuf>,
    /// `--write-mscclpp FILE`.
    pub write_mscclpp: Option<PathBuf>,
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
            || self.write_msccl.is_some()
            || self.write_mscclpp.is_some()
    }
}

/// The checks of a `check ALG ...` command (one, or a sweep's), in turn,
/// each report given to `each` as it comes, each run timed where `--cost`
/// asks. `--timeout` is for the whole command: a sweep shares it, each
/// check taking what the ones before it left; where it ran out first,
/// the words that say which checks were not run.
pub fn checks(
    requests: &[Request],
    timing: Option<&args::Timing>,
    each: &mut dyn FnMut(&Outcome),
) -> Result<(Vec<Outcome>, Option<String>), CheckError> {
    let mut outcomes = Vec::new();
    let start = std::time::Instant::now();
    for (i, req) in requests.iter().enumerate() {
        let mut req = req.clone();
        if let Some(total) = req.options.timeout {
            let left = total.saturating_sub(start.elapsed());
            if left.is_zero() && i > 0 {
                let words = format!(
                    "--timeout {}s: stopped after {i} of the sweep's {} checks; the rest were not \
                     run",
                    total.as_secs_f64(),
                    requests.len()
                );
                return Ok((outcomes, Some(words)));
            }
            req.options.timeout = Some(left);
        }
        let mut outcome = match crate::check::check(&req) {
            // Cut short as a search is (exit 3), with the checks before.
            Err(unbuilt @ CheckError::Unbuilt { .. }) => {
                return Ok((outcomes, Some(unbuilt.to_string())))
            }
            result => result?,
        };
        if let Some(t) = timing {
            let model = t.cost.as_ref().expect("timed with a model");
            outcome.cost = Some(crate::show::as_schedule::timed(&req, model, t.bytes)?);
        }
        each(&outcome);
        outcomes.push(outcome);
        if crate::engine::search::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
    }
    Ok((outcomes, None))
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

/// A refusal of the algorithm's command line by clap (`check nob 4
/// --network x`), with the algorithm it was for: `main` tells it as it
/// tells the top-level one ([`refusal`]).
#[derive(Debug)]
pub struct Refused {
    /// clap's error.
    pub error: clap::Error,
    /// The command it was for.
    pub command: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.error)
    }
}

impl std::error::Error for Refused {}

/// clap's refusal of `check COMMAND ...` in one line: a flag the command
/// does not take (and which commands take it), an argument too many, two
/// flags that exclude each other, a value its parser refused. None where clap's own message is
/// the answer (help, version, a missing value).
pub fn refusal(e: &clap::Error, command: &str) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let context = |kind| match e.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(v) => v.first().cloned(),
        _ => None,
    };
    // `--k <K>` and `--k=2` name the flag `--k`.
    let flag = |s: String| s.split([' ', '=']).next().unwrap_or_default().to_string();
    let check = match command {
        "" => "`check`".to_string(),
        c => format!("`check {c}`"),
    };
    match e.kind() {
        ErrorKind::ValueValidation => {
            // commcheck's own parsers name the flag; a number's parser
            // (a plain `u32`) does not, nor what was wrong in words.
            let source = std::error::Error::source(e)?;
            let why = source.to_string();
            let (Some(arg), Some(value)) = (
                context(ContextKind::InvalidArg).map(flag),
                context(ContextKind::InvalidValue),
            ) else {
                return Some(why);
            };
            let value: String = value.chars().take(40).collect();
            Some(match source.downcast_ref::<std::num::ParseIntError>() {
                _ if why.starts_with(&arg) => why,
                Some(n) => match n.kind() {
                    std::num::IntErrorKind::PosOverflow => {
                        format!("{arg} '{value}' is too large a number")
                    }
                    _ => format!("{arg} '{value}' is not a whole number"),
                },
                None => format!("{arg} '{value}': {why}"),
            })
        }
        ErrorKind::UnknownArgument => {
            let arg = context(ContextKind::InvalidArg)?;
            if !arg.starts_with('-') {
                return Some(match arguments(command) {
                    0 => format!("{check} takes no argument; got '{arg}'"),
                    1 => format!("{check} takes one argument; got also '{arg}'"),
                    n => format!("{check} takes {n} arguments; got also '{arg}'"),
                });
            }
            let arg = flag(arg);
            let takers = takers(&arg);
            Some(match takers.is_empty() {
                true => format!("{check} does not take {arg}"),
                false => format!(
                    "{check} does not take {arg}: it is for {}",
                    takers.join(", ")
                ),
            })
        }
        ErrorKind::ArgumentConflict => {
            let (a, b) = (
                context(ContextKind::InvalidArg)?,
                context(ContextKind::PriorArg)?,
            );
            Some(format!(
                "{check}: {} and {} exclude each other",
                flag(b),
                flag(a)
            ))
        }
        ErrorKind::InvalidValue => {
            // A flag without its value, or a value not among those listed.
            let arg = context(ContextKind::InvalidArg).map(flag)?;
            let value: String = context(ContextKind::InvalidValue)
                .unwrap_or_default()
                .chars()
                .take(40)
                .collect();
            let listed = match e.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(v)) => format!(": possible values {}", v.join(", ")),
                _ => String::new(),
            };
            Some(match value.is_empty() {
                true => format!("{arg} needs a value{listed}"),
                false => format!("{arg} '{value}' is not accepted{listed}"),
            })
        }
        // `check` alone prints its usage, as help does.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => None,
        // Anything else clap refuses: its first line, without its tips.
        _ if e.use_stderr() => {
            let text = e.render().to_string();
            let line = text.lines().next().unwrap_or_default();
            Some(line.trim_start_matches("error: ").to_string())
        }
        _ => None,
    }
}

/// How many arguments (not flags) `check COMMAND` takes.
fn arguments(command: &str) -> usize {
    match Cli::command().find_subcommand(command) {
        Some(sub) => sub.get_positionals().count(),
        // An algorithm: its size.
        None => 1,
    }
}

/// The commands that take the long flag `flag` (`--network`).
fn takers(flag: &str) -> Vec<String> {
    let name = flag.trim_start_matches('-');
    let has = |c: &clap::Command| c.get_arguments().any(|a| a.get_long() == Some(name));
    let mut takers: Vec<String> = Cli::command()
        .get_subcommands()
        .filter(|c| has(c))
        .map(|c| format!("`check {}`", c.get_name()))
        .collect();
    if has(&AlgorithmArgs::command()) {
        takers.push("`check ALG`".into());
    }
    takers
}

/// Resolves the command line into what to do; every refusal is one line.
pub fn resolve(cli: Cli) -> anyhow::Result<Command> {
    match cli.command {
        Sub::List(a) => Ok(Command::List {
            long: a.long,
            markdown: match a.format {
                None | Some(table::Format::Text) => false,
                Some(table::Format::Markdown) => true,
                _ => bail!("`check list` prints text, or with --format markdown its table"),
            },
        }),
        Sub::Help(a) => Ok(Command::Help(help_page(a.algorithm.as_deref())?)),
        Sub::Table(a) => table_command(a),
        Sub::Claims(a) => claims(a),
        Sub::Schedule(a) => schedule(*a),
        Sub::Optimal(a) => optimal(a),
        Sub::Algorithm(words) => {
            let command = words.first().cloned().unwrap_or_default();
            let args = std::iter::once("check".to_string()).chain(words);
            match AlgorithmArgs::try_parse_from(args) {
                Ok(a) => algorithm(a),
                Err(error) => Err(Refused { error, command }.into()),
            }
        }
    }
}

/// `check help [NAME]`: the commands (`check --help`), a command's page
/// (`check help schedule` is `check schedule --help`), or an algorithm's.
fn help_page(name: Option<&str>) -> anyhow::Result<String> {
    // `--help` ends clap's parse with the page as its "error".
    let command = |words: &[&str]| match Cli::try_parse_from(words) {
        Err(page) => page.render().to_string(),
        Ok(_) => String::new(),
    };
    let commands = Cli::command();
    Ok(match name {
        None => command(&["check", "--help"]),
        Some(name) if commands.find_subcommand(name).is_some() => {
            command(&["check", name, "--help"])
        }
        Some(name) => help::algorithm_help(Algorithm::parse(name)?),
    })
}

/// How a table or the ledger prints: `--format`, or `--json`.
fn printed(p: &Printed) -> anyhow::Result<table::Format> {
    Ok(match (p.format, p.output.json) {
        (None, false) => table::Format::Text,
        (None, true) | (Some(table::Format::Json), _) => table::Format::Json,
        (Some(f), false) => f,
        (Some(f), true) => bail!("--json prints the table as JSON; it does not take --format {f}"),
    })
}

/// `check table NAME`.
fn table_command(a: TableArgs) -> anyhow::Result<Command> {
    let table = match a.name.as_deref().map(Table::parse) {
        Some(Some(table)) => table,
        other => bail!(
            "unknown table {}; accepted: {}",
            match other {
                None => "(none given)".to_string(),
                Some(_) => format!("'{}'", a.name.as_deref().unwrap_or_default()),
            },
            Table::NAMES.join(", ")
        ),
    };
    // Flags of one table, which clap sees as the command's.
    if a.max_side.is_some() && table != Table::Fujita {
        bail!("--max-side is for `check table fujita`");
    }
    match (a.timeout, table) {
        (None, _) | (Some(_), Table::Fujita) => {}
        (Some(u64::MAX), Table::Optimal) => {
            bail!("--timeout none is for a check and `check table fujita`: each optimum needs a limit")
        }
        (Some(_), Table::Optimal) => {}
        (Some(_), _) => bail!(
            "--timeout is for a check, `check optimal`, `check table optimal` and `check table \
             fujita`"
        ),
    }
    Ok(Command::Table {
        table,
        format: printed(&a.printed)?,
        max_side: a.max_side,
        timeout: a.timeout.map(Duration::from_secs),
        progress: std::io::stderr().is_terminal() && !a.printed.output.quiet,
        announce: !a.printed.output.quiet,
    })
}

/// `check claims [PAPER]`.
fn claims(a: ClaimsArgs) -> anyhow::Result<Command> {
    use crate::claims::Paper;
    let papers = match a.paper.as_deref() {
        None => Paper::ALL.to_vec(),
        Some(name) => vec![Paper::parse(name).ok_or_else(|| {
            anyhow!(
                "unknown paper '{name}'; accepted: {}",
                Paper::NAMES.join(", ")
            )
        })?],
    };
    Ok(Command::Claims {
        papers,
        format: printed(&a.printed)?,
        progress: std::io::stderr().is_terminal() && !a.printed.output.quiet,
    })
}

/// `check ALG SIZE`.
fn algorithm(cli: AlgorithmArgs) -> anyhow::Result<Command> {
    let target = cli.algorithm.as_str();
    if let Some((_, what, why, item)) = UNENCODED.iter().find(|(names, ..)| names.contains(&target))
    {
        bail!(
            "{what} is not encoded: the lecture notes give its round counts, but {why} \
             (docs/errata.md, item {item})"
        );
    }
    let algorithm = Algorithm::parse(target).map_err(|e| match help::suggest(target) {
        Some(s) => anyhow!("{e} (did you mean '{s}'?)"),
        None => e.into(),
    })?;
    let req = request(&cli, algorithm)?;
    let exports = exports(
        &cli.pictures,
        [
            &cli.write_schedule,
            &cli.write_goal,
            &cli.write_msccl,
            &cli.write_mscclpp,
        ],
    )?;
    untimed(&cli.timing, exports.any() || cli.engines.explore.is_some())?;
    if cli.timing.bytes.is_some() && cli.timing.cost.is_none() {
        bail!("--bytes sizes a chunk for --cost; give --cost to time the run");
    }
    let engine = req.options.engine;
    let (json, explore) = (cli.engines.output.json, &cli.engines.explore);
    if exports.any() {
        if json {
            bail!(
                "--svg, --dot, --svg-load, --trace and --write-* write files; they do not print \
                 a --json report"
            );
        }
        if matches!(engine, Some(Engine::Actor | Engine::Exhaustive)) || explore.is_some() {
            bail!(
                "--svg, --dot, --svg-load, --trace and --write-* show the executor's run; they \
                 take neither --explore nor --engine {}",
                engine.map_or("", Engine::name)
            );
        }
        return Ok(Command::Export(Exported::Algorithm(req), exports));
    }
    if let Some(addr) = explore {
        if engine == Some(Engine::Executor) {
            bail!(
                "--explore serves the lock-step model (or with --engine actor the actor \
                 model); it does not take --engine executor"
            );
        }
        return Ok(Command::Explore(req, addr.clone()));
    }
    let timing = cli.timing.cost.is_some().then(|| cli.timing.clone());
    Ok(Command::Check(sweep(&cli, req)?, json, timing))
}

/// The request the command line names for `algorithm`, validated by the
/// request's own constructors.
fn request(cli: &AlgorithmArgs, algorithm: Algorithm) -> anyhow::Result<Request> {
    let family = algorithm.family();
    let ((min, max), word) = (family.sizes(), family.size_word());
    let size = cli.size.as_deref().ok_or_else(|| match family {
        Family::Grid { .. } => anyhow!(
            "missing the sides: `check {} 5x7` (each side at least {min}; 16 alone is the line \
             M(16))",
            cli.algorithm
        ),
        _ => anyhow!(
            "missing the {word} n: `check {} N` with N in {min}..={max}",
            cli.algorithm
        ),
    })?;
    let sides = match family {
        Family::Grid { torus } => {
            let sides = models::topology::grid::parse_sides(size, torus || cli.torus)
                .map_err(|why| anyhow!("{}: {why}", algorithm.name()))?;
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
        cli.modes.switching.map(Into::into),
        cli.modes.ports.map(Into::into),
    )?
    .with_params(params)?;
    req.options = Options {
        all_sources: cli.all_sources,
        distribution: cli.distribution,
        ..options(
            &cli.engines,
            &cli.budgets,
            &cli.machine,
            req.options.threads,
        )?
    };
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
                NodeText::Numbers(n) => n.iter().map(u64::to_string).collect::<Vec<_>>().join(","),
                NodeText::Bits(v) => v.to_string(),
            };
            match req.algorithm.family() {
                Family::Cube => bail!(
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
/// in order; else the one request (clap keeps them from --k, --ell,
/// --broadcasters and each other).
fn sweep(cli: &AlgorithmArgs, req: Request) -> anyhow::Result<Vec<Request>> {
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
    if cli.all_k {
        values("--k", "--all-k")?
            .map(|k| with(Some(k), None))
            .collect()
    } else if cli.all_ell {
        values("--ell", "--all-ell")?
            .map(|l| with(None, Some(l)))
            .collect()
    } else {
        Ok(vec![req])
    }
}

/// The files the command line asks for.
fn exports(
    p: &args::Pictures,
    [write_schedule, write_goal, write_msccl, write_mscclpp]: [&Option<PathBuf>; 4],
) -> anyhow::Result<Exports> {
    // clap could require it, but not say what --slot is for.
    if p.slot.is_some() && p.svg.is_none() {
        bail!("--slot picks the slot --svg draws; give --svg FILE too");
    }
    Ok(Exports {
        svg: p.svg.clone().map(|f| (f, p.slot)),
        dot: p.dot.clone(),
        svg_load: p.svg_load.clone(),
        trace: p.trace.clone(),
        write_schedule: write_schedule.clone(),
        write_goal: write_goal.clone(),
        write_msccl: write_msccl.clone(),
        write_mscclpp: write_mscclpp.clone(),
    })
}

/// The engines, budgets, machine and output the command line asks for.
fn options(
    e: &args::Engines,
    b: &args::Budgets,
    m: &args::MachineArgs,
    threads: usize,
) -> anyhow::Result<Options> {
    if m.seed.is_some() && m.random_faults.is_none() && m.random_node_faults.is_none() {
        bail!("--seed draws --random-faults and --random-node-faults: give one of them");
    }
    Ok(Options {
        all_sources: false,
        engine: e.engine.map(Into::into),
        threads: b.threads.unwrap_or(threads),
        max_states: b.max_states,
        timeout: b.timeout.map(Duration::from_secs),
        default_timeout: Some(crate::check::DEFAULT_TIMEOUT),
        max_memory: b.max_memory,
        progress: !e.output.json && !e.output.quiet && std::io::stderr().is_terminal(),
        progress_to: None,
        announce: !e.output.json && !e.output.quiet,
        distribution: false,
        observe_all: b.observe_all,
        source: None,
        machine: Machine {
            faults: m.fault.clone(),
            link_faults: m.faults,
            arc_faults: m.arc_faults,
            node_faults: m.node_faults,
            random_links: m.random_faults,
            random_nodes: m.random_node_faults,
            seed: m.seed.unwrap_or(1),
            delay: m.delay.unwrap_or(0),
            skew: m.skew.unwrap_or(0),
        },
    })
}

/// `check optimal TASK NETWORK`.
fn optimal(a: OptimalArgs) -> anyhow::Result<Command> {
    use crate::check::optimal::OptimalRequest;
    let usage = "`check optimal TASK NETWORK`: a task (broadcast[:ROOT], allgather, \
                 scatter[:ROOT], gather[:ROOT], alltoall) and a network (hypercube:N, mesh:AxB, \
                 torus:AxB, mesh-bus:N, graph:FILE)";
    let task = a.task.ok_or_else(|| anyhow!("{usage}"))?;
    let network = a
        .network_arg
        .or(a.network)
        .ok_or_else(|| anyhow!("{usage}"))?;
    Ok(Command::Optimal(
        OptimalRequest {
            task,
            network,
            switching: a.modes.switching.map_or(Switching::Sf, Into::into),
            ports: a.modes.ports.map_or(Ports::All, Into::into),
            routes: a
                .routes
                .map_or(crate::optimal::task::Routes::Network, Into::into),
            max_slots: a.max_slots.unwrap_or(16),
            method: a
                .method
                .map_or(crate::check::optimal::Method::Auto, Into::into),
            fewest_transmissions: a.fewest_transmissions,
            ell: a.ell,
            timeout: a.timeout.map(std::time::Duration::from_secs),
            default_timeout: Some(crate::check::DEFAULT_TIMEOUT),
            write_schedule: a.write_schedule,
            write_msccl: a.write_msccl,
            write_mscclpp: a.write_mscclpp,
        },
        a.output.json,
    ))
}

/// `check schedule FILE --network NET`.
/// Refuses `--cost` where nothing prints a report (files, the Explorer).
fn untimed(timing: &args::Timing, elsewhere: bool) -> anyhow::Result<()> {
    if elsewhere && timing.cost.is_some() {
        bail!(
            "--cost adds a time to the report; --svg, --dot, --svg-load, --trace, --write-* \
             and --explore print none"
        );
    }
    Ok(())
}

fn schedule(a: ScheduleArgs) -> anyhow::Result<Command> {
    let file = a.file.as_deref().ok_or_else(|| {
        anyhow!("`check schedule` names a file: `check schedule FILE --network hypercube:3`")
    })?;
    let network = a.network.clone().ok_or_else(|| {
        anyhow!(
            "`check schedule` runs on a network: --network hypercube:N, mesh:AxB, torus:AxB, \
             mesh-bus:N, a machine (dgx-h100, ...) or a file (graph:FILE, nccl-topo:FILE, \
             astra:FILE)"
        )
    })?;
    let engine = a.engines.engine.map(Into::into);
    let request = ScheduleRequest {
        file: file.into(),
        format: a.format,
        collective: a.collective.clone(),
        packet_bytes: a.packet_bytes,
        cost: a.timing.cost.clone(),
        bytes: a.timing.bytes,
        network,
        map: a.map.clone().unwrap_or(Map::Identity),
        given: None,
        switching: a.modes.switching.map_or(Switching::Sf, Into::into),
        ports: a.modes.ports.map_or(Ports::All, Into::into),
        load: a.load,
        all_orders: a.all_orders,
        no_reduction: a.no_reduction,
        options: options(
            &a.engines,
            &a.budgets,
            &a.machine,
            Options::default().threads,
        )?,
    };
    let exports = exports(
        &a.pictures,
        [&None, &None, &a.write_msccl, &a.write_mscclpp],
    )?;
    untimed(&a.timing, exports.any() || a.engines.explore.is_some())?;
    let (json, explore) = (a.engines.output.json, &a.engines.explore);
    if exports.any() {
        if json || explore.is_some() || engine.is_some() {
            bail!(
                "--svg, --dot, --svg-load, --trace, --write-msccl and --write-mscclpp write \
                 files of the executor's run; they take neither --json, --explore nor --engine"
            );
        }
        return Ok(Command::Export(Exported::Schedule(request), exports));
    }
    if let Some(addr) = explore {
        if matches!(engine, Some(Engine::Executor | Engine::Actor)) {
            bail!(
                "--explore serves a schedule's lock-step model; it does not take --engine \
                 executor or actor"
            );
        }
        return Ok(Command::ExploreSchedule(request, addr.clone()));
    }
    Ok(Command::Schedule(request, json))
}
