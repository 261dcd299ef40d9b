//! The executor and the exhaustive search over MPI ranks (`--features
//! mpi`). Under `mpirun -np 1`, `2`, `3` and `4`, every family's executor
//! run gives the report one process gives, field by field (only the
//! elapsed time may differ), violations and exit codes included; every
//! algorithm's search gives the one-process counts and verdicts (docs/scale.md,
//! "Over MPI ranks").

use models::catalog::Algorithm;
use serde_json::Value;
use std::process::{Command, Output};

const CHECK: &str = env!("CARGO_BIN_EXE_check");

/// `check` with `words`, in this process or under `mpirun -np ranks`.
fn run(ranks: Option<usize>, words: &[&str]) -> Output {
    let mut command = match ranks {
        None => Command::new(CHECK),
        Some(np) => {
            let mut c = Command::new("mpirun");
            c.args(["-np", &np.to_string(), CHECK]);
            c
        }
    };
    // Open MPI refuses root, and more ranks than cores, unless told.
    command
        .args(words)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .output()
        .expect("mpirun runs (the mpi feature needs Open MPI: see README.md)")
}

/// `check ARGS --engine executor --json`, in this process or under
/// `mpirun -np ranks`: its exit code, its report (without the elapsed
/// time) and its standard error.
fn check(ranks: Option<usize>, args: &str) -> (i32, Value, String) {
    report(ranks, &format!("{args} --engine executor"))
}

/// `check ARGS --json`, in this process or under `mpirun -np ranks`: its
/// exit code, its report (without the elapsed time) and its standard
/// error.
fn report(ranks: Option<usize>, args: &str) -> (i32, Value, String) {
    let mut words: Vec<&str> = args.split_whitespace().collect();
    words.push("--json");
    let output = run(ranks, &words);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let mut report: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{args} over {ranks:?}: no report ({e}): {stderr}"));
    report
        .as_object_mut()
        .expect("a report is an object")
        .remove("elapsed_ms");
    (output.status.code().unwrap_or(-1), report, stderr)
}

/// The first field where two reports differ, by its path.
fn first_difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.keys()
                .chain(y.keys())
                .find_map(|k| match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => first_difference(p, q, &format!("{at}.{k}")),
                    _ => Some(format!("{at}.{k}: present in one report only")),
                })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, &format!("{at}[{i}]"))),
        _ => (a != b).then(|| format!("{at}: {a} here, {b} over the ranks")),
    }
}

/// Each run of `cases` over 1 to 4 ranks gives the one-process report;
/// returns how many of them the ranks decided together (not given to
/// rank 0 alone).
fn same_over_ranks(cases: &[&str]) -> usize {
    let mut shared = 0;
    for case in cases {
        let (code, alone, _) = check(None, case);
        for np in 1..=4 {
            let (c, over, stderr) = check(Some(np), case);
            if let Some(d) = first_difference(&alone, &over, "report") {
                panic!("{case} over {np} ranks: {d}\n{stderr}");
            }
            assert_eq!(code, c, "{case} over {np} ranks: exit code");
            let alone = stderr.contains("decided by rank 0 alone");
            let costs = stderr.contains(&format!("over {np} ranks: peak memory"));
            assert!(alone != costs, "{case} over {np} ranks: one note: {stderr}");
            shared += !alone as usize;
        }
    }
    shared
}

#[test]
fn cube_broadcasts_give_the_same_report_over_ranks() {
    // sbt reads its arrivals' senders; nob's codes drop them; ho-kao is
    // one-port; flood delivers a node several copies in a slot.
    let cases = [
        "sbt 5", "dt 6", "nob 7", "ho-kao 5", "flood 5", "snb 4", "esbt 4",
    ];
    assert_eq!(same_over_ranks(&cases), 4 * cases.len(), "none given up");
}

#[test]
fn grids_give_the_same_report_over_ranks() {
    let cases = [
        "mesh-sf 4x4",
        "torus-sf 4x4",
        "mesh-flood 4x5",
        "recursive-doubling 4x4",
    ];
    assert_eq!(same_over_ranks(&cases), 4 * cases.len(), "none given up");
}

#[test]
fn mesh_bus_gossip_gives_the_same_report_over_ranks() {
    let cases = ["simple 4", "partition 4", "centralize 4"];
    assert_eq!(same_over_ranks(&cases), 4 * cases.len(), "none given up");
}

