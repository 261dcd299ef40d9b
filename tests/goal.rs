//! GOAL files (LogGOPSim's format, docs/schedules.md): a binomial
//! broadcast and a dissemination barrier written as Schedgen writes them
//! (tests/schedules/*.goal), checked on the cube under both port models
//! and both switchings; a dependency taken out is caught; bad files and
//! flags are refused in one line with where and what.

use crate::cli::{check, stderr};
use crate::support::status_of as status;
use commcheck::check::schedule::{check_schedule, ScheduleRequest};
use commcheck::check::{CheckError, Options};
use commcheck::engine::Engine;
use commcheck::import::collective::Collective;
use commcheck::report::Outcome;
use models::{Ports, Switching};
use properties::Status;
use std::path::PathBuf;

/// The check of GOAL file `file` as `collective` on the 3-cube.
fn goal(
    file: PathBuf,
    collective: &str,
    switching: Switching,
    ports: Ports,
    engine: Engine,
) -> Result<Outcome, CheckError> {
    check_schedule(&ScheduleRequest {
        collective: Some(Collective::parse(collective).unwrap()),
        switching,
        ports,
        options: Options {
            engine: Some(engine),
            ..Options::default()
        },
        ..ScheduleRequest::new(file, "hypercube:3".parse().unwrap())
    })
}

fn data(file: &str) -> PathBuf {
    format!("tests/schedules/{file}").into()
}

const SAFETY: [&str; 5] = [
    "completeness",
    "no-duplication",
    "contention-freedom",
    "causality",
    "matching",
];

/// The binomial tree from rank 0, whose sends GOAL leaves unordered.
/// All-port: the three rounds of the tree, log2 8 = 3 slots. One-port,
/// the worst order: the root reaches rank 4 last (slot 3), rank 4 reaches
/// rank 6 last (slot 5), and rank 6 reaches rank 7 at slot 6 = 3 + 2 + 1;
/// the exhaustive search finds it, the executor's one run takes no more.
/// Every rank but the root is told once: 7 messages, the fewest.
#[test]
fn a_binomial_broadcast_from_goal_completes_and_its_worst_order_is_found() {
    let run = |ports, engine| {
        goal(
            data("binomial_8.goal"),
            "broadcast:0",
            Switching::Sf,
            ports,
            engine,
        )
        .unwrap()
    };
    for engine in [Engine::Exhaustive, Engine::Executor] {
        let o = run(Ports::All, engine);
        for name in SAFETY {
            assert_eq!(status(&o, name), Status::Holds, "{name}\n{}", o.text());
        }
        assert_eq!(o.time.measured, Some(3), "{}", o.text());
        assert_eq!(o.transmissions, Some(7));
        assert_eq!(o.optimal_transmissions, Some(7));
    }
    let worst = run(Ports::One, Engine::Exhaustive);
    assert_eq!(worst.time.measured, Some(6), "{}", worst.text());
    let one = run(Ports::One, Engine::Executor);
    let t = one.time.measured.unwrap();
    assert!((3..=6).contains(&t), "{}", one.text());
}

