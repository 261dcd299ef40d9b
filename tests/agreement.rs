//! The executor and the exhaustive checker agree on every run both can do:
//! for n <= 6 and every source, the executor's record equals the lock-step
//! run that takes every first choice, and its verdicts match the
//! exhaustive verdicts wherever the protocol leaves no choice open.

use crate::support::*;
use commcheck::engine::{executor, exhaustive, lockstep::LockStep};
use models::catalog::Algorithm;
use models::{with_protocol, Protocol, ProtocolExt, Topology};
use properties::{PropertyName, Status};
use std::sync::Arc;

#[test]
fn executor_agrees_with_the_lockstep_checker_up_to_n6() {
    for &algorithm in Algorithm::ALL {
        for &(switching, ports) in algorithm.modes() {
            for n in first(algorithm)..=6u64 {
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

/// The smallest size an algorithm takes (a mesh-bus needs a side of 2).
fn first(algorithm: Algorithm) -> u64 {
    algorithm.family().sizes().0 as u64
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
        for n in first(algorithm)..=5.min(algorithm.reach().lockstep as u64) {
            let cfg = algorithm.config(n, None, None).unwrap();
            with_protocol!(algorithm, cfg, |p| {
                let claims = p.claims();
                // One source where the xor symmetry covers the others
                // (tested in the symmetry module).
                let inputs = match p.symmetry() {
                    Some(_) => p.sourced_inputs(0),
                    None => p.inputs(),
                };
                let verdicts: Vec<Vec<Status>> = inputs
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
                let search = exhaustive::lockstep(Arc::new(p), inputs, BUDGET);
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
/// k), for every algorithm, mode and source up to n = 4 or its reach
/// (constructions with many variants on an even sample of them).
#[test]
fn the_lockstep_search_counts_the_states_stateright_counts() {
    use commcheck::engine::exhaustive::{self, stateright_lockstep_states};
    for &algorithm in Algorithm::ALL {
        for &(switching, ports) in algorithm.modes() {
            for n in first(algorithm)..=4.min(algorithm.reach().lockstep as u64) {
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
/// event-driven algorithm and source up to n = 3 (n = 4 for nob; n = 2
/// for ft-trees, whose d copies interleave into 8 M states at n = 3).
#[test]
fn the_compact_actor_model_matches_stateright_s_actor_model() {
    use commcheck::engine::exhaustive::{self, stateright_actors};
    for &algorithm in Algorithm::ALL {
        let top = match algorithm {
            Algorithm::Nob => 4,
            Algorithm::FtTrees => 2,
            _ => 3,
        };
        for n in first(algorithm)..=top {
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

/// Every way of driving the executor gives the same run: inboxes, their
/// dense codes (for the protocols that give them), and one thread or
/// several with the arrivals grouped per receiver range (at n >= 7 the
/// receivers split into ranges of 64 nodes and more; with ranges of at
/// most 64, several to a thread), for every algorithm, whether it reads
/// its arrivals or follows a schedule.
#[test]
fn every_drive_of_the_executor_gives_the_same_run() {
    use commcheck::engine::search::Progress;
    use executor::Drive;
    let drives = SCHEDULES;
    let (mut scheduled, mut packing) = (0, 0);
    for &algorithm in Algorithm::ALL {
        for &(switching, ports) in algorithm.modes() {
            for n in [1, 2, 3, 7, 8u64]
                .into_iter()
                .filter(|&n| n >= first(algorithm))
            {
                let cfg = algorithm.config(n, Some(switching), Some(ports)).unwrap();
                with_protocol!(algorithm, cfg, |p| {
                    scheduled += 1;
                    let input = p.first_input();
                    let inbox = executor::drive(&p, &input, &Progress::default(), Drive::Inbox);
                    let dense = [1, 3].map(|threads| Drive::Dense { threads });
                    let dense = dense.into_iter().filter(|_| p.packs());
                    packing += usize::from(p.packs());
                    for d in drives.into_iter().chain(dense) {
                        let run = executor::drive(&p, &input, &Progress::default(), d);
                        let what = format!("{} n={n} {ports} {d:?}", algorithm.name());
                        assert_eq!(run, inbox, "{what}");
                    }
                });
            }
        }
    }
    assert!(
        scheduled >= 20,
        "the phased drive was tried {scheduled} times"
    );
    assert!(packing >= 20, "the dense drive was tried {packing} times");
}

/// Slots of many deliveries (2^14 and more) are judged on several
/// threads, each taking a group of consecutive receiver ranges: at
/// kbcast-mnb 12 (up to 24 k deliveries a slot) ranges of 64 receivers
/// on 3 threads give the run one range on one thread gives.
#[test]
fn groups_of_ranges_on_threads_give_the_same_run() {
    use commcheck::engine::search::Progress;
    use executor::{Drive, RANGE};
    let a = Algorithm::KbcastMnb;
    let p = models::stamoulis::kbcast::Kbcast::new(
        a.config(12, None, None).unwrap(),
        models::stamoulis::kbcast::Variant::Mnb,
    );
    let input = p.first_input();
    let run = |threads, range| {
        executor::drive(
            &p,
            &input,
            &Progress::default(),
            Drive::Phased { threads, range },
        )
    };
    let one = run(1, RANGE);
    assert!(
        one.record.deliveries > 4096 * 4095,
        "every packet everywhere"
    );
    assert_eq!(run(3, 64), one);
    assert_eq!(run(2, 256), one);
}

/// The same for seeded bugs in a schedule: a copy resent across the
/// boundary between two threads' receivers (a duplicate, and under one
/// port a port taken by two threads' senders) and a forged packet. Each
/// drive reports the same first violations, and they are reported.
#[test]
fn every_drive_reports_the_same_violations() {
    use commcheck::engine::search::Progress;
    use executor::Drive;
    use models::bertsekas::mnb::Mnb;
    use models::catalog::Ports;
    for ports in [Ports::All, Ports::One] {
        for bug in [ScheduleBug::Resend, ScheduleBug::Forge] {
            let cfg = Algorithm::Mnb.config(7, None, Some(ports)).unwrap();
            let p = models::Mutant::new(Mnb::new(cfg), bug);
            let inbox = executor::drive(&p, &0, &Progress::default(), Drive::Inbox);
            let property = match bug {
                ScheduleBug::Resend => PropertyName::NoDuplication,
                ScheduleBug::Forge => PropertyName::Causality,
            };
            assert!(inbox.record.violation(property).is_some(), "{bug:?} caught");
            if ports == Ports::One && bug == ScheduleBug::Resend {
                assert!(
                    inbox
                        .record
                        .violation(PropertyName::ContentionFreedom)
                        .is_some(),
                    "two senders on one in-port"
                );
            }
            for threads in 1..=3 {
                for range in [64, executor::RANGE] {
                    let drive = Drive::Phased { threads, range };
                    let run = executor::drive(&p, &0, &Progress::default(), drive);
                    assert_eq!(run, inbox, "{bug:?} {ports} on {threads} threads, {range}");
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScheduleBug {
    /// In the last slot, the last node of the lower half sends its own
    /// packet again across the top dimension.
    Resend,
    /// In slot 1, the last node sends packet 0, which it cannot hold yet.
    Forge,
}

/// A bug seeded into a schedule protocol.
impl<P: Protocol<Msg = models::blocks::broadcast::Packet>> models::Mutation<P> for ScheduleBug {
    type Memory = ();

    fn step(
        &self,
        inner: &P,
        node: properties::NodeId,
        state: &mut models::MutantState<P::State, ()>,
        slot: properties::Slot,
        arrivals: &[models::Arrival<P::Msg>],
        choice: u32,
        out: &mut Vec<properties::Transmission<P::Msg>>,
    ) -> bool {
        let again = inner.step(node, &mut state.inner, slot, arrivals, choice, out);
        let nodes = inner.topology().nodes();
        let last = inner.claims().bound.unwrap();
        let (send, packet, to) = match self {
            ScheduleBug::Resend => (
                slot == last && node == nodes / 2 - 1,
                node,
                node ^ (nodes / 2),
            ),
            ScheduleBug::Forge => (slot == 1 && node == nodes - 1, 0, node ^ 1),
        };
        if send {
            out.push(properties::Transmission {
                route: properties::Route::Link { from: node, to },
                msg: models::blocks::broadcast::Packet {
                    source: packet,
                    step: 0,
                },
            });
        }
        again
    }
}

/// The count of inputs a report states is the number listed, where one
/// input a source is all there is (the broadcasts count rather than list
/// them), and never fewer than listed.
#[test]
fn the_inputs_counted_are_the_inputs_listed() {
    let mut counted = 0;
    for &algorithm in Algorithm::ALL {
        for &(switching, ports) in algorithm.modes() {
            let n = first(algorithm).max(3);
            let cfg = algorithm.config(n, Some(switching), Some(ports)).unwrap();
            with_protocol!(algorithm, cfg, |p| {
                let listed = p.inputs().len() as u64;
                let what = format!("{} n={n} {ports}", algorithm.name());
                assert!(p.inputs_total() >= listed, "{what}");
                if p.source_input(0).is_some() && p.sourced_inputs(0).len() == 1 {
                    assert_eq!(p.inputs_total(), listed, "{what}");
                    counted += 1;
                }
            });
        }
    }
    assert!(
        counted >= 20,
        "{counted} algorithms with one input a source"
    );
}

/// `Protocol::PACKS`, a constant the catalogue's cost model reads before
/// anything is built, says what `codes()` hands out: a protocol packs
/// exactly where it has codes.
#[test]
fn a_protocol_packs_exactly_where_it_has_codes() {
    let mut packing = 0;
    for &algorithm in Algorithm::ALL {
        let &(switching, ports) = algorithm.modes().first().unwrap();
        let n = first(algorithm).max(3);
        let cfg = algorithm.config(n, Some(switching), Some(ports)).unwrap();
        with_protocol!(algorithm, cfg, |p| {
            assert_eq!(p.packs(), p.codes().is_some(), "{}", algorithm.name());
            packing += p.packs() as u32;
        });
    }
    assert!(packing > 0, "some protocol packs");
}

/// The estimate of a search's tree along one run (which decides whether a
/// search of no measured reach says, before it starts, that it may not
/// end within a minute) is exact where no node has a choice: the tree is
/// that run, one state a slot, as the search counts it. Where some node
/// has a choice, it counts more than the run.
#[test]
fn the_tree_estimate_is_the_run_where_no_choice_is_open() {
    for &algorithm in Algorithm::ALL {
        for n in first(algorithm)..=4.min(algorithm.reach().lockstep as u64) {
            let cfg = algorithm.config(n, None, None).unwrap();
            with_protocol!(algorithm, cfg, |p| {
                let p = Arc::new(p);
                let inputs = vec![p.inputs().swap_remove(0)];
                let budget = exhaustive::Budget::unlimited();
                let (run, branched) =
                    exhaustive::lockstep_first(Arc::clone(&p), inputs.clone(), budget);
                let model = LockStep::new(Arc::clone(&p), inputs);
                let estimate = model.tree_estimate(f64::INFINITY);
                let what = format!("{} n={n}", algorithm.name());
                match branched {
                    false => assert_eq!(estimate, run.unique_states as f64, "{what}"),
                    true => assert!(estimate > run.unique_states as f64, "{what}"),
                }
            });
        }
    }
}
