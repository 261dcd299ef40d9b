//! Planning a check: which engine runs, which inputs it covers (and the
//! note that says so), and what is refused before anything runs: a size
//! past an engine's reach without a budget, a source where there is none,
//! and an executor run past the memory allowance (one cost model decides).

use super::error::CheckError;
use super::request::Options;
use super::subject::Subject;
use crate::engine::exhaustive::Budget;
use crate::engine::{memory, Engine};
use models::{Family, Protocol, ProtocolExt, Symmetry, Topology};
use properties::PropertyName;

/// Largest n at which `--all-sources` lists every source.
pub const ALL_SOURCES_REACH: u32 = 20;

/// What a check will do, decided once before it runs and passed down:
/// nothing downstream chooses the engine, reads the memory allowance or
/// picks the inputs again. Made in two steps, because what the request
/// alone decides (the engine, the budgets, a refusal for memory) comes
/// before the protocol is built: [`Plan::new`] gives a `Plan<()>`, and
/// [`Plan::cover`] adds the inputs the built protocol offers.
pub struct Plan<I> {
    /// The engine that runs.
    pub engine: Engine,
    /// How far that engine finishes without a budget.
    pub reach: u32,
    /// The budget of a search: threads, states, time and the memory
    /// allowance (read once, here).
    pub budget: Budget,
    /// Whether the exhaustive engine runs the actor model after the
    /// lock-step search (when that search is not cut).
    pub actors_after: bool,
    /// The inputs covered.
    pub inputs: Vec<I>,
    /// What the report says about the choices made (engine, inputs).
    pub notes: Vec<String>,
    /// The search runs under the default time budget (none was given).
    pub defaulted: Option<std::time::Duration>,
}

impl Plan<()> {
    /// What the request alone decides: the engine (and the note when the
    /// default is the executor), the budgets, and the refusal of an
    /// executor run past the memory allowance (`need`: what a protocol of
    /// the user's own needs, when it is not the catalogue's).
    pub fn new(
        subject: &Subject,
        options: &Options,
        need: Option<&dyn Fn() -> u64>,
    ) -> Result<Self, CheckError> {
        let (engine, note) = engine(subject, options);
        let defaulted = options.defaulted_timeout(engine);
        let allowance = memory::allowance(options.max_memory);
        if engine == Engine::Executor {
            refuse_past_memory(subject, allowance, need)?;
        }
        Ok(Plan {
            engine,
            reach: match engine {
                Engine::Actor => subject.reach.actor,
                Engine::Executor => u32::MAX,
                _ => subject.reach.lockstep,
            },
            budget: Budget {
                threads: options.threads,
                max_states: options.max_states,
                timeout: options.search_timeout(engine),
                memory: allowance,
                verify_probes: false,
                settle: None,
            },
            actors_after: false,
            inputs: vec![()],
            notes: note.into_iter().collect(),
            defaulted,
        })
    }

    /// The plan for the built protocol `p`: refuses what `p` cannot run
    /// (the actor model without events, a size past reach without a
    /// budget, a distribution it does not draw) and adds the inputs and
    /// the notes that say which.
    pub fn cover<P: Protocol>(
        self,
        p: &P,
        subject: &Subject,
        options: &Options,
    ) -> Result<Plan<P::Input>, CheckError> {
        let n = subject.config.n;
        let Plan {
            engine,
            reach,
            budget,
            mut notes,
            defaulted,
            ..
        } = self;
        if engine == Engine::Actor && !p.event_driven() {
            return Err(CheckError::NotEventDriven {
                algorithm: subject.name.clone(),
            });
        }
        if n > reach && !options.budgeted() {
            return Err(CheckError::PastReach {
                algorithm: subject.name.clone(),
                n,
                engine: engine.name(),
                reach,
            });
        }
        #[cfg(feature = "mpi")]
        if crate::engine::group::world().is_some() && p.topology().max_lanes() > 1 {
            return Err(CheckError::Usage(
                "links of several lanes are judged in one process: run without mpirun".into(),
            ));
        }
        let (inputs, inputs_note) = inputs(p, subject, options, engine)?;
        if options.distribution && (engine == Engine::Executor || p.drawn(&inputs[0]).is_none()) {
            return Err(CheckError::NoDistribution {
                algorithm: subject.name.clone(),
            });
        }
        notes.extend(inputs_note);
        let settle = settle(p, &inputs, engine).filter(|_| !options.observe_all);
        if n > reach {
            // Said before the search starts: it will run to its budget.
            let note = format!(
                "n = {n} is past the reach of the {} engine for {} (n <= {reach} finishes \
                 in under 10 s on 2 cores; BENCHMARKS.md): the search runs until {}, then \
                 reports how far it got",
                engine.name(),
                subject.name,
                options.budget_words()
            );
            if options.announce {
                eprintln!("note: {note}");
            }
            notes.push(note);
        }
        if let Some(t) = defaulted.filter(|_| !options.machine.perfect()) {
            // Faults, delays and skew multiply the states past any reach
            // the catalogue measured: said before the search starts.
            let note = format!(
                "on this machine the search may not end within a minute: {}",
                stops_after(t)
            );
            if options.announce {
                eprintln!("note: {note}");
            }
            notes.push(note);
        }
        if engine == Engine::Executor && options.observe_all {
            notes.push(
                "--observe-all applies to exhaustive searches; the executor's one run judges \
                 every property"
                    .into(),
            );
        }
        if engine == Engine::Executor && options.max_states.is_some() {
            notes.push(
                "--max-states applies to exhaustive searches; the executor's one run stops at \
                 --timeout, Ctrl-C or its end"
                    .into(),
            );
        }
        Ok(Plan {
            engine,
            reach,
            budget: Budget { settle, ..budget },
            actors_after: engine == Engine::Exhaustive
                && p.event_driven()
                && n <= subject.reach.actor_auto,
            inputs,
            notes,
            defaulted,
        })
    }
}

