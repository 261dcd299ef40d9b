//! The executor and the exhaustive checker agree on every run both can do:
//! for n <= 6 and every source, the executor's record equals the lock-step
//! run that takes every first choice, and its verdicts match the
//! exhaustive verdicts wherever the protocol leaves no choice open.

use crate::support::*;
use commcheck::engine::{executor, lockstep::LockStep};
use models::catalog::Algorithm;
use models::{with_protocol, Protocol};
use properties::{PropertyName, Status};
use std::sync::Arc;

#[test]
fn executor_agrees_with_the_lockstep_checker_up_to_n6() {
    for &algorithm in Algorithm::ALL {
        for &(switching, ports) in algorithm.modes() {
            for n in 1..=6u64 {
                let cfg = algorithm.config(n, Some(switching), Some(ports)).unwrap();
                with_protocol!(algorithm, cfg, |p| {
                    let p = Arc::new(p);
                    let inputs = spread(p.inputs());
                    let model = LockStep::new(Arc::clone(&p), inputs.clone());
                    for (ix, source) in inputs.iter().enumerate() {
                        let run = executor::run(&*p, source);
                        let lock = model.first_choice_run(ix);
                        let what = format!(
                            "{} n={n} {switching} {ports} {}",
                            algorithm.name(),
                            p.describe_input(source)
                        );
                        assert_eq!(run.record, lock.record, "{what}");
                        assert_eq!(run.slots, lock.slot, "{what}");
                        assert_eq!(executor::run(&*p, source), run, "{what}: deterministic");
                    }
                });
            }
        }
    }
}

/// At most 512 inputs, spread evenly over all of them (a construction
/// with thousands of variants per source is compared on a sample; the
/// exhaustive tests of each algorithm cover every one).
fn spread<T: Clone>(inputs: Vec<T>) -> Vec<T> {
    let step = inputs.len().div_ceil(512).max(1);
    inputs.into_iter().step_by(step).collect()
}

#[test]
fn executor_verdicts_match_exhaustive_verdicts_where_no_choice_is_open() {
    for &algorithm in Algorithm::ALL {
        for n in 1..=5.min(algorithm.reach().lockstep as u64) {
            let cfg = algorithm.config(n, None, None).unwrap();
            with_protocol!(algorithm, cfg, |p| {
                let claims = p.claims();
                let verdicts: Vec<Vec<Status>> = p
                    .inputs()
                    .iter()
                    .map(|s| {
                        executor::run(&p, s)
                            .record
                            .evidence(&claims)
                            .iter()
                            .map(|e| e.status)
                            .collect()
                    })
                    .collect();
                let search = lockstep(p);
                for prop in PropertyName::ALL {
                    let any_violated = verdicts
                        .iter()
                        .any(|v| v[prop as usize] == Status::Violated);
                    let exhaustive = status(&search, prop);
                    let what = format!("{} n={n} {}", algorithm.name(), prop.as_str());
                    if exhaustive == Status::Holds {
                        assert!(
                            !any_violated,
                            "{what}: the executor found what the checker missed"
                        );
                    }
                    if algorithm != Algorithm::Nob && algorithm != Algorithm::NobAppendix {
                        let executor = if any_violated {
                            Status::Violated
                        } else {
                            Status::Holds
                        };
                        assert_eq!(executor, exhaustive, "{what}");
                    }
                }
            });
        }
    }
}

/// commcheck's search visits exactly the states stateright's checker
/// visits on the same lock-step model (successor k is stateright's action
/// k), for every algorithm, mode and source up to n = 4 (constructions
/// with many variants on an even sample of them).
#[test]
fn the_lockstep_search_counts_the_states_stateright_counts() {
    use commcheck::engine::exhaustive::{self, stateright_lockstep_states};
    for &algorithm in Algorithm::ALL {
        for &(switching, ports) in algorithm.modes() {
            for n in 1..=4u64 {
                let cfg = algorithm.config(n, Some(switching), Some(ports)).unwrap();
                with_protocol!(algorithm, cfg, |p| {
                    let p = Arc::new(p);
                    let inputs = spread(p.inputs());
                    let ours =
                        exhaustive::lockstep(Arc::clone(&p), inputs.clone(), BUDGET).unique_states;
                    let theirs = stateright_lockstep_states(Arc::clone(&p), inputs);
                    let what = format!("{} n={n} {switching} {ports}", algorithm.name());
                    assert_eq!(ours, theirs, "{what}");
                });
            }
        }
    }
}

/// The compact asynchronous encoding visits exactly the states of
/// stateright's ActorModel and reaches its verdicts, for every
/// event-driven algorithm and source up to n = 3 (n = 4 for nob).
#[test]
fn the_compact_actor_model_matches_stateright_s_actor_model() {
    use commcheck::engine::exhaustive::{self, stateright_actors};
    for &algorithm in Algorithm::ALL {
        let top = if algorithm == Algorithm::Nob { 4 } else { 3 };
        for n in 1..=top {
            let cfg = algorithm.config(n, None, None).unwrap();
            with_protocol!(algorithm, cfg, |p| {
                if p.event_driven() {
                    let p = Arc::new(p);
                    let inputs = p.inputs();
                    let ours = exhaustive::actors(Arc::clone(&p), &inputs, BUDGET);
                    let theirs = stateright_actors(Arc::clone(&p), &inputs, 1);
                    let what = format!("{} n={n}", algorithm.name());
                    assert_eq!(ours.unique_states, theirs.unique_states, "{what}");
                    for prop in ACTOR_JUDGED {
                        assert_eq!(status(&ours, prop), status(&theirs, prop), "{what}");
                    }
                }
            });
        }
    }
}

/// Two workers find the same states and verdicts as one.
#[test]
fn two_threads_search_what_one_searches() {
    use commcheck::engine::exhaustive;
    let cfg = Algorithm::Nob.config(4, None, None).unwrap();
    with_protocol!(Algorithm::Nob, cfg, |p| {
        let p = Arc::new(p);
        let inputs = p.inputs();
        let two = exhaustive::Budget {
            threads: 2,
            ..BUDGET
        };
        let one = exhaustive::actors(Arc::clone(&p), &inputs, BUDGET);
        let both = exhaustive::actors(Arc::clone(&p), &inputs, two);
        assert_eq!(one.unique_states, both.unique_states);
        assert_eq!(one.unique_states, 93_328);
        let one = exhaustive::lockstep(Arc::clone(&p), inputs.clone(), BUDGET);
        let both = exhaustive::lockstep(Arc::clone(&p), inputs, two);
        assert_eq!(one.unique_states, both.unique_states);
    });
}
