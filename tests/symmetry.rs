//! The xor symmetry the single-source broadcasts declare is real: the run
//! from every source is the xor image of the run from source 0, slot by
//! slot, and the exhaustive search from every source finds the same
//! states and verdicts. That is what lets a check cover one source per
//! orbit; a protocol that declares the symmetry and breaks it is caught
//! (tests/mutants.rs seeds one).

use crate::support::BUDGET;
use commcheck::engine::exhaustive;
use commcheck::engine::lockstep::LockStep;
use commcheck::engine::search::Space;
use models::catalog::Algorithm;
use models::{with_protocol, Protocol, Symmetry};
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
    let trace = |ix: usize| {
        let mut states = vec![model.init(ix)];
        while model.successors(states.last().unwrap()) > 0 {
            let mut next = states.last().unwrap().clone();
            model.successor(states.last().unwrap(), 0, &mut next, &mut ());
            states.push(next);
        }
        states
    };
    let search = |s: NodeId| exhaustive::lockstep(Arc::clone(&p), first(s), BUDGET);
    let base = search(0);
    for (s, v) in (1..nodes).flat_map(|s| (0..variants).map(move |v| (s, v))) {
        let reference = trace(v);
        let run = trace(s as usize * variants + v);
        if run.len() != reference.len() {
            return Some(format!(
                "source {s}: {} slots, source 0: {}",
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
                )
            };
            let broken = |r: &properties::Record| {
                properties::PropertyName::ALL.map(|q| r.violation(q).is_some())
            };
            if counts(&a.record) != counts(&b.record) || broken(&a.record) != broken(&b.record) {
                return Some(format!("source {s}, slot {slot}: the records differ"));
            }
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

#[test]
fn every_declared_xor_symmetry_holds_on_every_source_up_to_n4() {
    for &algorithm in Algorithm::ALL {
        for &(switching, ports) in algorithm.modes() {
            for n in (algorithm.shape().sizes().0 as u64)..=4u64 {
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
