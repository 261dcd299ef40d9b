//! dt: the double tree informs every node once, without contention, in
//! ceil(n/2) steps except at n = 2, where the claimed bound is below the
//! lower bound and the checker shows the run that takes 2 steps.

use crate::support::*;
use commcheck::check::Engine;
use models::catalog::Algorithm;
use models::lecture_notes::dt::Dt;
use properties::{PropertyName, Status, Violation};

/// Wang-Ku Table I, row DT, n = 1..5.
const TABLE_I_DT: [u32; 5] = [1, 2, 2, 2, 3];

#[test]
fn dt_informs_every_node_once_without_contention_within_table_one() {
    for n in 1..=5u32 {
        let cfg = Algorithm::Dt.config(n as u64, None, None).unwrap();
        let search = lockstep(Dt::new(cfg));
        let what = format!("dt n={n}");
        let mut holding = vec![
            PropertyName::Completeness,
            PropertyName::NoDuplication,
            PropertyName::ContentionFreedom,
            PropertyName::Causality,
            PropertyName::Transmissions,
        ];
        if n != 2 {
            holding.push(PropertyName::TimeBound);
        }
        assert_holds(&search, &holding, &what);
        assert_eq!(
            search.worst_time,
            Some(TABLE_I_DT[n as usize - 1]),
            "{what}"
        );
    }
}

#[test]
fn dt_bound_ceil_n_over_2_fails_at_n2() {
    let cfg = Algorithm::Dt.config(2, None, None).unwrap();
    let search = lockstep(Dt::new(cfg));
    assert_eq!(status(&search, PropertyName::TimeBound), Status::Violated);
    let v = search.findings[PropertyName::TimeBound as usize].violation;
    assert!(
        matches!(
            v,
            Some(Violation::Late {
                slot: 2,
                bound: 1,
                ..
            })
        ),
        "{v:?}"
    );
    let o = outcome("dt", 2, Engine::Lockstep, None);
    assert_eq!(
        o.time.lower_bound,
        Some(2),
        "one step informs at most n = 2 nodes"
    );
    assert!(o.refuted());
}

#[test]
fn dt_delivery_order_does_not_matter_in_the_actor_model() {
    for n in [1u64, 3, 4] {
        let cfg = Algorithm::Dt.config(n, None, None).unwrap();
        let search = actors(Dt::new(cfg));
        assert_holds(&search, &ACTOR_JUDGED, &format!("dt n={n} actors"));
    }
}