/// The properties a search of `p` from `inputs` is for: the claimed ones
/// its engine can find violated (bit `p as usize` each), if any. Once
/// each is violated the rest is observation, searched on only with
/// `--observe-all`.
fn settle<P: Protocol>(p: &P, inputs: &[P::Input], engine: Engine) -> Option<u64> {
    let claims = p.claims();
    let judged = |prop: PropertyName| match prop {
        PropertyName::TimeBound => inputs.iter().any(|i| p.bound(i).is_some()),
        PropertyName::MessageLength => inputs.iter().any(|i| p.task(i).message_limit().is_some()),
        PropertyName::ContentionFreedom => engine != Engine::Actor,
        _ => true,
    };
    PropertyName::ALL
        .into_iter()
        .filter(|&prop| claims.claims(prop) && judged(prop))
        .fold(None, |mask, prop| {
            Some(mask.unwrap_or(0) | 1 << prop as usize)
        })
}

/// The engine a check runs, and a note when the default is the executor
/// because n is past the exhaustive reach.
fn engine(subject: &Subject, options: &Options) -> (Engine, Option<String>) {
    let n = subject.config.n;
    let reach = subject.reach.lockstep;
    match options.engine {
        Some(e) => (e, None),
        None if n <= reach => (Engine::Exhaustive, None),
        None => (
            Engine::Executor,
            Some(format!(
                "n = {n} is past the exhaustive reach of {} (n <= {reach} finishes in under \
                 10 s): one executor run, first choice wherever the paper leaves one open; \
                 --engine exhaustive with a budget searches further",
                subject.name
            )),
        ),
    }
}

/// Refuses an executor run that would pass the memory allowance `have`,
/// by one cost model: the catalogue's (known before anything is built, so
/// the largest size that fits can be named), else, for a protocol of the
/// user's own, what its built run needs (`need`).
fn refuse_past_memory(
    subject: &Subject,
    have: Option<memory::Allowance>,
    need: Option<&dyn Fn() -> u64>,
) -> Result<(), CheckError> {
    // Over ranks, rank 0's allowance decides for every rank (ranks that
    // disagreed would part ways, one refusing, the others waiting for it),
    // against what the ranks on its host take (docs/scale.md).
    let (ranks, on_host) = (1, 1);
    #[cfg(feature = "mpi")]
    let (have, ranks, on_host) = match crate::engine::group::world().filter(|w| w.size > 1) {
        Some(world) => (
            world.from_first(Some(have)),
            world.size as u64,
            world.on_first_host() as u64,
        ),
        None => (have, ranks, on_host),
    };
    let Some(have) = have else {
        return Ok(());
    };
    let n = subject.config.n;
    let cost = |d: u32| match (&subject.request, need) {
        (Some(req), _) => Some(
            req.algorithm
                .executor_bytes_over(d, ranks)
                .saturating_mul(on_host),
        ),
        (None, Some(need)) => (d == n).then(need),
        (None, None) => None,
    };
    let Some(bytes) = cost(n) else {
        return Ok(());
    };
    if bytes <= have.bytes {
        return Ok(());
    }
    let fits = match (1..n)
        .rev()
        .find(|&d| cost(d).is_some_and(|b| b <= have.bytes))
    {
        Some(d) => format!("the largest n that fits is {d}"),
        None if subject.request.is_some() => "the largest n that fits is 0".to_string(),
        None => "a smaller size may fit".to_string(),
    };
    Err(CheckError::Memory {
        n,
        need_gb: bytes as f64 / 1e9,
        have_gb: have.bytes as f64 / 1e9,
        fits,
    })
}

/// The inputs a check covers, and the note that says which: the given
/// source; one per symmetry orbit unless `--all-sources`; the executor's
/// one run.
fn inputs<P: Protocol>(
    p: &P,
    subject: &Subject,
    options: &Options,
    engine: Engine,
) -> Result<(Vec<P::Input>, Option<String>), CheckError> {
    let n = subject.config.n;
    let nodes = p.topology().nodes();
    let sourced = p.source_input(0).is_some();
    if let Some(s) = options.source {
        // The source is a node of the network (`Request::with_source`).
        let inputs = p.sourced_inputs(s);
        if inputs.is_empty() {
            return Err(CheckError::NoSource {
                algorithm: subject.name.clone(),
            });
        }
        let note = variants_note(p, inputs.len());
        return Ok((inputs, note));
    }
    if engine == Engine::Executor {
        if options.all_sources {
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
        if options.all_sources {
            return Err(CheckError::NoSource {
                algorithm: subject.name.clone(),
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
    if !options.all_sources && options.machine.named() {
        let inputs = p.sourced_inputs(0);
        let note = format!(
            "sources: {} only: the faults are named, so no source stands for another; \
             --source picks another, --all-sources checks every one",
            p.topology().node_label(0)
        );
        return Ok((inputs, Some(note)));
    }
    if options.all_sources || p.symmetry().is_none() {
        // A cube of dimension n has 2^n sources; a grid names its nodes.
        let cube = subject.family == Family::Cube;
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

/// What a search without a budget does instead (the notes that say it may
/// not end within a minute end with it).
pub fn stops_after(default: std::time::Duration) -> String {
    format!(
        "no budget was given, so it stops after {} s with its verdicts so far (--timeout SECS \
         for another budget, --timeout none for none)",
        default.as_secs()
    )
}
