//! Budgets bind: a search stops within its state, time and memory budget
//! with exit code 3 and a report of how far it got; a size that does not
//! fit is refused before anything is allocated; Ctrl-C ends a check with
//! its report. The memory cases run the binary under `ulimit -v`, where an
//! allocation past the limit would abort the process.

use commcheck::engine::exhaustive::{self, Budget};
use commcheck::engine::search::Cut;
use models::catalog::Config;
use models::wang_ku::nob::{Levels, Nob};
use models::{Ports, ProtocolExt, Switching};
use std::process::{Command, Output};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `check` with `args` under an address-space limit of `kb` (`ulimit -v`).
fn check_limited(kb: u64, args: &[&str]) -> Output {
    let command = format!("ulimit -v {kb} && exec \"$0\" \"$@\"",);
    Command::new("sh")
        .arg("-c")
        .arg(command)
        .arg(env!("CARGO_BIN_EXE_check"))
        .args(args)
        .output()
        .expect("run check under ulimit")
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "one JSON object ({e}); stderr: {}",
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

fn nob(n: u32) -> Arc<Nob> {
    let cfg = Config {
        n,
        switching: Switching::Wh,
        ports: Ports::All,
        params: Default::default(),
    };
    Arc::new(Nob::new(cfg, Levels::Text))
}

#[test]
fn max_states_binds_within_one_batch_of_successors() {
    // nob 11 from one source: one slot has millions of rule-3 combinations.
    let p = nob(11);
    let inputs = vec![p.source_input(0).unwrap()];
    let budget = Budget {
        threads: 2,
        max_states: Some(1000),
        timeout: None,
        memory: None,
        verify_probes: false,
        settle: None,
    };
    let start = Instant::now();
    let s = exhaustive::lockstep(p, inputs, budget);
    assert_eq!(s.cut, Some(Cut::States));
    // Workers count in batches of 32 generated states.
    assert!(s.generated <= 1000 + 2 * 32, "{} generated", s.generated);
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[test]
fn budget_cases_under_an_address_space_limit_end_with_a_report() {
    // Each was an abort or an 11 GB peak before the search was lazy.
    for args in [
        &[
            "nob",
            "11",
            "--engine",
            "lockstep",
            "--max-states",
            "1000",
            "--json",
        ][..],
        &[
            "nob",
            "12",
            "--engine",
            "lockstep",
            "--source",
            "0",
            "--max-states",
            "1000",
            "--json",
        ][..],
        &[
            "nob",
            "11",
            "--engine",
            "lockstep",
            "--timeout",
            "2",
            "--json",
        ][..],
    ] {
        let o = check_limited(4_000_000, args);
        assert_eq!(
            o.status.code(),
            Some(3),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v = json(&o);
        let search = &v["search"];
        assert!(search["cut"].is_string(), "{args:?}: {v}");
        assert!(search["generated"].as_u64().unwrap() > 0, "{args:?}");
        assert!(search["depth"].as_u64().unwrap() > 0, "{args:?}");
        assert_eq!(search["inputs_done"], 0, "{args:?}");
        let notes = v["notes"].to_string();
        assert!(notes.contains("search stopped"), "{args:?}: {notes}");
    }
}

#[test]
fn a_timeout_stops_the_search_within_a_second_of_it() {
    let o = check_limited(
        4_000_000,
        &[
            "nob",
            "10",
            "--engine",
            "lockstep",
            "--timeout",
            "2",
            "--json",
        ],
    );
    assert_eq!(o.status.code(), Some(3));
    let v = json(&o);
    assert_eq!(v["search"]["cut"], "timeout");
    let ms = v["elapsed_ms"].as_u64().unwrap();
    // 2 s plus the second the budget promises, plus slack for a loaded machine.
    assert!(ms < 4_000, "stopped after {ms} ms");
}

#[test]
fn the_memory_allowance_stops_a_search_before_the_limit() {
    // sbt 5's asynchronous search needs a 32 MB visited table; allow 20 MB.
    let o = check_limited(
        3_000_000,
        &[
            "sbt",
            "5",
            "--engine",
            "actor",
            "--max-memory",
            "0.02",
            "--json",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = json(&o);
    assert_eq!(v["actor_search"]["cut"], "max-memory", "{v}");
    assert!(v["notes"].to_string().contains("memory allowance"));
}

/// Under a 3 GB address space (the dense drive's NOB takes about 10.3
/// bytes a node: 2^28 nodes 2.8 GB, 2^29 5.5 GB), the sizes past it are
/// refused, with the largest that fits named, before anything is built.
#[test]
fn sizes_that_do_not_fit_are_refused_before_anything_is_allocated() {
    for args in [
        &["nob", "30"][..],
        &["nob", "29", "--engine", "executor"][..],
        &["sbt", "29", "--engine", "executor"][..],
        // A node takes up to d copies a slot: 2^24 nodes' arrivals.
        &["ft-trees", "24"][..],
    ] {
        let o = check_limited(3_000_000, args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("the largest n that fits is"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_timeout_too_long_for_the_clock_means_no_deadline() {
    let o = check_limited(4_000_000, &["nob", "3", "--timeout", "9223372036854775807"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `check` with `args`, sent SIGINT (Ctrl-C) after 1.5 s; its output, and
/// how long it took to stop after the signal. It must exit with 3.
fn interrupted(args: &[&str]) -> (Output, Duration) {
    interrupted_with(args, 3)
}

/// [`interrupted`], exiting with `code`.
fn interrupted_with(args: &[&str], code: i32) -> (Output, Duration) {
    signalled(args, libc::SIGINT, code)
}

/// `check` with `args`, sent `signal` after 1.5 s, exiting with `code`.
fn signalled(args: &[&str], signal: libc::c_int, code: i32) -> (Output, Duration) {
    signalled_after(args, signal, code, Duration::from_millis(1500))
}

/// [`signalled`], the signal sent `after` the start.
fn signalled_after(
    args: &[&str],
    signal: libc::c_int,
    code: i32,
    after: Duration,
) -> (Output, Duration) {
    let child = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start check");
    std::thread::sleep(after);
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
    let start = Instant::now();
    let o = child.wait_with_output().expect("check ends");
    assert_eq!(
        o.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    (o, start.elapsed())
}

/// An alltoall of `n` ranks in commcheck's format, every send ready at
/// once and in no order: on one port a rank's sends go in any order, so
/// the lock-step search has every interleaving of the ranks' orders.
fn unordered_alltoall(n: u32) -> String {
    let mut ops = Vec::new();
    for r in 0..n {
        for q in (0..n).filter(|&q| q != r) {
            ops.push(serde_json::json!({"rank": r, "send": {"to": q, "chunks": [r * n + q]}}));
            ops.push(serde_json::json!({"rank": q, "recv": {"from": r, "chunks": [r * n + q]}}));
        }
    }
    serde_json::json!({"format": "commcheck-schedule", "version": 1, "ranks": n,
        "collective": {"name": "alltoall"}, "ops": ops})
    .to_string()
}

/// A schedule's search has no measured reach: started without a budget,
/// it says before it starts (by the estimate of its tree along one run,
/// not after running a while) that it may not end within a minute and
/// names the default budget and the flags; one that ends at once says
/// nothing of the kind.
#[test]
fn a_long_schedule_search_says_so_before_it_starts() {
    let file = crate::support::TempFile::new("alltoall-8.json", &unordered_alltoall(8));
    let f = file.0.to_str().unwrap();
    let args = [
        "schedule",
        f,
        "--network",
        "hypercube:3",
        "--switching",
        "wh",
        "--ports",
        "one",
    ];
    let after = commcheck::check::run::STILL_RUNNING + Duration::from_millis(1500);
    // Its worms meet in the first slot: exit 1, the search unfinished.
    let (o, _) = signalled_after(&args, libc::SIGINT, 1, after);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("the search may not end within a minute: along one run")
            && err.contains("stops after 60 s")
            && err.contains("--timeout none"),
        "{err}"
    );
    // Said once, up front: not again by the search that has run a while.
    assert!(!err.contains("the search has run"), "{err}");
    let small = crate::support::TempFile::new("alltoall-2.json", &unordered_alltoall(2));
    let small = small.0.to_str().unwrap();
    let o = crate::cli::check(&["schedule", small, "--network", "hypercube:1"]);
    let err = crate::cli::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("may not end"), "{err}");
}

/// Ctrl-C, and SIGTERM (what `timeout`, CI and job schedulers send),
/// stop a check promptly with its report so far, exit 3.
#[test]
fn ctrl_c_or_sigterm_ends_a_check_with_its_report_and_exit_3() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let args = [
            "nob",
            "10",
            "--engine",
            "lockstep",
            "--timeout",
            "120",
            "--json",
        ];
        let (o, stopping) = signalled(&args, signal, 3);
        assert!(
            stopping < Duration::from_secs(5),
            "{signal}: it stopped promptly"
        );
        let v = json(&o);
        assert_eq!(v["search"]["cut"], "interrupted", "{signal}");
        assert!(
            v["notes"]
                .to_string()
                .contains("interrupted (Ctrl-C or SIGTERM)"),
            "{signal}: {v}"
        );
        let statuses = crate::support::statuses(&v);
        assert!(statuses.contains(&"unknown"), "{signal}: {statuses:?}");
    }
}

/// SIGTERM, SIGHUP and Ctrl-C end `check optimal`, a long table and the
/// claims ledger as they end a check: what was found so far, exit 3,
/// promptly (each of these runs for minutes otherwise).
#[test]
fn signals_end_optimal_tables_and_the_ledger_with_what_they_have() {
    let cases: [(&[&str], &str); 3] = [
        (
            &["optimal", "alltoall", "hypercube:5", "--switching", "wh"],
            "stopped by an interrupt",
        ),
        (&["table", "robustness"], "interrupted: "),
        (&["claims"], "not judged: the ledger was interrupted"),
    ];
    let signals = [libc::SIGTERM, libc::SIGHUP, libc::SIGINT];
    for (signal, (args, said)) in signals.into_iter().zip(cases) {
        let (o, stopping) = signalled(args, signal, 3);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            stopping < Duration::from_secs(10),
            "{args:?}: {signal} took {stopping:?}"
        );
        assert!(out.contains(said), "{args:?}: {signal}: {out}");
    }
}

#[test]
fn ctrl_c_stops_the_executor_too() {
    let (o, _) = interrupted(&["flood", "24", "--engine", "executor", "--json"]);
    let v = json(&o);
    assert!(
        v["notes"]
            .to_string()
            .contains("the executor stopped in slot"),
        "{v}"
    );
    assert!(
        v["notes"]
            .to_string()
            .contains("interrupted (Ctrl-C or SIGTERM)"),
        "{v}"
    );
}

/// --timeout binds the executor's one run as it binds a search: mnb 15
/// takes more than 10 s (BENCHMARKS.md).
#[test]
fn timeout_stops_the_executor_too() {
    let start = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["mnb", "15", "--timeout", "1", "--json"])
        .output()
        .expect("run check");
    assert!(
        start.elapsed() < Duration::from_secs(8),
        "it stopped promptly"
    );
    assert_eq!(o.status.code(), Some(3), "undecided");
    let v = json(&o);
    let notes = v["notes"].to_string();
    assert!(notes.contains("the executor stopped in slot"), "{v}");
    assert!(notes.contains("--timeout"), "{v}");
    assert!(v["properties"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["status"] == "unknown"));
}

/// Ctrl-C stops a trace (one-port scatter on the 16-cube, 65,535 slots,
/// about 17 s) at its next slot, says so, and removes the partial file.
#[test]
fn ctrl_c_stops_a_trace_and_leaves_no_file() {
    let file = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("interrupted.jsonl");
    let f = file.to_str().unwrap();
    let (o, stopping) = interrupted_with(&["scatter", "16", "--ports", "one", "--trace", f], 2);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--trace interrupted (Ctrl-C or SIGTERM)"),
        "{err}"
    );
    assert!(!file.exists(), "the partial trace is removed");
    assert!(stopping < Duration::from_secs(5), "{stopping:?}");
}

/// One cost model refuses executor runs, the catalogue's, before anything
/// is built: it must never promise less than a built run takes. For every
/// algorithm at sizes 1..=6 (where each builds fast), the catalogue's
/// bytes are at least the built run's (`executor::memory_needed`: states,
/// inboxes, holdings, busy bits).
#[test]
fn the_catalogue_cost_model_covers_what_a_built_run_needs() {
    use commcheck::engine::executor;
    use models::catalog::Algorithm;
    use models::with_protocol;
    let mut short = Vec::new();
    for &algorithm in Algorithm::ALL {
        let (lo, hi) = algorithm.family().sizes();
        for n in lo.max(1)..=hi.min(6) {
            let Ok(config) = algorithm.config(n as u64, None, None) else {
                continue;
            };
            let config = match algorithm.family() {
                models::Family::Grid { .. } => Config {
                    params: models::catalog::Params {
                        sides: Some(vec![n, n]),
                        ..config.params.clone()
                    },
                    ..config
                },
                _ => config,
            };
            if matches!(algorithm, Algorithm::DilatedDiagonal) && n != 5 {
                continue;
            }
            let (built, promised) = with_protocol!(algorithm, config, |p| {
                let input = p.first_input();
                (
                    executor::memory_needed(&p, &p.task(&input)),
                    algorithm.executor_bytes(n),
                )
            });
            if promised < built {
                short.push(format!(
                    "{} n = {n}: the catalogue says {promised} bytes, a built run needs {built}",
                    algorithm.name()
                ));
            }
        }
    }
    assert!(short.is_empty(), "{short:#?}");
}

#[test]
fn a_cut_search_says_its_time_is_only_a_floor() {
    // total-exchange 4 runs 1 024 variants; 3 000 states finish some of
    // them, so a worst time is known, but only of the runs finished.
    let args = ["total-exchange", "4", "--max-states", "3000"];
    let out = |json: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_check"));
        c.args(args);
        // --quiet beside --json is refused: JSON is quiet already.
        c.arg(if json { "--json" } else { "--quiet" });
        c.output().expect("check runs")
    };
    let o = out(true);
    assert_eq!(o.status.code(), Some(3));
    let v = json(&o);
    assert_eq!(v["search"]["cut"], "max-states", "{v}");
    assert!(v["time"]["measured"].as_u64().is_some(), "{v}");
    assert_eq!(v["time"]["at_least"], true, "{v}");
    let text = String::from_utf8_lossy(&out(false).stdout).into_owned();
    assert!(text.contains("time: measured at least "), "{text}");
    // A finished search claims its worst time outright.
    let whole = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["total-exchange", "3", "--json"])
        .output()
        .unwrap();
    let v = json(&whole);
    assert!(v["time"].get("at_least").is_none(), "{v}");
}

/// `check optimal` lists every pair's routes before it counts: --timeout
/// binds that listing too (the 12-cube's 16 million routes take longer
/// than the second allowed), and a network whose table of pairs would not
/// fit is refused in one line.
#[test]
fn a_timeout_stops_check_optimal_while_it_lists_routes() {
    stopped_optimal("broadcast", "hypercube:12", 8);
    let o = check_limited(3_000_000, &["optimal", "broadcast", "hypercube:14"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        (o.status.code(), err.lines().count()),
        (Some(2), 1),
        "{err}"
    );
    assert!(err.contains("on at most 8192 nodes"), "{err}");
}

/// A sweep shares its --timeout: `kbcast-random 4 --all-k` checks the 16
/// values of K (1 to 2^4), most alone longer than the two seconds given
/// (it took 28.5 s when each had its own); it stops with exit 3 and says
/// how many it checked.
#[test]
fn a_sweep_shares_its_timeout() {
    let start = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["kbcast-random", "4", "--all-k", "--timeout", "2", "--json"])
        .output()
        .expect("run check");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "it stopped promptly: {err}"
    );
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("of the sweep's 16 checks; the rest were not run"),
        "{err}"
    );
}

/// The SAT side of `check optimal` stops while it writes its formula: an
/// alltoall on the 5-cube's worms takes gigabytes and minutes to encode
/// (it ran past 60 s with --timeout 3 when only the solver looked).
#[test]
fn a_timeout_stops_check_optimal_while_it_writes_a_formula() {
    stopped_optimal("alltoall", "hypercube:5", 15);
}

/// `check optimal TASK NETWORK --switching wh --timeout 1` ends within
/// `seconds` (a bound for a loaded machine, not a speed target), exit
/// 3, nothing found, the certificate naming the timeout.
fn stopped_optimal(task: &str, network: &str, seconds: u64) {
    let start = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["optimal", task, network, "--switching", "wh"])
        .args(["--timeout", "1", "--json"])
        .output()
        .expect("run check");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        start.elapsed() < Duration::from_secs(seconds),
        "{task} on {network} stopped promptly: {err}"
    );
    assert_eq!(o.status.code(), Some(3), "{err}");
    let v = json(&o);
    assert!(v["slots"].is_null(), "{v}");
    assert!(v["certificate"].to_string().contains("--timeout"), "{v}");
}

