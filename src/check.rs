//! One check: resolve the engine, run it, and turn its verdicts into an
//! [`Outcome`]. Generic over the protocol; `with_protocol!` is the one
//! place that names every algorithm.

use crate::engine::exhaustive::{self, Budget, Finding, Search};
use crate::engine::{executor, lockstep::LockStep};
use crate::report::{describe, Outcome, Params, PropertyReport, Time};
use models::catalog::{check_source, Algorithm, Config, ModelError, Ports, Switching};
use models::{with_protocol, Protocol, Topology};
use properties::{PropertyName, Status};
use stateright::Model;
use std::sync::Arc;
use std::time::Instant;

/// Largest n the lock-step model is run at without an explicit budget.
pub const LOCKSTEP_REACH: u32 = 10;
/// Largest n the actor model is run at as part of `--engine exhaustive`.
pub const ACTOR_AUTO: u32 = 4;
/// Largest n the actor model is run at without an explicit budget.
pub const ACTOR_REACH: u32 = 5;
/// States an exhaustive search may generate unless told otherwise: keeps
/// memory bounded (about 16 bytes a state plus the search stack); past it
/// the verdicts not yet reached are `unknown`.
pub const DEFAULT_MAX_STATES: usize = 50_000_000;

/// Which engine checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The lock-step model, plus the actor model for event-driven protocols
    /// at n <= ACTOR_AUTO.
    Exhaustive,
    /// The lock-step model only.
    Lockstep,
    /// The actor model only.
    Actor,
    /// One deterministic run.
    Executor,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Exhaustive => "exhaustive",
            Engine::Lockstep => "lockstep",
            Engine::Actor => "actor",
            Engine::Executor => "executor",
        }
    }
}

/// What to check.
#[derive(Clone, Debug)]
pub struct Request {
    pub algorithm: Algorithm,
    pub config: Config,
    pub source: Option<u32>,
    /// None: exhaustive where feasible, else the executor.
    pub engine: Option<Engine>,
    pub threads: usize,
    pub max_states: Option<usize>,
    pub timeout: Option<std::time::Duration>,
}

/// A check that cannot run, worded for the user.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error(
        "n = {n} is past exhaustive reach for the {engine} engine (n <= {reach}); \
         use --engine executor, or give a budget with --max-states or --timeout"
    )]
    PastReach {
        n: u32,
        engine: &'static str,
        reach: u32,
    },
    #[error(
        "the executor needs about {need_gb:.1} GB for n = {n}, more than the {have_gb:.1} GB \
         this machine has available; the largest n that fits is {fits}"
    )]
    Memory {
        n: u32,
        need_gb: f64,
        have_gb: f64,
        fits: u32,
    },
    #[error("the Explorer serves the exhaustive model: n = {n} is past its reach (n <= {reach})")]
    ExplorerReach { n: u32, reach: u32 },
    #[error("{algorithm} is not event-driven, so it has no actor model; use --engine lockstep")]
    NotEventDriven { algorithm: &'static str },
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
            engine: None,
            threads: 1,
            max_states: None,
            timeout: None,
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
        s
    }

    fn budget(&self) -> Budget {
        Budget {
            threads: self.threads,
            max_states: Some(self.max_states.unwrap_or(DEFAULT_MAX_STATES)),
            timeout: self.timeout,
        }
    }

    fn budgeted(&self) -> bool {
        self.max_states.is_some() || self.timeout.is_some()
    }
}

/// Runs the check `req` asks for.
pub fn check(req: &Request) -> Result<Outcome, CheckError> {
    with_protocol!(req.algorithm, req.config, |p| run(Arc::new(p), req))
}

/// Serves the lock-step model of `req` in stateright's Explorer on `addr`;
/// returns only on error.
pub fn explore(req: &Request, addr: &str) -> Result<(), CheckError> {
    if req.config.n > LOCKSTEP_REACH {
        return Err(CheckError::ExplorerReach {
            n: req.config.n,
            reach: LOCKSTEP_REACH,
        });
    }
    // stateright panics if the address is taken: try it first.
    let fail = |why: String| CheckError::Explorer {
        addr: addr.to_string(),
        why,
    };
    drop(std::net::TcpListener::bind(addr).map_err(|e| fail(e.to_string()))?);
    with_protocol!(req.algorithm, req.config, |p| {
        let p = Arc::new(p);
        let inputs = inputs(&*p, req)?;
        eprintln!(
            "Explorer for `{}` on http://{addr}/ (Ctrl-C to stop)",
            req.command(None)
        );
        LockStep::new(p, inputs)
            .checker()
            .threads(req.threads)
            .serve(addr);
        Ok(())
    })
}

fn inputs<P: Protocol>(p: &P, req: &Request) -> Result<Vec<P::Input>, CheckError> {
    Ok(match req.source {
        Some(s) => {
            let s = check_source(s as u64, req.config.n)?;
            vec![p
                .source_input(s)
                .expect("hypercube broadcasts take a source")]
        }
        None => p.inputs(),
    })
}

