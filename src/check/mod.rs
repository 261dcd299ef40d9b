//! One check: plan it (engine, inputs, symmetry), run the engines, and
//! turn their verdicts into an [`Outcome`]. Generic over the protocol;
//! `with_protocol!` is the one place that names every algorithm.

pub mod progress;

use crate::engine::executor::{self, Run};
use crate::engine::exhaustive::{self, Budget, Finding, Search};
use crate::engine::lockstep::LockStep;
use crate::engine::memory::{self, Allowance};
use crate::engine::search::{Cut, Progress};
pub use crate::engine::Engine;
use crate::report::{
    counterexample, Counterexample, Coverage, Distribution, Outcome, Params, PropertyReport, Time,
    TimeRow, ValueRow,
};
use models::catalog::{check_source, Algorithm, Config, ModelError, Ports, Switching};
use models::{with_protocol, Protocol, Symmetry, Topology};
use properties::{PropertyName, Slot, Status};
use stateright::Model;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Largest n the Explorer serves (a picture of 2^n nodes stays readable
/// only so far).
pub const EXPLORER_REACH: u32 = 10;
/// Largest n at which `--all-sources` lists every source.
pub const ALL_SOURCES_REACH: u32 = 20;

/// What to check.
#[derive(Clone, Debug)]
pub struct Request {
    pub algorithm: Algorithm,
    pub config: Config,
    pub source: Option<u32>,
    /// Check every source, not one per symmetry orbit.
    pub all_sources: bool,
    /// None: exhaustive within the algorithm's reach, else the executor.
    pub engine: Option<Engine>,
    pub threads: usize,
    pub max_states: Option<u64>,
    pub timeout: Option<Duration>,
    /// Bytes of memory the check may use in all (`--max-memory`).
    pub max_memory: Option<u64>,
    /// Show progress on stderr.
    pub progress: bool,
    /// Say on stderr, before a search past its reach starts, what it will do.
    pub announce: bool,
    /// Report the distribution over random draws (`--distribution`).
    pub distribution: bool,
}

/// A check that cannot run, worded for the user.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error(
        "n = {n} is past the reach of the {engine} engine for {algorithm} (n <= {reach} \
         finishes without a budget); use --engine executor, or give a budget with \
         --max-states or --timeout"
    )]
    PastReach {
        algorithm: &'static str,
        n: u32,
        engine: &'static str,
        reach: u32,
    },
    #[error(
        "--distribution is over random draws, checked exhaustively: {algorithm} with this \
         engine has none (kbcast-random has; the executor makes one run)"
    )]
    NoDistribution { algorithm: &'static str },
    #[error(
        "the executor needs about {need_gb:.1} GB for n = {n}, more than the {have_gb:.1} GB \
         this check may use here; the largest n that fits is {fits}"
    )]
    Memory {
        n: u32,
        need_gb: f64,
        have_gb: f64,
        fits: u32,
    },
    #[error(
        "the Explorer serves the lock-step model: n = {n} is past its reach for {algorithm} \
         (n <= {reach})"
    )]
    ExplorerReach {
        algorithm: &'static str,
        n: u32,
        reach: u32,
    },
    #[error("{option} draws up to {max} nodes; this network has {nodes}")]
    TooBigToDraw {
        option: &'static str,
        nodes: u32,
        max: u32,
    },
    #[error("--svg-load draws up to {max} resources; this network has {resources}")]
    TooManyResources { resources: u64, max: u64 },
    #[error("--svg-load draws up to {max} slots; the run is longer")]
    TooLongToDraw { max: Slot },
    #[error("--trace follows networks of up to {max} nodes; this one has {nodes}")]
    TooBigToTrace { nodes: u32, max: u32 },
    #[error("--trace writes up to {max} transmissions; {}", match least {
        Some(l) => format!("this run makes at least {l}"),
        None => "the run makes more".to_string(),
    })]
    TraceTooLong { least: Option<u64>, max: u64 },
    #[error("--trace interrupted (Ctrl-C); the partial trace is removed")]
    TraceInterrupted,
    #[error("writing the output: {0}")]
    Write(String),
    #[error("{algorithm} is not event-driven, so it has no actor model; use --engine lockstep")]
    NotEventDriven { algorithm: &'static str },
    #[error("--all-sources is for the exhaustive engines; the executor makes one run (--source picks it)")]
    AllSourcesExecutor,
    #[error("--all-sources lists every source up to n = {reach}; n = {n} has 2^{n} of them")]
    AllSourcesReach { n: u32, reach: u32 },
    #[error("{algorithm} has no single source: --source and --all-sources do not apply")]
    NoSource { algorithm: &'static str },
    #[error("cannot serve the Explorer on {addr}: {why}")]
    Explorer { addr: String, why: String },
}

impl Request {
    /// The request for `algorithm` at dimension `n` in the given (or
    /// default) switching and port models, other options at their defaults.
    pub fn new(
        algorithm: Algorithm,
        n: u64,
        switching: Option<Switching>,
        ports: Option<Ports>,
    ) -> Result<Request, ModelError> {
        Ok(Request {
            algorithm,
            config: algorithm.config(n, switching, ports)?,
            source: None,
            all_sources: false,
            engine: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_states: None,
            timeout: None,
            max_memory: None,
            progress: false,
            announce: false,
            distribution: false,
        })
    }

    /// The command line that runs this request (for `reproduce with`).
    pub fn command(&self, source: Option<u32>) -> String {
        let mut s = format!("check {} {}", self.algorithm.name(), self.config.n);
        if let Some(src) = source.or(self.source) {
            s += &format!(" --source {src}");
        }
        let (ds, dp) = self.algorithm.modes()[0];
        if self.config.switching != ds {
            s += &format!(" --switching {}", self.config.switching);
        }
        if self.config.ports != dp {
            s += &format!(" --ports {}", self.config.ports);
        }
        if let Some(e) = self.engine {
            s += &format!(" --engine {}", e.name());
        }
        let params = &self.config.params;
        if let Some(k) = params.k {
            s += &format!(" --k {k}");
        }
        if let Some(l) = params.ell {
            s += &format!(" --ell {l}");
        }
        if let Some(b) = &params.broadcasters {
            let list: Vec<String> = b.iter().map(u32::to_string).collect();
            s += &format!(" --broadcasters {}", list.join(","));
        }
        if params.multiset {
            s += " --multiset";
        }
        s
    }

    fn budget(&self, memory: Option<Allowance>) -> Budget {
        Budget {
            threads: self.threads,
            max_states: self.max_states,
            timeout: self.timeout,
            memory,
            verify_probes: false,
        }
    }

    /// The budget in words (`--max-states 1000 or --timeout 60 s`).
    fn budget_words(&self) -> String {
        let mut parts = Vec::new();
        if let Some(m) = self.max_states {
            parts.push(format!("{m} generated states (--max-states)"));
        }
        if let Some(t) = self.timeout {
            parts.push(format!("{} s (--timeout)", t.as_secs()));
        }
        parts.push("the memory allowance".into());
        parts.join(" or ")
    }

    fn budgeted(&self) -> bool {
        self.max_states.is_some() || self.timeout.is_some()
    }
}

/// Runs the check `req` asks for.
pub fn check(req: &Request) -> Result<Outcome, CheckError> {
    refuse_past_memory(req)?;
    with_protocol!(req.algorithm, req.config.clone(), |p| run(Arc::new(p), req))
}

/// Transmissions per directed link-slot of the run, or per bus-step on a
/// mesh-bus (see `Outcome::link_utilization`, `Outcome::bus_utilization`).
fn utilization<T: Topology>(t: &T, buses: bool, time: Option<u32>, tx: Option<u64>) -> Option<f64> {
    let mut links = 0u64;
    match buses {
        // A mesh-bus's resources are its buses.
        true => links = t.resources(),
        false => t.links(|_, _| links += 2),
    }
    let slots = time.filter(|&s| s > 0)? as u64;
    Some(tx? as f64 / (slots * links) as f64).filter(|_| links > 0)
}

/// Refuses an executor run whose holdings alone, known from the
/// algorithm's cost model before anything is built, pass the allowance;
/// names the largest dimension whose holdings fit. (Runs that pass are
/// measured precisely once the protocol is built.)
fn refuse_past_memory(req: &Request) -> Result<(), CheckError> {
    let (engine, _) = engine(req);
    let Some(have) = (engine == Engine::Executor)
        .then(|| memory::allowance(req.max_memory))
        .flatten()
    else {
        return Ok(());
    };
    let n = req.config.n;
    let need = models::catalog::executor_bytes(req.algorithm, n);
    if need <= have.bytes {
        return Ok(());
    }
    let fits = (1..n)
        .rev()
        .find(|&d| models::catalog::executor_bytes(req.algorithm, d) <= have.bytes)
        .unwrap_or(0);
    Err(CheckError::Memory {
        n,
        need_gb: need as f64 / 1e9,
        have_gb: have.bytes as f64 / 1e9,
        fits,
    })
}

/// Serves the lock-step model of `req` in stateright's Explorer on `addr`
/// (the inputs the check would cover); returns only on error.
pub fn explore(req: &Request, addr: &str) -> Result<(), CheckError> {
    let reach = req.algorithm.reach().lockstep.min(EXPLORER_REACH);
    if req.config.n > reach {
        return Err(CheckError::ExplorerReach {
            algorithm: req.algorithm.name(),
            n: req.config.n,
            reach,
        });
    }
    // stateright panics if the address is taken: try it first.
    let fail = |why: String| CheckError::Explorer {
        addr: addr.to_string(),
        why,
    };
    drop(std::net::TcpListener::bind(addr).map_err(|e| fail(e.to_string()))?);
    // What the page will show, found first by commcheck's own search: the
    // report, with a link to each counterexample.
    let outcome = check(&Request {
        engine: Some(Engine::Lockstep),
        ..req.clone()
    })?;
    eprint!("{}", outcome.text());
    for p in &outcome.properties {
        if let Some(path) = &p.explorer_path {
            eprintln!("{} is violated: open http://{addr}/#/steps/{path}", p.name);
        }
    }
    let states = outcome.states.unwrap_or(u64::MAX);
    let finished = outcome.search.as_ref().is_some_and(|c| c.cut.is_none());
    let auto = finished && states <= EXPLORER_AUTO_RUN;
    with_protocol!(req.algorithm, req.config.clone(), |p| {
        let p = Arc::new(p);
        let (inputs, _) = inputs(&*p, req, Engine::Lockstep)?;
        eprintln!(
            "Explorer for `{}` on http://{addr}/ (Ctrl-C to stop)",
            req.command(None)
        );
        if auto {
            eprintln!(
                "The page checks the model itself ({states} states), so its Properties \
                 list links each violation."
            );
            run_to_completion(addr.to_string());
        } else {
            eprintln!(
                "The page checks nothing until Run to completion is pressed \
                 ({} states; it starts by itself up to {EXPLORER_AUTO_RUN}).",
                match finished {
                    true => states.to_string(),
                    false => "more than the search's budget".to_string(),
                }
            );
        }
        LockStep::new(p, inputs)
            .labelled()
            .drawn(crate::show::picture::draw)
            .checker()
            .threads(req.threads)
            .serve(addr);
        Ok(())
    })
}

/// Most states for which `--explore` starts the page's own check by
/// itself (stateright keeps every state in memory, about a kilobyte each).
pub const EXPLORER_AUTO_RUN: u64 = 200_000;

/// Presses the page's "Run to completion" once the Explorer listens at
/// `addr`.
fn run_to_completion(addr: String) {
    use std::io::Write;
    std::thread::spawn(move || {
        for _ in 0..200 {
            std::thread::sleep(Duration::from_millis(50));
            let Ok(mut s) = std::net::TcpStream::connect(&addr) else {
                continue;
            };
            let post = format!(
                "POST /.runtocompletion HTTP/1.0\r\nHost: {addr}\r\nContent-Length: 0\r\n\r\n"
            );
            if s.write_all(post.as_bytes()).is_ok() {
                let mut reply = String::new();
                let _ = std::io::Read::read_to_string(&mut s, &mut reply);
                if reply.starts_with("HTTP/1.1 200") || reply.starts_with("HTTP/1.0 200") {
                    return;
                }
            }
        }
        eprintln!("could not start the page's check: press Run to completion");
    });
}

/// `--svg FILE`: the picture of one slot of the run from the given source
/// (else the first input), every open choice at its first option: slot
/// `slot` if given, else the slot of its first violation, else its last.
/// Returns the SVG and what it shows.
pub fn svg(req: &Request, slot: Option<u32>) -> Result<(String, String), CheckError> {
    with_protocol!(req.algorithm, req.config.clone(), |p| {
        let nodes = p.topology().nodes();
        if nodes > crate::show::picture::MAX_DRAWN {
            return Err(CheckError::TooBigToDraw {
                option: "--svg",
                nodes,
                max: crate::show::picture::MAX_DRAWN,
            });
        }
        let (model, what) = crate::show::export::one_run(p, req.source);
        let violated = |s: &crate::engine::lockstep::RunState<_, _>| {
            PropertyName::ALL
                .iter()
                .any(|&q| s.record.violation(q).is_some())
        };
        let state = match slot {
            Some(k) => model.first_choice_until(0, |s| s.slot >= k),
            None => {
                let state = model.first_choice_until(0, violated);
                match violated(&state) {
                    true => state,
                    // The last slot that delivered, not the quiet one after.
                    false => {
                        let last = state.record.last_delivery;
                        model.first_choice_until(0, |s| s.slot >= last)
                    }
                }
            }
        };
        let picture = crate::show::picture::draw(&model, &state);
        let why = match (slot, violated(&state)) {
            (Some(k), _) if k > state.slot => format!("the run ends before slot {k}"),
            (Some(_), _) => "the slot asked for".to_string(),
            (None, true) => "the first violation".to_string(),
            (None, false) => "the last slot".to_string(),
        };
        Ok((picture, format!("{what}, slot {} ({why})", state.slot)))
    })
}

/// The inputs a check covers, and the note that says which: the given
/// source; one per symmetry orbit unless `--all-sources`; the executor's
/// one run.
fn inputs<P: Protocol>(
    p: &P,
    req: &Request,
    engine: Engine,
) -> Result<(Vec<P::Input>, Option<String>), CheckError> {
    let n = req.config.n;
    let nodes = p.topology().nodes();
    let sourced = p.source_input(0).is_some();
    if let Some(s) = req.source {
        // A cube's source is checked here; a grid's by its coordinates.
        let s = match s < nodes {
            true => s,
            false => check_source(s as u64, n)?,
        };
        let inputs = p.sourced_inputs(s);
        if inputs.is_empty() {
            return Err(CheckError::NoSource {
                algorithm: req.algorithm.name(),
            });
        }
        let note = variants_note(p, inputs.len());
        return Ok((inputs, note));
    }
    if engine == Engine::Executor {
        if req.all_sources {
            return Err(CheckError::AllSourcesExecutor);
        }
        let note = match p.symmetry() {
            _ if !sourced => format!(
                "the executor makes one run: {}{}",
                p.describe_input(&p.first_input()),
                if p.inputs_total() > 1 {
                    " (every choice the paper leaves open at its first option)"
                } else {
                    ""
                }
            ),
            Some(Symmetry::XorTranslation) => format!(
                "sources: the executor's one run is from source {}; the other {} are its \
                 xor images (symmetry tested); --source picks another",
                p.topology().node_label(0),
                nodes - 1
            ),
            None => format!(
                "the executor makes one run, from source {}; --source picks another",
                p.topology().node_label(0)
            ),
        };
        return Ok((vec![p.first_input()], Some(note)));
    }
    if !sourced {
        if req.all_sources {
            return Err(CheckError::NoSource {
                algorithm: req.algorithm.name(),
            });
        }
        let inputs = p.inputs();
        let total = p.inputs_total();
        let note = ((inputs.len() as u64) < total).then(|| {
            format!(
                "inputs: {} of {} variants of the construction checked ({})",
                inputs.len(),
                models::catalog::count_words(total),
                p.covered_inputs()
            )
        });
        return Ok((inputs, note));
    }
    if req.all_sources || p.symmetry().is_none() {
        // A cube of dimension n has 2^n sources; a grid names its nodes.
        let cube = req.algorithm.shape() == models::Shape::Cube;
        if (cube && n > ALL_SOURCES_REACH) || nodes > 1 << ALL_SOURCES_REACH {
            return Err(CheckError::AllSourcesReach {
                n,
                reach: ALL_SOURCES_REACH,
            });
        }
        let inputs = p.inputs();
        let note = variants_note(p, inputs.len() / nodes as usize);
        return Ok((inputs, note));
    }
    let inputs = p.sourced_inputs(0);
    let mut note = format!(
        "sources: 1 of {nodes} checked, the rest are xor images (symmetry tested); \
         --all-sources checks every one"
    );
    if let Some(v) = variants_note(p, inputs.len()) {
        note += &format!("; {v}");
    }
    Ok((inputs, Some(note)))
}

/// Says how many of one source's construction variants a check covers, if
/// not all of them.
fn variants_note<P: Protocol>(p: &P, covered: usize) -> Option<String> {
    let per_source = match p.inputs_total() {
        u64::MAX => u64::MAX,
        total => total / p.topology().nodes() as u64,
    };
    ((covered as u64) < per_source).then(|| {
        format!(
            "variants of the construction: {covered} of {} checked ({})",
            models::catalog::count_words(per_source),
            p.covered_inputs()
        )
    })
}

/// The engine a request runs, and a note when the default is the
/// executor because n is past the exhaustive reach.
fn engine(req: &Request) -> (Engine, Option<String>) {
    let n = req.config.n;
    let reach = req.algorithm.reach().lockstep;
    match req.engine {
        Some(e) => (e, None),
        None if n <= reach => (Engine::Exhaustive, None),
        None => (
            Engine::Executor,
            Some(format!(
                "n = {n} is past the exhaustive reach of {} (n <= {reach} finishes in under \
                 10 s): one executor run, first choice wherever the paper leaves one open; \
                 --engine exhaustive with a budget searches further",
                req.algorithm.name()
            )),
        ),
    }
}

/// What the engines of one check found.
struct Results {
    lock: Option<Search>,
    actors: Option<Search>,
    executed: Option<Run>,
    label: String,
}

fn run<P: Protocol + 'static>(p: Arc<P>, req: &Request) -> Result<Outcome, CheckError> {
    let start = Instant::now();
    let n = req.config.n;
    let (engine, engine_note) = engine(req);
    if engine == Engine::Actor && !p.event_driven() {
        return Err(CheckError::NotEventDriven {
            algorithm: req.algorithm.name(),
        });
    }
    let reach = req.algorithm.reach();
    let engine_reach = match engine {
        Engine::Actor => reach.actor,
        Engine::Executor => u32::MAX,
        _ => reach.lockstep,
    };
    if n > engine_reach && !req.budgeted() {
        return Err(CheckError::PastReach {
            algorithm: req.algorithm.name(),
            n,
            engine: engine.name(),
            reach: engine_reach,
        });
    }
    let (inputs, inputs_note) = inputs(&*p, req, engine)?;
    if req.distribution && (engine == Engine::Executor || p.drawn(&inputs[0]).is_none()) {
        return Err(CheckError::NoDistribution {
            algorithm: req.algorithm.name(),
        });
    }
    let mut notes: Vec<String> = engine_note.into_iter().chain(inputs_note).collect();
    if n > engine_reach {
        // Said before the search starts: it will run to its budget.
        let note = format!(
            "n = {n} is past the reach of the {} engine for {} (n <= {engine_reach} finishes \
             in under 10 s on 2 cores; BENCHMARKS.md): the search runs until {}, then \
             reports how far it got",
            engine.name(),
            req.algorithm.name(),
            req.budget_words()
        );
        if req.announce {
            eprintln!("note: {note}");
        }
        notes.push(note);
    }
    let allowance = memory::allowance(req.max_memory);
    let progress = Progress {
        // The executor's budget (a search computes its own deadline).
        deadline: (engine == Engine::Executor)
            .then(|| crate::engine::search::deadline(req.timeout))
            .flatten(),
        ..Progress::default()
    };
    let stop = AtomicBool::new(false);
    let results = std::thread::scope(|scope| {
        if req.progress {
            scope.spawn(|| crate::check::progress::show(&progress, engine, &stop));
        }
        let results = execute(&p, req, engine, &inputs, allowance, &progress, &mut notes);
        stop.store(true, Relaxed);
        results
    })?;
    Ok(report(&*p, req, &inputs, results, notes, start))
}

