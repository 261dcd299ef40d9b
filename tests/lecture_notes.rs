//! Lecture notes, section 11: broadcast on meshes and tori (`mesh-sf`,
//! `mesh-sf-farthest`, `torus-sf`, `torus-sf-cut`, `recursive-doubling`,
//! `mesh-flood`), every source of every mesh and torus up to 6 x 6 or 8 x 8,
//! against times computed here from the coordinates alone; Ho-Kao
//! (`ho-kao`) on the cube.

use crate::support::*;
use commcheck::engine::executor;
use models::catalog::{Algorithm, Params, Ports, Switching};
use models::lecture_notes::mesh_sf::{Kind, MeshSf};
use models::{Protocol, Topology};
use properties::{PropertyName, PropertyName::*, Slot, Status};

/// What an optimal broadcast keeps: every claim, and one transmission per
/// node reached.
const OPTIMAL: [PropertyName; 6] = PropertyName::OPTIMAL;

/// The configuration of grid algorithm `a` on `sides` (`torus`: with
/// `--torus`, for the algorithms that take it; the tori-only ones are tori
/// anyway), its default modes unless `ports` (store-and-forward), the
/// claim that of `source` where given.
fn grid(
    a: Algorithm,
    sides: &[u32],
    torus: bool,
    ports: Option<Ports>,
    source: Option<u32>,
) -> models::Config {
    let n = *sides.iter().max().unwrap();
    let switching = ports.map(|_| Switching::Sf);
    let cfg = a.config(n as u64, switching, ports).unwrap();
    let params = Params {
        sides: Some(sides.to_vec()),
        torus,
        source,
        ..Params::default()
    };
    a.with_params(cfg, params).unwrap()
}

fn mesh(sides: &[u32], ports: Ports, farthest: bool) -> MeshSf {
    let (a, kind) = match farthest {
        false => (Algorithm::MeshSf, Kind::Printed),
        true => (Algorithm::MeshSfFarthest, Kind::Farthest),
    };
    MeshSf::new(grid(a, sides, false, Some(ports), None), kind)
}

/// The meshes checked: every M(a, b) with 2 <= a, b <= 6, and M(3,3,3),
/// M(2,3,4).
fn meshes() -> Vec<Vec<u32>> {
    let mut all: Vec<Vec<u32>> = (2..=6)
        .flat_map(|a| (2..=6).map(move |b| vec![a, b]))
        .collect();
    all.push(vec![3, 3, 3]);
    all.push(vec![2, 3, 4]);
    all
}

/// Coordinates of node `v` of a mesh of `sides`, the first slowest.
fn coords(sides: &[u32], mut v: u32) -> Vec<u32> {
    let mut c = vec![0; sides.len()];
    for i in (0..sides.len()).rev() {
        c[i] = v % sides[i];
        v /= sides[i];
    }
    c
}

/// The distance from node s to the farthest node: sum over dimensions of
/// the longer side.
fn eccentricity(sides: &[u32], s: u32) -> Slot {
    let c = coords(sides, s);
    (0..sides.len())
        .map(|i| c[i].max(sides[i] - 1 - c[i]))
        .sum()
}

/// The one-port lower bound: the eccentricity, and the doubling of the
/// informed nodes, ceil(log2 N).
fn one_port_lower(sides: &[u32], s: u32) -> Slot {
    let nodes: u32 = sides.iter().product();
    eccentricity(sides, s).max(nodes.next_power_of_two().ilog2())
}

/// Whether s sits in the middle of an odd side in some dimension (a tie
/// between the two directions).
fn tie(sides: &[u32], s: u32) -> Option<usize> {
    let c = coords(sides, s);
    (0..sides.len()).find(|&i| sides[i] % 2 == 1 && c[i] == sides[i] / 2)
}

