//! The exhaustive checks: the lock-step model over every input and every
//! open choice, and, for event-driven protocols, the actor model over every
//! input and every delivery order. Each reports, per property, a verdict
//! and the first counterexample found.

use super::actor::{self, NodeActor};
use super::asynchronous::Async;
use super::lockstep::{LockStep, RUN_ENDS};
use super::memory::Allowance;
use super::search::{self, deadline, Cut, Found, Limits, Progress};
use models::Protocol;
use properties::{PropertyName, Slot, Status, Violation};
use stateright::actor::ActorModelState;
use stateright::{Checker, Model};
use std::sync::Arc;
use std::time::Duration;

/// How much an exhaustive check may spend.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Search workers.
    pub threads: usize,
    /// Generated states after which the search stops (verdicts not yet
    /// reached become `unknown`).
    pub max_states: Option<u64>,
    /// Time the search may take (`--timeout`).
    pub timeout: Option<Duration>,
    /// Memory the search may add to the process.
    pub memory: Option<Allowance>,
    /// Build every successor the search could only probe, and assert the
    /// fingerprints agree (tests).
    pub verify_probes: bool,
    /// The properties whose violation is all the search is for
    /// ([`Limits::settle`]; None: search to the end).
    pub settle: Option<u64>,
}

impl Budget {
    /// Every thread the machine has, no state, time or memory limit: for
    /// tables whose cells are known to be small.
    pub fn unlimited() -> Budget {
        Budget {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_states: None,
            timeout: None,
            memory: None,
            verify_probes: false,
            settle: None,
        }
    }

    fn limits(&self) -> Limits {
        Limits {
            threads: self.threads,
            max_states: self.max_states,
            deadline: deadline(self.timeout),
            memory: self.memory,
            verify_probes: self.verify_probes,
            settle: self.settle,
        }
    }
}

/// A property's verdict from one exhaustive engine.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The property.
    pub property: PropertyName,
    /// Its verdict over everything searched.
    pub status: Status,
    /// The first violation found, where one was.
    pub violation: Option<Violation>,
    /// Index of the input of the counterexample.
    pub input: Option<usize>,
    /// The counterexample's path as the Explorer encodes it (`#/steps/...`).
    pub path: Option<String>,
}

/// What one exhaustive engine found.
#[derive(Clone, Debug)]
pub struct Search {
    /// One finding per property, in report order.
    pub findings: Vec<Finding>,
    /// Distinct states visited.
    pub unique_states: u64,
    /// States generated.
    pub generated: u64,
    /// Why the search stopped before it was done, if it did.
    pub cut: Option<Cut>,
    /// The deepest state reached.
    pub depth: usize,
    /// Inputs explored to the end, of how many.
    pub inputs_done: usize,
    /// Inputs the search was given.
    pub inputs_total: usize,
    /// Worst completion time over every ended run.
    pub worst_time: Option<Slot>,
    /// Latest termination time (last delivery) over every ended run.
    pub worst_termination: Option<Slot>,
    /// The (lowest) input whose run took `worst_time`.
    pub worst_input: Option<usize>,
    /// Fewest and most transmissions over every ended run.
    pub transmissions: Option<(u64, u64)>,
    /// Most control messages in an ended run.
    pub control: u64,
    /// The most transmissions on one resource in one slot over every
    /// run, where more than one.
    pub load: Option<properties::Load>,
    /// Each input's fastest and slowest completion time, by input index.
    pub by_input: Vec<(usize, (Slot, Slot))>,
    /// A model whose runs never end (no ended run was found).
    pub no_run_ends: bool,
}

impl Search {
    fn from_found(found: Found, inputs: usize, explorer_paths: bool) -> Search {
        let cut = found.cut;
        let findings = PropertyName::ALL
            .iter()
            .map(|&p| match &found.discoveries[p as usize] {
                Some(d) => Finding {
                    property: p,
                    status: Status::Violated,
                    violation: Some(d.violation),
                    input: Some(d.input),
                    path: explorer_paths.then(|| {
                        std::iter::once(d.input as u64)
                            .chain(d.path.iter().copied())
                            .map(|i| i.to_string())
                            .collect::<Vec<_>>()
                            .join("/")
                    }),
                },
                None => unviolated(p, cut.is_some()),
            })
            .collect();
        Search {
            findings,
            unique_states: found.unique,
            generated: found.generated,
            cut,
            depth: found.depth,
            inputs_done: found.inputs_done,
            inputs_total: inputs,
            worst_time: found.worst_time,
            worst_termination: found.worst_termination,
            worst_input: found.worst_input,
            transmissions: found.transmissions,
            control: found.control,
            load: found.load,
            by_input: found.by_input.into_iter().collect(),
            no_run_ends: cut.is_none() && !found.run_ends,
        }
    }
}