/// Runs the engines `engine` stands for.
fn execute<P: Protocol + 'static>(
    p: &Arc<P>,
    req: &Request,
    engine: Engine,
    inputs: &[P::Input],
    allowance: Option<Allowance>,
    progress: &Progress,
    notes: &mut Vec<String>,
) -> Result<Results, CheckError> {
    let n = req.config.n;
    let mut results = Results {
        lock: None,
        actors: None,
        executed: None,
        label: engine.name().to_string(),
    };
    match engine {
        Engine::Executor => {
            if req.max_states.is_some() {
                notes.push(
                    "--max-states applies to exhaustive searches; the executor's one run \
                     stops at --timeout, Ctrl-C or its end"
                        .into(),
                );
            }
            if let Some(have) = allowance {
                let need = executor::memory_needed(&**p, &p.task(&inputs[0]));
                if need > have.bytes {
                    // Memory doubles per dimension.
                    let mut fits = n;
                    while fits > 1 && need >> (n - fits) > have.bytes {
                        fits -= 1;
                    }
                    return Err(CheckError::Memory {
                        n,
                        need_gb: need as f64 / 1e9,
                        have_gb: have.bytes as f64 / 1e9,
                        fits,
                    });
                }
            }
            let run = executor::run_with(&**p, &inputs[0], progress, req.threads);
            if let Some(cut) = run.cut {
                notes.push(format!(
                    "the executor stopped in slot {}: {}; verdicts not reached are unknown",
                    run.slots + 1,
                    cut.reason()
                ));
            }
            results.executed = Some(run);
        }
        Engine::Exhaustive | Engine::Lockstep => {
            let budget = req.budget(allowance);
            let lock = exhaustive::lockstep_with(Arc::clone(p), inputs.to_vec(), budget, progress);
            let actor_auto = req.algorithm.reach().actor_auto;
            if engine == Engine::Exhaustive {
                if p.event_driven() && n <= actor_auto && lock.cut.is_none() {
                    let left = Budget {
                        max_states: budget.max_states.map(|m| m.saturating_sub(lock.generated)),
                        ..budget
                    };
                    results.actors = Some(exhaustive::actors(Arc::clone(p), inputs, left));
                    results.label = "exhaustive (lock-step and actor model)".into();
                } else {
                    results.label = "exhaustive (lock-step)".into();
                    if p.event_driven() && lock.cut.is_none() {
                        notes.push(format!(
                            "actor model not run at n = {n} > {actor_auto}; --engine actor runs it"
                        ));
                    }
                }
            }
            results.lock = Some(lock);
        }
        Engine::Actor => {
            let budget = req.budget(allowance);
            results.actors = Some(exhaustive::actors_with(
                Arc::clone(p),
                inputs,
                budget,
                progress,
            ));
            notes.push(
                "contention-freedom needs a global slot: the actor model does not judge it".into(),
            );
        }
    }
    for (s, what) in [
        (&results.lock, "lock-step"),
        (&results.actors, "actor model"),
    ] {
        let Some(s) = s else { continue };
        if let Some(cut) = s.cut {
            notes.push(format!(
                "the {what} search stopped: {}, after {} generated states ({} unique), \
                 depth {}, sources done {} of {}; verdicts not reached are unknown",
                cut.reason(),
                s.generated,
                s.unique_states,
                s.depth,
                s.inputs_done,
                s.inputs_total
            ));
        }
        if s.no_run_ends {
            notes.push(format!("no run of the {what} ended: the model is vacuous"));
        }
    }
    Ok(results)
}