/// The time of a run from `s`, with every claim the run breaks.
fn run(p: &MeshSf, s: u32) -> (Slot, Vec<&'static str>) {
    let r = executor::run(p, &s);
    let broken = r
        .record
        .evidence(&p.claims())
        .into_iter()
        .filter(|e| e.status == Status::Violated && e.property != TimeBound)
        .map(|e| e.property.as_str())
        .collect();
    (r.record.completion, broken)
}

/// All-port: exhaustive over every source, complete, one copy per node,
/// contention-free, N - 1 transmissions, within the diameter; and each
/// source's run takes exactly its eccentricity (optimal).
#[test]
fn all_port_takes_each_sources_eccentricity() {
    for sides in meshes() {
        let p = mesh(&sides, Ports::All, false);
        let what = format!("mesh-sf {sides:?} all-port");
        let search = lockstep(p.clone());
        assert_holds(&search, &OPTIMAL, &what);
        let nodes = p.topology().nodes();
        assert_eq!(
            search.by_input.len(),
            nodes as usize,
            "{what}: every source"
        );
        for &(s, (lo, hi)) in &search.by_input {
            let ecc = eccentricity(&sides, s as u32);
            assert_eq!((lo, hi), (ecc, ecc), "{what}, source {s}");
        }
    }
}

/// One-port, farthest first in every dimension: every source reaches the
/// lower bound max(ecc, ceil(log2 N)) unless it sits in the middle of an
/// odd side, where it takes one slot more, in any dimension, not only the
/// first (docs/errata.md, item 12): at M(5,7) from (0,3), dimension 2.
/// Against the exhaustive optimum of any one-port broadcast
/// (commcheck::optimal): equal at every source of every two-dimensional
/// mesh, ties included, and a slot above it at seven sources of M(3,3,3).
#[test]
fn one_port_farthest_first_misses_the_bound_at_every_tie() {
    use commcheck::optimal::{least_rounds, Model};
    let one_port = Model {
        wormhole: false,
        max_sends: None,
        bounds: true,
    };
    let mut later_tie = None;
    let mut slower = Vec::new();
    for sides in meshes() {
        let p = mesh(&sides, Ports::One, true);
        let nodes = p.topology().nodes();
        for s in 0..nodes {
            let what = format!("mesh-sf-farthest {sides:?} one-port from {s}");
            let (time, broken) = run(&p, s);
            assert!(broken.is_empty(), "{what}: breaks {broken:?}");
            let optimum = least_rounds(
                p.topology(),
                one_port,
                s,
                16,
                commcheck::optimal::SEARCH_STATES,
            )
            .unwrap();
            let optimum = optimum.rounds.expect("within 16 rounds");
            assert!(optimum <= time, "{what}: the optimum {optimum}");
            if optimum < time {
                slower.push((sides.clone(), coords(&sides, s), time, optimum));
            }
            let lower = one_port_lower(&sides, s);
            match tie(&sides, s) {
                None => assert_eq!(time, lower, "{what}"),
                Some(i) => {
                    assert!(time == lower || time == lower + 1, "{what}: {time}");
                    if time > lower && i > 0 && later_tie.is_none() {
                        later_tie = Some((sides.clone(), coords(&sides, s)));
                    }
                }
            }
        }
    }
    let found = later_tie.expect("a tie past the first dimension costs a slot");
    assert_eq!(found.1.len(), 2, "{found:?}");
    // On every two-dimensional mesh farthest first is optimal at every
    // source; on M(3,3,3), at the seven sources with two or three middle
    // coordinates, it takes 6 rounds where 5 = ceil(log2 27) suffice
    // (docs/errata.md, item 12).
    assert!(
        slower.iter().all(|(sides, ..)| sides.len() == 3),
        "{slower:?}"
    );
    assert!(
        slower.contains(&(vec![3, 3, 3], vec![0, 1, 1], 6, 5)),
        "{slower:?}"
    );
}

