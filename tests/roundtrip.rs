//! Every catalogue algorithm's run, written as a schedule
//! (`--write-schedule`) and checked as one, gives the run's verdicts, time
//! and transmission counts; written as GOAL (`--write-goal`), whose
//! messages carry all their sender holds and keep only the order, it
//! completes with the same messages; written as MSCCL-IR or as an
//! MSCCL++ plan, it gives the run's verdicts, time and counts again.

use commcheck::check::schedule::{check_schedule, ScheduleRequest};
use commcheck::check::{Engine, Options, Request};
use commcheck::engine::executor;
use commcheck::import;
use commcheck::show::as_schedule::run_as_schedule;
use models::catalog::Algorithm;
use models::{with_protocol, Protocol, ProtocolExt};
use properties::{PropertyName, Record, Status};
use std::path::PathBuf;

/// The properties a schedule's run and the algorithm's run both judge.
const JUDGED: [PropertyName; 4] = [
    PropertyName::Completeness,
    PropertyName::NoDuplication,
    PropertyName::ContentionFreedom,
    PropertyName::Causality,
];

/// The sizes the round trip covers: the four smallest each algorithm
/// takes, up to a 5-cube, a 5x5 grid, a 5x5 mesh-bus.
fn sizes(algorithm: Algorithm) -> std::ops::RangeInclusive<u64> {
    let (first, last) = algorithm.family().sizes();
    let first = (first as u64).max(2);
    first..=(first + 3).min(last as u64).min(5)
}

/// A file in a directory of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("commcheck-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The check of `file` as `--write-*` says to check it, by `engine`.
fn check_file(
    file: &std::path::Path,
    req: &Request,
    network: &str,
    engine: Engine,
) -> Result<commcheck::report::Outcome, String> {
    let request = ScheduleRequest {
        switching: req.config.switching,
        ports: req.config.ports,
        options: Options {
            engine: Some(engine),
            threads: 1,
            ..Options::default()
        },
        ..ScheduleRequest::new(file, network.parse().unwrap())
    };
    check_schedule(&request).map_err(|e| e.to_string())
}

fn status(outcome: &commcheck::report::Outcome, p: PropertyName) -> Status {
    outcome
        .properties
        .iter()
        .find(|r| r.name == p.as_str())
        .map(|r| r.status)
        .unwrap_or_else(|| panic!("{} is reported", p.as_str()))
}

/// Calls `f` with each algorithm's request at each of its modes and
/// sizes, its run's record and verdicts (the executor's from the first
/// input, the run the export writes) and its name in messages.
fn each_run(mut f: impl FnMut(&Request, &Record, &[Status], &str)) {
    for &algorithm in Algorithm::ALL {
        for &(switching, ports) in algorithm.modes() {
            for n in sizes(algorithm) {
                let req = Request::new(algorithm, n, Some(switching), Some(ports)).unwrap();
                let what = format!("{} {n} {switching}/{ports}", algorithm.name());
                let (record, statuses) = with_protocol!(algorithm, req.config.clone(), |p| {
                    let record = executor::run(&p, &p.first_input()).record;
                    let statuses: Vec<Status> = record
                        .evidence(&p.claims())
                        .iter()
                        .map(|e| e.status)
                        .collect();
                    (record, statuses)
                });
                f(&req, &record, &statuses, &what);
            }
        }
    }
}

/// A schedule's writer in one format.
type Writer = fn(&models::schedule::Schedule) -> Result<String, import::WriteError>;

#[test]
fn every_run_of_the_catalogue_round_trips_through_a_schedule_file() {
    let (covered, refused) = round_trip(import::commcheck::write, "json", &[]);
    assert_eq!(refused, 0);
    assert!(covered >= 2 * Algorithm::ALL.len(), "{covered} runs");
}

/// What neither MSCCL-IR nor an MSCCL++ plan can say, as the writers
/// refuse it.
const NO_FORM: [&str; 4] = [
    "a bus write read by several ranks",
    "a path of its own",
    "a message of no chunk",
    "a message of several chunks",
];

