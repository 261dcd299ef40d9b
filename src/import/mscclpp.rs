//! MSCCL++ execution plans, the JSON its DSL's `to_json` writes and its
//! executor runs (docs/mscclpp-format.md: the format read from MSCCL++'s
//! own parser and device interpreter, with the reading chosen in its
//! section 8; docs/schedules.md, "MSCCL++ plans").
//!
//! How commcheck reads a plan:
//! * **Ranks and data.** A GPU is a rank; its `i`, `o` and `s` chunks are
//!   positions, aliased in place as the executor's callers alias them, as
//!   for MSCCL-IR ([`super::msccl`]'s layout). The collective (`allreduce`,
//!   `allgather`, `reducescatter`, `alltoall`) gives the postcondition.
//! * **Thread blocks.** Each runs its ops in order: an op starts after the
//!   one before it starts, and after it *ends* only through a `nop` or a
//!   `barrier` (the device puts no barrier between ops), so data an op
//!   writes is ordered before a later `signal` only through a `nop`.
//! * **Signals and waits** are messages that carry nothing on the channel
//!   pair the executor connects (the n-th channel a GPU declares to a
//!   peer, memory ones first, pairs with the peer's n-th to it): the k-th
//!   wait takes the k-th signal. Relaxed forms on memory channels order
//!   execution alone: the wait ends after the signal, but nothing either
//!   side did before is made visible (no release, no acquire), so a race
//!   through one is reported.
//! * **Puts, gets, remote reductions** are one-sided accesses (`Kind::Move`)
//!   of the peer's positions, during the op; packets are writes of a
//!   scratch slot whose flag lands with the data (`Kind::Move`'s `flag`),
//!   and a packet read waits for the write of its slot as a receive.
//! * **Semaphores and barriers** within a GPU order its thread blocks: the
//!   k-th acquire after the initial count comes after the matching release
//!   (one releasing and one acquiring block a semaphore); the ops after a
//!   `barrier` come after every participant has reached it.
//! * **Pipelines** run their ops once an iteration, as many iterations as
//!   the chunk size (`--bytes`) makes (one without it), each data op on
//!   its iteration's unit of each range, packet ops on the whole range
//!   every time; with `reuse_resources` scratch offsets wrap at the
//!   scratch stride, so iterations share slots a semaphore must guard.
//! * **Thread-block groups.** An op with `tbg_info {tb_id, tbg_size}` does
//!   piece `tb_id` of `tbg_size` equal pieces of each of its ranges, as the
//!   executor cuts them (`calcOffset`; equal where the message divides
//!   evenly, the reading taken). Where a plan has groups or sized
//!   pipelines, every chunk is cut into the pieces [`Plan::pieces`] says,
//!   each a position of its own.
//!
//! A plan is judged as every schedule is: in lock step (a put is a
//! transmission that lands with no receive, a get a request and its
//! reply) and at every relative speed.

use super::collective::Collective;
use super::msccl::{Coll, Layout};
use super::ImportError;
use models::schedule::{Data, Kind, Op, OpId, Pos, Rank, Schedule};
use serde_json::{Map, Value as Json};
use std::collections::HashMap;

/// The top-level key in which commcheck's export states the collective
/// (the JSON of commcheck's format, docs/schedules.md): MSCCL++'s parser
/// reads keys by name and skips it.
pub const COLLECTIVE_KEY: &str = "commcheck_collective";

/// Most GPUs a plan may have.
pub const MAX_GPUS: u32 = 4096;

/// Most ops (after pipelines are read) over a plan.
pub const MAX_OPS: usize = 1 << 22;

/// The ops that move data (each has a source and a destination).
const DATA_OPS: [&str; 20] = [
    "copy",
    "put",
    "pws",
    "pwsf",
    "get",
    "re",
    "rre",
    "res",
    "rres",
    "repkt",
    "respkt",
    "recpkt",
    "recspkt",
    "ppkt",
    "cpkt",
    "upkt",
    "rppkt",
    "glres",
    "gstore",
    "gstorepkt",
];

/// Most pieces a chunk is cut into ([`Plan::pieces`]).
pub const MAX_PIECES: u32 = 1024;

/// Tags above this are packet slots' (signals use the channel pair's
/// number, below it).
const PACKET: u32 = 1 << 24;

/// True if `text` looks like an MSCCL++ plan rather than commcheck's
/// format (a top-level `gpus` and no `format`).
pub fn is_plan(text: &str) -> bool {
    text.contains("\"gpus\"") && !text.contains("\"commcheck-schedule\"")
}

/// Reads the plan in `text` (from `file`, for errors) for chunks of
/// `chunk_bytes` bytes (`--bytes`), which sets how many iterations each
/// pipeline runs; without it, one (a chunk its pipelines take in one unit).
pub fn read(text: &str, file: &str, chunk_bytes: Option<u64>) -> Result<Schedule, ImportError> {
    let top: Json = serde_json::from_str(text).map_err(|e| super::at_line(file, &e))?;
    Plan {
        file,
        chunk: chunk_bytes,
    }
    .read(&top)
}

/// The file being read, for errors at a JSON path.
struct Plan<'f> {
    file: &'f str,
    /// A chunk's bytes, if given (`--bytes`).
    chunk: Option<u64>,
}

/// Most iterations of a pipeline (the executor keeps the count in 16
/// bits, docs/mscclpp-format.md 3.6).
pub const MAX_ITERATIONS: u64 = u16::MAX as u64;

/// The scratch MSCCL++ sets aside with `reuse_resources` (3.8).
const REUSED_SCRATCH: u64 = 64 << 20;

/// Where an op runs in its pipeline: iteration `k` of `of`, whose data
/// ops do the `unit` bytes from `offset` of each of their ranges (3.6).
#[derive(Clone, Copy)]
struct Iteration {
    k: u64,
    of: u64,
    offset: u64,
    unit: u64,
}

/// The part of each of its ranges an op does: its thread-block group
/// member's piece (`tb_id`, `tbg_size`), and in a pipeline its
/// iteration's unit.
#[derive(Clone, Copy)]
struct Share {
    tbg: Option<(u32, u32)>,
    slice: Option<Iteration>,
}

/// The ops that move packets, which take no pipeline offset: in a
/// pipeline they do their whole range in every iteration (3.5).
const PACKET_OPS: [&str; 9] = [
    "ppkt",
    "rppkt",
    "cpkt",
    "upkt",
    "repkt",
    "respkt",
    "recpkt",
    "recspkt",
    "gstorepkt",
];

/// One part of an op as read, before packets are matched to their reads.
enum Part {
    /// An operation of the schedule model.
    Kind(Kind),
    /// A packet write of `from` into slot `slot` (a scratch position) of
    /// rank `to`.
    Wrote {
        from: (Rank, Pos),
        to: Rank,
        slot: Pos,
    },
    /// A wait for the packet write of this rank's slot `slot`.
    Awaits { slot: Pos },
}

/// A part with its order, on its rank.
struct Read {
    part: Part,
    /// Parts of the rank (by index) that must end first.
    after: Vec<usize>,
    /// Parts of the rank that must start first.
    started_after: Vec<usize>,
    label: String,
    /// The slot commcheck's export fixes its packet write to.
    slot: Option<u32>,
    /// A relaxed signal or wait of a memory channel: it orders execution,
    /// makes nothing visible ([`Schedule::relaxed`]).
    relaxed: bool,
}

/// A channel of a thread block: the peer, and the pair's number.
type Channel = (Rank, u32);

/// One GPU's declarations.
#[derive(Default)]
struct Gpu {
    /// GPU-level memory and port channels: peer and pair number.
    memory: Vec<Channel>,
    port: Vec<Channel>,
    /// Switch channels: the ranks of the group, and the buffer.
    switch: Vec<(Vec<Rank>, usize)>,
    /// Remote buffers: owner and buffer.
    remote: Vec<(Rank, usize)>,
    /// Semaphores' initial values.
    semaphores: Vec<u32>,
}

/// A thread block's own lists (indices into its GPU's).
#[derive(Default)]
struct Block {
    memory: Vec<usize>,
    port: Vec<usize>,
    switch: Vec<usize>,
    remote_memory: Vec<usize>,
    remote_port: Vec<usize>,
}

/// A buffer reference resolved: whose positions, which buffer, which
/// chunks.
#[derive(Clone, Copy)]
struct Place {
    ranks: Ranks,
    buffer: usize,
    index: u32,
    size: u32,
}

/// The ranks a reference reaches: one, or a switch channel's group.
#[derive(Clone, Copy)]
enum Ranks {
    One(Rank),
    Group(usize),
}

