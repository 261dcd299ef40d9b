//! `check schedule FILE`: schedules written here by hand for the format's
//! corner cases (tests/schedules/), checked on built-in networks and
//! graph files; what only some interleavings show; bad files refused in
//! one line with where and what.

use crate::cli::{check, stderr, stdout};
use crate::support::status_of as status;
use commcheck::check::schedule::{check_schedule, ScheduleRequest};
use commcheck::check::Options;
use commcheck::engine::Engine;
use commcheck::report::{Finder, Outcome};
use models::{Ports, Switching};
use properties::Status;

/// The request to check `file` on `network` by `engine`.
fn request(
    file: std::path::PathBuf,
    network: &str,
    switching: Switching,
    ports: Ports,
    engine: Engine,
) -> ScheduleRequest {
    ScheduleRequest {
        switching,
        ports,
        options: Options {
            engine: Some(engine),
            ..Options::default()
        },
        ..ScheduleRequest::new(file, network.parse().unwrap())
    }
}

/// The check of tests/schedules/`file` on `network`.
fn run(file: &str, network: &str, ports: Ports, engine: Engine) -> Outcome {
    let path = format!("tests/schedules/{file}").into();
    check_schedule(&request(path, network, Switching::Sf, ports, engine))
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The binomial tree on the 3-cube, one link a slot: every rank informed
/// once, in 3 slots under all-port, 3 under one-port (each rank's sends
/// are ordered), 7 transmissions.
#[test]
fn a_binomial_broadcast_completes_in_n_slots_on_the_cube() {
    for ports in [Ports::All, Ports::One] {
        for engine in [Engine::Lockstep, Engine::Executor] {
            let o = run("binomial_q3.json", "hypercube:3", ports, engine);
            for name in [
                "completeness",
                "no-duplication",
                "contention-freedom",
                "causality",
            ] {
                assert_eq!(status(&o, name), Status::Holds, "{name}\n{}", o.text());
            }
            assert_eq!(o.time.measured, Some(3), "{}", o.text());
            assert_eq!(o.transmissions, Some(7));
        }
    }
}

/// Rank 0 of the gather may send to rank 2 or to the root first (one
/// port); rank 3 sends to the root in slot 1. Only the interleaving where
/// rank 0 sends to the root first collides at the root's in-port: the
/// exhaustive search finds it, the executor (file order: to rank 2
/// first) does not.
#[test]
fn a_collision_that_only_some_interleavings_produce_is_found() {
    let exhaustive = run(
        "gather_race.json",
        "hypercube:2",
        Ports::One,
        Engine::Lockstep,
    );
    assert_eq!(
        status(&exhaustive, "contention-freedom"),
        Status::Violated,
        "{}",
        exhaustive.text()
    );
    let p = exhaustive
        .properties
        .iter()
        .find(|p| p.name == "contention-freedom")
        .unwrap();
    assert_eq!(p.found_by, Some(Finder::LockStep));
    let c = p.counterexample.as_ref().unwrap();
    assert_eq!(c.slot, Some(1), "{}", c.text);
    assert!(c.text.contains("in-port of 01"), "{}", c.text);
    assert_eq!(status(&exhaustive, "completeness"), Status::Holds);

    let one = run(
        "gather_race.json",
        "hypercube:2",
        Ports::One,
        Engine::Executor,
    );
    assert_eq!(
        status(&one, "contention-freedom"),
        Status::Holds,
        "{}",
        one.text()
    );
    assert_eq!(one.time.measured, Some(3), "{}", one.text());
    // Under all-port nothing collides, whatever the order.
    let all = run(
        "gather_race.json",
        "hypercube:2",
        Ports::All,
        Engine::Lockstep,
    );
    assert_eq!(
        status(&all, "contention-freedom"),
        Status::Holds,
        "{}",
        all.text()
    );
}

/// Each rank waits for the other's message before sending its own: no
/// message is ever sent, the run ends with both receives waiting.
#[test]
fn a_deadlock_leaves_the_allgather_incomplete() {
    let o = run("deadlock.json", "hypercube:1", Ports::All, Engine::Lockstep);
    assert_eq!(status(&o, "completeness"), Status::Violated, "{}", o.text());
    assert_eq!(o.transmissions, Some(0));
    let matching = o.properties.iter().find(|p| p.name == "matching").unwrap();
    assert_eq!(matching.status, Status::Violated, "{}", o.text());
    let text = &matching.counterexample.as_ref().unwrap().text;
    assert!(
        text.contains(
            "a deadlock: rank 0, r (line 7), which waits for rank 1, s (line 10), which waits \
             for rank 1, r (line 9), which waits for rank 0, s (line 8), which waits for rank 0, \
             r (line 7)"
        ),
        "{text}"
    );
    // The executor's one run ends the same way.
    let one = run("deadlock.json", "hypercube:1", Ports::All, Engine::Executor);
    assert_eq!(status(&one, "matching"), Status::Violated, "{}", one.text());
}

/// Rank 0 receives from any rank, then from rank 1; ranks 1 and 2 each
/// send it one message. At the speeds at which rank 1's message comes
/// first the second receive waits forever: `--engine actor` judges the
/// schedule at every relative speed alone, over both matchings, and names
/// the match that makes the deadlock; with the first receive naming rank
/// 2 there is one matching, and it completes.
#[test]
fn a_deadlock_only_some_speeds_make_is_found_by_the_actor_engine() {
    let o = run("any_source.json", "hypercube:2", Ports::All, Engine::Actor);
    let names: Vec<&str> = o.properties.iter().map(|p| p.name).collect();
    assert_eq!(
        names,
        ["race-freedom", "causal-completeness"],
        "{}",
        o.text()
    );
    let p = crate::support::reported(&o, "causal-completeness");
    assert_eq!(p.status, Status::Violated, "{}", o.text());
    assert_eq!(p.found_by, Some(Finder::HappensBefore));
    let c = p.counterexample.as_ref().unwrap();
    assert!(
        c.text
            .starts_with("at some speeds rank 0 (00), from1 (line 8) never completes"),
        "{}",
        c.text
    );
    assert_eq!(
        c.interleaving,
        ["rank 0 (00), any (line 7) takes the message of rank 1 (01), s (line 9)"]
    );
    assert!(o
        .reproduce
        .as_deref()
        .is_some_and(|r| r.ends_with("--engine actor")));
    // The receive from any rank named rank 2: one matching, complete.
    let text = std::fs::read_to_string("tests/schedules/any_source.json").unwrap();
    let fixed = text.replace(r#""recv": { "chunks""#, r#""recv": { "from": 2, "chunks""#);
    assert_ne!(fixed, text);
    let file = crate::support::TempFile::new("any_source_fixed.json", &fixed);
    let o = check_schedule(&request(
        file.0.clone(),
        "hypercube:2",
        Switching::Sf,
        Ports::All,
        Engine::Actor,
    ))
    .unwrap();
    assert_eq!(
        status(&o, "causal-completeness"),
        Status::Holds,
        "{}",
        o.text()
    );
    assert_eq!(status(&o, "race-freedom"), Status::Holds, "{}", o.text());
    // The Explorer serves the lock-step model only.
    let refused = check(&[
        "schedule",
        "tests/schedules/any_source.json",
        "--network",
        "hypercube:2",
        "--engine",
        "actor",
        "--explore",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("--explore serves a schedule's lock-step model"),
        "{}",
        stderr(&refused)
    );
}

/// A send and a receive whose tags differ: the receive waits for a
/// message no operation sends, and the message is never received.
#[test]
fn orphans_are_named_by_rank_label_and_line() {
    let o = run("orphans.json", "hypercube:1", Ports::All, Engine::Lockstep);
    let text = o.text();
    assert_eq!(status(&o, "matching"), Status::Violated, "{text}");
    assert!(
        text.contains(
            "rank 1, r (line 8) waits for a message no operation sends (an orphan receive)"
        ),
        "{text}"
    );
    assert_eq!(status(&o, "completeness"), Status::Violated, "{text}");
}

/// The catalogue's algorithms have no operations: no matching line.
#[test]
fn algorithms_are_not_reported_on_matching() {
    let o = stdout(&check(&["sbt", "3"]));
    assert!(!o.contains("matching"), "{o}");
}

/// Two ranks exchange partial sums and add them: each ends with the full
/// sum, each contribution once.
#[test]
fn a_pairwise_allreduce_combines_each_contribution_once() {
    let o = run(
        "allreduce_pair.json",
        "hypercube:1",
        Ports::All,
        Engine::Lockstep,
    );
    assert_eq!(status(&o, "completeness"), Status::Holds, "{}", o.text());
    assert_eq!(o.time.measured, Some(1), "{}", o.text());
}

/// The command line: a report in the file's terms; a bad file, network
/// or flag refused in one line with file:line:column, exit 2.
#[test]
fn the_command_reads_the_file_and_refuses_bad_input_in_one_line() {
    let o = check(&[
        "schedule",
        "tests/schedules/binomial_q3.json",
        "--network",
        "hypercube:3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("binomial_q3.json"), "{}", stdout(&o));

    let dir = std::env::temp_dir().join(format!("commcheck-schedules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: [(&str, &str, &str); 5] = [
        ("truncated", "{\n  \"format\": \"commcheck-schedule\",\n  \"ver", ":3:"),
        (
            "wrong type",
            "{\"format\": \"commcheck-schedule\", \"version\": \"one\"}",
            ":1:",
        ),
        (
            "rank out of range",
            "{\"format\": \"commcheck-schedule\", \"version\": 1, \"ranks\": 2,\n\
             \"collective\": {\"name\": \"allgather\"},\n\"ops\": [\n  {\"rank\": 5, \"calc\": {}}]}",
            ":4:3: rank 5: ranks are 0 to 1",
        ),
        (
            "unknown label",
            "{\"format\": \"commcheck-schedule\", \"version\": 1, \"ranks\": 2,\n\
             \"collective\": {\"name\": \"allgather\"},\n\"ops\": [\n  {\"rank\": 0, \"calc\": {}, \"after\": [\"x\"]}]}",
            ":4:3: no operation labelled x on rank 0",
        ),
        (
            "billion ranks",
            "{\"format\": \"commcheck-schedule\", \"version\": 1, \"ranks\": 1000000000,\n\
             \"collective\": {\"name\": \"allgather\"}, \"ops\": []}",
            "1000000000 ranks: 1 to",
        ),
    ];
    for (what, text, expected) in cases {
        let file = dir.join(format!("{}.json", what.replace(' ', "_")));
        std::fs::write(&file, text).unwrap();
        let o = check(&[
            "schedule",
            file.to_str().unwrap(),
            "--network",
            "hypercube:3",
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert_eq!(err.lines().count(), 1, "{what}: one line: {err}");
        assert!(err.contains(expected), "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
    }
    for (args, expected) in [
        (vec!["schedule"], "names a file"),
        (
            vec!["schedule", "tests/schedules/binomial_q3.json"],
            "runs on a network",
        ),
        (
            vec![
                "schedule",
                "tests/schedules/binomial_q3.json",
                "--network",
                "ring:4",
            ],
            "expected hypercube:N",
        ),
        (
            vec![
                "schedule",
                "tests/schedules/binomial_q3.json",
                "--network",
                "hypercube:2",
            ],
            "8 ranks on the 2-cube of 4 nodes",
        ),
        (
            vec!["nob", "3", "--network", "hypercube:3"],
            "`check nob` does not take --network: it is for `check schedule`, `check optimal`",
        ),
    ] {
        let o = check(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

/// A graph file: the 3-cube with one link missing. The binomial tree
/// uses link 0-4; without it, the send from rank 0 to rank 4 is refused
/// under store-and-forward, naming the operation.
#[test]
fn graph_files_are_networks() {
    let dir = std::env::temp_dir().join(format!("commcheck-graphs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut links = Vec::new();
    for u in 0..8u32 {
        for d in 0..3 {
            let v = u ^ (1 << d);
            if u < v && (u, v) != (0, 4) {
                links.push(format!("[{u}, {v}]"));
            }
        }
    }
    let file = dir.join("q3-minus-link.json");
    std::fs::write(
        &file,
        format!(
            "{{\"format\": \"commcheck-network\", \"version\": 1, \"nodes\": 8, \"links\": [{}]}}",
            links.join(", ")
        ),
    )
    .unwrap();
    let network = format!("graph:{}", file.display());
    let o = check(&[
        "schedule",
        "tests/schedules/binomial_q3.json",
        "--network",
        &network,
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("rank 0, s4"), "{err}");
    assert!(err.contains("0 -> 4 is not an arc"), "{err}");
    // Under wormhole the message takes a two-hop worm instead.
    let o = check(&[
        "schedule",
        "tests/schedules/binomial_q3.json",
        "--network",
        &network,
        "--switching",
        "wh",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

/// docs/schedule.schema.json and the reader agree: every collective the
/// schema names is read (with a root where the schema requires one), and
/// an operation of each kind the schema lists is read.
#[test]
fn the_schema_names_what_the_reader_reads() {
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("docs/schedule.schema.json").unwrap())
            .unwrap();
    let mut names = Vec::new();
    for variant in schema["properties"]["collective"]["oneOf"]
        .as_array()
        .unwrap()
    {
        let name = &variant["properties"]["name"];
        let listed: Vec<String> = match (name["enum"].as_array(), name["const"].as_str()) {
            (Some(e), _) => e.iter().map(|n| n.as_str().unwrap().to_string()).collect(),
            (None, Some(c)) => vec![c.to_string()],
            _ => panic!("a collective variant names its collectives"),
        };
        let rooted = variant["required"]
            .as_array()
            .is_some_and(|r| r.iter().any(|k| k == "root"));
        let written_out = variant["required"]
            .as_array()
            .is_some_and(|r| r.iter().any(|k| k == "start"));
        for n in listed {
            let root = match (rooted, written_out) {
                (true, _) => ", \"root\": 0",
                (_, true) => {
                    ", \"chunks\": 1, \"start\": [{\"chunk\": 0, \"rank\": 0}], \
                     \"end\": [{\"rank\": 1, \"chunk\": 0}]"
                }
                _ => "",
            };
            let text = format!(
                "{{\"format\": \"commcheck-schedule\", \"version\": 1, \"ranks\": 2, \
                 \"collective\": {{\"name\": \"{n}\"{root}}}, \"ops\": []}}"
            );
            let read = commcheck::import::commcheck::read(&text, "schema.json");
            assert!(read.is_ok(), "{n}: {read:?}");
            names.push(n);
        }
    }
    assert_eq!(names.len(), 10, "{names:?}");
    let kinds: Vec<&str> = ["send", "recv", "copy", "reduce", "calc"].to_vec();
    let op = &schema["$defs"]["op"]["properties"];
    for kind in &kinds {
        assert!(op.get(kind).is_some(), "the schema lists {kind}");
    }
    let ops = [
        "{\"rank\": 0, \"send\": {\"to\": 1, \"chunks\": [0], \"tag\": 1}}",
        "{\"rank\": 1, \"recv\": {\"from\": 0, \"chunks\": [0], \"reduce\": false}}",
        "{\"rank\": 1, \"copy\": {\"from\": 0, \"to\": 1}}",
        "{\"rank\": 1, \"reduce\": {\"from\": 0, \"to\": 1}}",
        "{\"rank\": 0, \"label\": \"x\", \"calc\": {}, \"after\": [], \"started_after\": [], \"slot\": 1}",
    ];
    let text = format!(
        "{{\"format\": \"commcheck-schedule\", \"version\": 1, \"ranks\": 2, \
         \"collective\": {{\"name\": \"allgather\"}}, \"ops\": [{}]}}",
        ops.join(", ")
    );
    let s = commcheck::import::commcheck::read(&text, "kinds.json").unwrap();
    assert_eq!(s.ops.len(), 5);
}

/// A postcondition written out (tests/schedules/explicit.json): ranks 0
/// and 1 swap their chunks, and rank 2 ends with the sum of chunk 2 over
/// ranks 0 and 1. It holds as written; with rank 2's second receive taken
/// from rank 0 instead, the sum misses rank 1's part and completeness
/// fails. A postcondition that does not make sense is refused by name.
#[test]
fn explicit_postconditions_are_judged() {
    let req = |file| {
        request(
            file,
            "hypercube:2",
            Switching::Wh,
            Ports::All,
            Engine::Exhaustive,
        )
    };
    let o = check_schedule(&req("tests/schedules/explicit.json".into())).unwrap();
    for name in [
        "completeness",
        "contention-freedom",
        "causality",
        "matching",
    ] {
        assert_eq!(status(&o, name), Status::Holds, "{name}\n{}", o.text());
    }
    let text = std::fs::read_to_string("tests/schedules/explicit.json").unwrap();
    let dir = std::env::temp_dir().join(format!("commcheck-explicit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: String| {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        file
    };
    let half = text.replace(
        "\"from1\", \"recv\": { \"from\": 1",
        "\"from1\", \"recv\": { \"from\": 0",
    );
    assert_ne!(half, text);
    let o = check_schedule(&req(write("half.json", half))).unwrap();
    assert_eq!(status(&o, "completeness"), Status::Violated, "{}", o.text());
    for (what, from, to, expected) in [
        (
            "starts twice",
            "{ \"chunk\": 1, \"rank\": 1 }",
            "{ \"chunk\": 0, \"rank\": 1 }",
            "start of chunk 0: the chunk starts twice",
        ),
        (
            "both",
            "{ \"chunk\": 1, \"rank\": 1 }",
            "{ \"chunk\": 1, \"rank\": 1, \"reduced_over\": [1] }",
            "one of the two",
        ),
        (
            "sum over another",
            "\"sum_over\": [0, 1]",
            "\"sum_over\": [0, 2]",
            "the sum is over ranks that do not all contribute",
        ),
        (
            "plain sum",
            "{ \"rank\": 1, \"chunk\": 0 }",
            "{ \"rank\": 1, \"chunk\": 0, \"sum_over\": [0] }",
            "a plain chunk has no sum",
        ),
        ("never starts", "\"chunks\": 3,", "\"chunks\": 4,", ""),
    ] {
        let bad = text.replacen(from, to, 1);
        assert_ne!(bad, text, "{what}");
        let result = check_schedule(&req(write("bad.json", bad)));
        match expected {
            "" => assert!(result.is_ok(), "{what}: a chunk no one needs is allowed"),
            _ => {
                let err = result.map(|o| o.text()).unwrap_err().to_string();
                assert!(err.contains(expected), "{what}: {err}");
                assert_eq!(err.lines().count(), 1, "{what}: {err}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The check of schedule `text` on `network` by wormhole switching,
/// all-port, or its refusal.
fn run_text(name: &str, text: &str, network: &str) -> Result<Outcome, String> {
    let dir = std::env::temp_dir().join(format!("commcheck-routes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    let req = request(file, network, Switching::Wh, Ports::All, Engine::Exhaustive);
    check_schedule(&req).map_err(|e| e.to_string())
}

/// A worm's own path on the 2-cube: ranks 0 and 1 each send rank 3 a
/// chunk in slot 1. By e-cube the worms are 00->10->11 and 01->11 and do
/// not meet; with 0's worm over 00->01->11 both cross 01->11. Two paths
/// for one pair are refused, naming both.
#[test]
fn a_path_of_its_own_is_followed_on_a_cube() {
    let schedule = |path: &str, more: &str| {
        format!(
            "{{\"format\": \"commcheck-schedule\", \"version\": 1, \"ranks\": 4,\n\
             \"collective\": {{\"name\": \"explicit\", \"chunks\": 2, \"start\": [{{\"chunk\": 0, \"rank\": 0}}, \
             {{\"chunk\": 1, \"rank\": 1}}], \"end\": [{{\"rank\": 3, \"chunk\": 0}}, {{\"rank\": 3, \"chunk\": 1}}]}},\n\
             \"ops\": [\n\
             {{\"rank\": 0, \"slot\": 1, \"send\": {{\"to\": 3, \"chunks\": [0]{path}}}}},\n\
             {{\"rank\": 1, \"slot\": 1, \"send\": {{\"to\": 3, \"chunks\": [1]}}}},\n\
             {{\"rank\": 3, \"recv\": {{\"from\": 0, \"chunks\": [0]}}}},\n\
             {{\"rank\": 3, \"recv\": {{\"from\": 1, \"chunks\": [1]}}}}{more}]}}"
        )
    };
    let e_cube = run_text("e-cube.json", &schedule("", ""), "hypercube:2").unwrap();
    assert_eq!(status(&e_cube, "contention-freedom"), Status::Holds);
    assert_eq!(status(&e_cube, "completeness"), Status::Holds);
    let own = run_text(
        "own.json",
        &schedule(", \"path\": [0, 1, 3]", ""),
        "hypercube:2",
    )
    .unwrap();
    assert_eq!(status(&own, "contention-freedom"), Status::Violated);
    let said = own
        .properties
        .iter()
        .find(|p| p.name == "contention-freedom")
        .unwrap();
    let words = serde_json::to_string(&said.counterexample).unwrap();
    assert!(words.contains("01->11"), "{words}");
    let twice = schedule(
        ", \"path\": [0, 1, 3]",
        ",\n{\"rank\": 0, \"slot\": 2, \"send\": {\"to\": 3, \"chunks\": [0], \"path\": [0, 2, 3]}}",
    );
    let err = run_text("twice.json", &twice, "hypercube:2").unwrap_err();
    assert!(err.contains("two paths from 00 to 11"), "{err}");
    // Found by the fuzzer: a node past the network's was an index panic.
    let far = schedule(", \"path\": [0, 65536, 3]", "");
    let err = run_text("far.json", &far, "hypercube:2").unwrap_err();
    assert!(err.contains("a path names node 65536"), "{err}");
}

/// A bus write to the ranks that read it: rank 0 of the 3x3 mesh-bus
/// writes chunk 0 on its row bus, read by ranks 1 and 2, one transmission
/// in one slot. A rank off the bus, or several receivers on links, are
/// refused by name.
#[test]
fn a_bus_write_reaches_its_readers() {
    let schedule = |to: &str| {
        format!(
            "{{\"format\": \"commcheck-schedule\", \"version\": 1, \"ranks\": 9,\n\
             \"collective\": {{\"name\": \"explicit\", \"chunks\": 1, \"start\": [{{\"chunk\": 0, \"rank\": 0}}], \
             \"end\": [{{\"rank\": 1, \"chunk\": 0}}, {{\"rank\": 2, \"chunk\": 0}}]}},\n\
             \"ops\": [\n\
             {{\"rank\": 0, \"send\": {{\"to\": {to}, \"chunks\": [0]}}}},\n\
             {{\"rank\": 1, \"recv\": {{\"from\": 0, \"chunks\": [0]}}}},\n\
             {{\"rank\": 2, \"recv\": {{\"from\": 0, \"chunks\": [0]}}}}]}}"
        )
    };
    let o = run_text("bus.json", &schedule("[1, 2]"), "mesh-bus:3").unwrap();
    assert_eq!(status(&o, "completeness"), Status::Holds);
    assert_eq!(status(&o, "matching"), Status::Holds);
    assert_eq!((o.time.measured, o.transmissions), (Some(1), Some(1)));
    let off = run_text("off.json", &schedule("[1, 4]"), "mesh-bus:3").unwrap_err();
    assert!(off.contains("rank 4 does not receive"), "{off}");
    let links = run_text("links.json", &schedule("[1, 2]"), "hypercube:4").unwrap_err();
    assert!(links.contains("rank 2 does not receive"), "{links}");
    let one = run_text("one.json", &schedule("1"), "mesh-bus:3").unwrap();
    assert_eq!(
        status(&one, "matching"),
        Status::Violated,
        "rank 2's receive is an orphan"
    );
}

/// `--load`: the most transmissions on one resource in one slot, and
/// where. Ranks 1, 2 and 3 of the 2-cube each send rank 0 a chunk in
/// slot 1, one-port, as worms: three take rank 0's in-port at once (and
/// two the arc 01->00: 3 is routed 11->01->00). Both engines say 3, on
/// the in-port, in slot 1; contention-freedom is then an observation and
/// the check passes; without `--load` it fails.
#[test]
fn the_link_load_is_the_most_on_one_resource_in_one_slot() {
    let text = "{\"format\": \"commcheck-schedule\", \"version\": 1, \"ranks\": 4,\n\
         \"collective\": {\"name\": \"gather\", \"root\": 0},\n\"ops\": [\n\
         {\"rank\": 1, \"slot\": 1, \"send\": {\"to\": 0, \"chunks\": [1]}},\n\
         {\"rank\": 2, \"slot\": 1, \"send\": {\"to\": 0, \"chunks\": [2]}},\n\
         {\"rank\": 3, \"slot\": 1, \"send\": {\"to\": 0, \"chunks\": [3]}},\n\
         {\"rank\": 0, \"recv\": {\"from\": 1, \"chunks\": [1]}},\n\
         {\"rank\": 0, \"recv\": {\"from\": 2, \"chunks\": [2]}},\n\
         {\"rank\": 0, \"recv\": {\"from\": 3, \"chunks\": [3]}}]}";
    let dir = std::env::temp_dir().join(format!("commcheck-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("three.json");
    std::fs::write(&file, text).unwrap();
    for engine in [Engine::Exhaustive, Engine::Executor] {
        let mut req = request(
            file.clone(),
            "hypercube:2",
            Switching::Wh,
            Ports::One,
            engine,
        );
        req.load = true;
        let o = check_schedule(&req).unwrap();
        let load = o.link_load.as_ref().expect("a load past one");
        assert_eq!((load.most, load.slot), (3, 1), "{engine:?}\n{}", o.text());
        assert_eq!(load.resource, "in-port of 00", "{engine:?}");
        assert!(
            !o.refuted(),
            "{engine:?}: contention is observed\n{}",
            o.text()
        );
        req.load = false;
        assert!(check_schedule(&req).unwrap().refuted(), "{engine:?}");
    }
    let f = file.to_str().unwrap();
    let o = check(&[
        "schedule",
        f,
        "--network",
        "hypercube:2",
        "--switching",
        "wh",
        "--ports",
        "one",
        "--load",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("link load: 3 transmissions on in-port of 00 in slot 1"),
        "{}",
        stdout(&o)
    );
    crate::cli::refused(
        &["nob", "3", "--load"],
        &["`check nob` does not take --load: it is for `check schedule`"],
    );
}

/// Causality on schedules: a send naming a chunk its rank does not hold
/// yet (an empty position) claims it, and causality names it. In an
/// allgather of 2 ranks whose messages combine chunks, rank 1 sends
/// chunks 0 and 1 to rank 0 before it has received chunk 0.
#[test]
fn a_chunk_sent_before_it_is_held_breaks_causality() {
    let text = |ops: &str| {
        format!(
            "{{\"format\": \"commcheck-schedule\", \"version\": 1, \"ranks\": 2,\n\
             \"collective\": {{\"name\": \"allgather\"}},\n\"ops\": [{ops}]}}"
        )
    };
    let forged = "{\"rank\": 1, \"send\": {\"to\": 0, \"chunks\": [0, 1]}},\n\
                  {\"rank\": 0, \"recv\": {\"from\": 1, \"chunks\": [0, 1]}},\n\
                  {\"rank\": 0, \"send\": {\"to\": 1, \"chunks\": [0]}},\n\
                  {\"rank\": 1, \"recv\": {\"from\": 0, \"chunks\": [0]}}";
    let o = run_text("forged.json", &text(forged), "hypercube:1").unwrap();
    assert_eq!(status(&o, "causality"), Status::Violated, "{}", o.text());
    assert!(
        o.text()
            .contains("node 1 sends the packet of 0 before holding it"),
        "{}",
        o.text()
    );
    let honest = forged.replace("\"chunks\": [0, 1]", "\"chunks\": [1]");
    let o = run_text("honest.json", &text(&honest), "hypercube:1").unwrap();
    assert_eq!(status(&o, "causality"), Status::Holds, "{}", o.text());
    assert_eq!(status(&o, "completeness"), Status::Holds, "{}", o.text());
}
