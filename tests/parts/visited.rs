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
