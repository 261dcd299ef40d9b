//! sbt: every node once, within n steps, with 2^n - 1 transmissions, in
//! every switching and port model, from every source.

use crate::support::*;
use models::catalog::{Algorithm, Ports, Switching};
use models::lecture_notes::sbt::Sbt;
use properties::PropertyName;

#[test]
fn sbt_informs_every_node_once_within_n_steps_in_every_model() {
    for &(switching, ports) in Algorithm::Sbt.modes() {
        for n in 1..=5u32 {
            let cfg = Algorithm::Sbt
                .config(n as u64, Some(switching), Some(ports))
                .unwrap();
            let search = lockstep(Sbt::new(cfg));
            let what = format!("sbt n={n} {switching} {ports}");
            assert_holds(&search, &PropertyName::ALL, &what);
            // Wang-Ku Table I, row SBT: n steps; lecture notes: 2^n - 1 transmissions.
            assert_eq!(search.worst_time, Some(n), "{what}");
            assert_eq!(
                search.transmissions,
                Some(((1 << n) - 1, (1 << n) - 1)),
                "{what}"
            );
        }
    }
}

#[test]
fn sbt_delivery_order_does_not_matter_in_the_actor_model() {
    for &(switching, ports) in &[(Switching::Wh, Ports::All), (Switching::Sf, Ports::One)] {
        for n in 1..=3u64 {
            let cfg = Algorithm::Sbt
                .config(n, Some(switching), Some(ports))
                .unwrap();
            let search = actors(Sbt::new(cfg));
            let judged = [ACTOR_JUDGED.as_slice(), &[PropertyName::Transmissions]].concat();
            assert_holds(
                &search,
                &judged,
                &format!("sbt n={n} {switching} {ports} actors"),
            );
        }
    }
}

/// The state count, by hand: a run from one source passes through slots
/// 0..=n, and one more slot in which the nodes informed in slot n find
/// nothing to send and the run ends; the choices are all forced. So
/// 2^n sources x (n + 2) states: 6 for n = 1, 40 for n = 3.
#[test]
fn sbt_state_count_is_sources_times_slots() {
    for (n, states) in [(1u64, 6u64), (3, 40)] {
        let cfg = Algorithm::Sbt.config(n, None, None).unwrap();
        assert_eq!(lockstep(Sbt::new(cfg)).unique_states, states, "n={n}");
    }
}

/// The asynchronous model of sbt 5 from source 0: the state count of
/// stateright's ActorModel (measured with it; BENCHMARKS.md), which the
/// compact encoding must keep: it is the benchmark against SPIN.
#[test]
fn sbt_5_actor_model_has_3_263_442_states_from_one_source() {
    let p = std::sync::Arc::new(Sbt::new(Algorithm::Sbt.config(5, None, None).unwrap()));
    let budget = commcheck::engine::exhaustive::Budget {
        threads: 2,
        verify_probes: false,
        max_states: None,
        ..BUDGET
    };
    let search = commcheck::engine::exhaustive::actors(p, &[0], budget);
    assert_holds(&search, &ACTOR_JUDGED, "sbt 5 actor");
    assert_eq!(search.unique_states, 3_263_442);
}