fn run<P: Protocol + 'static>(p: Arc<P>, req: &Request) -> Result<Outcome, CheckError> {
    let start = Instant::now();
    let n = req.config.n;
    let mut notes = Vec::new();
    let mut inputs = inputs(&*p, req)?;
    let engine = match req.engine {
        None if n <= LOCKSTEP_REACH => Engine::Exhaustive,
        None => {
            notes.push(format!(
                "n = {n} is past exhaustive reach (n <= {LOCKSTEP_REACH}): one executor run"
            ));
            Engine::Executor
        }
        Some(e) => e,
    };
    let reach = match engine {
        Engine::Actor => ACTOR_REACH,
        Engine::Executor => u32::MAX,
        _ => LOCKSTEP_REACH,
    };
    if n > reach && !req.budgeted() {
        return Err(CheckError::PastReach {
            n,
            engine: engine.name(),
            reach,
        });
    }
    if engine == Engine::Actor && !p.event_driven() {
        return Err(CheckError::NotEventDriven {
            algorithm: req.algorithm.name(),
        });
    }
    let claims = p.claims();
    let mut lock: Option<Search> = None;
    let mut actors: Option<Search> = None;
    let mut executed = None;
    let mut engine_label = engine.name().to_string();
    match engine {
        Engine::Executor => {
            if req.source.is_none() {
                notes.push(format!(
                    "the executor makes one run, from source {}; --source picks another",
                    p.topology().node_label(0)
                ));
                inputs.truncate(1);
            }
            if req.threads > 1 || req.budgeted() {
                notes.push(
                    "--threads, --max-states and --timeout apply to exhaustive searches; \
                     the executor makes its one run to the end"
                        .into(),
                );
            }
            if let Some(have) = memory_available() {
                let packets = p.task(&inputs[0]).packets().len() as u64;
                let need = executor::memory_needed(&*p, packets);
                if need > have {
                    // Memory doubles per dimension.
                    let mut fits = n;
                    while fits > 1 && need >> (n - fits) > have {
                        fits -= 1;
                    }
                    return Err(CheckError::Memory {
                        n,
                        need_gb: need as f64 / 1e9,
                        have_gb: have as f64 / 1e9,
                        fits,
                    });
                }
            }
            executed = Some(executor::run(&*p, &inputs[0]));
        }
        Engine::Exhaustive | Engine::Lockstep => {
            lock = Some(exhaustive::lockstep(
                Arc::clone(&p),
                inputs.clone(),
                req.budget(),
            ));
            if engine == Engine::Exhaustive {
                if p.event_driven() && n <= ACTOR_AUTO {
                    actors = Some(exhaustive::actors(Arc::clone(&p), &inputs, req.budget()));
                    engine_label = "exhaustive (lock-step and actor model)".into();
                } else {
                    engine_label = "exhaustive (lock-step)".into();
                    if p.event_driven() {
                        notes.push(format!(
                            "actor model not run at n = {n} > {ACTOR_AUTO}; --engine actor runs it"
                        ));
                    }
                }
            }
        }
        Engine::Actor => {
            actors = Some(exhaustive::actors(Arc::clone(&p), &inputs, req.budget()));
            notes.push(
                "contention-freedom needs a global slot: the actor model does not judge it".into(),
            );
        }
    }
    for s in lock.iter().chain(&actors) {
        if s.cut {
            notes.push(
                "the budget ran out before the search was done: unviolated claims are unknown"
                    .into(),
            );
        }
        if s.no_run_ends {
            notes.push("no run ended: the model is vacuous".into());
        }
    }

    let topology = p.topology();
    let describe_finding = |f: &Finding, by: &'static str| -> Option<String> {
        let v = f.violation.as_ref()?;
        let input = &inputs[f.input.unwrap_or(0)];
        let order = if by == "actor model" {
            " (some delivery order)"
        } else {
            ""
        };
        Some(format!(
            "{}{order}: {}",
            p.describe_input(input),
            describe(topology, &p.task(input), v)
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
                format!(
                    "{}: {}",
                    p.describe_input(input),
                    describe(topology, &p.task(input), &v)
                )
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
                        let src = f.input.map(|ix| source_of(&*p, &inputs[ix]));
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
            reproduce = Some(req.command(source_of(&*p, &inputs[0])));
        }
        reports.push(report);
    }

    let (measured, tx) = match (&executed, &lock) {
        (Some(run), _) => (
            Some(run.record.last_delivery),
            Some((run.record.transmissions, run.record.transmissions)),
        ),
        (None, Some(s)) => (s.worst_time, s.transmissions),
        _ => (None, None),
    };
    let optimal = inputs.first().map_or(0, |i| p.task(i).needed_deliveries());
    Ok(Outcome {
        algorithm: req.algorithm.name(),
        params: Params {
            n,
            source: req.source.map(|s| topology.node_label(s)),
            switching: switching_name(req.config.switching).into(),
            ports: ports_name(req.config.ports).into(),
        },
        engine: engine_label,
        properties: reports,
        time: Time {
            measured,
            bound: claims.bound,
            lower_bound: claims.lower_bound,
        },
        transmissions: tx.map(|t| t.1),
        transmissions_min: tx.map(|t| t.0),
        optimal_transmissions: optimal,
        states: lock.as_ref().map(|s| s.unique_states),
        actor_states: actors.as_ref().map(|s| s.unique_states),
        inputs: inputs.iter().map(|i| p.describe_input(i)).collect(),
        elapsed_ms: start.elapsed().as_millis(),
        notes,
        reproduce,
    })
}

/// Memory the executor may take: the machine's available memory, or less
/// where `COMMCHECK_MEMORY_LIMIT` (bytes) says so. None if unknown.
fn memory_available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let available = meminfo.as_deref().and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    });
    let limit = std::env::var("COMMCHECK_MEMORY_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok());
    match (available, limit) {
        (Some(a), Some(l)) => Some(a.min(l)),
        (a, l) => a.or(l),
    }
}

/// The source node of an input, found by asking which source gives it.
fn source_of<P: Protocol>(p: &P, input: &P::Input) -> Option<u32> {
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
