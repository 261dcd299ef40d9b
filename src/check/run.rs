//! Running a planned check: the engines its plan names, with progress on
//! stderr where asked, each bounded by the budgets; what they found goes
//! to `assemble`.

use super::assemble;
use super::error::CheckError;
use super::plan::Plan;
use super::request::Options;
use super::results::Results;
use super::subject::Subject;
use crate::engine::executor;
use crate::engine::exhaustive::{self, Budget, Finding, Search};
use crate::engine::search::{Cut, Progress};
use crate::engine::Engine;
use crate::report::Outcome;
use models::imperfect::DELAY_FREE;
use models::{Protocol, ProtocolExt};
use properties::{PropertyName, Slot, Status};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What decides some properties for every run of a check without
/// searching them all.
pub enum StandIn<P> {
    /// The check's protocol with every transmission on time, where delays
    /// cannot change what is delivered ([`models::Faulty::on_time`]).
    OnTime(Arc<P>),
    /// The one run in which every node takes its first choice, which
    /// decides these properties (bit `p as usize` each) for every run
    /// ([`models::schedule::scheduled::Scheduled::one_run_decides`]).
    OneRun(u64),
}

/// Runs and reports the check of `p` its plan describes, with what
/// `stand_in` decides without a search where given.
pub fn check_with<P: Protocol + 'static>(
    p: Arc<P>,
    stand_in: Option<StandIn<P>>,
    subject: &Subject,
    options: &Options,
    plan: Plan<P::Input>,
) -> Result<Outcome, CheckError> {
    let start = Instant::now();
    let engine = plan.engine;
    let progress = Progress {
        // The executor's budget (a search computes its own deadline).
        deadline: (engine == Engine::Executor)
            .then(|| crate::engine::search::deadline(plan.budget.timeout))
            .flatten(),
        ..Progress::default()
    };
    let stop = AtomicBool::new(false);
    let sink = options.progress_to.as_ref();
    // No reach was measured (a schedule, a protocol of the user's own) and
    // no budget given: said once the search has run a few seconds (a
    // faulty machine's search said so before it started).
    let unmeasured = plan
        .defaulted
        .filter(|_| plan.reach == u32::MAX && options.machine.perfect() && options.announce);
    // Set once the search has said, before it started, that it may not end.
    let said = AtomicBool::new(false);
    let mut results = std::thread::scope(|scope| {
        if options.progress {
            scope.spawn(|| super::progress::show(&progress, engine, &stop, sink));
        }
        if let Some(budget) = unmeasured {
            let (stop, said, progress) = (&stop, &said, options.progress);
            scope.spawn(move || still_running(stop, said, budget, progress));
        }
        let foresee = unmeasured.map(|budget| (budget, &said));
        let results = execute(&p, stand_in, subject, options, &plan, &progress, foresee);
        stop.store(true, Relaxed);
        results
    });
    let Plan {
        inputs,
        mut notes,
        defaulted,
        ..
    } = plan;
    notes.append(&mut results.notes);
    notes.extend(cut_notes(&results, defaulted));
    if options.machine.delay > 0 {
        if let Some(lock) = &results.lock {
            results.late = late_landings(&p, &inputs, lock);
        }
    }
    Ok(assemble::assemble(
        &*p, subject, options, &inputs, results, notes, start,
    ))
}

/// How long a search of no measured reach runs before it says that it
/// may not end within a minute (where it did not say so before it
/// started: [`SHORT_TREE`]).
pub const STILL_RUNNING: Duration = Duration::from_secs(3);

/// The largest search tree, by
/// [`crate::engine::lockstep::LockStep::tree_estimate`], that a search
/// of no measured reach starts without saying that it may not end within
/// a minute: a schedule's lock-step search meets some 10^4 states a
/// second (BENCHMARKS.md, "Schedules: one run for every order").
pub const SHORT_TREE: f64 = 1e6;

