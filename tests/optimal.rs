//! The exhaustive optimal search (commcheck::optimal) against what is known
//! by hand, with its witnesses replayed round by round (tests/lecture.rs
//! holds it against farthest first at every source of the meshes there).

use commcheck::optimal::{least_rounds, Model, Optimum};
use models::config::{Ports, Switching};
use models::topology::grid::Grid;
use models::topology::hypercube::Hypercube;
use models::topology::Topology;

const ONE_PORT_SF: Model = Model {
    wormhole: false,
    max_sends: None,
    bounds: true,
};

/// Replays `o`'s witness: each round's senders informed before it, its
/// receivers new and distinct, no resource used twice in it, and every
/// node informed at the end, in exactly `o.rounds` rounds.
fn replay<T: Topology>(t: &T, wormhole: bool, source: u32, o: &Optimum) {
    let mut informed = vec![false; t.nodes() as usize];
    informed[source as usize] = true;
    assert_eq!(o.witness.len() as u32, o.rounds.expect("found"));
    for round in &o.witness {
        let mut used = std::collections::HashSet::new();
        for &(u, v) in round {
            assert!(informed[u as usize], "{u} sends before it is informed");
            assert!(!informed[v as usize], "{v} is informed twice");
            let route = t.message_route(u, v, wormhole);
            assert_eq!(t.invalid(&route), None);
            t.occupy(&route, |r| {
                assert!(used.insert(r), "resource {r} used twice")
            });
        }
        for &(_, v) in round {
            informed[v as usize] = true;
        }
    }
    assert!(informed.iter().all(|&i| i), "the witness informs everyone");
}

/// Known by hand: one round informs at most n + 1 nodes of the all-port
/// wormhole n-cube, so Q_2 needs 2 and Q_3 (4 then 16 >= 8) 2; a path of
/// 5 nodes takes its eccentricity in one-port rounds where the source
/// sends the longer way first: 4 from its end, 3 from the next node and
/// 3 from its middle (the second direction waits a round, and is 2 long).
#[test]
fn the_search_agrees_with_counting_by_hand() {
    let wh = Model {
        wormhole: true,
        max_sends: None,
        bounds: false,
    };
    for (n, rounds) in [(1, 1), (2, 2), (3, 2), (4, 2)] {
        let cube = Hypercube::new(n, Switching::Wh, Ports::All);
        let o = least_rounds(&cube, wh, 0, 4, 1_000_000).unwrap();
        assert_eq!(o.rounds, Some(rounds), "Q_{n}");
        replay(&cube, true, 0, &o);
    }
    let path = Grid::new(&[5], false, Switching::Sf, Ports::One);
    for (source, rounds) in [(0, 4), (2, 3), (1, 3)] {
        let o = least_rounds(&path, ONE_PORT_SF, source, 8, 1_000_000).unwrap();
        assert_eq!(o.rounds, Some(rounds), "M(5) from {source}");
        replay(&path, false, source, &o);
    }
    // M(3,3) from a corner: its eccentricity, 4 (and ceil(log2 9) = 4).
    let square = Grid::new(&[3, 3], false, Switching::Sf, Ports::One);
    let o = least_rounds(&square, ONE_PORT_SF, 0, 8, 1_000_000).unwrap();
    assert_eq!(o.rounds, Some(4), "M(3,3) from (0,0)");
    replay(&square, false, 0, &o);
}

/// Too few rounds allowed: no answer, and the search says so rather than
/// returning a wrong one; a network past 64 nodes is refused in words.
#[test]
fn the_search_says_where_it_stops() {
    let cube = Hypercube::new(5, Switching::Wh, Ports::All);
    let wh = Model {
        wormhole: true,
        max_sends: None,
        bounds: true,
    };
    let o = least_rounds(&cube, wh, 0, 2, 5_000_000).unwrap();
    assert_eq!(o.rounds, None, "Q_5 needs 3 rounds on e-cube routes");
    let big = Hypercube::new(7, Switching::Wh, Ports::All);
    let err = least_rounds(&big, wh, 0, 3, 10).unwrap_err();
    assert!(err.contains("at most 64 nodes"), "{err}");
    let budget = least_rounds(&cube, wh, 0, 2, 3).unwrap_err();
    assert!(budget.contains("budget"), "{budget}");
}