/// Turns what the engines found into the report.
fn report<P: Protocol>(
    p: &P,
    req: &Request,
    inputs: &[P::Input],
    results: Results,
    notes: Vec<String>,
    start: Instant,
) -> Outcome {
    let claims = p.claims();
    let topology = p.topology();
    let Results {
        lock,
        actors,
        executed,
        label,
    } = results;
    let describe_finding = |f: &Finding, by: &'static str| -> Option<Counterexample> {
        let v = f.violation.as_ref()?;
        let input = &inputs[f.input.unwrap_or(0)];
        let order = if by == "actor model" {
            " (some delivery order)"
        } else {
            ""
        };
        Some(counterexample(
            topology,
            &p.task(input),
            p.describe_input(input),
            order,
            v,
        ))
    };
    let mut reports = Vec::new();
    let mut reproduce = None;
    for (i, &prop) in PropertyName::ALL.iter().enumerate() {
        let claimed = claims.claims(prop);
        let mut report = PropertyReport {
            name: prop.as_str(),
            claimed,
            status: Status::Holds.as_str(),
            counterexample: None,
            found_by: None,
            explorer_path: None,
        };
        if let Some(run) = &executed {
            let ev = &run.record.evidence(&claims)[i];
            report.status = ev.status.as_str();
            report.counterexample = ev.violation.map(|v| {
                let input = &inputs[0];
                counterexample(topology, &p.task(input), p.describe_input(input), "", &v)
            });
            report.found_by = ev.violation.map(|_| "executor");
        }
        let mut unknown = false;
        let searches = [
            (lock.as_ref(), "lock-step"),
            (actors.as_ref(), "actor model"),
        ];
        for (search, by) in searches {
            let Some(f) = search.map(|s| &s.findings[i]) else {
                continue;
            };
            let judged = !(by == "actor model" && prop == PropertyName::ContentionFreedom);
            if !judged {
                unknown |= lock.is_none();
                continue;
            }
            match f.status {
                Status::Violated if report.counterexample.is_none() => {
                    report.status = Status::Violated.as_str();
                    report.counterexample = describe_finding(f, by);
                    report.found_by = Some(by);
                    report.explorer_path = f.path.clone();
                    if claimed && reproduce.is_none() {
                        let src = f.input.map(|ix| source_of(p, &inputs[ix]));
                        reproduce = Some(req.command(src.flatten()));
                    }
                }
                Status::Unknown => unknown = true,
                _ => {}
            }
        }
        if unknown && report.counterexample.is_none() {
            report.status = Status::Unknown.as_str();
        }
        if claimed && report.found_by == Some("executor") && reproduce.is_none() {
            reproduce = Some(req.command(source_of(p, &inputs[0])));
        }
        reports.push(report);
    }

    if let Some(forced) = p.forced() {
        reports.push(forced_report(p, inputs, forced, lock.as_ref()));
    }
    let (measured, tx) = match (&executed, &lock) {
        // A run cut short measured neither.
        (Some(run), _) if run.cut.is_some() => (None, None),
        (Some(run), _) => (
            Some(run.record.last_delivery),
            Some((run.record.transmissions, run.record.transmissions)),
        ),
        (None, Some(s)) => (s.worst_time, s.transmissions),
        _ => (None, None),
    };
    let coverage = |s: &Search| Coverage {
        generated: s.generated,
        unique: s.unique_states,
        depth: s.depth as u64,
        inputs_done: s.inputs_done,
        inputs_total: s.inputs_total,
        cut: s.cut.map(Cut::name),
    };
    let mesh = matches!(req.algorithm.shape(), models::Shape::MeshBus { .. });
    let utilized = utilization(topology, mesh, measured, tx.map(|t| t.1).filter(|&t| t > 0));
    let optimal = claims.transmissions.unwrap_or_else(|| {
        inputs
            .first()
            .map_or(0, |i| p.task(i).least_transmissions())
    });
    Outcome {
        algorithm: req.algorithm.name(),
        params: Params {
            n: req.config.n,
            source: req.source.map(|s| topology.node_label(s)),
            switching: switching_name(req.config.switching).into(),
            ports: ports_name(req.config.ports).into(),
            k: req.config.params.k,
            ell: req.config.params.ell.or(mesh.then(|| {
                inputs
                    .first()
                    .and_then(|i| p.task(i).message_limit())
                    .map_or(0, u64::from)
            })),
            network: topology.network().or_else(|| {
                mesh.then(|| {
                    models::Shape::MeshBus { min: 0 }
                        .network(req.config.n)
                        .trim_start_matches("the ")
                        .to_string()
                })
            }),
        },
        engine: label,
        properties: reports,
        worst_input: lock
            .as_ref()
            .filter(|_| inputs.len() > 1)
            .and_then(|s| s.worst_input)
            .map(|ix| p.describe_input(&inputs[ix])),
        time: Time {
            measured,
            bound: claims.bound,
            lower_bound: claims.lower_bound,
            lower_bounds: p
                .lower_bounds()
                .into_iter()
                .map(|(name, steps)| crate::report::NamedBound { name, steps })
                .collect(),
        },
        // A store-and-forward transmission is one link-slot (a worm is more);
        // a bus write one bus-step.
        bus_utilization: utilized.filter(|_| mesh),
        link_utilization: utilized.filter(|_| !mesh && req.config.switching == Switching::Sf),
        transmissions: tx.map(|t| t.1),
        transmissions_min: tx.map(|t| t.0),
        optimal_transmissions: optimal,
        distribution: lock
            .as_ref()
            .filter(|_| req.distribution)
            .map(|s| distribution(&*p, inputs, s)),
        control_messages: match (&executed, &lock) {
            (Some(run), _) => Some(run.record.control),
            (None, Some(s)) => Some(s.control),
            _ => None,
        }
        .filter(|&c| c > 0),
        states: lock.as_ref().map(|s| s.unique_states),
        actor_states: actors.as_ref().map(|s| s.unique_states),
        search: lock.as_ref().map(coverage),
        actor_search: actors.as_ref().map(coverage),
        sources_total: topology.nodes(),
        inputs_total: p.inputs_total(),
        sourced: p.source_input(0).is_some(),
        inputs_checked: inputs.len(),
        inputs: inputs
            .iter()
            .take(crate::report::LISTED)
            .map(|i| p.describe_input(i))
            .collect(),
        elapsed_ms: start.elapsed().as_millis(),
        notes,
        reproduce,
    }
}

