//! MSCCL++ execution plans (docs/schedules.md, "MSCCL++ plans"): plans
//! the tests write as MSCCL++'s DSL writes them, judged in lock step (on
//! an 8-GPU server, worms through its switches) and at every relative
//! speed; the three classic bugs (a missing signal, a put over data the
//! peer has not read, a shard reduced twice) each reported in the plan's
//! own terms; thread-block groups and switch packets; contention of puts
//! on a network where they share links; bad plans refused in one line
//! with their JSON path.

use crate::support::{counterexample_of, status_of as status, text_of, TempFile};
use commcheck::check::schedule::{check_schedule, Format, ScheduleRequest};
use commcheck::check::{CheckError, Options};
use commcheck::engine::Engine;
use commcheck::report::Outcome;
use models::{Ports, Switching};
use properties::Status;
use serde_json::{json, Value};

/// A local buffer reference.
fn local(buffer: &str, index: u32) -> Value {
    json!({"type": buffer, "index": index, "size": 1})
}

/// A reference to the thread block's remote buffer `id`.
fn remote(id: usize, index: u32) -> Value {
    json!({"buffer_id": id, "index": index, "size": 1})
}

/// Signal (or wait on) every memory channel of the thread block.
fn sync(name: &str, peers: usize) -> Value {
    json!({"name": name, "channel_type": "memory", "channel_ids": (0..peers).collect::<Vec<_>>()})
}

fn nop() -> Value {
    json!({"name": "nop"})
}

/// GPU `r` of `n` with the given thread blocks, a memory channel to every
/// peer, the peers' buffers of `remote_type` as remote buffers in rank
/// order, and a switch channel over all the GPUs' scratch.
fn gpu(r: u32, n: u32, chunks: [u32; 3], remote_type: &str, threadblocks: Vec<Value>) -> Value {
    let peers: Vec<u32> = (0..n).filter(|&q| q != r).collect();
    json!({
        "id": r,
        "input_chunks": chunks[0],
        "output_chunks": chunks[1],
        "scratch_chunks": chunks[2],
        "channels": [
            {"channel_type": "memory", "connected_to": peers},
            {"channel_type": "switch", "buffer_type": "s",
             "rank_groups": [{"size": n, "ranks": (0..n).collect::<Vec<_>>()}]}
        ],
        "remote_buffers": peers.iter().map(|&q| json!({
            "rank": q, "type": remote_type, "access_channel_types": ["memory"]
        })).collect::<Vec<_>>(),
        "semaphores": [],
        "threadblocks": threadblocks,
    })
}

/// A thread block of `ops` that uses every memory channel and remote
/// buffer, and the switch channel.
fn block(id: u32, n: u32, ops: Vec<Value>) -> Value {
    json!({
        "id": id,
        "ops": ops,
        "channels": [
            {"channel_type": "memory", "channel_ids": (0..n - 1).collect::<Vec<_>>()},
            {"channel_type": "switch", "channel_ids": [0]}
        ],
        "remote_buffer_refs": [{
            "access_channel_type": "memory",
            "remote_buffer_ids": (0..n - 1).collect::<Vec<_>>()
        }]
    })
}

/// A plan of these GPUs.
fn named_plan(
    name: &str,
    collective: &str,
    inplace: bool,
    protocol: &str,
    gpus: Vec<Value>,
) -> String {
    json!({
        "name": name, "collective": collective, "protocol": protocol, "inplace": inplace,
        "reuse_resources": false, "num_threads_per_block": 1024,
        "use_double_scratch_buffer": false, "buffer_alignment": 16,
        "min_message_size": 0, "max_message_size": u64::MAX, "gpus": gpus
    })
    .to_string()
}

/// A plan of `n` GPUs of one thread block each, connected to every peer
/// by one memory channel, GPU r's remote buffers those of `remote_type`
/// on each peer in rank order; `ops(r)` its thread block's ops.
fn plan(
    collective: &str,
    inplace: bool,
    n: u32,
    chunks: [u32; 3],
    remote_type: &str,
    ops: impl Fn(u32) -> Vec<Value>,
) -> String {
    let gpus = (0..n)
        .map(|r| gpu(r, n, chunks, remote_type, vec![block(0, n, ops(r))]))
        .collect();
    named_plan(
        &format!("test_{collective}"),
        collective,
        inplace,
        "Simple",
        gpus,
    )
}

/// The thread block's index of peer `q` of GPU `r` (its channels and
/// remote buffers list the peers in rank order).
fn of(r: u32, q: u32) -> usize {
    (q - (q > r) as u32) as usize
}

/// An allgather of `n` GPUs through scratch, in two rounds: in round k,
/// GPU r puts its input chunk k into each peer's scratch chunk r, then
/// (`nop`, `signal`, `wait`, `nop`) each copies what its peers put into
/// its output. With `ack`, a second signal and wait tells each GPU that
/// its peers have read their scratch before round 1 puts into it again;
/// without, round 1 may overwrite what a peer has not read yet. `drop`:
/// the nop before round 0's signal on GPU 0 is left out.
pub fn allgather(n: u32, ack: bool) -> String {
    plan("allgather", false, n, [2, 2 * n, n], "s", |r| {
        let mut ops = Vec::new();
        for k in 0..2 {
            for q in (0..n).filter(|&q| q != r) {
                ops.push(json!({"name": "put", "channel_type": "memory",
                    "src_buff": [local("i", k)], "dst_buff": [remote(of(r, q), r)]}));
            }
            ops.extend([
                nop(),
                sync("signal", n as usize - 1),
                sync("wait", n as usize - 1),
                nop(),
            ]);
            for q in (0..n).filter(|&q| q != r) {
                ops.push(json!({"name": "copy", "src_buff": [local("s", q)],
                    "dst_buff": [local("o", 2 * q + k)]}));
            }
            ops.push(json!({"name": "copy", "src_buff": [local("i", k)],
                "dst_buff": [local("o", 2 * r + k)]}));
            if ack && k == 0 {
                ops.extend([
                    nop(),
                    sync("signal", n as usize - 1),
                    sync("wait", n as usize - 1),
                    nop(),
                ]);
            }
        }
        ops
    })
}

