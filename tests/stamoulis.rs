//! Stamoulis and Tsitsiklis 1993: K simultaneous broadcasts. Section
//! 3.3.1's same-order trees checked over every K-set and every order of
//! waiting packets at small d, against d + K - 1 typed from the paper;
//! mutants of the trees and of the arc discipline caught; the parameters
//! refused where they do not fit.

use crate::support::*;
use commcheck::engine::exhaustive;
use models::blocks::broadcast::Packet;
use models::catalog::{Algorithm, Params};
use models::stamoulis::kbcast_small::{KbcastSmall, Queues};
use models::{Arrival, Mutant, MutantState, Mutation, Protocol, ProtocolExt};
use properties::{NodeId, PropertyName, Slot, Status, Transmission};
use std::sync::Arc;

fn kbcast_small(d: u32, k: u64, every_set: bool) -> KbcastSmall {
    let a = Algorithm::KbcastSmall;
    let cfg = a.config(d as u64, None, None).unwrap();
    let params = Params {
        k: Some(k),
        ..Params::default()
    };
    let mut p = KbcastSmall::new(a.with_params(cfg, params).unwrap());
    p.sets.orbits = !every_set;
    p.every_order = true;
    p
}

/// One order of copies waiting for an arc gives the verdicts, the worst
/// time and every set's worst time that every order gives (the module's
/// reduction, "Orders"): every set at d = 2 and 3, K <= 3 at d = 4.
#[test]
fn one_order_per_arc_gives_what_every_order_gives() {
    let sizes = [(2u32, 1..=4u64), (3, 1..=8), (4, 1..=3)];
    for (d, ks) in sizes {
        for k in ks {
            let every = kbcast_small(d, k, d < 4);
            let mut one = kbcast_small(d, k, d < 4);
            one.every_order = false;
            let (e, o) = (search(every), search(one));
            let what = format!("d={d} K={k}");
            for p in PropertyName::ALL {
                assert_eq!(status(&e, p), status(&o, p), "{what} {p:?}");
            }
            let worst = |s: &commcheck::engine::exhaustive::Search| -> Vec<(usize, u32)> {
                s.by_input.iter().map(|(i, (_, hi))| (*i, *hi)).collect()
            };
            assert_eq!(worst(&e), worst(&o), "{what}");
            assert!(o.unique_states <= e.unique_states, "{what}");
        }
    }
}

fn search<P: Protocol + 'static>(p: P) -> commcheck::engine::exhaustive::Search {
    let inputs = p.inputs();
    exhaustive::lockstep(Arc::new(p), inputs, BUDGET)
}

/// Every K-set (no reduction) of the 1-, 2- and 3-cube and every order of
/// waiting packets: complete, one copy, no arc used twice in a slot, and
/// done within d + K - 1 slots (the paper's bound, typed here), with one
/// transmission per tree arc, K (2^d - 1).
#[test]
fn same_order_trees_finish_within_d_plus_k_minus_1_for_every_set() {
    for d in 1..=3u32 {
        for k in 1..=1u64 << d {
            let what = format!("d={d} K={k}");
            let s = search(kbcast_small(d, k, true));
            assert_holds(
                &s,
                &[
                    PropertyName::Completeness,
                    PropertyName::NoDuplication,
                    PropertyName::ContentionFreedom,
                    PropertyName::Causality,
                    PropertyName::TimeBound,
                ],
                &what,
            );
            let bound = d + k as u32 - 1;
            assert!(s.worst_time.unwrap() <= bound, "{what}");
            let tx = k * ((1 << d) - 1);
            assert_eq!(s.transmissions, Some((tx, tx)), "{what}");
        }
    }
}