/// The dissemination barrier: round k sends to rank + 2^k, after the
/// receive of round k - 1. Its peers are not all neighbours, so
/// store-and-forward refuses it, naming the send and the way out; as
/// worms it completes in its 3 rounds, whether read as a barrier or as
/// an allgather. Taking out rank 0's `l3 requires l2` lets its second
/// round leave before it has heard from rank 7: rank 2 never hears of
/// rank 7, and completeness fails. At every relative speed the file is
/// no barrier at all, and with each round's receive after the last
/// round's it is.
#[test]
fn a_dissemination_barrier_needs_worms_and_its_dependencies() {
    let refused = goal(
        data("dissemination_8.goal"),
        "barrier",
        Switching::Sf,
        Ports::All,
        Engine::Exhaustive,
    )
    .map(|o| o.text())
    .unwrap_err()
    .to_string();
    assert!(
        refused.contains("rank 1 (001), l1 (line 16)") && refused.contains("--switching wh"),
        "{refused}"
    );
    for collective in ["barrier", "allgather"] {
        for ports in [Ports::All, Ports::One] {
            let o = goal(
                data("dissemination_8.goal"),
                collective,
                Switching::Wh,
                ports,
                Engine::Exhaustive,
            )
            .unwrap();
            for name in SAFETY {
                assert_eq!(status(&o, name), Status::Holds, "{name}\n{}", o.text());
            }
            assert_eq!(o.time.measured, Some(3), "{}", o.text());
            // Messages that carry all their sender knows: no count is
            // known to be the fewest, and none is claimed.
            assert_eq!(o.optimal_transmissions, None);
            assert!(o.properties.iter().all(|p| p.name != "transmissions"));
        }
    }

    let text = std::fs::read_to_string(data("dissemination_8.goal")).unwrap();
    let barrier = |file: PathBuf| {
        goal(
            file,
            "barrier",
            Switching::Wh,
            Ports::All,
            Engine::Exhaustive,
        )
        .unwrap()
    };
    // At every speed it is no barrier: a round's receive waits for
    // nothing, so rank 0's end has causal chains from ranks 7 (round 0),
    // 6 and 5 (round 1), 4, 2 and 1 (round 2) only.
    let o = barrier(data("dissemination_8.goal"));
    assert_eq!(
        status(&o, "causal-completeness"),
        Status::Violated,
        "{}",
        o.text()
    );
    assert!(
        o.text().contains(
            "rank 0 (000) can end with no causal chain from rank 3 (011): at some speeds"
        ),
        "{}",
        o.text()
    );
    // Each round's receive after the last round's: a barrier at every
    // speed.
    let chained = text
        .replace("l5 requires l4\n", "l5 requires l4\nl4 requires l2\n")
        .replace("\n}", "\nl6 requires l4\n}");
    let file = std::env::temp_dir().join(format!("commcheck-chained-{}.goal", std::process::id()));
    std::fs::write(&file, chained).unwrap();
    let o = barrier(file.clone());
    let _ = std::fs::remove_file(file);
    assert_eq!(
        status(&o, "causal-completeness"),
        Status::Holds,
        "{}",
        o.text()
    );
    assert!(!o.refuted(), "{}", o.text());

    let rank0 = text.find("rank 0 {").unwrap();
    let dep = rank0 + text[rank0..].find("l3 requires l2\n").unwrap();
    let mutant = format!(
        "{}{}",
        &text[..dep],
        &text[dep + "l3 requires l2\n".len()..]
    );
    let file = std::env::temp_dir().join(format!("commcheck-goal-{}.goal", std::process::id()));
    std::fs::write(&file, mutant).unwrap();
    let o = goal(
        file.clone(),
        "barrier",
        Switching::Wh,
        Ports::All,
        Engine::Exhaustive,
    )
    .unwrap();
    assert_eq!(status(&o, "completeness"), Status::Violated, "{}", o.text());
    let _ = std::fs::remove_file(file);
}