/// An allreduce in place of `n` GPUs, chunk r owned by GPU r: a barrier
/// (nop, signal, wait, nop), GPU r sums chunk r of every peer's input
/// into its own (`rre`), a barrier, then puts the sum into every peer's
/// chunk r, and a last barrier. `twice`: GPU 0 reads its first peer's
/// chunk twice.
pub fn allreduce(n: u32, twice: bool) -> String {
    plan("allreduce", true, n, [n, n, 0], "i", |r| {
        let barrier = || {
            [
                nop(),
                sync("signal", n as usize - 1),
                sync("wait", n as usize - 1),
                nop(),
            ]
        };
        let mut ops: Vec<Value> = barrier().into();
        let mut src = vec![local("i", r)];
        src.extend((0..n).filter(|&q| q != r).map(|q| remote(of(r, q), r)));
        if twice && r == 0 {
            src.push(remote(0, 0));
        }
        ops.push(
            json!({"name": "rre", "channel_type": "memory", "reduce_op": "sum",
            "src_buff": src, "dst_buff": [local("i", r)]}),
        );
        ops.extend(barrier());
        for q in (0..n).filter(|&q| q != r) {
            ops.push(json!({"name": "put", "channel_type": "memory",
                "src_buff": [local("i", r)], "dst_buff": [remote(of(r, q), r)]}));
        }
        ops.extend(barrier());
        ops
    })
}

fn run(name: &str, text: &str) -> Result<Outcome, CheckError> {
    run_on(name, text, "dgx-h100:1")
}

/// The plan in `text` on `network`, its messages worms.
fn run_on(name: &str, text: &str, network: &str) -> Result<Outcome, CheckError> {
    let file = TempFile::new(&format!("mscclpp-{name}.json"), text);
    // Guessed from the content: JSON with `gpus`.
    check_schedule(&ScheduleRequest {
        switching: Switching::Wh,
        ..ScheduleRequest::new(file.0.clone(), network.parse().unwrap())
    })
}

const AT_EVERY_SPEED: [&str; 3] = ["matching", "race-freedom", "causal-completeness"];

/// The plans as written hold in lock step and at every speed: every wait
/// is signalled, nothing races, every GPU ends with the collective's
/// result, no two worms take one link at once.
#[test]
fn plans_written_as_the_dsl_writes_them_hold_at_every_speed() {
    for (name, text) in [
        ("allgather", allgather(4, true)),
        ("allreduce", allreduce(4, false)),
        ("allreduce8", allreduce(8, false)),
    ] {
        let o = run(name, &text).unwrap();
        for p in AT_EVERY_SPEED {
            assert_eq!(status(&o, p), Status::Holds, "{name} {p}\n{}", o.text());
        }
        assert!(!o.refuted() && !o.undecided(), "{name}\n{}", o.text());
        for p in ["completeness", "contention-freedom", "causality"] {
            assert_eq!(status(&o, p), Status::Holds, "{name} {p}\n{}", o.text());
        }
    }
}

/// Lock step runs puts as transmissions and gets as a request and its
/// reply: on a 2 x 2 mesh, where a put to the opposite corner crosses a
/// neighbour's link, the allgather's puts collide; a plan that gets its
/// peers' chunks instead of putting them takes a round trip a chunk.
#[test]
fn puts_and_gets_take_the_network() {
    let o = run_on("mesh", &allgather(4, true), "mesh:2x2").unwrap();
    assert_eq!(
        status(&o, "contention-freedom"),
        Status::Violated,
        "{}",
        o.text()
    );
    assert_eq!(status(&o, "completeness"), Status::Holds, "{}", o.text());
    // The same in gets, on two GPUs.
    let gets = gets_allgather();
    let o = run_on("gets", &gets, "hypercube:1").unwrap();
    assert!(!o.refuted() && !o.undecided(), "{}", o.text());
    // Timed on the link: the signal (a control message, a chunk's
    // bytes), the request (no bytes: the latency) and the reply (a chunk),
    // one after the other, 500 ns and 50 GB/s a link (the model's own).
    let file = TempFile::new("mscclpp-gets-cost.json", &gets);
    let timed = |cost: &str| {
        check_schedule(&ScheduleRequest {
            switching: Switching::Wh,
            cost: Some(cost.parse().unwrap()),
            bytes: Some(1024),
            ..ScheduleRequest::new(file.0.clone(), "hypercube:1".parse().unwrap())
        })
    };
    let cost = timed("alpha-beta").unwrap().cost.unwrap();
    let ns = 3.0 * 500.0 + 2.0 * 1024.0 / 50.0;
    assert!((cost.time_us * 1000.0 - ns).abs() < 1e-6, "{cost:?}");
    // Under LogGOPS (its defaults, docs/cost.md), on each GPU: the
    // signal's CPU 1500, interface to 7138; it reaches the peer at 4000,
    // whose CPU takes it until 4000 + 1500 + 1023 x 6 = 11638; the get's
    // request goes then (CPU to 13138), reaches the peer at 15638, whose
    // interface replies at once; the reply lands at 18138 and is written
    // 1023 x 6 later: 24276 ns.
    let cost = timed("loggops").unwrap().cost.unwrap();
    assert_eq!(cost.per_rank_us, [24.276, 24.276], "{cost:?}");
    // A signal and a get's request and reply: three slots.
    assert_eq!(o.time.measured, Some(3), "{}", o.text());
}

