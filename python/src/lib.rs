//! `commcheck._native`: the Python package's way into commcheck
//! (docs/python.md). The package turns its keyword arguments into the
//! command line's own words; this module parses them with the command
//! line's parser ([`commcheck::cli`]), runs the check in this process with
//! the GIL released, and hands back the report as the JSON `--json`
//! prints: a report from Python is the command line's, field for field,
//! and nothing is written on stdout or stderr but the progress asked for.

use clap::Parser;
use commcheck::check::progress::Sink;
use commcheck::check::CheckError;
use commcheck::cli::{self, args::Cli, Command};
use commcheck::engine::search::INTERRUPTED;
use commcheck::import::ImportError;
use models::topology::{Network, NetworkSpec};
use models::{Ports, Switching, Topology};
use pyo3::prelude::*;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// Why a request gave no report: the command line's one line, and where
/// a file is at fault, the place.
enum Failure {
    /// Bad words or values (Python's `UsageError`).
    Usage(String),
    /// A file that cannot be read as what it should be (`FormatError`).
    Format {
        file: String,
        line: u32,
        column: u32,
        message: String,
    },
}

impl Failure {
    fn of_import(e: &ImportError) -> Failure {
        match e {
            ImportError::Usage(m) => Failure::Usage(m.clone()),
            ImportError::Unreadable { file, .. } => Failure::Format {
                file: file.clone(),
                line: 0,
                column: 0,
                message: e.to_string(),
            },
            ImportError::File {
                file, line, column, ..
            } => Failure::Format {
                file: file.clone(),
                line: *line,
                column: *column,
                message: e.to_string(),
            },
        }
    }

    fn of_check(e: &CheckError) -> Failure {
        match e {
            CheckError::Import(i) => Failure::of_import(i),
            other => Failure::Usage(other.to_string()),
        }
    }

    fn of_anyhow(e: &anyhow::Error) -> Failure {
        if let Some(c) = e.downcast_ref::<CheckError>() {
            return Failure::of_check(c);
        }
        if let Some(i) = e.downcast_ref::<ImportError>() {
            return Failure::of_import(i);
        }
        if let Some(r) = e.downcast_ref::<cli::Refused>() {
            return Failure::of_clap(&r.error, &r.command);
        }
        Failure::Usage(format!("{e:#}"))
    }

    fn of_clap(e: &clap::Error, command: &str) -> Failure {
        let line = cli::refusal(e, command).unwrap_or_else(|| {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or_default();
            first.trim_start_matches("error: ").to_string()
        });
        Failure::Usage(line)
    }

    /// As the package takes it: ("usage", the line) or ("format", JSON
    /// of the file, line, column and line of words).
    fn into_python(self) -> (String, String) {
        match self {
            Failure::Usage(m) => ("usage".into(), m),
            Failure::Format {
                file,
                line,
                column,
                message,
            } => {
                let place = serde_json::json!({
                    "file": file, "line": line, "column": column, "message": message,
                });
                ("format".into(), place.to_string())
            }
        }
    }
}

/// `check WORDS`, resolved as the command line resolves it.
fn parse(words: &[String]) -> Result<Command, Failure> {
    let command = words.first().map_or("", String::as_str);
    let all = std::iter::once("check").chain(words.iter().map(String::as_str));
    let parsed = Cli::try_parse_from(all).map_err(|e| Failure::of_clap(&e, command))?;
    cli::resolve(parsed).map_err(|e| Failure::of_anyhow(&e))
}