/// One set per translation orbit gives the verdicts and the worst time of
/// every set (d = 3, every K), and K <= 3 holds at d = 4.
#[test]
fn one_set_per_translation_orbit_covers_every_set() {
    for k in 1..=8 {
        let (all, orbits) = (kbcast_small(3, k, true), kbcast_small(3, k, false));
        assert!(orbits.inputs().len() < all.inputs().len() || k == 8);
        let (a, o) = (search(all), search(orbits));
        for p in PropertyName::ALL {
            assert_eq!(status(&a, p), status(&o, p), "K={k} {p:?}");
        }
        assert_eq!(a.worst_time, o.worst_time, "K={k}");
    }
    for k in 1..=3 {
        let s = search(kbcast_small(4, k, false));
        assert_holds(&s, &[PropertyName::TimeBound], &format!("d=4 K={k}"));
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bug {
    /// no-duplication: node 001 forwards what arrives across dimension 3
    /// once more (a second copy for the node behind that arc).
    Backwards,
    /// contention-freedom: a root sends its packet twice across
    /// dimension 1 in slot 1.
    TwoOnOneArc,
    /// time-bound: the roots wait one slot before sending.
    Late,
}

impl Mutation<KbcastSmall> for Bug {
    type Memory = ();

    fn choices(
        &self,
        inner: &KbcastSmall,
        v: NodeId,
        q: &MutantState<Queues, ()>,
        slot: Slot,
        a: &[Arrival<Packet>],
    ) -> u32 {
        match self {
            Bug::Late if slot == 1 => 1,
            _ => inner.ways(v, &q.inner, slot, a),
        }
    }

    fn step(
        &self,
        inner: &KbcastSmall,
        node: NodeId,
        q: &mut MutantState<Queues, ()>,
        slot: Slot,
        arrivals: &[Arrival<Packet>],
        choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        if *self == Bug::Late && slot == 1 {
            return q.inner.0.iter().any(|w| !w.is_empty());
        }
        let busy = inner.step(node, &mut q.inner, slot, arrivals, choice, out);
        match self {
            Bug::Backwards if node == 0b001 => {
                for a in arrivals {
                    out.push(Transmission {
                        route: properties::Route::Link {
                            from: node,
                            to: node ^ 0b100,
                        },
                        msg: a.msg,
                    });
                }
            }
            Bug::TwoOnOneArc if slot == 1 => {
                if let Some(&t) = out.first() {
                    out.push(t);
                }
            }
            _ => {}
        }
        busy
    }
}

/// Each seeded bug is caught by its property, at d = 3 (K = 1 for the
/// late start: larger K finish early enough to absorb one slot).
#[test]
fn seeded_bugs_are_caught() {
    for (bug, k, prop) in [
        (Bug::Backwards, 2, PropertyName::NoDuplication),
        (Bug::TwoOnOneArc, 2, PropertyName::ContentionFreedom),
        (Bug::Late, 1, PropertyName::TimeBound),
    ] {
        let s = search(Mutant {
            inner: kbcast_small(3, k, false),
            bug,
        });
        assert_eq!(status(&s, prop), Status::Violated, "{bug:?}");
    }
}

/// --k and --broadcasters are checked where the algorithm declares them
/// and refused where it does not.
#[test]
fn parameters_out_of_range_are_refused_in_one_line() {
    let a = Algorithm::KbcastSmall;
    let cfg = a.config(3, None, None).unwrap();
    let with = |params: Params| a.with_params(cfg.clone(), params).unwrap_err().to_string();
    let e = with(Params {
        k: Some(9),
        ..Params::default()
    });
    assert!(
        e.contains("--k 9 is out of range") && e.contains("1..=8"),
        "{e}"
    );
    let e = with(Params {
        k: Some(0),
        ..Params::default()
    });
    assert!(e.contains("--k 0 is out of range"), "{e}");
    let e = with(Params {
        broadcasters: Some(vec![1, 9]),
        ..Params::default()
    });
    assert!(e.contains("9 is not a node of the 3-cube"), "{e}");
    let e = with(Params {
        broadcasters: Some(vec![5, 1, 5]),
        ..Params::default()
    });
    assert!(e.contains("node 5 is listed twice"), "{e}");
    let e = with(Params {
        k: Some(2),
        broadcasters: Some(vec![1, 2, 3]),
        ..Params::default()
    });
    assert!(e.contains("3 nodes listed, but --k 2"), "{e}");
    let mnb = Algorithm::Mnb;
    let e = mnb
        .with_params(
            mnb.config(3, None, None).unwrap(),
            Params {
                k: Some(2),
                ..Params::default()
            },
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("mnb does not take --k"), "{e}");
}

/// Section 3.3.2 over every d-set at d = 2..4: as printed, slot m's
/// dimension is the tree's (m - 1)th, and some set needs d + 1 slots
/// (nothing else fails); shifted by one slot, every set takes d slots.
#[test]
fn ranked_broadcasts_take_d_slots_only_when_shifted() {
    use models::stamoulis::kbcast_ranked::{KbcastRanked, Reading};
    for d in 2..=4u32 {
        let cfg = Algorithm::KbcastRanked
            .config(d as u64, None, None)
            .unwrap();
        let text = search(KbcastRanked::new(cfg.clone(), Reading::Text));
        assert_eq!(
            status(&text, PropertyName::TimeBound),
            Status::Violated,
            "d={d}"
        );
        assert_eq!(text.worst_time, Some(d + 1), "d={d}");
        assert_holds(
            &text,
            &[
                PropertyName::Completeness,
                PropertyName::NoDuplication,
                PropertyName::ContentionFreedom,
                PropertyName::Causality,
            ],
            &format!("text d={d}"),
        );
        let shifted = search(KbcastRanked::new(cfg, Reading::Shifted));
        assert_holds(&shifted, &PropertyName::ALL, &format!("shifted d={d}"));
        assert_eq!(shifted.worst_time, Some(d), "d={d}");
        let tx = d as u64 * ((1 << d) - 1);
        assert_eq!(shifted.transmissions, Some((tx, tx)), "d={d}");
    }
}

/// The collision argument needs distinct ranks: with every broadcaster
/// told rank 1, copies collide (contention-freedom catches it).
#[test]
fn equal_ranks_collide() {
    use models::stamoulis::kbcast_ranked::{Held, KbcastRanked, Reading};
    /// Every broadcaster told rank 1.
    struct OneRank;
    impl Mutation<KbcastRanked> for OneRank {
        type Memory = ();
        fn init(&self, p: &KbcastRanked, i: &Vec<NodeId>, v: NodeId) -> MutantState<Held, ()> {
            let mut h = p.init(i, v);
            for e in &mut h.0 {
                e.1 = 1;
            }
            MutantState {
                inner: h,
                memory: (),
            }
        }
    }
    let cfg = Algorithm::KbcastRankedShifted
        .config(3, None, None)
        .unwrap();
    let s = search(Mutant::new(
        KbcastRanked::new(cfg, Reading::Shifted),
        OneRank,
    ));
    assert_eq!(
        status(&s, PropertyName::ContentionFreedom),
        Status::Violated
    );
}

/// The report names the K-tuple of the worst run: for the printed
/// section 3.3.2 at d = 3, the counterexample of docs/errata.md.
#[test]
fn the_report_names_the_worst_set() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["kbcast-ranked", "3", "--json"])
        .output()
        .expect("run check");
    assert_eq!(o.status.code(), Some(1), "a claim is violated");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["worst_input"], "broadcasters {000, 001, 010}");
    assert_eq!(v["time"]["measured"], 4);
    assert_eq!(v["inputs_checked"], 56);
}