/// An allgather of two GPUs in gets: each gets its peer's input into its
/// scratch (after a signal and wait), then copies it out.
pub fn gets_allgather() -> String {
    plan("allgather", false, 2, [1, 2, 1], "i", |r| {
        let q = 1 - r;
        vec![
            nop(),
            sync("signal", 1),
            sync("wait", 1),
            nop(),
            json!({"name": "get", "channel_type": "memory",
                "src_buff": [remote(0, 0)], "dst_buff": [local("s", 0)]}),
            nop(),
            json!({"name": "copy", "src_buff": [local("s", 0)], "dst_buff": [local("o", q)]}),
            json!({"name": "copy", "src_buff": [local("i", 0)], "dst_buff": [local("o", r)]}),
        ]
    })
}

/// A signal left out: the peer's last wait is never satisfied (the
/// counting semaphore lets its first wait take the next signal), named
/// by GPU, thread block and op.
#[test]
fn a_missing_signal_is_a_hang() {
    let mut plan: Value = serde_json::from_str(&allreduce(4, false)).unwrap();
    // GPU 0's first signal reaches peers 1 and 2 only.
    plan["gpus"][0]["threadblocks"][0]["ops"][1]["channel_ids"] = json!([0, 1]);
    let o = run("nosignal", &plan.to_string()).unwrap();
    assert_eq!(status(&o, "matching"), Status::Violated, "{}", o.text());
    let text = text_of(&o, "matching");
    assert!(
        text.contains("rank 3 (gpu3), gpus[3].threadblocks[0].ops[")
            && text.contains("(wait) waits for a message no operation sends"),
        "{text}"
    );
    assert!(o.refuted());
    // The rank and the waiting op as fields (--json, Python).
    let c = counterexample_of(&o, "matching").unwrap();
    assert_eq!(c.rank, Some(3), "{c:?}");
    assert!(
        matches!(c.operations.as_slice(), [op] if op.starts_with("rank 3 (gpu3), gpus[3].threadblocks[0].ops[")),
        "{c:?}"
    );
}

/// Asserts that race-freedom is violated by a put and a copy of one
/// scratch position.
fn a_put_races_with_a_copy(o: &Outcome) {
    assert_eq!(status(o, "race-freedom"), Status::Violated, "{}", o.text());
    let text = text_of(o, "race-freedom");
    assert!(
        text.contains("(put) writes buffer s, offset") && text.contains("(copy) reads it")
            || text.contains("(copy) reads buffer s, offset") && text.contains("(put) writes it"),
        "{text}"
    );
}