/// MSCCL-IR keeps each send's slot (commcheck's attribute), so read back
/// a run gives its verdicts, time and counts; what MSCCL-IR cannot say is
/// refused by name: a bus write, a worm's own path, a message of no chunk
/// (a control message) or of several.
#[test]
fn every_run_of_the_catalogue_round_trips_through_msccl_ir() {
    let (covered, refused) = round_trip(import::msccl::write, "xml", &NO_FORM);
    assert!(
        covered - refused > 100 && refused > 10,
        "{covered} runs, {refused} refused"
    );
}

/// An MSCCL++ plan keeps each packet write's slot (commcheck's key), so
/// read back a run gives its verdicts, time and counts; what the plan
/// cannot say is refused by name, as for MSCCL-IR, and so is a thread
/// block longer than MSCCL++'s executor runs.
#[test]
fn every_run_of_the_catalogue_round_trips_through_mscclpp() {
    let refusals = [&NO_FORM[..], &["MSCCL++'s executor runs at most 64"]].concat();
    let (covered, refused) = round_trip(import::mscclpp::write, "plan.json", &refusals);
    assert!(
        covered - refused > 100 && refused > 10,
        "{covered} runs, {refused} refused"
    );
}

/// MSCCL++ runs a plan's thread blocks at their own speeds, not in slots:
/// with the slots taken out, every plan written of a run that is complete
/// and causal is race-free and complete at every relative speed (each
/// packet read waits for its write, and a semaphore orders each step
/// after what another thread block did to its chunk before it).
#[test]
fn the_plans_written_are_correct_at_every_speed() {
    use models::schedule::causal::{judge, Verdict};
    let (mut judged, mut wrong) = (0, Vec::new());
    each_run(|req, _, statuses, what| {
        let holds = |p: PropertyName| statuses[p as usize] == Status::Holds;
        if !holds(PropertyName::Completeness) || !holds(PropertyName::Causality) {
            return;
        }
        let Ok(run) = run_as_schedule(req) else {
            return;
        };
        let Ok(text) = import::mscclpp::write(&run.schedule) else {
            return;
        };
        let mut plan: serde_json::Value = serde_json::from_str(&text).unwrap();
        for gpu in plan["gpus"].as_array_mut().unwrap() {
            for tb in gpu["threadblocks"].as_array_mut().unwrap() {
                for op in tb["ops"].as_array_mut().unwrap() {
                    op.as_object_mut().unwrap().remove("slot");
                }
            }
        }
        let schedule = match import::mscclpp::read(&plan.to_string(), what, None) {
            Ok(s) => s,
            Err(e) => return wrong.push(format!("{what}: {e}")),
        };
        judged += 1;
        let speeds = judge(&schedule, &|r| format!("gpu{r}"));
        for (name, verdict) in [
            ("race-freedom", speeds.race_freedom),
            ("causal-completeness", speeds.causal_completeness),
        ] {
            if verdict != Verdict::Holds {
                wrong.push(format!("{what}: {name} {verdict:?}"));
            }
        }
    });
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(judged > 100, "{judged} plans judged");
}