#[test]
fn k_broadcasts_and_multinode_broadcasts_give_the_same_report_over_ranks() {
    // Several arrivals at a node in one slot, from several ranks: the
    // order of a node's arrivals is one process's.
    let cases = [
        "kbcast 4",
        "kbcast-small 4",
        "kbcast-ranked-shifted 4",
        "mnb 4",
        "mna 4",
    ];
    assert_eq!(same_over_ranks(&cases), 4 * cases.len(), "none given up");
}

#[test]
fn personalised_tasks_give_the_same_report_over_ranks() {
    // Holdings by packet: every rank keeps them all (the module header).
    let cases = ["total-exchange 4", "scatter 4", "gather 4"];
    assert_eq!(same_over_ranks(&cases), 4 * cases.len(), "none given up");
}

#[test]
fn violations_give_the_same_report_over_ranks() {
    // Judged by the ranks together: nob-appendix misses nodes (at the
    // end), kbcast-ranked is late (at a receiver), flood copies (at
    // receivers, from several ranks).
    let shared = [
        "nob-appendix 8",
        "kbcast-ranked 4",
        "flood 5",
        "flood 9 --source 341",
    ];
    assert_eq!(same_over_ranks(&shared), 4 * shared.len(), "none given up");
    // Flooding's copies merge into one code a node: on 3 ranks (blocks
    // across dimensions) and 8 (a third top dimension, which its code
    // counts in sender order) copies from lower ranks come after the
    // rank's own and the code must give its own up to them.
    let (code, alone, _) = check(None, "flood 9 --source 341");
    for np in [3, 8] {
        let (c, over, stderr) = check(Some(np), "flood 9 --source 341");
        let d = first_difference(&alone, &over, "report");
        assert!(d.is_none(), "flood over {np} ranks: {d:?}\n{stderr}");
        assert_eq!(
            (code, stderr.contains("decided by rank 0 alone")),
            (c, false)
        );
    }
    for case in ["nob-appendix 8", "kbcast-ranked 4"] {
        let (code, report, _) = check(Some(2), case);
        assert_eq!(code, 1, "{case}: a violated claim: {report}");
    }
    // Contention is the whole network's: rank 0 decides alone.
    let contended = ["naive-tree 6", "mnb-sbt 4", "nob-rule3-printed 7"];
    assert_eq!(same_over_ranks(&contended), 0, "each given to rank 0");
}

/// The report of a search with each counterexample's path left out: a
/// search over ranks goes breadth first and finds one of the shortest,
/// one process the first its depth-first order meets.
fn without_paths(mut report: Value) -> Value {
    for p in report["properties"].as_array_mut().into_iter().flatten() {
        let p = p.as_object_mut().expect("a property is an object");
        if let Some(c) = p.get_mut("counterexample").and_then(Value::as_object_mut) {
            for path in ["text", "slot", "resource", "transmissions", "reproduce"] {
                c.remove(path);
            }
        }
        p.remove("explorer_path");
    }
    report
}

/// Each search of `cases` over 1, 2 and 4 ranks has the one-process
/// counts, verdicts and exit code; a counterexample's path may differ
/// (`without_paths`). Returns the cases with a counterexample.
fn same_search_over_ranks(cases: &[String]) -> usize {
    let mut violated = 0;
    for case in cases {
        let (code, alone, _) = report(None, case);
        violated += (code == 1) as usize;
        for np in [1, 2, 4] {
            let (c, over, stderr) = report(Some(np), case);
            let (a, o) = (without_paths(alone.clone()), without_paths(over.clone()));
            if let Some(d) = first_difference(&a, &o, "report") {
                panic!("{case} over {np} ranks: {d}\n{stderr}");
            }
            assert_eq!(code, c, "{case} over {np} ranks: exit code\n{stderr}");
            assert!(
                stderr.contains(&format!("over {np} ranks: peak memory")),
                "{case} over {np} ranks: the costs note: {stderr}"
            );
        }
    }
    violated
}

/// The smallest size `algorithm` takes on the command line (a torus of
/// the notes' optimal case is 5x5).
fn smallest(algorithm: Algorithm) -> String {
    let first = algorithm.family().sizes().0;
    (first..first + 4)
        .map(|n| n.to_string())
        .chain(["5x5".to_string()])
        .find(|size| {
            let words = [algorithm.name(), size, "--engine", "executor"];
            run(None, &words).status.code() != Some(2)
        })
        .unwrap_or_else(|| panic!("{} takes a small size", algorithm.name()))
}