/// The allgather's signals and waits in their relaxed forms: the copies
/// after the wait still start after the peers' puts, but nothing makes
/// the puts visible (no release, no acquire), so each put races with the
/// copy that reads it out. On port channels the relaxed forms are the
/// strong ones (the proxy signals after the data).
#[test]
fn a_relaxed_signal_does_not_make_a_put_visible() {
    let strong = allgather(3, true);
    let relaxed = strong
        .replace(r#""name":"signal""#, r#""name":"rlxsignal""#)
        .replace(r#""name":"wait""#, r#""name":"rlxwait""#);
    assert_ne!(relaxed, strong);
    let o = run("relaxed", &relaxed).unwrap();
    a_put_races_with_a_copy(&o);
    // In lock step the relaxed forms time and match as the strong ones.
    for p in ["completeness", "matching", "contention-freedom"] {
        assert_eq!(status(&o, p), Status::Holds, "{p}\n{}", o.text());
    }
    let o = run("strong", &strong).unwrap();
    assert_eq!(status(&o, "race-freedom"), Status::Holds, "{}", o.text());
}

/// Round 1 puts into a peer's scratch with nothing telling it the peer
/// has read round 0's: the put may overwrite data the peer has not read.
/// With the acknowledgement it may not.
#[test]
fn a_put_over_unread_data_is_a_race() {
    let o = run("noack", &allgather(3, false)).unwrap();
    // GPU r's round-1 put writes scratch chunk r of a peer, which copies
    // it out in round 0.
    a_put_races_with_a_copy(&o);
    let race = counterexample_of(&o, "race-freedom").unwrap();
    assert!(race.interleaving.last().unwrap().ends_with("run at once"));
    // Field by field, as --json and Python give it: the GPU, the scratch
    // chunk, the two accesses (the later first).
    assert_eq!(race.buffer.as_deref(), Some("s"), "{race:?}");
    assert!(race.rank.is_some() && race.offset.is_some(), "{race:?}");
    assert_eq!(race.operations.len(), 2, "{race:?}");
    assert!(
        race.operations
            .iter()
            .all(|o| o.contains(".threadblocks[0].ops[")),
        "{race:?}"
    );
    let acked = run("ack", &allgather(3, true)).unwrap();
    assert_eq!(
        status(&acked, "race-freedom"),
        Status::Holds,
        "{}",
        acked.text()
    );
}

/// A reduction that reads one peer's shard twice: at every speed GPU 0
/// ends with that term counted twice, in the plan's terms.
#[test]
fn a_shard_reduced_twice_is_named() {
    let o = run("twice", &allreduce(4, true)).unwrap();
    assert_eq!(
        status(&o, "causal-completeness"),
        Status::Violated,
        "{}",
        o.text()
    );
    assert_eq!(
        text_of(&o, "causal-completeness"),
        "at every speed, rank 0 (gpu0) ends with rank 1 (gpu1)'s term counted twice at buffer \
         i, offset 0"
    );
    let c = counterexample_of(&o, "causal-completeness").unwrap();
    assert_eq!(
        (c.rank, c.buffer.as_deref(), c.offset),
        (Some(0), Some("i"), Some(0))
    );
    assert_eq!(
        c.expected.as_deref(),
        Some("the sum of chunk 0 over 4 ranks")
    );
    assert_eq!(
        c.found.as_deref(),
        Some("rank 1 (gpu1)'s term counted twice")
    );
}

/// A nop left out between a put and the signal that should publish it:
/// the thread block's put may still be running when the peer, woken by
/// the signal, reads what it writes.
#[test]
fn a_signal_not_after_its_put_races_with_the_reader() {
    let mut plan: Value = serde_json::from_str(&allgather(3, true)).unwrap();
    let ops = plan["gpus"][0]["threadblocks"][0]["ops"]
        .as_array_mut()
        .unwrap();
    // Ops 0 and 1 are GPU 0's round-0 puts, op 2 the nop.
    assert_eq!(ops[2]["name"], "nop");
    ops.remove(2);
    let o = run("nonop", &plan.to_string()).unwrap();
    assert_eq!(status(&o, "race-freedom"), Status::Violated, "{}", o.text());
    assert!(
        text_of(&o, "race-freedom").contains("gpus[0].threadblocks[0].ops[0] (put)")
            || text_of(&o, "race-freedom").contains("gpus[0].threadblocks[0].ops[1] (put)")
    );
}

/// Bad plans are refused in one line naming the JSON path.
#[test]
fn bad_plans_are_refused_with_their_json_path() {
    let good: Value = serde_json::from_str(&allreduce(2, false)).unwrap();
    let refused = |change: &dyn Fn(&mut Value), expect: &str| {
        let mut plan = good.clone();
        change(&mut plan);
        let e = run("bad", &plan.to_string())
            .map(|o| o.text())
            .unwrap_err()
            .to_string();
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(expect), "{expect}: {e}");
    };
    refused(
        &|p| p["gpus"][1]["threadblocks"][0]["ops"][4]["name"] = json!("glre"),
        "gpus[1].threadblocks[0].ops[4]: \"glre\": not an op of MSCCL++'s current parser",
    );
    refused(
        &|p| p["gpus"][0]["id"] = json!(1),
        "gpus[0].id: GPU 0 must be at position 0",
    );
    refused(
        &|p| {
            p["gpus"][0]["inputChunks"] = json!(2);
        },
        "the camelCase layout of MSCCL++ 0.5 to 0.7",
    );
    refused(
        &|p| p["gpus"][0]["threadblocks"][0]["ops"][4]["src_buff"][1]["buffer_id"] = json!(5),
        "gpus[0].threadblocks[0].ops[4].src_buff[1].buffer_id: remote buffer 5",
    );
    refused(
        &|p| p["gpus"][1]["threadblocks"][0]["ops"][4]["dst_buff"][0]["index"] = json!(7),
        "gpus[1].threadblocks[0].ops[4].dst_buff[0]: chunks 7 to 8 of buffer i of GPU 1",
    );
    refused(
        &|p| p["collective"] = json!("sendrecv"),
        "collective: \"sendrecv\": commcheck reads allreduce",
    );
    refused(
        &|p| {
            p.as_object_mut().unwrap().remove("protocol");
        },
        "the plan: no \"protocol\"",
    );
    // An explicit format that does not fit.
    let file = TempFile::new("mscclpp-fmt.json", "{\"gpus\": 3}");
    let e = check_schedule(&ScheduleRequest {
        format: Some(Format::Mscclpp),
        ..ScheduleRequest::new(file.0.clone(), "dgx-h100:1".parse().unwrap())
    })
    .map(|o| o.text())
    .unwrap_err()
    .to_string();
    assert!(e.contains("gpus") && e.contains("expected an array"), "{e}");
}

/// An allgather in place of `n` GPUs by thread-block groups, as MSCCL++'s
/// `allgather_tbg` example writes it: block 0 of GPU r tells its peers it
/// is ready (relaxed signal and wait); a barrier of the `group` blocks;
/// block t puts piece `member(r, t)` of `group` of output chunk r into
/// every peer's (none where `member` gives none); a barrier; block 0
/// signals and waits.
pub fn tbg_allgather(n: u32, group: u32, member: impl Fn(u32, u32) -> Option<u32>) -> String {
    let barrier = json!({"name": "barrier", "barrier_id": 0, "num_threadblocks": group});
    let gpus = (0..n)
        .map(|r| {
            let blocks = (0..group)
                .map(|t| {
                    let mut ops = Vec::new();
                    if t == 0 {
                        ops.extend([
                            sync("rlxsignal", n as usize - 1),
                            sync("rlxwait", n as usize - 1),
                        ]);
                    }
                    ops.push(barrier.clone());
                    if let Some(id) = member(r, t) {
                        for q in (0..n).filter(|&q| q != r) {
                            ops.push(json!({"name": "put", "channel_type": "memory",
                                "src_buff": [local("o", r)], "dst_buff": [remote(of(r, q), r)],
                                "tbg_info": {"tb_id": id, "tbg_size": group}}));
                        }
                    }
                    ops.push(barrier.clone());
                    if t == 0 {
                        ops.extend([
                            sync("signal", n as usize - 1),
                            sync("wait", n as usize - 1),
                            nop(),
                        ]);
                    }
                    block(t, n, ops)
                })
                .collect();
            gpu(r, n, [1, n, 0], "o", blocks)
        })
        .collect();
    named_plan("tbg_allgather", "allgather", true, "Simple", gpus)
}

/// Thread-block groups cut each chunk into pieces, one a block: the
/// groups' allgather holds at every speed; a block that does not put its
/// piece leaves that piece of the chunk unwritten, named as a piece; two
/// blocks that claim one piece write it at once (and leave another out).
#[test]
fn thread_block_groups_put_a_piece_each() {
    for (n, group) in [(2, 4), (3, 2), (3, 3)] {
        let o = run("tbg", &tbg_allgather(n, group, |_, t| Some(t))).unwrap();
        for p in AT_EVERY_SPEED {
            assert_eq!(
                status(&o, p),
                Status::Holds,
                "{n} {group} {p}\n{}",
                o.text()
            );
        }
    }
    // GPU 1's block 3 puts nothing: piece 4 of chunk 1 never reaches GPU 0.
    let o = run(
        "tbg-missing",
        &tbg_allgather(2, 4, |r, t| (r != 1 || t != 3).then_some(t)),
    )
    .unwrap();
    assert_eq!(
        text_of(&o, "causal-completeness"),
        "at every speed, rank 0 (gpu0) ends with nothing at buffer o, offset 1 (piece 4 of 4), \
         where chunk 1 (piece 4 of 4) is expected"
    );
    assert_eq!(status(&o, "race-freedom"), Status::Holds, "{}", o.text());
    // GPU 0's block 3 claims block 2's piece.
    let o = run(
        "tbg-twice",
        &tbg_allgather(2, 4, |r, t| Some(if r == 0 && t == 3 { 2 } else { t })),
    )
    .unwrap();
    let text = text_of(&o, "race-freedom");
    assert!(
        text.contains("gpus[0].threadblocks[2].ops[1] (put)")
            && text.contains("gpus[0].threadblocks[3].ops[1] (put)")
            && text.contains("buffer o, offset 0 (piece 3 of 4)"),
        "{text}"
    );
    // Groups of 2 and 3 in one plan: chunks in 6 pieces.
    let mixed = tbg_allgather(3, 3, |_, t| Some(t));
    let mut plan: Value = serde_json::from_str(&mixed).unwrap();
    for t in 0..2 {
        let ops = plan["gpus"][2]["threadblocks"][t]["ops"]
            .as_array_mut()
            .unwrap();
        for op in ops.iter_mut().filter(|op| op["name"] == "put") {
            op["tbg_info"] = json!({"tb_id": t, "tbg_size": 2});
        }
    }
    let ops = plan["gpus"][2]["threadblocks"][2]["ops"]
        .as_array_mut()
        .unwrap();
    ops.retain(|op| op["name"] != "put");
    let o = run("tbg-mixed", &plan.to_string()).unwrap();
    for p in AT_EVERY_SPEED {
        assert_eq!(status(&o, p), Status::Holds, "mixed {p}\n{}", o.text());
    }
    // A tb_id outside its group is refused at its path.
    let mut plan: Value = serde_json::from_str(&tbg_allgather(2, 2, |_, t| Some(t))).unwrap();
    plan["gpus"][1]["threadblocks"][1]["ops"][1]["tbg_info"]["tb_id"] = json!(2);
    let e = run("tbg-bad", &plan.to_string())
        .map(|o| o.text())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("gpus[1].threadblocks[1].ops[1].tbg_info: tb_id 2 of a group of 2"),
        "{e}"
    );
}

