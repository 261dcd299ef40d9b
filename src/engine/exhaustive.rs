//! The exhaustive checks: the lock-step model over every input and every
//! open choice, and, for event-driven protocols, the actor model over every
//! input and every delivery order. Each reports, per property, a verdict
//! and the first counterexample found.

use super::actor::{self, NodeActor};
use super::lockstep::{LockStep, RunState, RUN_ENDS};
use models::Protocol;
use properties::{PropertyName, Slot, Status, Violation};
use stateright::actor::ActorModelState;
use stateright::{Checker, Model, Path};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How much an exhaustive check may spend.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub threads: usize,
    /// Generated states after which the search stops (verdicts not yet
    /// reached become `unknown`).
    pub max_states: Option<usize>,
    pub timeout: Option<Duration>,
}

/// A property's verdict from one exhaustive engine.
#[derive(Clone, Debug)]
pub struct Finding {
    pub property: PropertyName,
    pub status: Status,
    pub violation: Option<Violation>,
    /// Index of the input of the counterexample.
    pub input: Option<usize>,
    /// The counterexample's path as the Explorer encodes it (`#/steps/...`).
    pub path: Option<String>,
}

/// What one exhaustive engine found.
#[derive(Clone, Debug)]
pub struct Search {
    pub findings: Vec<Finding>,
    pub unique_states: u64,
    /// True if the budget stopped the search before it was done.
    pub cut: bool,
    /// Worst completion time over every ended run (lock-step only).
    pub worst_time: Option<Slot>,
    /// Fewest and most transmissions over every ended run (lock-step only).
    pub transmissions: Option<(u64, u64)>,
    /// A model whose runs never end (the `sometimes` found nothing).
    pub no_run_ends: bool,
}

/// Aggregates over ended runs, filled by the checker's visitor.
#[derive(Default)]
struct Tally {
    worst_time: Option<Slot>,
    transmissions: Option<(u64, u64)>,
}

/// Something to do with every state the search visits.
type Visit<S> = Box<dyn Fn(&S) + Send + Sync>;

/// Runs the checker of `model` to the end or the budget.
fn search<M>(model: M, budget: Budget, visit: Option<Visit<M::State>>) -> (impl Checker<M>, bool)
where
    M: Model + Send + Sync + 'static,
    M::State: std::hash::Hash + Send + Sync + Clone + PartialEq + std::fmt::Debug + 'static,
    M::Action: Clone + PartialEq + std::fmt::Debug,
{
    let start = Instant::now();
    // A property name no model has: the search never stops early, so
    // verdicts that hold are verdicts over every state.
    let never = [""].into_iter().collect();
    let mut builder = model
        .checker()
        .finish_when(stateright::HasDiscoveries::AllOf(never))
        .threads(budget.threads);
    if let Some(n) = budget.max_states {
        builder = builder.target_state_count(n);
    }
    if let Some(t) = budget.timeout {
        builder = builder.timeout(t);
    }
    if let Some(visit) = visit {
        builder = builder.visitor(move |p: Path<M::State, M::Action>| visit(p.last_state()));
    }
    let checker = builder.spawn_dfs().join();
    let cut = budget
        .max_states
        .is_some_and(|n| checker.state_count() >= n)
        || budget.timeout.is_some_and(|t| start.elapsed() >= t);
    (checker, cut)
}

/// Verdicts of the lock-step model of `protocol` from `inputs`.
pub fn lockstep<P: Protocol + 'static>(
    protocol: Arc<P>,
    inputs: Vec<P::Input>,
    budget: Budget,
) -> Search {
    let model = LockStep::new(protocol, inputs);
    let tally = Arc::new(Mutex::new(Tally::default()));
    let t = Arc::clone(&tally);
    let visit = move |s: &RunState<P::State, P::Msg>| {
        if s.record.ended {
            let mut t = t.lock().expect("tally lock");
            t.worst_time = t.worst_time.max(Some(s.record.last_delivery));
            let n = s.record.transmissions;
            t.transmissions = Some(
                t.transmissions
                    .map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))),
            );
        }
    };
    let (checker, cut) = search(model, budget, Some(Box::new(visit)));
    let discoveries = checker.discoveries();
    let model = checker.model();
    let findings = PropertyName::ALL
        .iter()
        .map(|&p| match discoveries.get(p.as_str()) {
            Some(path) => {
                let last = path.last_state();
                Finding {
                    property: p,
                    status: Status::Violated,
                    violation: last.record.violation(p),
                    input: Some(last.input),
                    path: Some(path.encode(model)),
                }
            }
            None => unviolated(p, cut),
        })
        .collect();
    let tally = tally.lock().expect("tally lock");
    Search {
        findings,
        unique_states: checker.unique_state_count() as u64,
        cut,
        worst_time: tally.worst_time,
        transmissions: tally.transmissions,
        no_run_ends: !cut && !discoveries.contains_key(RUN_ENDS),
    }
}

/// Verdicts of the actor model of `protocol`, one model per input.
pub fn actors<P: Protocol + 'static>(
    protocol: Arc<P>,
    inputs: &[P::Input],
    budget: Budget,
) -> Search {
    let mut findings: Vec<Finding> = PropertyName::ALL
        .iter()
        .map(|&p| unviolated(p, false))
        .collect();
    let (mut states, mut generated, mut cut, mut no_run_ends) = (0, 0, false, false);
    let start = Instant::now();
    for (ix, input) in inputs.iter().enumerate() {
        let left = Budget {
            max_states: budget
                .max_states
                .map(|n| n.saturating_sub(generated).max(1)),
            timeout: budget.timeout.map(|t| {
                t.saturating_sub(start.elapsed())
                    .max(Duration::from_millis(1))
            }),
            ..budget
        };
        let model = actor::model(Arc::clone(&protocol), input.clone());
        let (checker, this_cut) = search(model, left, None);
        states += checker.unique_state_count() as u64;
        generated += checker.state_count();
        cut |= this_cut;
        let discoveries = checker.discoveries();
        no_run_ends |= !this_cut && !discoveries.contains_key(RUN_ENDS);
        for f in findings.iter_mut().filter(|f| f.status != Status::Violated) {
            if let Some(path) = discoveries.get(f.property.as_str()) {
                let last: &ActorModelState<NodeActor<P>> = path.last_state();
                f.status = Status::Violated;
                f.violation = actor::verdict(checker.model(), last).violation(f.property);
                f.input = Some(ix);
            }
        }
        if this_cut {
            break;
        }
    }
    for f in findings
        .iter_mut()
        .filter(|f| f.status != Status::Violated && cut)
    {
        f.status = Status::Unknown;
    }
    Search {
        findings,
        unique_states: states,
        cut,
        worst_time: None,
        transmissions: None,
        no_run_ends,
    }
}

fn unviolated(property: PropertyName, cut: bool) -> Finding {
    Finding {
        property,
        status: if cut { Status::Unknown } else { Status::Holds },
        violation: None,
        input: None,
        path: None,
    }
}
