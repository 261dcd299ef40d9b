//! Stamoulis and Tsitsiklis 1993, sections 2.4 and 3.2: the prefix over
//! every input at d <= 4; kbcast, kbcast-ceil and kbcast-mnb over every
//! K-set and every order of waiting packets at small d, against the
//! paper's formulas typed here; kbcast-random over every draw; the erratum
//! shown; mutants caught.

use crate::support::*;
use commcheck::engine::exhaustive;
use models::catalog::{Algorithm, Params};
use models::stamoulis::kbcast::{Kbcast, Msg, Node, Variant};
use models::stamoulis::prefix::{Prefix, Sums, Value};
use models::{Arrival, Mutant, MutantState, Mutation, Protocol, ProtocolExt};
use properties::{NodeId, PropertyName, Route, Slot, Status, Transmission};
use std::sync::Arc;
use PropertyName::*;

fn search<P: Protocol + 'static>(p: P) -> exhaustive::Search {
    let inputs = p.inputs();
    exhaustive::lockstep(Arc::new(p), inputs, BUDGET)
}

fn kbcast(a: Algorithm, d: u32, params: Params) -> Kbcast {
    let cfg = a.config(d as u64, None, None).unwrap();
    let variant = match a {
        Algorithm::Kbcast => Variant::Prefixed,
        Algorithm::KbcastCeil => Variant::Ceil,
        Algorithm::KbcastMnb => Variant::Mnb,
        Algorithm::KbcastRandom => Variant::Random,
        _ => unreachable!(),
    };
    Kbcast::new(a.with_params(cfg, params).unwrap(), variant)
}

fn with_k(k: u64) -> Params {
    Params {
        k: Some(k),
        ..Params::default()
    }
}

/// Section 2.4: every subset of nodes of the d-cube, d = 1..4 (65,536 at
/// d = 4): every node ends with r_x, in 2d slots (typed), no arc used
/// twice in a slot. Also every 3-multiset of the 2-cube (a_x up to 3).
#[test]
fn the_prefix_gives_every_node_its_suffix_sum_in_2d_slots() {
    for (d, slots) in [(1u32, 2u32), (2, 4), (3, 6), (4, 8)] {
        let p = Prefix::new(Algorithm::Prefix.config(d as u64, None, None).unwrap());
        assert_eq!(p.inputs().len(), 1 << (1 << d), "every subset");
        let s = search(p);
        let what = format!("d={d}");
        assert_holds(
            &s,
            &[Completeness, ContentionFreedom, Causality, TimeBound],
            &what,
        );
        assert_eq!(s.worst_time, Some(slots), "{what}");
    }
    let multi = Params {
        broadcasters: Some(vec![1, 1, 3]),
        multiset: true,
        ..Params::default()
    };
    let cfg = Algorithm::Prefix.config(2, None, None).unwrap();
    let s = search(Prefix::new(
        Algorithm::Prefix.with_params(cfg, multi).unwrap(),
    ));
    assert_eq!(status(&s, Completeness), Status::Holds);
}

/// Seeded bugs in the prefix: a node adding its term twice on the way up
/// (a wrong result, under completeness), a node sending its value twice on
/// one arc in a slot (contention).
#[test]
fn prefix_bugs_are_caught() {
    #[derive(Clone, Copy, PartialEq)]
    enum Bug {
        Twice,
        Again,
    }
    impl Mutation<Prefix> for Bug {
        type Memory = ();
        fn init(&self, p: &Prefix, i: &Vec<NodeId>, v: NodeId) -> MutantState<Sums, ()> {
            let mut s = p.init(i, v);
            if *self == Bug::Twice && v == 1 {
                s.acc += s.own;
            }
            MutantState {
                inner: s,
                memory: (),
            }
        }
        fn step(
            &self,
            p: &Prefix,
            node: NodeId,
            s: &mut MutantState<Sums, ()>,
            slot: Slot,
            a: &[Arrival<Value>],
            c: u32,
            out: &mut Vec<Transmission<Value>>,
        ) -> bool {
            let busy = p.step(node, &mut s.inner, slot, a, c, out);
            if *self == Bug::Again && slot == 1 {
                if let Some(&t) = out.first() {
                    out.push(t);
                }
            }
            busy
        }
    }
    let p = || Prefix::new(Algorithm::Prefix.config(2, None, None).unwrap());
    assert_eq!(
        status(&search(Mutant::new(p(), Bug::Twice)), Completeness),
        Status::Violated
    );
    let s = search(Mutant::new(p(), Bug::Again));
    assert_eq!(status(&s, ContentionFreedom), Status::Violated);
}

