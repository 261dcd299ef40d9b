//! flood: complete within the diameter, as the lecture notes claim, and
//! duplicating, as they warn; the checker shows the duplicate.

use crate::support::*;
use commcheck::check::Engine;
use models::catalog::Algorithm;
use models::lecture_notes::flood::Flood;
use properties::{PropertyName, Status};

#[test]
fn flood_duplicates_are_found_and_shown() {
    let o = outcome("flood", 3, Engine::Lockstep, None);
    let d = reported(&o, "no-duplication");
    assert_eq!(d.status, properties::Status::Violated);
    assert!(!d.claimed, "the notes do not claim one copy");
    assert_eq!(
        d.counterexample.as_ref().map(|c| c.text.as_str()),
        Some("source 000: step 2: node 011 receives the packet of 000 again, from 010")
    );
    assert!(!o.refuted(), "an observation is not a refuted claim");
}

#[test]
fn flood_completes_within_the_diameter_with_n_2_to_the_n_minus_1_transmissions() {
    for n in 1..=5u32 {
        let cfg = Algorithm::Flood.config(n as u64, None, None).unwrap();
        let search = lockstep(Flood::new(cfg));
        assert_holds(
            &search,
            &[
                PropertyName::Completeness,
                PropertyName::TimeBound,
                PropertyName::ContentionFreedom,
            ],
            &format!("n={n}"),
        );
        assert_eq!(search.worst_time, Some(n));
        // A node at distance d hears the packet from its d lower neighbours:
        // sum over d of d * C(n, d) = n 2^(n-1) transmissions.
        let t = (n as u64) << (n - 1);
        assert_eq!(search.transmissions, Some((t, t)));
        let dup = if n >= 2 {
            Status::Violated
        } else {
            Status::Holds
        };
        assert_eq!(status(&search, PropertyName::NoDuplication), dup, "n={n}");
    }
}