/// A packet allgather through the switch, as MSCCL++'s
/// `allgather_nvls_zero_copy_pkt` example writes it: GPU r copies its
/// chunk into its scratch slot r as packets (`cpkt`), stores them into
/// slot r of every GPU through the switch (`gstorepkt`), and block j
/// unpacks slot j into output chunk j (`upkt`), each waiting for its
/// packets. `copy`: whether GPU 0 makes its packets.
pub fn switch_packet_allgather(n: u32, copy: bool) -> String {
    let gpus = (0..n)
        .map(|r| {
            let blocks = (0..n)
                .map(|j| {
                    let mut ops = Vec::new();
                    if j == 0 {
                        if copy || r != 0 {
                            ops.push(json!({"name": "cpkt", "src_buff": [local("o", r)],
                                "dst_buff": [local("s", r)]}));
                        }
                        ops.push(json!({"name": "gstorepkt", "channel_type": "switch",
                            "src_buff": [local("s", r)],
                            "dst_buff": [{"switch_channel_id": 0, "index": r, "size": 1}]}));
                    }
                    ops.push(json!({"name": "upkt", "src_buff": [local("s", j)],
                        "dst_buff": [local("o", j)]}));
                    block(j, n, ops)
                })
                .collect();
            gpu(r, n, [1, n, n], "o", blocks)
        })
        .collect();
    named_plan("switch_packet_allgather", "allgather", true, "LL", gpus)
}

