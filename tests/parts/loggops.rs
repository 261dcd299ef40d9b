//! LogGOPS: parameters read, one-sided operations timed.
//! (These tests were inside `src/cost/loggops.rs`: here they share the one build
//! of the library the integration tests use.)

use commcheck::cost::loggops::*;
use models::schedule::{Kind, OpId};
use models::schedule::{Op, Rank};

/// Parameters are named, each at most once, whole numbers.
#[test]
fn parameters_are_read() {
    let p = LogGops::parse("L=100,G=2").unwrap();
    assert_eq!((p.l, p.big_g, p.o), (100, 2, 1500));
    assert!(LogGops::parse("x=1")
        .unwrap_err()
        .contains("L, o, g, G, O and S"));
    assert!(LogGops::parse("L=1,L=2").unwrap_err().contains("twice"));
    assert!(LogGops::parse("L=-1").unwrap_err().contains("whole number"));
    assert!(LogGops::parse("L").unwrap_err().contains("NAME=VALUE"));
    assert_eq!(LogGops::parse("").unwrap(), LogGops::default());
}
/// Two ranks whose operations are `kinds` (rank, kind), each of 1024
/// bytes, timed under LogGOPSim's defaults (rank 1's operations in
/// the order given, each after the one before).
fn one_sided(kinds: Vec<(Rank, Kind)>) -> Vec<i64> {
    let c = commcheck::import::collective::Collective::parse("allgather").unwrap();
    let text = "num_ranks 2\nrank 0 {\nc: calc 0\n}\nrank 1 {\nc: calc 0\n}\n";
    let mut s =
        commcheck::import::goal::read_from(text.as_bytes(), "t.goal", Some(&c), None).unwrap();
    let template = s.ops[0].clone();
    s.ops.clear();
    s.first = vec![0];
    for r in 0..2 {
        for (_, kind) in kinds.iter().filter(|k| k.0 == r) {
            let after = match s.ops.last() {
                Some(o) if o.rank == r => vec![s.ops.len() as OpId - 1],
                _ => Vec::new(),
            };
            s.ops.push(Op {
                rank: r,
                kind: kind.clone(),
                after,
                ..template.clone()
            });
        }
        s.first.push(s.ops.len() as OpId);
    }
    let bytes = |op: OpId| match s.ops[op as usize].kind {
        Kind::Calc => 100,
        _ => 1024,
    };
    finish_times(&s, &LogGops::default(), bytes)
}

/// A put of 1024 bytes: its CPU busy o = 1500; it lands at o + L =
/// 4000 and is written once the target's interface has taken its
/// bytes, 1023 x G later (10138), where the target finishes.
#[test]
fn a_put_lands_at_o_plus_l_without_the_targets_cpu() {
    let put = Kind::Move {
        from: (0, 0),
        to: (1, 0),
        add: false,
        flag: None,
    };
    assert_eq!(one_sided(vec![(0, put)]), [1500, 10138]);
}

/// A get of 1024 bytes: a request of no data (o), at the peer at
/// o + L = 4000, whose interface replies at once; the reply lands at
/// 4000 + L = 6500 and is written 1023 x G later, 12638.
#[test]
fn a_get_is_a_request_and_a_reply() {
    let get = Kind::Move {
        from: (1, 0),
        to: (0, 0),
        add: false,
        flag: None,
    };
    assert_eq!(one_sided(vec![(0, get)]), [12638, 0]);
}

/// A packet write's flag is taken by the target's packet read once
/// the data is written (10138); the computation of 100 ns after the
/// read ends at 10238. Without the flag's receive's match the read
/// would wait forever and the computation never run.
#[test]
fn a_packet_read_takes_the_flag_once_the_data_is_written() {
    let write = Kind::Move {
        from: (0, 0),
        to: (1, 0),
        add: false,
        flag: Some(7),
    };
    let read = Kind::Recv {
        from: Some(0),
        tag: Some(7),
        data: models::schedule::Data::Nothing,
        reduce: false,
    };
    assert_eq!(
        one_sided(vec![(0, write), (1, read), (1, Kind::Calc)]),
        [1500, 10238]
    );
}
