//! The xor symmetry the single-source broadcasts declare is real: the run
//! from every source is the xor image of the run from source 0, slot by
//! slot, and the exhaustive search from every source finds the same
//! states and verdicts. That is what lets a check cover one source per
//! orbit; a protocol that declares the symmetry and breaks it is caught
//! (tests/mutants.rs seeds one).

use crate::support::BUDGET;
use commcheck::engine::exhaustive;
use commcheck::engine::lockstep::{LockStep, State};
use commcheck::engine::search::Space;
use models::catalog::Algorithm;
use models::faults::{self, Faults};
use models::{with_protocol, Faulty, Protocol, ProtocolExt, Scenario, Symmetry};
use properties::{NodeId, Route};
use std::sync::Arc;

/// A route relabelled by v -> v xor s.
fn image(route: &Route, s: NodeId) -> Route {
    match *route {
        Route::Link { from, to } => Route::Link {
            from: from ^ s,
            to: to ^ s,
        },
        Route::Worm { from, to, first } => Route::Worm {
            from: from ^ s,
            to: to ^ s,
            first,
        },
        Route::Bus { from, bus } => Route::Bus {
            from: from ^ s,
            bus,
        },
        Route::Fan { from, ports } => Route::Fan {
            from: from ^ s,
            ports,
        },
    }
}

/// Variants of a construction compared per source.
const VARIANTS: usize = 16;

/// Why `p`'s declared xor symmetry does not hold, if it does not: the
/// first-choice run from each source against the image of the run from
/// source 0 (routes of every slot, counts, which properties break), and
/// the exhaustive search from each source against the one from source 0.
/// Where a construction has variants, each source's variant i is compared
/// with source 0's variant i, for the first [`VARIANTS`].
pub fn xor_symmetry_broken<P: Protocol + 'static>(p: Arc<P>) -> Option<String> {
    assert_eq!(p.symmetry(), Some(Symmetry::XorTranslation));
    let nodes = models::Topology::nodes(p.topology());
    // The first few variants of a construction (the exhaustive tests of
    // each algorithm cover every one from source 0).
    let variants = p.sourced_inputs(0).len().min(VARIANTS);
    let first = |s: NodeId| {
        let mut v = p.sourced_inputs(s);
        v.truncate(VARIANTS);
        v
    };
    let all = (0..nodes).flat_map(first).collect();
    let model = LockStep::new(Arc::clone(&p), all);
    let search = |s: NodeId| exhaustive::lockstep(Arc::clone(&p), first(s), BUDGET);
    let base = search(0);
    for (s, v) in (1..nodes).flat_map(|s| (0..variants).map(move |v| (s, v))) {
        if let Some(why) = image_differs(&model, v, s as usize * variants + v, s) {
            return Some(why);
        }
        if v + 1 < variants {
            continue;
        }
        let other = search(s);
        let statuses =
            |x: &exhaustive::Search| x.findings.iter().map(|f| f.status).collect::<Vec<_>>();
        if other.unique_states != base.unique_states || statuses(&other) != statuses(&base) {
            return Some(format!(
                "source {s}: {} states and {:?}, source 0: {} and {:?}",
                other.unique_states,
                statuses(&other),
                base.unique_states,
                statuses(&base)
            ));
        }
    }
    None
}

/// The first-choice run of `model` from input `ix`, state by state.
fn trace<P: Protocol + 'static>(model: &LockStep<P>, ix: usize) -> Vec<State<P>> {
    let mut states = vec![model.init(ix)];
    while model.successors(states.last().unwrap()) > 0 {
        let mut next = states.last().unwrap().clone();
        model.successor(states.last().unwrap(), 0, &mut next, &mut ());
        states.push(next);
    }
    states
}