/// Says on stderr, once the search has run [`STILL_RUNNING`] without
/// `stop` and had not `said` so before it started, that it may not end
/// within a minute and stops at `budget` (`progress`: a progress line is
/// on the terminal, cleared first).
fn still_running(stop: &AtomicBool, said: &AtomicBool, budget: Duration, progress: bool) {
    let start = Instant::now();
    while start.elapsed() < STILL_RUNNING {
        if stop.load(Relaxed) {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    if said.load(Relaxed) {
        return;
    }
    say(
        progress,
        &format!(
            "the search has run {} s and may not end within a minute: {}",
            STILL_RUNNING.as_secs(),
            super::plan::stops_after(budget)
        ),
    );
}

/// Prints `note` on stderr, over the progress line where one is shown.
fn say(progress: bool, note: &str) {
    let clear = if progress { "\r\x1b[K" } else { "" };
    eprintln!("{clear}note: {note}");
}

/// Says on stderr, before a search of no measured reach starts, that it
/// may not end within a minute where its tree is estimated past
/// [`SHORT_TREE`], and sets `said`; `default` is the budget it runs under.
fn foretell<P: Protocol + 'static>(
    p: &Arc<P>,
    inputs: &[P::Input],
    default: Duration,
    said: &AtomicBool,
    progress: bool,
) {
    let model = crate::engine::lockstep::LockStep::new(Arc::clone(p), inputs.to_vec());
    let tree = model.tree_estimate(SHORT_TREE);
    if tree <= SHORT_TREE {
        return;
    }
    said.store(true, Relaxed);
    say(progress, &foretold(default));
}

/// The note of [`foretell`].
fn foretold(default: Duration) -> String {
    format!(
        "the search may not end within a minute: along one run its choices branch into more \
         than {SHORT_TREE:.0e} runs (Knuth's estimate); {}",
        super::plan::stops_after(default)
    )
}

/// Per property, the transmissions of its counterexample's run that
/// landed late, replayed along its path: `slot 2: 000->001 landed 1 slot
/// late`.
fn late_landings<P: Protocol + 'static>(
    p: &Arc<P>,
    inputs: &[P::Input],
    lock: &exhaustive::Search,
) -> Vec<Vec<String>> {
    use crate::engine::search::Space;
    let model = crate::engine::lockstep::LockStep::new(Arc::clone(p), inputs.to_vec());
    let t = p.topology();
    lock.findings
        .iter()
        .map(|f| {
            let Some(path) = &f.path else {
                return Vec::new();
            };
            let steps: Vec<u64> = path.split('/').filter_map(|x| x.parse().ok()).collect();
            let Some((&input, rest)) = steps.split_first() else {
                return Vec::new();
            };
            let mut state = model.init(input as usize);
            let mut words = Vec::new();
            for &k in rest {
                if k >= model.successors(&state) {
                    break;
                }
                let mut next = state.clone();
                model.successor(&state, k, &mut next, &mut ());
                for (d, route) in next.nodes.iter().flat_map(|s| p.landed_late(s)) {
                    let s = if d == 1 { "" } else { "s" };
                    let label = models::Topology::route_label(t, &route);
                    words.push(format!(
                        "slot {}: {label} landed {d} slot{s} late",
                        next.slot
                    ));
                }
                state = next;
            }
            words
        })
        .collect()
}

