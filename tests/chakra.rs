//! Chakra execution traces (docs/schedules.md, "Chakra"), written here
//! with the reader's own protobuf messages: a ring allgather read as GOAL
//! is (messages carry all their sender holds), gzip-compressed or not; a
//! trace that embeds the MSCCL-IR it was converted from, checked as that
//! file once its messages are found to be the file's; a dropped message
//! caught; bad traces refused in one line; mutated bytes never panic.

use crate::cli::{check, stderr};
use crate::fuzz::Rng;
use crate::support::status_of as status;
use commcheck::check::schedule::{check_schedule, ScheduleRequest};
use commcheck::import::chakra::{Attribute, Metadata, Node};
use commcheck::report::Outcome;
use models::schedule::Kind;
use models::{Ports, Switching};
use properties::Status;
use prost::Message;
use std::path::{Path, PathBuf};

/// A fresh folder for one test's traces.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("commcheck-chakra-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn int(name: &str, v: i64) -> Attribute {
    Attribute {
        name: name.into(),
        int64: Some(v),
        ..Default::default()
    }
}

fn text(name: &str, v: &str) -> Attribute {
    Attribute {
        name: name.into(),
        string: Some(v.into()),
        ..Default::default()
    }
}

/// A send (`to`: Some) or receive node `id`, after `deps`.
fn comm(id: u64, to: Option<u32>, from: Option<u32>, deps: &[u64]) -> Node {
    let (kind, peer) = match (to, from) {
        (Some(p), _) => (5, int("comm_dst", p as i64)),
        (_, Some(p)) => (6, int("comm_src", p as i64)),
        _ => unreachable!(),
    };
    Node {
        id,
        name: format!("n{id}"),
        kind,
        data_deps: deps.to_vec(),
        attr: vec![peer, int("comm_size", 1024), int("comm_tag", 0)],
        ..Default::default()
    }
}

/// Writes rank r's `nodes[r]` under `prefix` (gzip-compressed if `gzip`),
/// with metadata attributes `meta`.
fn write(prefix: &Path, meta: &[Attribute], nodes: &[Vec<Node>], gzip: bool) {
    for (r, rank) in nodes.iter().enumerate() {
        let mut bytes = Vec::new();
        Metadata {
            version: "0.0.4".into(),
            attr: meta.to_vec(),
        }
        .encode_length_delimited(&mut bytes)
        .unwrap();
        for n in rank {
            n.encode_length_delimited(&mut bytes).unwrap();
        }
        if gzip {
            use std::io::Write;
            let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            z.write_all(&bytes).unwrap();
            bytes = z.finish().unwrap();
        }
        std::fs::write(format!("{}.{r}.et", prefix.display()), bytes).unwrap();
    }
}

/// The ring allgather of `n` ranks: rank r sends to r + 1 and receives
/// from r - 1, n - 1 times, each send after the last receive and each
/// receive after its round's send (as ASTRA-sim's converter chains them:
/// a trace has no program order, and unordered receives from one peer
/// may match its sends in any order).
fn ring(n: u32) -> Vec<Vec<Node>> {
    (0..n)
        .map(|r| {
            let mut nodes = Vec::new();
            for k in 0..n as u64 - 1 {
                let deps: Vec<u64> = (k > 0).then(|| 2 * k - 1).into_iter().collect();
                nodes.push(comm(2 * k, Some((r + 1) % n), None, &deps));
                nodes.push(comm(2 * k + 1, None, Some((r + n - 1) % n), &[2 * k]));
            }
            nodes
        })
        .collect()
}

fn run(file: &Path, network: &str) -> Result<Outcome, commcheck::check::CheckError> {
    check_schedule(&ScheduleRequest {
        switching: Switching::Wh,
        ports: Ports::All,
        ..ScheduleRequest::new(file, network.parse().unwrap())
    })
}