/// Section 3.2 for K = 2^d at d = 1..5 with its termination packets, every
/// order of waiting packets: complete, contention-free, in exactly 2
/// ceil(2^d/d) + 2d - 1 slots (typed: 5, 7, 11, 15, 23). A packet's origin
/// gets it again in phase 3: duplicates are observed, not claimed.
#[test]
fn the_multinode_specialisation_meets_its_bound() {
    for (d, bound) in [(1u32, 5u32), (2, 7), (3, 11), (4, 15), (5, 23)] {
        let s = search(kbcast(Algorithm::KbcastMnb, d, Params::default()));
        let what = format!("d={d}");
        assert_holds(
            &s,
            &[Completeness, ContentionFreedom, Causality, TimeBound],
            &what,
        );
        assert_eq!(s.worst_time, Some(bound), "{what}");
        assert_eq!(status(&s, NoDuplication), Status::Violated, "{what}");
    }
}

/// The erratum (docs/errata.md): over every K-set of the 2- and 3-cube
/// and every order, kbcast is complete and contention-free, and meets 2
/// floor(K/d) + 4d (typed) exactly when d divides K; otherwise a root's
/// N_j = floor(K/d) + 1 packets need one more slot of phase 3 than the
/// paper counts, and may come after its detection time. K = 1 at d = 3
/// takes 4d + 2 = 14 slots, not 12.
#[test]
fn kbcast_meets_its_bound_only_when_d_divides_k() {
    for d in 2..=3u32 {
        for k in 1..=1u64 << d {
            let what = format!("d={d} K={k}");
            let s = search(kbcast(Algorithm::Kbcast, d, with_k(k)));
            assert_holds(&s, &[Completeness, ContentionFreedom, Causality], &what);
            let bound = 2 * (k as u32 / d) + 4 * d;
            let meets = k % d as u64 == 0;
            assert_eq!(s.worst_time.unwrap() <= bound, meets, "{what}");
            assert_eq!(status(&s, TimeBound) == Status::Holds, meets, "{what}");
        }
    }
    let s = search(kbcast(Algorithm::Kbcast, 3, with_k(1)));
    assert_eq!(s.worst_time, Some(14));
}

/// The corrected kbcast-ceil (roots wait ceil(K/d) + d - 1 slots) holds
/// its 2 ceil(K/d) + 4d (typed) for every K-set at d = 2 and 3, and for
/// every K-multiset of the 2-cube (nodes with several packets, the
/// m-th to root (r_x - a_x - 1 + m) mod d + 1).
#[test]
fn kbcast_ceil_holds_for_every_set_and_multiset() {
    for d in 2..=3u32 {
        for k in 1..=1u64 << d {
            for multiset in [false, true] {
                if multiset && d == 3 && k > 4 {
                    continue;
                }
                let what = format!("d={d} K={k} multiset={multiset}");
                let params = Params {
                    k: Some(k),
                    multiset,
                    ..Params::default()
                };
                let s = search(kbcast(Algorithm::KbcastCeil, d, params));
                assert_holds(
                    &s,
                    &[Completeness, ContentionFreedom, Causality, TimeBound],
                    &what,
                );
                let bound = 2 * (k as u32).div_ceil(d) + 4 * d;
                assert!(s.worst_time.unwrap() <= bound, "{what}");
            }
        }
    }
}