impl Plan<'_> {
    fn at(&self, path: &str, why: impl std::fmt::Display) -> ImportError {
        ImportError::File {
            file: self.file.to_string(),
            line: 0,
            column: 0,
            why: format!("{path}: {why}"),
        }
    }

    fn object<'j>(&self, j: &'j Json, path: &str) -> Result<&'j Map<String, Json>, ImportError> {
        j.as_object()
            .ok_or_else(|| self.at(path, "expected an object"))
    }

    fn field<'j>(
        &self,
        o: &'j Map<String, Json>,
        path: &str,
        key: &str,
    ) -> Result<&'j Json, ImportError> {
        o.get(key).ok_or_else(|| {
            self.at(
                path,
                format!("no \"{key}\", which MSCCL++'s parser requires"),
            )
        })
    }

    /// `key` under `path` (the plan's own keys by their names).
    fn join(path: &str, key: &str) -> String {
        match path {
            "the plan" => key.to_string(),
            _ => format!("{path}.{key}"),
        }
    }

    fn array<'j>(
        &self,
        o: &'j Map<String, Json>,
        path: &str,
        key: &str,
    ) -> Result<&'j Vec<Json>, ImportError> {
        self.field(o, path, key)?
            .as_array()
            .ok_or_else(|| self.at(&Plan::join(path, key), "expected an array"))
    }

    fn text<'j>(
        &self,
        o: &'j Map<String, Json>,
        path: &str,
        key: &str,
    ) -> Result<&'j str, ImportError> {
        self.field(o, path, key)?
            .as_str()
            .ok_or_else(|| self.at(&Plan::join(path, key), "expected a string"))
    }

    /// `j` as a number in `0..=hi`.
    fn number(&self, j: &Json, path: &str, hi: u64) -> Result<u32, ImportError> {
        match j.as_u64() {
            Some(v) if v <= hi => Ok(v as u32),
            _ => Err(self.at(path, format!("{j}: expected 0 to {hi}"))),
        }
    }

    fn key_number(
        &self,
        o: &Map<String, Json>,
        path: &str,
        key: &str,
        hi: u64,
    ) -> Result<u32, ImportError> {
        let j = self.field(o, path, key)?;
        self.number(j, &Plan::join(path, key), hi)
    }

    fn buffer(&self, j: &Json, path: &str) -> Result<usize, ImportError> {
        match j.as_str() {
            Some("i") => Ok(0),
            Some("o") => Ok(1),
            Some("s") => Ok(2),
            _ => Err(self.at(path, format!("{j}: \"i\", \"o\" or \"s\""))),
        }
    }

    /// An op's thread-block group: its piece and the group's size.
    fn tbg(&self, j: &Json, path: &str) -> Result<(u32, u32), ImportError> {
        let path = format!("{path}.tbg_info");
        let t = self.object(j, &path)?;
        let size = self.key_number(t, &path, "tbg_size", MAX_PIECES as u64)?;
        let id = self.key_number(t, &path, "tb_id", u32::MAX as u64)?;
        if size == 0 || id >= size {
            return Err(self.at(
                &path,
                format!("tb_id {id} of a group of {size}: expected 0 <= tb_id < tbg_size"),
            ));
        }
        Ok((id, size))
    }

    /// How many pieces each chunk is cut into: the least common multiple
    /// of the plan's thread-block group sizes and, for a chunk of `C`
    /// bytes, of `C / gcd(C, x)` for each pipeline's unit and each
    /// scratch stride `x` shorter than a chunk (1 without either), so that
    /// every range an op does is whole pieces.
    fn pieces(&self, gpus: &[Json], strides: &[Option<u64>]) -> Result<u32, ImportError> {
        fn gcd(a: u64, b: u64) -> u64 {
            match b {
                0 => a,
                _ => gcd(b, a % b),
            }
        }
        let list = |j: &Json, key: &str| -> Vec<Json> {
            j.get(key)
                .and_then(Json::as_array)
                .cloned()
                .unwrap_or_default()
        };
        let mut lcm = 1u64;
        let mut cut = |by: u64, path: &str, why: &str| -> Result<(), ImportError> {
            lcm = (lcm / gcd(lcm, by)).saturating_mul(by);
            match lcm > MAX_PIECES as u64 {
                true => Err(self.at(
                    path,
                    format!(
                        "{why} cut each chunk into {lcm} pieces: commcheck cuts a chunk into at \
                         most {MAX_PIECES}"
                    ),
                )),
                false => Ok(()),
            }
        };
        if let Some(c) = self.chunk {
            for (q, stride) in strides.iter().enumerate() {
                if let Some(x) = stride {
                    let why = format!("chunks of {c} bytes in a scratch stride of {x} bytes");
                    cut(c / gcd(c, *x), &format!("gpus[{q}]"), &why)?;
                }
            }
        }
        let mut stack: Vec<(Json, String)> = Vec::new();
        for (r, g) in gpus.iter().enumerate() {
            for (t, tb) in list(g, "threadblocks").into_iter().enumerate() {
                for (k, op) in list(&tb, "ops").into_iter().enumerate() {
                    stack.push((op, format!("gpus[{r}].threadblocks[{t}].ops[{k}]")));
                }
            }
        }
        while let Some((op, path)) = stack.pop() {
            if let Some(t) = op.get("tbg_info") {
                let size = self.tbg(t, &path)?.1 as u64;
                cut(size, &format!("{path}.tbg_info"), "thread-block groups")?;
            }
            if let (Some(c), Some(it)) = (self.chunk, op.get("iter_context")) {
                let (unit, num_chunks) = self.iter_context(it, &path)?;
                self.iterations(unit, num_chunks, &path)?;
                let why = format!("chunks of {c} bytes in pipeline units of {unit} bytes");
                cut(c / gcd(c, unit), &format!("{path}.iter_context"), &why)?;
            }
            for (k, inner) in list(&op, "ops").into_iter().enumerate() {
                stack.push((inner, format!("{path}.ops[{k}]")));
            }
        }
        Ok(lcm as u32)
    }

    /// A pipeline's `iter_context`: its unit in bytes and its chunks.
    fn iter_context(&self, j: &Json, path: &str) -> Result<(u64, u32), ImportError> {
        let path = format!("{path}.iter_context");
        let it = self.object(j, &path)?;
        let unit = self.key_number(it, &path, "unit_size", u32::MAX as u64)? as u64;
        if unit == 0 {
            return Err(self.at(&format!("{path}.unit_size"), "0: a unit of no bytes"));
        }
        Ok((unit, self.key_number(it, &path, "num_chunks", 1 << 24)?))
    }

    /// How many iterations a pipeline of `num_chunks` chunks in units of
    /// `unit` bytes runs: ceil(num_chunks x C / unit) for chunks of C
    /// bytes (3.6; C is a multiple of the alignment, as MSCCL++ requires);
    /// without C, one.
    fn iterations(&self, unit: u64, num_chunks: u32, path: &str) -> Result<u64, ImportError> {
        let times = match self.chunk {
            Some(c) => (num_chunks as u64).saturating_mul(c).div_ceil(unit),
            None => (num_chunks > 0) as u64,
        };
        match times > MAX_ITERATIONS {
            true => Err(self.at(
                path,
                format!("{times} iterations: MSCCL++'s executor counts at most {MAX_ITERATIONS}"),
            )),
            false => Ok(times),
        }
    }

    /// How the plan's pipelines are read, for its collective's name: at
    /// `--bytes`, or once each (a chunk no larger than their units take
    /// in one iteration); nothing for a plan without pipelines.
    fn sizing_words(&self, gpus: &[Json], strides: &[Option<u64>]) -> String {
        let mut units: Vec<(u64, u32)> = gpus
            .iter()
            .filter_map(|g| g.get("threadblocks")?.as_array())
            .flatten()
            .filter_map(|tb| tb.get("ops")?.as_array())
            .flatten()
            .filter_map(|op| self.iter_context(op.get("iter_context")?, "").ok())
            .collect();
        units.sort_unstable();
        units.dedup();
        if units.is_empty() {
            return String::new();
        }
        let Some(c) = self.chunk else {
            let most = units
                .iter()
                .filter(|u| u.1 > 0)
                .map(|&(unit, m)| unit / m as u64)
                .min()
                .unwrap_or(u64::MAX);
            return format!(
                "; its pipelines read as one iteration, as for chunks of at most {most} bytes: \
                 --bytes sets a chunk's"
            );
        };
        // The plan was read, so every pipeline's count is in range.
        let times: Vec<u64> = units
            .iter()
            .filter_map(|&(unit, m)| self.iterations(unit, m, "").ok())
            .collect();
        let (least, most) = (times.iter().min(), times.iter().max());
        let mut words = format!("; chunks of {c} bytes, its pipelines of ");
        match (least, most) {
            (Some(a), Some(b)) if a != b => words += &format!("{a} to {b} iterations"),
            (_, Some(1)) => words += "1 iteration",
            (_, Some(b)) => words += &format!("{b} iterations"),
            _ => {}
        }
        if let Some(x) = strides.iter().flatten().min() {
            words += &format!(", scratch chunks {x} bytes apart (reuse_resources)");
        }
        words
    }

    fn read(&self, top: &Json) -> Result<Schedule, ImportError> {
        let top = self.object(top, "the plan")?;
        let gpus = self.array(top, "the plan", "gpus")?;
        let old = ["inputChunks", "outputChunks", "chunkGroups"];
        if let Some(key) = gpus
            .first()
            .and_then(Json::as_object)
            .and_then(|g| old.into_iter().find(|k| g.contains_key(*k)))
        {
            return Err(self.at(
                "gpus[0]",
                format!(
                    "\"{key}\": the camelCase layout of MSCCL++ 0.5 to 0.7, which commcheck \
                     does not read (0.8 and later write input_chunks, ...: regenerate the plan)"
                ),
            ));
        }
        let name = self.text(top, "the plan", "name")?.to_string();
        let collective = self.text(top, "the plan", "collective")?;
        let inplace = self
            .field(top, "the plan", "inplace")?
            .as_bool()
            .ok_or_else(|| self.at("inplace", "expected true or false"))?;
        self.text(top, "the plan", "protocol")?;
        let written: Option<Collective> = match top.get(COLLECTIVE_KEY) {
            Some(j) => Some(serde_json::from_value(j.clone()).map_err(|e| {
                self.at(
                    COLLECTIVE_KEY,
                    format!("the collective commcheck wrote: {}", super::serde_words(&e)),
                )
            })?),
            None => None,
        };
        let coll = match collective {
            "allreduce" => Coll::Allreduce,
            "allgather" => Coll::Allgather,
            "reducescatter" | "reduce_scatter" => Coll::ReduceScatter,
            "alltoall" => Coll::Alltoall,
            "custom" => Coll::Custom,
            other => {
                return Err(self.at(
                    "collective",
                    format!(
                        "\"{other}\": commcheck reads allreduce, allgather, reducescatter and \
                         alltoall (the postconditions MSCCL++'s verifier checks), and custom"
                    ),
                ))
            }
        };
        let ranks = gpus.len() as u32;
        if !(1..=MAX_GPUS).contains(&ranks) {
            return Err(self.at("gpus", format!("{ranks} GPUs: expected 1 to {MAX_GPUS}")));
        }
        // Declarations first: a GPU's ops name its peers' channels.
        let mut own = Vec::new();
        let mut decl = Vec::new();
        for (r, g) in gpus.iter().enumerate() {
            let path = format!("gpus[{r}]");
            let g = self.object(g, &path)?;
            if self.key_number(g, &path, "id", u32::MAX as u64)? != r as u32 {
                return Err(self.at(
                    &format!("{path}.id"),
                    format!(
                        "GPU {r} must be at position {r} with id {r}, as MSCCL++'s parser requires"
                    ),
                ));
            }
            let chunks = |key| self.key_number(g, &path, key, 1 << 24);
            own.push([
                chunks("input_chunks")?,
                chunks("output_chunks")?,
                chunks("scratch_chunks")?,
            ]);
            decl.push(self.gpu(g, &path, r as Rank, ranks)?);
        }
        let layout =
            Layout::of(coll, inplace, ranks, own.clone()).map_err(|why| self.at("gpus", why))?;
        pair(&mut decl);
        let align = match top.get("buffer_alignment") {
            Some(j) => self.number(j, "buffer_alignment", u32::MAX as u64)?.max(1) as u64,
            None => 16,
        };
        if let Some(c) = self.chunk.filter(|c| c % align != 0) {
            return Err(ImportError::Usage(format!(
                "--bytes {c}: a chunk of {} is a multiple of its buffer_alignment, {align} \
                 bytes (MSCCL++ refuses other sizes)",
                self.file
            )));
        }
        // With reuse_resources a scratch chunk is a stride of a fixed
        // scratch, which may be shorter than a chunk (3.8).
        let reuse = top.get("reuse_resources").and_then(Json::as_bool) == Some(true);
        let strides: Vec<Option<u64>> = own
            .iter()
            .map(|o| match (self.chunk, o[2]) {
                (Some(c), s) if reuse && s > 0 => {
                    Some(REUSED_SCRATCH.div_ceil(s as u64)).filter(|&x| x < c)
                }
                _ => None,
            })
            .collect();
        let pieces = self.pieces(gpus, &strides)?;
        let wraps: Vec<Option<u32>> = strides
            .iter()
            .map(|x| x.map(|x| (x * pieces as u64 / self.chunk.unwrap_or(1)) as u32))
            .collect();
        if let Some(why) = models::schedule::too_large(ranks, layout.count() * pieces as u64) {
            return Err(self.at("gpus", why));
        }
        let stated = layout
            .stated(written.as_ref())
            .map_err(|why| self.at("collective", why))?;
        let mut chunks = match pieces {
            1 => stated,
            n => stated.cut(n),
        };
        let temps = chunks.positions;
        let mut per_rank: Vec<Vec<Read>> = Vec::new();
        let mut temps_used = 0;
        for (r, g) in gpus.iter().enumerate() {
            let path = format!("gpus[{r}]");
            let g = self.object(g, &path)?;
            let mut reader = Ranked {
                plan: self,
                layout: &layout,
                own: &own,
                decl: &decl,
                rank: r as Rank,
                pieces,
                wraps: &wraps,
                parts: Vec::new(),
                temp: temps,
                temps: 0,
            };
            reader.blocks(self.array(g, &path, "threadblocks")?, &path)?;
            temps_used = temps_used.max(reader.temps);
            per_rank.push(reader.parts);
        }
        if per_rank.iter().map(Vec::len).sum::<usize>() > MAX_OPS {
            return Err(self.at("gpus", format!("more than {MAX_OPS} operations")));
        }
        if temps_used > 0 {
            chunks.buffers.push(("commcheck's temporary".into(), temps));
            chunks.positions += temps_used;
        }
        let (ops, first, relaxed) = materialize(per_rank);
        let schedule = Schedule {
            name,
            ranks,
            ops,
            first,
            chunks,
            collective: format!(
                "{} (an MSCCL++ plan{})",
                match (&written, coll) {
                    (Some(stated), Coll::Custom) => stated.name(),
                    _ => coll.name(inplace),
                },
                self.sizing_words(gpus, &strides)
            ),
            parallel_ranks: true,
            relaxed,
        };
        schedule.validated().map_err(|why| self.at("the plan", why))
    }

    /// GPU `r`'s channels, remote buffers and semaphores.
    fn gpu(
        &self,
        g: &Map<String, Json>,
        path: &str,
        r: Rank,
        ranks: u32,
    ) -> Result<Gpu, ImportError> {
        let mut gpu = Gpu::default();
        let peer = |j: &Json, p: &str| -> Result<Rank, ImportError> {
            let q = self.number(j, p, ranks.saturating_sub(1) as u64)?;
            match q == r {
                true => Err(self.at(p, "a channel to the GPU itself")),
                false => Ok(q),
            }
        };
        for (c, ch) in self.array(g, path, "channels")?.iter().enumerate() {
            let p = format!("{path}.channels[{c}]");
            let ch = self.object(ch, &p)?;
            match self.text(ch, &p, "channel_type")? {
                kind @ ("memory" | "port") => {
                    for (k, q) in self.array(ch, &p, "connected_to")?.iter().enumerate() {
                        let q = peer(q, &format!("{p}.connected_to[{k}]"))?;
                        match kind {
                            "memory" => gpu.memory.push((q, 0)),
                            _ => gpu.port.push((q, 0)),
                        }
                    }
                }
                "switch" => {
                    // MSCCL++'s parser reads buffer_type; a plan of its own
                    // writes buff (docs/mscclpp-format.md, 1.3).
                    let b = ch
                        .get("buffer_type")
                        .or_else(|| ch.get("buff"))
                        .ok_or_else(|| self.at(&p, "a switch channel with no buffer_type"))?;
                    let b = self.buffer(b, &format!("{p}.buffer_type"))?;
                    for (k, group) in self.array(ch, &p, "rank_groups")?.iter().enumerate() {
                        let gp = format!("{p}.rank_groups[{k}]");
                        let members = self.array(self.object(group, &gp)?, &gp, "ranks")?;
                        let members = members
                            .iter()
                            .enumerate()
                            .map(|(i, q)| {
                                self.number(q, &format!("{gp}.ranks[{i}]"), ranks as u64 - 1)
                            })
                            .collect::<Result<Vec<Rank>, _>>()?;
                        gpu.switch.push((members, b));
                    }
                }
                "none" => {}
                other => {
                    return Err(self.at(
                        &format!("{p}.channel_type"),
                        format!("\"{other}\": memory, port or switch"),
                    ))
                }
            }
        }
        for (k, rb) in self.array(g, path, "remote_buffers")?.iter().enumerate() {
            let p = format!("{path}.remote_buffers[{k}]");
            let rb = self.object(rb, &p)?;
            let owner = self.key_number(rb, &p, "rank", ranks as u64 - 1)?;
            let b = self.buffer(self.field(rb, &p, "type")?, &format!("{p}.type"))?;
            gpu.remote.push((owner, b));
        }
        if let Some(sems) = g.get("semaphores") {
            let sems = sems
                .as_array()
                .ok_or_else(|| self.at(&format!("{path}.semaphores"), "expected an array"))?;
            for (k, sem) in sems.iter().enumerate() {
                let p = format!("{path}.semaphores[{k}]");
                let value = self.key_number(self.object(sem, &p)?, &p, "init_value", 1 << 20)?;
                gpu.semaphores.push(value);
            }
        }
        Ok(gpu)
    }
}