/// The notes' one-port node algorithm as printed (j- before j+ past the
/// source's first dimension) misses the lower bound where the longer side
/// of a later dimension is upward and there is no tie: M(4,4) from (0,1).
#[test]
fn one_port_as_printed_misses_the_bound_without_a_tie() {
    let sides = [4, 4];
    let p = mesh(&sides, Ports::One, false);
    let s = 1; // (0,1): the longer side of dimension 2 is upward.
    let (time, broken) = run(&p, s);
    assert!(broken.is_empty(), "{broken:?}");
    assert_eq!(tie(&sides, s), None);
    assert_eq!((time, one_port_lower(&sides, s)), (6, 5));
    // The claim with --source is that source's bound: violated.
    let cfg = grid(Algorithm::MeshSf, &sides, false, Some(Ports::One), Some(s));
    let with_source = MeshSf::new(cfg, Kind::Printed);
    let r = executor::run(&with_source, &s);
    let late = r
        .record
        .evidence(&with_source.claims())
        .into_iter()
        .find(|e| e.property == TimeBound)
        .unwrap();
    assert_eq!(late.status, Status::Violated);
}

fn torus(sides: &[u32], ports: Ports, kind: Kind) -> MeshSf {
    let a = match kind {
        Kind::TorusIgnore => Algorithm::TorusSf,
        _ => Algorithm::TorusSfCut,
    };
    MeshSf::new(grid(a, sides, false, Some(ports), None), kind)
}

/// The tori checked: every T(a, b) with 3 <= a, b <= 6, and T(3,4,5).
fn tori() -> Vec<Vec<u32>> {
    let mut all: Vec<Vec<u32>> = (3..=6)
        .flat_map(|a| (3..=6).map(move |b| vec![a, b]))
        .collect();
    all.push(vec![3, 4, 5]);
    all
}

/// The second solution (each ring cut opposite the source), all-port,
/// every source: one copy per node, N - 1 transmissions, and every source
/// done in the torus's eccentricity, the sum of floor(z_i/2).
#[test]
fn torus_cut_opposite_the_source_is_optimal() {
    for sides in tori() {
        let p = torus(&sides, Ports::All, Kind::TorusCut);
        let what = format!("torus-sf-cut {sides:?}");
        let search = lockstep(p.clone());
        assert_holds(&search, &OPTIMAL, &what);
        let ecc: Slot = sides.iter().map(|z| z / 2).sum();
        assert_eq!(search.by_input.len(), p.topology().nodes() as usize);
        for &(s, (lo, hi)) in &search.by_input {
            assert_eq!((lo, hi), (ecc, ecc), "{what}, source {s}");
        }
    }
}

/// The first solution (second copies ignored): complete and
/// contention-free, but each ring of the tree ends in two superfluous
/// transmissions (where its two wavefronts meet), one slot after the ring
/// is informed: N - 1 + 2 x rings transmissions, where the tree has 1 ring
/// of dimension 1, z_1 of dimension 2, z_1 z_2 of dimension 3; and the
/// eccentricity plus one slot.
#[test]
fn torus_ignoring_second_copies_makes_two_superfluous_hops_a_ring() {
    for sides in tori() {
        let p = torus(&sides, Ports::All, Kind::TorusIgnore);
        let what = format!("torus-sf {sides:?}");
        let search = lockstep(p.clone());
        assert_holds(
            &search,
            &[Completeness, ContentionFreedom, Causality, TimeBound],
            &what,
        );
        assert_eq!(
            search.findings[NoDuplication as usize].status,
            Status::Violated,
            "{what}: duplicates shown"
        );
        let nodes: u64 = sides.iter().map(|&z| z as u64).product();
        let rings: u64 = (0..sides.len())
            .map(|i| sides[..i].iter().map(|&z| z as u64).product::<u64>())
            .sum();
        let tx = nodes - 1 + 2 * rings;
        assert_eq!(search.transmissions, Some((tx, tx)), "{what}");
        // Every node is informed within the eccentricity; the two
        // superfluous hops of each ring carry copies one round later.
        let ecc: Slot = sides.iter().map(|z| z / 2).sum();
        for &(s, (lo, hi)) in &search.by_input {
            assert_eq!((lo, hi), (ecc, ecc), "{what}, source {s}");
        }
        assert_eq!(search.worst_termination, Some(ecc + 1), "{what}");
    }
}