/// Packets stored through the switch reach every GPU; without the copy
/// that makes them, the store waits for packets that never come.
#[test]
fn packets_stored_through_the_switch_reach_every_gpu() {
    let o = run("gstorepkt", &switch_packet_allgather(4, true)).unwrap();
    for p in AT_EVERY_SPEED {
        assert_eq!(status(&o, p), Status::Holds, "{p}\n{}", o.text());
    }
    let o = run("gstorepkt-nocopy", &switch_packet_allgather(4, false)).unwrap();
    let text = text_of(&o, "matching");
    assert!(
        text.contains("rank 0 (gpu0), gpus[0].threadblocks[0].ops[0] (gstorepkt)")
            && text.contains("waits for a message no operation sends"),
        "{text}"
    );
}

/// The executor's run is one of the runs the exhaustive search explores
/// (one port a GPU, so that its sends compete): what holds over every
/// run holds in the executor's, what the executor finds the search
/// finds, and its time is at most the worst.
#[test]
fn the_executor_runs_one_of_the_searched_runs_of_a_plan() {
    let plans = [
        ("allgather", allgather(3, true)),
        ("allgather-noack", allgather(3, false)),
        ("allreduce", allreduce(4, false)),
        ("allreduce-twice", allreduce(4, true)),
        ("tbg", tbg_allgather(2, 4, |_, t| Some(t))),
        (
            "tbg-missing",
            tbg_allgather(2, 4, |r, t| (r != 1 || t != 3).then_some(t)),
        ),
        ("switch", switch_packet_allgather(3, true)),
        ("switch-nocopy", switch_packet_allgather(3, false)),
    ];
    let mut violated = 0;
    for (name, text) in plans {
        let file = TempFile::new(&format!("mscclpp-engines-{name}.json"), &text);
        let run = |engine| {
            check_schedule(&ScheduleRequest {
                switching: Switching::Wh,
                ports: Ports::One,
                options: Options {
                    engine: Some(engine),
                    ..Options::default()
                },
                ..ScheduleRequest::new(file.0.clone(), "dgx-h100:1".parse().unwrap())
            })
            .unwrap()
        };
        let (all, one) = (run(Engine::Exhaustive), run(Engine::Executor));
        assert!(!all.undecided(), "{name}\n{}", all.text());
        for p in [
            "completeness",
            "no-duplication",
            "contention-freedom",
            "matching",
        ] {
            let (a, e) = (status(&all, p), status(&one, p));
            if a == Status::Holds {
                assert_eq!(e, Status::Holds, "{name} {p}\n{}", one.text());
            }
            if e == Status::Violated {
                assert_eq!(a, Status::Violated, "{name} {p}\n{}", all.text());
                violated += 1;
            }
        }
        if let (Some(a), Some(e)) = (all.time.measured, one.time.measured) {
            assert!(e <= a, "{name}: executor {e}, worst {a}");
        }
    }
    // The seeded bugs show in the executor's run too.
    assert!(violated >= 4, "{violated}");
}

/// `check optimal ... --write-mscclpp FILE` writes the witness as an
/// MSCCL++ plan: MSCCL++ names allgather and alltoall, and the rooted
/// tasks are `custom`, their root in commcheck's key. Read back, every
/// property holds at the optimum, with its transmissions.
#[test]
fn the_witnesses_of_check_optimal_are_written_as_mscclpp_plans() {
    use commcheck::check::optimal::{optimal, OptimalRequest};
    for (task, coll, words) in [
        ("broadcast:1", "custom", "broadcast from rank 1"),
        ("allgather", "allgather", "allgather"),
        ("scatter:2", "custom", "scatter from rank 2"),
        ("gather:3", "custom", "gather to rank 3"),
        ("alltoall", "alltoall", "alltoall"),
    ] {
        let file = TempFile::new(&format!("optimal-{task}.plan.json"), "");
        let net = "hypercube:2";
        let req = OptimalRequest {
            write_mscclpp: Some(file.0.clone()),
            ..OptimalRequest::new(task, net.parse().unwrap(), Switching::Sf, Ports::All)
        };
        let report = optimal(&req).unwrap();
        let plan: Value = serde_json::from_str(&std::fs::read_to_string(&file.0).unwrap()).unwrap();
        assert_eq!(plan["collective"], coll, "{task}");
        let o = crate::support::witness_holds(task, &file.0, &report);
        assert!(o.text().contains(words), "{task}: {}", o.text());
    }
}

/// The plan in `text` on one 8-GPU server, read for chunks of `bytes`.
fn run_sized(name: &str, text: &str, bytes: Option<u64>) -> Result<Outcome, CheckError> {
    let file = TempFile::new(&format!("mscclpp-{name}.json"), text);
    check_schedule(&ScheduleRequest {
        switching: Switching::Wh,
        bytes,
        ..ScheduleRequest::new(file.0.clone(), "dgx-h100:1".parse().unwrap())
    })
}

/// A pipeline of `ops` over chunks of `num_chunks` in units of `unit`
/// bytes.
fn pipeline(unit: u64, num_chunks: u32, ops: Vec<Value>) -> Value {
    json!({"name": "pipeline", "iter_context": {"unit_size": unit, "num_chunks": num_chunks},
        "ops": ops})
}

