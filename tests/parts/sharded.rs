//! The search over MPI ranks: cuts as codes, buffers within an allowance.
//! (These tests were inside `src/engine/search/sharded.rs`: here they share the one build
//! of the library the integration tests use.)

use commcheck::engine::search::sharded::*;
use commcheck::engine::search::Cut;

/// Every cut's code reads back, and no cut reads as none.
#[test]
fn cuts_travel_as_codes() {
    assert_eq!(Cut::of_code(Cut::code(None)), None);
    for cut in [Cut::States, Cut::Time, Cut::Memory, Cut::Interrupted] {
        assert_ne!(Cut::code(Some(cut)), 0);
        assert_eq!(Cut::of_code(Cut::code(Some(cut))), Some(cut));
    }
}

/// A rank's own buffers take a small share of a small allowance, and
/// no more than their most of a large one.
#[test]
fn a_ranks_buffers_shrink_with_its_allowance() {
    assert_eq!(buffers(None), (BATCH, SENT));
    assert_eq!(buffers(Some(1 << 40)), (BATCH, SENT));
    for mb in [8u64, 25, 50, 100, 200] {
        let bytes = mb << 20;
        let (batch, slots) = buffers(Some(bytes));
        assert!(slots.is_power_of_two(), "{mb} MB");
        assert!((batch + 8 * slots) as u64 <= bytes / 32, "{mb} MB");
    }
}
