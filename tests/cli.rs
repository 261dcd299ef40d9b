//! The `check` command as people use it: the report, the JSON, and every
//! bad input (one line on stderr naming the problem and the accepted
//! range, exit code 2, never a panic).

use std::process::{Command, Output};

pub(crate) fn check(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_check"))
        .args(args)
        .output()
        .expect("run check")
}

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn nob_4_reports_one_line_per_property_and_exits_0() {
    let o = check(&["nob", "4"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for line in [
        "nob n=4 (wormhole switching, all-port), source 0000 (for all 16 by symmetry), engine exhaustive (lock-step and actor model)",
        "  completeness        holds     claimed",
        "  no-duplication      holds     claimed",
        "  contention-freedom  holds     claimed",
        "  causality           holds     claimed",
        "  time-bound          holds     claimed",
        "  transmissions       holds     observed",
        "time: measured 2, bound 2, lower bound 2",
        "transmissions: 15 (optimum 15)",
    ] {
        assert!(out.lines().any(|l| l == line), "missing {line:?} in\n{out}");
    }
    assert!(
        out.contains("states: 5 lock-step, 5833 actor model"),
        "{out}"
    );
    assert!(
        out.contains("note: sources: 1 of 16 checked, the rest are xor images (symmetry tested)"),
        "{out}"
    );
    let all = stdout(&check(&["nob", "4", "--all-sources"]));
    assert!(all.contains(", all 16 sources, "), "{all}");
    assert!(
        all.contains("states: 80 lock-step, 93328 actor model"),
        "{all}"
    );
    assert!(out.contains("elapsed: "), "{out}");
}

#[test]
fn a_violated_claim_prints_the_counterexample_and_how_to_reproduce_it() {
    let o = check(&["naive-tree", "3"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("  contention-freedom  VIOLATED  claimed"),
        "{out}"
    );
    assert!(
        out.contains(
            "      source 000: step 1: arc 000->100 used by worm 000->100 and worm 000->110"
        ),
        "{out}"
    );
    assert!(
        out.contains("note: reproduce with `check naive-tree 3 --source 0`"),
        "{out}"
    );
    let again = check(&["naive-tree", "3", "--source", "0"]);
    assert_eq!(again.status.code(), Some(1), "the reproduction reproduces");
}

#[test]
fn json_report_has_the_design_fields() {
    let o = check(&["naive-tree", "3", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(v["algorithm"], "naive-tree");
    assert_eq!(v["params"]["n"], 3);
    assert!(v["engine"].as_str().unwrap().starts_with("exhaustive"));
    let props = v["properties"].as_array().unwrap();
    let names: Vec<&str> = props.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "completeness",
            "no-duplication",
            "contention-freedom",
            "causality",
            "time-bound",
            "transmissions",
            "message-length"
        ]
    );
    let c = &props[2];
    assert_eq!(c["claimed"], true);
    assert_eq!(c["status"], "violated");
    let x = &c["counterexample"];
    assert_eq!(
        x["text"],
        "source 000: step 1: arc 000->100 used by worm 000->100 and worm 000->110"
    );
    // Its parts, for scripts.
    assert_eq!(x["input"], "source 000");
    assert_eq!(x["slot"], 1);
    assert_eq!(x["resource"], "arc 000->100");
    assert_eq!(
        x["transmissions"],
        serde_json::json!(["000->100", "000->110"])
    );
    assert_eq!(props[0]["status"], "holds");
    assert!(props[0].get("counterexample").is_none());
    assert_eq!(v["time"]["measured"], 2);
    assert_eq!(v["time"]["bound"], 2);
    assert_eq!(v["time"]["lower_bound"], 2);
    assert_eq!(v["transmissions"], 7);
    assert!(v["states"].as_u64().unwrap() > 0);
    assert!(v["elapsed_ms"].is_u64());
}

#[test]
fn executor_runs_past_exhaustive_reach() {
    let o = check(&["nob", "16", "--engine", "executor", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["engine"], "executor");
    assert_eq!(v["time"]["measured"], 4);
    assert_eq!(v["transmissions"], 65535);
    let default = check(&["nob", "16"]);
    assert_eq!(default.status.code(), Some(0));
    assert!(
        stdout(&default).contains("past the exhaustive reach of nob (n <= 8"),
        "the switch is said, not silent"
    );
}

/// Asserts one line on stderr containing every fragment, exit code 2.
pub(crate) fn refused(args: &[&str], fragments: &[&str]) {
    let o = check(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line, got {err:?}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    for f in fragments {
        assert!(err.contains(f), "{args:?}: {err:?} lacks {f:?}");
    }
    assert!(o.stdout.is_empty(), "{args:?}: nothing on stdout");
}

/// The mesh-bus algorithms' bad inputs (Fujita): l out of range, a
/// precondition on l, a side of 1, a source.
#[test]
fn mesh_bus_bad_input_is_one_clear_line() {
    refused(
        &["simple", "4", "--ell", "0"],
        &["--ell 0", "simple", "1..=16"],
    );
    refused(&["simple", "4", "--ell", "17"], &["--ell 17", "1..=16"]);
    refused(
        &["partition", "4", "--ell", "1"],
        &["--ell 1", "2..=16", "m = floor(2l/n) >= 1", "use simple"],
    );
    refused(&["centralize", "1"], &["side 1", "centralize", "2..=256"]);
    refused(&["simple", "257"], &["side 257", "2..=256"]);
    refused(
        &["simple", "4", "--source", "3"],
        &["no single source", "--source"],
    );
    refused(
        &["simple", "4", "--k", "3"],
        &["does not take --k", "--ell"],
    );
    refused(
        &["simple", "3", "--all-ell", "--ell", "2"],
        &["`check simple`", "--all-ell", "--ell", "exclude each other"],
    );
    refused(&["nob", "3", "--all-ell"], &["nob does not take --ell"]);
}

/// A mesh's bad input (lecture notes): a side of 0 or 1, a shape that is
/// not one, a source outside the mesh or with the wrong number of
/// coordinates, and `--torus` where the algorithm runs on meshes only.
#[test]
fn mesh_bad_input_is_one_clear_line() {
    refused(&["mesh-sf", "1x4"], &["mesh-sf", "side of 1", "at least 2"]);
    refused(&["mesh-sf", "0"], &["side of 0"]);
    refused(&["mesh-sf", "5xq"], &["'5xq' is not a mesh", "5x7"]);
    refused(&["mesh-sf", "9000x9000"], &["more than 16777216 nodes"]);
    refused(&["mesh-sf"], &["missing the sides", "check mesh-sf 5x7"]);
    refused(
        &["mesh-sf", "5x7", "--source", "5,0"],
        &["(5,0) is outside M(5,7)", "coordinate 1", "0..=4"],
    );
    refused(
        &["mesh-sf", "5x7", "--source", "1,2,3"],
        &["3 coordinates", "M(5,7) has 2"],
    );
    refused(&["mesh-sf", "5x7", "--source", "35"], &["ids 0..=34"]);
    refused(
        &["dilated-diagonal", "6x6"],
        &["T(5^k,5^k)", "5x5, 25x25", "not 6x6"],
    );
    refused(&["torus-sf", "2x4"], &["torus side of 2", "at least 3"]);
    refused(&["eds", "16x16"], &["not encoded", "item 17"]);
    refused(&["recursive-tiling", "25x25"], &["not encoded", "item 18"]);
    refused(
        &["mesh-sf", "5x7", "--torus"],
        &["does not take --torus", "only the sides"],
    );
    let o = check(&["mesh-sf", "5x7", "--source", "2,3", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["params"]["network"], "M(5,7)");
    assert_eq!(v["params"]["source"], "(2,3)");
    assert_eq!(v["time"]["measured"], 5, "(2,3) is 2 + 3 from (4,6)");
}

/// `--all-ell` checks every l the algorithm takes, one report each, and
/// fails if any claim fails (PARTITION at n = 5: l = 3..25, refuted at l
/// = 5..12).
#[test]
fn all_ell_reports_every_l() {
    let o = check(&["partition", "5", "--all-ell", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a JSON array");
    let ells: Vec<u64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["params"]["ell"].as_u64().unwrap())
        .collect();
    assert_eq!(ells, (3..=25).collect::<Vec<u64>>());
    let refuted: Vec<u64> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["properties"][0]["status"] == "violated")
        .map(|o| o["params"]["ell"].as_u64().unwrap())
        .collect();
    assert_eq!(refuted, (5..=12).collect::<Vec<u64>>());
}

#[test]
fn bad_input_is_one_clear_line_and_exit_2() {
    refused(&["nob", "0"], &["dimension 0", "1..=30"]);
    refused(&["nob", "99"], &["dimension 99", "1..=30"]);
    refused(&["nob", "four"], &["'four'", "not a number", "1..=30"]);
    refused(
        &["nbo", "4"],
        &[
            "unknown algorithm 'nbo'",
            "check list",
            "did you mean 'nob'",
        ],
    );
    refused(
        &["nob", "4", "--source", "16"],
        &["source 16", "4-cube", "0..=15"],
    );
    refused(&["nob", "4", "--source", "x"], &["source 'x'", "0..=15"]);
    refused(&["nob", "4", "--threads", "0"], &["--threads 0", "1..=256"]);
    refused(&["nob", "4", "--max-states", "0"], &["--max-states 0"]);
    refused(&["nob", "4", "--timeout", "0"], &["--timeout 0"]);
    refused(
        &["nob", "4", "--switching", "sf"],
        &["nob is defined for --switching wh --ports all"],
    );
    refused(&["nob", "4294967296"], &["dimension 4294967296", "1..=30"]);
    refused(
        &["list", "extra"],
        &["`check list` takes no argument", "'extra'"],
    );
    refused(
        &["nob", "3", "--explore", "--engine", "executor"],
        &["--explore serves the lock-step model", "--engine executor"],
    );
    refused(
        &["nob", "3", "--explore", "--json"],
        &["--explore", "--json", "exclude each other"],
    );
    refused(
        &["nob", "3", "--max-memory", "lots"],
        &["--max-memory 'lots'"],
    );
    refused(
        &["nob", "3", "--all-sources", "--source", "1"],
        &["--all-sources and --source"],
    );
    refused(
        &["nob", "20", "--all-sources", "--engine", "executor"],
        &["--all-sources is for the exhaustive engines"],
    );
    refused(&["help", "nbo"], &["unknown algorithm 'nbo'"]);
    // A number clap parses is named with its flag, in words.
    refused(
        &["sna", "1", "--slot", "1.5", "--engine", "executor"],
        &["--slot '1.5' is not a whole number"],
    );
    refused(
        &[
            "optimal",
            "broadcast",
            "hypercube:3",
            "--max-slots",
            "99999999999999999999999999",
        ],
        &["--max-slots '99999999999999999999999999' is too large a number"],
    );
    // A negative number is the flag's bad value, not a flag of its own.
    refused(
        &["nob", "3", "--timeout", "-1"],
        &["--timeout '-1' is not a whole number 0 or more"],
    );
    refused(
        &["nob", "3", "--max-states", "-5"],
        &["--max-states '-5' is not a whole number 0 or more"],
    );
    refused(
        &["table", "fujita", "--max-side", "-4"],
        &["--max-side", "-4"],
    );
    refused(
        &["ft-trees", "3", "--source", "0,0"],
        &["source '0,0' is not a node number"],
    );
    refused(
        &["sbt", "3", "--trace", "/dev/full"],
        &["--trace /dev/full: No space left on device"],
    );
    refused(&["nob"], &["missing the dimension"]);
    refused(&["table", "nope"], &["unknown table 'nope'", "wang-ku"]);
    refused(&["flood", "3", "--engine", "actor"], &["not event-driven"]);
    // The parameters of the K-broadcast algorithms.
    refused(
        &["kbcast-small", "3", "--k", "9"],
        &["--k 9 is out of range", "1..=8"],
    );
    refused(
        &["kbcast-small", "3", "--k", "0"],
        &["--k 0 is out of range"],
    );
    refused(
        &["kbcast-small", "3", "--k", "two"],
        &["--k 'two' is not a whole number"],
    );
    refused(
        &["kbcast-small", "3", "--broadcasters", "0,8"],
        &["8 is not a node of the 3-cube", "0..=7"],
    );
    refused(
        &["kbcast-small", "3", "--broadcasters", "5,1,5"],
        &["node 5 is listed twice"],
    );
    refused(
        &["kbcast-small", "3", "--broadcasters", "1,x"],
        &["--broadcasters: 'x' is not a node number"],
    );
    refused(
        &["kbcast-ranked", "3", "--k", "2"],
        &["--k 2 is out of range for kbcast-ranked", "3..=3"],
    );
    refused(
        &["kbcast-ranked", "3", "--broadcasters", "1,2"],
        &["2 nodes listed; kbcast-ranked at n = 3 takes 3..=3"],
    );
    refused(&["mnb", "3", "--k", "2"], &["mnb does not take --k"]);
    refused(
        &["mnb", "3", "--all-k"],
        &["mnb does not take --k, so not --all-k"],
    );
    refused(
        &["kbcast-small", "3", "--all-k", "--k", "2"],
        &["--all-k", "--k", "exclude each other"],
    );
    // The issue's list for kbcast, and the flags around it.
    refused(
        &["kbcast", "3", "--k", "9"],
        &["--k 9 is out of range for kbcast", "1..=8"],
    );
    refused(&["kbcast", "3", "--k", "0"], &["--k 0 is out of range"]);
    refused(
        &["kbcast", "3", "--broadcasters", "0,8"],
        &["8 is not a node of the 3-cube"],
    );
    refused(
        &["kbcast", "3", "--broadcasters", "6,0,6"],
        &["node 6 is listed twice", "--multiset"],
    );
    refused(
        &["nob", "3", "--multiset"],
        &["nob does not take --multiset"],
    );
    refused(&["prefix", "3", "--k", "2"], &["prefix does not take --k"]);
    refused(
        &["kbcast", "3", "--distribution"],
        &["--distribution is over random draws"],
    );
    refused(
        &[
            "kbcast-random",
            "3",
            "--distribution",
            "--engine",
            "executor",
        ],
        &["--distribution is over random draws"],
    );
}

#[test]
fn clap_refusals_are_one_line_and_check_alone_prints_its_usage() {
    let o = check(&[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.lines().count() >= 3, "the whole usage: {err}");
    assert!(err.contains("Usage: check <ALGORITHM> <N>"), "{err}");
    for args in [
        &["nob", "4", "--engine", "fast"][..],
        &["nob", "4", "--timeout"],
        &["nob", "4", "--engine"],
        &["schedule", "--network"],
        &["optimal", "--max-slots", "99"],
    ] {
        let o = check(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
    let missing = stderr(&check(&["nob", "4", "--timeout"]));
    assert!(missing.contains("--timeout needs a value"), "{missing}");
    // No dead flags: --shape was never taken by any algorithm (a mesh's
    // sides are its size, 5x7), so no command takes it.
    refused(
        &["mnb", "4", "--shape", "4x4"],
        &["`check mnb` does not take --shape"],
    );
    let shape = stderr(&check(&["mnb", "4", "--shape", "4x4"]));
    assert!(!shape.contains("it is for"), "{shape}");
    let fast = stderr(&check(&["nob", "4", "--engine", "fast"]));
    assert!(
        fast.contains("'fast'") && fast.contains("possible values"),
        "{fast}"
    );
}

#[test]
fn list_and_help_show_paper_claim_modes_and_reach() {
    let list = stdout(&check(&["list", "--long"]));
    assert!(
        list.contains("paper: Wang & Ku, ICS'95, section 3 and Appendix"),
        "{list}"
    );
    assert!(
        list.contains("claim: ceil(n / floor(log2(n+1))) steps (Theorem 3)"),
        "{list}"
    );
    assert!(
        list.contains("modes: wh/all, sf/all, sf/one, wh/one"),
        "{list}"
    );
    for args in [&["nob", "--help"][..], &["help", "nob"][..]] {
        let o = check(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let out = stdout(&o);
        for fragment in [
            "nob: near-optimal broadcast",
            "paper:      Wang & Ku",
            "claim:      ceil(n / floor(log2(n+1)))",
            "parameters: n, the cube dimension (1..=30)",
            "modes:      --switching wh --ports all",
            "lock-step   n <= 8",
            "actor model n <= 5",
        ] {
            assert!(
                out.contains(fragment),
                "{args:?} lacks {fragment:?}:\n{out}"
            );
        }
    }
}

#[test]
fn a_size_past_exhaustive_reach_says_so_and_suggests_the_executor() {
    refused(
        &["nob", "12", "--engine", "exhaustive"],
        &[
            "n = 12 is past the reach of the exhaustive engine for nob (n <= 8",
            "--engine executor",
            "--max-states",
        ],
    );
}

#[test]
fn a_budget_that_runs_out_reports_unknown() {
    let o = check(&[
        "nob",
        "8",
        "--engine",
        "lockstep",
        "--max-states",
        "100",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let statuses = crate::support::statuses(&v);
    assert!(statuses.contains(&"unknown"), "{statuses:?}");
    assert!(
        !statuses.contains(&"holds"),
        "nothing holds on a cut search: {statuses:?}"
    );
}

#[test]
fn list_names_every_algorithm() {
    let o = check(&["list"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    for name in ["sbt", "dt", "nob", "nob-appendix", "naive-tree", "flood"] {
        assert!(
            out.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name} in\n{out}"
        );
    }
    // One line per algorithm; --long gives each its paper, claim, modes.
    let algorithms = models::catalog::Algorithm::ALL.len();
    assert_eq!(out.lines().count(), algorithms, "{out}");
    let long = stdout(&check(&["list", "--long"]));
    assert_eq!(long.lines().count(), 4 * algorithms, "{long}");
    refused(
        &["nob", "4", "--long"],
        &["`check nob` does not take --long: it is for `check list`"],
    );
    refused(&["list", "--format", "csv"], &["`check list` prints text"]);
}

/// docs/catalogue.md's table is `check list --format markdown`, whole:
/// what the registry says of every algorithm, between its two markers.
#[test]
fn the_catalogue_page_is_the_registry() {
    let page = include_str!("../docs/catalogue.md");
    let start =
        "<!-- generated by: cargo run --release --bin check -- list --format markdown -->\n";
    let end = "<!-- end of generated -->";
    let from = page.find(start).expect("the start marker") + start.len();
    let to = page[from..].find(end).expect("the end marker") + from;
    let o = check(&["list", "--format", "markdown"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        &page[from..to],
        stdout(&o),
        "regenerate docs/catalogue.md's table"
    );
    assert_eq!(
        page[from..to].lines().count(),
        2 + models::catalog::Algorithm::ALL.len()
    );
}

#[test]
fn table_wang_ku_prints_every_printed_value_next_to_the_checked_one() {
    let o = check(&["table", "wang-ku"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap()
            .to_string()
    };
    assert_eq!(row("NOB").split_whitespace().count(), 17, "{out}");
    assert!(row("NOB").contains("3/3"), "{out}");
    assert!(
        row("DT").contains(" 2/2 "),
        "DT n=2: printed 2, checked 2\n{out}"
    );
    assert!(out.contains("formula: DT's ceil(n/2) = 1 at n=2"), "{out}");
}

#[test]
fn readme_states_the_commands_ci_and_people_run() {
    let readme = include_str!("../README.md");
    let ci = include_str!("../.ci/run");
    // The models' unit tests and the integration tests (the examples and
    // the library's parts among them) with the MPI runs, then the
    // doc-tests, then the Python package's tests.
    // `--tests`, not `--all-targets`: each further target is a program of
    // its own (minutes on 2 cores), and the examples, benches and the
    // binary's empty harness are built by clippy's `--all-targets` and
    // tested here already; the `no-lto` profile: release's optimisation
    // without its whole-program links (BENCHMARKS.md, "CI"); the wheel
    // with commcheck's MPI feature, so that it links the library the
    // tests compiled (the same features make the same compiled unit).
    let test_command = "cargo test --workspace --profile no-lto --tests --features mpi && \
                        cargo test --workspace --profile no-lto --doc --features mpi && \
                        python3 -m pip install ./python -C build-args=--features=commcheck/mpi && \
                        python3 -m pytest -q python/tests";
    assert!(
        readme.contains(&format!("\n    {test_command}\n")),
        "README states the test command"
    );
    assert!(
        readme.contains("\n    cargo run --release --bin check -- nob 4\n"),
        "README states the main job"
    );
    assert!(
        readme.contains("\n    python3 -m pip install ./python\n"),
        "README states how the Python package is installed"
    );
    // Before it, only the format (seconds): clippy's two check-mode
    // builds of the workspace took a fifth of CI's 45 minutes, and are
    // run before each commit, as README says.
    let ci_cargo: Vec<&str> = ci.lines().filter(|l| l.starts_with("cargo ")).collect();
    let (last, before) = ci_cargo.split_last().expect(".ci/run runs cargo");
    assert_eq!(
        *last, test_command,
        ".ci/run runs exactly the README's test command"
    );
    assert_eq!(
        before,
        ["cargo fmt --all -- --check"],
        ".ci/run before the tests"
    );
    assert!(
        readme.contains("cargo clippy --workspace --all-targets [--features mpi] -- -D warnings"),
        "README says to run clippy before a commit"
    );
}

#[test]
fn the_explorer_refuses_sizes_it_cannot_serve_and_taken_addresses() {
    refused(
        &["nob", "24", "--explore"],
        &["Explorer", "n = 24", "n <= 8"],
    );
    refused(
        &["sbt", "12", "--explore"],
        &["Explorer", "n = 12", "n <= 10"],
    );
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    refused(
        &["nob", "3", "--explore", &addr],
        &["cannot serve the Explorer", &addr],
    );
    refused(
        &["nob", "3", "--explore", "not-an-address"],
        &["cannot serve the Explorer"],
    );
}

/// NOB keeps about 10.4 bytes a node (docs/scale.md): 2^26 nodes take
/// 0.7 GB, 2^27 1.4 GB, 2^28 2.9 GB.
#[test]
fn the_executor_refuses_a_size_that_does_not_fit_in_memory() {
    let o = Command::new(env!("CARGO_BIN_EXE_check"))
        .args(["nob", "28", "--engine", "executor", "--max-memory", "1"])
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("n = 28") && err.contains("largest n that fits is 26"),
        "{err}"
    );
}

/// Progress shows on a terminal (here a pseudo-terminal from `script`),
/// and never on a pipe or with --json.
#[test]
fn progress_shows_on_a_terminal_only() {
    let bin = env!("CARGO_BIN_EXE_check");
    let args = "nob 9 --engine lockstep --timeout 3";
    let o = Command::new("script")
        .args(["-qec", &format!("{bin} {args} >/dev/null"), "/dev/null"])
        .output()
        .expect("script (util-linux) runs a command on a pseudo-terminal");
    let tty = String::from_utf8_lossy(&o.stdout);
    assert!(tty.contains("lockstep: "), "{tty}");
    assert!(tty.contains("unique), "), "{tty}");
    assert!(tty.contains("sources 0/1"), "{tty}");
    let piped = check(&["nob", "9", "--engine", "lockstep", "--timeout", "3"]);
    assert!(
        !stderr(&piped).contains("lockstep: "),
        "no progress on a pipe"
    );
}

/// Bertsekas et al.'s algorithms: bad input is one line and exit 2, and a
/// size past memory is refused before anything is built (mnb 24 would
/// need 35 TB of holdings: the refusal is immediate).
#[test]
fn bertsekas_bad_input_is_refused_before_building() {
    refused(&["mnb", "0"], &["dimension 0", "1..=30"]);
    refused(&["mnb", "40"], &["dimension 40", "would need"]);
    refused(&["mnb", "3", "--source", "1"], &["no single source"]);
    refused(&["mnb-ring", "3", "--ports", "all"], &["--ports one"]);
    let start = std::time::Instant::now();
    refused(&["mnb", "24"], &["n = 24", "largest n that fits"]);
    assert!(start.elapsed().as_secs() < 5, "refused before building");
    let o = check(&["mnb", "3", "--ports", "two"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("possible values"), "{}", stderr(&o));
}

/// Flags that would do nothing together are refused, not ignored: a
/// `--seed` with nothing random to draw, `--quiet` beside `--json`.
#[test]
fn flags_that_do_nothing_are_refused() {
    refused(
        &["nob", "3", "--seed", "2"],
        &["--seed draws --random-faults"],
    );
    refused(
        &[
            "schedule",
            "tests/schedules/allreduce_pair.json",
            "--network",
            "hypercube:1",
            "--seed",
            "2",
        ],
        &["--seed draws --random-faults"],
    );
    refused(&["nob", "3", "--json", "--quiet"], &["exclude each other"]);
    // A value refused names its own flag.
    refused(
        &[
            "schedule",
            "tests/schedules/allreduce_pair.json",
            "--network",
            "hypercube:1",
            "--bytes",
            "0",
        ],
        &["--bytes 0: a number of bytes"],
    );
}

/// `check table fujita --max-side N` sweeps 4..=N; a side that is not a
/// power of two from 4 to 256, or --max-side elsewhere, is refused.
#[test]
fn the_fujita_table_takes_its_largest_side() {
    let o = check(&["table", "fujita", "--max-side", "8"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("n=8") && !out.contains("n=16"), "{out}");
    refused(
        &["table", "fujita", "--max-side", "12"],
        &["--max-side 12", "4, 8, 16, 32, 64, 128, 256"],
    );
    refused(
        &["table", "fujita", "--max-side", "x"],
        &["--max-side x", "4, 8"],
    );
    refused(
        &["nob", "3", "--max-side", "8"],
        &["`check nob` does not take --max-side: it is for `check table`"],
    );
}

/// `check table lecture-bounds`: every Lemma cell met by its algorithm
/// (no `*` difference), the wormhole rows printed with the lower bound,
/// DTA's n = 2 noted as broken (errata item 6) and nothing else.
#[test]
fn the_lecture_bounds_table_meets_the_lemma() {
    let o = check(&["table", "lecture-bounds"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("65280/65280"),
        "AAB transmissions at n = 8: {out}"
    );
    assert!(out.contains("128/128"), "AAS rounds at n = 8: {out}");
    assert!(!out.contains("checked 0") && !out.contains("*\n"), "{out}");
    assert!(
        out.contains("HKA (ho-kao)") && out.contains("lower bound"),
        "{out}"
    );
    let notes: Vec<&str> = out.lines().filter(|l| l.contains("breaks")).collect();
    assert_eq!(
        notes,
        ["DTA (dt) n=2: breaks time-bound (docs/errata.md, item 6)"]
    );
}

/// `--svg FILE` writes the picture of the first violation's slot (naive-tree
/// 3: the contended arc of slot 1), else of the last slot that delivered,
/// `--slot K` another; past what a picture can show it refuses in one line.
#[test]
fn svg_exports_the_violating_slot() {
    let dir = std::env::temp_dir().join(format!("commcheck-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("naive-tree.svg");
    let o = check(&["naive-tree", "3", "--svg", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("step 1 (the first violation)"),
        "{}",
        stderr(&o)
    );
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    assert_eq!(svg.matches("<svg").count(), 1, "{svg}");
    roxmltree::Document::parse(&svg).expect("well-formed SVG");
    assert!(svg.contains("class='contended'"), "the red arc: {svg}");
    assert_eq!(svg.matches("class='node'").count(), 8, "{svg}");
    let o = check(&["nob", "4", "--svg", file.to_str().unwrap()]);
    assert!(
        stderr(&o).contains("step 2 (the last step)"),
        "{}",
        stderr(&o)
    );
    let o = check(&[
        "recursive-doubling",
        "4x4",
        "--svg",
        file.to_str().unwrap(),
        "--slot",
        "1",
    ]);
    assert!(
        stderr(&o).contains("step 1 (the step --slot asked for)"),
        "{}",
        stderr(&o)
    );
    let svg = std::fs::read_to_string(&file).unwrap();
    assert_eq!(svg.matches("class='worm'").count(), 1, "{svg}");
    let o = check(&["nob", "4", "--svg", file.to_str().unwrap(), "--slot", "9"]);
    assert!(
        stderr(&o).contains("step 3 (the run ends before --slot 9)"),
        "{}",
        stderr(&o)
    );
    refused(&["nob", "4", "--slot", "2"], &["--slot", "--svg FILE"]);
    refused(
        &["nob", "12", "--svg", file.to_str().unwrap()],
        &["--svg draws up to 128 nodes", "4096"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `check table bertsekas` prints both tables with every formula met
/// (cells formula/checked, executor runs of each algorithm at d = 1..8).
#[test]
fn the_bertsekas_tables_are_reproduced() {
    let o = check(&["table", "bertsekas"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Table 1") && out.contains("Table 2"), "{out}");
    assert!(out.contains("32/32"), "scatter MLA at d = 8: {out}");
    assert!(
        out.contains("262144/262144"),
        "total exchange at d = 8: {out}"
    );
    assert!(out.contains("no differences"), "{out}");
}

/// A parameter an algorithm does not take is refused in one line naming
/// what it takes.
#[test]
fn parameters_an_algorithm_does_not_take_are_refused() {
    refused(
        &["nob", "4", "--k", "3"],
        &["nob does not take --k", "dimension n"],
    );
    refused(&["sbt", "4", "--torus"], &["sbt does not take --torus"]);
    refused(&["sbt", "4", "--ell", "2"], &["--ell"]);
    refused(&["snb", "4", "--broadcasters", "0,1"], &["--broadcasters"]);
}

/// `check table NAME --format markdown|csv|json`: the same cells in every
/// format. Wang-Ku's Table I and its ratio row (NOB/Optimal): the text
/// rows, the JSON rows, one CSV line per cell and one Markdown row per
/// table row agree cell for cell.
#[test]
fn tables_print_the_same_cells_in_every_format() {
    let out = |format: &str| {
        let o = check(&["table", "wang-ku", "--format", format]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let text = stdout(&check(&["table", "wang-ku"]));
    assert_eq!(out("text"), text);
    let json: serde_json::Value = serde_json::from_str(&out("json")).expect("JSON");
    let rows = json["grids"][0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5, "SBT, DT, NOB, Optimal, NOB/Optimal");
    for row in rows {
        let cells: Vec<&str> = row
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(cells[0]))
            .unwrap();
        assert_eq!(line.split_whitespace().collect::<Vec<_>>(), cells, "{line}");
    }
    let csv = out("csv");
    let cells: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("note,"))
        .map(|l| l.rsplitn(4, ',').collect())
        .collect();
    assert_eq!(cells.len(), 5 * 16, "one line per cell: {csv}");
    // NOB at n = 15: printed 4, checked 4 (value, column; rsplit order).
    assert!(
        cells
            .iter()
            .any(|c| c[1] == "4/4" && c[2] == "15" && c[3].ends_with(",NOB")),
        "{csv}"
    );
    assert!(
        csv.contains("\nnote,,,\"formula: DT's ceil(n/2) = 1 at n=2, where"),
        "{csv}"
    );
    let md = out("markdown");
    let table: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(table.len(), 1 + 1 + 5, "header, rule, rows: {md}");
    let rows = table.iter().filter(|l| !l.starts_with("|-"));
    assert!(
        rows.clone().count() == 6 && rows.clone().all(|l| l.matches(" | ").count() == 16),
        "{md}"
    );
    assert!(md.contains("| NOB | 1/1 | 2/2 |"), "{md}");
    refused(
        &["table", "wang-ku", "--format", "xml"],
        &["--format 'xml'", "text, markdown, csv, json"],
    );
    refused(
        &["nob", "3", "--format", "csv"],
        &["`check nob` does not take --format", "`check table`"],
    );
}

/// Every reproduce line reproduces: for violations of every kind of
/// network, input and engine the suite and the docs print (a cube's
/// source, a mesh's sides and coordinates, a torus, a mesh-bus's l, a
/// K-set, an executor run past the exhaustive reach), the printed
/// command checks the same network and input and reaches the same
/// verdicts.
#[test]
fn every_reproduce_line_reproduces_network_input_and_verdict() {
    let cases: &[&[&str]] = &[
        &["naive-tree", "3"],
        &["nob-appendix", "3"],
        &["nob-appendix", "3", "--source", "5"],
        &["dt", "2"],
        &["mnb-sbt", "3"],
        &["kbcast", "3", "--k", "1"],
        &["kbcast-ranked", "3", "--k", "3"],
        &["partition", "5", "--ell", "5"],
        &["centralize", "3"],
        &["mesh-sf", "4x4", "--ports", "one", "--source", "0,1"],
        &["recursive-doubling", "3x5"],
        &["recursive-doubling", "3x5", "--torus"],
        &["dilated-diagonal", "5x5"],
        &["nob-appendix", "10"],
    ];
    let json = |args: &[&str]| -> (Option<i32>, serde_json::Value) {
        let mut with = args.to_vec();
        with.push("--json");
        let o = check(&with);
        let v = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stderr(&o)));
        (o.status.code(), v)
    };
    let verdicts = |v: &serde_json::Value| -> Vec<(String, String, String)> {
        v["properties"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let input = p["counterexample"]["input"].as_str().unwrap_or("");
                (
                    p["name"].as_str().unwrap().to_string(),
                    p["status"].as_str().unwrap().to_string(),
                    input.to_string(),
                )
            })
            .collect()
    };
    let mut reproduced = 0;
    for args in cases {
        let (code, first) = json(args);
        assert_eq!(code, Some(1), "{args:?} violates a claim");
        let line = first["reproduce"]
            .as_str()
            .unwrap_or_else(|| panic!("{args:?} prints a reproduce line"));
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], "check", "{line}");
        let (code, again) = json(&words[1..]);
        assert_eq!(code, Some(1), "{line} violates a claim again");
        assert_eq!(again["params"]["n"], first["params"]["n"], "{line}");
        assert_eq!(
            again["params"]["network"], first["params"]["network"],
            "{line}: the same network"
        );
        for field in ["switching", "ports", "k", "ell"] {
            assert_eq!(
                again["params"][field], first["params"][field],
                "{line}: {field}"
            );
        }
        // The reproduction checks the input of the violation: its
        // verdicts are those of that input, which the first check found.
        let violated: Vec<_> = verdicts(&first)
            .into_iter()
            .filter(|(_, status, _)| status == "violated")
            .collect();
        for (name, _, input) in &violated {
            let (_, status, again_input) = verdicts(&again)
                .into_iter()
                .find(|(n, ..)| n == name)
                .unwrap();
            assert_eq!(status, "violated", "{line}: {name}");
            assert_eq!(&again_input, input, "{line}: {name} from the same input");
        }
        reproduced += 1;
    }
    assert_eq!(reproduced, cases.len());
}

/// A bound that depends on the source is judged per source when every
/// source is checked: the all-sources run counts as late exactly the
/// sources that `--source` finds late, and as unjudged those where no
/// time is claimed.
#[test]
fn an_all_sources_run_judges_each_source_against_its_own_bound() {
    let (mut late, mut unjudged) = (0, 0);
    for x in 0..3 {
        for y in 0..3 {
            for z in 0..4 {
                let source = format!("{x},{y},{z}");
                let o = check(&["mesh-sf", "3x3x4", "--ports", "one", "--source", &source]);
                let out = stdout(&o);
                late += out.contains("time-bound          VIOLATED") as usize;
                unjudged +=
                    out.contains("time-bound          not judged (no time is claimed)") as usize;
            }
        }
    }
    assert!(
        late > 0,
        "some source of M(3,3,4) misses the one-port bound"
    );
    let all = check(&["mesh-sf", "3x3x4", "--ports", "one"]);
    assert_eq!(all.status.code(), Some(1), "{}", stdout(&all));
    let line = format!(
        "  time-bound          VIOLATED  claimed (judged at {} of 36 sources; no time is claimed \
         at the others; late at {late} of {})",
        36 - unjudged,
        36 - unjudged
    );
    assert!(
        stdout(&all).lines().any(|l| l == line),
        "{line:?} in\n{}",
        stdout(&all)
    );
}

/// Where nothing was there to judge, the report says "not judged" and
/// why, in text and JSON; never "holds".
#[test]
fn nothing_judged_is_not_reported_as_holding() {
    let o = check(&["nob", "4", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let length = crate::support::property(&json, "message-length");
    assert_eq!(length["status"], "not judged");
    assert_eq!(length["reason"], "no message length limit: no bus");
    let o = check(&["sbt", "3", "--engine", "actor"]);
    assert_eq!(o.status.code(), Some(3), "the claim is left undecided");
    assert!(stdout(&o).contains(
        "  contention-freedom  not judged (the actor model has no common slot: contention is \
         judged in lock step)"
    ));
}

/// Each command takes its own flags: clap refuses any other in one line
/// that names the commands taking it, and so two that exclude each other
/// and one that needs another.
#[test]
fn a_flag_of_another_command_is_refused_naming_the_commands_that_take_it() {
    refused(
        &["nob", "3", "--network", "hypercube:3"],
        &["`check nob` does not take --network: it is for `check schedule`, `check optimal`"],
    );
    refused(
        &[
            "schedule",
            "x.json",
            "--network",
            "hypercube:3",
            "--source",
            "0",
        ],
        &["`check schedule` does not take --source: it is for `check ALG`"],
    );
    refused(
        &[
            "optimal",
            "broadcast",
            "hypercube:3",
            "--engine",
            "executor",
        ],
        &[
            "`check optimal` does not take --engine",
            "`check schedule`, `check ALG`",
        ],
    );
    refused(
        &["table", "wang-ku", "--threads", "2"],
        &["`check table` does not take --threads"],
    );
    refused(&["list", "--json"], &["`check list` does not take --json"]);
    refused(
        &["nob", "3", "--slot", "2"],
        &["--slot", "give --svg FILE too"],
    );
    refused(
        &[
            "optimal",
            "broadcast",
            "hypercube:3",
            "--network",
            "hypercube:3",
        ],
        &["`check optimal`", "--network", "exclude each other"],
    );
    refused(
        &["nob", "3", "4"],
        &["`check nob` takes one argument; got also '4'"],
    );
    assert!(stdout(&check(&["help", "nob"])).starts_with("nob: "));
    refused(&["help", "nobb"], &["unknown algorithm 'nobb'"]);
}

/// `check help` lists the commands, and `check help COMMAND` describes
/// one, as clap's `--help` of it does; both exit 0.
#[test]
fn check_help_lists_and_describes_the_commands() {
    let o = check(&["help"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = stdout(&o);
    for command in ["list", "help", "table", "claims", "schedule", "optimal"] {
        assert!(
            page.lines().any(|l| l.trim_start().starts_with(command)),
            "{command} in\n{page}"
        );
    }
    for command in ["schedule", "optimal", "table", "claims"] {
        let o = check(&["help", command]);
        assert_eq!(o.status.code(), Some(0), "{command}: {}", stderr(&o));
        let long = stdout(&check(&[command, "--help"]));
        assert_eq!(
            stdout(&o),
            long,
            "`check help {command}` is `check {command} --help`"
        );
        assert!(long.contains(&format!("check {command}")), "{long}");
    }
}

/// A schedule's violation prints the command that checks it again, and
/// that command finds the same verdicts.
#[test]
fn a_schedule_violation_prints_its_reproduce_line() {
    let file = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("orphan-send.json");
    std::fs::write(
        &file,
        r#"{"format":"commcheck-schedule","version":1,"ranks":2,
            "collective":{"name":"broadcast","root":0},
            "ops":[{"rank":0,"label":"s","send":{"to":1,"chunks":[0]}}]}"#,
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let o = check(&["schedule", f, "--network", "hypercube:1", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let first: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let line = first["reproduce"].as_str().expect("a reproduce line");
    assert!(
        line.starts_with(&format!("check schedule {f} --network hypercube:1")),
        "{line}"
    );
    let mut words: Vec<&str> = line.split_whitespace().skip(1).collect();
    words.push("--json");
    let again = check(&words);
    assert_eq!(again.status.code(), Some(1), "{line}");
    let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(first["properties"], again["properties"], "{line}");
}

/// Inputs with no end are read only up to the readers' limit, and those
/// of bytes that are not text (/dev/zero, /dev/urandom) not past their
/// first block; an error that quotes a file's word quotes part of it:
/// every refusal is one line of at most 200 characters.
#[test]
fn endless_and_huge_inputs_are_refused_in_one_short_line() {
    let start = std::time::Instant::now();
    for format in ["commcheck", "msccl", "mscclpp"] {
        for device in ["/dev/zero", "/dev/urandom"] {
            refused(
                &[
                    "schedule",
                    device,
                    "--format",
                    format,
                    "--network",
                    "hypercube:3",
                ],
                &[&format!("{device}: "), ": not a text file"],
            );
        }
    }
    assert!(
        start.elapsed() < std::time::Duration::from_secs(5),
        "refused at the first block: {:?}",
        start.elapsed()
    );
    refused(
        &[
            "schedule",
            "tests/schedules/gather_race.json",
            "--network",
            "graph:/dev/zero",
        ],
        &["/dev/zero: a NUL byte at byte 0: not a text file"],
    );
    // A megabyte of one unknown key, and a megabyte GOAL word.
    let key = "k".repeat(1 << 20);
    let json = crate::support::TempFile::new(
        "huge-key.json",
        &format!(r#"{{"format": "commcheck-schedule", "version": 1, "{key}": 1}}"#),
    );
    let goal = crate::support::TempFile::new(
        "huge-word.goal",
        &format!("num_ranks 2\n{}\n", &key[..1 << 19]),
    );
    for file in [&json.0, &goal.0] {
        let file = file.to_str().unwrap();
        let o = check(&["schedule", file, "--network", "hypercube:1"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        let chars = err.trim_end().chars().count();
        assert!(chars <= 200, "{chars} characters: {}", &err[..200]);
        assert!(err.contains("more characters)"), "{err}");
    }
    // serde_json's words for Rust's types and for the end of the text do
    // not reach the user; a raw newline in a string is placed on its line.
    let pair = std::fs::read_to_string("tests/schedules/allreduce_pair.json").unwrap();
    for (text, said) in [
        (
            pair.replace("\"ranks\": 2", "\"ranks\": \"two\""),
            &["a whole number from 0 to 4294967295"][..],
        ),
        (
            pair.replace("\"ranks\": 2", "\"ranks\": -2"),
            &["a whole number"],
        ),
        (
            pair[..pair.len() / 2].to_string(),
            &["the text ends inside"],
        ),
        (
            pair.replace("\"label\": \"s\"", "\"label\": \"s\n\""),
            &[".json:7:", "a raw control character"],
        ),
    ] {
        let file = crate::support::TempFile::new("words.json", &text);
        let path = file.0.to_str().unwrap();
        let o = check(&["schedule", path, "--network", "hypercube:1"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        for said in said {
            assert!(err.contains(said), "{err:?} lacks {said:?}");
        }
        for rust in ["u32", "i64", "EOF", "sequence", "struct"] {
            assert!(!err.contains(rust), "{err:?} says {rust:?}");
        }
    }
    // Any error line is cut to 200 characters, a long quoted token first.
    let long = "x".repeat(5000);
    let o = check(&["schedule", &long, "--network", "hypercube:1"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.trim_end().chars().count() <= 200, "{err}");
    // Where a file ends too soon, the error is at its end; a map names
    // its file and the entry; a byte-order mark is no part of the text.
    let xml = std::fs::read_to_string("examples/schedules/allgather_ring_8.xml").unwrap();
    let cut: String = xml.lines().take(4).collect::<Vec<_>>().join("\n");
    let truncated = crate::support::TempFile::new("truncated.xml", &cut);
    let at = format!("{}:4:", truncated.0.display());
    let path = truncated.0.to_str().unwrap();
    refused(&["schedule", path, "--network", "dgx-h100:1"], &[&at]);
    let pair = "tests/schedules/allreduce_pair.json";
    for (map, said) in [
        (
            "[0, 0]",
            ":1:5: ranks 0 and 1 (entries 1 and 2) are placed on one node, 0",
        ),
        ("[0]", ": lists 1 node(s); the schedule has 2 ranks"),
        (
            "[0,\n 9]",
            ":2:2: rank 1 (entry 2) is placed on node 9; the 1-cube has nodes 0 to 1",
        ),
    ] {
        let file = crate::support::TempFile::new("map.json", map);
        let path = file.0.to_str().unwrap();
        let args = ["schedule", pair, "--network", "hypercube:1", "--map", path];
        refused(&args, &[&format!("{path}{said}")]);
    }
    // A field found wrong after parsing is placed too: a top-level count,
    // the format's name, a graph's link.
    let text = std::fs::read_to_string(pair).unwrap();
    let graph = r#"{"format": "commcheck-network", "version": 1, "nodes": 2,
  "links": [[0, 1], [1, 7]]}"#;
    for (name, text, network, said) in [
        (
            "ranks.json",
            text.replace("\"ranks\": 2", "\"ranks\": 0"),
            "hypercube:1".to_string(),
            ":4:12: 0 ranks",
        ),
        (
            "format.json",
            text.replace("commcheck-schedule", "commcheck-plan"),
            "hypercube:1".to_string(),
            ":2:13: format \"commcheck-plan\"",
        ),
    ] {
        let file = crate::support::TempFile::new(name, &text);
        let path = file.0.to_str().unwrap();
        refused(
            &["schedule", path, "--network", &network],
            &[&format!("{path}{said}")],
        );
    }
    let net = crate::support::TempFile::new("graph.json", graph);
    let net_path = net.0.to_str().unwrap();
    refused(
        &["schedule", pair, "--network", &format!("graph:{net_path}")],
        &[&format!("{net_path}:2:21: arc 1->7")],
    );
    for (name, file, args) in [
        ("bom.json", pair, vec!["--network", "hypercube:1"]),
        (
            "bom.goal",
            "tests/schedules/binomial_8.goal",
            vec!["--network", "hypercube:3", "--collective", "broadcast:0"],
        ),
    ] {
        let text = format!("\u{feff}{}", std::fs::read_to_string(file).unwrap());
        let bom = crate::support::TempFile::new(name, &text);
        let mut with = vec!["schedule", bom.0.to_str().unwrap()];
        with.extend(&args);
        let mut without = vec!["schedule", file];
        without.extend(&args);
        let (o, plain) = (check(&with), check(&without));
        assert!(stderr(&o).is_empty(), "{name}: {}", stderr(&o));
        assert_eq!(o.status.code(), plain.status.code(), "{name}");
        let statuses = |o: &Output| -> Vec<String> {
            stdout(o)
                .lines()
                .skip(1)
                .take(8)
                .map(str::to_string)
                .collect()
        };
        assert_eq!(statuses(&o), statuses(&plain), "{name}");
    }
}

/// A report that cannot be written (a full disk) is an error of one line
/// naming standard output, exit 2, not a panic: for a check, the
/// catalogue and a table alike.
#[test]
fn a_full_standard_output_is_one_line_not_a_panic() {
    for args in [&["nob", "3"][..], &["list"], &["table", "wang-ku"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let o = Command::new(env!("CARGO_BIN_EXE_check"))
            .args(args)
            .stdout(full)
            .output()
            .expect("run check");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: cannot write the standard output") && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
}

/// `-` is standard output for every export: the picture, graph, trace
/// and schedule come on stdout, and no file named `-` is left behind.
#[test]
fn a_dash_exports_to_standard_output() {
    let dir = std::env::temp_dir().join(format!("commcheck-dash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: [(&str, &str); 4] = [
        ("--dot", "digraph"),
        ("--svg", "<svg"),
        ("--trace", "\"slot\""),
        ("--write-schedule", "commcheck-schedule"),
    ];
    for (flag, starts) in cases {
        let o = Command::new(env!("CARGO_BIN_EXE_check"))
            .args(["sbt", "3", flag, "-"])
            .current_dir(&dir)
            .output()
            .expect("run check");
        let (out, err) = (stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), Some(0), "{flag}: {err}");
        assert!(out.contains(starts), "{flag}: {out}");
        assert!(err.contains("wrote standard output"), "{flag}: {err}");
        assert!(!dir.join("-").exists(), "{flag} wrote a file named -");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
