//! Faults, delays and skew (docs/architecture.md, "Faults, delays and
//! skew"): what is lost and what is excused, ft-trees against every fault
//! set of its claim, SBT broken by one, the executor beside the lock-step
//! model under faults, seeded bugs the checker must catch, the command
//! line's refusals, and the fault parser fuzzed.

use crate::cli::check;
use crate::support::{assert_holds, status, BUDGET};
use commcheck::engine::executor;
use commcheck::engine::exhaustive::{self, Search};
use commcheck::engine::lockstep::LockStep;
use models::blocks::broadcast::Packet;
use models::faults::{self, Fault, Faults, Part};
use models::imperfect::DELAY_FREE;
use models::lecture_notes::sbt::Sbt;
use models::stamoulis::ft_trees::FtTrees;
use models::with_protocol;
use models::{
    Algorithm, Arrival, Faulty, Hypercube, Mutant, MutantState, Mutation, Ports, Protocol,
    ProtocolExt, Scenario, Switching, Topology,
};
use properties::{NodeId, PropertyName, PropertyName::*, Route, Slot, Status, Transmission};
use std::sync::Arc;

fn ft(d: u32) -> FtTrees {
    FtTrees::new(Algorithm::FtTrees.config(d as u64, None, None).unwrap())
}

fn sbt(d: u32) -> Sbt {
    Sbt::new(Algorithm::Sbt.config(d as u64, None, None).unwrap())
}

fn scenarios(sets: Vec<Faults>) -> Vec<Scenario> {
    sets.into_iter()
        .map(|faults| Scenario {
            faults,
            offsets: Vec::new(),
        })
        .collect()
}

/// The lock-step search of `p` from source 0 under every fault set of
/// `sets` (closed under translation: source 0 stands for every source),
/// deliveries up to `delay` late.
fn search<P: Protocol + 'static>(p: P, sets: Vec<Faults>, delay: Slot) -> Search {
    let f = Faulty::new(p, scenarios(sets), delay, true);
    let inputs = f.sourced_inputs(0);
    exhaustive::lockstep(Arc::new(f), inputs, BUDGET)
}

#[test]
fn what_crosses_a_failed_part_is_lost_and_only_that() {
    let cube = Hypercube::new(3, Switching::Wh, Ports::All);
    let worm = Route::Worm {
        from: 0,
        to: 7,
        first: None,
    };
    // e-cube, highest dimension first: 000 -> 100 -> 110 -> 111.
    assert_eq!(cube.path(&worm), vec![0, 4, 6, 7]);
    let lost = |f: Vec<Fault>, slot| Faults::new(f).lost(&cube, &worm, 7, slot);
    let at = Fault::at_start;
    assert!(lost(vec![at(Part::Node(6))], 1), "through a crashed node");
    assert!(lost(vec![at(Part::Arc(4, 6))], 1), "over a failed arc");
    assert!(lost(vec![at(Part::Link(4, 6))], 1), "over a failed link");
    assert!(!lost(vec![at(Part::Arc(6, 4))], 1), "the other direction");
    assert!(!lost(vec![at(Part::Node(2))], 1), "a node off the path");
    let later = Fault {
        part: Part::Node(6),
        from: 2,
    };
    assert!(!lost(vec![later], 1) && lost(vec![later], 2), "fail-stop");
    // A fan-out loses only its failed links.
    let fan = Route::Fan { from: 0, ports: 7 };
    let f = Faults::new(vec![at(Part::Arc(0, 2))]);
    let kept: Vec<NodeId> = [1, 2, 4]
        .into_iter()
        .filter(|&to| !f.lost(&cube, &fan, to, 1))
        .collect();
    assert_eq!(kept, vec![1, 4]);
}