/// Without --timeout, `check optimal` runs under the default budget and
/// its report names it with the flag that lifts it (the command line's
/// default is a minute; here it is a second, on the alltoall above).
#[test]
fn check_optimal_runs_under_a_default_budget_it_names() {
    use commcheck::check::optimal::{optimal, OptimalRequest};
    let net = "hypercube:5".parse().unwrap();
    let req = OptimalRequest {
        default_timeout: Some(Duration::from_secs(1)),
        ..OptimalRequest::new("alltoall", net, Switching::Wh, Ports::All)
    };
    let start = Instant::now();
    let report = optimal(&req).unwrap();
    assert!(start.elapsed() < Duration::from_secs(15), "it stopped");
    assert!(
        report.stopped && report.slots.is_none(),
        "{}",
        report.text()
    );
    let named = "the default budget of 1 s (--timeout none lifts it)";
    assert_eq!(report.stopped_by, named);
    assert!(report.text().contains(named), "{}", report.text());
}

/// A sweep of fault sets makes each set when its run starts: 1.7 million
/// sets of up to 4 of the 5-cube's 80 links took 1.7 GB before the first
/// state when they were listed; under a 1 GB address space the check now
/// runs to its budget and reports.
#[test]
fn a_fault_sweep_is_made_as_it_is_checked() {
    let o = check_limited(
        1_000_000,
        &[
            "ft-trees",
            "5",
            "--faults",
            "4",
            "--max-states",
            "20000",
            "--json",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    let v = json(&o);
    assert_eq!(v["search"]["cut"], "max-states", "{err}");
    // The transmissions claim fails on a set found early; what was not
    // reached is unknown, not "holds".
    assert_eq!(o.status.code(), Some(1), "{err}");
    let verdict = |name: &str| crate::support::property(&v, name)["status"].clone();
    assert_eq!(verdict("transmissions"), "violated", "{v}");
    assert_eq!(verdict("completeness"), "unknown", "{v}");
}

/// A search started without a budget runs under the default one, and its
/// report names it: `mnb 3 --delay 1 --observe-all` branches on every
/// transmission's delay (2^23 ways in one slot) and never ends; its
/// violations come within a second (without `--observe-all` it stops
/// there). The command line's default is a minute; here the same
/// default, one second, binds, and the note says before the search that
/// it may, and after it that it did. A budget given replaces it, and a
/// library's check has none.
#[test]
fn a_search_without_a_budget_runs_under_the_default_one_and_says_so() {
    use commcheck::check::{check, Request};
    let mut req = Request::new(
        models::catalog::Algorithm::parse("mnb").unwrap(),
        3,
        None,
        None,
    )
    .unwrap();
    req.options.machine.delay = 1;
    req.options.observe_all = true;
    req.options.default_timeout = Some(Duration::from_secs(1));
    let start = Instant::now();
    let outcome = check(&req).unwrap();
    assert!(start.elapsed() < Duration::from_secs(30), "it was cut");
    let notes = outcome.notes.join("\n");
    assert!(notes.contains("may not end within a minute"), "{notes}");
    assert!(
        notes.contains("the default time budget of 1 s ran out"),
        "{notes}"
    );
    let text = outcome.text();
    assert!(text.contains("causality           VIOLATED"), "{text}");
    // Judged on the on-time run, which every delay pattern matches.
    assert!(text.contains("completeness        holds"), "{text}");
    // `--timeout none` is no deadline, and no default either.
    let o = crate::cli::check(&["nob", "3", "--timeout", "none", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", crate::cli::stderr(&o));
    assert!(!json(&o)["notes"].to_string().contains("default"));
}

/// The executor looks at its budget while it judges a slot, not only
/// between slots: slot 139 of `centralize-fixed 256` (every node hears
/// 65,536 tokens) took 12 s to judge, so `--timeout 4` ended after 15 s.
#[test]
fn a_timeout_stops_the_executor_inside_a_slot() {
    let start = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["centralize-fixed", "256", "--timeout", "4"])
        .output()
        .expect("run check");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "stopped promptly: {out}"
    );
    assert_eq!(o.status.code(), Some(3), "{out}");
    assert!(out.contains("the executor stopped in slot"), "{out}");
}

/// Every algorithm of the catalogue at the largest size it accepts, under
/// a 4 GB address space and a 3 s budget, ends with a report or a
/// one-line refusal: no abort where an allocation fails, no signal, no
/// exit code outside 0-3 (`ft-trees 24` aborted on a failed 1 GB
/// allocation where the others were refused up front).
#[test]
fn every_algorithm_at_its_largest_size_ends_with_a_report_or_a_refusal() {
    use models::catalog::Algorithm;
    for &algorithm in Algorithm::ALL {
        let n = match algorithm.name() {
            // The notes' optimal case, the square tori T(5^k, 5^k).
            "dilated-diagonal" => "3125x3125".to_string(),
            _ => algorithm.family().sizes().1.to_string(),
        };
        let args = [algorithm.name(), &n, "--timeout", "3", "--json"];
        let o = check_limited(4_000_000, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        match o.status.code() {
            Some(2) => assert_eq!(err.lines().count(), 1, "{args:?}: {err}"),
            Some(0..=3) => {
                json(&o);
            }
            code => panic!("{args:?}: exit {code:?}: {err}"),
        }
    }
}

/// A budget that cuts an executor run after it met a conflict whose first
/// holder a replay names (mnb-sbt's worms meet) reports the conflict,
/// not a panic: the replay is cut by the same budget, and the holder is
/// left unnamed.
#[test]
fn a_budget_that_cuts_the_replay_of_a_conflict_is_no_panic() {
    let o = crate::cli::check(&["mnb-sbt", "15", "--timeout", "1"]);
    let (out, err) = (crate::cli::stdout(&o), crate::cli::stderr(&o));
    assert!(matches!(o.status.code(), Some(1 | 3)), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.contains("contention-freedom"), "{out}");
}

/// A model that takes seconds to build (gather's balanced tree on the
/// 25-cube: 33 million nodes) is waited for only as long as `--timeout`
/// allows: exit 3, nothing judged, said in one line.
#[test]
fn a_budget_binds_while_the_model_is_built() {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["gather", "25", "--timeout", "1"])
        .output()
        .expect("run check");
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains(
            "gather n=25: the time budget (--timeout) ran out while its model was being built; \
             nothing was judged"
        ),
        "{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        took < Duration::from_secs(20),
        "it waited for the build: {took:?}"
    );
}

/// A schedule whose file is still being read when `--timeout` runs out
/// (a pipe whose writer has written its first line and waits) is waited
/// for only as long as the budget allows: exit 3, nothing judged, said
/// in one line. (A 40 MB file took 6 s to read under `--timeout 1`.)
#[test]
fn a_budget_binds_while_a_schedule_is_read() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("commcheck-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("endless.goal");
    let _ = std::fs::remove_file(&fifo);
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0, "mkfifo");
    let mut child = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["schedule", fifo.to_str().unwrap()])
        .args([
            "--format",
            "goal",
            "--network",
            "hypercube:1",
            "--timeout",
            "1",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run check");
    let start = Instant::now();
    // Opening blocks until the check opens its end; the writer is held
    // (never closed) until the check has ended.
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    writer.write_all(b"num_ranks 2\n").unwrap();
    let ended = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = start.elapsed();
    drop(writer);
    let out = child.wait_with_output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(ended.is_some(), "still reading after {took:?}: {err}");
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("the time budget (--timeout) ran out while its model was being built; nothing was judged"),
        "{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(took < Duration::from_secs(10), "it waited: {took:?}");
}

/// A rank of k unordered copies that all touch one position has 2^k
/// ways to order its local work within one slot, listed within one
/// state's successors: the budget stops the listing too (k = 16 took 10 s
/// under `--timeout 2`, k = 20 more than a minute), and what the search
/// did not reach is unknown, not "holds".
#[test]
fn a_budget_binds_while_a_slots_local_orders_are_listed() {
    let (o, took) = listing_under("time", &["--timeout", "1"]);
    let v = json(&o);
    assert!(took < Duration::from_secs(10), "it listed on: {took:?}");
    // The race the timing-free pass finds stands; the lock-step
    // properties are unknown where the listing was cut.
    assert_eq!(o.status.code(), Some(1), "{v}");
    let status = |name: &str| {
        v["properties"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .map(|p| p["status"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(status("race-freedom"), "violated", "{v}");
    for name in ["completeness", "contention-freedom", "matching"] {
        assert_eq!(status(name), "unknown", "{name}: {v}");
    }
}

/// A schedule whose rank 1 takes k copies that all touch one position
/// and that nothing orders, after a receive: 2^k orders of its local work
/// within one slot. Written to a temporary file named by `tag`.
fn unordered_copies(k: usize, tag: &str) -> std::path::PathBuf {
    let copies: Vec<String> = (0..k)
        .map(|i| format!(r#"{{"rank": 1, "label": "c{i}", "copy": {{"from": 0, "to": 0}}}}"#))
        .collect();
    let file = std::env::temp_dir().join(format!(
        "commcheck-copies-{tag}-{}.json",
        std::process::id()
    ));
    std::fs::write(
        &file,
        format!(
            r#"{{"format": "commcheck-schedule", "version": 1, "ranks": 2,
                "collective": {{"name": "broadcast", "root": 0}},
                "ops": [{{"rank": 0, "label": "s", "send": {{"to": 1, "chunks": [0]}}}},
                        {{"rank": 1, "label": "r", "recv": {{"from": 0, "chunks": [0]}}}},
                        {}]}}"#,
            copies.join(",\n")
        ),
    )
    .unwrap();
    file
}

/// `check` on 24 unordered copies ([`unordered_copies`]) under the
/// `budget` flags, with `--json`: its output and how long it took.
fn listing_under(tag: &str, budget: &[&str]) -> (Output, Duration) {
    let file = unordered_copies(24, tag);
    let start = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["schedule", file.to_str().unwrap()])
        .args(["--network", "hypercube:1", "--json"])
        .args(budget)
        .output()
        .expect("run check");
    let took = start.elapsed();
    std::fs::remove_file(&file).unwrap();
    (o, took)
}

/// The memory allowance stops the listing of a slot's orders within it:
/// the listing's set of states seen doubles as it grows, so the stop is
/// asked before each growth with the bytes it will take (when asked only
/// every 1,024 steps, a 0.15 GB allowance peaked at 237 MB).
#[test]
fn the_memory_allowance_binds_while_a_slots_local_orders_are_listed() {
    let file = unordered_copies(24, "memory");
    let mut child = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["schedule", file.to_str().unwrap()])
        .args(["--network", "hypercube:1", "--timeout", "none"])
        .args(["--max-memory", "0.15", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run check");
    let (code, peak_kb) = wait_with_peak(&mut child);
    let mut stdout = Vec::new();
    std::io::Read::read_to_end(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    std::fs::remove_file(&file).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&stdout).expect("one JSON object");
    assert_eq!(code, 1, "{v}");
    assert!(
        v["notes"]
            .to_string()
            .contains("orders of local work were listed"),
        "{v}"
    );
    // 0.15 GB and the promised 10 %.
    assert!(peak_kb * 1024 <= 165_000_000, "peak {peak_kb} kB");
}

/// `--max-states` binds a listing of a slot's orders too (its local
/// states counted as the search's are): with it alone, the default
/// minute is lifted and nothing else stopped the listing.
#[test]
fn the_state_budget_binds_while_a_slots_local_orders_are_listed() {
    let (o, took) = listing_under("states", &["--max-states", "1000"]);
    let v = json(&o);
    assert!(took < Duration::from_secs(20), "it listed on: {took:?}");
    assert_eq!(o.status.code(), Some(1), "{v}");
    assert!(
        v["notes"]
            .to_string()
            .contains("orders of local work were listed"),
        "{v}"
    );
}

/// Where no budget is given, the default the search runs under (the
/// command line's minute) binds the listing of a slot's orders too: it
/// read only `--timeout`, so a real file listed on past the minute.
#[test]
fn the_default_budget_binds_while_a_slots_local_orders_are_listed() {
    use commcheck::check::schedule::{check_schedule, ScheduleRequest};
    let file = unordered_copies(24, "default");
    let mut req = ScheduleRequest::new(file.clone(), "hypercube:1".parse().unwrap());
    req.options.default_timeout = Some(Duration::from_secs(1));
    let start = Instant::now();
    let outcome = check_schedule(&req);
    let took = start.elapsed();
    std::fs::remove_file(&file).unwrap();
    let outcome = outcome.expect("the schedule is checked");
    assert!(took < Duration::from_secs(10), "it listed on: {took:?}");
    let status = |name: &str| {
        let p = outcome.properties.iter().find(|p| p.name == name);
        p.map(|p| p.status).unwrap_or_else(|| panic!("{name}"))
    };
    use properties::Status;
    assert_eq!(status("race-freedom"), Status::Violated);
    for name in ["completeness", "contention-freedom", "matching"] {
        assert_eq!(status(name), Status::Unknown, "{name}");
    }
}

/// Waits for `child`: its exit code and its peak resident size in kB, as
/// last read from its /proc status while it ran (every millisecond: the
/// peak is a high-water mark, held until the process ends). The kernel's
/// own count for a waited child (`wait4`) starts from the size of the
/// process that spawned it, the whole test binary here.
fn wait_with_peak(child: &mut std::process::Child) -> (i32, u64) {
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0;
    loop {
        if let Some(hwm) = std::fs::read_to_string(&status).ok().and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        }) {
            peak_kb = peak_kb.max(hwm);
        }
        if let Some(exit) = child.try_wait().expect("wait for check") {
            return (exit.code().expect("an exit code"), peak_kb);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A protocol whose nodes take at least `init_us` microseconds to set up
/// and `step_us` to step, and count both; it gives the dense drive's
/// codes (every state is the one code 0), so that every drive runs it.
struct Slow {
    cube: models::Hypercube,
    init_us: u64,
    step_us: u64,
    inits: std::sync::atomic::AtomicUsize,
    steps: std::sync::atomic::AtomicUsize,
}

/// At least `us` microseconds of work.
fn spin(us: u64) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_micros(us) {
        std::hint::spin_loop();
    }
}

impl models::Protocol for Slow {
    type Topo = models::Hypercube;
    type Input = properties::NodeId;
    type State = ();
    type Msg = properties::PacketId;

    fn topology(&self) -> &models::Hypercube {
        &self.cube
    }
    fn domain(&self) -> impl models::Inputs<properties::NodeId> + '_ {
        models::Sources::of(&self.cube)
    }
    fn claims(&self) -> properties::Claims {
        properties::Claims::bounded(0, 1)
    }
    fn init(&self, _: &properties::NodeId, _: properties::NodeId) {
        self.inits
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        spin(self.init_us);
    }
    fn packets(&self, &packet: &properties::PacketId, mut f: impl FnMut(properties::PacketId)) {
        f(packet)
    }
    fn step(
        &self,
        _: properties::NodeId,
        _: &mut (),
        _: properties::Slot,
        _: &[models::Arrival<properties::PacketId>],
        _: u32,
        _: &mut Vec<properties::Transmission<properties::PacketId>>,
    ) -> bool {
        self.steps
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        spin(self.step_us);
        false
    }
    const PACKS: bool = true;
    fn codes(
        &self,
    ) -> Option<impl models::Codes<properties::NodeId, (), properties::PacketId> + '_> {
        Some(self)
    }
}

impl models::Codes<properties::NodeId, (), properties::PacketId> for &Slow {
    fn pack_state(&self, _: &properties::NodeId, _: properties::NodeId, _: &()) -> Option<u16> {
        Some(0)
    }
    fn unpack_state(&self, _: &properties::NodeId, _: properties::NodeId, _: u16) {}
}

/// The executor reads the budget inside its passes over the nodes, not
/// only between slots: a pass over 2^20 slow nodes (a second or more)
/// given a fraction of a second stops part-way, in every drive, whether
/// it is the nodes' setting up or the first slot's steps, and the run is
/// cut before its first slot is whole. Counted, not timed: were the
/// budget read only between slots, every node would be set up and
/// stepped once.
#[test]
fn the_executor_reads_its_budget_inside_a_pass_over_the_nodes() {
    use commcheck::engine::executor::{self, Drive};
    use commcheck::engine::search::Progress;
    use std::sync::atomic::Ordering::Relaxed;
    let drives = [
        Drive::Inbox,
        Drive::Dense { threads: 2 },
        Drive::Phased {
            threads: 2,
            range: executor::RANGE,
        },
    ];
    let nodes = 1 << 20;
    // (slow to set up, slow to step, the budget in milliseconds)
    for (init_us, step_us, ms) in [(1, 0, 100), (0, 1, 300)] {
        for drive in drives {
            let slow = Slow {
                cube: models::Hypercube::new(20, Switching::Sf, Ports::All),
                init_us,
                step_us,
                inits: Default::default(),
                steps: Default::default(),
            };
            let progress = Progress {
                deadline: Some(Instant::now() + Duration::from_millis(ms)),
                ..Progress::default()
            };
            let run = executor::drive(&slow, &0, &progress, drive);
            let (inits, steps) = (slow.inits.load(Relaxed), slow.steps.load(Relaxed));
            let what = format!("{drive:?}, slow to set up {init_us} us, to step {step_us} us");
            assert_eq!(run.cut, Some(Cut::Time), "{what}");
            assert_eq!(run.slots, 0, "{what}: no slot ran whole");
            match init_us {
                1 => assert!(
                    inits < nodes && steps == 0,
                    "{what}: {inits} set up, {steps} stepped"
                ),
                _ => assert!(steps < nodes, "{what}: {inits} set up, {steps} stepped"),
            }
        }
    }
}

/// `check table fujita` runs under a time budget it names before it
/// starts (60 s by default; `--timeout none` lifts it): cut, it prints
/// the cells it measured, says why the others are empty, and exits 3. A
/// run a budget cuts leaves its cell empty rather than half-measured.
#[test]
fn the_fujita_table_runs_under_a_budget_it_names() {
    use crate::cli::{check, refused, stderr, stdout};
    let start = Instant::now();
    let o = check(&["table", "fujita", "--timeout", "1"]);
    let took = start.elapsed();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(took < Duration::from_secs(6), "took {took:?}");
    assert!(
        stderr(&o).contains("it stops after 1 s (--timeout SECS for another, --timeout none"),
        "{}",
        stderr(&o)
    );
    let out = stdout(&o);
    assert!(
        out.contains("the time budget of 1 s ran out") && out.contains("left empty"),
        "{out}"
    );
    let o = check(&["table", "fujita", "--max-side", "8", "--timeout", "none"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stdout(&o).contains("ran out"), "{}", stdout(&o));
    refused(
        &["table", "optimal", "--timeout", "none"],
        &["--timeout none", "each optimum needs a limit"],
    );
    refused(
        &["table", "wang-ku", "--timeout", "5"],
        &["--timeout is for", "`check table fujita`"],
    );
}