/// Numbers each GPU's channels by the pairs the executor connects: the
/// n-th channel a GPU declares to a peer (memory ones first, then port)
/// is pair n of the two.
fn pair(decl: &mut [Gpu]) {
    for gpu in decl.iter_mut() {
        let mut count: HashMap<Rank, u32> = HashMap::new();
        for ch in gpu.memory.iter_mut().chain(gpu.port.iter_mut()) {
            let k = count.entry(ch.0).or_default();
            ch.1 = *k;
            *k += 1;
        }
    }
}

/// The reading of one GPU's thread blocks into parts.
struct Ranked<'p, 'f> {
    plan: &'p Plan<'f>,
    layout: &'p Layout,
    own: &'p [[u32; 3]],
    decl: &'p [Gpu],
    rank: Rank,
    /// Positions per chunk ([`Plan::pieces`]).
    pieces: u32,
    /// Per GPU, with `reuse_resources`, the pieces of its scratch stride
    /// where that is shorter than a chunk: scratch chunk k starts at
    /// piece k x wrap of the scratch, overlapping the next (3.8); a
    /// scratch [`Place`]'s index counts from the scratch's first piece.
    wraps: &'p [Option<u32>],
    parts: Vec<Read>,
    /// The first temporary position, and how many this GPU's blocks use.
    temp: Pos,
    temps: u32,
}