#[test]
fn completeness_excuses_only_what_no_healthy_holder_reaches() {
    // SBT on Q2 from 00: 00->01, 00->10, then 01->11. With 00-01 and
    // 01-11 down, 01 is cut off (excused); 11 is reachable through 10 and
    // is what completeness names.
    let cut = Faults::new(vec![
        Fault::at_start(Part::Link(0, 1)),
        Fault::at_start(Part::Link(1, 3)),
    ]);
    let s = search(sbt(2), vec![cut], 0);
    let v = s.findings[Completeness as usize].violation.unwrap();
    assert_eq!(
        v,
        properties::Violation::Missing { node: 3, packet: 0 },
        "{v:?}"
    );
    // The same link down only from slot 2: slot 1's copy got through.
    let late = Faults::new(vec![Fault {
        part: Part::Link(0, 1),
        from: 2,
    }]);
    assert_holds(
        &search(sbt(2), vec![late], 0),
        &[Completeness],
        "fail-stop at 2",
    );
    // A crashed source excuses everyone.
    let dead = Faults::new(vec![Fault::at_start(Part::Node(0))]);
    assert_holds(
        &search(sbt(3), vec![dead], 0),
        &[Completeness],
        "source down",
    );
}

#[test]
fn ft_trees_informs_every_reachable_node_under_any_d_minus_1_faults() {
    for d in 2..=4u32 {
        let t = ft(d);
        let cube = t.topology().clone();
        for (kind, sets) in [
            ("arcs", faults::arc_fault_sets(&cube, d - 1)),
            ("links", faults::link_fault_sets(&cube, d - 1)),
            ("nodes", faults::node_fault_sets(&cube, d - 1)),
        ] {
            let s = search(ft(d), sets, 0);
            let what = format!("ft-trees d = {d}, {} failed {kind}", d - 1);
            assert_holds(&s, &[Completeness, ContentionFreedom, TimeBound], &what);
        }
    }
    // d faults are too many, whichever kind.
    let cube = ft(3).topology().clone();
    for sets in [
        faults::arc_fault_sets(&cube, 3),
        faults::link_fault_sets(&cube, 3),
        faults::node_fault_sets(&cube, 3),
    ] {
        assert_eq!(
            status(&search(ft(3), sets, 0), Completeness),
            Status::Violated
        );
    }
}

#[test]
fn one_link_fault_breaks_sbt() {
    let cube = sbt(3).topology().clone();
    let s = search(sbt(3), faults::link_fault_sets(&cube, 1), 0);
    assert_eq!(status(&s, Completeness), Status::Violated);
}

#[test]
fn ft_trees_sends_d_copies_to_every_node_but_the_source() {
    for d in 1..=6u32 {
        let model = LockStep::new(Arc::new(ft(d)), vec![5 % (1 << d)]);
        let mut copies = vec![0u32; 1 << d];
        model
            .first_choice_each(0, |s| {
                for tx in &s.sent {
                    let Route::Link { to, .. } = tx.route else {
                        panic!("ft-trees sends over links")
                    };
                    copies[to as usize] += 1;
                }
                Ok::<(), ()>(())
            })
            .unwrap();
        for (v, &c) in copies.iter().enumerate() {
            let want = if v == 5 % (1 << d) { 0 } else { d };
            assert_eq!(c, want, "d = {d}, node {v}");
        }
    }
}

/// The seeded bug: copies of tree 2 go down tree 1's arcs, so two trees
/// share arcs.
struct SharedArcs;

impl Mutation<FtTrees> for SharedArcs {
    type Memory = ();

    fn step(
        &self,
        inner: &FtTrees,
        node: NodeId,
        state: &mut MutantState<Option<NodeId>, ()>,
        slot: Slot,
        arrivals: &[Arrival<Packet>],
        choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let moved: Vec<Arrival<Packet>> = arrivals
            .iter()
            .map(|a| match a.msg.step {
                2 => Arrival {
                    msg: Packet { step: 1, ..a.msg },
                    ..*a
                },
                _ => *a,
            })
            .collect();
        inner.step(node, &mut state.inner, slot, &moved, choice, out)
    }
}

#[test]
fn trees_that_share_an_arc_are_caught_under_faults() {
    let cube = ft(3).topology().clone();
    let s = search(
        Mutant::new(ft(3), SharedArcs),
        faults::arc_fault_sets(&cube, 2),
        0,
    );
    assert_eq!(status(&s, Completeness), Status::Violated);
}

/// The seeded bug: a delay handler that drops what lands late.
struct DropLate;

impl Mutation<Faulty<Sbt>> for DropLate {
    type Memory = ();

