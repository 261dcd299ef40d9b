//! Every verdict earned. A "holds" means a judge ran and found nothing:
//! each algorithm of `check list`, at its smallest size, in each of its
//! modes, by each engine, is held to what its report shows was there to
//! judge (a bound for the time, a bus for the message length, a common
//! slot for contention, a search that finished).

use commcheck::check::{self, Request};
use commcheck::engine::Engine;
use models::catalog::{Algorithm, Ports, Switching};
use models::ProtocolExt;
use properties::Status;

/// Why a "holds" of `name` in `o` (by `engine`) was not earned, if it
/// was not.
fn unearned(o: &commcheck::report::Outcome, engine: Engine, name: &str) -> Option<&'static str> {
    let finished = [&o.search, &o.actor_search]
        .into_iter()
        .flatten()
        .all(|c| c.cut.is_none());
    let ran = o.states.is_some() || o.actor_states.is_some() || o.transmissions.is_some();
    match name {
        _ if !ran => Some("no engine ran"),
        _ if !finished => Some("a search was cut"),
        "time-bound" if o.time.bound.is_none() && o.time.bounds.is_none() => {
            Some("no bound was claimed")
        }
        "message-length" if o.bus_utilization.is_none() => Some("there is no bus"),
        "contention-freedom" if engine == Engine::Actor => Some("the actor model has no slot"),
        "transmissions" if o.optimal_transmissions.is_none() => Some("no count to meet"),
        _ => None,
    }
}

/// The request of `algorithm` in one mode at the smallest size from
/// `least` on that the catalogue takes.
fn smallest(algorithm: Algorithm, modes: (Switching, Ports), least: u64) -> Option<Request> {
    let first = (algorithm.family().sizes().0 as u64).max(least);
    (first..first + 6).find_map(|n| Request::new(algorithm, n, Some(modes.0), Some(modes.1)).ok())
}

#[test]
fn no_report_says_holds_where_nothing_was_judged() {
    let (mut runs, mut holds, mut not_judged) = (0, 0, 0);
    let mut wrong = Vec::new();
    for &algorithm in Algorithm::ALL {
        for &(switching, ports) in algorithm.modes() {
            let Some(req) = smallest(algorithm, (switching, ports), 1) else {
                wrong.push(format!("{} takes no small size", algorithm.name()));
                continue;
            };
            for engine in [Engine::Lockstep, Engine::Actor, Engine::Executor] {
                let mut req = req.clone();
                req.options.engine = Some(engine);
                req.options.threads = 1;
                let what = format!(
                    "{} {} --switching {switching} --ports {ports} --engine {}",
                    algorithm.name(),
                    req.config.n,
                    engine.name()
                );
                let o = match check::check(&req) {
                    Ok(o) => o,
                    // An engine that does not take the algorithm says so.
                    Err(e) if e.to_string().contains("actor") => continue,
                    Err(e) => {
                        wrong.push(format!("{what}: {e}"));
                        continue;
                    }
                };
                runs += 1;
                for p in &o.properties {
                    match p.status {
                        Status::Holds => {
                            holds += 1;
                            if let Some(why) = unearned(&o, engine, p.name) {
                                wrong.push(format!("{what}: {} holds, but {why}", p.name));
                            }
                        }
                        Status::NotJudged => {
                            not_judged += 1;
                            if p.reason.as_deref().is_none_or(str::is_empty) {
                                wrong.push(format!("{what}: {} not judged, no reason", p.name));
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Each engine ran on most of the catalogue, and both words occur.
    assert!(runs >= 2 * Algorithm::ALL.len(), "{runs} runs");
    assert!(
        holds > runs && not_judged > runs / 2,
        "{holds} holds, {not_judged} not judged"
    );
}

/// Where a claim's bound depends on the source, a run over every source
/// judges each against its own: the protocol built for every source gives
/// each source the bound the protocol built for that source alone claims
/// (`check ALG --source S`). Every algorithm whose inputs are sources, in
/// each of its modes, at its smallest size; the audit must find the
/// sources' bounds differing where the notes claim an eccentricity.
#[test]
fn every_source_is_judged_against_the_bound_claimed_for_it_alone() {
    use models::{with_protocol, Protocol, Topology};
    let mut varying = Vec::new();
    let mut checked = 0;
    for &algorithm in Algorithm::ALL {
        for &(switching, ports) in algorithm.modes() {
            // At 3 a mesh's sources differ in eccentricity.
            let Some(req) = smallest(algorithm, (switching, ports), 3) else {
                continue;
            };
            let config = req.config.clone();
            let per_source: Vec<(u32, Option<properties::Slot>)> =
                with_protocol!(algorithm, config.clone(), |p| {
                    (0..p.topology().nodes())
                        .filter_map(|s| p.source_input(s).map(|input| (s, p.bound(&input))))
                        .collect()
                });
            let mut bounds = std::collections::BTreeSet::new();
            for (source, bound) in per_source {
                let mut alone = config.clone();
                alone.params.source = Some(source);
                let claimed = with_protocol!(algorithm, alone, |p| p.claims().bound);
                assert_eq!(
                    bound,
                    claimed,
                    "{} {} --switching {switching} --ports {ports}, source {source}",
                    algorithm.name(),
                    config.n
                );
                bounds.insert(bound);
                checked += 1;
            }
            if bounds.len() > 1 {
                varying.push(algorithm.name());
            }
        }
    }
    assert!(checked > 100, "{checked} sources");
    for name in ["mesh-sf", "mesh-sf-farthest", "mesh-flood"] {
        assert!(varying.contains(&name), "{name} among {varying:?}");
    }
}
