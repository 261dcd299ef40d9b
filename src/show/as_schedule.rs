//! A catalogue algorithm's run written as a schedule (`--write-schedule`,
//! `--write-goal`; docs/schedules.md, "Exports"), so that the run can be
//! checked as a schedule, on another network or mapping, or fed to other
//! tools.
//!
//! The run is the one `--trace` follows (the executor's). Each
//! transmission becomes a send, fixed to its slot, from its sender to its
//! receivers, and a receive at each receiver from that sender. Each of the
//! task's packets is a chunk: it starts at its origin and must end at the
//! nodes the task requires it at. An accumulation's terms for one root
//! are the contributions to one reduced chunk. A fan-out is one send per
//! link. A bus write is one send to all its readers. A worm forced over a
//! first dimension names its path. A control message carries no chunk.
//! Rank r is node r.

use super::export::one_run;
use crate::check::schedule::ScheduleRequest;
use crate::check::{CheckError, Request};
use crate::engine::lockstep::RunState;
use crate::import::collective::Collective;
use models::schedule::{
    Chunks, Data, IdSet, Kind, Op, OpId, Rank, Schedule, Value, MAX_REDUCED_RANKS,
};
use models::{with_protocol, Family, Protocol, ProtocolExt, Topology};
use properties::{PacketId, Route, Task};
use std::collections::HashMap;

/// Most transmissions an export writes (the trace's limit).
pub const MAX_SENDS: u64 = super::export::MAX_TRACE_LINES;

/// A run written as a schedule, and where to check it.
pub struct Exported {
    /// The schedule: rank r on node r, every send fixed to its slot.
    pub schedule: Schedule,
    /// `--network` for the run's network (`hypercube:3`, `torus:4x4`).
    pub network: String,
    /// The command that checks the schedule as the run was made, but for
    /// the file's name.
    pub check: String,
    /// The run, in words.
    pub what: String,
}

/// How the task's packets are chunks.
enum Chunking {
    /// Packet p is chunk `dense[p]`.
    Plain(Vec<u32>),
    /// Packet p is rank p / roots' contribution to reduced chunk p % roots.
    Terms(u32),
}

impl Chunking {
    /// The chunk and contributing rank of packet `p`.
    fn of(&self, p: PacketId) -> (u32, Rank) {
        match self {
            Chunking::Plain(dense) => (dense[p as usize], 0),
            Chunking::Terms(roots) => (p % roots, p / roots),
        }
    }
}

/// The chunks of `task` and how its packets map to them, or why the task
/// has none commcheck's schedules hold (an accumulation over more than
/// 4096 ranks).
fn chunks_of(task: &Task) -> Result<(Chunks, Chunking), String> {
    let nodes = task.nodes();
    let mut initial = vec![Vec::new(); nodes as usize];
    let mut expect = vec![Vec::new(); nodes as usize];
    if let Task::Accumulate { roots, .. } = task {
        if nodes > MAX_REDUCED_RANKS {
            return Err(format!(
                "an accumulation over {nodes} nodes: a schedule combines at most \
                 {MAX_REDUCED_RANKS} ranks"
            ));
        }
        let r = roots.len() as u32;
        for (i, &root) in roots.iter().enumerate() {
            let chunk = i as u32;
            let mut all = IdSet::EMPTY;
            for u in (0..nodes).filter(|&u| task.is_packet(u * r + chunk)) {
                initial[u as usize].push((
                    chunk,
                    Value::Sum {
                        chunk,
                        ranks: IdSet::one(u),
                    },
                ));
                all |= IdSet::one(u);
            }
            expect[root as usize].push((chunk, Value::Sum { chunk, ranks: all }));
        }
        let chunks = Chunks {
            reduced: vec![true; roots.len()],
            positions: r,
            initial,
            expect,
            origin: vec![0; roots.len()],
            buffers: Vec::new(),
            layout: None,
            pieces: 1,
        };
        return Ok((chunks, Chunking::Terms(r)));
    }
    let ids = task.packet_ids();
    let mut dense = vec![u32::MAX; ids as usize];
    let mut origin = Vec::new();
    for p in (0..ids as PacketId).filter(|&p| task.is_packet(p)) {
        let c = origin.len() as u32;
        dense[p as usize] = c;
        let o = task.origin(p);
        origin.push(o);
        initial[o as usize].push((c, Value::Chunk(c)));
        for v in (0..nodes).filter(|&v| v == o || task.requires(v, p)) {
            expect[v as usize].push((c, Value::Chunk(c)));
        }
    }
    let chunks = Chunks {
        reduced: vec![false; origin.len()],
        positions: origin.len() as u32,
        initial,
        expect,
        origin,
        buffers: Vec::new(),
        layout: None,
        pieces: 1,
    };
    Ok((chunks, Chunking::Plain(dense)))
}

