//! MSCCL-IR files (docs/schedules.md, "MSCCL-IR"), written here the way
//! msccl-tools writes them: the ring allgather and the ring allreduce on
//! R GPUs, generated from the algorithms' definitions, checked on a ring
//! and on the cube; seeded bugs (a step that forgets its own
//! contribution, a threadblock that receives in the wrong order, a
//! dependency never released, a cycle of dependencies) caught; bad files
//! refused in one line with where and what.

use crate::cli::{check, stderr};
use crate::support::{status_of as status, TempFile};
use commcheck::check::schedule::{check_schedule, Format, Map, ScheduleRequest};
use commcheck::check::{CheckError, Options};
use commcheck::engine::Engine;
use commcheck::report::Outcome;
use models::Switching;
use properties::Status;
use std::fmt::Write;

/// One step of a threadblock, as msccl-tools writes it.
struct Step {
    kind: &'static str,
    buf: &'static str,
    off: u32,
    dep: Option<(u32, u32)>,
    hasdep: bool,
}

fn step(kind: &'static str, buf: &'static str, off: u32) -> Step {
    Step {
        kind,
        buf,
        off,
        dep: None,
        hasdep: false,
    }
}

/// A threadblock: its send peer, receive peer, channel and steps.
struct Tb {
    send: i64,
    recv: i64,
    chan: u32,
    steps: Vec<Step>,
}

/// The XML of `gpus`, each its buffers' sizes (i, o, s) and threadblocks.
fn xml(coll: &str, inplace: bool, gpus: &[([u32; 3], Vec<Tb>)]) -> String {
    let n = gpus.len();
    let channels = gpus
        .iter()
        .flat_map(|g| g.1.iter().map(|t| t.chan + 1))
        .max()
        .unwrap_or(1);
    let per_loop = gpus[0].0[0].max(gpus[0].0[1]);
    let mut s = format!(
        "<algo name=\"test_{coll}\" proto=\"Simple\" nchannels=\"{channels}\" \
         nchunksperloop=\"{per_loop}\" ngpus=\"{n}\" coll=\"{coll}\" inplace=\"{}\">\n",
        inplace as u8
    );
    for (id, ([i, o, sc], tbs)) in gpus.iter().enumerate() {
        let _ = writeln!(
            s,
            "  <gpu id=\"{id}\" i_chunks=\"{i}\" o_chunks=\"{o}\" s_chunks=\"{sc}\">"
        );
        for (t, tb) in tbs.iter().enumerate() {
            let _ = writeln!(
                s,
                "    <tb id=\"{t}\" send=\"{}\" recv=\"{}\" chan=\"{}\">",
                tb.send, tb.recv, tb.chan
            );
            for (k, st) in tb.steps.iter().enumerate() {
                let (depid, deps) = st.dep.map_or((-1, -1), |(a, b)| (a as i64, b as i64));
                let _ = writeln!(
                    s,
                    "      <step s=\"{k}\" type=\"{}\" srcbuf=\"{b}\" srcoff=\"{o}\" \
                     dstbuf=\"{b}\" dstoff=\"{o}\" cnt=\"1\" depid=\"{depid}\" deps=\"{deps}\" \
                     hasdep=\"{}\"/>",
                    st.kind,
                    st.hasdep as u8,
                    b = st.buf,
                    o = st.off
                );
            }
            s.push_str("    </tb>\n");
        }
        s.push_str("  </gpu>\n");
    }
    s.push_str("</algo>\n");
    s
}

/// The ring allgather in place on `n` GPUs: GPU r sends its chunk (at
/// output r) to r + 1, then receives and forwards chunks r - 1, r - 2,
/// ..., and keeps the last, r + 1.
pub fn ring_allgather(n: u32) -> String {
    let gpus: Vec<_> = (0..n)
        .map(|r| {
            let mut steps = vec![step("s", "o", r)];
            for t in 1..n {
                let kind = if t == n - 1 { "r" } else { "rcs" };
                steps.push(step(kind, "o", (r + n - t) % n));
            }
            let tb = Tb {
                send: ((r + 1) % n) as i64,
                recv: ((r + n - 1) % n) as i64,
                chan: 0,
                steps,
            };
            ([0, n, 0], vec![tb])
        })
        .collect();
    xml("allgather", true, &gpus)
}