/// Seeded bugs in kbcast-ceil: a corrupted prefix value (wrong r_x, a
/// wrong result), two packets up one arc (contention), roots starting
/// phase 3 two slots late (time-bound).
#[test]
fn kbcast_bugs_are_caught() {
    #[derive(Clone, Copy, PartialEq)]
    enum Bug {
        Prefix,
        TwoUp,
        Late,
    }
    let m = |bug: Bug| {
        rewritten(
            kbcast(Algorithm::KbcastCeil, 2, with_k(2)),
            move |k: &Kbcast,
                  node: NodeId,
                  s: &mut Node,
                  slot: Slot,
                  a: &[Arrival<Msg>],
                  c: u32,
                  out: &mut Out| {
                let seen = match bug {
                    Bug::Late if node.is_power_of_two() && slot > 2 => slot - 2,
                    _ => slot,
                };
                let busy = k.step(node, s, seen, a, c, out);
                for t in out.iter_mut() {
                    if let (Bug::Prefix, Msg::Prefix(v)) = (bug, &mut t.msg) {
                        if node == 1 && slot == 1 {
                            *v += 1;
                        }
                    }
                }
                if bug == Bug::TwoUp {
                    if let Some(&t) = out.iter().find(|t| matches!(t.msg, Msg::Up { .. })) {
                        out.push(t);
                    }
                }
                busy || bug == Bug::Late
            },
        )
    };
    let s = search(m(Bug::Prefix));
    assert_eq!(status(&s, Completeness), Status::Violated);
    let s = search(m(Bug::TwoUp));
    assert_eq!(status(&s, ContentionFreedom), Status::Violated);
    let s = search(m(Bug::Late));
    assert_eq!(status(&s, TimeBound), Status::Violated);
}

/// A node's transmissions in one slot.
type Out = Vec<Transmission<Msg>>;

/// A rewritten step: kbcast's, then what the rewrite does to it.
trait Step:
    Fn(&Kbcast, NodeId, &mut Node, Slot, &[Arrival<Msg>], u32, &mut Out) -> bool + Send + Sync + 'static
{
}

impl<F> Step for F where
    F: Fn(&Kbcast, NodeId, &mut Node, Slot, &[Arrival<Msg>], u32, &mut Out) -> bool
        + Send
        + Sync
        + 'static
{
}

/// A rewrite of kbcast's step, as a bug seeded into it.
struct Rewrite<F>(F);

impl<F: Step> Mutation<Kbcast> for Rewrite<F> {
    type Memory = ();
    fn step(
        &self,
        k: &Kbcast,
        node: NodeId,
        s: &mut MutantState<Node, ()>,
        slot: Slot,
        a: &[Arrival<Msg>],
        c: u32,
        out: &mut Out,
    ) -> bool {
        (self.0)(k, node, &mut s.inner, slot, a, c, out)
    }
}

/// kbcast with its step rewritten: a mutant, or the fan-outs split.
type Rewritten<F> = Mutant<Kbcast, Rewrite<F>>;

/// `k` with its step rewritten by `f`.
fn rewritten<F: Step>(k: Kbcast, f: F) -> Rewritten<F> {
    Mutant::new(k, Rewrite(f))
}

/// kbcast with each fan-out sent as its links, one per child in
/// increasing dimension: what the paper's text describes word for word.
fn unfanned(k: Kbcast) -> Rewritten<impl Step> {
    rewritten(
        k,
        |k: &Kbcast, node, s: &mut Node, slot, a: &[Arrival<Msg>], c, out: &mut Out| {
            let mut fanned = Vec::new();
            let busy = k.step(node, s, slot, a, c, &mut fanned);
            for t in fanned {
                match t.route {
                    Route::Fan { from, .. } => {
                        models::Topology::receivers(k.topology(), &t.route, |to| {
                            out.push(Transmission {
                                route: Route::Link { from, to },
                                msg: t.msg,
                            })
                        })
                    }
                    _ => out.push(t),
                }
            }
            busy
        },
    )
}