/// A thread block's order as its ops are read.
#[derive(Default)]
struct Order {
    /// The first part of the last op (the next starts after it starts).
    last: Option<usize>,
    /// The last `nop` or `barrier` (the next ops start after it ends).
    sync: Option<usize>,
    /// Parts since then (a `nop` waits for them to end).
    since: Vec<usize>,
}

/// A block's passes through one barrier, in order: (arrival, departure).
type Passes = Vec<(usize, usize)>;

/// Per semaphore, its releases and acquires: (block, part).
type Uses = HashMap<u32, (Vec<(usize, usize)>, Vec<(usize, usize)>)>;

impl Ranked<'_, '_> {
    fn blocks(&mut self, blocks: &[Json], path: &str) -> Result<(), ImportError> {
        let mut semaphores: Uses = HashMap::new();
        // Per barrier id, per block, its arrivals and departures in order.
        let mut barriers: HashMap<u32, Vec<(usize, Passes)>> = HashMap::new();
        for (t, tb) in blocks.iter().enumerate() {
            let p = format!("{path}.threadblocks[{t}]");
            let tb = self.plan.object(tb, &p)?;
            if self.plan.key_number(tb, &p, "id", u32::MAX as u64)? != t as u32 {
                return Err(self.plan.at(
                    &format!("{p}.id"),
                    format!("thread block {t} must have id {t}: MSCCL++ keeps ops by position and channels by id"),
                ));
            }
            let block = self.block(tb, &p)?;
            let mut order = Order::default();
            let mut own_barriers: HashMap<u32, Passes> = HashMap::new();
            let ops = self.plan.array(tb, &p, "ops")?;
            let mut temp = None;
            for (k, op) in ops.iter().enumerate() {
                let op_path = format!("{p}.ops[{k}]");
                let ctx = Ctx {
                    block: &block,
                    tb: t,
                    sems: &mut semaphores,
                    barriers: &mut own_barriers,
                    temp: &mut temp,
                    iteration: None,
                };
                self.op(op, &op_path, &mut order, ctx)?;
            }
            for (id, list) in own_barriers {
                barriers.entry(id).or_default().push((t, list));
            }
        }
        // Semaphores: one releasing and one acquiring block; the k-th
        // acquire past the initial count comes after release k - init.
        let mut ids: Vec<_> = semaphores.into_iter().collect();
        ids.sort_by_key(|e| e.0);
        for (id, (releases, acquires)) in ids {
            let gpu = &self.decl[self.rank as usize];
            let init = *gpu.semaphores.get(id as usize).ok_or_else(|| {
                self.plan
                    .at(path, format!("semaphore {id} is used but not declared"))
            })?;
            for (what, list) in [("released", &releases), ("acquired", &acquires)] {
                if list.iter().any(|u| u.0 != list[0].0) {
                    return Err(self.plan.at(
                        path,
                        format!(
                            "semaphore {id} is {what} by several thread blocks: which release an \
                             acquire takes then depends on speed, and commcheck reads a semaphore \
                             of one releasing and one acquiring thread block"
                        ),
                    ));
                }
            }
            for (k, &(_, part)) in acquires.iter().enumerate() {
                if let Some(j) = (k as u32).checked_sub(init) {
                    match releases.get(j as usize) {
                        Some(&(_, release)) => self.parts[part].after.push(release),
                        None => {
                            // Never released: a wait for a message no one
                            // sends, which matching reports.
                            self.parts[part].part = self.hang();
                        }
                    }
                }
            }
        }
        // Barriers: departure k of each block after every block's arrival k.
        for (_, blocks) in barriers {
            let rounds = blocks.iter().map(|b| b.1.len()).max().unwrap_or(0);
            for k in 0..rounds {
                let arrivals: Vec<usize> = blocks
                    .iter()
                    .filter_map(|b| b.1.get(k))
                    .map(|a| a.0)
                    .collect();
                for b in &blocks {
                    if let Some(&(_, depart)) = b.1.get(k) {
                        self.parts[depart].after.extend(arrivals.iter().copied());
                    }
                }
            }
        }
        Ok(())
    }

    /// A receive no send matches: the op never ends.
    fn hang(&self) -> Part {
        let ranks = self.decl.len() as Rank;
        Part::Kind(Kind::Recv {
            from: Some((self.rank + 1) % ranks.max(2)),
            tag: Some(u32::MAX),
            data: Data::Nothing,
            reduce: false,
        })
    }

    fn block(&self, tb: &Map<String, Json>, p: &str) -> Result<Block, ImportError> {
        let plan = self.plan;
        let gpu = &self.decl[self.rank as usize];
        let mut block = Block::default();
        for (c, ch) in plan.array(tb, p, "channels")?.iter().enumerate() {
            let cp = format!("{p}.channels[{c}]");
            let ch = plan.object(ch, &cp)?;
            let kind = plan.text(ch, &cp, "channel_type")?;
            let (list, have) = match kind {
                "memory" => (&mut block.memory, gpu.memory.len()),
                "port" => (&mut block.port, gpu.port.len()),
                "switch" => (&mut block.switch, gpu.switch.len()),
                _ => continue,
            };
            for (i, id) in plan.array(ch, &cp, "channel_ids")?.iter().enumerate() {
                let ip = format!("{cp}.channel_ids[{i}]");
                let id = plan.number(id, &ip, u32::MAX as u64)? as usize;
                if id >= have {
                    return Err(
                        plan.at(&ip, format!("{kind} channel {id}: the GPU declares {have}"))
                    );
                }
                list.push(id);
            }
        }
        if let Some(refs) = tb.get("remote_buffer_refs").and_then(Json::as_array) {
            for (c, rf) in refs.iter().enumerate() {
                let rp = format!("{p}.remote_buffer_refs[{c}]");
                let rf = plan.object(rf, &rp)?;
                let list = match plan.text(rf, &rp, "access_channel_type")? {
                    "port" => &mut block.remote_port,
                    _ => &mut block.remote_memory,
                };
                for (i, id) in plan.array(rf, &rp, "remote_buffer_ids")?.iter().enumerate() {
                    let ip = format!("{rp}.remote_buffer_ids[{i}]");
                    let id = plan.number(id, &ip, u32::MAX as u64)? as usize;
                    if id >= gpu.remote.len() {
                        return Err(plan.at(
                            &ip,
                            format!("remote buffer {id}: the GPU declares {}", gpu.remote.len()),
                        ));
                    }
                    list.push(id);
                }
            }
        }
        Ok(block)
    }
}

/// What an op needs of its thread block while it is read.
struct Ctx<'a> {
    block: &'a Block,
    tb: usize,
    sems: &'a mut Uses,
    barriers: &'a mut HashMap<u32, Passes>,
    /// The block's temporary position, once it has one.
    temp: &'a mut Option<Pos>,
    /// The pipeline iteration the op runs in, if any.
    iteration: Option<Iteration>,
}