/// Bad GOAL and bad flags: one line, the file and line, what was wrong.
#[test]
fn bad_goal_is_refused_in_one_line() {
    let dir = std::env::temp_dir().join(format!("commcheck-goal-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let block = |body: &str| format!("num_ranks 2\nrank 0 {{\n{body}\n}}\n");
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "semicolon",
            "num_ranks 2;\n".into(),
            ":1: expected the number of ranks, found '2;'",
        ),
        (
            "send to any",
            block("l1: send 1b to -1"),
            ":3: a send to any rank (-1)",
        ),
        (
            "unknown label",
            block("l1: send 1b to 1\nl1 requires l9"),
            ":4: no operation labelled l9 on rank 0",
        ),
        (
            "two blocks",
            format!("{}rank 0 {{\n}}\n", block("l1: calc 1")),
            ":5: rank 0 has two blocks",
        ),
        (
            "label defined later",
            block("l2: calc 1\nl2 requires l1\nl1: calc 2"),
            ":4: l1 is defined later, on line 5: LogGOPSim reads a dependency only on a label \
             defined before it",
        ),
        (
            "label twice",
            block("l1: calc 1\nl1: calc 2"),
            ":4: label l1 is defined twice on rank 0",
        ),
        (
            "no size",
            block("l1: send 8 to 1"),
            ":3: expected a size in bytes such as 8b, found '8'",
        ),
        (
            "options out of order",
            block("l1: send 8b to 1 cpu 0 tag 1"),
            ":3: tag out of order: tag, cpu, nic",
        ),
        ("open block", "num_ranks 2\nrank 0 {\n".into(), "not closed"),
        (
            "open comment",
            "num_ranks 2\n/* rank 0 {\n".into(),
            "a /* comment is not closed",
        ),
        (
            "rank out of range",
            "num_ranks 2\nrank 2 {\n}\n".into(),
            ":2: rank 2: ranks are 0 to 1",
        ),
        (
            "no ranks",
            "rank 0 {\n}\n".into(),
            "a rank block before num_ranks",
        ),
        ("zero ranks", "num_ranks 0\n".into(), "0 ranks: 1 to"),
        (
            "a million ranks' barrier",
            "num_ranks 1048576\n".into(),
            "1048576 ranks of 1048576 positions each: commcheck keeps every rank's positions, \
             at most 2^24 values in all",
        ),
        (
            "not goal",
            "{\"format\": \"commcheck-schedule\"}\n".into(),
            ":1: expected num_ranks N or rank R {, found '{\"format\":",
        ),
    ];
    for (what, text, expected) in cases {
        let file = dir.join(format!("{}.goal", what.replace(' ', "_")));
        std::fs::write(&file, text).unwrap();
        let o = check(&[
            "schedule",
            file.to_str().unwrap(),
            "--network",
            "hypercube:1",
            "--collective",
            "barrier",
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert_eq!(err.lines().count(), 1, "{what}: one line: {err}");
        assert!(err.contains(expected), "{what}: {err}");
    }
    let binomial = "tests/schedules/binomial_8.goal";
    for (args, expected) in [
        (vec![binomial], "name it with --collective"),
        (
            vec![binomial, "--collective", "broadcast"],
            "names its root: --collective broadcast:0",
        ),
        (
            vec![binomial, "--collective", "gossip"],
            "'gossip' is not a collective",
        ),
        (
            vec![binomial, "--collective", "allreduce"],
            "names no data: commcheck reads such messages as partial sums for a reduce",
        ),
        (
            vec![
                "tests/schedules/binomial_q3.json",
                "--collective",
                "barrier",
            ],
            "--collective is for GOAL",
        ),
        (
            vec![
                "tests/schedules/binomial_q3.json",
                "--format",
                "goal",
                "--collective",
                "barrier",
            ],
            "binomial_q3.json:1: expected num_ranks N or rank R {, found '{'",
        ),
    ] {
        let mut argv = vec!["schedule"];
        argv.extend(&args);
        argv.extend(["--network", "hypercube:3"]);
        let o = check(&argv);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Comments anywhere, labels with `label :` spacing, a statement after
/// `rank R {`, `cpu` and `nic` ignored: the same schedule as without.
#[test]
fn goal_layout_does_not_change_the_schedule() {
    let plain =
        "num_ranks 2\nrank 0 {\nl1: send 4b to 1 tag 3\n}\nrank 1 {\nl1: recv 4b from 0 tag 3\n}\n";
    let dressed = "// two ranks\nnum_ranks 2 /* of 2 */\nrank 0 { l1 : send 4b to 1 tag 3 cpu 0 nic 1 // the one send\n}\n\
                   /* rank 1\n   receives */\nrank 1 {\nl1: recv 4b from -1 tag -1 cpu 0\n}\n";
    let read = |text: &str| {
        commcheck::import::goal::read(
            text,
            "t.goal",
            Some(&Collective::Broadcast { root: 0, chunks: 1 }),
            None,
        )
    };
    let (a, b) = (read(plain).unwrap(), read(dressed).unwrap());
    assert_eq!(a.ranks, b.ranks);
    assert_eq!(a.ops.len(), b.ops.len());
    let kinds = |s: &models::schedule::Schedule| -> Vec<String> {
        s.ops
            .iter()
            .map(|o| format!("{} {:?}", o.rank, o.kind))
            .collect()
    };
    // The receive from any rank with any tag differs in its source and
    // tag only.
    assert_eq!(kinds(&a)[0], kinds(&b)[0]);
    assert!(kinds(&b)[1].contains("from: None") && kinds(&b)[1].contains("tag: None"));
}

/// A root that tells 511 ranks one by one (one-port worms on the
/// 9-cube) takes 511 slots, far above the lower bounds (spreading: 9):
/// the run is followed to its end, however long, and the bounds are
/// printed beside it.
#[test]
fn a_long_schedule_is_followed_to_its_end() {
    let ranks = 512;
    let mut text = format!("num_ranks {ranks}\nrank 0 {{\n");
    for r in 1..ranks {
        text += &format!("l{r}: send 1b to {r}\n");
    }
    text += "}\n";
    for r in 1..ranks {
        text += &format!("rank {r} {{\nl1: recv 1b from 0\n}}\n");
    }
    let file = std::env::temp_dir().join(format!("commcheck-star-{}.goal", std::process::id()));
    std::fs::write(&file, text).unwrap();
    let o = check_schedule(&ScheduleRequest {
        collective: Some(Collective::Broadcast { root: 0, chunks: 1 }),
        switching: Switching::Wh,
        ports: Ports::One,
        options: Options {
            engine: Some(Engine::Executor),
            ..Options::default()
        },
        ..ScheduleRequest::new(&file, "hypercube:9".parse().unwrap())
    })
    .unwrap();
    let _ = std::fs::remove_file(file);
    assert_eq!(status(&o, "completeness"), Status::Holds, "{}", o.text());
    assert_eq!(o.time.measured, Some(ranks as u32 - 1), "{}", o.text());
    let bounds: Vec<(&str, u32)> = o
        .time
        .lower_bounds
        .iter()
        .map(|b| (b.name, b.steps))
        .collect();
    assert!(bounds.contains(&("spreading", 9)), "{bounds:?}");
}

/// `--packet-bytes`: the binomial tree's messages made 4 bytes are one
/// packet each by default (3 slots all-port), two packets of 2 bytes
/// (each hop takes 2 slots: 6), four of 1 byte (12).
#[test]
fn packet_bytes_turns_a_message_into_packets() {
    let text = std::fs::read_to_string(data("binomial_8.goal"))
        .unwrap()
        .replace(" 1b ", " 4b ");
    let file = std::env::temp_dir().join(format!("commcheck-packets-{}.goal", std::process::id()));
    std::fs::write(&file, text).unwrap();
    for (bytes, slots) in [(None, 3), (Some(4), 3), (Some(2), 6), (Some(1), 12)] {
        let o = check_schedule(&ScheduleRequest {
            collective: Some(Collective::Broadcast { root: 0, chunks: 1 }),
            packet_bytes: bytes,
            options: Options {
                engine: Some(Engine::Exhaustive),
                ..Options::default()
            },
            ..ScheduleRequest::new(&file, "hypercube:3".parse().unwrap())
        })
        .unwrap();
        for name in SAFETY {
            assert_eq!(
                status(&o, name),
                Status::Holds,
                "{name} {bytes:?}\n{}",
                o.text()
            );
        }
        assert_eq!(o.time.measured, Some(slots), "{bytes:?}\n{}", o.text());
    }
    let _ = std::fs::remove_file(file);
    let o = check(&[
        "schedule",
        "tests/schedules/binomial_q3.json",
        "--network",
        "hypercube:3",
        "--packet-bytes",
        "2",
    ]);
    assert!(
        stderr(&o).contains("--packet-bytes sizes GOAL's messages"),
        "{}",
        stderr(&o)
    );
}

/// The reader streams a line at a time: a line past its limit is refused
/// by number before more of it is held, and the file read from disk gives
/// the schedule the text gives.
#[test]
fn goal_is_read_a_line_at_a_time() {
    use commcheck::import::goal::{read, read_from, MAX_LINE_BYTES};
    let collective = Collective::Broadcast { root: 0, chunks: 1 };
    let mut long = b"num_ranks 2\nrank 0 {\n".to_vec();
    long.resize(long.len() + MAX_LINE_BYTES + 10, b'x');
    let err = read_from(&long[..], "long.goal", Some(&collective), None).unwrap_err();
    assert!(
        err.to_string().contains("long.goal:3: a line of more than"),
        "{err}"
    );
    let text = "num_ranks 2\r\nrank 0 {\r\nl1: send 1b to 1 tag 0\r\n}\r\nrank 1 {\r\nl1: recv 1b from 0 tag 0\r\n}";
    let a = read(text, "crlf.goal", Some(&collective), None).unwrap();
    let b = read_from(
        std::io::BufReader::with_capacity(3, text.as_bytes()),
        "crlf.goal",
        Some(&collective),
        None,
    )
    .unwrap();
    assert_eq!(a, b);
    assert_eq!(a.ops.len(), 2);
}

/// The binomial reduce to rank 0 of `n` ranks in GOAL (round k: a rank
/// with bit k set sends its sum to the rank without it, after its own
/// receives), with `extra` sends added (from, to) and received, and the
/// messages of `dropped` senders taken out with their receives.
fn binomial_reduce(n: u32, extra: &[(u32, u32)], dropped: &[u32]) -> String {
    let mut text = format!("num_ranks {n}\n");
    for r in 0..n {
        let mut ops: Vec<String> = Vec::new();
        let mut recvs = Vec::new();
        let mut k = 1;
        while k < n && r & k == 0 {
            if r + k < n && !dropped.contains(&(r + k)) {
                recvs.push(ops.len() + 1);
                ops.push(format!("recv 1b from {}", r + k));
            }
            k <<= 1;
        }
        for &(from, _) in extra.iter().filter(|e| e.1 == r) {
            recvs.push(ops.len() + 1);
            ops.push(format!("recv 1b from {from}"));
        }
        let mut deps = String::new();
        let mut send = |to: u32, ops: &mut Vec<String>| {
            ops.push(format!("send 1b to {to}"));
            for l in &recvs {
                deps += &format!("l{} requires l{l}\n", ops.len());
            }
        };
        if r != 0 && !dropped.contains(&r) {
            send(r - (r & r.wrapping_neg()), &mut ops);
        }
        for &(_, to) in extra.iter().filter(|e| e.0 == r) {
            send(to, &mut ops);
        }
        text += &format!("rank {r} {{\n");
        for (i, op) in ops.iter().enumerate() {
            text += &format!("l{}: {op}\n", i + 1);
        }
        text += &format!("{deps}}}\n");
    }
    text
}

/// A reduce in GOAL is read as partial sums (each message its sender's
/// sum, each receive adding it), and the report says so: the binomial
/// reduce to rank 0 sums every contribution once in log2 8 = 3 rounds.
/// A leaf that also sends its sum straight to the root is counted twice,
/// and a rank whose message is taken out is missing from the root's sum,
/// each named in the file's terms.
#[test]
fn a_goal_reduce_is_read_as_partial_sums() {
    let run = |name: &str, text: String| {
        let file = std::env::temp_dir().join(format!(
            "commcheck-reduce-{name}-{}.goal",
            std::process::id()
        ));
        std::fs::write(&file, text).unwrap();
        let o = goal(
            file.clone(),
            "reduce:0",
            Switching::Wh,
            Ports::All,
            Engine::Exhaustive,
        )
        .unwrap();
        let _ = std::fs::remove_file(file);
        o
    };
    let o = run("good", binomial_reduce(8, &[], &[]));
    for name in SAFETY {
        assert_eq!(status(&o, name), Status::Holds, "{name}\n{}", o.text());
    }
    assert_eq!(o.time.measured, Some(3), "{}", o.text());
    assert!(
        o.text()
            .contains("reduce to rank 0 (messages read as partial sums"),
        "{}",
        o.text()
    );

    let o = run("twice", binomial_reduce(8, &[(3, 0)], &[]));
    assert_eq!(status(&o, "completeness"), Status::Violated, "{}", o.text());
    let text = o.text();
    assert!(
        text.contains("rank 0 (000) ends with rank 3 (011)'s term counted twice at position 0"),
        "{text}"
    );

    let o = run("dropped", binomial_reduce(8, &[], &[5]));
    assert_eq!(status(&o, "completeness"), Status::Violated, "{}", o.text());
    let text = o.text();
    assert!(
        text.contains("lacking") && text.contains("rank 5"),
        "{text}"
    );
}

/// A 16-rank alltoall has 256 chunks, and a GOAL message carries all its
/// sender holds: a ring that forwards everything it has heard carries
/// chunks more than 127 apart, and every rank ends with its own sixteen.
#[test]
fn a_message_carries_more_than_128_chunks() {
    let n = 16;
    let mut text = format!("num_ranks {n}\n");
    for r in 0..n {
        text += &format!("rank {r} {{\n");
        for k in 1..n {
            text += &format!(
                "s{k}: send 1b to {}\nr{k}: recv 1b from {}\n",
                (r + 1) % n,
                (r + n - 1) % n
            );
            // Each round's send after the last receive, its receive after
            // the send: unordered receives from one peer would match its
            // sends in every order.
            if k > 1 {
                text += &format!("s{k} requires r{}\n", k - 1);
            }
            text += &format!("r{k} requires s{k}\n");
        }
        text += "}\n";
    }
    let file = std::env::temp_dir().join(format!("commcheck-a2a-{}.goal", std::process::id()));
    std::fs::write(&file, text).unwrap();
    let o = check_schedule(&ScheduleRequest {
        collective: Some(Collective::parse("alltoall").unwrap()),
        switching: Switching::Wh,
        ports: Ports::All,
        ..ScheduleRequest::new(&file, "hypercube:4".parse().unwrap())
    })
    .unwrap();
    let _ = std::fs::remove_file(file);
    assert_eq!(status(&o, "completeness"), Status::Holds, "{}", o.text());
    assert_eq!(o.time.measured, Some(n - 1), "{}", o.text());
}