/// The ring allreduce in place on `n` GPUs with `n` chunks: chunk c
/// starts at GPU c, is summed along the ring (`rrs`), completed at GPU
/// c - 1 (`rrcs`) and passed on (`rcs`) until GPU c - 2 receives it.
/// At its t-th step GPU r handles chunk r - t.
pub fn ring_allreduce(n: u32) -> String {
    ring_allreduce_on(n, 1)
}

/// The ring allreduce on `n` GPUs over two channels, as NCCL runs a ring
/// both ways round: channel 0 is [`ring_allreduce`] on chunks 0..n (GPU r
/// sends to r + 1), channel 1 the same ring the other way on chunks
/// n..2n (GPU r sends to r - 1; at its t-th step it handles chunk
/// n + (r + t) mod n).
pub fn ring_allreduce_both_ways(n: u32) -> String {
    ring_allreduce_on(n, 2)
}

/// The ring allreduce on `n` GPUs over `channels` (1 or 2) channels.
fn ring_allreduce_on(n: u32, channels: u32) -> String {
    let gpus: Vec<_> = (0..n)
        .map(|r| {
            let tb = |chan: u32| {
                let steps = (0..2 * n - 1)
                    .map(|t| {
                        let kind = match t {
                            0 => "s",
                            t if t < n - 1 => "rrs",
                            t if t == n - 1 => "rrcs",
                            t if t < 2 * n - 2 => "rcs",
                            _ => "r",
                        };
                        let chunk = match chan {
                            0 => (r + n * 2 - t) % n,
                            _ => n + (r + t) % n,
                        };
                        step(kind, "i", chunk)
                    })
                    .collect();
                let (next, prev) = ((r + 1) % n, (r + n - 1) % n);
                let (send, recv) = match chan {
                    0 => (next, prev),
                    _ => (prev, next),
                };
                Tb {
                    send: send as i64,
                    recv: recv as i64,
                    chan,
                    steps,
                }
            };
            ([channels * n, 0, 0], (0..channels).map(tb).collect())
        })
        .collect();
    xml("allreduce", true, &gpus)
}

/// Writes `text` to a file of its own and checks it on `network`.
fn run(
    name: &str,
    text: &str,
    network: &str,
    switching: Switching,
    engine: Engine,
) -> Result<Outcome, CheckError> {
    let file = TempFile::new(&format!("msccl-{name}.xml"), text);
    check_schedule(&ScheduleRequest {
        format: Some(Format::Msccl),
        switching,
        options: Options {
            engine: Some(engine),
            ..Options::default()
        },
        ..ScheduleRequest::new(file.0.clone(), network.parse().unwrap())
    })
}

const SAFETY: [&str; 4] = [
    "completeness",
    "contention-freedom",
    "causality",
    "matching",
];

/// A ring of `n` GPUs as a graph file: GPU r's link to r + 1, both ways.
pub fn ring_graph(n: u32) -> String {
    let links: Vec<String> = (0..n).map(|r| format!("[{r}, {}]", (r + 1) % n)).collect();
    let text = format!(
        "{{\"format\": \"commcheck-network\", \"version\": 1, \"nodes\": {n}, \"links\": [{}]}}",
        links.join(", ")
    );
    // Kept: a network file the tests name after this returns.
    let file = std::env::temp_dir().join(format!(
        "commcheck-msccl-{}-ring{n}-graph.xml",
        std::process::id()
    ));
    std::fs::write(&file, text).unwrap();
    format!("graph:{}", file.display())
}