fn doubling(
    sides: &[u32],
    torus: bool,
) -> models::lecture_notes::recursive_doubling::RecursiveDoubling {
    let cfg = grid(Algorithm::RecursiveDoubling, sides, torus, None, None);
    models::lecture_notes::recursive_doubling::RecursiveDoubling::new(cfg)
}

/// Recursive doubling on every M(a, b) and T(a, b) with sides up to 8 (a
/// torus from 3) and on M(4,4,4), M(2,3,5), T(3,4,5), every source: one
/// copy per node, contention-free on arcs and ports, N - 1 transmissions,
/// and exactly the sum of ceil(log2 z_i) rounds (each line halved in
/// turn). The claimed ceil(log2 N) holds exactly where that sum equals it,
/// and fails elsewhere (docs/errata.md, item 13: M(3,5)).
#[test]
fn recursive_doubling_takes_the_sum_of_each_lines_rounds() {
    let log = |x: u32| x.next_power_of_two().ilog2();
    let mut shapes: Vec<(Vec<u32>, bool)> = Vec::new();
    for a in 2..=8 {
        for b in 2..=8 {
            shapes.push((vec![a, b], false));
            if a >= 3 && b >= 3 {
                shapes.push((vec![a, b], true));
            }
        }
    }
    shapes.push((vec![4, 4, 4], false));
    shapes.push((vec![2, 3, 5], false));
    shapes.push((vec![3, 4, 5], true));
    shapes.push((vec![13], false));
    let mut refuted = 0;
    for (sides, torus) in shapes {
        let p = doubling(&sides, torus);
        let what = format!("recursive-doubling {sides:?} torus={torus}");
        let search = lockstep(p.clone());
        assert_holds(&search, &all_but(&[TimeBound, MessageLength]), &what);
        let rounds: Slot = sides.iter().map(|&z| log(z)).sum();
        for &(s, (lo, hi)) in &search.by_input {
            assert_eq!((lo, hi), (rounds, rounds), "{what}, source {s}");
        }
        let nodes: u32 = sides.iter().product();
        let claim = search.findings[TimeBound as usize].status;
        match rounds == log(nodes) {
            true => assert_eq!(claim, Status::Holds, "{what}"),
            false => {
                assert_eq!(claim, Status::Violated, "{what}");
                refuted += 1;
            }
        }
    }
    assert!(
        refuted > 0,
        "some side that is not a power of two breaks it"
    );
}

/// The halving of a line from its corner: the worms of round i are at most
/// ceil(z/2^i) hops, the longest exactly that; so the notes' base latency
/// sum of ceil(z/2^i) t_d over the rounds, which they equate with
/// t_d (z - 1), is that only where z is a power of two (z = 5: 3 + 2 + 1 =
/// 6 hops, not 4).
#[test]
fn the_torus_latency_formula_counts_the_halving() {
    use models::lecture_notes::recursive_doubling::{halving, rounds};
    for z in 2..=64u32 {
        let mut longest = vec![0; rounds(z) as usize + 1];
        halving(z, 0, |round, from, to| {
            assert!(to > from, "from the corner every worm goes up");
            let l = &mut longest[round as usize];
            *l = (*l).max(to - from);
        });
        let sum: u32 = (1..=rounds(z)).map(|i| z.div_ceil(1 << i)).sum();
        for i in 1..=rounds(z) {
            assert_eq!(longest[i as usize], z.div_ceil(1 << i), "z={z} round {i}");
        }
        assert_eq!(sum == z - 1, z.is_power_of_two(), "z={z}: {sum}");
    }
}

