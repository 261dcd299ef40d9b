//! `check`: the command line of commcheck.
//!
//! Exit codes as ripgrep's: 0 every claim holds, 1 a claim is violated (the
//! counterexample is printed), 2 bad usage or an error, 3 a claim is left
//! unknown because the budget ran out.

use clap::{Parser, ValueEnum};
use commcheck::check::{self, Engine, Request};
use commcheck::table;
use models::catalog::{check_source, Algorithm, Ports, Switching};
use std::process::ExitCode;
use std::time::Duration;

/// Checks a communication algorithm exhaustively at small sizes, or runs it
/// once at large sizes, against the claims of its paper.
#[derive(Parser, Debug)]
#[command(
    name = "check",
    version,
    after_help = "Examples:\n  check nob 4\n  check naive-tree 3 --source 0\n  \
                  check nob 24 --engine executor\n  check list\n  check table wang-ku\n\n\
                  Exit codes: 0 claims hold, 1 a claim is violated, 2 usage error, 3 unknown (budget)."
)]
struct Cli {
    /// An algorithm (`check list` names them), `list`, or `table`
    target: String,
    /// The hypercube dimension n (for `table`: the table's name)
    arg: Option<String>,
    /// Source node (decimal, or binary with 0b); default: every node
    #[arg(long)]
    source: Option<String>,
    /// exhaustive (lock-step and actor model), lockstep, actor, or executor
    #[arg(long, value_enum)]
    engine: Option<EngineArg>,
    /// Switching: wh (wormhole) or sf (store-and-forward)
    #[arg(long, value_enum)]
    switching: Option<SwitchingArg>,
    /// Port model: all or one
    #[arg(long, value_enum)]
    ports: Option<PortsArg>,
    /// Print the report as one JSON object
    #[arg(long)]
    json: bool,
    /// Serve the model in stateright's Explorer [default: 127.0.0.1:3000]
    #[arg(long, num_args = 0..=1, default_missing_value = "127.0.0.1:3000", value_name = "ADDR")]
    explore: Option<String>,
    /// Checker threads (1..=256)
    #[arg(long)]
    threads: Option<u64>,
    /// Stop an exhaustive search after this many generated states
    #[arg(long, value_name = "N")]
    max_states: Option<u64>,
    /// Stop an exhaustive search after this many seconds
    #[arg(long, value_name = "SECS")]
    timeout: Option<u64>,
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let rendered = e.render().to_string();
            let line = rendered.lines().next().unwrap_or("invalid usage");
            eprintln!("{}", line.trim());
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => usage(e),
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.target.as_str() {
        "list" => {
            for a in Algorithm::ALL {
                println!("{:<14}{:<58}{}", a.name(), a.summary(), a.reference());
            }
            return Ok(ExitCode::SUCCESS);
        }
        "table" => {
            return match cli.arg.as_deref() {
                Some("wang-ku") => {
                    print!("{}", table::wang_ku_text());
                    Ok(ExitCode::SUCCESS)
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
    let algorithm = Algorithm::parse(&cli.target).map_err(|e| match suggest(&cli.target) {
        Some(s) => anyhow::anyhow!("{e} (did you mean '{s}'?)"),
        None => e.into(),
    })?;
    let max = models::Hypercube::MAX_DIM;
    let n_text = cli.arg.as_deref().ok_or_else(|| {
        anyhow::anyhow!(
            "missing the dimension n: `check {} N` with N in 1..={max}",
            cli.target
        )
    })?;
    let n: u64 = n_text
        .parse()
        .map_err(|_| anyhow::anyhow!("dimension '{n_text}' is not a number: accepted 1..={max}"))?;
    let switching = cli.switching.map(|s| match s {
        SwitchingArg::Wh => Switching::Wh,
        SwitchingArg::Sf => Switching::Sf,
    });
    let ports = cli.ports.map(|p| match p {
        PortsArg::All => Ports::All,
        PortsArg::One => Ports::One,
    });
    let mut req = Request::new(algorithm, n, switching, ports)?;
    if let Some(s) = &cli.source {
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
        req.max_states = Some(m as usize);
    }
    if let Some(t) = cli.timeout {
        if t == 0 {
            anyhow::bail!("--timeout 0 is out of range: accepted 1 second and more");
        }
        req.timeout = Some(Duration::from_secs(t));
        // stateright's timeout does not stop a one-thread search (STATERIGHT.md).
        req.threads = req.threads.max(2);
    }
    if let Some(addr) = &cli.explore {
        check::explore(&req, addr)?;
        return Ok(ExitCode::SUCCESS);
    }
    let outcome = check::check(&req)?;
    if cli.json {
        println!("{}", serde_json::to_string_pretty(&outcome)?);
    } else {
        print!("{}", outcome.text());
    }
    Ok(if outcome.refuted() {
        ExitCode::from(1)
    } else if outcome.undecided() {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// The algorithm name closest to a mistyped one, if any is close.
fn suggest(name: &str) -> Option<&'static str> {
    fn distance(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut prev = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let cur = row[j + 1];
                row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
                prev = cur;
            }
        }
        row[b.len()]
    }
    Algorithm::ALL
        .iter()
        .map(|a| (distance(name, a.name()), a.name()))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, n)| n)
}