const MIB: u64 = 1 << 20;

/// An allgather of `n` GPUs in place, as a pipeline of 1 MiB units: in
/// each iteration GPU r puts its slice of output chunk r into every
/// peer's, then a barrier (nop, signal, wait, nop) tells the peers it has.
pub fn pipelined_allgather(n: u32) -> String {
    plan("allgather", true, n, [1, n, 0], "o", |r| {
        let mut ops: Vec<Value> = (0..n)
            .filter(|&q| q != r)
            .map(|q| {
                json!({"name": "put", "channel_type": "memory",
                    "src_buff": [local("o", r)], "dst_buff": [remote(of(r, q), r)]})
            })
            .collect();
        ops.extend([
            nop(),
            sync("signal", n as usize - 1),
            sync("wait", n as usize - 1),
            nop(),
        ]);
        vec![pipeline(MIB, 1, ops)]
    })
}

/// One GPU passes its input through a reused scratch ring and back: block
/// 0, each iteration, takes a credit (semaphore 1, `credits` to start),
/// copies its slice of input chunk 0 into scratch and releases semaphore
/// 0; block 1 acquires semaphore 0, copies the scratch slice back and
/// returns the credit. With `reuse_resources` the one scratch chunk is
/// 64 MiB long, so for 128 MiB chunks and 32 MiB units the four
/// iterations share two slots: two credits keep block 0 from overwriting
/// a slot block 1 has not read, three do not.
pub fn scratch_ring(credits: u32) -> String {
    let step = |acquire: u32, from: &str, to: &str, release: u32| {
        vec![
            json!({"name": "sem_acquire", "semaphore_ids": [acquire]}),
            nop(),
            json!({"name": "copy", "src_buff": [local(from, 0)], "dst_buff": [local(to, 0)]}),
            nop(),
            json!({"name": "sem_release", "semaphore_ids": [release]}),
        ]
    };
    let blocks = [step(1, "i", "s", 0), step(0, "s", "i", 1)]
        .into_iter()
        .enumerate()
        .map(|(t, ops)| json!({"id": t, "ops": [pipeline(32 * MIB, 1, ops)], "channels": []}))
        .collect::<Vec<_>>();
    let mut gpu = gpu(0, 1, [1, 1, 1], "s", blocks);
    gpu["semaphores"] = json!([{"init_value": 0}, {"init_value": credits}]);
    let mut plan: Value =
        serde_json::from_str(&named_plan("ring", "allreduce", true, "Simple", vec![gpu])).unwrap();
    plan["reuse_resources"] = json!(true);
    plan.to_string()
}

/// A pipeline runs its ops once per unit of the message (`--bytes` sets
/// a chunk's bytes; without it, once, as for a chunk within one unit):
/// four times the puts and signals for 4 MiB chunks in 1 MiB units, each
/// put a quarter of a chunk; the run still holds at every speed.
#[test]
fn a_pipeline_runs_once_a_unit_of_the_message() {
    let text = pipelined_allgather(3);
    let once = run_sized("pipe-once", &text, None).unwrap();
    let four = run_sized("pipe-four", &text, Some(4 * MIB)).unwrap();
    for o in [&once, &four] {
        for p in AT_EVERY_SPEED.iter().chain(&["completeness"]) {
            assert_eq!(status(o, p), Status::Holds, "{p}\n{}", o.text());
        }
    }
    assert!(
        once.text().contains(
            "its pipelines read as one iteration, as for chunks of at most 1048576 bytes"
        ),
        "{}",
        once.text()
    );
    assert!(
        four.text()
            .contains("chunks of 4194304 bytes, its pipelines of 4 iterations"),
        "{}",
        four.text()
    );
    // 3 GPUs put to 2 peers each: 6 puts an iteration.
    assert_eq!(once.transmissions, Some(6), "{}", once.text());
    assert_eq!(four.transmissions, Some(24), "{}", four.text());
    assert_eq!(
        four.control_messages,
        once.control_messages.map(|c| 4 * c),
        "{}",
        four.text()
    );
    // A unit that does not divide the chunk: the last iteration is short
    // (5 MiB in 2 MiB units: 3 iterations, pieces of 1 MiB).
    let mut plan: Value = serde_json::from_str(&text).unwrap();
    for g in plan["gpus"].as_array_mut().unwrap() {
        g["threadblocks"][0]["ops"][0]["iter_context"]["unit_size"] = json!(2 * MIB);
    }
    let odd = run_sized("pipe-odd", &plan.to_string(), Some(5 * MIB)).unwrap();
    assert!(
        odd.text().contains("its pipelines of 3 iterations"),
        "{}",
        odd.text()
    );
    for p in AT_EVERY_SPEED {
        assert_eq!(status(&odd, p), Status::Holds, "{p}\n{}", odd.text());
    }
    // A unit that leaves the chunk's end undone: 1 chunk of 4 MiB in a
    // pipeline that counts half a chunk, in 1 MiB units (2 iterations).
    let mut plan: Value = serde_json::from_str(&text).unwrap();
    for g in plan["gpus"].as_array_mut().unwrap() {
        g["threadblocks"][0]["ops"][0]["iter_context"]["unit_size"] = json!(MIB / 2);
        g["threadblocks"][0]["ops"][0]["iter_context"]["num_chunks"] = json!(1);
    }
    let short = run_sized("pipe-ok", &plan.to_string(), Some(MIB)).unwrap();
    assert_eq!(
        status(&short, "race-freedom"),
        Status::Holds,
        "{}",
        short.text()
    );
}