impl Ranked<'_, '_> {
    /// The position of piece `piece` of buffer `b` of rank `q` (a chunk
    /// is [`Ranked::pieces`] of them), through the in-place aliasing.
    fn position(&self, q: Rank, b: usize, piece: u32) -> Pos {
        let n = self.pieces;
        self.layout.position(q, b, piece / n) * n + piece % n
    }

    /// Adds a part after the block's last op (and its last sync).
    fn push(&mut self, part: Part, label: &str, order: &Order, after_part: Option<usize>) -> usize {
        let i = self.parts.len();
        let mut after: Vec<usize> = order.sync.into_iter().collect();
        after.extend(after_part);
        self.parts.push(Read {
            part,
            after,
            started_after: order.last.into_iter().collect(),
            label: label.to_string(),
            slot: None,
            relaxed: false,
        });
        i
    }

    fn op(
        &mut self,
        op: &Json,
        path: &str,
        order: &mut Order,
        ctx: Ctx,
    ) -> Result<(), ImportError> {
        let plan = self.plan;
        let o = plan.object(op, path)?;
        let name = plan.text(o, path, "name")?;
        if name == "pipeline" {
            // Its ops, iteration after iteration (3.6).
            if ctx.iteration.is_some() {
                return Err(plan.at(
                    path,
                    "a pipeline in a pipeline, which MSCCL++'s DSL does not write and its \
                     executor does not run",
                ));
            }
            let inner = plan.array(o, path, "ops")?;
            let (unit, num_chunks) =
                plan.iter_context(plan.field(o, path, "iter_context")?, path)?;
            let times = plan.iterations(unit, num_chunks, path)?;
            let Ctx {
                block,
                tb,
                sems,
                barriers,
                temp,
                ..
            } = ctx;
            for k in 0..times {
                for (j, op) in inner.iter().enumerate() {
                    let ctx = Ctx {
                        block,
                        tb,
                        sems: &mut *sems,
                        barriers: &mut *barriers,
                        temp: &mut *temp,
                        iteration: Some(Iteration {
                            k,
                            of: times,
                            offset: k * unit,
                            unit,
                        }),
                    };
                    self.op(op, &format!("{path}.ops[{j}]"), order, ctx)?;
                }
                if self.parts.len() > MAX_OPS {
                    return Err(plan.at(path, format!("more than {MAX_OPS} operations")));
                }
            }
            return Ok(());
        }
        let tbg = match o.get("tbg_info") {
            Some(t) => Some(plan.tbg(t, path)?),
            None => None,
        };
        let label = match ctx.iteration {
            Some(it) if it.of > 1 => {
                format!("{path} ({name}, iteration {} of {})", it.k + 1, it.of)
            }
            _ => format!("{path} ({name})"),
        };
        // Data ops do their slice of the iteration; packet ops everything.
        let slice = ctx.iteration.filter(|_| !PACKET_OPS.contains(&name));
        // A group load-reduce sums in the block's own temporary position.
        let temp = match name {
            "glres" => Some(*ctx.temp.get_or_insert_with(|| {
                self.temps += 1;
                self.temp + self.temps - 1
            })),
            _ => None,
        };
        let mut parts: Vec<Part> = Vec::new();
        let channel_type = o
            .get("channel_type")
            .and_then(Json::as_str)
            .unwrap_or("none");
        let share = Share { tbg, slice };
        let src = self.refs(o, path, "src_buff", channel_type, ctx.block, share)?;
        let dst = self.refs(o, path, "dst_buff", channel_type, ctx.block, share)?;
        let need = |list: &[Place], n: usize, key: &str| -> Result<(), ImportError> {
            match list.len() >= n {
                true => Ok(()),
                false => Err(plan.at(
                    path,
                    format!("{name} needs {n} {key} entries, has {}", list.len()),
                )),
            }
        };
        let me = self.rank;
        let cells = |p: &Place, c: u32| -> Vec<(Rank, Pos)> {
            let at = |q: Rank| (q, self.position(q, p.buffer, p.index + c));
            match p.ranks {
                Ranks::One(q) => vec![at(q)],
                Ranks::Group(g) => self.decl[me as usize].switch[g]
                    .0
                    .iter()
                    .map(|&q| at(q))
                    .collect(),
            }
        };
        let one = |p: &Place, c: u32| cells(p, c)[0];
        let slot = |q: Rank, index: u32| (q, self.position(q, 2, index));
        let mv = |from: (Rank, Pos), to: (Rank, Pos), add: bool| {
            Part::Kind(Kind::Move {
                from,
                to,
                add,
                flag: None,
            })
        };
        let signals = |kind: &str| -> Result<Vec<Channel>, ImportError> {
            let (local, global) = match kind {
                "port" => (&ctx.block.port, &self.decl[me as usize].port),
                _ => (&ctx.block.memory, &self.decl[me as usize].memory),
            };
            let ids = o
                .get("channel_ids")
                .and_then(Json::as_array)
                .cloned()
                .unwrap_or_default();
            ids.iter()
                .enumerate()
                .map(|(i, id)| {
                    let ip = format!("{path}.channel_ids[{i}]");
                    let id = plan.number(id, &ip, u32::MAX as u64)? as usize;
                    local.get(id).map(|&g| global[g]).ok_or_else(|| {
                        plan.at(
                            &ip,
                            format!("{kind} channel {id}: the thread block has {}", local.len()),
                        )
                    })
                })
                .collect()
        };
        // D0 = S0 (+ the rest), chunk by chunk.
        let reduce_into = |parts: &mut Vec<Part>, rest: &[Place], packets: bool| {
            let (s0, d0) = (&src[0], &dst[0]);
            for c in 0..d0.size {
                let to = one(d0, c);
                if one(s0, c) != to {
                    parts.push(mv(one(s0, c), to, false));
                }
                for s in rest {
                    let from = match packets {
                        true => slot(me, s.index + c),
                        false => one(s, c),
                    };
                    if packets {
                        parts.push(Part::Awaits { slot: from.1 });
                    }
                    parts.push(mv(from, to, true));
                }
            }
        };
        // D0's chunks to every other destination, as data or packets.
        let send_on = |parts: &mut Vec<Part>, rest: &[Place], packets: bool| {
            let d0 = &dst[0];
            for d in rest {
                for c in 0..d0.size.min(d.size) {
                    for to in cells(d, c) {
                        match packets {
                            true => {
                                let to = slot(to.0, d.index + c);
                                parts.push(Part::Wrote {
                                    from: one(d0, c),
                                    to: to.0,
                                    slot: to.1,
                                });
                            }
                            false => parts.push(mv(one(d0, c), to, false)),
                        }
                    }
                }
            }
        };
        // Packet slots are scratch chunks, whatever a reference's type.
        let slots: Vec<&Place> = match name {
            "upkt" => src.iter().take(1).collect(),
            "gstorepkt" => src.iter().take(1).chain(&dst).collect(),
            "repkt" | "respkt" | "recpkt" | "recspkt" => {
                src.iter().skip(1).chain(dst.iter().skip(1)).collect()
            }
            "ppkt" | "cpkt" => dst.iter().collect(),
            "rppkt" => src.iter().take(1).chain(&dst).collect(),
            _ => Vec::new(),
        };
        for p in slots {
            let owners: Vec<Rank> = match p.ranks {
                Ranks::One(q) => vec![q],
                Ranks::Group(g) => self.decl[me as usize].switch[g].0.clone(),
            };
            for q in owners {
                let have = self.own[q as usize][2];
                if p.index as u64 + p.size as u64 > have as u64 * self.pieces as u64 {
                    let n = self.pieces;
                    return Err(plan.at(
                        path,
                        format!(
                            "packets of chunks {} to {} of GPU {q}'s scratch, which has {have}",
                            p.index / n,
                            (p.index + p.size).div_ceil(n)
                        ),
                    ));
                }
            }
        }
        // Every data op has a source and a destination.
        if DATA_OPS.contains(&name) {
            need(&src, 1, "src_buff")?;
            need(&dst, 1, "dst_buff")?;
        }
        match name {
            "nop" | "barrier" => {}
            "flush" => parts.push(Part::Kind(Kind::Calc)),
            "signal" | "rlxsignal" => {
                for (peer, tag) in signals(channel_type)? {
                    parts.push(Part::Kind(Kind::Send {
                        to: peer,
                        also: Vec::new(),
                        tag,
                        data: Data::Nothing,
                        path: None,
                    }));
                }
            }
            "wait" | "rlxwait" => {
                for (peer, tag) in signals(channel_type)? {
                    parts.push(Part::Kind(Kind::Recv {
                        from: Some(peer),
                        tag: Some(tag),
                        data: Data::Nothing,
                        reduce: false,
                    }));
                }
            }
            "copy" => {
                for c in 0..src[0].size {
                    parts.push(mv(one(&src[0], c), one(&dst[0], c), false));
                }
            }
            "put" | "pws" | "pwsf" => {
                // The device reads every source from S0's buffer.
                for (s, d) in src.iter().zip(&dst) {
                    let s = Place {
                        buffer: src[0].buffer,
                        ..*s
                    };
                    for c in 0..d.size {
                        parts.push(mv(one(&s, c), one(d, c), false));
                    }
                }
                if name != "put" && channel_type == "port" {
                    for (peer, tag) in signals("port")? {
                        parts.push(Part::Kind(Kind::Send {
                            to: peer,
                            also: Vec::new(),
                            tag,
                            data: Data::Nothing,
                            path: None,
                        }));
                    }
                }
            }
            "get" => {
                // The device swaps the offsets (docs/mscclpp-format.md, 2).
                for (s, d) in src.iter().zip(&dst) {
                    for c in 0..s.size {
                        let from = Place {
                            index: d.index,
                            ..*s
                        };
                        let to = Place {
                            index: s.index,
                            ..*d
                        };
                        parts.push(mv(one(&from, c), one(&to, c), false));
                    }
                }
            }
            "re" | "rre" | "res" | "rres" => {
                reduce_into(&mut parts, &src[1..], false);
                if name.ends_with('s') {
                    send_on(&mut parts, &dst[1..], false);
                }
            }
            "repkt" | "respkt" | "recpkt" | "recspkt" => {
                reduce_into(&mut parts, &src[1..], true);
                let rest = match name {
                    "recpkt" | "recspkt" => {
                        need(&dst, 2, "dst_buff")?;
                        let local = Place {
                            ranks: Ranks::One(me),
                            ..dst[1]
                        };
                        send_on(&mut parts, std::slice::from_ref(&local), true);
                        &dst[2..]
                    }
                    _ => &dst[1..],
                };
                if name.ends_with("spkt") {
                    send_on(&mut parts, rest, true);
                }
            }
            "ppkt" | "cpkt" => {
                for (s, d) in src.iter().zip(&dst) {
                    let s = Place {
                        buffer: src[0].buffer,
                        ..*s
                    };
                    for c in 0..d.size {
                        for to in cells(d, c) {
                            let to = slot(to.0, d.index + c);
                            parts.push(Part::Wrote {
                                from: one(&s, c),
                                to: to.0,
                                slot: to.1,
                            });
                        }
                    }
                }
            }
            "upkt" => {
                for c in 0..dst[0].size {
                    let from = slot(me, src[0].index + c);
                    parts.push(Part::Awaits { slot: from.1 });
                    parts.push(mv(from, one(&dst[0], c), false));
                }
            }
            "rppkt" => {
                for d in &dst {
                    for c in 0..d.size {
                        let from = slot(me, src[0].index + c);
                        parts.push(Part::Awaits { slot: from.1 });
                        for to in cells(d, c) {
                            let to = slot(to.0, d.index + c);
                            parts.push(Part::Wrote {
                                from,
                                to: to.0,
                                slot: to.1,
                            });
                        }
                    }
                }
            }
            "glres" | "gstore" => {
                for c in 0..dst[0].size {
                    let value = match temp {
                        Some(t) => {
                            let t = (me, t);
                            for (i, from) in cells(&src[0], c).into_iter().enumerate() {
                                parts.push(mv(from, t, i > 0));
                            }
                            t
                        }
                        _ => one(&src[0], c),
                    };
                    for to in cells(&dst[0], c) {
                        parts.push(mv(value, to, false));
                    }
                }
            }
            "sem_acquire" | "sem_release" => parts.push(Part::Kind(Kind::Calc)),
            "gstorepkt" => {
                // The local packets of S0's slots, each as it arrives, to
                // the slots of every GPU of D0's switch channel (a slot
                // stored into itself is left as it is).
                for c in 0..src[0].size.min(dst[0].size) {
                    let from = slot(me, src[0].index + c);
                    parts.push(Part::Awaits { slot: from.1 });
                    for to in cells(&dst[0], c) {
                        let to = slot(to.0, dst[0].index + c);
                        if to == from {
                            continue;
                        }
                        parts.push(Part::Wrote {
                            from,
                            to: to.0,
                            slot: to.1,
                        });
                    }
                }
            }
            other => {
                return Err(plan.at(
                    path,
                    format!(
                        "\"{other}\": not an op of MSCCL++'s current parser (put, get, signal, \
                         wait, copy, re, rre, res, rres, the packet ops, sem_acquire, \
                         sem_release, barrier, nop, flush, pipeline, glres, gstore, ...)"
                    ),
                ))
            }
        }
        // Where a sync goes: a nop (and a barrier's arrival) after every
        // part since the last; the ops after it after it.
        if name == "nop" || name == "barrier" {
            let i = self.parts.len();
            let mut after = order.since.clone();
            after.extend(order.sync);
            self.parts.push(Read {
                part: Part::Kind(Kind::Calc),
                after,
                started_after: order.last.into_iter().collect(),
                label: label.clone(),
                slot: None,
                relaxed: false,
            });
            let mut end = i;
            if name == "barrier" {
                let id = o.get("barrier_id").and_then(Json::as_u64).unwrap_or(0) as u32;
                end = self.push(Part::Kind(Kind::Calc), &label, order, Some(i));
                ctx.barriers.entry(id).or_default().push((i, end));
            }
            *order = Order {
                last: Some(end),
                sync: Some(end),
                since: Vec::new(),
            };
            return Ok(());
        }
        if parts.is_empty() {
            parts.push(Part::Kind(Kind::Calc));
        }
        let first = self.parts.len();
        let mut previous = None;
        for part in parts {
            previous = Some(self.push(part, &label, order, previous));
        }
        // Relaxed forms on a port channel are the strong ones (the proxy
        // signals after the data, docs/mscclpp-format.md 2).
        if matches!(name, "rlxsignal" | "rlxwait") && channel_type != "port" {
            for read in &mut self.parts[first..] {
                read.relaxed = true;
            }
        }
        // commcheck's export fixes each transmission (a packet write, a
        // put, a get, a signal) to its run's slot, in a key MSCCL++'s
        // parser does not read.
        if let Some(j) = o.get("slot") {
            let slot = plan.number(j, &format!("{path}.slot"), u32::MAX as u64)?;
            if slot == 0 {
                return Err(plan.at(&format!("{path}.slot"), "0: slots count from 1"));
            }
            for p in &mut self.parts[first..] {
                let transmits = match p.part {
                    Part::Wrote { .. } | Part::Kind(Kind::Send { .. }) => true,
                    Part::Kind(Kind::Move { from, to, .. }) => from.0 != me || to.0 != me,
                    _ => false,
                };
                if transmits {
                    p.slot = Some(slot);
                }
            }
        }
        let ids = o
            .get("semaphore_ids")
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default();
        for (i, id) in ids.iter().enumerate() {
            let id = plan.number(id, &format!("{path}.semaphore_ids[{i}]"), u32::MAX as u64)?;
            let uses = ctx.sems.entry(id).or_default();
            match name {
                "sem_release" => uses.0.push((ctx.tb, first)),
                "sem_acquire" => uses.1.push((ctx.tb, first)),
                _ => {}
            }
        }
        order.since.extend(first..self.parts.len());
        order.last = Some(first);
        Ok(())
    }