/// A node's own worms, followed down the segments that hold it, are the
/// worms of the whole halving it sends, round for round (every line of up
/// to 40 nodes, every holder, every node).
#[test]
fn a_nodes_worms_are_its_worms_of_the_whole_halving() {
    use models::lecture_notes::recursive_doubling::{halving, halving_from};
    for z in 1..=40u32 {
        for holder in 0..z {
            for me in 0..z {
                let mut all = Vec::new();
                halving(z, holder, |round, from, to| {
                    if from == me {
                        all.push((round, to));
                    }
                });
                let mut own = Vec::new();
                halving_from(z, holder, me, |round, to| own.push((round, to)));
                all.sort_unstable();
                own.sort_unstable();
                assert_eq!(own, all, "z={z}, holder {holder}, node {me}");
            }
        }
    }
}

fn flood(sides: &[u32], torus: bool) -> models::lecture_notes::mesh_flood::MeshFlood {
    models::lecture_notes::mesh_flood::MeshFlood::new(grid(
        Algorithm::MeshFlood,
        sides,
        torus,
        None,
        None,
    ))
}

/// Flooding on every mesh up to 6 x 6 and M(3,3,3): complete,
/// contention-free, every source done in its eccentricity, and duplicates
/// wherever the mesh has a square (both sides at least 2 in two
/// dimensions), none on a line.
#[test]
fn mesh_flooding_takes_the_eccentricity_with_duplicates_on_squares() {
    for sides in meshes().into_iter().chain([vec![7]]) {
        let p = flood(&sides, false);
        let what = format!("mesh-flood {sides:?}");
        let search = lockstep(p.clone());
        assert_holds(
            &search,
            &[Completeness, ContentionFreedom, Causality, TimeBound],
            &what,
        );
        for &(s, (lo, hi)) in &search.by_input {
            let ecc = eccentricity(&sides, s as u32);
            assert_eq!((lo, hi), (ecc, ecc), "{what}, source {s}");
        }
        let duplicates = search.findings[NoDuplication as usize].status;
        let squares = sides.len() >= 2;
        assert_eq!(duplicates == Status::Violated, squares, "{what}");
    }
}

/// Flooding on a torus: every node holds the packet after the diameter
/// (the sum of floor(z_i/2)), the completion time the claim is judged by;
/// where a side is odd the last-informed nodes of its rings still forward
/// copies to each other one round later, so the last delivery is the
/// diameter plus one (docs/errata.md, item 14); with every side even it
/// is the diameter.
#[test]
fn torus_flooding_informs_within_the_diameter_and_copies_run_one_round_past_with_an_odd_side() {
    for sides in tori() {
        let p = flood(&sides, true);
        let what = format!("mesh-flood {sides:?} --torus");
        let search = lockstep(p.clone());
        assert_holds(
            &search,
            &[Completeness, ContentionFreedom, Causality],
            &what,
        );
        let diameter: Slot = sides.iter().map(|z| z / 2).sum();
        let odd = sides.iter().any(|z| z % 2 == 1);
        for &(s, (lo, hi)) in &search.by_input {
            assert_eq!((lo, hi), (diameter, diameter), "{what}, source {s}");
        }
        let end = diameter + odd as Slot;
        assert_eq!(search.worst_termination, Some(end), "{what}");
        let late = search.findings[TimeBound as usize].status;
        assert_eq!(late, Status::Holds, "{what}");
    }
}

/// DTA as HKA runs it inside a subcube: from 0 in Q_m every other node is
/// sent to exactly once, each send from a node informed in an earlier
/// round, within ceil(m/2) rounds (2 at m = 2, as `dt`).
#[test]
fn dta_schedule_informs_every_node_once_in_time() {
    use models::lecture_notes::hka::dta;
    for m in 1..=10u32 {
        let mut informed = vec![None; 1 << m];
        informed[0] = Some(0);
        for (round, from, to) in dta(m) {
            let got = informed[from as usize].expect("a sender holds the packet");
            assert!(
                got < round,
                "m={m}: {from} sends in round {round}, informed {got}"
            );
            assert!(informed[to as usize].is_none(), "m={m}: {to} twice");
            informed[to as usize] = Some(round);
        }
        let last = informed
            .iter()
            .map(|r| r.expect("every node"))
            .max()
            .unwrap();
        assert_eq!(last, m.div_ceil(2).max(m.min(2)), "m={m}");
    }
}