/// Writes every run of the catalogue by `writer`, reads it back, and
/// asserts that the check gives the run's verdicts, time and counts, but
/// where the writer refused by one of `refusals`: the runs and those
/// refused.
fn round_trip(writer: Writer, extension: &str, refusals: &[&str]) -> (usize, usize) {
    let (mut covered, mut refused) = (0, 0);
    let mut wrong = Vec::new();
    each_run(|req, record, statuses, what| {
        covered += 1;
        let written = run_as_schedule(req)
            .map_err(|e| e.to_string())
            .and_then(|e| {
                let text = writer(&e.schedule).map_err(|e| e.to_string())?;
                Ok((text, e.network))
            });
        let (text, network) = match written {
            Ok(w) => w,
            Err(e) if refusals.iter().any(|r| e.contains(r)) => return refused += 1,
            Err(e) => return wrong.push(format!("{what}: {e}")),
        };
        let file = scratch(&format!("{}.{extension}", what.replace([' ', '/'], "-")));
        std::fs::write(&file, &text).unwrap();
        for engine in [Engine::Executor, Engine::Lockstep] {
            let outcome = match check_file(&file, req, &network, engine) {
                Ok(o) => o,
                // A worm routed lowest dimension first after a forced
                // first arc turns back through its sender (nob-ecube-low):
                // a schedule's path may not, and the check says so.
                Err(e) if e.contains("visits a node twice") => return,
                Err(e) => return wrong.push(format!("{what}: {e}")),
            };
            // A forged send (causality broken) claims a packet its sender
            // lacks: the run's holdings count it, but a schedule's buffers
            // hold values, and a forged one carries none, so the file's
            // completeness is stricter there.
            let forged = statuses[PropertyName::Causality as usize] == Status::Violated;
            let mut seen: Vec<(&str, String, String)> = JUDGED
                .iter()
                .filter(|&&p| !(forged && p == PropertyName::Completeness))
                .map(|&p| {
                    let (got, want) = (status(&outcome, p), statuses[p as usize]);
                    (p.as_str(), format!("{got:?}"), format!("{want:?}"))
                })
                .collect();
            let matching = status(&outcome, PropertyName::Matching);
            seen.push(("matching", format!("{matching:?}"), "Holds".into()));
            let pairs = [
                (
                    "time",
                    outcome.time.measured.map(u64::from),
                    record.completion as u64,
                ),
                ("transmissions", outcome.transmissions, record.transmissions),
                (
                    "control",
                    outcome.control_messages.or(Some(0)),
                    record.control,
                ),
            ];
            for (name, got, want) in pairs {
                seen.push((name, format!("{got:?}"), format!("{:?}", Some(want))));
            }
            for (name, got, want) in seen {
                if got != want {
                    wrong.push(format!(
                        "{what} by {engine:?}: {name} {got}, the run's {want}"
                    ));
                }
            }
        }
    });
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    (covered, refused)
}

/// GOAL keeps each rank's order and no slots, and its messages carry all
/// their sender holds: read back, every message is matched, the run
/// completes where the algorithm's does, with as many messages, and where
/// the run is contention-free no later (each send waits for what it
/// waited for, and nothing else; where the run sent two messages over one
/// port at once, the port takes them one after the other). What GOAL
/// cannot say is refused by name: partial sums, a bus write read by
/// several ranks, a worm's own path, more than 128 chunks a message.
#[test]
fn every_run_of_the_catalogue_written_as_goal_completes_as_it_did() {
    let refusals = [
        "cannot carry partial sums",
        "a bus write read by several ranks",
        "a path of its own",
        "at most 128",
    ];
    let (mut read_back, mut refused) = (0, 0);
    let mut wrong = Vec::new();
    each_run(|req, record, statuses, what| {
        let exported = run_as_schedule(req).unwrap_or_else(|e| panic!("{what}: {e}"));
        let file = scratch(&format!("{}.goal", what.replace([' ', '/'], "-")));
        let outcome = import::goal::write(&exported.schedule)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                std::fs::write(&file, text).unwrap();
                check_file(&file, req, &exported.network, Engine::Executor)
            });
        let outcome = match outcome {
            Ok(o) => o,
            Err(why) if refusals.iter().any(|r| why.contains(r)) => return refused += 1,
            Err(why) => return wrong.push(format!("{what}: {why}")),
        };
        read_back += 1;
        let holds = |p: PropertyName| statuses[p as usize] == Status::Holds;
        if status(&outcome, PropertyName::Matching) != Status::Holds {
            wrong.push(format!("{what}: a message is not matched"));
        }
        if holds(PropertyName::Completeness)
            && status(&outcome, PropertyName::Completeness) != Status::Holds
        {
            wrong.push(format!("{what}: incomplete as GOAL"));
        }
        // Control messages carry all their sender holds too.
        if outcome.transmissions != Some(record.transmissions + record.control) {
            wrong.push(format!(
                "{what}: {:?} messages, the run's {}",
                outcome.transmissions, record.transmissions
            ));
        }
        // Where the run sent two messages on one port at once, a
        // schedule's port takes them one after the other.
        let late = outcome.time.measured.is_none_or(|t| t > record.completion);
        if late && holds(PropertyName::ContentionFreedom) {
            wrong.push(format!(
                "{what}: {:?} slots, the run's {}",
                outcome.time.measured, record.completion
            ));
        }
    });
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(
        read_back > 100 && refused > 10,
        "{read_back} read back, {refused} refused"
    );
}