/// Verdicts of the lock-step model of `protocol` from `inputs`.
pub fn lockstep<P: Protocol + 'static>(
    protocol: Arc<P>,
    inputs: Vec<P::Input>,
    budget: Budget,
) -> Search {
    lockstep_with(protocol, inputs, budget, &Progress::default())
}

/// [`lockstep`], updating `progress` as it goes.
pub fn lockstep_with<P: Protocol + 'static>(
    protocol: Arc<P>,
    inputs: Vec<P::Input>,
    budget: Budget,
    progress: &Progress,
) -> Search {
    let count = inputs.len();
    let model = LockStep::new(protocol, inputs);
    let found = search::search(&model, count, budget.limits(), progress);
    Search::from_found(found, count, true)
}

/// [`lockstep`] of the one run in which every node takes its first
/// choice (the executor's run): its verdicts are that run's. True beside
/// it where some node had another choice (else the run was every run).
pub fn lockstep_first<P: Protocol + 'static>(
    protocol: Arc<P>,
    inputs: Vec<P::Input>,
    budget: Budget,
) -> (Search, bool) {
    let count = inputs.len();
    let model = LockStep::new(protocol, inputs).first_choices();
    let found = search::search(&model, count, budget.limits(), &Progress::default());
    (Search::from_found(found, count, true), model.branched())
}

/// Verdicts of the asynchronous (actor) semantics of `protocol` from
/// `inputs`, by commcheck's search over the compact encoding.
pub fn actors<P: Protocol + 'static>(
    protocol: Arc<P>,
    inputs: &[P::Input],
    budget: Budget,
) -> Search {
    actors_with(protocol, inputs, budget, &Progress::default())
}

/// [`actors`], updating `progress` as it goes.
pub fn actors_with<P: Protocol + 'static>(
    protocol: Arc<P>,
    inputs: &[P::Input],
    budget: Budget,
    progress: &Progress,
) -> Search {
    let model = Async::new(&*protocol, inputs);
    let found = search::search(&model, inputs.len(), budget.limits(), progress);
    Search::from_found(found, inputs.len(), false)
}

/// Verdicts of stateright's own `ActorModel` of `protocol`, one model per
/// input, run by stateright's checker to the end (no budget binds there):
/// the reference the compact encoding is tested against.
pub fn stateright_actors<P: Protocol + 'static>(
    protocol: Arc<P>,
    inputs: &[P::Input],
    threads: usize,
) -> Search {
    let mut findings: Vec<Finding> = PropertyName::ALL
        .iter()
        .map(|&p| unviolated(p, false))
        .collect();
    let (mut states, mut generated, mut no_run_ends) = (0, 0, false);
    for (ix, input) in inputs.iter().enumerate() {
        let model = actor::model(Arc::clone(&protocol), input.clone());
        // A property name no model has: the search never stops early.
        let never = [""].into_iter().collect();
        let checker = model
            .checker()
            .finish_when(stateright::HasDiscoveries::AllOf(never))
            .threads(threads)
            .spawn_dfs()
            .join();
        states += checker.unique_state_count() as u64;
        generated += checker.state_count() as u64;
        let discoveries = checker.discoveries();
        no_run_ends |= !discoveries.contains_key(RUN_ENDS);
        for f in findings.iter_mut().filter(|f| f.status != Status::Violated) {
            if let Some(path) = discoveries.get(f.property.as_str()) {
                let last: &ActorModelState<NodeActor<P>> = path.last_state();
                f.status = Status::Violated;
                f.violation = actor::verdict(checker.model(), last).violation(f.property);
                f.input = Some(ix);
            }
        }
    }
    Search {
        findings,
        unique_states: states,
        generated,
        cut: None,
        depth: 0,
        inputs_done: inputs.len(),
        inputs_total: inputs.len(),
        worst_time: None,
        worst_termination: None,
        worst_input: None,
        transmissions: None,
        control: 0,
        load: None,
        by_input: Vec::new(),
        no_run_ends,
    }
}

/// Unique states of stateright's own checker on the lock-step model (the
/// reference commcheck's search is tested against).
pub fn stateright_lockstep_states<P: Protocol + 'static>(
    protocol: Arc<P>,
    inputs: Vec<P::Input>,
) -> u64 {
    let never = [""].into_iter().collect();
    LockStep::new(protocol, inputs)
        .checker()
        .finish_when(stateright::HasDiscoveries::AllOf(never))
        .spawn_dfs()
        .join()
        .unique_state_count() as u64
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