/// The report of a sometimes claim ([`Protocol::forced`]): the lowest
/// input each of whose runs takes at least `forced` slots, if the search
/// found one.
fn forced_report<P: Protocol>(
    p: &P,
    inputs: &[P::Input],
    (forced, claimed): (properties::Slot, bool),
    lock: Option<&Search>,
) -> PropertyReport {
    let witness = lock.and_then(|s| s.by_input.iter().find(|(_, (lo, _))| *lo >= forced));
    let finished = lock.is_some_and(|s| s.cut.is_none());
    PropertyReport {
        name: "forced-slots",
        claimed,
        status: match (witness, finished) {
            (Some(_), _) => Status::Holds.as_str(),
            (None, true) => Status::Violated.as_str(),
            (None, false) => Status::Unknown.as_str(),
        },
        counterexample: match witness {
            Some((ix, (lo, _))) => Some(Counterexample {
                input: Some(p.describe_input(&inputs[*ix])),
                ..Counterexample::text(format!(
                    "witness: {} takes at least {lo} slots in every run (>= {forced})",
                    p.describe_input(&inputs[*ix])
                ))
            }),
            None if finished => Some(Counterexample::text(format!(
                "no input checked forces {forced} slots in every run"
            ))),
            None => None,
        },
        found_by: None,
        explorer_path: None,
    }
}