    fn step(
        &self,
        inner: &Faulty<Sbt>,
        node: NodeId,
        state: &mut MutantState<<Faulty<Sbt> as Protocol>::State, ()>,
        slot: Slot,
        arrivals: &[Arrival<Packet>],
        choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let landing = state.inner.landing(slot);
        let busy = inner.step(node, &mut state.inner, slot, arrivals, choice, out);
        out.truncate(out.len() - landing);
        busy
    }
}

#[test]
fn a_delay_handler_that_drops_late_packets_is_caught() {
    let s = search(sbt(3), vec![Faults::default()], 1);
    assert_holds(&s, &[Completeness, NoDuplication], "sbt 3 --delay 1");
    assert_eq!(status(&s, TimeBound), Status::Violated, "late is later");
    let buggy = Mutant::new(
        Faulty::new(sbt(3), scenarios(vec![Faults::default()]), 1, true),
        DropLate,
    );
    let inputs = buggy.sourced_inputs(0);
    let s = exhaustive::lockstep(Arc::new(buggy), inputs, BUDGET);
    assert_eq!(status(&s, Completeness), Status::Violated);
}

#[test]
fn the_executor_makes_the_lock_step_run_under_random_faults() {
    for seed in 1..=4 {
        for (name, n) in [
            ("sbt", 6),
            ("nob", 6),
            ("ft-trees", 5),
            ("flood", 5),
            ("mnb", 4),
        ] {
            let algorithm = Algorithm::parse(name).unwrap();
            let cfg = algorithm.config(n, None, None).unwrap();
            models::with_protocol!(algorithm, cfg, |p| {
                let cube_faults = faults::random_faults(p.topology(), 0.08, false, seed);
                let nodes = faults::random_faults(p.topology(), 0.04, true, seed);
                let mut list = cube_faults.list().to_vec();
                list.extend_from_slice(nodes.list());
                let f = Faulty::new(p, scenarios(vec![Faults::new(list)]), 0, false);
                let input = f.first_input();
                let run = executor::run(&f, &input);
                let model = LockStep::new(Arc::new(f), vec![input]);
                let lock = model.first_choice_run(0).record;
                let what = format!("{name} {n}, seed {seed}");
                assert_eq!(run.record.lost, lock.lost, "{what}");
                assert_eq!(run.record.excused, lock.excused, "{what}");
                assert_eq!(run.record.missing, lock.missing, "{what}");
                assert_eq!(run.record.completion, lock.completion, "{what}");
                assert_eq!(run.record.transmissions, lock.transmissions, "{what}");
                for q in properties::PropertyName::ALL {
                    assert_eq!(run.record.violation(q), lock.violation(q), "{what} {q:?}");
                }
            });
        }
    }
}

