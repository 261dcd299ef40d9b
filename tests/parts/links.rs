//! Link models: ASTRA-sim's ring, shared arcs under alpha-beta.
//! (These tests were inside `src/cost/links.rs`: here they share the one build
//! of the library the integration tests use.)

use commcheck::cost::links::*;
use models::topology::parts::LinkAttrs;
use models::topology::parts::LinkKind;

/// ASTRA-sim's example ring (8 NPUs, 50 GB/s of 2^30 bytes, 500 ns a
/// hop): 1 MiB to a neighbour takes 20031 ns, as its analytical
/// backend computes it (500 + 1048576 / 53.687).
#[test]
fn astra_ring_neighbour() {
    let m = LinkModel::parse("", true).unwrap();
    let bw = 50.0 * (1u64 << 30) as f64 / 1e9;
    let attrs = LinkAttrs::new(LinkKind::NpuLink, 1, bw).with_latency(500.0);
    let slots = vec![vec![Sent {
        from: 0,
        to: vec![1],
        arcs: vec![0],
        bytes: 1 << 20,
    }]];
    let t = finish_times(&m, 8, &slots, |_| Some(attrs));
    assert_eq!(t[1], 20031.0);
    assert_eq!(t[0], 20031.0);
    assert_eq!(t[2], 0.0);
}

/// Two transmissions over one arc share its bandwidth under
/// alpha-beta, not under ASTRA's model; a second slot starts when
/// its sender's arrivals are in.
#[test]
fn shared_arcs_share_bandwidth() {
    let tx = |from, to, arcs: Vec<u64>| Sent {
        from,
        to: vec![to],
        arcs,
        bytes: 1000,
    };
    let slots = vec![
        vec![tx(0, 2, vec![0, 1]), tx(1, 2, vec![2, 1])],
        vec![tx(2, 3, vec![3])],
    ];
    let ab = LinkModel::parse("latency=100,bandwidth=10", false).unwrap();
    let t = finish_times(&ab, 4, &slots, |_| None);
    // Slot 1: arc 1 shared, 5 GB/s each: 200 + 1000 / 5 = 400.
    assert_eq!(t[2], 400.0 + 200.0);
    assert_eq!(t[3], 400.0 + 200.0);
    let astra = LinkModel { astra: true, ..ab };
    let t = finish_times(&astra, 4, &slots, |_| None);
    assert_eq!(t[3], 300.0 + 200.0);
    assert!(LinkModel::parse("speed=1", false)
        .unwrap_err()
        .contains("latency and bandwidth"));
    assert!(LinkModel::parse("bandwidth=0", false)
        .unwrap_err()
        .contains("positive"));
}
