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
    for algorithm in Algorithm::ALL {
        for &(switching, ports) in algorithm.modes() {
            for n in 1..=6u64 {
                let cfg = algorithm.config(n, Some(switching), Some(ports)).unwrap();
                with_protocol!(algorithm, cfg, |p| {
                    let p = Arc::new(p);
                    let model = LockStep::new(Arc::clone(&p), p.inputs());
                    for (ix, source) in p.inputs().iter().enumerate() {
                        let run = executor::run(&*p, source);
                        let lock = model.first_choice_run(ix);
                        let what = format!(
                            "{} n={n} {switching} {ports} source {source}",
                            algorithm.name()
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

#[test]
fn executor_verdicts_match_exhaustive_verdicts_where_no_choice_is_open() {
    for algorithm in Algorithm::ALL {
        for n in 1..=5u64 {
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