/// The ring allgather on a ring of R GPUs: R - 1 rounds, one message a
/// link a round, R (R - 1) messages; every order the search may take.
/// On the 3-cube the ring's hop 3 -> 4 is not a link: refused under
/// store-and-forward, and as worms it still completes.
#[test]
fn the_ring_allgather_completes_in_r_minus_1_rounds() {
    for n in [3, 4, 6] {
        let net = ring_graph(n);
        for engine in [Engine::Exhaustive, Engine::Executor] {
            let o = run("ag", &ring_allgather(n), &net, Switching::Sf, engine).unwrap();
            for name in SAFETY {
                assert_eq!(
                    status(&o, name),
                    Status::Holds,
                    "{name} n={n}\n{}",
                    o.text()
                );
            }
            assert_eq!(o.time.measured, Some(n - 1), "n={n}\n{}", o.text());
            assert_eq!(o.transmissions, Some(n as u64 * (n as u64 - 1)));
        }
    }
    let refused = run(
        "ag8",
        &ring_allgather(8),
        "hypercube:3",
        Switching::Sf,
        Engine::Executor,
    )
    .map(|o| o.text())
    .unwrap_err()
    .to_string();
    assert!(refused.contains("tb 0 step 0 (s)"), "{refused}");
    let o = run(
        "ag8",
        &ring_allgather(8),
        "hypercube:3",
        Switching::Wh,
        Engine::Exhaustive,
    )
    .unwrap();
    assert_eq!(status(&o, "completeness"), Status::Holds, "{}", o.text());
}

/// The ring allreduce: 2 (R - 1) rounds, every chunk the sum of every
/// GPU's contribution, each once.
#[test]
fn the_ring_allreduce_sums_every_contribution_once() {
    for n in [3, 4, 5] {
        let net = ring_graph(n);
        let o = run(
            "ar",
            &ring_allreduce(n),
            &net,
            Switching::Sf,
            Engine::Exhaustive,
        )
        .unwrap();
        for name in SAFETY {
            assert_eq!(
                status(&o, name),
                Status::Holds,
                "{name} n={n}\n{}",
                o.text()
            );
        }
        assert_eq!(o.time.measured, Some(2 * (n - 1)), "n={n}\n{}", o.text());
    }
}

/// A partial sum of more ranks than a value keeps in its own bits (127):
/// the ring allreduce on a ring of 130 GPUs, by the executor, sums every
/// contribution once in 2 (R - 1) rounds; with GPU 129 forwarding
/// instead of adding its own term (rcs for rrs), a chunk lacks it and
/// completeness is violated.
#[test]
fn a_ring_allreduce_over_more_than_127_gpus_is_checked() {
    let n = 130;
    let net = ring_graph(n);
    let good = ring_allreduce(n);
    let o = run("ar130", &good, &net, Switching::Sf, Engine::Executor).unwrap();
    for name in SAFETY {
        assert_eq!(status(&o, name), Status::Holds, "{name}\n{}", o.text());
    }
    assert_eq!(o.time.measured, Some(2 * (n - 1)), "{}", o.text());
    let gpu = good.find("<gpu id=\"129\"").unwrap();
    let rrs = gpu + good[gpu..].find("type=\"rrs\"").unwrap();
    let forgot = format!("{}type=\"rcs\"{}", &good[..rrs], &good[rrs + 10..]);
    let o = run(
        "ar130-forgot",
        &forgot,
        &net,
        Switching::Sf,
        Engine::Executor,
    )
    .unwrap();
    assert_eq!(status(&o, "completeness"), Status::Violated, "{}", o.text());
}

