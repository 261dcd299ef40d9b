//! nob: Wang and Ku's claims, checked exhaustively: every node exactly once
//! (Theorem 1), no contention in any step (Theorem 2), within
//! ceil(n/floor(log2(n+1))) steps (Theorem 3, Table I), from every source
//! and for every choice rule 3 leaves open.

use crate::support::*;
use commcheck::engine::lockstep::LockStep;
use models::catalog::Algorithm;
use models::wang_ku::nob::{Levels, Nob};
use properties::PropertyName;
use stateright::Model;
use std::sync::Arc;

/// Wang-Ku Table I, row NOB, n = 1..7.
const TABLE_I_NOB: [u32; 7] = [1, 2, 2, 2, 3, 3, 3];

fn nob(n: u64) -> Nob {
    Nob::new(Algorithm::Nob.config(n, None, None).unwrap(), Levels::Text)
}

#[test]
fn nob_informs_every_node_once_without_contention_within_bound() {
    for n in 1..=7u64 {
        let search = lockstep(nob(n));
        let what = format!("nob n={n}");
        assert_holds(&search, &PropertyName::ALL, &what);
        assert_eq!(
            search.worst_time,
            Some(TABLE_I_NOB[n as usize - 1]),
            "{what}"
        );
        assert_eq!(
            search.transmissions,
            Some(((1 << n) - 1, (1 << n) - 1)),
            "{what}"
        );
    }
}

#[test]
fn nob_delivery_order_does_not_matter_in_the_actor_model() {
    for n in 1..=4u64 {
        let search = actors(nob(n));
        assert_holds(&search, &ACTOR_JUDGED, &format!("nob n={n} actors"));
    }
}

/// Rule 3's choices, by hand: at n = 5, p = 2 and s = 2^2 - 2 - 1 = 1; in
/// step 1 a = 0 < s, so one child subcube is left to rule 3, and it may go
/// first over any of the r = 5 - 0 - 2 = 3 R dimensions: 3 actions. At
/// n = 7, p = 3, s = 4, r = 4: 4 rule-3 worms over 4 dimensions, 4! = 24.
#[test]
fn nob_rule_3_choices_are_all_explored() {
    for (n, choices) in [(5u64, 3usize), (7, 24)] {
        let model = LockStep::new(Arc::new(nob(n)), vec![0]);
        let init = model.init_states().remove(0);
        let mut actions = Vec::new();
        model.actions(&init, &mut actions);
        assert_eq!(actions.len(), choices, "n={n}");
    }
}

/// The actor model's state count, by hand. Without timers (a node's own
/// next steps fire with its arrival) the reachable states of one source's
/// run are the downsets of its delivery tree: a delivery with children c
/// gives 1 + prod f(c) states, a leaf 2, and the roots (the source's own
/// worms) multiply. n = 3 (levels 2, 1): a step-1 recipient has one step-2
/// child, f = 3; the source's 3 step-1 worms and 1 step-2 worm give
/// 3^3 * 2 = 54; 8 sources: 432. n = 4 (levels 2, 2): f(step-1 recipient)
/// = 1 + 2^3 = 9; 9^3 * 2^3 = 5832, plus the state awaiting the source's
/// rule-3 choice (2 choices leading to one state: the wire does not carry
/// the route) = 5833; 16 sources: 93 328. n = 5 from one source, measured
/// in BENCHMARKS.md: 55^3 * 3^3 * 2 + 1 = 8 984 251.
#[test]
fn nob_actor_state_counts_are_the_downsets_of_the_delivery_tree() {
    assert_eq!(actors(nob(3)).unique_states, 432);
    assert_eq!(actors(nob(4)).unique_states, 93_328);
}

/// The sentences commcheck reads otherwise, run as printed: each holds
/// where its sentence does not apply and breaks the property its reading
/// protects from the first size where it does (docs/errata.md items 2, 2a, 5).
#[test]
fn the_text_as_printed_fails_where_the_reading_holds() {
    use models::wang_ku::nob::Literal::{self, *};
    use properties::Status;
    use PropertyName::*;
    /// The variant, the sizes where it holds, the property it breaks and
    /// where.
    type Case = (
        Literal,
        Algorithm,
        &'static [u64],
        PropertyName,
        &'static [u64],
    );
    let cases: [Case; 4] = [
        (
            Rule3Set,
            Algorithm::NobRule3Printed,
            &[1],
            NoDuplication,
            &[2, 3, 4, 5],
        ),
        (
            Rule2FromLeft,
            Algorithm::NobRule2Left,
            &[1, 2, 3],
            Completeness,
            &[4, 5],
        ),
        (
            LowestFirst,
            Algorithm::NobEcubeLow,
            &[1, 2],
            ContentionFreedom,
            &[3, 4, 5],
        ),
        (
            SourcesRetire,
            Algorithm::NobSourcesRetire,
            &[1],
            Completeness,
            &[2, 3, 4, 5],
        ),
    ];
    for (literal, algorithm, holds, broken, fails) in cases {
        let variant = |n: u64| Nob::literal(algorithm.config(n, None, None).unwrap(), literal);
        for &n in holds {
            assert_holds(
                &lockstep(variant(n)),
                &PropertyName::ALL,
                &format!("{literal:?} n={n}"),
            );
        }
        for &n in fails {
            let search = lockstep(variant(n));
            assert_eq!(
                status(&search, broken),
                Status::Violated,
                "{literal:?} n={n}"
            );
            assert_holds(&lockstep(nob(n)), &PropertyName::ALL, &format!("nob n={n}"));
        }
    }
}