/// With `reuse_resources`, iterations share a scratch stride: the credit
/// semaphore that guards the ring keeps the run race-free, one credit too
/// many lets iteration 3 overwrite the slot iteration 1 has not read.
/// Read as one iteration (no `--bytes`), or at a size whose chunk fits
/// the stride, the ring never wraps and the extra credit is harmless.
#[test]
fn a_scratch_ring_with_one_credit_too_many_races() {
    let good = run_sized("ring-2", &scratch_ring(2), Some(128 * MIB)).unwrap();
    for p in AT_EVERY_SPEED.iter().chain(&["completeness"]) {
        assert_eq!(status(&good, p), Status::Holds, "{p}\n{}", good.text());
    }
    assert!(
        good.text()
            .contains("its pipelines of 4 iterations, scratch chunks 67108864 bytes apart"),
        "{}",
        good.text()
    );
    let bad = run_sized("ring-3", &scratch_ring(3), Some(128 * MIB)).unwrap();
    let race = text_of(&bad, "race-freedom");
    assert!(
        race.contains("gpus[0].threadblocks[0].ops[0].ops[2] (copy, iteration 3 of 4)")
            && race.contains("gpus[0].threadblocks[1].ops[0].ops[2] (copy, iteration 1 of 4)")
            && race.contains("buffer s, offset 0"),
        "{race}"
    );
    for bytes in [None, Some(64 * MIB)] {
        let o = run_sized("ring-3-fits", &scratch_ring(3), bytes).unwrap();
        assert_eq!(status(&o, "race-freedom"), Status::Holds, "{}", o.text());
    }
}

/// Packet ops take no pipeline offset: in a pipeline of two iterations a
/// packet write writes its slot twice in one launch, which the reader of
/// the slot cannot tell apart (a race).
#[test]
fn packets_in_a_pipeline_are_written_again_each_iteration() {
    let text = plan("allgather", true, 2, [1, 2, 2], "s", |r| {
        let q = 1 - r;
        vec![pipeline(
            MIB,
            1,
            vec![
                json!({"name": "ppkt", "channel_type": "memory",
                    "src_buff": [local("o", r)], "dst_buff": [remote(0, r)]}),
                json!({"name": "upkt", "src_buff": [local("s", q)], "dst_buff": [local("o", q)]}),
                nop(),
            ],
        )]
    });
    let once = run_sized("pkt-once", &text, None).unwrap();
    for p in AT_EVERY_SPEED {
        assert_eq!(status(&once, p), Status::Holds, "{p}\n{}", once.text());
    }
    let twice = run_sized("pkt-twice", &text, Some(2 * MIB)).unwrap();
    assert!(twice.refuted(), "{}", twice.text());
    assert_eq!(
        status(&twice, "race-freedom"),
        Status::Violated,
        "{}",
        twice.text()
    );
}

/// What a pipeline cannot be is refused in one line at its JSON path: a
/// range shorter than the pipeline's chunks (the executor would run past
/// it), a pipeline in a pipeline, a unit of 0 bytes, more iterations than
/// the executor counts; and a chunk size that is not a multiple of the
/// plan's alignment, or --bytes on a file without pipelines and no cost.
#[test]
fn pipelines_that_cannot_run_are_refused() {
    let good: Value = serde_json::from_str(&pipelined_allgather(2)).unwrap();
    let refused = |change: &dyn Fn(&mut Value), bytes: u64, expect: &str| {
        let mut plan = good.clone();
        change(&mut plan);
        let e = run_sized("pipe-bad", &plan.to_string(), Some(bytes))
            .map(|o| o.text())
            .unwrap_err()
            .to_string();
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(expect), "{expect}: {e}");
    };
    fn pipe(p: &mut Value) -> &mut Value {
        &mut p["gpus"][1]["threadblocks"][0]["ops"][0]
    }
    refused(
        &|p| pipe(p)["iter_context"]["num_chunks"] = json!(2),
        4 * MIB,
        "gpus[1].threadblocks[0].ops[0].ops[0].src_buff[0]: 4194304 bytes, which iteration 5 \
         of the pipeline starts past",
    );
    refused(
        &|p| {
            let inner = pipe(p).clone();
            pipe(p)["ops"] = json!([inner]);
        },
        4 * MIB,
        "gpus[1].threadblocks[0].ops[0].ops[0]: a pipeline in a pipeline",
    );
    refused(
        &|p| pipe(p)["iter_context"]["unit_size"] = json!(0),
        4 * MIB,
        "gpus[1].threadblocks[0].ops[0].iter_context.unit_size: 0",
    );
    refused(
        &|p| pipe(p)["iter_context"]["unit_size"] = json!(16),
        4 * MIB,
        "262144 iterations: MSCCL++'s executor counts at most 65535",
    );
    refused(&|_| {}, 4 * MIB + 8, "--bytes 4194312: a chunk of");
    refused(
        &|_| {},
        u64::MAX - 15,
        "iterations: MSCCL++'s executor counts at most 65535",
    );
    let e = run_sized("no-pipe", &allreduce(2, false), Some(MIB))
        .map(|o| o.text())
        .unwrap_err()
        .to_string();
    assert!(e.contains("has no pipeline: give --cost"), "{e}");
}