/// Files as RCCL and msccl-tools write them: a threadblock with no peers
/// has chan="-1", and its nop steps (one dependency each) cnt="0" and
/// offsets -1. Read, the nop waits as MSCCL's interpreter waits, and the
/// run holds; chan="-1" on a threadblock with a peer names no channel
/// and is refused in one line.
#[test]
fn nops_and_peerless_threadblocks_are_read_as_rccl_writes_them() {
    let ag = ring_allgather(4);
    let gpu0 = ag.find("<gpu id=\"0\"").unwrap();
    let end0 = gpu0 + ag[gpu0..].find("  </gpu>").unwrap();
    // Threadblock 0's second step releases the nop that waits for it.
    let step1 = gpu0 + ag[gpu0..].find("<step s=\"1\"").unwrap();
    let flag = step1 + ag[step1..].find("hasdep=\"0\"").unwrap();
    let nop = "    <tb id=\"1\" send=\"-1\" recv=\"-1\" chan=\"-1\">\n      <step s=\"0\" \
               type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"0\" \
               depid=\"0\" deps=\"1\" hasdep=\"0\"/>\n    </tb>\n";
    let text = format!(
        "{}hasdep=\"1\"{}{nop}{}",
        &ag[..flag],
        &ag[flag + 10..end0],
        &ag[end0..]
    );
    let net = ring_graph(4);
    let o = run("nops", &text, &net, Switching::Sf, Engine::Exhaustive).unwrap();
    for name in SAFETY {
        assert_eq!(status(&o, name), Status::Holds, "{name}\n{}", o.text());
    }
    let bad = ag.replacen("chan=\"0\"", "chan=\"-1\"", 1);
    let e = run("chan", &bad, &net, Switching::Sf, Engine::Exhaustive)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("chan=\"-1\": expected 0 to") && !e.contains('\n'),
        "{e}"
    );
}

/// Seeded bugs, each caught by the property it breaks.
#[test]
fn seeded_bugs_in_msccl_ir_are_caught() {
    let net = ring_graph(4);
    let caught = |name: &str, text: String, property: &str| {
        let o = run(name, &text, &net, Switching::Sf, Engine::Exhaustive).unwrap();
        assert_eq!(
            status(&o, property),
            Status::Violated,
            "{name}\n{}",
            o.text()
        );
        o
    };
    // A receive-reduce-send that forgets to add its own contribution
    // (forwarding, rcs, instead): chunk 0 misses GPU 1's part everywhere.
    let good = ring_allreduce(4);
    let gpu1 = good.find("<gpu id=\"1\"").unwrap();
    let rrs = gpu1 + good[gpu1..].find("type=\"rrs\"").unwrap();
    let forgot = format!("{}type=\"rcs\"{}", &good[..rrs], &good[rrs + 10..]);
    caught("forgot", forgot, "completeness");

    let ag = ring_allgather(4);
    let o = caught("swapped", swapped_allgather(), "completeness");
    // In the file's terms: the rank, the buffer and offset, what it holds
    // and what it should.
    let text = o.text();
    assert!(
        text.contains("rank 2")
            && text.contains("ends with chunk 1 at buffer o, offset 0, where chunk 0 is expected"),
        "{text}"
    );

    // Every GPU receives before it sends: a cycle of waits, named.
    let waits: String = ag.replace("type=\"s\"", "type=\"r\"");
    let o = caught("waits", waits, "matching");
    let text = o.text();
    assert!(text.contains("deadlock"), "{text}");
}

/// The ring allgather in place on `n` GPUs with two threadblocks a GPU,
/// as MSCCL runs them side by side: threadblock 0 sends to r + 1 its own
/// chunk, then each chunk threadblock 1 received from r - 1 (step t
/// waits for receive t - 1, `depid`/`deps`, released by `hasdep`), and
/// threadblock 1 receives chunks r - 1, r - 2, ... into the output.
/// With `dropped` = Some(t), GPU 0's send step t names no dependency.
pub fn two_threadblock_allgather(n: u32, dropped: Option<u32>) -> String {
    let gpus: Vec<_> = (0..n)
        .map(|r| {
            let sends = (0..n - 1)
                .map(|t| Step {
                    dep: (t > 0 && !(r == 0 && dropped == Some(t))).then(|| (1, t - 1)),
                    ..step("s", "o", (r + n - t) % n)
                })
                .collect();
            let receives = (1..n)
                .map(|t| Step {
                    hasdep: t < n - 1,
                    ..step("r", "o", (r + n - t) % n)
                })
                .collect();
            let tbs = vec![
                Tb {
                    send: ((r + 1) % n) as i64,
                    recv: -1,
                    chan: 0,
                    steps: sends,
                },
                Tb {
                    send: -1,
                    recv: ((r + n - 1) % n) as i64,
                    chan: 0,
                    steps: receives,
                },
            ];
            ([0, n, 0], tbs)
        })
        .collect();
    xml("allgather", true, &gpus)
}

