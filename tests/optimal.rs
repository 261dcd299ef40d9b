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