/// The `--network` of `req`'s network.
pub fn network_spec(req: &Request) -> String {
    let n = req.config.n;
    match (req.algorithm.family(), req.grid()) {
        (Family::Cube, _) => format!("hypercube:{n}"),
        (Family::MeshBus { .. }, _) => format!("mesh-bus:{n}"),
        (_, Some(grid)) => {
            let sides: Vec<String> = grid.sides().iter().map(u32::to_string).collect();
            let kind = if grid.torus() { "torus" } else { "mesh" };
            format!("{kind}:{}", sides.join("x"))
        }
        (Family::Grid { .. } | Family::Graph, None) => format!("graph:{n}"),
    }
}

/// The run `req` asks for, as a schedule.
pub fn run_as_schedule(req: &Request) -> Result<Exported, CheckError> {
    let (schedule, what) = with_protocol!(req.algorithm, req.config.clone(), |p| {
        let (model, what) = one_run(p, req.options.source);
        let p = &model.protocol;
        let t = p.topology();
        let nodes = t.nodes();
        let task = p.task(&model.inputs[0]);
        let (chunks, chunking) = chunks_of(&task).map_err(CheckError::Usage)?;
        let reduce = matches!(chunking, Chunking::Terms(_));
        let mut ops: Vec<Vec<Op>> = vec![Vec::new(); nodes as usize];
        let mut sends = 0u64;
        // Per rank, the sends it has made: each send's tag, so a rank's
        // receives from one sender match one message each, in any order
        // they are posted (MPI matches by sender and tag).
        let mut sent = vec![0u32; ops.len()];
        // A label per operation, unique on its rank.
        let mut labels: HashMap<(Rank, String), u32> = HashMap::new();
        let mut label = |rank: Rank, text: String| {
            let k = labels.entry((rank, text.clone())).or_insert(0);
            *k += 1;
            match *k {
                1 => text,
                k => format!("{text} #{k}"),
            }
        };
        model.first_choice_each(0, |s: &RunState<_, _>| {
            if crate::engine::search::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(CheckError::TraceInterrupted);
            }
            for tx in &s.sent {
                let mut chunks_sent: Vec<u32> = Vec::new();
                if !p.control(&tx.msg) {
                    p.packets(&tx.msg, |x| chunks_sent.push(chunking.of(x).0));
                }
                chunks_sent.sort_unstable();
                chunks_sent.dedup();
                if reduce && chunks_sent.len() > 1 {
                    return Err(CheckError::Usage(format!(
                        "slot {}: a message of {} combines terms for {} roots; a schedule's \
                         message carries one partial sum",
                        s.slot,
                        t.node_label(tx.route.from()),
                        chunks_sent.len()
                    )));
                }
                let data = match chunks_sent.is_empty() {
                    true => Data::Nothing,
                    false => Data::At(chunks_sent),
                };
                // A fan-out is a link a port; anything else one message.
                let from = tx.route.from();
                let mut messages: Vec<(Vec<Rank>, Option<Vec<u32>>)> = Vec::new();
                match tx.route {
                    Route::Fan { .. } => t.receivers(&tx.route, |v| messages.push((vec![v], None))),
                    _ => {
                        let mut readers = Vec::new();
                        t.receivers(&tx.route, |v| readers.push(v));
                        let own = match tx.route {
                            Route::Worm { first, .. } => first.is_some() || !t.default_routing(),
                            _ => false,
                        };
                        let path = own.then(|| t.path(&tx.route));
                        messages.push((readers, path));
                    }
                }
                for (readers, path) in messages {
                    sends += 1;
                    if sends > MAX_SENDS {
                        return Err(CheckError::TraceTooLong {
                            least: None,
                            max: MAX_SENDS,
                        });
                    }
                    let Some((&to, also)) = readers.split_first() else {
                        continue;
                    };
                    let names: Vec<String> = readers.iter().map(|&v| t.node_label(v)).collect();
                    ops[from as usize].push(Op {
                        rank: from,
                        kind: Kind::Send {
                            to,
                            also: also.to_vec(),
                            tag: sent[from as usize],
                            data: data.clone(),
                            path,
                        },
                        after: Vec::new(),
                        started_after: Vec::new(),
                        bytes: 0,
                        slot: Some(s.slot),
                        label: label(from, format!("slot {} to {}", s.slot, names.join(","))),
                        line: 0,
                    });
                    for &v in &readers {
                        ops[v as usize].push(Op {
                            rank: v,
                            kind: Kind::Recv {
                                from: Some(from),
                                tag: Some(sent[from as usize]),
                                data: data.clone(),
                                reduce,
                            },
                            after: Vec::new(),
                            started_after: Vec::new(),
                            bytes: 0,
                            slot: None,
                            label: label(v, format!("slot {} from {}", s.slot, t.node_label(from))),
                            line: 0,
                        });
                    }
                    sent[from as usize] += 1;
                }
            }
            Ok(())
        })?;
        let mut first = vec![0];
        for rank_ops in &ops {
            first.push(first.last().copied().unwrap_or(0) + rank_ops.len() as u32);
        }
        let schedule = Schedule {
            name: req.command(None).trim_start_matches("check ").to_string(),
            ranks: nodes,
            ops: ops.into_iter().flatten().collect(),
            first,
            chunks,
            collective: what.clone(),
            parallel_ranks: false,
            relaxed: Vec::new(),
        };
        Ok::<_, CheckError>((schedule, what))
    })?;
    let schedule = schedule
        .validated()
        .map_err(|e| CheckError::Usage(e.to_string()))?;
    let network = network_spec(req);
    let check = format!(
        "check schedule FILE --network {network} --switching {} --ports {}",
        req.config.switching, req.config.ports
    );
    Ok(Exported {
        schedule,
        network,
        check,
        what,
    })
}

