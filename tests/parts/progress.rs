//! The progress line: states, rate, depth, sources, time left.
//! (These tests were inside `src/check/progress.rs`: here they share the one build
//! of the library the integration tests use.)

use commcheck::check::progress::*;
use commcheck::engine::{search::Progress, Engine};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

#[test]
fn the_line_says_states_rate_depth_sources_and_time_left() {
    let p = Progress::default();
    p.generated.store(2_000_000, Relaxed);
    p.unique.store(500_000, Relaxed);
    p.depth.store(7, Relaxed);
    p.inputs_done.store(1, Relaxed);
    p.inputs_total.store(4, Relaxed);
    let l = line(&p, Engine::Lockstep, Duration::from_secs(10));
    assert!(
        l.starts_with(
            "lockstep: 2.00 M states (500.0 k unique), 200.0 k/s, depth 7, sources 1/4, "
        ),
        "{l}"
    );
    assert!(l.ends_with("10 s, about 30 s left"), "{l}");
    let l = line(&p, Engine::Executor, Duration::from_secs(4));
    assert!(
        l.starts_with("executor: slot 7, 2.00 M node steps, 500.0 k/s, "),
        "{l}"
    );
    // Once the executor knows the slot it expects to end by.
    p.slots.store(40, Relaxed);
    let l = line(&p, Engine::Executor, Duration::from_secs(4));
    assert!(l.starts_with("executor: slot 7 of 40, "), "{l}");
}
