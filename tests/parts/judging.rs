//! The executor's judges: runs of nodes, deliveries by receiver, terms in a range.
//! (These tests were inside `src/engine/executor/judging.rs`: here they share the one build
//! of the library the integration tests use.)

use commcheck::engine::executor::judging::{runs_without, within, Sorted};
use models::Arrival;

/// A line with two nodes cut out is the runs of the nodes left.
#[test]
fn a_line_without_two_nodes_is_the_runs_left() {
    for lo in 0..6 {
        for hi in lo..10 {
            for a in 0..11 {
                for b in 0..11 {
                    let runs: Vec<u32> = runs_without(lo..hi, [a, b]).flatten().collect();
                    let left: Vec<u32> = (lo..hi).filter(|&v| v != a && v != b).collect();
                    assert_eq!(runs, left, "{lo}..{hi} without {a}, {b}");
                    assert!(runs_without(lo..hi, [a, b]).all(|r| !r.is_empty()));
                }
            }
        }
    }
}

/// Counting or comparing, the deliveries come out as a stable sort by
/// receiver puts them.
#[test]
fn deliveries_come_in_receiver_order_each_receivers_as_given() {
    let mut seed = 11u64;
    let mut random = |m: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        (seed >> 33) % m
    };
    let mut sorted = Sorted::default();
    for case in 0..400 {
        let nodes = 1 + random(300) as usize;
        let count = random(2 * nodes as u64) as usize;
        let all: Vec<(u32, Arrival<u32>)> = (0..count)
            .map(|k| {
                let from = random(nodes as u64) as u32;
                (
                    random(nodes as u64) as u32,
                    Arrival {
                        from,
                        msg: k as u32,
                    },
                )
            })
            .collect();
        let mut expected = all.clone();
        expected.sort_by_key(|(to, _)| *to);
        let got = sorted.by_receiver(nodes, all.iter());
        assert_eq!(got, &expected[..], "case {case}: {count} to {nodes} nodes");
    }
}

/// The run's terms in a range, found without looking at the others,
/// are the ones a scan of every term finds.
#[test]
fn the_terms_of_a_run_in_a_range_are_those_a_scan_finds() {
    for first in 0..12 {
        for step in 0..5 {
            for count in 0..8 {
                for lo in 0..30 {
                    for hi in lo..32 {
                        let scan: Vec<u32> = (0..count)
                            .filter(|k| (lo..hi).contains(&(first + k * step)))
                            .collect();
                        let found: Vec<u32> = within(first, step, count, &(lo..hi)).collect();
                        assert_eq!(
                            found, scan,
                            "{first} + k {step}, k < {count}, in {lo}..{hi}"
                        );
                    }
                }
            }
        }
    }
}