/// The executor's fan-outs change nothing: every variant, run with its
/// fan-outs and with their links, gives the same record (counts, first
/// violations, completion time) in every drive for d = 2..6 and several
/// K, and the same verdicts over the same number of states in the
/// exhaustive check at d = 3.
#[test]
fn a_fan_out_is_judged_as_its_links() {
    use commcheck::engine::executor::{drive, Drive};
    use commcheck::engine::search::Progress;
    let algorithms = [
        Algorithm::Kbcast,
        Algorithm::KbcastCeil,
        Algorithm::KbcastMnb,
        Algorithm::KbcastRandom,
    ];
    for a in algorithms {
        for d in 2..=6u32 {
            for k in [1, d as u64, 2 * d as u64 + 1, 1 << d] {
                if k > 1 << d {
                    continue;
                }
                let params = match a {
                    Algorithm::KbcastMnb => Params::default(),
                    _ => with_k(k),
                };
                let (fanned, links) =
                    (kbcast(a, d, params.clone()), unfanned(kbcast(a, d, params)));
                let input = fanned.first_input();
                for how in [&[Drive::Inbox][..], &SCHEDULES].concat() {
                    let f = drive(&fanned, &input, &Progress::default(), how);
                    let l = drive(&links, &input, &Progress::default(), how);
                    assert_eq!(f, l, "{a:?} d={d} K={k} {how:?}");
                }
            }
        }
        let params = match a {
            Algorithm::KbcastMnb => Params::default(),
            _ => with_k(3),
        };
        let (f, l) = (
            search(kbcast(a, 3, params.clone())),
            search(unfanned(kbcast(a, 3, params))),
        );
        for p in PropertyName::ALL {
            assert_eq!(status(&f, p), status(&l, p), "{a:?} {p:?}");
        }
        assert_eq!(f.unique_states, l.unique_states, "{a:?}");
    }
}

/// kbcast-random over every draw of every K-set of the 2-cube and of the
/// 3-cube for K <= 3: complete and contention-free; without the
/// priority of phase-3 packets a phase-2 packet takes their arc.
#[test]
fn random_trees_are_complete_and_need_the_priority() {
    let sizes = [(2u32, 1u64..=4), (3, 1..=3)];
    for (d, ks) in sizes {
        for k in ks {
            let p = kbcast(Algorithm::KbcastRandom, d, with_k(k));
            let sets = models::stamoulis::broadcasters::binomial(1 << d, k) as usize;
            assert_eq!(p.inputs().len(), sets * (d as usize).pow(k as u32));
            let what = format!("d={d} K={k}");
            let s = search(p);
            assert_holds(&s, &[Completeness, ContentionFreedom, Causality], &what);
        }
    }
    let mut p = kbcast(Algorithm::KbcastRandom, 3, with_k(3));
    p.priority = false;
    assert_eq!(status(&search(p), ContentionFreedom), Status::Violated);
}

/// --distribution at d = 2, K = 2, worked by hand: 6 sets x 4 draws; max
/// N_j is 1 for the draws (1, 2) and (2, 1), 2 for (1, 1) and (2, 2), so
/// Pr(max N_j = 1) = 1/2, and the bound (1) at v = 2 (C = 2) is 2d (e/C)^2
/// = 4 (e/2)^2.
#[test]
fn the_distribution_is_exact() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["kbcast-random", "2", "--k", "2", "--distribution", "--json"])
        .output()
        .expect("run check");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let dist = &v["distribution"];
    assert_eq!(dist["inputs"], 24);
    assert_eq!(dist["exact"], true);
    let rows = dist["values"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(
        (rows[0]["value"].as_u64(), rows[0]["inputs"].as_u64()),
        (Some(1), Some(12))
    );
    assert_eq!(rows[1]["p_at_least"].as_f64(), Some(0.5));
    let bound = 4.0 * (std::f64::consts::E / 2.0).powi(2);
    assert!((rows[1]["bound"].as_f64().unwrap() - bound).abs() < 1e-9);
    let times = dist["times"].as_array().unwrap();
    assert_eq!(times.last().unwrap()["p_at_most"].as_f64(), Some(1.0));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["kbcast", "2", "--distribution"])
        .output()
        .expect("run check");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("random draws"));
}