/// Threadblocks run at their own speeds. With every dependency, the
/// two-threadblock allgather is race-free and complete at every speed.
/// With GPU 0's second send (step 1, which forwards chunk 3) not waiting
/// for the receive of chunk 3, the send may read output 3 while the
/// receive writes it: a data race, named by rank, threadblock, step,
/// line and buffer, with an execution that shows it. The result then
/// depends on the race, so completeness at every speed is not claimed.
#[test]
fn a_dropped_dependency_is_a_race_between_threadblocks() {
    let net = ring_graph(4);
    let good = run(
        "tb2",
        &two_threadblock_allgather(4, None),
        &net,
        Switching::Sf,
        Engine::Exhaustive,
    )
    .unwrap();
    for name in ["race-freedom", "causal-completeness"]
        .into_iter()
        .chain(SAFETY)
    {
        assert_eq!(
            status(&good, name),
            Status::Holds,
            "{name}\n{}",
            good.text()
        );
    }
    let racy = run(
        "tb2-dropped",
        &two_threadblock_allgather(4, Some(1)),
        &net,
        Switching::Sf,
        Engine::Exhaustive,
    )
    .unwrap();
    assert_eq!(
        status(&racy, "race-freedom"),
        Status::Violated,
        "{}",
        racy.text()
    );
    assert!(racy.refuted());
    let race = crate::support::counterexample_of(&racy, "race-freedom").unwrap();
    // GPU 0's lines: the algo line, then gpu, tb 0 and its steps 0 and 1.
    assert!(
        race.text.starts_with(
            "rank 0, tb 0 step 1 (s) (line 5) reads buffer o, offset 3 while rank 0, \
             tb 1 step 0 (r) (line 9) writes it"
        ) || race.text.starts_with(
            "rank 0, tb 1 step 0 (r) (line 9) writes buffer o, offset 3 while rank 0, \
             tb 0 step 1 (s) (line 5) reads it"
        ),
        "{}",
        race.text
    );
    assert!(
        race.interleaving
            .last()
            .is_some_and(|l| l.ends_with("run at once") && l.contains("tb 0 step 1 (s)")),
        "{:?}",
        race.interleaving
    );
    assert_eq!(
        status(&racy, "causal-completeness"),
        Status::NotJudged,
        "{}",
        racy.text()
    );
}

/// The ring allgather of 4 GPUs with GPU 2 taking its first two arrivals
/// in the wrong order: the FIFO connection puts each chunk in the other's
/// place.
pub fn swapped_allgather() -> String {
    let ag = ring_allgather(4);
    let gpu2 = ag.find("<gpu id=\"2\"").unwrap();
    let swapped = ag[gpu2..]
        .replacen("srcoff=\"1\" dstbuf=\"o\" dstoff=\"1\"", "SWAP", 1)
        .replacen(
            "srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\"",
            "srcoff=\"1\" dstbuf=\"o\" dstoff=\"1\"",
            1,
        )
        .replacen("SWAP", "srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\"", 1);
    format!("{}{swapped}", &ag[..gpu2])
}

