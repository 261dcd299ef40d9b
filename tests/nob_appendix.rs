//! nob-appendix: the Appendix's program read literally (floor(n/p) levels,
//! the last absorbing the remainder) leaves child subcubes uncovered
//! whenever p does not divide n; where p divides n it is nob.

use crate::support::*;
use models::catalog::Algorithm;
use models::wang_ku::nob::{Levels, Nob};
use properties::{PropertyName, Status, Violation};

fn appendix(n: u64) -> Nob {
    Nob::new(
        Algorithm::NobAppendix.config(n, None, None).unwrap(),
        Levels::Appendix,
    )
}

#[test]
fn nob_appendix_leaves_nodes_uninformed_when_p_does_not_divide_n() {
    for n in [3u64, 5, 7] {
        let search = lockstep(appendix(n));
        assert_eq!(
            status(&search, PropertyName::Completeness),
            Status::Violated,
            "n={n}"
        );
        let v = search.findings[PropertyName::Completeness as usize].violation;
        assert!(matches!(v, Some(Violation::Missing { .. })), "n={n}: {v:?}");
    }
}

#[test]
fn nob_appendix_is_nob_when_p_divides_n() {
    for n in [1u64, 2, 4, 6] {
        assert_holds(
            &lockstep(appendix(n)),
            &PropertyName::ALL,
            &format!("n={n}"),
        );
    }
}