/// Runs a check command quietly: its reports as `--json` prints them, and
/// the words of a sweep `--timeout` cut short (else empty); progress
/// lines, where asked for, to `progress`.
fn check(words: &[String], progress: Option<&Sink>) -> Result<(String, String), Failure> {
    let quiet = |o: &mut commcheck::check::Options| {
        o.progress = progress.is_some();
        o.progress_to = progress.cloned();
        o.announce = false;
    };
    match parse(words)? {
        Command::Check(mut requests, _, timing) => {
            for r in &mut requests {
                quiet(&mut r.options);
            }
            let (outcomes, cut) = cli::checks(&requests, timing.as_ref(), &mut |_| {})
                .map_err(|e| Failure::of_check(&e))?;
            let text = match outcomes.as_slice() {
                [one] => json(one)?,
                all => json(&all)?,
            };
            Ok((text, cut.unwrap_or_default()))
        }
        Command::Schedule(mut request, _) => {
            quiet(&mut request.options);
            match commcheck::check::schedule::check_schedule(&request) {
                // Cut short while the file was read: no report, the words.
                Err(unbuilt @ CheckError::Unbuilt { .. }) => Ok(("[]".into(), unbuilt.to_string())),
                result => Ok((
                    json(&result.map_err(|e| Failure::of_check(&e))?)?,
                    String::new(),
                )),
            }
        }
        Command::Optimal(request, _) => {
            let found =
                commcheck::check::optimal::optimal(&request).map_err(|e| Failure::of_check(&e))?;
            Ok((json(&found)?, String::new()))
        }
        _ => Err(Failure::Usage(format!(
            "`check {}` is not a check: commcheck.check, check_schedule and optimal run checks",
            words.join(" ")
        ))),
    }
}

/// A report as `--json` prints it.
fn json(report: &impl serde::Serialize) -> Result<String, Failure> {
    serde_json::to_string_pretty(report).map_err(|e| Failure::Usage(e.to_string()))
}

/// The picture `--svg` draws of the run `words` name (the counterexample's
/// slot, or `slot`).
fn svg(words: &[String]) -> Result<String, Failure> {
    match parse(words)? {
        Command::Export(exported, exports) => {
            let slot = exports.svg.as_ref().and_then(|s| s.1);
            let (picture, _) = commcheck::show::export::svg(exported.of(), slot)
                .map_err(|e| Failure::of_check(&e))?;
            Ok(picture)
        }
        _ => Err(Failure::Usage("a picture is drawn with --svg".into())),
    }
}

/// The network `spec` names, as JSON: its name, nodes (number, name,
/// kind, whether worms cross it) and directed links (their kind, lanes,
/// bandwidth in GB/s and latency in ns where the network gives them).
fn network(spec: &str) -> Result<String, Failure> {
    let spec: NetworkSpec = spec
        .parse()
        .map_err(|e: models::topology::SpecError| Failure::Usage(e.to_string()))?;
    let built = commcheck::import::network::build(&spec, Switching::Sf, Ports::All)
        .map_err(|e| Failure::of_import(&e))?;
    let kind = |v: u32| match &built {
        Network::Graph(g) => (g.kind(v).name(), g.forwards(v)),
        _ => ("node", true),
    };
    let nodes: Vec<serde_json::Value> = models::with_network!(&built, |t| (0..t.nodes())
        .map(|v| {
            let (kind, forwards) = kind(v);
            serde_json::json!({
                "id": v, "name": t.node_label(v), "kind": kind, "forwards": forwards,
            })
        })
        .collect());
    let links: Vec<serde_json::Value> = match &built {
        Network::Graph(g) => g
            .arcs()
            .iter()
            .zip(g.attrs())
            .map(|(&(u, v), a)| {
                serde_json::json!({
                    "from": u, "to": v, "kind": a.kind.name(), "lanes": a.lanes,
                    "bandwidth": a.bandwidth, "latency": a.latency,
                })
            })
            .collect(),
        other => {
            let (mut arcs, _) = other.arcs_and_cuts();
            arcs.dedup();
            arcs.iter()
                .map(|&(u, v)| serde_json::json!({"from": u, "to": v, "kind": "link", "lanes": 1}))
                .collect()
        }
    };
    let description = serde_json::json!({
        "spec": spec.to_string(), "name": built.name(), "nodes": nodes, "links": links,
    });
    Ok(description.to_string())
}