/// Two threadblocks on one GPU: the second waits (`depid`/`deps`) for
/// the first's receive. Released by `hasdep="1"`, it follows; with the
/// flag cleared and no later step to release it, the interpreter would
/// wait forever, and the file is refused naming both steps; a dependency
/// of each threadblock on the other deadlocks.
#[test]
fn dependencies_are_released_where_the_interpreter_releases_them() {
    let net = "hypercube:1";
    let gpus = |hasdep: bool, cycle: bool| {
        let receiver = Tb {
            send: -1,
            recv: 0,
            chan: 0,
            steps: vec![Step {
                dep: cycle.then_some((1, 0)),
                hasdep,
                ..step("r", "o", 0)
            }],
        };
        let copier = Tb {
            send: -1,
            recv: -1,
            chan: 0,
            steps: vec![Step {
                dep: Some((0, 0)),
                hasdep: cycle,
                ..step("nop", "o", 0)
            }],
        };
        let sender = Tb {
            send: 1,
            recv: -1,
            chan: 0,
            steps: vec![step("s", "o", 0)],
        };
        xml(
            "allgather",
            true,
            &[
                ([0, 2, 0], vec![sender]),
                ([0, 2, 0], vec![receiver, copier]),
            ],
        )
    };
    // The allgather is not complete (GPU 1 sends nothing), so only the
    // order is judged here: the matching of the one message.
    let o = run(
        "released",
        &gpus(true, false),
        net,
        Switching::Sf,
        Engine::Exhaustive,
    )
    .unwrap();
    assert_eq!(status(&o, "matching"), Status::Holds, "{}", o.text());
    let refused = run(
        "hang",
        &gpus(false, false),
        net,
        Switching::Sf,
        Engine::Exhaustive,
    )
    .map(|o| o.text())
    .unwrap_err()
    .to_string();
    assert!(
        refused.contains("gpu 1 tb 1 step 0 waits for tb 0 step 0")
            && refused.contains("never releases it"),
        "{refused}"
    );
    let o = run(
        "cycle",
        &gpus(true, true),
        net,
        Switching::Sf,
        Engine::Exhaustive,
    )
    .unwrap();
    assert_eq!(status(&o, "matching"), Status::Violated, "{}", o.text());
}