#[test]
fn every_algorithm_searched_over_ranks_has_the_one_process_counts_and_verdicts() {
    // Each algorithm at its smallest size, by the default exhaustive
    // engine (the lock-step model, and the actor model where it runs).
    let cases: Vec<String> = Algorithm::ALL
        .iter()
        .map(|a| format!("{} {} --engine exhaustive", a.name(), smallest(*a)))
        .collect();
    let violated = same_search_over_ranks(&cases);
    assert!(violated >= 1, "a refuted variant among them: {violated}");
}

#[test]
fn larger_searches_over_ranks_have_the_one_process_counts_and_verdicts() {
    // Every source, several inputs a rank; the actor model's orders of
    // delivery; violations the actor model finds (late deliveries).
    let cases = [
        "nob 3 --all-sources",
        "sbt 4 --engine actor",
        "kbcast-small 3 --engine lockstep",
        "kbcast-ranked 3",
        "naive-tree 4 --engine lockstep",
        "simple 3",
    ];
    let cases: Vec<String> = cases.iter().map(|c| c.to_string()).collect();
    assert!(same_search_over_ranks(&cases) >= 2, "violations among them");
}

#[test]
fn budgets_bind_a_search_over_ranks_and_end_in_unknown() {
    // The state budget counts every rank's states; the memory allowance
    // is each rank's own. Either way the report so far says unknown, with
    // the cut, and exits as one process does.
    for (case, cut) in [
        ("sbt 4 --engine actor --max-states 3000", "max-states"),
        (
            "sbt 5 --engine actor --source 0 --max-memory 0.01",
            "max-memory",
        ),
    ] {
        let (code, alone, _) = report(None, case);
        for np in [2, 4] {
            let (c, over, stderr) = report(Some(np), case);
            assert_eq!(c, code, "{case} over {np} ranks: exit code\n{stderr}");
            let search = &over["actor_search"];
            assert_eq!(search["cut"], cut, "{case} over {np} ranks: {search}");
            let generated = search["generated"].as_u64().expect("a count");
            if cut == "max-states" {
                assert!(
                    (3000..3000 + 64 * np as u64).contains(&generated),
                    "{case} over {np} ranks: stops near the budget: {search}"
                );
            }
            for (a, o) in alone["properties"]
                .as_array()
                .into_iter()
                .flatten()
                .zip(over["properties"].as_array().into_iter().flatten())
            {
                // A cut search decides nothing; what there was nothing to
                // judge (a bus, a common slot) stays "not judged".
                let status = o["status"].as_str().unwrap_or_default();
                assert!(
                    status == "unknown" || (status == "not judged" && o["reason"].is_string()),
                    "{case} over {np} ranks: {o}"
                );
                assert_eq!(a["status"], o["status"], "{case} over {np} ranks");
            }
            assert!(
                crate::support::statuses(&over).contains(&"unknown"),
                "{case} over {np} ranks: {over}"
            );
        }
    }
}

#[test]
fn what_does_not_run_or_fit_over_ranks_is_refused() {
    let output = run(Some(2), &["table", "wang-ku"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("only `check` runs"), "{stderr}");
    assert_eq!(output.status.code(), Some(2), "a refusal: {stderr}");
    // A size that does not fit is refused by every rank alike (rank 0's
    // allowance decides), before anything is allocated.
    let output = run(Some(2), &["nob", "28", "--max-memory", "1"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("largest n that fits"), "{stderr}");
    assert_eq!(output.status.code(), Some(2), "a refusal: {stderr}");
}

/// `--timeout` binds an executor run over ranks: each rank reads it
/// between slots and every 16,384 of its nodes inside one, the ranks
/// agree to end the run before a slot one of them left unfinished, and
/// nothing is judged of what the run did not reach (no verdict but
/// unknown where `mnb` breaks nothing). `mnb 15` runs for more than ten
/// seconds in one process.
#[test]
fn a_budget_binds_an_executor_run_over_ranks() {
    for np in [2, 3] {
        let start = std::time::Instant::now();
        let (code, over, stderr) = check(Some(np), "mnb 15 --timeout 1");
        let took = start.elapsed();
        assert_eq!(code, 3, "over {np} ranks: {stderr}");
        assert!(took.as_secs_f64() < 8.0, "over {np} ranks: {took:?}");
        let notes = over["notes"].to_string();
        assert!(notes.contains("the executor stopped in slot"), "{over}");
        assert!(
            !crate::support::statuses(&over).contains(&"VIOLATED"),
            "over {np} ranks: {over}"
        );
    }
}