/// Runs `work` off the GIL on a thread of its own, while this one looks
/// for Python's signals every 100 ms (and calls `tick` with the GIL
/// held): on Ctrl-C the check is told to stop (at its next budget check,
/// as the command line's does) and Python's `KeyboardInterrupt` is raised
/// once it has.
fn detached<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send,
    tick: &mut (dyn FnMut(Python<'_>) + Send),
) -> PyResult<T> {
    py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = mpsc::channel();
            let worker = s.spawn(move || {
                let _ = tx.send(work());
            });
            let mut interrupted = None;
            let got = loop {
                match rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(done) => break Some(done),
                    Err(mpsc::RecvTimeoutError::Disconnected) => break None,
                    Err(mpsc::RecvTimeoutError::Timeout) => Python::attach(|py| {
                        tick(py);
                        if interrupted.is_none() {
                            if let Err(e) = py.check_signals() {
                                INTERRUPTED.store(true, Relaxed);
                                interrupted = Some(e);
                            }
                        }
                    }),
                }
            };
            Python::attach(&mut *tick);
            let joined = worker.join();
            INTERRUPTED.store(false, Relaxed);
            if let Some(e) = interrupted {
                return Err(e);
            }
            match (got, joined) {
                (Some(done), _) => Ok(done),
                (None, Err(panic)) => {
                    let why = panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                        "commcheck failed inside: {why}"
                    )))
                }
                (None, Ok(())) => unreachable!("the worker sends before it ends"),
            }
        })
    })
}

/// What a call gives the package: ("ok", the result, a note) or
/// ("usage" | "format", the failure, "").
type Answer = (String, String, String);

fn answer(result: Result<(String, String), Failure>) -> Answer {
    match result {
        Ok((text, note)) => ("ok".into(), text, note),
        Err(f) => {
            let (kind, text) = f.into_python();
            (kind, text, String::new())
        }
    }
}

/// Runs `check WORDS` (a catalogue check, `schedule` or `optimal`) and
/// gives its JSON report; `progress`, where given, is called with each
/// progress line (then with "" at the end), from this thread.
#[pyfunction]
#[pyo3(signature = (words, progress = None))]
fn run(py: Python<'_>, words: Vec<String>, progress: Option<Py<PyAny>>) -> PyResult<Answer> {
    // The check's progress lines wait here for the next tick, the last
    // one only (a line a second; "" once it ends).
    let latest: Arc<Mutex<Option<String>>> = Arc::default();
    let sink = progress.as_ref().map(|_| {
        let latest = Arc::clone(&latest);
        Sink(Arc::new(move |line: &str| {
            *latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(line.to_string());
        }))
    });
    let mut failed: Option<PyErr> = None;
    let mut tick = |py: Python<'_>| {
        let line = latest.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let (Some(show), Some(line), None) = (&progress, line, &failed) {
            if let Err(e) = show.call1(py, (line,)) {
                failed = Some(e);
            }
        }
    };
    let ran = detached(py, || answer(check(&words, sink.as_ref())), &mut tick)?;
    match failed {
        Some(e) => Err(e),
        None => Ok(ran),
    }
}

/// The SVG picture of the run `check WORDS --svg -` draws.
#[pyfunction]
fn picture(py: Python<'_>, words: Vec<String>) -> PyResult<Answer> {
    let work = || answer(svg(&words).map(|p| (p, String::new())));
    detached(py, work, &mut |_| {})
}

/// The network `spec` names (as `--network` takes it), as JSON.
#[pyfunction]
fn describe_network(py: Python<'_>, spec: String) -> PyResult<Answer> {
    let work = || answer(network(&spec).map(|d| (d, String::new())));
    detached(py, work, &mut |_| {})
}

/// The module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(picture, m)?)?;
    m.add_function(wrap_pyfunction!(describe_network, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MACHINES", models::topology::machines::NAMES)?;
    Ok(())
}