/// HKA on Q_1..Q_12 (exhaustive lock-step from every source by xor
/// symmetry, up to n = 10; the executor above): complete, one copy per
/// node, contention-free; optimal at n = 7 as the notes' figure shows
/// (3 rounds, the all-port lower bound), never below that bound.
#[test]
fn ho_kao_is_complete_contention_free_and_optimal_at_seven() {
    use models::lecture_notes::hka::Hka;
    for n in 1..=12u32 {
        let cfg = Algorithm::HoKao.config(n as u64, None, None).unwrap();
        let p = Hka::new(cfg);
        let what = format!("ho-kao {n}");
        let lower = properties::bounds::all_port_wormhole_lower(n);
        let time = match n <= 10 {
            true => {
                let search = lockstep(p.clone());
                assert_holds(
                    &search,
                    &[Completeness, NoDuplication, ContentionFreedom, Causality],
                    &what,
                );
                search.worst_time.unwrap()
            }
            false => {
                let (time, broken) = {
                    let r = executor::run(&p, &0);
                    let broken: Vec<_> = r
                        .record
                        .evidence(&p.claims())
                        .into_iter()
                        .filter(|e| e.status == Status::Violated)
                        .map(|e| e.property)
                        .collect();
                    (r.record.completion, broken)
                };
                assert!(broken.is_empty(), "{what}: {broken:?}");
                time
            }
        };
        assert_eq!(time, p.rounds(), "{what}");
        assert!(time >= lower, "{what}");
        if n == 7 {
            assert_eq!((time, lower), (3, 3), "{what}");
        }
    }
}

/// The dilated-diagonal broadcast on T(5,5) and T(25,25) (every source)
/// and T(125,125) (the executor): complete and contention-free (every
/// round's worms link-disjoint, as the notes require), but the three
/// phases take k + 1 + k rounds, one more than the claimed optimum log_5 N
/// = 2k (docs/errata.md, item 16); the off-diagonal copies of phase 1 are
/// heard again in phase 3.
#[test]
fn dilated_diagonal_is_contention_free_and_one_round_over() {
    use models::lecture_notes::dilated_diagonal::DilatedDiagonal;
    for (n, k) in [(5u32, 1u32), (25, 2), (125, 3)] {
        let cfg = grid(Algorithm::DilatedDiagonal, &[n, n], false, None, None);
        let p = DilatedDiagonal::new(cfg);
        let what = format!("dilated-diagonal {n}x{n}");
        let (times, duplicates, late) = match n <= 25 {
            true => {
                let search = lockstep(p.clone());
                assert_holds(
                    &search,
                    &[Completeness, ContentionFreedom, Causality],
                    &what,
                );
                let times: Vec<Slot> = search.by_input.iter().map(|b| b.1 .1).collect();
                assert_eq!(times.len(), (n * n) as usize, "{what}: every source");
                let status = |q: properties::PropertyName| search.findings[q as usize].status;
                (times, status(NoDuplication), status(TimeBound))
            }
            false => {
                let r = executor::run(&p, &0);
                let ev = r.record.evidence(&p.claims());
                let status = |q| ev.iter().find(|e| e.property == q).unwrap().status;
                for q in [Completeness, ContentionFreedom, Causality] {
                    assert_eq!(status(q), Status::Holds, "{what}: {}", q.as_str());
                }
                (
                    vec![r.record.completion],
                    status(NoDuplication),
                    status(TimeBound),
                )
            }
        };
        assert!(times.iter().all(|&t| t == 2 * k + 1), "{what}: {times:?}");
        assert_eq!(
            (duplicates, late),
            (Status::Violated, Status::Violated),
            "{what}"
        );
    }
}