/// The distribution of the drawn quantity and of the completion time over
/// the inputs a search covered, each weighted alike.
fn distribution<P: Protocol>(p: &P, inputs: &[P::Input], s: &Search) -> Distribution {
    use std::collections::BTreeMap;
    let total = s.by_input.len() as u64;
    let share = |c: u64| c as f64 / total.max(1) as f64;
    let mut values: BTreeMap<u64, u64> = BTreeMap::new();
    let mut times: BTreeMap<properties::Slot, u64> = BTreeMap::new();
    for &(ix, (_, t)) in &s.by_input {
        *values.entry(p.drawn(&inputs[ix]).unwrap_or(0)).or_default() += 1;
        *times.entry(t).or_default() += 1;
    }
    let mut above = total;
    let quantity = p.drawn_tail(0).0;
    let values = values
        .into_iter()
        .map(|(value, n)| {
            let row = ValueRow {
                value,
                inputs: n,
                p: share(n),
                p_at_least: share(above),
                bound: p.drawn_tail(value).1,
            };
            above -= n;
            row
        })
        .collect();
    let mut upto = 0;
    let times = times
        .into_iter()
        .map(|(slots, n)| {
            upto += n;
            TimeRow {
                slots,
                inputs: n,
                p: share(n),
                p_at_most: share(upto),
            }
        })
        .collect();
    Distribution {
        inputs: total,
        exact: total == p.inputs_total(),
        quantity,
        values,
        times,
    }
}

/// The source node of an input, found by asking which source gives it
/// (a check covers few inputs; the executor's is source 0 or --source).
fn source_of<P: Protocol>(p: &P, input: &P::Input) -> Option<u32> {
    if p.source_input(0).as_ref() == Some(input) {
        return Some(0);
    }
    (0..p.topology().nodes()).find(|&s| p.source_input(s).as_ref() == Some(input))
}

fn switching_name(s: Switching) -> &'static str {
    match s {
        Switching::Wh => "wormhole",
        Switching::Sf => "store-and-forward",
    }
}

fn ports_name(p: Ports) -> &'static str {
    match p {
        Ports::All => "all",
        Ports::One => "one",
    }
}