/// Runs the engines the plan names.
fn execute<P: Protocol + 'static>(
    p: &Arc<P>,
    stand_in: Option<StandIn<P>>,
    subject: &Subject,
    options: &Options,
    plan: &Plan<P::Input>,
    progress: &Progress,
    foresee: Option<(Duration, &AtomicBool)>,
) -> Results {
    let n = subject.config.n;
    let (engine, inputs, mut budget) = (plan.engine, &plan.inputs, plan.budget);
    let mut results = Results {
        lock: None,
        actors: None,
        executed: None,
        label: engine.name().to_string(),
        notes: Vec::new(),
        late: Vec::new(),
        one_run: false,
    };
    match engine {
        Engine::Executor => {
            results.executed = Some(executor::run_with(
                &**p,
                &inputs[0],
                progress,
                budget.threads,
            ));
        }
        Engine::Exhaustive | Engine::Lockstep => {
            let delay = options.machine.delay;
            let (mut held, mut one) = (None, None);
            match stand_in {
                Some(StandIn::OnTime(q)) => held = delay_free(p, q, inputs, delay, &mut budget),
                Some(StandIn::OneRun(decided)) => {
                    one = one_run(p, inputs, &mut budget).map(|run| (run, decided));
                }
                None => {}
            }
            let rest = |budget: &mut Budget, decided: u64| {
                budget.settle = budget.settle.map(|s| s & !decided);
                budget.settle == Some(0)
            };
            let mut lock = match &one {
                // Every claimed property decided: the orders are not
                // searched (the run stands for them).
                Some((run, decided)) if rest(&mut budget, *decided) => {
                    results.one_run = true;
                    Search {
                        cut: Some(Cut::Settled),
                        ..run.clone()
                    }
                }
                _ => {
                    if let Some((default, said)) = foresee {
                        foretell(p, inputs, default, said, options.progress);
                    }
                    exhaustive::lockstep_with(Arc::clone(p), inputs.to_vec(), budget, progress)
                }
            };
            if let Some((run, decided)) = one {
                results
                    .notes
                    .push(one_run_note(&**p, decided, &subject.name));
                stand_for(&mut lock, run, decided);
            }
            if let Some(held) = held {
                results
                    .notes
                    .push(held_note(&**p, held, &subject.name, delay));
                // The delay search cannot violate these (the module header
                // of models::imperfect); were it ever to, its
                // counterexample would stand.
                let settled = |f: &Finding| held >> f.property as usize & 1 == 1;
                for f in lock.findings.iter_mut().filter(|f| settled(f)) {
                    if f.status != Status::Violated {
                        f.status = Status::Holds;
                    }
                }
            }
            let actor_auto = subject.reach.actor_auto;
            if engine == Engine::Exhaustive {
                if plan.actors_after && lock.cut.is_none() {
                    let left = Budget {
                        max_states: budget.max_states.map(|m| m.saturating_sub(lock.generated)),
                        ..budget
                    };
                    results.actors = Some(exhaustive::actors(Arc::clone(p), inputs, left));
                    results.label = "exhaustive (lock-step and actor model)".into();
                } else {
                    results.label = "exhaustive (lock-step)".into();
                    if p.event_driven() && lock.cut.is_none() {
                        results.notes.push(format!(
                            "actor model not run at n = {n} > {actor_auto}; --engine actor runs it"
                        ));
                    }
                }
            }
            results.lock = Some(lock);
        }
        Engine::Actor => {
            results.actors = Some(exhaustive::actors_with(
                Arc::clone(p),
                inputs,
                budget,
                progress,
            ));
            results.notes.push(
                "contention-freedom needs a global slot: the actor model does not judge it".into(),
            );
        }
    }
    results
}

/// Where delays cannot change the [`DELAY_FREE`] properties (`on_time`
/// is given, the task keeps what it delivers): searches the on-time runs
/// first, within `budget` (which keeps what is left). Gives the
/// properties that hold there (bit `p as usize` each), and takes them
/// from what the delay search must settle; None where the on-time search
/// was cut or some run comes within `delay` of the horizon.
fn delay_free<P: Protocol + 'static>(
    p: &Arc<P>,
    on_time: Arc<P>,
    inputs: &[P::Input],
    delay: Slot,
    budget: &mut Budget,
) -> Option<u64> {
    if !inputs.iter().all(|i| p.task(i).is_broadcast()) {
        return None;
    }
    let start = Instant::now();
    let whole = Budget {
        settle: None,
        ..*budget
    };
    let last = |q: &P| crate::engine::horizon(q, &q.claims());
    let horizon = (last(&on_time), last(p));
    let on = exhaustive::lockstep(on_time, inputs.to_vec(), whole);
    spend(budget, on.generated, start);
    // States are slots 0..=T: the last slot of a run is depth - 1.
    let t = on.depth.saturating_sub(1) as Slot;
    if on.cut.is_some() || t >= horizon.0 || t + delay > horizon.1 {
        return None;
    }
    let held = DELAY_FREE
        .into_iter()
        .filter(|&prop| on.findings[prop as usize].status == Status::Holds)
        .fold(0, |mask, prop| mask | 1 << prop as usize);
    budget.settle = budget.settle.map(|s| s & !held);
    Some(held)
}

/// The run in which every node takes its first choice, within `budget`
/// (which keeps what is left); None where it was cut, or where no node
/// had another choice (the search is then that run).
fn one_run<P: Protocol + 'static>(
    p: &Arc<P>,
    inputs: &[P::Input],
    budget: &mut Budget,
) -> Option<Search> {
    // Over MPI ranks each rank would see its own share of the run's
    // choices: the orders are searched as before.
    #[cfg(feature = "mpi")]
    if crate::engine::group::world().is_some() {
        return None;
    }
    let start = Instant::now();
    let whole = Budget {
        settle: None,
        ..*budget
    };
    let (run, branched) = exhaustive::lockstep_first(Arc::clone(p), inputs.to_vec(), whole);
    spend(budget, run.generated, start);
    // A run with no other choice anywhere is every run: the search is
    // that run, as it always was.
    (run.cut.is_none() && branched).then_some(run)
}

/// Takes from `budget` what a search started at `start` spent, having
/// generated `generated` states.
fn spend(budget: &mut Budget, generated: u64, start: Instant) {
    budget.max_states = budget.max_states.map(|m| m.saturating_sub(generated));
    budget.timeout = budget.timeout.map(|t| t.saturating_sub(start.elapsed()));
}

