//! `check`: the command line of commcheck.
//!
//! Exit codes as ripgrep's: 0 every claim holds, 1 a claim is violated (the
//! counterexample is printed), 2 bad usage or an error, 3 a claim is left
//! unknown (a budget ran out, Ctrl-C, or the engine cannot judge it).

use clap::{Parser, ValueEnum};
use commcheck::check::{self, Engine, Request};
use commcheck::engine::{memory, search::INTERRUPTED};
use commcheck::{show::export, table};
use models::catalog::{check_source, Algorithm, Ports, Switching};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

/// Checks a communication algorithm exhaustively at small sizes, or runs it
/// once at large sizes, against the claims of its paper.
#[derive(Parser, Debug)]
#[command(
    name = "check",
    version,
    after_help = "Examples:\n  check nob 4\n  check naive-tree 3 --source 0\n  \
                  check nob 24 --engine executor\n  check list\n  check help nob\n  \
                  check table wang-ku\n  check table bertsekas\n  check table stamoulis\n  check table fujita --max-side 64\n  check table lecture-bounds\n  check mesh-sf 5x7 --ports one --source 2,3\n  check recursive-doubling 8x8 --torus\n\n\
                  `check ALG --help` or `check help ALG` describes one algorithm: its paper, \
                  claims, parameters, modes and engine reach.\n\n\
                  Exit codes: 0 claims hold, 1 a claim is violated, 2 usage error, \
                  3 unknown (budget, Ctrl-C, or a property the engine cannot judge)."
)]
struct Cli {
    /// An algorithm (`check list` names them), `list`, `help` or `table`
    target: String,
    /// The hypercube dimension n (for `table`: the table's name; for
    /// `help`: an algorithm)
    arg: Option<String>,
    /// Source node (decimal, or binary with 0b); default: one source per
    /// symmetry orbit
    #[arg(long)]
    source: Option<String>,
    /// Check every source instead of one per symmetry orbit
    #[arg(long)]
    all_sources: bool,
    /// Check every K the algorithm takes, one report per K (algorithms
    /// that take --k)
    #[arg(long)]
    all_k: bool,
    /// Check every l the algorithm takes, one report per l (the mesh-bus
    /// algorithms)
    #[arg(long)]
    all_ell: bool,
    /// exhaustive (lock-step and actor model), lockstep, actor, or executor
    #[arg(long, value_enum)]
    engine: Option<EngineArg>,
    /// Switching: wh (wormhole) or sf (store-and-forward)
    #[arg(long, value_enum)]
    switching: Option<SwitchingArg>,
    /// Port model: all or one
    #[arg(long, value_enum)]
    ports: Option<PortsArg>,
    /// Print the report as one JSON object (no progress)
    #[arg(long)]
    json: bool,
    /// No progress on stderr
    #[arg(long)]
    quiet: bool,
    /// Serve the model in stateright's Explorer [default: 127.0.0.1:3000]
    #[arg(long, num_args = 0..=1, default_missing_value = "127.0.0.1:3000", value_name = "ADDR")]
    explore: Option<String>,
    /// Search threads and executor threads (1..=256)
    #[arg(long)]
    threads: Option<u64>,
    /// Stop an exhaustive search after this many generated states
    /// [default: 50000000]
    #[arg(long, value_name = "N")]
    max_states: Option<u64>,
    /// Stop an exhaustive search or an executor run after this many seconds
    #[arg(long, value_name = "SECS")]
    timeout: Option<u64>,
    /// Memory the check may use, in GB [default: what the machine, its
    /// cgroup and ulimit -v allow, less a margin]
    #[arg(long, value_name = "GB")]
    max_memory: Option<String>,
    /// Number of simultaneous broadcasts (algorithms that take it; `check
    /// help ALG` lists an algorithm's parameters)
    #[arg(long, value_name = "K")]
    k: Option<String>,
    /// Tokens per bus message (algorithms that take it)
    #[arg(long, value_name = "L")]
    ell: Option<String>,
    /// The broadcasting nodes, comma-separated (algorithms that take it)
    #[arg(long, value_name = "NODES")]
    broadcasters: Option<String>,
    /// A node may broadcast several packets: listed as many times in
    /// --broadcasters, or every K-multiset with --k (algorithms that take it)
    #[arg(long)]
    multiset: bool,
    /// Report the distribution over random draws (kbcast-random): the
    /// drawn quantity beside the paper's bound, and the completion time
    #[arg(long)]
    distribution: bool,
    /// For `table fujita`: the largest side swept (a power of two, 4..=256)
    /// [default: 256]
    #[arg(long, value_name = "N")]
    max_side: Option<String>,
    /// For `table`: text (the default), markdown, csv (one line per cell)
    /// or json (--json is the same)
    #[arg(long, value_name = "FORMAT")]
    format: Option<String>,
    /// A mesh or torus shape, e.g. 4x4 (algorithms that take it)
    #[arg(long, value_name = "SHAPE")]
    shape: Option<String>,
    /// The torus of the given sides rather than the mesh (algorithms that
    /// take it)
    #[arg(long)]
    torus: bool,
    /// Write the picture of one slot of the run (from --source, else the
    /// first input) as SVG: the slot of its first violation, else its last
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
    /// With --svg: the slot to draw
    #[arg(long, value_name = "K")]
    slot: Option<u32>,
    /// Write the run (as --svg picks it) as a Graphviz graph: an edge per
    /// delivery, labelled with its slot (networks up to 4096 nodes)
    #[arg(long, value_name = "FILE")]
    dot: Option<std::path::PathBuf>,
    /// Write the run's resource use as an SVG heatmap, resources x slots:
    /// idle, busy, contended (up to 4096 resources and 1024 slots)
    #[arg(long, value_name = "FILE")]
    svg_load: Option<std::path::PathBuf>,
    /// Write the run as JSON lines, one per transmission: slot, sender,
    /// route, resources, payload, receivers (networks up to 65,536 nodes,
    /// runs up to 1,000,000 transmissions)
    #[arg(long, value_name = "FILE")]
    trace: Option<std::path::PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EngineArg {
    Exhaustive,
    Lockstep,
    Actor,
    Executor,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum SwitchingArg {
    Wh,
    Sf,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum PortsArg {
    All,
    One,
}

/// A usage error: one line on stderr, exit code 2.
fn usage(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg:#}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    // `check ALG --help`: that algorithm's page, not only the options.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        if let Some(algorithm) = args.first().and_then(|a| Algorithm::parse(a).ok()) {
            print!("{}", algorithm_help(algorithm));
            return ExitCode::SUCCESS;
        }
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap's own message, whole (usage and hint included).
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => usage(e),
    }
}

/// The page of one algorithm: paper, claims, parameters, modes, reach.
fn algorithm_help(a: Algorithm) -> String {
    let modes = a.modes_as_flags();
    let r = a.reach();
    let actor = if r.actor == 0 {
        "none (not event-driven)".to_string()
    } else {
        format!(
            "n <= {} (run by the default check up to n = {})",
            r.actor, r.actor_auto
        )
    };
    format!(
        "{name}: {summary}\n\
         paper:      {reference}\n\
         claim:      {claim}\n\
         parameters: n, {size} ({min}..={max}){params}{sources}\n\
         modes:      {modes} (the first is the default)\n\
         reach without a budget, on 2 cores (BENCHMARKS.md):\n  \
         lock-step   n <= {lock} (the default engine up to there; the executor past it)\n  \
         actor model {actor}\n  \
         executor    as far as memory allows (nob: n = 28 in 24 GB)\n\n\
         usage: check {name} N [--source S | --all-sources] [--engine E] [--switching S] \
         [--ports P]\n             [--json | --quiet] [--threads T] [--max-states N] \
         [--timeout SECS] [--max-memory GB]{flags}\n",
        name = a.name(),
        flags = {
            let declared = a.info().params;
            let takes = |f| declared.iter().any(|p| p.flag == f);
            let mut f: Vec<&str> = Vec::new();
            if takes("--k") {
                f.push("--k K | --all-k");
            }
            if takes("--broadcasters") {
                f.push("--broadcasters LIST");
            }
            if takes("--multiset") {
                f.push("--multiset");
            }
            if takes("--ell") {
                f.push("--ell L | --all-ell");
            }
            match f.is_empty() {
                true => String::new(),
                false => format!("\n             [{}]", f.join(" | ")),
            }
        },
        params = a
            .info()
            .params
            .iter()
            .map(|p| format!("; {} {}", p.flag, p.meaning))
            .collect::<String>(),
        summary = a.summary(),
        reference = a.reference(),
        claim = a.claim(),
        size = match a.shape() {
            models::Shape::Cube => "the cube dimension",
            models::Shape::MeshBus { .. } => "the mesh's side (n x n nodes)",
            models::Shape::Grid { .. } =>
                "the sides, e.g. 5x7, 4x4x4 or 16 (the line M(16)), up to 2^24 nodes; each side",
        },
        min = a.shape().sizes().0,
        max = a.shape().sizes().1,
        sources = match a.shape() {
            models::Shape::Cube =>
                "; --source S where it has a source (default: one source \
                 per symmetry orbit, --all-sources for every one)",
            models::Shape::MeshBus { .. } => "",
            models::Shape::Grid { .. } =>
                "; --source as coordinates (2,3 counted from 0) or a node id (default: \
                 every source)",
        },
        lock = r.lockstep,
    )
}

/// `check list`: every algorithm with its paper, claim and modes.
fn list() -> String {
    let mut s = String::new();
    // The names' column, as wide as the longest name and a space.
    let w = Algorithm::ALL
        .iter()
        .map(|a| a.name().len())
        .max()
        .unwrap_or(0)
        + 2;
    for &a in Algorithm::ALL {
        let modes = a
            .modes()
            .iter()
            .map(|(s, p)| format!("{s}/{p}"))
            .collect::<Vec<_>>()
            .join(", ");
        s += &format!(
            "{:<w$}{}\n{:<w$}paper: {}\n{:<w$}claim: {}\n{:<w$}modes: {modes} (switching/ports)\n",
            a.name(),
            a.summary(),
            "",
            a.reference(),
            "",
            a.claim(),
            ""
        );
    }
    s
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let no_more = |what: &str| -> anyhow::Result<()> {
        match &cli.arg {
            Some(extra) => anyhow::bail!("`check {what}` takes no argument; got '{extra}'"),
            None => Ok(()),
        }
    };
    if cli.max_side.is_some() && !(cli.target == "table" && cli.arg.as_deref() == Some("fujita")) {
        anyhow::bail!("--max-side is for `check table fujita`");
    }
    if cli.format.is_some() && cli.target != "table" {
        anyhow::bail!("--format is for `check table NAME`; a check's report takes --json");
    }
    match cli.target.as_str() {
        "list" => {
            no_more("list")?;
            print!("{}", list());
            return Ok(ExitCode::SUCCESS);
        }
        "help" => {
            let name = cli.arg.as_deref().ok_or_else(|| {
                anyhow::anyhow!("`check help` names an algorithm: `check help nob`")
            })?;
            print!("{}", algorithm_help(Algorithm::parse(name)?));
            return Ok(ExitCode::SUCCESS);
        }
        "table" => {
            let format = match (cli.format.as_deref(), cli.json) {
                (None, false) => table::Format::Text,
                (None, true) | (Some("json"), _) => table::Format::Json,
                (Some(f), false) => table::Format::parse(f).ok_or_else(|| {
                    anyhow::anyhow!(
                        "--format '{f}' is not a table format: accepted {}",
                        table::Format::NAMES.join(", ")
                    )
                })?,
                (Some(f), true) => {
                    anyhow::bail!("--json prints the table as JSON; it does not take --format {f}")
                }
            };
            let print = |sheet: table::Sheet| {
                print!("{}", sheet.render(format));
                Ok(ExitCode::SUCCESS)
            };
            return match cli.arg.as_deref() {
                Some("wang-ku") => print(table::wang_ku_sheet()),
                Some("bertsekas") => print(table::bertsekas_sheet()),
                Some("stamoulis") => print(table::stamoulis_sheet()),
                Some("lecture-bounds") => print(table::lecture::sheet(8, 16)),
                Some("fujita") => {
                    let sides = fujita_sides(cli.max_side.as_deref())?;
                    let shown = std::io::stderr().is_terminal() && !cli.quiet;
                    let mut progress = |line: &str| {
                        if shown {
                            eprint!("\r\x1b[2K{line}");
                        }
                    };
                    let sheet = table::fujita::sheet(&sides, &mut progress);
                    if shown {
                        eprint!("\r\x1b[2K");
                    }
                    print(sheet)
                }
                other => Err(anyhow::anyhow!(
                    "unknown table {}; accepted: {}",
                    other.map_or("(none given)".to_string(), |o| format!("'{o}'")),
                    table::TABLES.join(", ")
                )),
            };
        }
        _ => {}
    }
    // Broadcasts the lecture notes name but describe too thinly to encode.
    let unencoded = match cli.target.as_str() {
        "eds" => Some((
            "the extended-dominating-set broadcast",
            "its dominating nodes and paths are in a figure, not in the text",
            17,
        )),
        "recursive-tiling" | "tiling" => Some((
            "the recursive-tiling broadcast",
            "its tiles' sources and paths are in a figure, not in the text",
            18,
        )),
        _ => None,
    };
    if let Some((what, why, item)) = unencoded {
        anyhow::bail!(
            "{what} is not encoded: the lecture notes give its round counts, but {why} \
             (docs/errata.md, item {item})"
        );
    }
    let algorithm = Algorithm::parse(&cli.target).map_err(|e| match suggest(&cli.target) {
        Some(s) => anyhow::anyhow!("{e} (did you mean '{s}'?)"),
        None => e.into(),
    })?;
    let shape = algorithm.shape();
    let ((min, max), word) = (shape.sizes(), shape.size_word());
    let n_text = cli.arg.as_deref().ok_or_else(|| match shape {
        models::Shape::Grid { .. } => anyhow::anyhow!(
            "missing the sides: `check {} 5x7` (each side at least {min}; 16 alone is the line M(16))",
            cli.target
        ),
        _ => anyhow::anyhow!(
            "missing the {word} n: `check {} N` with N in {min}..={max}",
            cli.target
        ),
    })?;
    let sides = match shape {
        models::Shape::Grid { torus } => {
            let sides = models::topology::grid::parse_sides(n_text, torus || cli.torus)
                .map_err(|why| anyhow::anyhow!("{}: {why}", algorithm.name()))?;
            if algorithm == Algorithm::DilatedDiagonal {
                if let Some(why) = models::lecture_notes::dilated_diagonal::check_sides(&sides) {
                    anyhow::bail!("{why}");
                }
            }
            Some(sides)
        }
        _ => None,
    };
    let n: u64 = match &sides {
        Some(sides) => *sides.iter().max().expect("at least one side") as u64,
        None => n_text.parse().map_err(|_| {
            if !n_text.is_empty() && n_text.bytes().all(|b| b.is_ascii_digit()) {
                anyhow::anyhow!(
                    "{word} {n_text} is out of range for {}: accepted {min}..={max}",
                    algorithm.name()
                )
            } else {
                anyhow::anyhow!("{word} '{n_text}' is not a number: accepted {min}..={max}")
            }
        })?,
    };
    let switching = cli.switching.map(|s| match s {
        SwitchingArg::Wh => Switching::Wh,
        SwitchingArg::Sf => Switching::Sf,
    });
    let ports = cli.ports.map(|p| match p {
        PortsArg::All => Ports::All,
        PortsArg::One => Ports::One,
    });
    // `--shape` is reserved for the meshes and tori; no algorithm takes it
    // yet.
    if cli.shape.is_some() {
        anyhow::bail!(
            "{} does not take --shape: it takes {}",
            algorithm.name(),
            match algorithm.info().params {
                [] => "only the dimension n (and --switching, --ports)".to_string(),
                ps => ps.iter().map(|p| p.flag).collect::<Vec<_>>().join(", "),
            }
        );
    }
    let number = |flag: &str, text: &Option<String>| -> anyhow::Result<Option<u64>> {
        text.as_deref()
            .map(|t| {
                t.parse::<u64>()
                    .map_err(|_| anyhow::anyhow!("{flag} '{t}' is not a number"))
            })
            .transpose()
    };
    let params = models::catalog::Params {
        k: number("--k", &cli.k)?,
        ell: number("--ell", &cli.ell)?,
        broadcasters: cli
            .broadcasters
            .as_deref()
            .map(|list| {
                list.split(',')
                    .map(|t| {
                        let t = t.trim();
                        let parsed = match t.strip_prefix("0b") {
                            Some(bits) => u32::from_str_radix(bits, 2),
                            None => t.parse(),
                        };
                        parsed.map_err(|_| {
                            anyhow::anyhow!(
                                "--broadcasters: '{t}' is not a node number (a comma-separated \
                                 list such as 0,5,6, or 0b101)"
                            )
                        })
                    })
                    .collect::<anyhow::Result<Vec<u32>>>()
            })
            .transpose()?,
        multiset: cli.multiset,
        sides,
        torus: cli.torus,
        source: None,
    };
    let mut req = Request::new(algorithm, n, switching, ports)?;
    req.config = algorithm.with_params(req.config, params)?;
    if let (Some(s), models::Shape::Grid { torus }) = (&cli.source, shape) {
        let sides = req.config.params.sides.clone().unwrap_or(vec![n as u32; 2]);
        let grid = models::Grid::new(
            &sides,
            torus || cli.torus,
            req.config.switching,
            req.config.ports,
        );
        let source = grid_source(&grid, s)?;
        req.source = Some(source);
        req.config.params.source = Some(source);
    } else if cli.source.is_some() && shape != models::Shape::Cube {
        anyhow::bail!(
            "{} gossips from every node: it has no single source, so --source does not apply",
            algorithm.name()
        );
    }
    if let (Some(s), models::Shape::Cube) = (&cli.source, shape) {
        let parsed = match s.strip_prefix("0b") {
            Some(bits) => u64::from_str_radix(bits, 2),
            None => s.parse(),
        };
        let max_node = (1u64 << req.config.n) - 1;
        let s = parsed.map_err(|_| {
            anyhow::anyhow!("source '{s}' is not a node number: accepted 0..={max_node} (or 0b followed by bits)")
        })?;
        req.source = Some(check_source(s, req.config.n)?);
    }
    if cli.all_sources && req.source.is_some() {
        anyhow::bail!("--all-sources and --source exclude each other");
    }
    req.all_sources = cli.all_sources;
    req.engine = cli.engine.map(|e| match e {
        EngineArg::Exhaustive => Engine::Exhaustive,
        EngineArg::Lockstep => Engine::Lockstep,
        EngineArg::Actor => Engine::Actor,
        EngineArg::Executor => Engine::Executor,
    });
    if let Some(t) = cli.threads {
        if !(1..=256).contains(&t) {
            anyhow::bail!("--threads {t} is out of range: accepted 1..=256");
        }
        req.threads = t as usize;
    }
    if let Some(m) = cli.max_states {
        if m == 0 {
            anyhow::bail!("--max-states 0 is out of range: accepted 1 and more");
        }
        req.max_states = Some(m);
    }
    if let Some(t) = cli.timeout {
        if t == 0 {
            anyhow::bail!("--timeout 0 is out of range: accepted 1 second and more");
        }
        req.timeout = Some(Duration::from_secs(t));
    }
    if let Some(m) = &cli.max_memory {
        req.max_memory = Some(memory::parse_gb(m).ok_or_else(|| {
            anyhow::anyhow!("--max-memory '{m}' is not a size in GB: accepted a number above 0, such as 2 or 0.5")
        })?);
    }
    if cli.slot.is_some() && cli.svg.is_none() {
        anyhow::bail!("--slot picks the slot --svg draws; give --svg FILE too");
    }
    if cli.svg.is_some() || cli.dot.is_some() || cli.svg_load.is_some() || cli.trace.is_some() {
        if cli.json {
            anyhow::bail!(
                "--svg, --dot, --svg-load and --trace write files; they do not print a --json report"
            );
        }
        if matches!(req.engine, Some(Engine::Actor | Engine::Exhaustive)) || cli.explore.is_some() {
            anyhow::bail!(
                "--svg, --dot, --svg-load and --trace show the executor's run; they take neither \
                 --explore nor --engine {}",
                req.engine.map_or("", Engine::name)
            );
        }
        let write = |option: &str, file: &std::path::Path, text: String| {
            std::fs::write(file, text)
                .map_err(|e| anyhow::anyhow!("{option} {}: {e}", file.display()))
        };
        if let Some(file) = &cli.svg {
            let (picture, what) = check::svg(&req, cli.slot)?;
            write("--svg", file, picture)?;
            eprintln!("wrote {}: {what}", file.display());
        }
        if let Some(file) = &cli.dot {
            let (graph, what) = export::dot(&req)?;
            write("--dot", file, graph)?;
            eprintln!("wrote {}: {what}", file.display());
        }
        if let Some(file) = &cli.svg_load {
            let (picture, what) = export::load(&req)?;
            write("--svg-load", file, picture)?;
            eprintln!("wrote {}: {what}", file.display());
        }
        if let Some(file) = &cli.trace {
            // Ctrl-C stops the trace at its next line, which is then removed.
            let _ = ctrlc::set_handler(|| {
                if INTERRUPTED.swap(true, Relaxed) {
                    std::process::exit(130);
                }
            });
            let f = std::fs::File::create(file)
                .map_err(|e| anyhow::anyhow!("--trace {}: {e}", file.display()))?;
            let mut out = std::io::BufWriter::new(f);
            let written = export::trace(&req, &mut out)
                .map_err(anyhow::Error::from)
                .and_then(|what| {
                    std::io::Write::flush(&mut out)?;
                    Ok(what)
                });
            match written {
                Ok(what) => eprintln!("wrote {}: {what}", file.display()),
                Err(e) => {
                    // No partial trace left behind to be mistaken for a
                    // whole one (a regular file: never /dev/stdout).
                    drop(out);
                    if std::fs::metadata(file).is_ok_and(|m| m.is_file()) {
                        let _ = std::fs::remove_file(file);
                    }
                    return Err(e);
                }
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(addr) = &cli.explore {
        if req.engine == Some(Engine::Executor) || req.engine == Some(Engine::Actor) {
            anyhow::bail!(
                "--explore serves the lock-step model; it does not take --engine {}",
                req.engine.map_or("", Engine::name)
            );
        }
        if cli.json {
            anyhow::bail!("--explore serves a web page; it does not print a --json report");
        }
        check::explore(&req, addr)?;
        return Ok(ExitCode::SUCCESS);
    }
    req.progress = !cli.json && !cli.quiet && std::io::stderr().is_terminal();
    req.announce = !cli.json && !cli.quiet;
    req.distribution = cli.distribution;
    // Ctrl-C: stop at the next budget check and report; a second one ends at once.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Relaxed) {
            std::process::exit(130);
        }
    });
    // --all-k, --all-ell: one check per value in the algorithm's range, in
    // order; the exit code is the worst of them.
    let sweep = |flag: &str, all: &str| -> anyhow::Result<Vec<u64>> {
        let Some(p) = algorithm.info().params.iter().find(|p| p.flag == flag) else {
            anyhow::bail!("{} does not take {flag}, so not {all}", algorithm.name());
        };
        let (lo, hi) = (p.range)(req.config.n);
        Ok((lo..=hi).collect())
    };
    let values: Vec<(Option<u64>, Option<u64>)> = match (cli.all_k, cli.all_ell) {
        (true, true) => anyhow::bail!("--all-k and --all-ell exclude each other"),
        (true, false) => {
            if cli.k.is_some() || cli.broadcasters.is_some() {
                anyhow::bail!("--all-k checks every K: it excludes --k and --broadcasters");
            }
            sweep("--k", "--all-k")?
                .into_iter()
                .map(|k| (Some(k), None))
                .collect()
        }
        (false, true) => {
            if cli.ell.is_some() {
                anyhow::bail!("--all-ell checks every l: it excludes --ell");
            }
            sweep("--ell", "--all-ell")?
                .into_iter()
                .map(|l| (None, Some(l)))
                .collect()
        }
        (false, false) => vec![(None, None)],
    };
    let mut outcomes = Vec::new();
    for (k, ell) in values {
        let mut req = req.clone();
        if k.is_some() || ell.is_some() {
            let params = models::catalog::Params {
                k: k.or(req.config.params.k),
                ell: ell.or(req.config.params.ell),
                ..req.config.params.clone()
            };
            req.config = algorithm.with_params(req.config.clone(), params)?;
        }
        let outcome = check::check(&req)?;
        if !cli.json {
            print!("{}", outcome.text());
        }
        outcomes.push(outcome);
        if INTERRUPTED.load(Relaxed) {
            break;
        }
    }
    if cli.json {
        match outcomes.as_slice() {
            [one] => println!("{}", serde_json::to_string_pretty(one)?),
            all => println!("{}", serde_json::to_string_pretty(all)?),
        }
    }
    Ok(if outcomes.iter().any(|o| o.refuted()) {
        ExitCode::from(1)
    } else if outcomes.iter().any(|o| o.undecided()) || INTERRUPTED.load(Relaxed) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// The algorithm name closest to a mistyped one, if any is close.
fn suggest(name: &str) -> Option<&'static str> {
    /// Edits between a and b, a swap of neighbours counting one (optimal
    /// string alignment): `nbo` is one from `nob`, two from `mnb`.
    fn distance(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                d[i][j] = (d[i - 1][j - 1] + cost)
                    .min(d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    }
    Algorithm::ALL
        .iter()
        .map(|a| (distance(name, a.name()), a.name()))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, n)| n)
}

/// The sides `check table fujita --max-side N` sweeps: 4, 8, ..., N.
fn fujita_sides(max: Option<&str>) -> anyhow::Result<Vec<u32>> {
    let sides = table::fujita::SIDES;
    let Some(max) = max else {
        return Ok(sides.to_vec());
    };
    let accepted = || {
        sides
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let n: u32 = max
        .parse()
        .map_err(|_| anyhow::anyhow!("--max-side {max} is not a side; accepted: {}", accepted()))?;
    if !sides.contains(&n) {
        anyhow::bail!(
            "--max-side {n}: the table sweeps powers of two from 4 to 256 (where PARTITION \
             and CENTRALIZE are complete); accepted: {}",
            accepted()
        );
    }
    Ok(sides.iter().copied().filter(|&s| s <= n).collect())
}

/// A `--source` on a mesh or torus: coordinates counted from 0 (`2,3`) or a
/// node id.
fn grid_source(grid: &models::Grid, text: &str) -> anyhow::Result<u32> {
    use models::Topology;
    let name = grid.name();
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let numbers = parts
        .iter()
        .map(|t| t.parse::<u64>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| {
            anyhow::anyhow!(
                "source '{text}' is neither coordinates (such as {}) nor a node id of {name}",
                vec!["0"; grid.dims()].join(",")
            )
        })?;
    match numbers.len() {
        1 if grid.dims() > 1 || numbers[0] < grid.nodes() as u64 => {
            let id = numbers[0];
            if id >= grid.nodes() as u64 {
                anyhow::bail!(
                    "source {id} is not a node of {name}: ids 0..={}",
                    grid.nodes() - 1
                );
            }
            Ok(id as u32)
        }
        k if k == grid.dims() => {
            for (i, (&a, &z)) in numbers.iter().zip(grid.sides()).enumerate() {
                if a >= z as u64 {
                    anyhow::bail!(
                        "source ({text}) is outside {name}: coordinate {} is {a}, accepted 0..={}",
                        i + 1,
                        z - 1
                    );
                }
            }
            let coords: Vec<u32> = numbers.iter().map(|&a| a as u32).collect();
            Ok(grid.node(&coords))
        }
        k => anyhow::bail!(
            "source '{text}' has {k} coordinates; {name} has {}",
            grid.dims()
        ),
    }
}