/// Section 3.1's adversary, found by the checker: at d = 3 and 4 some
/// K-set with K = 2^(d-1) takes at least K slots (4 > d = 3, 8 > d = 4).
/// The witness is checked against the paper's argument: some node x gets
/// all K packets over one arc (the arc of the highest dimension of z xor
/// x, in increasing-order trees). Past 2^(d-1) no set forces K slots, and
/// the property says so (it can fail).
#[test]
fn fixed_trees_have_an_adversarial_set() {
    for d in [3u64, 4] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_check"))
            .args(["fixed-trees", &d.to_string(), "--json"])
            .output()
            .expect("run check");
        assert_eq!(o.status.code(), Some(0), "d={d}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        let forced = crate::support::property(&v, "forced-slots");
        assert_eq!(forced["status"], "holds", "d={d}");
        let text = forced["counterexample"]["text"].as_str().unwrap();
        let inside = &text[text.find('{').unwrap() + 1..text.find('}').unwrap()];
        let set: Vec<u32> = inside
            .split(", ")
            .map(|b| u32::from_str_radix(b, 2).unwrap())
            .collect();
        let k = 1usize << (d - 1);
        assert_eq!(set.len(), k);
        let one_arc = (0..1u32 << d).any(|x| {
            (0..d as u32).any(|j| {
                let over = |z: &&u32| {
                    let diff = *z ^ x;
                    diff != 0 && 31 - diff.leading_zeros() == j
                };
                set.iter().filter(over).count() >= k
            })
        });
        assert!(one_arc, "d={d}: {text}");
    }
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["fixed-trees", "3", "--k", "5"])
        .output()
        .expect("run check");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("forced-slots        observed  not kept"),
        "{text}"
    );
    assert!(text.contains("no input checked forces 5 slots"), "{text}");
}

/// The cells of `check table stamoulis`, both ways they are measured: at
/// d = 3 exhaustively (K = 1: 14 slots against the claimed 12, typed), at
/// d = 5 by the executor on 16 K-tuples (K = 6: kbcast past 2 floor(6/5) +
/// 20 = 22, kbcast-ceil within 2 ceil(6/5) + 20 = 24).
#[test]
fn the_stamoulis_table_cells() {
    use commcheck::table::stamoulis_worst;
    assert_eq!(
        stamoulis_worst(Algorithm::Kbcast, 3, 1),
        (14, vec!["time-bound"])
    );
    assert_eq!(stamoulis_worst(Algorithm::KbcastCeil, 3, 1), (14, vec![]));
    let (worst, broken) = stamoulis_worst(Algorithm::Kbcast, 5, 6);
    assert!(
        worst > 22 && broken == vec!["time-bound"],
        "{worst} {broken:?}"
    );
    let (worst, broken) = stamoulis_worst(Algorithm::KbcastCeil, 5, 6);
    assert!(worst <= 24 && broken.is_empty(), "{worst} {broken:?}");
}

/// Without the roots' wait (`kbcast-no-wait`), a packet still climbing
/// when its root's N_j slots are over is never broadcast: completeness
/// breaks at every K < d of the 3-cube, while at K = d and 2d every
/// claimed property holds, as with the wait (docs/errata.md, item 8).
#[test]
fn without_the_roots_wait_a_late_packet_is_lost() {
    let run = |k: u64| {
        let mut p = kbcast(Algorithm::Kbcast, 3, with_k(k));
        p.wait = false;
        search(p)
    };
    for k in [1, 2] {
        assert_eq!(status(&run(k), Completeness), Status::Violated, "K={k}");
    }
    for k in [3, 6] {
        let claimed = [Completeness, ContentionFreedom, Causality, TimeBound];
        assert_holds(&run(k), &claimed, &format!("K={k}"));
    }
}
