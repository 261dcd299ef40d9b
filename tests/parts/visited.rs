//! The visited set: every fingerprint inserted once, through growth.
//! (These tests were inside `src/engine/visited.rs`: here they share the one build
//! of the library the integration tests use.)

use commcheck::engine::visited::*;

#[test]
fn inserts_once_and_grows_keeping_everything() {
    let v = Visited::new(1);
    let fps: Vec<u64> = (2..300_000u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let mut since = 0;
    for &fp in &fps {
        assert!(v.insert(0, fp));
        since += 1;
        if since == PUBLISH {
            if v.publish(since, 1).is_some() {
                v.grow(0, 1);
            }
            since = 0;
        }
    }
    assert!(v.bytes() > INITIAL as u64 * 8, "the table grew");
    assert!(fps.iter().all(|&fp| !v.insert(0, fp)));
    // 0 marks a free slot: it is stored as 1.
    assert!(v.insert(0, 0));
    assert!(!v.insert(0, 1));
}

/// Two workers insert overlapping fingerprints while the table grows
/// under them, each keeping its flag up between insertions and lowering
/// it only before it waits for the other (as the search does before its
/// pool's lock): every fingerprint is new to exactly one insertion, and
/// nobody waits forever.
#[test]
fn two_workers_keep_every_fingerprint_through_growth() {
    let workers = 2;
    let v = Visited::new(workers);
    let meet = std::sync::Barrier::new(workers);
    let fps = |w: u64| {
        // Worker 0 inserts 1..400k, worker 1 200k..600k: half shared.
        (1 + w * 200_000..400_001 + w * 200_000).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    };
    let fresh: u64 = std::thread::scope(|s| {
        let runs: Vec<_> = (0..workers)
            .map(|w| {
                let (v, meet) = (&v, &meet);
                s.spawn(move || {
                    let (mut fresh, mut since) = (0u64, 0);
                    for (i, fp) in fps(w as u64).enumerate() {
                        if v.insert(w, fp) {
                            fresh += 1;
                            since += 1;
                        }
                        if since == PUBLISH {
                            if v.publish(since, workers).is_some() {
                                v.grow(w, workers);
                            }
                            since = 0;
                        }
                        if i % 50_000 == 0 {
                            v.leave(w);
                            meet.wait();
                        }
                    }
                    v.leave(w);
                    fresh
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().expect("a worker")).sum()
    });
    assert_eq!(fresh, 600_000, "each distinct fingerprint new exactly once");
    assert!(v.bytes() >= 1 << 20 << 3, "the table grew to hold them");
    assert!(fps(0).chain(fps(1)).all(|fp| !v.insert(0, fp)));
}