// ---- check optimal: the SAT search, its witness and its certificate ----

use commcheck::check::optimal::{optimal, OptimalRequest};
use commcheck::optimal::drat;
use commcheck::optimal::sat::{encode, least_slots, refutation, satisfiable, Sent};
use commcheck::optimal::task::{Instance, Routes, Task};
use commcheck::optimal::witness;

/// A graph network file of `links` on `nodes` nodes, in the system's
/// temporary folder.
fn graph_file(name: &str, nodes: u32, links: &[(u32, u32)]) -> String {
    let file =
        std::env::temp_dir().join(format!("commcheck-test-{}-{name}.json", std::process::id()));
    let text = serde_json::json!({
        "format": "commcheck-network", "version": 1, "nodes": nodes, "links": links,
    });
    std::fs::write(&file, text.to_string()).unwrap();
    format!("graph:{}", file.display())
}

fn ask(task: &str, network: &str, switching: Switching, ports: Ports) -> OptimalRequest {
    OptimalRequest {
        task: task.into(),
        network: network.into(),
        switching,
        ports,
        routes: Routes::Network,
        max_slots: 16,
        write_schedule: None,
    }
}

/// Planted instances whose optimum is known by hand: a path of 5 nodes
/// (its eccentricity from an end; from the middle 2 all-port, 3 one-port,
/// one side waiting a slot); a star of 4 leaves (one slot all-port, one a
/// leaf one-port, both ways); the 3-cube under Bertsekas et al.'s MLA and
/// SLA (the SBT's 3 slots for a broadcast; ceil((2^d - 1)/d) = 3 and
/// 2^d - 1 = 7 for the multinode broadcast; 2^(d-1) = 4 for the total
/// exchange under MLA). Each answer's witness passes the ordinary
/// checker, and each optimum above one slot carries a checked refutation
/// of one slot fewer.
#[test]
fn planted_optima_are_found_with_checked_certificates() {
    let path = graph_file("path5", 5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
    let star = graph_file("star4", 5, &[(0, 1), (0, 2), (0, 3), (0, 4)]);
    let (sf, wh, all, one) = (Switching::Sf, Switching::Wh, Ports::All, Ports::One);
    let cases: Vec<(&str, &str, Switching, Ports, u32)> = vec![
        ("broadcast:0", &path, sf, all, 4),
        ("broadcast:2", &path, sf, all, 2),
        ("broadcast:2", &path, sf, one, 3),
        ("broadcast:0", &star, sf, all, 1),
        ("broadcast:0", &star, sf, one, 4),
        ("gather:0", &star, sf, one, 4),
        ("scatter:0", &star, sf, all, 1),
        ("broadcast:0", "hypercube:3", sf, one, 3),
        ("allgather", "hypercube:3", sf, all, 3),
        ("allgather", "hypercube:3", sf, one, 7),
        ("alltoall", "hypercube:3", sf, all, 4),
        ("broadcast:0", "hypercube:3", wh, all, 2),
    ];
    for (task, network, switching, ports, known) in cases {
        let r = optimal(&ask(task, network, switching, ports)).unwrap();
        let what = format!("{task} on {network} {switching} {ports}");
        assert_eq!(r.slots, Some(known), "{what}: {}", r.text());
        assert_eq!(r.witness_check.as_deref(), Some("holds"), "{what}");
        assert!(r.stands());
        if known > 1 {
            assert!(
                r.certificate
                    .starts_with(&format!("DRAT refutation of {} slots", known - 1)),
                "{what}: {}",
                r.certificate
            );
        }
    }
}

/// The witness of the one-port broadcast on the 3-cube, with any one of
/// its transmissions moved a slot earlier, is rejected by the ordinary
/// checker: the root sends in every slot (a second send on its port) and
/// a relay would send what it has not yet received.
#[test]
fn a_witness_with_one_transmission_moved_is_rejected() {
    use commcheck::check::schedule::{check_schedule, ScheduleRequest};
    let cube = Hypercube::new(3, Switching::Sf, Ports::One);
    let task = Task::Broadcast(0);
    let inst = Instance::new(&cube, task, false, Routes::Network).unwrap();
    let o = least_slots(&inst, 8).unwrap();
    assert_eq!(o.slots, Some(3));
    let judge = |sends: &[Sent], name: &str| {
        let file =
            std::env::temp_dir().join(format!("commcheck-test-{}-{name}.json", std::process::id()));
        std::fs::write(&file, witness::schedule(&inst, task, sends)).unwrap();
        let mut req = ScheduleRequest::new(&file, "hypercube:3");
        req.ports = Ports::One;
        let outcome = check_schedule(&req).unwrap();
        let _ = std::fs::remove_file(&file);
        outcome
    };
    assert!(!judge(&o.witness, "as-found").refuted());
    let mut moved = 0;
    for i in 0..o.witness.len() {
        if o.witness[i].slot == 1 {
            continue;
        }
        let mut sends = o.witness.clone();
        sends[i].slot -= 1;
        let outcome = judge(&sends, &format!("moved-{i}"));
        assert!(
            outcome.refuted(),
            "moving transmission {i} a slot earlier passed:\n{}",
            outcome.text()
        );
        moved += 1;
    }
    assert!(
        moved >= 4,
        "the witness has transmissions after slot 1 to move"
    );
}

/// The certificate check can fail: the refutation of a one-port broadcast
/// from a star's centre to 4 leaves in 3 slots checks, and fails once any
/// clause whose loss makes the formula satisfiable is dropped, or the
/// proof is cut to its first line.
#[test]
fn a_certificate_check_fails_when_a_clause_is_dropped() {
    let arcs: Vec<(u32, u32)> = (1..5).flat_map(|l| [(0, l), (l, 0)]).collect();
    let star = models::Graph::new("star", 5, Vec::new(), &arcs, Switching::Sf, Ports::One).unwrap();
    let inst = Instance::new(&star, Task::Broadcast(0), false, Routes::Network).unwrap();
    let formula = encode(&inst, 3);
    let proof = refutation(&formula)
        .unwrap()
        .expect("3 slots are too few for 4 leaves");
    let checked = drat::check(&formula.clauses, &proof).unwrap();
    assert!(
        checked.lemmas > 0,
        "the refutation needs lemmas: {checked:?}"
    );
    let dropped = (0..formula.clauses.len())
        .find(|&i| {
            let mut f = commcheck::optimal::sat::Formula {
                clauses: formula.clauses.clone(),
                vars: formula.vars,
                sends: Vec::new(),
            };
            f.clauses.remove(i);
            satisfiable(&f).unwrap()
        })
        .expect("some clause is needed");
    let mut weaker = formula.clauses.clone();
    weaker.remove(dropped);
    assert!(
        drat::check(&weaker, &proof).is_err(),
        "clause {dropped} dropped, the proof still checked"
    );
    let cut: Vec<u8> = proof
        .split(|&b| b == b'\n')
        .take(1)
        .flat_map(|l| l.iter().copied().chain([b'\n']))
        .collect();
    assert!(
        drat::check(&formula.clauses, &cut).is_err(),
        "a proof of one line refuted the formula"
    );
}

/// The checker by hand: x1 must hold and must not; its proof is the lemma
/// (1) then the empty clause. Without the lemma, with a lemma unit
/// propagation does not imply, or with a variable the formula lacks, it is
/// refused; bytes at random never panic it.
#[test]
fn the_drat_checker_accepts_only_what_unit_propagation_implies() {
    let f = vec![vec![1, 2], vec![1, -2], vec![-1, 2], vec![-1, -2]];
    assert_eq!(
        drat::check(&f, b"1 0\n0\n"),
        Ok(drat::Checked {
            lemmas: 2,
            deletions: 0
        })
    );
    assert!(drat::check(&f, b"0\n").is_err());
    assert!(drat::check(&f, b"3 0\n0\n")
        .unwrap_err()
        .contains("not the formula's"));
    assert!(
        drat::check(&f, b"d 1 2 0\n1 0\n0\n").is_err(),
        "deleting (1 2) leaves (1) unimplied"
    );
    assert!(drat::check(&f, b"")
        .unwrap_err()
        .contains("without deriving"));
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..2000 {
        let len = (seed % 40) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                b"0123 -d\nc9x"[(seed % 11) as usize]
            })
            .collect();
        let _ = drat::check(&f, &bytes);
    }
}