    /// The buffer references under `key`.
    fn refs(
        &self,
        o: &Map<String, Json>,
        path: &str,
        key: &str,
        channel_type: &str,
        block: &Block,
        share: Share,
    ) -> Result<Vec<Place>, ImportError> {
        let Share { tbg, slice } = share;
        let plan = self.plan;
        let Some(list) = o.get(key) else {
            return Ok(Vec::new());
        };
        let list = list
            .as_array()
            .ok_or_else(|| plan.at(&format!("{path}.{key}"), "expected an array"))?;
        let gpu = &self.decl[self.rank as usize];
        let mut places = Vec::new();
        for (i, r) in list.iter().enumerate() {
            let p = format!("{path}.{key}[{i}]");
            let r = plan.object(r, &p)?;
            let index = plan.key_number(r, &p, "index", 1 << 24)?;
            let size = plan.key_number(r, &p, "size", 1 << 24)?;
            let (ranks, buffer) = if let Some(t) = r.get("type") {
                (Ranks::One(self.rank), plan.buffer(t, &format!("{p}.type"))?)
            } else if let Some(b) = r.get("buffer_id") {
                let b = plan.number(b, &format!("{p}.buffer_id"), u32::MAX as u64)? as usize;
                let list = match channel_type {
                    "port" => &block.remote_port,
                    _ => &block.remote_memory,
                };
                let k = *list.get(b).ok_or_else(|| {
                    plan.at(
                        &format!("{p}.buffer_id"),
                        format!("remote buffer {b}: the thread block has {}", list.len()),
                    )
                })?;
                let (owner, buffer) = gpu.remote[k];
                (Ranks::One(owner), buffer)
            } else if let Some(s) = r.get("switch_channel_id") {
                let s =
                    plan.number(s, &format!("{p}.switch_channel_id"), u32::MAX as u64)? as usize;
                let g = *block.switch.get(s).ok_or_else(|| {
                    plan.at(
                        &format!("{p}.switch_channel_id"),
                        format!(
                            "switch channel {s}: the thread block has {}",
                            block.switch.len()
                        ),
                    )
                })?;
                (Ranks::Group(g), gpu.switch[g].1)
            } else {
                return Err(plan.at(
                    &p,
                    "a buffer reference with no type, buffer_id or switch_channel_id",
                ));
            };
            let owners: Vec<Rank> = match ranks {
                Ranks::One(q) => vec![q],
                Ranks::Group(g) => gpu.switch[g].0.clone(),
            };
            for q in owners {
                let have = self.own[q as usize][buffer];
                if index as u64 + size as u64 > have as u64 {
                    return Err(plan.at(
                        &p,
                        format!(
                            "chunks {index} to {} of buffer {} of GPU {q}, which has {have}",
                            index + size,
                            ["i", "o", "s"][buffer]
                        ),
                    ));
                }
            }
            // In pieces: the whole range, or the group member's share.
            let n = self.pieces;
            let (share, of) = tbg.unwrap_or((0, 1));
            let size = size * n / of;
            let wrap = match ranks {
                Ranks::One(q) => self.wraps[q as usize],
                Ranks::Group(_) => self.wraps[self.rank as usize],
            };
            let mut place = Place {
                ranks,
                buffer,
                index: index * n + share * size,
                size,
            };
            // In a pipeline, the iteration's unit from its offset (an
            // offset into a reused scratch wraps at its stride, 3.8).
            if let (Some(it), Some(c)) = (slice, plan.chunk) {
                let piece = c / n as u64;
                let bytes = size as u64 * piece;
                if bytes <= it.offset {
                    return Err(plan.at(
                        &p,
                        format!(
                            "{bytes} bytes, which iteration {} of the pipeline starts past: \
                             MSCCL++'s executor then runs the op beyond its range (its size \
                             wraps), so a pipeline's ranges are at least its num_chunks",
                            it.k + 1
                        ),
                    ));
                }
                let offset = match (buffer, wrap) {
                    (2, Some(w)) => it.offset % (w as u64 * piece),
                    _ => it.offset,
                };
                place.index += (offset / piece) as u32;
                place.size = ((bytes - it.offset).min(it.unit) / piece) as u32;
            }
            // A reused scratch's chunk k starts k strides in, its pieces
            // on from there (into the next chunk's where a chunk is longer).
            if let (2, Some(w)) = (buffer, wrap) {
                place.index = index * w + (place.index - index * n);
            }
            places.push(place);
        }
        Ok(places)
    }
}