/// Gives `lock` the verdicts of the properties `run` decides (bit each)
/// where it found no violation of its own (were it ever to, its
/// counterexample would stand), and the run's time and counts where it
/// has none.
fn stand_for(lock: &mut Search, run: Search, decided: u64) {
    for (f, g) in lock.findings.iter_mut().zip(run.findings) {
        if decided >> f.property as usize & 1 == 1 && f.status != Status::Violated {
            *f = g;
        }
    }
    lock.worst_time = lock.worst_time.max(run.worst_time);
    lock.worst_termination = lock.worst_termination.max(run.worst_termination);
    if lock.worst_input.is_none() {
        lock.worst_input = run.worst_input;
    }
    lock.transmissions = lock.transmissions.or(run.transmissions);
    if lock.by_input.is_empty() {
        lock.by_input = run.by_input;
    }
}

/// The report's note on the properties [`one_run`] decided.
fn one_run_note<P: Protocol>(p: &P, decided: u64, name: &str) -> String {
    let names = claimed_in(p, decided);
    format!(
        "{} judged on one run, which stands for every order in which competing sends take \
         their ports: {name} is race-free and causally complete at every speed with one \
         matching, so every run sends and computes the same{}; the orders change when \
         messages land, not what (docs/schedules.md, \"One run for every order\"; \
         --no-reduction searches them)",
        words(&names),
        match decided >> PropertyName::ContentionFreedom as usize & 1 {
            1 => ", and no two ports can crowd a link",
            _ => "",
        },
    )
}

/// The names of the properties of `mask` (bit `p as usize` each) that
/// `p` claims, in report order.
fn claimed_in<P: Protocol>(p: &P, mask: u64) -> Vec<&'static str> {
    let claims = p.claims();
    PropertyName::ALL
        .into_iter()
        .filter(|&prop| mask >> prop as usize & 1 == 1 && claims.claims(prop))
        .map(PropertyName::as_str)
        .collect()
}

/// `a`, `a and b`, `a, b and c`: the names as a sentence's subject.
fn words(names: &[&str]) -> String {
    match names {
        [] => "nothing is".to_string(),
        [one] => format!("{one} is"),
        [init @ .., last] => format!("{} and {last} are", init.join(", ")),
    }
}

/// The report's note on the properties [`delay_free`] settled.
fn held_note<P: Protocol>(p: &P, held: u64, name: &str, delay: Slot) -> String {
    // `held` has bits of DELAY_FREE only, which is in report order.
    let names = claimed_in(p, held);
    let s = if delay == 1 { "" } else { "s" };
    format!(
        "{} judged on the on-time runs, which every delay up to {delay} slot{s} matches: \
         {name}'s nodes read no arrival, so a late transmission changes when it lands, not \
         what is sent or delivered (docs/faults.md)",
        match names.as_slice() {
            [] => "what delays cannot change is".to_string(),
            names => words(names),
        }
    )
}

/// The notes on how far the engines got: a run or search cut short, a
/// vacuous model, an engine not run or a property not judged.
fn cut_notes(results: &Results, defaulted: Option<Duration>) -> Vec<String> {
    let reason = |cut: Cut| match (cut, defaulted) {
        (Cut::Time, Some(t)) => format!(
            "the default time budget of {} s ran out (no --timeout or --max-states was given; \
             --timeout none runs to the end)",
            t.as_secs()
        ),
        _ => cut.reason().to_string(),
    };
    let mut notes = Vec::new();
    if let Some(run) = &results.executed {
        if let Some(cut) = run.cut {
            notes.push(format!(
                "the executor stopped in slot {}: {}; verdicts not reached are unknown",
                run.slots + 1,
                cut.reason()
            ));
        }
    }
    for (s, what) in [
        (&results.lock, "lock-step"),
        (&results.actors, "actor model"),
    ] {
        let Some(s) = s else { continue };
        if results.one_run && what == "lock-step" {
            // The orders not searched: the one run's note says why.
            continue;
        }
        let unknown = match s.cut {
            Some(Cut::Settled) => "observed properties not violated by then are unknown",
            _ => "verdicts not reached are unknown",
        };
        if let Some(cut) = s.cut {
            notes.push(format!(
                "the {what} search stopped: {}, after {} generated states ({} unique), \
                 depth {}, sources done {} of {}; {unknown}",
                reason(cut),
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
    notes
}
