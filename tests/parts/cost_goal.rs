//! LogGOPSim's own examples timed as LogGOPSim times them.
//! (These tests were inside `src/cost/mod.rs`: here they share the one build
//! of the library the integration tests use.)

use commcheck::cost::*;
use models::schedule::Schedule;

/// A GOAL schedule read as `check schedule` reads it.
fn goal(text: &str, collective: &str) -> Schedule {
    let c = commcheck::import::collective::Collective::parse(collective).unwrap();
    commcheck::import::goal::read_from(text.as_bytes(), "t.goal", Some(&c), None).unwrap()
}

/// LogGOPSim's README example: a binomial-tree reduce of 1024 bytes on
/// 8 hosts under its default parameters prints Host 0 34914, Host 1
/// 24776, Hosts 2-3 13138, Hosts 4-7 1500 (measured with LogGOPSim
/// 76451de, docs/cost.md). Round by round hosts 4-7 send to 0-3, 2-3
/// to 0-1, 1 to 0; a host sends once it has received (written as a
/// gather: a GOAL message names no partial sums).
#[test]
fn loggopsim_binomial_reduce() {
    let mut text = String::from("num_ranks 8\n");
    // Host r's parent clears r's highest bit: the leaves are 4-7.
    let parent = |r: u32| r - (1 << r.ilog2());
    let children = |r: u32| -> Vec<u32> { (1..8).filter(|&c| parent(c) == r).collect() };
    for r in 0..8u32 {
        text += &format!("rank {r} {{\n");
        let kids = children(r);
        for (i, c) in kids.iter().enumerate() {
            text += &format!("l{i}: recv 1024b from {c} tag 0\n");
        }
        if r != 0 {
            text += &format!("s: send 1024b to {} tag 0\n", parent(r));
            for i in 0..kids.len() {
                text += &format!("s requires l{i}\n");
            }
        }
        text += "}\n";
    }
    let s = goal(&text, "gather:0");
    let t = loggops::finish_times(&s, &loggops::LogGops::default(), |op| {
        s.ops[op as usize].bytes
    });
    assert_eq!(t, [34914, 24776, 13138, 13138, 1500, 1500, 1500, 1500]);
}

/// LogGOPSim's documentation example: a dissemination barrier of
/// 1-byte messages on 16 hosts, 4 rounds, ends at 22000 ns on every
/// host: a round is o + L + o = 5500.
#[test]
fn loggopsim_dissemination() {
    let mut text = String::from("num_ranks 16\n");
    for r in 0..16u32 {
        text += &format!("rank {r} {{\n");
        for k in 0..4 {
            let d = 1 << k;
            text += &format!("s{k}: send 1b to {} tag {k}\n", (r + d) % 16);
            text += &format!("r{k}: recv 1b from {} tag {k}\n", (r + 16 - d) % 16);
            if k > 0 {
                text += &format!("s{k} requires r{}\n", k - 1);
                text += &format!("r{k} requires r{}\n", k - 1);
            }
        }
        text += "}\n";
    }
    let s = goal(&text, "barrier");
    let t = loggops::finish_times(&s, &loggops::LogGops::default(), |op| {
        s.ops[op as usize].bytes
    });
    assert_eq!(t, vec![22000; 16]);
}

/// One message either side of S: eagerly (65535 B) the sender is done
/// after o; as a rendezvous (65536 B) when the receiver matches it
/// (o + L); the receiver takes o + (s-1)G after the arrival either way
/// (LogGOPSim: 1500 / 398704 and 4000 / 398710).
#[test]
fn eager_and_rendezvous() {
    for (bytes, expected) in [(65535, [1500, 398704]), (65536, [4000, 398710])] {
        let text = format!(
            "num_ranks 2\nrank 0 {{\nsend {bytes}b to 1 tag 0\n}}\nrank 1 {{\nrecv {bytes}b from 0 tag 0\n}}\n"
        );
        let s = goal(&text, "broadcast:0");
        let t = loggops::finish_times(&s, &loggops::LogGops::default(), |op| {
            s.ops[op as usize].bytes
        });
        assert_eq!(t, expected, "{bytes} bytes");
    }
}