/// Bad MSCCL-IR: one line, the file, line and column, what was wrong.
#[test]
fn bad_msccl_ir_is_refused_in_one_line() {
    let good = ring_allgather(3);
    let cases: Vec<(&str, String, &str)> = vec![
        ("not xml", "<algo ngpus=\"3\"".into(), ":1:"),
        (
            "not algo",
            "<graph/>".into(),
            ":1:1: expected an <algo> element",
        ),
        (
            "unknown coll",
            good.replace("coll=\"allgather\"", "coll=\"alltoallv\""),
            "coll \"alltoallv\": commcheck reads allgather",
        ),
        (
            "missing gpu",
            good.replace("ngpus=\"3\"", "ngpus=\"4\""),
            "gpu 3 is missing",
        ),
        (
            "unknown step",
            good.replacen("type=\"rcs\"", "type=\"put\"", 1),
            ":5:7: type=\"put\": s, r, rcs",
        ),
        (
            "offset out of buffer",
            good.replacen(
                "srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\"",
                "srcoff=\"7\" dstbuf=\"o\" dstoff=\"7\"",
                1,
            ),
            "srcoff=\"7\" cnt=\"1\" leaves buffer o of 3 chunks",
        ),
        (
            "send to itself",
            good.replacen("send=\"1\"", "send=\"0\"", 1),
            "send=\"0\" is the gpu itself",
        ),
        (
            "step out of order",
            good.replacen("<step s=\"1\"", "<step s=\"2\"", 1),
            "s=\"2\": step 1 of its threadblock",
        ),
        (
            "missing attribute",
            good.replacen(" cnt=\"1\"", "", 1),
            "<step> has no cnt",
        ),
        (
            "two connections",
            good.replacen(
                "</tb>",
                "</tb>\n    <tb id=\"1\" send=\"1\" recv=\"-1\" chan=\"0\">\n    </tb>",
                1,
            ),
            "threadblocks 0 and 1 of gpu 0 both send to gpu 1 on channel 0",
        ),
        (
            "counts differ",
            good.replacen("cnt=\"1\"", "cnt=\"2\"", 1),
            "gpu 0 tb 0 step 0 (s) sends 2 chunks to gpu 1 on channel 0; the receive that \
             takes it, gpu 1 tb 0 step 1 (rcs), 1",
        ),
    ];
    for (what, text, expected) in cases {
        let file = TempFile::new(&format!("msccl-{}.xml", what.replace(' ', "_")), &text);
        let o = check(&[
            "schedule",
            file.0.to_str().unwrap(),
            "--network",
            "hypercube:2",
            "--switching",
            "wh",
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert_eq!(err.lines().count(), 1, "{what}: one line: {err}");
        assert!(err.contains(expected), "{what}: {err}");
    }
}

/// A chunk is a packet: a step of two chunks is two messages, one a slot
/// on its link. Two GPUs gather each other's two chunks out of place:
/// copy the input to the output, send it, receive the other's.
#[test]
fn a_step_of_several_chunks_is_as_many_packets() {
    let gpu = |id: u32| {
        let (own, other, peer) = (2 * id, 2 * (1 - id), 1 - id);
        format!(
            "  <gpu id=\"{id}\" i_chunks=\"2\" o_chunks=\"4\" s_chunks=\"0\">\n\
             <tb id=\"0\" send=\"{peer}\" recv=\"{peer}\" chan=\"0\">\n\
             <step s=\"0\" type=\"cpy\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"{own}\" cnt=\"2\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n\
             <step s=\"1\" type=\"s\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"{own}\" cnt=\"2\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n\
             <step s=\"2\" type=\"r\" srcbuf=\"o\" srcoff=\"{other}\" dstbuf=\"o\" dstoff=\"{other}\" cnt=\"2\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n\
             </tb>\n  </gpu>\n"
        )
    };
    let text = format!(
        "<algo name=\"pair\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"4\" ngpus=\"2\" \
         coll=\"allgather\" inplace=\"0\">\n{}{}</algo>\n",
        gpu(0),
        gpu(1)
    );
    let o = run(
        "pair",
        &text,
        "hypercube:1",
        Switching::Sf,
        Engine::Exhaustive,
    )
    .unwrap();
    for name in SAFETY {
        assert_eq!(status(&o, name), Status::Holds, "{name}\n{}", o.text());
    }
    assert_eq!(o.transmissions, Some(4), "{}", o.text());
    assert_eq!(o.time.measured, Some(2), "{}", o.text());
}

/// The tutorial of docs/schedules.md: the ring allreduce both ways round
/// (examples/schedules/allreduce_ring_8_both_ways.xml, the file the
/// generator above writes) is correct on an NVSwitch server and on the
/// hybrid cube-mesh, contention-free on the first and not on the second,
/// where the hops gpu3 -> gpu4 and gpu0 -> gpu7 of the two channels both
/// cross QPI from cpu0 to cpu1; placed along the NVLink cycle it is
/// contention-free there too. Its times under alpha-beta follow from the
/// machines' figures (docs/networks.md): every GPU sends one worm a
/// channel a slot, 14 slots, and a slot lasts as long as its slowest hop
/// on the critical path.
#[test]
fn the_tutorial_ring_allreduce_on_two_servers() {
    let file = "examples/schedules/allreduce_ring_8_both_ways.xml";
    let written = std::fs::read_to_string(file).unwrap();
    assert_eq!(
        written.replace("allreduce_ring_8_both_ways", "test_allreduce"),
        ring_allreduce_both_ways(8)
    );
    let chunk = 62_500_000u64; // 16 chunks: a buffer of 10^9 bytes
    let request = |net: &str, map: Map| ScheduleRequest {
        map,
        switching: Switching::Wh,
        cost: Some("alpha-beta".parse().unwrap()),
        bytes: Some(chunk),
        options: Options {
            engine: Some(Engine::Exhaustive),
            ..Options::default()
        },
        ..ScheduleRequest::new(file, net.parse().unwrap())
    };
    let us = |o: &Outcome| o.cost.as_ref().unwrap().time_us;
    let b = chunk as f64;
    // DGX A100: a GPU's two worms share its 12 NVLinks up (300 GB/s) and
    // its 12 down; two arcs of the model's 500 ns.
    let a100 = check_schedule(&request("dgx-a100", Map::Identity)).unwrap();
    for name in SAFETY {
        assert_eq!(
            status(&a100, name),
            Status::Holds,
            "{name}\n{}",
            a100.text()
        );
    }
    assert_eq!(a100.time.measured, Some(14));
    let slot_ns = 2.0 * 500.0 + b / 150.0;
    assert!(
        (us(&a100) - 14.0 * slot_ns / 1e3).abs() < 1e-3,
        "{}",
        a100.text()
    );
    // DGX-1: the two worms share QPI (6 GB/s) over five arcs.
    let dgx1 = check_schedule(&request("dgx1", Map::Identity)).unwrap();
    assert_eq!(
        status(&dgx1, "completeness"),
        Status::Holds,
        "{}",
        dgx1.text()
    );
    assert!(
        dgx1.text()
            .contains("step 1: arc cpu0->cpu1 used by worm gpu0->gpu7 and worm gpu3->gpu4"),
        "{}",
        dgx1.text()
    );
    let slot_ns = 5.0 * 500.0 + b / 3.0;
    assert!(
        (us(&dgx1) - 14.0 * slot_ns / 1e3).abs() < 1e-3,
        "{}",
        dgx1.text()
    );
    // Along the NVLink cycle every hop is an NVLink of its own each way;
    // the slowest are single links (25 GB/s).
    let cycle = Map::File("examples/networks/ring_map_hcm_8.json".into());
    let placed = check_schedule(&request("dgx1", cycle)).unwrap();
    for name in SAFETY {
        assert_eq!(
            status(&placed, name),
            Status::Holds,
            "{name}\n{}",
            placed.text()
        );
    }
    let slot_ns = 500.0 + b / 25.0;
    assert!(
        (us(&placed) - 14.0 * slot_ns / 1e3).abs() < 1e-3,
        "{}",
        placed.text()
    );
}

/// MSCCL-IR names no root: a rooted collective's is rank 0, or the one
/// commcheck's comment names. GPU 1 adds its input to GPU 0's: a reduce
/// to rank 0, but not to rank 1; a comment of another collective is
/// refused.
#[test]
fn a_rooted_collective_takes_its_root_from_commcheck_comment() {
    let gpus = [
        (
            [1, 1, 0],
            vec![Tb {
                send: -1,
                recv: 1,
                chan: 0,
                steps: vec![step("rrc", "i", 0)],
            }],
        ),
        (
            [1, 1, 0],
            vec![Tb {
                send: 0,
                recv: -1,
                chan: 0,
                steps: vec![step("s", "i", 0)],
            }],
        ),
    ];
    let reduce = xml("reduce", true, &gpus);
    let comment = |json: &str| format!("<!-- commcheck collective: {json} -->\n{reduce}");
    for (text, holds) in [
        (reduce.clone(), true),
        (comment(r#"{"name":"reduce","root":0}"#), true),
        (comment(r#"{"name":"reduce","root":1}"#), false),
    ] {
        let o = run(
            "reduce",
            &text,
            "hypercube:1",
            Switching::Sf,
            Engine::Exhaustive,
        )
        .unwrap();
        let want = if holds {
            Status::Holds
        } else {
            Status::Violated
        };
        assert_eq!(status(&o, "completeness"), want, "{}", o.text());
        assert_eq!(status(&o, "no-duplication"), Status::Holds, "{}", o.text());
    }
    let e = run(
        "reduce",
        &comment(r#"{"name":"allgather"}"#),
        "hypercube:1",
        Switching::Sf,
        Engine::Exhaustive,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("commcheck's comment states allgather; the file's coll is reduce to rank 0"),
        "{e}"
    );
}

/// An optimum commcheck found, written as MSCCL-IR for RCCL to run, is
/// read back with every property holding in the optimal time, for each
/// task `check optimal` takes (rooted ones at a root other than 0).
#[test]
fn the_witnesses_of_check_optimal_are_written_as_msccl_ir() {
    use commcheck::check::optimal::{optimal, OptimalRequest};
    use models::Ports;
    for (task, coll) in [
        ("broadcast:1", "broadcast"),
        ("allgather", "allgather"),
        ("scatter:2", "scatter"),
        ("gather:3", "gather"),
        ("alltoall", "alltoall"),
    ] {
        let file = TempFile::new(&format!("optimal-{task}.xml"), "");
        let req = OptimalRequest {
            write_msccl: Some(file.0.clone()),
            ..OptimalRequest::new(
                task,
                "hypercube:2".parse().unwrap(),
                Switching::Sf,
                Ports::All,
            )
        };
        let report = optimal(&req).unwrap();
        let text = std::fs::read_to_string(&file.0).unwrap();
        assert!(text.contains(&format!("coll=\"{coll}\"")), "{task}: {text}");
        crate::support::witness_holds(task, &file.0, &report);
    }
}