#[test]
fn the_command_line_refuses_bad_faults_in_one_line() {
    for (args, says) in [
        (vec!["sbt", "3", "--fault", "arc:000->111"], "not linked"),
        (vec!["sbt", "3", "--fault", "node:9"], "not a node"),
        (
            vec!["sbt", "3", "--fault", "edge:000-001"],
            "not arc, link, node or bus",
        ),
        (
            vec!["sbt", "3", "--fault", "link:000-001@0"],
            "a number from 1",
        ),
        (vec!["sbt", "3", "--fault", "000"], "expected arc"),
        (
            vec!["sbt", "3", "--faults", "1", "--engine", "executor"],
            "executor",
        ),
        (
            vec!["sbt", "3", "--faults", "1", "--engine", "actor"],
            "actor model",
        ),
        (vec!["sbt", "3", "--delay", "9"], "out of range"),
        (
            vec!["sbt", "3", "--random-faults", "2"],
            "not a probability",
        ),
        (vec!["simple", "4", "--fault", "bus:X_9"], "not a bus"),
        (vec!["sbt", "3", "--fault", "bus:R_1"], "not buses"),
        (vec!["sbt", "8", "--faults", "3"], "more than"),
    ] {
        let o = check(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn a_reproduce_line_names_the_faults_and_reproduces_the_verdict() {
    let o = check(&["sbt", "3", "--faults", "1", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let c = &report["properties"][0]["counterexample"];
    assert_eq!(c["faults"][0], "link:000-001", "{c}");
    let line = report["reproduce"].as_str().unwrap();
    assert!(line.contains("--fault link:000-001"), "{line}");
    let args: Vec<&str> = line.split_whitespace().skip(1).collect();
    let again = check(&args);
    assert_eq!(again.status.code(), Some(1), "{line}");
    // ft-trees informs everyone where SBT broke; its fault-free count of
    // transmissions is not kept (lost copies are not forwarded).
    let o = check(&["ft-trees", "3", "--faults", "2", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let status = |name: &str| {
        let p = report["properties"].as_array().unwrap().iter();
        p.clone().find(|p| p["name"] == name).unwrap()["status"].clone()
    };
    assert_eq!(status("completeness"), "holds");
    assert_eq!(status("time-bound"), "holds");
    assert_eq!(status("transmissions"), "violated");
}

/// A sweep of fault sets finds its violations in different runs: each
/// violation's counterexample names the run's own command, the text
/// report prints a line a run naming the violations it shows, and each
/// command finds its violation again, observed properties included.
/// (Only the first claim's line was printed, and a rerun of it gave
/// another verdict for a property violated under another fault set.)
#[test]
fn each_violation_of_a_fault_sweep_reproduces_by_its_own_line() {
    for args in [
        &["ft-trees", "3", "--faults", "3"][..],
        &["mesh-sf", "3x3", "--node-faults", "1"][..],
    ] {
        let text = String::from_utf8_lossy(&check(args).stdout).to_string();
        let mut with = args.to_vec();
        with.push("--json");
        let report: serde_json::Value = serde_json::from_slice(&check(&with).stdout).unwrap();
        let mut lines = Vec::new();
        for p in report["properties"].as_array().unwrap() {
            if p["status"] != "violated" {
                continue;
            }
            let line = p["counterexample"]["reproduce"].as_str().unwrap();
            assert!(
                text.contains(&format!("`{line}`")),
                "{args:?}: {line} in\n{text}"
            );
            let words: Vec<&str> = line.split_whitespace().skip(1).collect();
            let mut again = words.clone();
            again.push("--json");
            let again: serde_json::Value = serde_json::from_slice(&check(&again).stdout).unwrap();
            let name = p["name"].as_str().unwrap();
            assert_eq!(
                crate::support::property(&again, name)["status"],
                "violated",
                "{args:?}: {line} reproduces {name}"
            );
            lines.push(line.to_string());
        }
        lines.sort();
        lines.dedup();
        assert!(lines.len() > 1, "{args:?}: violations in more than one run");
        // So no line claims to reproduce the whole report: each names the
        // violations its run shows.
        assert!(!text.contains("note: reproduce with"), "{args:?}:\n{text}");
        for p in report["properties"].as_array().unwrap() {
            if p["status"] == "violated" {
                let (name, line) = (
                    p["name"].as_str().unwrap(),
                    &p["counterexample"]["reproduce"],
                );
                let named = text.lines().any(|l| {
                    l.starts_with("note: reproduce the ")
                        && l.contains(name)
                        && l.ends_with(&format!("`{}`", line.as_str().unwrap()))
                });
                assert!(named, "{args:?}: {name}'s line in\n{text}");
            }
        }
    }
}

#[test]
fn a_counterexample_under_delay_lists_its_late_landings() {
    // mnb 2 with one slot of delay: node 11's copy to 01 lands in slot 2,
    // when 01's schedule already sends it on.
    let o = check(&["mnb", "2", "--delay", "1", "--json", "--threads", "1"]);
    assert_eq!(o.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let causality = crate::support::property(&report, "causality");
    let c = &causality["counterexample"];
    let late = c["late"].as_array().expect("late landings listed");
    assert!(!late.is_empty(), "{c}");
    assert!(
        late.iter()
            .all(|l| l.as_str().unwrap().ends_with("landed 1 slot late")),
        "{c}"
    );
    assert!(
        c["text"].as_str().unwrap().contains("before holding it"),
        "{c}"
    );
}

/// What delays cannot change (models::imperfect): for every schedule of
/// the catalogue that reads no arrival and keeps what it delivers, at a
/// size whose every delay pattern is searched to the end, the full search
/// under one slot of delay gives the verdicts of the on-time runs to
/// completeness, no-duplication, the transmission count and message
/// lengths, while delays change what it finds (more states, and
/// violations of what depends on when things land).
#[test]
fn delays_change_nothing_a_schedule_without_arrivals_delivers() {
    let cases = [
        ("mnb", 2),
        ("mnb-sbt", 2),
        ("mnb-ring", 2),
        ("mnb-floor", 2),
        ("ho-kao", 3),
        ("simple", 2),
        ("partition", 2),
        ("centralize", 2),
    ];
    let mut shown = 0;
    for (name, n) in cases {
        let alg = Algorithm::parse(name).unwrap();
        with_protocol!(alg, alg.config(n, None, None).unwrap(), |p| {
            let f = Faulty::new(p, scenarios(vec![Faults::default()]), 1, true);
            let on = f
                .on_time()
                .unwrap_or_else(|| panic!("{name} reads no arrival"));
            let inputs = f.inputs();
            assert!(inputs.iter().all(|i| f.task(i).is_broadcast()), "{name}");
            let full = exhaustive::lockstep(Arc::new(f), inputs.clone(), BUDGET);
            let on = exhaustive::lockstep(Arc::new(on), inputs, BUDGET);
            assert!(full.cut.is_none() && on.cut.is_none(), "{name}: searched");
            for prop in DELAY_FREE {
                assert_eq!(status(&full, prop), status(&on, prop), "{name}: {prop:?}");
            }
            assert!(full.unique_states > on.unique_states, "{name}");
            let moved = PropertyName::ALL
                .into_iter()
                .any(|q| status(&full, q) == Status::Violated && status(&on, q) == Status::Holds);
            shown += moved as usize;
        })
    }
    assert!(
        shown >= 7,
        "violations only delays show, in {shown} schedules"
    );
    // A task that releases what relays sent on is not such a schedule: a
    // late packet meets its relay's next copy (total exchange, n = 2).
    let alg = Algorithm::TotalExchange;
    with_protocol!(alg, alg.config(2, None, None).unwrap(), |p| {
        let f = Faulty::new(p, scenarios(vec![Faults::default()]), 1, true);
        let on = f.on_time().expect("total exchange reads no arrival");
        let inputs = f.inputs();
        assert!(!f.task(&inputs[0]).is_broadcast());
        let full = exhaustive::lockstep(Arc::new(f), inputs.clone(), BUDGET);
        let on = exhaustive::lockstep(Arc::new(on), inputs, BUDGET);
        assert_eq!(status(&on, NoDuplication), Status::Holds);
        assert_eq!(status(&full, NoDuplication), Status::Violated);
    });
    let o = check(&["total-exchange", "2", "--delay", "1", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let dup = crate::support::property(&report, "no-duplication");
    assert_eq!(dup["status"], "violated", "{report}");
}

/// `check mnb 3 --delay 1` ends at once with its violations: what delays
/// cannot change is judged on the on-time run, and the search stops once
/// every claimed property has its verdict (`settled`); with
/// `--observe-all` (mnb 2, small enough to finish) it searches on to the
/// end and gives every claimed property the same verdict.
#[test]
fn a_delayed_schedule_ends_once_its_claims_have_verdicts() {
    let o = check(&["mnb", "3", "--delay", "1", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let status = |r: &serde_json::Value, name: &str| {
        crate::support::property(r, name)["status"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for name in ["completeness", "no-duplication", "transmissions"] {
        assert_eq!(status(&report, name), "holds", "{name}: {report}");
    }
    for name in ["contention-freedom", "causality", "time-bound"] {
        assert_eq!(status(&report, name), "violated", "{name}: {report}");
    }
    assert_eq!(report["search"]["cut"], "settled", "{report}");
    let notes = report["notes"].to_string();
    assert!(notes.contains("judged on the on-time runs"), "{notes}");
    let claimed = |r: &serde_json::Value| -> Vec<String> {
        let all = r["properties"].as_array().unwrap();
        all.iter()
            .filter(|p| p["claimed"] == true)
            .map(|p| format!("{} {}", p["name"], p["status"]))
            .collect()
    };
    let settled = check(&["mnb", "2", "--delay", "1", "--json"]);
    let settled: serde_json::Value = serde_json::from_slice(&settled.stdout).unwrap();
    let all = check(&["mnb", "2", "--delay", "1", "--json", "--observe-all"]);
    let all: serde_json::Value = serde_json::from_slice(&all.stdout).unwrap();
    assert_eq!(settled["search"]["cut"], "settled");
    assert!(all["search"]["cut"].is_null(), "{all}");
    assert_eq!(claimed(&settled), claimed(&all));
    assert_eq!(claimed(&all).len(), 6);
}

#[test]
fn the_fault_parser_refuses_mutated_text_without_panicking() {
    let cube = Hypercube::new(4, Switching::Sf, Ports::All);
    let grid = models::Grid::new(&[3, 4], false, Switching::Sf, Ports::All);
    let seeds = [
        "arc:0001->0011@2",
        "link:0000-1000",
        "node:0110@1",
        "node:(1,2)",
    ];
    let mut rng = crate::fuzz::Rng(0x5eed);
    for k in 0..4000 {
        let text = crate::fuzz::mutate(seeds[k % seeds.len()], &mut rng);
        for parsed in [Fault::parse(&text, &cube), Fault::parse(&text, &grid)] {
            if let Err(e) = parsed {
                assert_eq!(e.to_string().lines().count(), 1, "{text:?}: {e}");
            }
        }
    }
}

#[test]
fn pictures_cross_out_failed_parts_and_mark_late_landings() {
    use commcheck::engine::search::Space;
    use commcheck::show::picture::draw;
    // SBT on Q2 from 00, both of slot 1's transmissions one slot late.
    let f = Faulty::new(sbt(2), scenarios(vec![Faults::default()]), 1, true);
    let input = f.sourced_inputs(0).remove(0);
    let model = LockStep::new(Arc::new(f), vec![input]);
    let start = model.init(0);
    assert_eq!(
        model.successors(&start),
        4,
        "two transmissions, each on time or late"
    );
    let mut late = start.clone();
    model.successor(&start, 3, &mut late, &mut ());
    assert!(late.sent.is_empty(), "both held back in slot 1");
    let mut landed = late.clone();
    model.successor(&late, 0, &mut landed, &mut ());
    let svg = draw(&model, &landed);
    assert_eq!(svg.matches("<path class='late'").count(), 2, "{svg}");
    assert!(svg.contains("00-&gt;01: landed 1 slot late"), "{svg}");
    // A failed link and a crashed node, crossed out.
    let broken = Faults::new(vec![
        Fault::at_start(Part::Link(0, 1)),
        Fault::at_start(Part::Node(3)),
    ]);
    let f = Faulty::new(sbt(2), scenarios(vec![broken]), 0, false);
    let input = f.sourced_inputs(0).remove(0);
    let model = LockStep::new(Arc::new(f), vec![input]);
    let end = model.first_choice_run(0);
    let svg = draw(&model, &end);
    assert_eq!(svg.matches("class='failed'").count(), 2, "{svg}");
    assert_eq!(svg.matches("class='crashed'").count(), 1, "{svg}");
}

/// `check table robustness`'s cells, against what is known without the
/// checker: a spanning-tree broadcast (sbt on Q_3, farthest-first on the
/// 3 x 3 mesh) loses the subtree below one failed tree link or crashed
/// inner node while it is still reachable, and flooding informs every
/// node still reachable. And every counterexample the table lists
/// reproduces: its command, run as a user would, violates the property
/// the note names.
#[test]
fn the_robustness_table_agrees_and_its_counterexamples_reproduce() {
    use commcheck::table::robustness::{robustness, Verdict};
    let cell = |a: Algorithm, property: &str, dim: usize| {
        let r = robustness(a).unwrap();
        let row = r.rows.iter().find(|(p, _)| *p == property).unwrap();
        (row.1[dim].clone(), r.firsts)
    };
    let mut notes = Vec::new();
    for (a, links, nodes) in [
        (Algorithm::Sbt, Verdict::Upto(0), Verdict::Upto(0)),
        (
            Algorithm::MeshSfFarthest,
            Verdict::Upto(0),
            Verdict::Upto(0),
        ),
        (Algorithm::Flood, Verdict::AtLeast(2), Verdict::AtLeast(2)),
    ] {
        let (got, firsts) = cell(a, "completeness", 0);
        assert_eq!(got, links, "{}: links", a.name());
        assert_eq!(cell(a, "completeness", 1).0, nodes, "{}: nodes", a.name());
        notes.extend(firsts);
    }
    // A mesh-bus's counterexamples (buses and nodes failing) too.
    notes.extend(robustness(Algorithm::Simple).unwrap().firsts);
    assert!(notes.len() >= 10, "{notes:#?}");
    for note in &notes {
        // `ALG SIZE, --FLAG V: PROPERTY: words (`COMMAND`)`
        let property = note.split(": ").nth(1).unwrap();
        let command = note.rsplit_once("(`").unwrap().1.trim_end_matches("`)");
        let args: Vec<&str> = command.split_whitespace().skip(1).collect();
        let mut with = args.clone();
        with.push("--json");
        let o = check(&with);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{note}: {e}: {}", crate::cli::stderr(&o)));
        let found = crate::support::property(&v, property);
        assert_eq!(found["status"], "violated", "{note}: {found}");
    }
}

/// A mesh-bus's buses fail as a whole, and a bus is a shared medium: a
/// write on a failed bus is lost to every reader, a crashed reader gets
/// nothing, and the bus still joins the nodes on either side of a
/// crashed one (which a chain of links through its nodes would not).
#[test]
fn a_mesh_bus_fails_by_buses_and_reaches_past_crashed_nodes() {
    use models::topology::mesh_bus::{Bus, MeshBus};
    let t = MeshBus::new(3);
    let at = |i, j| t.node(i, j);
    let (r1, c1) = (t.bus(Bus::Row(0)), t.bus(Bus::Col(0)));
    assert_eq!(
        Fault::parse("bus:R_1@2", &t),
        Ok(Fault {
            part: Part::Bus(r1 as u64),
            from: 2
        })
    );
    assert!(Fault::parse("bus:R_9", &t)
        .unwrap_err()
        .to_string()
        .contains("not a bus"));
    let cube = Hypercube::new(3, Switching::Sf, Ports::All);
    assert!(Fault::parse("bus:R_1", &cube)
        .unwrap_err()
        .to_string()
        .contains("links, not buses"));
    assert_eq!(faults::link_fault_sets(&t, 1).len(), 1 + 6, "2n buses");

    // Node (0,1) crashed and column bus C_1 down; only (0,0) holds the
    // packet. Row bus R_1 still takes it past (0,1) to (0,2).
    let f = Faults::new(vec![
        Fault::at_start(Part::Node(at(0, 1))),
        Fault::at_start(Part::Bus(c1 as u64)),
    ]);
    let write = t.write(at(0, 0), Bus::Row(0));
    assert!(!f.lost(&t, &write, at(0, 2), 1));
    assert!(f.lost(&t, &write, at(0, 1), 1), "a crashed reader");
    assert!(f.lost(&t, &t.write(at(0, 0), Bus::Col(0)), at(1, 0), 1));
    let mut excused = f.excuser(&t, 5, |v, _| v == at(0, 0));
    assert!(excused(at(0, 1), 0), "crashed");
    assert!(!excused(at(0, 2), 0), "reached past the crashed node");
    assert!(!excused(at(2, 0), 0), "by C_3 and R_3");
    // With R_1 down too, nothing leaves (0,0).
    let mut list = f.list().to_vec();
    list.push(Fault::at_start(Part::Bus(r1 as u64)));
    let f = Faults::new(list);
    let mut excused = f.excuser(&t, 5, |v, _| v == at(0, 0));
    assert!(excused(at(0, 2), 0) && excused(at(2, 2), 0));

    // From the command line: every bus failing, and the arcs refused.
    let o = check(&["simple", "3", "--faults", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a report");
    assert!(v["engine"].as_str().unwrap().contains("lock-step"), "{v}");
    crate::cli::refused(&["simple", "3", "--arc-faults", "1"], &["no direction"]);
}