/// The schedule's operations from the parts read, rank by rank: a packet
/// write becomes a message to each rank that reads the slot (as many as
/// it reads it), a packet read a receive of it (on the writer's own GPU,
/// an order after the write); a read of a slot nothing writes never ends.
fn materialize(per_rank: Vec<Vec<Read>>) -> (Vec<Op>, Vec<OpId>, Vec<OpId>) {
    let ranks = per_rank.len() as Rank;
    // Per (rank, slot): its writers (rank, part) and how often it is read.
    let mut writers: HashMap<(Rank, Pos), Vec<(Rank, usize)>> = HashMap::new();
    let mut reads: HashMap<(Rank, Pos), u32> = HashMap::new();
    for (r, parts) in per_rank.iter().enumerate() {
        for (i, p) in parts.iter().enumerate() {
            match p.part {
                Part::Wrote { to, slot, .. } => {
                    writers.entry((to, slot)).or_default().push((r as Rank, i))
                }
                Part::Awaits { slot } => *reads.entry((r as Rank, slot)).or_default() += 1,
                Part::Kind(_) => {}
            }
        }
    }
    let mut ops = Vec::new();
    let mut first = vec![0];
    let mut relaxed = Vec::new();
    for (r, parts) in per_rank.into_iter().enumerate() {
        let r = r as Rank;
        let base = ops.len() as OpId;
        // Each part's operations, first and last (a packet write may be
        // several messages).
        let mut span: Vec<(OpId, OpId)> = Vec::with_capacity(parts.len());
        let mut next = base;
        let mut kinds: Vec<Vec<Kind>> = Vec::with_capacity(parts.len());
        let mut local_after: Vec<Vec<usize>> = vec![Vec::new(); parts.len()];
        for (i, p) in parts.iter().enumerate() {
            let list = match p.part {
                Part::Kind(ref k) => vec![k.clone()],
                Part::Wrote { from, to, slot } => {
                    let write = |flag| Kind::Move {
                        from,
                        to: (to, slot),
                        add: false,
                        flag,
                    };
                    match reads.get(&(to, slot)).copied().unwrap_or(0) {
                        // On the writer's own GPU its read is ordered after it.
                        _ if to == r => vec![write(None)],
                        // Read once (or never: its flag an orphan): the
                        // flag the read spins on lands with the data.
                        0 | 1 => vec![write(Some(PACKET + slot))],
                        // Read several times: a flag for each read, after.
                        times => std::iter::once(write(None))
                            .chain((0..times).map(|_| Kind::Send {
                                to,
                                also: Vec::new(),
                                tag: PACKET + slot,
                                data: Data::Nothing,
                                path: None,
                            }))
                            .collect(),
                    }
                }
                Part::Awaits { slot } => match writers.get(&(r, slot)).and_then(|w| w.first()) {
                    Some(&(w, _)) if w != r => vec![Kind::Recv {
                        from: Some(w),
                        tag: Some(PACKET + slot),
                        data: Data::Nothing,
                        reduce: false,
                    }],
                    Some(&(_, part)) => {
                        local_after[i].push(part);
                        vec![Kind::Calc]
                    }
                    None => vec![Kind::Recv {
                        from: Some((r + 1) % ranks.max(2)),
                        tag: Some(PACKET + slot),
                        data: Data::Nothing,
                        reduce: false,
                    }],
                },
            };
            span.push((next, next + list.len() as OpId - 1));
            next += list.len() as OpId;
            kinds.push(list);
        }
        for (i, (p, list)) in parts.iter().zip(kinds).enumerate() {
            for (j, kind) in list.into_iter().enumerate() {
                let mut after: Vec<OpId> = p
                    .after
                    .iter()
                    .chain(&local_after[i])
                    .map(|&a| span[a].1)
                    .collect();
                if j > 0 {
                    after = vec![span[i].0 + j as OpId - 1];
                }
                if p.relaxed {
                    relaxed.push(ops.len() as OpId);
                }
                ops.push(Op {
                    rank: r,
                    kind,
                    after,
                    started_after: p.started_after.iter().map(|&a| span[a].0).collect(),
                    slot: p.slot.filter(|_| j == 0),
                    label: p.label.clone(),
                    bytes: 0,
                    line: 0,
                });
            }
        }
        first.push(ops.len() as OpId);
    }
    (ops, first, relaxed)
}

/// Most ops MSCCL++'s executor runs in a thread block
/// (docs/mscclpp-format.md, 1.6).
pub const MAX_BLOCK_OPS: usize = 64;