/// The ring allgather of 4 ranks, its collective named in the metadata,
/// read as GOAL is: complete in 3 rounds, gzip-compressed or not, named
/// by a rank's file, by the prefix or by the folder; a rank that never
/// sends its last message leaves its neighbour without a chunk.
#[test]
fn a_ring_allgather_trace_completes() {
    for gzip in [false, true] {
        let dir = folder(&format!("ring-{gzip}"));
        let prefix = dir.join("ring");
        write(&prefix, &[text("collective", "allgather")], &ring(4), gzip);
        for named in [dir.join("ring.2.et"), prefix.clone(), dir.clone()] {
            let o = run(&named, "hypercube:2").unwrap();
            // Not no-duplication: a rank that forwards all it holds sends
            // what it sent the round before again.
            for p in ["completeness", "causality", "matching"] {
                assert_eq!(status(&o, p), Status::Holds, "{p}\n{}", o.text());
            }
            assert_eq!(o.time.measured, Some(3), "{}", o.text());
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    let dir = folder("dropped");
    let prefix = dir.join("ring");
    let mut nodes = ring(4);
    nodes[1].retain(|n| n.id != 4); // rank 1's last send
    nodes[1].last_mut().unwrap().data_deps = vec![3]; // its receive after the last
    nodes[2].retain(|n| n.id != 5); // and rank 2's receive of it
    write(&prefix, &[text("collective", "allgather")], &nodes, false);
    let o = run(&prefix, "hypercube:2").unwrap();
    assert_eq!(status(&o, "completeness"), Status::Violated, "{}", o.text());
    assert!(o.text().contains("rank 2"), "{}", o.text());
    let _ = std::fs::remove_dir_all(dir);
}

/// A trace that embeds its source MSCCL-IR (as ASTRA-sim's converter
/// writes it) is checked as that file, with the same verdicts and time as
/// the file itself, once the trace's messages are the file's steps; a
/// trace that lacks one of them is refused.
#[test]
fn a_trace_that_embeds_its_msccl_ir_is_checked_as_that_file() {
    let xml = crate::msccl::ring_allgather(4);
    let source = commcheck::import::msccl::read(&xml, "ring.xml").unwrap();
    // One node a step's send or receive: the first packet of each.
    let mut nodes: Vec<Vec<Node>> = vec![Vec::new(); 4];
    let mut seen = std::collections::HashSet::new();
    for o in &source.ops {
        let (to, from) = match &o.kind {
            Kind::Send { to, .. } => (Some(*to), None),
            Kind::Recv { from, .. } => (None, *from),
            _ => continue,
        };
        if seen.insert((o.rank, o.label.clone(), to.is_some())) {
            let rank = &mut nodes[o.rank as usize];
            rank.push(comm(rank.len() as u64, to, from, &[]));
        }
    }
    let dir = folder("embedded");
    let prefix = dir.join("ag");
    let meta = [text("input_file", &xml), text("collective", "allgather")];
    write(&prefix, &meta, &nodes, false);
    let traced = run(&prefix, "hypercube:2").unwrap();
    let file = dir.join("ring.xml");
    std::fs::write(&file, &xml).unwrap();
    let direct = run(&file, "hypercube:2").unwrap();
    for p in &direct.properties {
        assert_eq!(status(&traced, p.name), p.status, "{}", traced.text());
    }
    assert_eq!(traced.time.measured, direct.time.measured);
    assert!(
        traced.text().contains("the MSCCL-IR the trace embeds"),
        "{}",
        traced.text()
    );

    nodes[3].pop();
    write(&prefix, &meta, &nodes, false);
    let err = run(&prefix, "hypercube:2").unwrap_err().to_string();
    assert!(err.contains("the trace is not of that file"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

/// `check schedule PATH --network hypercube:1` refuses in one line with
/// exit 2, saying each of `expected`.
fn refused(path: &Path, what: &str, expected: &[&str]) {
    let o = check(&[
        "schedule",
        path.to_str().unwrap(),
        "--network",
        "hypercube:1",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert_eq!(err.lines().count(), 1, "{what}: one line: {err}");
    assert!(expected.iter().all(|e| err.contains(e)), "{what}: {err}");
}

/// Bad traces and bad names: one line, the file, what was wrong.
#[test]
fn bad_traces_are_refused_in_one_line() {
    let dir = folder("bad");
    let good = ring(2);
    let mut coll = good.clone();
    coll[0][0].kind = 7;
    let mut missing = good.clone();
    missing[0][0].data_deps = vec![9];
    let mut far = good.clone();
    far[0][0].attr[0] = int("comm_dst", 5);
    let mut twice = good.clone();
    twice[1][1].id = 0;
    let cases: Vec<(&str, Vec<Vec<Node>>, &str)> = vec![
        ("coll", coll, "a collective (COMM_COLL_NODE)"),
        ("missing", missing, "it depends on node 9, not in the file"),
        ("far", far, "comm_dst 5: ranks are 0 to 1"),
        ("twice", twice, "a second node with this id"),
        ("nameless", good.clone(), "name it with --collective"),
    ];
    let meta = [text("collective", "allgather")];
    for (name, nodes, expected) in cases {
        let prefix = dir.join(name);
        let meta: &[Attribute] = match name {
            "nameless" => &[],
            _ => &meta,
        };
        write(&prefix, meta, &nodes, false);
        refused(&prefix, name, &[expected]);
    }
    // Not protobuf, empty, cut short; no trace at all.
    let prefix = dir.join("ring");
    write(&prefix, &meta, &good, false);
    let whole = std::fs::read(dir.join("ring.1.et")).unwrap();
    for (name, bytes, expected) in [
        ("text", b"num_ranks 2\n".to_vec(), "not a Chakra trace"),
        (
            "empty",
            Vec::new(),
            "empty: a Chakra trace opens with its metadata",
        ),
        (
            "cut",
            whole[..whole.len() - 3].to_vec(),
            "not a Chakra trace: the node",
        ),
    ] {
        std::fs::write(dir.join("ring.1.et"), bytes).unwrap();
        refused(&prefix, name, &["ring.1.et", expected]);
    }
    refused(&dir.join("none.et"), "none", &["no Chakra trace: expected"]);
    // The folder holds several traces: which is meant is not told.
    refused(
        &dir,
        "folder",
        &["6 traces in this folder (coll, far, missing, nameless, ring, twice): name one by its prefix"],
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Mutated traces (bytes flipped, cut, repeated): read and run, or
/// refused in one line; never a panic.
#[test]
fn mutated_traces_never_panic() {
    let dir = folder("fuzz");
    let prefix = dir.join("ring");
    write(&prefix, &[text("collective", "allgather")], &ring(4), false);
    let whole = std::fs::read(dir.join("ring.0.et")).unwrap();
    let mut rng = Rng(0x5eed_c4a1_7a00_0001);
    for k in 0..300 {
        let mut bytes = whole.clone();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(bytes.len());
            match rng.below(3) {
                0 => bytes[i] = rng.next() as u8,
                1 => bytes.truncate(i),
                _ => {
                    let piece = bytes[i..].to_vec();
                    bytes.extend(piece);
                }
            }
            if bytes.is_empty() {
                break;
            }
        }
        std::fs::write(dir.join("ring.0.et"), &bytes).unwrap();
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&prefix, "hypercube:2")));
        match result {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => assert_eq!(e.to_string().lines().count(), 1, "input {k}: {e}"),
            Err(_) => panic!("input {k} panicked: {bytes:?}"),
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