/// Why the run from input `run` is not the image under v -> v xor s of
/// the run from input `reference` (routes of every slot, counts, which
/// properties break), if it is not.
fn image_differs<P: Protocol + 'static>(
    model: &LockStep<P>,
    reference: usize,
    run: usize,
    s: NodeId,
) -> Option<String> {
    let (reference, run) = (trace(model, reference), trace(model, run));
    if run.len() != reference.len() {
        return Some(format!(
            "source {s}: {} slots, its image: {}",
            run.len(),
            reference.len()
        ));
    }
    for (slot, (a, b)) in reference.iter().zip(&run).enumerate() {
        let mut mapped: Vec<Route> = a.sent.iter().map(|t| image(&t.route, s)).collect();
        let mut sent: Vec<Route> = b.sent.iter().map(|t| t.route).collect();
        mapped.sort();
        sent.sort();
        if mapped != sent {
            return Some(format!(
                "source {s}, slot {slot}: {sent:?} is not the image of {mapped:?}"
            ));
        }
        let counts = |r: &properties::Record| {
            (
                r.transmissions,
                r.deliveries,
                r.completion,
                r.last_delivery,
                r.ended,
                r.lost,
                r.excused,
            )
        };
        let broken = |r: &properties::Record| {
            properties::PropertyName::ALL.map(|q| r.violation(q).is_some())
        };
        if counts(&a.record) != counts(&b.record) || broken(&a.record) != broken(&b.record) {
            return Some(format!("source {s}, slot {slot}: the records differ"));
        }
    }
    None
}

/// How a symmetry is declared to act on fault sets: the run from source
/// s under F is the image by v -> v xor s of the run from source 0 under
/// `action(F, s)`.
type FaultAction = fn(&Faults, NodeId) -> Faults;

/// Why `action` is not how `p`'s xor symmetry maps the fault sets `sets`
/// (closed under it), if it is not: every (source, fault set) pair's run
/// against the image of source 0's under the mapped set.
fn fault_symmetry_broken<P: Protocol + 'static>(
    p: P,
    sets: Vec<Faults>,
    action: FaultAction,
) -> Option<String> {
    let scenarios: Vec<Scenario> = sets
        .iter()
        .map(|f| Scenario {
            faults: f.clone(),
            offsets: Vec::new(),
        })
        .collect();
    let f = Arc::new(Faulty::new(p, scenarios, 0, true));
    assert_eq!(f.symmetry(), Some(Symmetry::XorTranslation));
    let nodes = models::Topology::nodes(f.topology());
    let model = LockStep::new(Arc::clone(&f), f.inputs());
    let k = sets.len();
    for s in 1..nodes {
        for (i, set) in sets.iter().enumerate() {
            let mapped = action(set, s);
            let Some(j) = sets.iter().position(|x| *x == mapped) else {
                return Some(format!("{} maps outside the sets", set.words(f.topology())));
            };
            if let Some(why) = image_differs(&model, j, s as usize * k + i, s) {
                return Some(format!("{}: {why}", set.words(f.topology())));
            }
        }
    }
    None
}

#[test]
fn the_xor_symmetry_maps_fault_sets_by_translating_them() {
    let translate: FaultAction = |f, s| f.translated(s);
    for name in ["sbt", "nob", "ft-trees", "flood", "dt"] {
        let algorithm = Algorithm::parse(name).unwrap();
        let cfg = algorithm.config(3, None, None).unwrap();
        let cube = models::Hypercube::new(3, cfg.switching, cfg.ports);
        for sets in [
            faults::link_fault_sets(&cube, 1),
            faults::arc_fault_sets(&cube, 1),
            faults::node_fault_sets(&cube, 2),
        ] {
            with_protocol!(algorithm, cfg.clone(), |p| {
                assert_eq!(
                    fault_symmetry_broken(p, sets.clone(), translate),
                    None,
                    "{name}"
                );
            });
        }
    }
}

#[test]
fn a_fault_symmetry_that_does_not_hold_is_caught() {
    // Declared: fault sets stay where they are while the source moves.
    let kept: FaultAction = |f, _| f.clone();
    let cfg = Algorithm::Sbt.config(3, None, None).unwrap();
    let cube = models::Hypercube::new(3, cfg.switching, cfg.ports);
    let sbt = models::lecture_notes::sbt::Sbt::new(cfg);
    assert!(fault_symmetry_broken(sbt, faults::link_fault_sets(&cube, 1), kept).is_some());
}

#[test]
fn every_declared_xor_symmetry_holds_on_every_source_up_to_n4() {
    for &algorithm in Algorithm::ALL {
        for &(switching, ports) in algorithm.modes() {
            for n in (algorithm.family().sizes().0 as u64)..=4u64 {
                let cfg = algorithm.config(n, Some(switching), Some(ports)).unwrap();
                with_protocol!(algorithm, cfg, |p| {
                    if p.symmetry() == Some(Symmetry::XorTranslation) {
                        let broken = xor_symmetry_broken(Arc::new(p));
                        assert_eq!(
                            broken,
                            None,
                            "{} n={n} {switching} {ports}",
                            algorithm.name()
                        );
                    }
                });
            }
        }
    }
}
