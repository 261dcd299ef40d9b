//! Time under cost models (docs/cost.md): LogGOPS on a GOAL schedule
//! through the command line, its parameters, sizes from `--bytes`, and the
//! refusals. LogGOPSim's own figures are held in the unit tests of
//! `src/cost/` (the binomial tree, the dissemination, eager and
//! rendezvous).

use crate::cli::{check, refused, stdout};

/// The 8-rank dissemination barrier of 1-byte messages: a round is
/// o + L + o = 5500 ns under LogGOPSim's defaults, three rounds 16.5 us
/// on every rank; with L = 500 a round is 3500 ns. The text says it in
/// one line, JSON as `cost`.
#[test]
fn loggops_times_a_goal_schedule() {
    let base = [
        "schedule",
        "tests/schedules/dissemination_8.goal",
        "--collective",
        "barrier",
        "--network",
        "hypercube:3",
        "--switching",
        "wh",
        "--cost",
    ];
    let run = |model: &str, json: bool| {
        let mut args = base.to_vec();
        args.push(model);
        if json {
            args.push("--json");
        }
        let o = check(&args);
        // Exit 1: at every relative speed the file is no barrier
        // (tests/goal.rs); its time is what this test is about.
        assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
        assert!(stdout(&o).contains("causal-completeness"));
        stdout(&o)
    };
    let text = run("loggops", false);
    assert!(
        text.contains(
            "time: about 16.5 us under loggops (L=2500 ns, o=1500 ns, g=1000 ns, G=6 ns/B, \
             O=0 ns/B, S=65535 B)"
        ),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&run("loggops:L=500", true)).unwrap();
    let cost = &json["cost"];
    assert_eq!(cost["model"], "loggops");
    assert_eq!(cost["time_us"], 10.5);
    assert_eq!(cost["per_rank_us"].as_array().unwrap().len(), 8);
    assert!(cost["per_rank_us"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t == 10.5));
    assert!(cost["parameters"].as_str().unwrap().starts_with("L=500 ns"));
}

/// A file without sizes is timed by `--bytes` a chunk; without it, or
/// with a model or flag that does not fit, one line says why.
#[test]
fn sizes_come_from_the_file_or_bytes() {
    let ring = [
        "schedule",
        "examples/schedules/allgather_ring_8.xml",
        "--network",
        "hypercube:3",
        "--switching",
        "wh",
        "--cost",
        "loggops",
    ];
    refused(&ring, &["has no size in bytes", "--bytes B"]);
    let mut sized = ring.to_vec();
    sized.extend(["--bytes", "1024"]);
    let o = check(&sized);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("us under loggops"), "{}", stdout(&o));
    refused(
        &[
            "schedule",
            "tests/schedules/dissemination_8.goal",
            "--network",
            "hypercube:3",
            "--cost",
            "alpha",
        ],
        &["--cost alpha: expected loggops"],
    );
    refused(
        &[
            "schedule",
            "tests/schedules/dissemination_8.goal",
            "--network",
            "hypercube:3",
            "--cost",
            "loggops:Q=1",
        ],
        &["Q: LogGOPS's parameters are L, o, g, G, O and S"],
    );
    refused(
        &[
            "schedule",
            "tests/schedules/dissemination_8.goal",
            "--collective",
            "barrier",
            "--network",
            "hypercube:3",
            "--cost",
            "loggops",
            "--packet-bytes",
            "1",
        ],
        &["does not take --packet-bytes"],
    );
}

/// A catalogue check takes `--cost` too, and times the run it would
/// export: `check nob 3 --cost ...` says what `check schedule` says of
/// the file `--write-schedule` writes, on the same network, under both
/// kinds of model; where it cannot time, one line says why.
#[test]
fn a_catalogue_run_is_timed_as_its_export() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cost-catalogue");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("nob3.json");
    let o = check(&["nob", "3", "--write-schedule", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let time = |args: &[&str]| -> serde_json::Value {
        let o = check(args);
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
        let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        json["cost"].clone()
    };
    for model in ["alpha-beta", "loggops"] {
        let run = time(&["nob", "3", "--cost", model, "--bytes", "1000", "--json"]);
        let export = time(&[
            "schedule",
            file.to_str().unwrap(),
            "--network",
            "hypercube:3",
            "--switching",
            "wh",
            "--cost",
            model,
            "--bytes",
            "1000",
            "--json",
        ]);
        assert!(run["time_us"].as_f64().unwrap() > 0.0, "{run}");
        assert_eq!(run["time_us"], export["time_us"], "{model}");
        assert_eq!(run["per_rank_us"], export["per_rank_us"], "{model}");
        // A broadcast's bound: the packet out of the root's 3 links.
        assert!(
            run["bounds"]["bandwidth_why"]
                .as_str()
                .unwrap()
                .starts_with("D from the root"),
            "{run}"
        );
    }
    refused(
        &["simple", "4", "--cost", "alpha-beta", "--bytes", "8"],
        &["a link model times links; a mesh-bus writes on buses"],
    );
    refused(
        &["nob", "3", "--cost", "alpha-beta", "--svg", "x.svg"],
        &["--cost adds a time to the report"],
    );
}