/// The command line: `--write-schedule` says how to check what it wrote,
/// and that command reports naive-tree's collision at n = 6 on the arc
/// and in the slot the algorithm's own check reports it.
#[test]
fn the_written_schedule_is_checked_as_the_command_says() {
    use crate::cli::{check, stderr, stdout};
    let file = scratch("naive-tree-6.json");
    let o = check(&[
        "naive-tree",
        "6",
        "--write-schedule",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let said = stderr(&o);
    let command = said
        .split("check it with check ")
        .nth(1)
        .expect("a command")
        .trim();
    let args: Vec<&str> = command.split_whitespace().collect();
    let checked = check(&args);
    assert_eq!(checked.status.code(), Some(1), "{}", stdout(&checked));
    let own = check(&["naive-tree", "6", "--engine", "executor"]);
    let arc = |text: &str| {
        let line = text
            .lines()
            .find(|l| l.contains("used by"))
            .expect("a collision")
            .to_string();
        line[line.find("step").unwrap()..].to_string()
    };
    assert_eq!(arc(&stdout(&checked)), arc(&stdout(&own)));
    for (args, expected) in [
        (
            vec!["sna", "3", "--write-goal", "/dev/null"],
            "cannot carry partial sums",
        ),
        (
            vec!["nob", "3", "--write-schedule", "x.json", "--json"],
            "do not print a --json report",
        ),
        (
            vec![
                "schedule",
                "x.json",
                "--network",
                "hypercube:3",
                "--write-goal",
                "y.goal",
            ],
            "does not take --write-goal",
        ),
    ] {
        let o = check(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

/// The statuses of a `--json` report's properties but race-freedom and
/// causal-completeness, which a run fixed to slots does not judge: what
/// a written run keeps of its schedule's verdicts.
fn lock_step(v: &serde_json::Value) -> Vec<(String, String)> {
    v["properties"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !["race-freedom", "causal-completeness"].contains(&p["name"].as_str().unwrap()))
        .map(|p| (p["name"].to_string(), p["status"].to_string()))
        .collect()
}

/// The status of property `name` in the JSON report `v`, as JSON text.
fn json_status(v: &serde_json::Value, name: &str) -> String {
    v["properties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["name"] == name)
        .map(|q| q["status"].to_string())
        .unwrap()
}

/// The MSCCL++ plan in `file` with its `slot` keys taken out, as MSCCL++
/// runs it: no global clock, thread blocks at their own speeds.
fn without_slots(file: &std::path::Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let mut plan: serde_json::Value = serde_json::from_str(&text).unwrap();
    for gpu in plan["gpus"].as_array_mut().unwrap() {
        for tb in gpu["threadblocks"].as_array_mut().unwrap() {
            for op in tb["ops"].as_array_mut().unwrap() {
                op.as_object_mut().unwrap().remove("slot");
            }
        }
    }
    plan.to_string()
}

/// A ring allgather on the 2-cube (ranks 0, 1, 3, 2 around) in
/// commcheck's format, with no slots: each rank sends its chunk on, then
/// forwards what it receives (round k's messages tagged k). `stuck`: rank 0's first receive waits for
/// a tag no one sends, so its later sends are never made.
fn unslotted_ring(stuck: bool) -> String {
    let ring = [0u32, 1, 3, 2];
    let mut ops = Vec::new();
    for (k, &r) in ring.iter().enumerate() {
        let next = ring[(k + 1) % 4];
        let prev = ring[(k + 3) % 4];
        for round in 0..3 {
            // The chunk sent in this round: its own, then the received.
            let sent = ring[(k + 4 - round) % 4];
            let got = ring[(k + 3 - round) % 4];
            let after = match round {
                0 => String::new(),
                _ => format!(",\"after\":[\"r{}\"]", round - 1),
            };
            ops.push(format!(
                "{{\"rank\":{r},\"label\":\"s{round}\"{after},\"send\":{{\"to\":{next},\"chunks\":[{sent}],\"tag\":{round}}}}}"
            ));
            let tag = if stuck && r == 0 && round == 0 {
                7
            } else {
                round
            };
            ops.push(format!(
                "{{\"rank\":{r},\"label\":\"r{round}\",\"recv\":{{\"from\":{prev},\"chunks\":[{got}],\"tag\":{tag}}}}}"
            ));
        }
    }
    format!(
        "{{\"format\":\"commcheck-schedule\",\"version\":1,\"ranks\":4,\"collective\":{{\"name\":\"allgather\"}},\"ops\":[{}]}}",
        ops.join(",")
    )
}

/// `check schedule FILE --write-msccl` writes the executor's run of a
/// schedule, each send fixed to the slot it went in; read back, the
/// same verdicts, time and transmissions. A schedule whose run leaves a
/// send unmade is refused naming it.
#[test]
fn the_run_of_a_schedule_is_written_as_msccl_ir() {
    use crate::cli::{check, stderr};
    let json = |args: &[&str]| -> serde_json::Value {
        let o = check(args);
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)))
    };
    let file = scratch("unslotted-ring.json");
    std::fs::write(&file, unslotted_ring(false)).unwrap();
    let xml = scratch("unslotted-ring.xml");
    let (f, x) = (file.to_str().unwrap(), xml.to_str().unwrap());
    let o = check(&[
        "schedule",
        f,
        "--network",
        "hypercube:2",
        "--write-msccl",
        x,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&xml).unwrap();
    assert!(
        text.contains("coll=\"allgather\"") && text.contains("slot=\"3\""),
        "{text}"
    );
    let net = ["--network", "hypercube:2", "--json"];
    let (before, after) = (
        json(&[&["schedule", f][..], &net].concat()),
        json(&[&["schedule", x][..], &net].concat()),
    );
    assert_eq!(before["time"]["measured"], 3);
    assert_eq!(before["time"]["measured"], after["time"]["measured"]);
    assert_eq!(before["transmissions"], after["transmissions"]);
    assert_eq!(lock_step(&before), lock_step(&after));

    std::fs::write(&file, unslotted_ring(true)).unwrap();
    let o = check(&[
        "schedule",
        f,
        "--network",
        "hypercube:2",
        "--write-msccl",
        x,
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("the executor's run never sends it"), "{err}");
}

/// `check schedule FILE --write-mscclpp` writes the executor's run of a
/// schedule as an MSCCL++ plan; read back, the same verdicts, time and
/// transmissions, and with its slots taken out it holds at every speed.
#[test]
fn the_run_of_a_schedule_is_written_as_an_mscclpp_plan() {
    use crate::cli::{check, stderr};
    let json = |args: &[&str]| -> serde_json::Value {
        let o = check(args);
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)))
    };
    let file = scratch("unslotted-ring-pp.json");
    std::fs::write(&file, unslotted_ring(false)).unwrap();
    let out = scratch("unslotted-ring.plan.json");
    let (f, p) = (file.to_str().unwrap(), out.to_str().unwrap());
    let net = ["--network", "hypercube:2"];
    let o = check(&[&["schedule", f][..], &net, &["--write-mscclpp", p]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(plan["collective"], "allgather");
    assert_eq!(plan["protocol"], "LL");
    let (before, after) = (
        json(&[&["schedule", f][..], &net, &["--json"]].concat()),
        json(&[&["schedule", p][..], &net, &["--json"]].concat()),
    );
    assert_eq!(before["time"]["measured"], 3);
    assert_eq!(before["time"]["measured"], after["time"]["measured"]);
    assert_eq!(before["transmissions"], after["transmissions"]);
    for name in [
        "completeness",
        "contention-freedom",
        "causality",
        "matching",
    ] {
        assert_eq!(
            json_status(&before, name),
            json_status(&after, name),
            "{name}"
        );
    }
    // As MSCCL++ runs it: no slots, thread blocks at their own speeds.
    std::fs::write(&out, without_slots(&out)).unwrap();
    let speeds = json(&[&["schedule", p][..], &net, &["--json"]].concat());
    for name in ["race-freedom", "causal-completeness", "completeness"] {
        assert_eq!(json_status(&speeds, name), "\"holds\"", "{name}: {speeds}");
    }
}

/// The run of an MSCCL-IR file is written in the file's own buffers, as
/// MSCCL-IR and as an MSCCL++ plan: read back, the same lock-step
/// verdicts, time and transmissions, and written again as MSCCL-IR, the
/// same text (files of plain sends and receives, of `rrs` and `rrcs` through
/// commcheck's temporaries, and of dependencies between threadblocks).
/// What a format cannot say is refused in one line: a broadcast in
/// MSCCL++, which names no broadcast; an MSCCL++ plan's puts and signals.
#[test]
fn the_run_of_an_msccl_ir_file_is_written_in_its_own_buffers() {
    use crate::cli::{check, stderr};
    let json = |args: &[&str]| -> serde_json::Value {
        let o = check(args);
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)))
    };
    let net = ["--network", "mi300x:4", "--json"];
    for (name, text) in [
        ("ring-allgather", crate::msccl::ring_allgather(4)),
        ("ring-allreduce", crate::msccl::ring_allreduce(4)),
        ("two-tb", crate::msccl::two_threadblock_allgather(4, None)),
    ] {
        let file = scratch(&format!("own-{name}.xml"));
        std::fs::write(&file, &text).unwrap();
        let f = file.to_str().unwrap();
        let before = json(&[&["schedule", f][..], &net].concat());
        assert_eq!(
            before["properties"][0]["status"], "holds",
            "{name}: {before}"
        );
        for (option, ext) in [("--write-msccl", "xml"), ("--write-mscclpp", "json")] {
            let (once, twice) = (
                scratch(&format!("own-{name}-1.{ext}")),
                scratch(&format!("own-{name}-2.{ext}")),
            );
            let (w1, w2) = (once.to_str().unwrap(), twice.to_str().unwrap());
            let o = check(&["schedule", f, "--network", "mi300x:4", option, w1]);
            assert_eq!(o.status.code(), Some(0), "{name} {option}: {}", stderr(&o));
            let after = json(&[&["schedule", w1][..], &net].concat());
            assert_eq!(lock_step(&before), lock_step(&after), "{name} {option}");
            assert_eq!(before["time"], after["time"], "{name} {option}");
            assert_eq!(
                before["transmissions"], after["transmissions"],
                "{name} {option}"
            );
            // Written again: the same text.
            let o = check(&["schedule", w1, "--network", "mi300x:4", option, w2]);
            assert_eq!(o.status.code(), Some(0), "{name} {option}: {}", stderr(&o));
            let (a, b) = (
                std::fs::read_to_string(&once).unwrap(),
                std::fs::read_to_string(&twice).unwrap(),
            );
            assert_eq!(a, b, "{name} {option}: written again, another text");
        }
    }
    let refused = |text: &str, ext: &str, option: &str, expected: &str| {
        let file = scratch(&format!("own-refused.{ext}"));
        std::fs::write(&file, text).unwrap();
        let out = scratch("own-refused-out");
        let o = check(&[
            "schedule",
            file.to_str().unwrap(),
            "--network",
            "mi300x:4",
            option,
            out.to_str().unwrap(),
        ]);
        let err = stderr(&o);
        assert_eq!(
            (o.status.code(), err.lines().count()),
            (Some(2), 1),
            "{err}"
        );
        assert!(err.contains(expected), "{err}");
    };
    let broadcast =
        crate::msccl::ring_allgather(4).replace("coll=\"allgather\"", "coll=\"broadcast\"");
    refused(
        &broadcast,
        "xml",
        "--write-mscclpp",
        "MSCCL++ has no form for it",
    );
    refused(
        &crate::mscclpp::allgather(4, false),
        "json",
        "--write-msccl",
        "MSCCL-IR has sends, receives, copies and reductions (--write-mscclpp writes it)",
    );
}

/// The run of an MSCCL++ plan of puts, gets, signals, waits, remote
/// reductions, packets (through a switch too) and semaphores is written
/// back as a plan (`--write-mscclpp`): read back, the same lock-step
/// verdicts, time and transmissions; what holds at every speed holds for
/// the export (each thread block runs in the run's order and keeps every
/// order of the plan's); written again, the same text. The plans with a
/// race (a put over unread data) and a shard reduced twice keep their
/// lock-step verdicts.
#[test]
fn the_run_of_an_mscclpp_plan_is_written_back_as_a_plan() {
    use crate::cli::{check, stderr};
    use crate::mscclpp as plans;
    let json = |args: &[&str]| -> serde_json::Value {
        let o = check(args);
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&o)))
    };
    for (name, text, network) in [
        ("allgather", plans::allgather(3, true), "dgx-h100:1"),
        ("race", plans::allgather(3, false), "dgx-h100:1"),
        ("allreduce", plans::allreduce(4, false), "dgx-h100:1"),
        ("twice", plans::allreduce(4, true), "dgx-h100:1"),
        ("gets", plans::gets_allgather(), "hypercube:1"),
        (
            "switch",
            plans::switch_packet_allgather(4, true),
            "dgx-h100:1",
        ),
        ("ring", plans::scratch_ring(2), "dgx-h100:1"),
    ] {
        let file = scratch(&format!("back-{name}.json"));
        std::fs::write(&file, &text).unwrap();
        let (once, twice) = (
            scratch(&format!("back-{name}-1.json")),
            scratch(&format!("back-{name}-2.json")),
        );
        let (f, w1, w2) = (
            file.to_str().unwrap(),
            once.to_str().unwrap(),
            twice.to_str().unwrap(),
        );
        let net = ["--network", network, "--switching", "wh"];
        let before = json(&[&["schedule", f][..], &net, &["--json"]].concat());
        let o = check(&[&["schedule", f][..], &net, &["--write-mscclpp", w1]].concat());
        let written = |o: &std::process::Output| {
            assert!(
                matches!(o.status.code(), Some(0 | 1)) && stderr(o).starts_with("wrote "),
                "{name}: {}",
                stderr(o)
            );
        };
        written(&o);
        let after = json(&[&["schedule", w1][..], &net, &["--json"]].concat());
        assert_eq!(lock_step(&before), lock_step(&after), "{name}");
        assert_eq!(before["time"], after["time"], "{name}");
        assert_eq!(before["transmissions"], after["transmissions"], "{name}");
        // As MSCCL++ runs it (no slots): what held at every speed holds.
        let free = scratch(&format!("back-{name}-free.json"));
        std::fs::write(&free, without_slots(&once)).unwrap();
        let speeds = json(&[&["schedule", free.to_str().unwrap()][..], &net, &["--json"]].concat());
        for p in ["race-freedom", "causal-completeness"] {
            if json_status(&before, p) == "\"holds\"" {
                assert_eq!(json_status(&speeds, p), "\"holds\"", "{name} {p}: {speeds}");
            }
        }
        let o = check(&[&["schedule", w1][..], &net, &["--write-mscclpp", w2]].concat());
        written(&o);
        let (a, b) = (
            std::fs::read_to_string(&once).unwrap(),
            std::fs::read_to_string(&twice).unwrap(),
        );
        assert_eq!(a, b, "{name}: written again, another text");
    }
}