/// --all-k checks every K in the algorithm's range, one report each
/// (a JSON array), and the worst exit code: kbcast-small at d = 2 holds
/// for K = 1..4.
#[test]
fn all_k_checks_every_k() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["kbcast-small", "2", "--all-k", "--json"])
        .output()
        .expect("run check");
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let ks: Vec<u64> = v
        .as_array()
        .expect("one report per K")
        .iter()
        .map(|r| r["params"]["k"].as_u64().unwrap())
        .collect();
    assert_eq!(ks, [1, 2, 3, 4]);
    // A violated claim for one K is the run's exit code.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["kbcast-ranked", "3", "--all-k"])
        .output()
        .expect("run check");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("reproduce with `check kbcast-ranked 3 --k 3`")
    );
}

/// Section 3.3.2's extreme case: one node with d packets, each its own
/// rank, takes d slots in the shifted reading, and so does every
/// d-multiset of broadcasters (the collision argument needs distinct
/// ranks only); the text's reading is a slot late there too.
#[test]
fn one_node_with_d_packets_takes_d_slots() {
    use models::stamoulis::kbcast_ranked::{KbcastRanked, Reading};
    for d in 2..=3u32 {
        let a = Algorithm::KbcastRanked;
        let cfg = a.config(d as u64, None, None).unwrap();
        let one = Params {
            broadcasters: Some(vec![1; d as usize]),
            multiset: true,
            ..Params::default()
        };
        let every = Params {
            k: Some(d as u64),
            multiset: true,
            ..Params::default()
        };
        for params in [one, every] {
            let cfg = a.with_params(cfg.clone(), params).unwrap();
            let shifted = search(KbcastRanked::new(cfg.clone(), Reading::Shifted));
            assert_holds(&shifted, &PropertyName::ALL, &format!("shifted d={d}"));
            assert_eq!(shifted.worst_time, Some(d), "d={d}");
            let text = search(KbcastRanked::new(cfg, Reading::Text));
            assert_eq!(text.worst_time, Some(d + 1), "text d={d}");
        }
    }
}