/// `schedule`, a run whose sends are fixed to slots (a catalogue run's,
/// `check optimal`'s witness, the executor's run of a file), as an
/// MSCCL++ plan (`--write-mscclpp`; docs/schedules.md, "Exports"), laid
/// out as for MSCCL-IR ([`super::msccl::lay_out`]): per GPU a thread
/// block per peer, its sends as packet writes (`ppkt`, LL) into a scratch
/// slot of the receiver's own, its receives as the packet reads that
/// wait for them (`upkt`, `repkt` where the receive reduces); its puts,
/// gets and packet writes as `put`, `get` (`rre` where it adds) and
/// `ppkt` into the peer's buffers, its signals and waits as `signal` and
/// `wait` on a memory channel per tag the pair uses; a `nop` after each
/// op (a thread block's ops overlap but through one), and a semaphore
/// wherever a step depends on another thread block's (released after the
/// step that must come first, acquired before the step that waits): on a
/// chunk both touch, or by the schedule's own order. Each thread block so
/// runs in the run's order, which orders what the schedule may leave
/// unordered (two accesses of one block). MSCCL++ names allreduce,
/// allgather, reducescatter and alltoall; another collective is written
/// as `custom`. The key [`COLLECTIVE_KEY`] keeps the collective and each
/// transmission's `slot` its run's slot: keys MSCCL++'s parser does not
/// read.
pub fn write(schedule: &Schedule) -> Result<String, super::WriteError> {
    use super::msccl::{lay_out, Laid, Place};
    use serde_json::json;
    use std::collections::BTreeSet;
    let names = ["allreduce", "allgather", "reducescatter", "alltoall"];
    let laid = lay_out(schedule, "MSCCL++", &names, true)?;
    let n = schedule.ranks as usize;
    // Each receive's packet slot: after the scratch chunks in transit.
    let mut packet: HashMap<OpId, u32> = HashMap::new();
    let mut scratch = laid.scratch.clone();
    for (q, steps) in laid.ranks.iter().enumerate() {
        for &(_, _, class, id, ref w) in steps {
            if class == 1 && matches!(w.kind, "r" | "rrc") {
                packet.insert(id, scratch[q]);
                scratch[q] += 1;
            }
        }
    }
    // The tags each pair of GPUs signals with, either way: a channel each.
    let mut tags: HashMap<(Rank, Rank), BTreeSet<u32>> = HashMap::new();
    for (q, steps) in laid.ranks.iter().enumerate() {
        for (peer, _, _, _, w) in steps {
            if matches!(w.kind, "signal" | "wait") {
                let pair = ((q as Rank).min(*peer), (q as Rank).max(*peer));
                tags.entry(pair).or_default().insert(w.tag);
            }
        }
    }
    let pair_tags = |q: Rank, p: Rank| tags.get(&(q.min(p), q.max(p)));
    let buff = |(b, index): Place| json!({"type": b.to_string(), "index": index, "size": 1});
    let mut gpus = Vec::with_capacity(n);
    for (q, steps) in laid.ranks.iter().enumerate() {
        let me = q as Rank;
        let blocks = Laid::blocks(steps, &laid.order[q]);
        let peers: Vec<Rank> = blocks
            .peers
            .iter()
            .copied()
            .filter(|&p| p != u32::MAX)
            .collect();
        // Memory channels: per peer one per tag of the pair (at least one),
        // the n-th to a peer being pair n of the two.
        let mut channels: Vec<Rank> = Vec::new();
        let mut first_channel: HashMap<Rank, usize> = HashMap::new();
        for &p in &peers {
            first_channel.insert(p, channels.len());
            let k = pair_tags(me, p).map_or(1, |t| t.len().max(1));
            channels.extend(std::iter::repeat_n(p, k));
        }
        // The peers' buffers it writes or reads: (peer, buffer).
        let remote: Vec<(Rank, char)> = steps
            .iter()
            .filter_map(|(p, _, _, _, w)| match w.kind {
                "s" => Some((*p, 's')),
                "put" | "ppkt" => Some((*p, w.dst.0)),
                "get" | "rre" => Some((*p, w.src.0)),
                _ => None,
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        // A remote buffer's id among its thread block's references.
        let local_ref = |p: Rank, b: char| {
            remote
                .iter()
                .filter(|r| r.0 == p)
                .position(|r| r.1 == b)
                .expect("a remote buffer of the thread block")
        };
        let at_peer = |p: Rank, (b, index): Place| json!({"buffer_id": local_ref(p, b), "index": index, "size": 1});
        let channel_of = |p: Rank, tag: u32| {
            pair_tags(me, p)
                .and_then(|t| t.iter().position(|&x| x == tag))
                .unwrap_or(0)
        };
        // A semaphore per dependency: (step waited for, step that waits).
        let mut releases: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut acquires: Vec<Vec<usize>> = vec![Vec::new(); steps.len()];
        let mut semaphores = 0;
        for (k, deps) in blocks.deps.iter().enumerate() {
            for &d in deps {
                releases.entry(d).or_default().push(semaphores);
                acquires[k].push(semaphores);
                semaphores += 1;
            }
        }
        let mut threadblocks = Vec::with_capacity(blocks.programs.len());
        for (tb, program) in blocks.programs.iter().enumerate() {
            let peer = blocks.peers[tb];
            let mut ops = Vec::new();
            for &k in program {
                let (_, slot, _, id, w) = &steps[k];
                if !acquires[k].is_empty() {
                    ops.push(json!({"name": "sem_acquire", "semaphore_ids": acquires[k]}));
                    ops.push(json!({"name": "nop"}));
                }
                ops.push(match w.kind {
                    "s" => {
                        let to = laid.partner[id];
                        json!({
                            "name": "ppkt",
                            "channel_type": "memory",
                            "channel_ids": [0],
                            "src_buff": [buff(w.src)],
                            "dst_buff": [at_peer(peer, ('s', packet[&to]))],
                            "slot": slot,
                        })
                    }
                    "r" => json!({
                        "name": "upkt",
                        "src_buff": [buff(('s', packet[id]))],
                        "dst_buff": [buff(w.dst)],
                    }),
                    "rrc" => json!({
                        "name": "repkt",
                        "src_buff": [buff(w.dst), buff(('s', packet[id]))],
                        "dst_buff": [buff(w.dst)],
                    }),
                    kind @ ("put" | "ppkt") => json!({
                        "name": kind,
                        "channel_type": "memory",
                        "channel_ids": [0],
                        "src_buff": [buff(w.src)],
                        "dst_buff": [at_peer(peer, w.dst)],
                        "slot": slot,
                    }),
                    // MSCCL++'s get reads the peer at its destination's
                    // offset and writes at its source's (docs/mscclpp-format.md, 2).
                    "get" => json!({
                        "name": "get",
                        "channel_type": "memory",
                        "channel_ids": [0],
                        "src_buff": [at_peer(peer, (w.src.0, w.dst.1))],
                        "dst_buff": [buff((w.dst.0, w.src.1))],
                        "slot": slot,
                    }),
                    "rre" => json!({
                        "name": "rre",
                        "channel_type": "memory",
                        "src_buff": [buff(w.dst), at_peer(peer, w.src)],
                        "dst_buff": [buff(w.dst)],
                        "slot": slot,
                    }),
                    "signal" => json!({
                        "name": "signal",
                        "channel_type": "memory",
                        "channel_ids": [channel_of(peer, w.tag)],
                        "slot": slot,
                    }),
                    "wait" => json!({
                        "name": "wait",
                        "channel_type": "memory",
                        "channel_ids": [channel_of(peer, w.tag)],
                    }),
                    "upkt" => json!({
                        "name": "upkt",
                        "src_buff": [buff(w.src)],
                        "dst_buff": [buff(w.dst)],
                    }),
                    "repkt" => json!({
                        "name": "repkt",
                        "src_buff": [buff(w.dst), buff(w.src)],
                        "dst_buff": [buff(w.dst)],
                    }),
                    // re: dst := dst + src, as MSCCL++ reduces into its
                    // first source.
                    "re" => json!({
                        "name": "re",
                        "src_buff": [buff(w.dst), buff(w.src)],
                        "dst_buff": [buff(w.dst)],
                    }),
                    _ => json!({
                        "name": "copy",
                        "src_buff": [buff(w.src)],
                        "dst_buff": [buff(w.dst)],
                    }),
                });
                ops.push(json!({"name": "nop"}));
                if let Some(sems) = releases.get(&k) {
                    ops.push(json!({"name": "sem_release", "semaphore_ids": sems}));
                }
            }
            if ops.len() > MAX_BLOCK_OPS {
                return Err(super::WriteError::LongBlock {
                    gpu: me,
                    block: tb,
                    ops: ops.len(),
                });
            }
            let mut block = json!({"id": tb, "ops": ops, "channels": []});
            if peer != u32::MAX {
                let first = first_channel[&peer];
                let count = channels[first..].iter().take_while(|&&c| c == peer).count();
                block["channels"] = json!([{"channel_type": "memory",
                    "channel_ids": (first..first + count).collect::<Vec<_>>()}]);
                let ids: Vec<usize> = (0..remote.len()).filter(|&i| remote[i].0 == peer).collect();
                if !ids.is_empty() {
                    block["remote_buffer_refs"] =
                        json!([{"access_channel_type": "memory", "remote_buffer_ids": ids}]);
                }
            }
            threadblocks.push(block);
        }
        let [i, o] = laid.sizes[q];
        gpus.push(json!({
            "id": q,
            "input_chunks": i,
            // MSCCL++'s size check divides by it (custom writes none).
            "output_chunks": if o == 0 { i } else { o },
            "scratch_chunks": scratch[q],
            "channels": [{"channel_type": "memory", "connected_to": channels}],
            "remote_buffers": remote
                .iter()
                .map(|&(p, b)| json!({"rank": p, "type": b.to_string(), "access_channel_types": ["memory"]}))
                .collect::<Vec<_>>(),
            "semaphores": vec![json!({"init_value": 0}); semaphores],
            "threadblocks": threadblocks,
        }));
    }
    let mut plan = json!({
        "name": schedule.name,
        "collective": laid.coll,
        "protocol": "LL",
        "inplace": laid.inplace,
        "reuse_resources": false,
        "use_double_scratch_buffer": false,
        "buffer_alignment": 16,
        "min_message_size": 0,
        "max_message_size": u64::MAX,
        "num_threads_per_block": 1024,
        "gpus": gpus,
    });
    if let Some(c) = &laid.collective {
        plan[COLLECTIVE_KEY] = serde_json::to_value(c)?;
    }
    Ok(serde_json::to_string_pretty(&plan)? + "\n")
}