/// The executor's run of the schedule `req` names, as a schedule whose
/// transmissions (sends, puts, gets) are fixed to the slots they went in
/// (`check schedule FILE --write-msccl`): what the writers of runs write.
/// A transmission the run never made is refused, naming it.
pub fn schedule_run(req: &ScheduleRequest) -> Result<Exported, CheckError> {
    let schedule = crate::with_scheduled!(req, |p, _subject| {
        let (model, _) = one_run(p, None);
        let mut schedule = model.protocol.schedule().clone();
        let mut slots: Vec<Option<u32>> = vec![None; schedule.ops.len()];
        model.first_choice_each(0, |s| {
            if crate::engine::search::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(CheckError::TraceInterrupted);
            }
            for tx in s.sent.iter().filter(|tx| !tx.msg.back) {
                slots[tx.msg.op as usize].get_or_insert(s.slot);
            }
            Ok(())
        })?;
        for (id, (op, slot)) in schedule.ops.iter_mut().zip(slots).enumerate() {
            let transmits = match op.kind {
                Kind::Send { .. } => true,
                Kind::Move { from, to, .. } => from.0 != op.rank || to.0 != op.rank,
                _ => false,
            };
            if transmits {
                op.slot = op.slot.or(slot);
                if op.slot.is_none() {
                    return Err(CheckError::Usage(format!(
                        "{}: the executor's run never sends it, so it has no slot to write",
                        model.protocol.schedule().where_is(id as OpId)
                    )));
                }
            }
        }
        Ok::<_, CheckError>(schedule)
    })?;
    let what = format!("the executor's run of {}", req.file.display());
    let check = ScheduleRequest {
        file: "FILE".into(),
        format: None,
        collective: None,
        packet_bytes: None,
        cost: None,
        bytes: None,
        ..req.clone()
    }
    .command();
    Ok(Exported {
        schedule,
        network: req.network.to_string(),
        check,
        what,
    })
}

/// The run `req` asks for, timed under `model` as `check schedule` times
/// its export (`--cost` on a catalogue check): on the run's own network,
/// rank r on node r, each packet `bytes` bytes (docs/cost.md).
pub fn timed(
    req: &Request,
    model: &crate::cost::Model,
    bytes: Option<u64>,
) -> Result<crate::cost::Cost, CheckError> {
    if let (Family::MeshBus { .. }, crate::cost::Model::Links(m)) = (req.algorithm.family(), model)
    {
        return Err(CheckError::Usage(format!(
            "--cost {}: a link model times links; a mesh-bus writes on buses (--cost loggops \
             times its messages)",
            m.name()
        )));
    }
    let mut exported = run_as_schedule(req)?;
    // The bounds know a collective by its name: the one the run's chunks
    // make, where they make one.
    let (chunks, ranks) = (&exported.schedule.chunks, exported.schedule.ranks);
    if let Ok(c) = Collective::of(chunks, ranks) {
        if !matches!(c, Collective::Explicit { .. }) {
            exported.schedule.collective = c.name();
        }
    }
    let network = exported
        .network
        .parse()
        .map_err(|e| CheckError::Usage(format!("{e}")))?;
    let request = crate::check::schedule::ScheduleRequest {
        cost: Some(model.clone()),
        bytes,
        switching: req.config.switching,
        ports: req.config.ports,
        given: Some(std::sync::Arc::new(exported.schedule)),
        ..crate::check::schedule::ScheduleRequest::new(exported.what, network)
    };
    let prepared = crate::check::schedule::prepare(&request)?;
    let cost = crate::check::schedule::time(&request, &prepared)?;
    Ok(cost.expect("a cost model was given"))
}
