//! MSCCL-IR, the XML msccl-tools writes and MSCCL's interpreter runs
//! (docs/import-formats.md, section 2; docs/schedules.md, "MSCCL-IR"):
//! `<algo ngpus coll inplace ...>`, per GPU `<gpu id i_chunks o_chunks
//! s_chunks>`, per threadblock `<tb id send recv chan>`, and its program
//! of `<step s type srcbuf srcoff dstbuf dstoff cnt depid deps hasdep>`.
//!
//! How commcheck reads it, as the interpreter runs it:
//! * **Ranks and data.** A GPU is a rank. Its buffers `i`, `o` and `s`
//!   are positions (the input, then the output, then the scratch); with
//!   `inplace="1"` the aliased buffer is the other's view, as msccl-tools
//!   defines it per collective. The collective (`coll`) says what each
//!   input chunk is and what each output chunk must end as.
//! * **Order.** A threadblock runs its steps in document order; `depid`
//!   and `deps` name a step of another threadblock of the GPU that must
//!   complete first. The interpreter releases such a wait only at a step
//!   with `hasdep="1"`, so a dependency on a step without it waits for the
//!   threadblock's next step that has it; if none has, it waits forever,
//!   and the file is refused, naming both steps.
//! * **Connections.** A threadblock sends to its `send` peer and receives
//!   from its `recv` peer on its channel: the connection (i -> j, channel)
//!   is a FIFO, the tag of every message on it. Its buffer is unbounded
//!   (NCCL's has a few slots; a send never waits for its receive).
//! * **Steps.** Fused steps are their parts in order: `rcs` receives then
//!   sends what it received; `rrs` sends the received sum plus `src`
//!   without writing it (through a position of the threadblock's own);
//!   `rrc` and `rrcs` write `dst := received + src`, and `rrcs` sends it;
//!   `cpy` and `re` are local; `nop` carries a dependency. `src` and `dst`
//!   are addresses on the executing GPU, as the interpreter reads them.
//! * **Packets.** A chunk is a packet: a step of `cnt` chunks sends (and
//!   receives) `cnt` messages of one chunk each, in offset order, one a
//!   slot on its link.

use super::collective::Collective;
use super::{line_column, ImportError};
use models::schedule::{
    Chunks, Data, FileLayout, IdSet, Kind, Op, OpId, Pos, Rank, Schedule, Value, MAX_REDUCED_RANKS,
};
use roxmltree::{Document, Node};
use std::collections::HashMap;

/// Most GPUs a file may declare.
pub const MAX_GPUS: u32 = 1 << 12;

/// Most chunks a buffer may have.
pub const MAX_BUFFER_CHUNKS: u32 = 1 << 16;

/// The schedule in MSCCL-IR `text`, read from `file`.
pub fn read(text: &str, file: &str) -> Result<Schedule, ImportError> {
    let doc = Document::parse(text).map_err(|e| ImportError::File {
        file: file.to_string(),
        line: super::xml_position(text, &e).0,
        column: super::xml_position(text, &e).1,
        why: e
            .to_string()
            .split(" at ")
            .next()
            .unwrap_or_default()
            .to_string(),
    })?;
    let lines = super::Lines::new(text);
    let r = Reader {
        text,
        file,
        lines: &lines,
    };
    let algo = doc.root_element();
    if algo.tag_name().name() != "algo" {
        return Err(r.at(algo, "expected an <algo> element: this is not MSCCL-IR"));
    }
    let ngpus = r.number(algo, "ngpus", 1, MAX_GPUS)?;
    let own = own_collective(&r, &doc)?;
    let coll = Coll::parse(&r, algo, own.as_ref())?;
    let inplace = r.number(algo, "inplace", 0, 1)? == 1;
    let proto = r.attr(algo, "proto")?;
    if !["Simple", "LL128", "LL"].contains(&proto) {
        return Err(r.at(algo, format!("proto \"{proto}\": Simple, LL128 or LL")));
    }
    r.number(algo, "nchannels", 1, u32::MAX)?;
    let per_loop = r.number(algo, "nchunksperloop", 0, u32::MAX)?;

    // The GPUs, each once.
    let mut gpus: Vec<Option<Gpu>> = vec![None; ngpus as usize];
    for g in elements(algo, "gpu") {
        let id = r.number(g, "id", 0, ngpus - 1)?;
        if gpus[id as usize].is_some() {
            return Err(r.at(g, format!("gpu {id} is given twice")));
        }
        let size = |name| r.number(g, name, 0, MAX_BUFFER_CHUNKS);
        gpus[id as usize] = Some(Gpu {
            node: g,
            sizes: [size("i_chunks")?, size("o_chunks")?, size("s_chunks")?],
        });
    }
    if let Some(missing) = gpus.iter().position(Option::is_none) {
        return Err(r.at(algo, format!("gpu {missing} is missing: ngpus is {ngpus}")));
    }
    let gpus: Vec<Gpu> = gpus.into_iter().flatten().collect();
    let layout = Layout::new(&r, algo, coll, inplace, ngpus, per_loop, &gpus)?;
    let positions = layout
        .sizes
        .iter()
        .map(|&s| s as u64)
        .sum::<u64>()
        .max(layout.count());
    if let Some(why) = models::schedule::too_large(ngpus, positions) {
        return Err(r.at(algo, why));
    }

    let mut ops: Vec<Op> = Vec::new();
    let mut first = vec![0 as OpId];
    let mut temps = 0;
    let mut ends: HashMap<(Rank, Rank, u32), [Vec<End>; 2]> = HashMap::new();
    for (rank, gpu) in gpus.iter().enumerate() {
        let mut program = Program::new(&r, &layout, rank as Rank, ops.len() as OpId);
        program.read(gpu)?;
        temps = temps.max(program.temps);
        ops.extend(program.ops);
        first.push(ops.len() as OpId);
        for (sends, list) in [(0, program.sends), (1, program.recvs)] {
            for (peer, chan, end) in list {
                let (from, to) = match sends {
                    0 => (rank as Rank, peer),
                    _ => (peer, rank as Rank),
                };
                ends.entry((from, to, chan)).or_default()[sends].push(end);
            }
        }
    }
    // The k-th message of a connection is its k-th receive's: the counts
    // must agree (a difference is left to the run where one side has
    // more: the matching property names it).
    let mut connections: Vec<_> = ends.into_iter().collect();
    connections.sort_by_key(|(key, _)| *key);
    for ((_, to, chan), [sends, recvs]) in connections {
        if let Some((s, v)) = sends.iter().zip(&recvs).find(|(s, v)| s.cnt != v.cnt) {
            let (line, column) = line_column(text, s.offset);
            return Err(ImportError::File {
                file: file.to_string(),
                line,
                column,
                why: format!(
                    "{} sends {} chunks to gpu {to} on channel {chan}; the receive that takes \
                     it, {}, {}",
                    s.label(),
                    s.cnt,
                    v.label(),
                    v.cnt
                ),
            });
        }
    }
    let name = algo
        .attribute("name")
        .map_or_else(|| super::file_name(file), str::to_string);
    let mut chunks = layout.stated(own.as_ref()).map_err(|why| r.at(algo, why))?;
    if temps > 0 {
        chunks
            .buffers
            .push(("commcheck's temporary".into(), chunks.positions));
    }
    chunks.positions += temps;
    let schedule = Schedule {
        name,
        ranks: ngpus,
        ops,
        first,
        chunks,
        collective: match (&own, coll) {
            (Some(stated), Coll::Custom) => stated.name(),
            _ => layout.coll.name(inplace),
        },
        parallel_ranks: true,
        relaxed: Vec::new(),
    };
    schedule.validated().map_err(|why| ImportError::File {
        file: file.to_string(),
        line: 0,
        column: 0,
        why: why.to_string(),
    })
}

/// How commcheck's export states what MSCCL-IR cannot (a root, or a
/// collective of no MSCCL name): an XML comment, which MSCCL's loaders
/// skip, `<!-- commcheck collective: JSON -->` (the JSON of commcheck's
/// format, docs/schedules.md).
pub const COLLECTIVE_COMMENT: &str = "commcheck collective:";

/// The collective commcheck's comment states, if the file has one.
fn own_collective(r: &Reader, doc: &Document) -> Result<Option<Collective>, ImportError> {
    let Some((node, json)) = doc.root().descendants().find_map(|n| {
        let text = n.is_comment().then(|| n.text()).flatten()?;
        Some((n, text.trim().strip_prefix(COLLECTIVE_COMMENT)?))
    }) else {
        return Ok(None);
    };
    serde_json::from_str(json)
        .map(Some)
        .map_err(|e| r.at(node, format!("the collective commcheck wrote: {e}")))
}

/// The element children of `node` named `name`.
fn elements<'a, 'i>(node: Node<'a, 'i>, name: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children()
        .filter(move |n| n.is_element() && n.tag_name().name() == name)
}

/// The file being read, for errors at an element's line and column.
struct Reader<'t> {
    text: &'t str,
    file: &'t str,
    /// Where its lines start (every step is numbered by its line).
    lines: &'t super::Lines,
}

impl Reader<'_> {
    fn at(&self, node: Node, why: impl Into<String>) -> ImportError {
        super::at_offset(self.text, self.file, node.range().start, why)
    }

    fn attr<'a>(&self, node: Node<'a, '_>, name: &str) -> Result<&'a str, ImportError> {
        node.attribute(name)
            .ok_or_else(|| self.at(node, format!("<{}> has no {name}", node.tag_name().name())))
    }

    /// Attribute `name` of `node`, an integer in `lo..=hi`.
    fn number(&self, node: Node, name: &str, lo: u32, hi: u32) -> Result<u32, ImportError> {
        let text = self.attr(node, name)?;
        match text.parse::<u32>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(self.at(node, format!("{name}=\"{text}\": expected {lo} to {hi}"))),
        }
    }

    /// Attribute `name` of `node`, -1 or an integer in `0..=hi`.
    fn maybe(&self, node: Node, name: &str, hi: u32) -> Result<Option<u32>, ImportError> {
        match self.attr(node, name)? {
            "-1" => Ok(None),
            _ => self.number(node, name, 0, hi).map(Some),
        }
    }
}

#[derive(Clone)]
struct Gpu<'a, 'i> {
    node: Node<'a, 'i>,
    /// Chunks of its input, output and scratch buffers.
    sizes: [u32; 3],
}

/// The collectives MSCCL-IR files name (`custom` states no postcondition).
/// A rooted one's root is in no MSCCL-IR attribute (the runtime's call
/// names it): rank 0 unless commcheck's own comment names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Coll {
    Allgather,
    Allreduce,
    ReduceScatter,
    Alltoall,
    Broadcast(Rank),
    Reduce(Rank),
    Gather(Rank),
    Scatter(Rank),
    Custom,
}

impl Coll {
    fn parse(r: &Reader, algo: Node, own: Option<&Collective>) -> Result<Coll, ImportError> {
        let root = match own {
            Some(
                Collective::Broadcast { root, .. }
                | Collective::Reduce { root, .. }
                | Collective::Gather { root }
                | Collective::Scatter { root },
            ) => *root,
            _ => 0,
        };
        Ok(match r.attr(algo, "coll")? {
            "allgather" => Coll::Allgather,
            "allreduce" => Coll::Allreduce,
            "reduce_scatter" | "reducescatter" => Coll::ReduceScatter,
            "alltoall" => Coll::Alltoall,
            "broadcast" => Coll::Broadcast(root),
            "reduce" => Coll::Reduce(root),
            "gather" => Coll::Gather(root),
            "scatter" => Coll::Scatter(root),
            "custom" => Coll::Custom,
            other => {
                return Err(r.at(
                    algo,
                    format!(
                        "coll \"{other}\": commcheck reads allgather, allreduce, alltoall, \
                         reduce_scatter, broadcast, reduce, gather, scatter and custom"
                    ),
                ))
            }
        })
    }

    /// Its name in an MSCCL-IR file's `coll` (and, for the four it
    /// names, an MSCCL++ plan's `collective`).
    fn msccl_name(self) -> &'static str {
        match self {
            Coll::Allgather => "allgather",
            Coll::Allreduce => "allreduce",
            Coll::ReduceScatter => "reducescatter",
            Coll::Alltoall => "alltoall",
            Coll::Broadcast(_) => "broadcast",
            Coll::Reduce(_) => "reduce",
            Coll::Gather(_) => "gather",
            Coll::Scatter(_) => "scatter",
            Coll::Custom => "custom",
        }
    }

    pub(super) fn name(self, inplace: bool) -> String {
        let name = match self {
            Coll::Allgather => "allgather".to_string(),
            Coll::Allreduce => "allreduce".to_string(),
            Coll::ReduceScatter => "reduce-scatter".to_string(),
            Coll::Alltoall => "alltoall".to_string(),
            Coll::Broadcast(root) => format!("broadcast from rank {root}"),
            Coll::Reduce(root) => format!("reduce to rank {root}"),
            Coll::Gather(root) => format!("gather to rank {root}"),
            Coll::Scatter(root) => format!("scatter from rank {root}"),
            Coll::Custom => "custom (no postcondition)".to_string(),
        };
        match inplace {
            true => format!("{name}, in place"),
            false => name,
        }
    }

    fn reduced(self) -> bool {
        matches!(
            self,
            Coll::Allreduce | Coll::ReduceScatter | Coll::Reduce(_)
        )
    }

    /// The root, for a rooted collective.
    fn root(self) -> Option<Rank> {
        match self {
            Coll::Broadcast(r) | Coll::Reduce(r) | Coll::Gather(r) | Coll::Scatter(r) => Some(r),
            _ => None,
        }
    }
}

/// Buffer `i`, `o` or `s`.
fn buffer(r: &Reader, step: Node, attr: &str) -> Result<usize, ImportError> {
    match r.attr(step, attr)? {
        "i" => Ok(0),
        "o" => Ok(1),
        "s" => Ok(2),
        other => Err(r.at(step, format!("{attr}=\"{other}\": i, o or s"))),
    }
}

/// Where each GPU's buffers are among its positions, and what the
/// collective puts there and asks of them.
pub(super) struct Layout {
    coll: Coll,
    inplace: bool,
    ranks: u32,
    /// The chunk factor C: the chunks a rank contributes.
    factor: u32,
    /// The largest input, output and scratch buffer: positions [0, I),
    /// [I, I + O), [I + O, I + O + S).
    sizes: [u32; 3],
    /// Each GPU's own sizes, for the bounds the loader checks.
    own: Vec<[u32; 3]>,
}

impl Layout {
    fn new(
        r: &Reader,
        algo: Node,
        coll: Coll,
        inplace: bool,
        ranks: u32,
        per_loop: u32,
        gpus: &[Gpu],
    ) -> Result<Layout, ImportError> {
        let own: Vec<[u32; 3]> = gpus.iter().map(|g| g.sizes).collect();
        // MSCCL's loader: i_chunks * inMult and o_chunks * outMult equal
        // nchunksperloop where given (inMult: R for allgather; outMult: R
        // for reduce-scatter).
        let (in_mult, out_mult) = match coll {
            Coll::Allgather => (ranks, 1),
            Coll::ReduceScatter => (1, ranks),
            _ => (1, 1),
        };
        // That loader reads neither gather nor scatter; RCCL's, which
        // does, checks no buffer against nchunksperloop.
        let checked = !matches!(coll, Coll::Gather(_) | Coll::Scatter(_));
        for g in gpus.iter().filter(|_| checked) {
            for (b, mult, name) in [(0, in_mult, "i_chunks"), (1, out_mult, "o_chunks")] {
                let have = g.sizes[b] as u64 * mult as u64;
                if per_loop > 0 && g.sizes[b] > 0 && have != per_loop as u64 {
                    return Err(r.at(
                        g.node,
                        format!(
                            "{name}=\"{}\" x {mult} is not nchunksperloop ({per_loop}), as \
                             MSCCL's loader requires",
                            g.sizes[b]
                        ),
                    ));
                }
            }
        }
        Layout::of(coll, inplace, ranks, own).map_err(|why| r.at(algo, why))
    }

    /// The layout of `ranks` GPUs with buffers of `own` chunks (input,
    /// output, scratch) for `coll`, or why they are not its buffers.
    pub(super) fn of(
        coll: Coll,
        inplace: bool,
        ranks: u32,
        own: Vec<[u32; 3]>,
    ) -> Result<Layout, String> {
        let mut sizes = [0; 3];
        for s in &own {
            for b in 0..3 {
                sizes[b] = sizes[b].max(s[b]);
            }
        }
        // The chunk factor, from the buffers the collective defines it by.
        let (i, o) = (sizes[0], sizes[1]);
        let factor = match (coll, inplace) {
            (Coll::Allgather, false) => Some(i).filter(|_| o == i * ranks),
            (Coll::Allgather, true) => Some(o / ranks).filter(|_| o % ranks == 0),
            (Coll::Allreduce, false) => Some(i).filter(|_| o == i),
            (Coll::Allreduce, true) => Some(i),
            (Coll::ReduceScatter, false) => Some(o).filter(|_| i == o * ranks),
            (Coll::ReduceScatter, true) => Some(i / ranks).filter(|_| i % ranks == 0),
            (Coll::Alltoall, false) => Some(i / ranks).filter(|_| i % ranks == 0 && o == i),
            (Coll::Alltoall, true) => Some(i / ranks).filter(|_| i % ranks == 0),
            // Broadcast and reduce: C chunks in and out; in place, one
            // buffer. Gather as allgather, scatter as reduce-scatter.
            (Coll::Broadcast(_) | Coll::Reduce(_), false) => Some(i).filter(|_| o == i),
            (Coll::Broadcast(_) | Coll::Reduce(_), true) => Some(i.max(o)),
            (Coll::Gather(_), false) => Some(i).filter(|_| o == i * ranks),
            (Coll::Gather(_), true) => Some(o / ranks).filter(|_| o % ranks == 0),
            (Coll::Scatter(_), false) => Some(o).filter(|_| i == o * ranks),
            (Coll::Scatter(_), true) => Some(i / ranks).filter(|_| i % ranks == 0),
            (Coll::Custom, _) => Some(i),
        }
        .filter(|&c| c > 0 || coll == Coll::Custom)
        .ok_or_else(|| {
            format!(
                "i_chunks {i} and o_chunks {o} on {ranks} GPUs are not the buffers of {}",
                coll.name(inplace)
            )
        })?;
        if let Some(root) = coll.root().filter(|&root| root >= ranks) {
            return Err(format!(
                "commcheck's comment names root {root}; the file has {ranks} GPUs"
            ));
        }
        if coll.reduced() && ranks > MAX_REDUCED_RANKS {
            return Err(format!(
                "{ranks} GPUs reduced: commcheck combines at most {MAX_REDUCED_RANKS}"
            ));
        }
        Ok(Layout {
            coll,
            inplace,
            ranks,
            factor,
            sizes,
            own,
        })
    }

    /// The position of chunk `off` of buffer `b` on `rank`, through the
    /// in-place aliasing.
    pub(super) fn position(&self, rank: Rank, b: usize, off: u32) -> Pos {
        let c = self.factor;
        let (b, off) = match (self.inplace, self.coll, b) {
            (true, Coll::Allgather | Coll::Gather(_), 0) => (1, rank * c + off),
            (true, Coll::Allreduce | Coll::Alltoall | Coll::Reduce(_), 1) => (0, off),
            (true, Coll::Broadcast(_), 0) => (1, off),
            (true, Coll::ReduceScatter | Coll::Scatter(_), 1) => (0, rank * c + off),
            _ => (b, off),
        };
        self.sizes[..b].iter().sum::<u32>() + off
    }

    /// How many chunks the collective has (before anything of that size
    /// is made: an alltoall's grows with the square of the GPUs).
    pub(super) fn count(&self) -> u64 {
        let (n, c) = (self.ranks as u64, self.factor as u64);
        match self.coll {
            Coll::Allgather | Coll::ReduceScatter | Coll::Gather(_) | Coll::Scatter(_) => n * c,
            Coll::Allreduce | Coll::Broadcast(_) | Coll::Reduce(_) => c,
            Coll::Alltoall => n * n * c,
            Coll::Custom => n * self.sizes[0] as u64,
        }
    }

    /// The chunks of the collective commcheck's comment states, if the
    /// file is `custom` and has one: chunk c at offset c of every GPU's
    /// input buffer. Otherwise the collective's own.
    pub(super) fn stated(&self, own: Option<&Collective>) -> Result<Chunks, String> {
        let mut named = self.chunks();
        let Some(own) = own else { return Ok(named) };
        if let Some(layout) = &mut named.layout {
            layout.stated = serde_json::to_string(own).ok();
        }
        if self.coll != Coll::Custom {
            let agrees = matches!(
                (own, self.coll),
                (Collective::Allgather, Coll::Allgather)
                    | (Collective::Allreduce { .. }, Coll::Allreduce)
                    | (Collective::ReduceScatter, Coll::ReduceScatter)
                    | (Collective::Alltoall, Coll::Alltoall)
                    | (Collective::Broadcast { .. }, Coll::Broadcast(_))
                    | (Collective::Reduce { .. }, Coll::Reduce(_))
                    | (Collective::Gather { .. }, Coll::Gather(_))
                    | (Collective::Scatter { .. }, Coll::Scatter(_))
            );
            return match agrees {
                true => Ok(named),
                false => Err(format!(
                    "commcheck's comment states {}; the file's coll is {}",
                    own.name(),
                    self.coll.name(self.inplace)
                )),
            };
        }
        let mut chunks = own.chunks(self.ranks).map_err(|e| e.to_string())?;
        if let Some(q) = self.own.iter().position(|s| s[0] != chunks.positions) {
            return Err(format!(
                "commcheck's comment states {} chunks; gpu {q} has i_chunks {}",
                chunks.positions, self.own[q][0]
            ));
        }
        chunks.positions = named.positions;
        chunks.buffers = named.buffers;
        chunks.layout = named.layout;
        Ok(chunks)
    }

    /// The chunks, where they start, where they must end.
    pub(super) fn chunks(&self) -> Chunks {
        let (n, c) = (self.ranks, self.factor);
        let r = n as usize;
        let all = IdSet::below(n);
        let mut initial = vec![Vec::new(); r];
        let mut expect = vec![Vec::new(); r];
        let mut origin = Vec::new();
        let count = self.count() as u32;
        for q in 0..n {
            let init = &mut initial[q as usize];
            match self.coll {
                Coll::Allgather | Coll::Gather(_) => {
                    for ch in 0..c {
                        init.push((self.position(q, 0, ch), Value::Chunk(q * c + ch)));
                        origin.push(q);
                    }
                }
                Coll::Broadcast(root) | Coll::Scatter(root) if q == root => {
                    for k in 0..count {
                        init.push((self.position(q, 0, k), Value::Chunk(k)));
                        origin.push(q);
                    }
                }
                Coll::Broadcast(_) | Coll::Scatter(_) => {}
                Coll::Allreduce | Coll::ReduceScatter | Coll::Reduce(_) => {
                    for k in 0..count {
                        let sum = Value::Sum {
                            chunk: k,
                            ranks: IdSet::one(q),
                        };
                        init.push((self.position(q, 0, k), sum));
                    }
                }
                Coll::Alltoall => {
                    for j in 0..n * c {
                        init.push((self.position(q, 0, j), Value::Chunk(q * n * c + j)));
                        origin.push(q);
                    }
                }
                Coll::Custom => {
                    for k in 0..self.own[q as usize][0] {
                        init.push((self.position(q, 0, k), Value::Chunk(q * self.sizes[0] + k)));
                    }
                    origin.extend(std::iter::repeat_n(q, self.sizes[0] as usize));
                }
            }
            let want = &mut expect[q as usize];
            let sum = |chunk| Value::Sum { chunk, ranks: all };
            match self.coll {
                Coll::Allgather | Coll::Broadcast(_) => {
                    for k in 0..count {
                        want.push((self.position(q, 1, k), Value::Chunk(k)));
                    }
                }
                Coll::Gather(root) if q == root => {
                    for k in 0..count {
                        want.push((self.position(q, 1, k), Value::Chunk(k)));
                    }
                }
                Coll::Allreduce => {
                    for k in 0..c {
                        want.push((self.position(q, 1, k), sum(k)));
                    }
                }
                Coll::Reduce(root) if q == root => {
                    for k in 0..c {
                        want.push((self.position(q, 1, k), sum(k)));
                    }
                }
                Coll::Scatter(_) => {
                    for k in 0..c {
                        want.push((self.position(q, 1, k), Value::Chunk(q * c + k)));
                    }
                }
                Coll::Gather(_) | Coll::Reduce(_) => {}
                Coll::ReduceScatter => {
                    for k in 0..c {
                        want.push((self.position(q, 1, k), sum(q * c + k)));
                    }
                }
                Coll::Alltoall => {
                    for i in 0..n {
                        for ch in 0..c {
                            let chunk = i * n * c + q * c + ch;
                            want.push((self.position(q, 1, i * c + ch), Value::Chunk(chunk)));
                        }
                    }
                }
                Coll::Custom => {}
            }
        }
        if self.coll.reduced() {
            origin = vec![0; count as usize];
        }
        Chunks {
            reduced: vec![self.coll.reduced(); count as usize],
            positions: self.sizes.iter().sum(),
            initial,
            expect,
            origin,
            buffers: ["i", "o", "s"]
                .iter()
                .zip(self.sizes)
                .scan(0, |first, (name, size)| {
                    let at = *first;
                    *first += size;
                    Some((name.to_string(), at, size))
                })
                .filter(|&(_, _, size)| size > 0)
                .map(|(name, at, _)| (name, at))
                .collect(),
            pieces: 1,
            layout: Some(FileLayout {
                coll: self.coll.msccl_name(),
                inplace: self.inplace,
                own: self.own.clone(),
                stated: None,
            }),
        }
    }
}

/// The steps' types, each with whether it sends, receives, reads `src`
/// and writes `dst` (on the executing GPU, as the interpreter runs it).
const STEPS: [(&str, [bool; 4]); 9] = [
    ("s", [true, false, true, false]),
    ("r", [false, true, false, true]),
    ("rcs", [true, true, false, true]),
    ("rrs", [true, true, true, false]),
    ("rrc", [false, true, true, true]),
    ("rrcs", [true, true, true, true]),
    ("cpy", [false, false, true, true]),
    ("re", [false, false, true, true]),
    ("nop", [false, false, false, false]),
];

/// One end of a message: its step's name, count and place in the file.
struct End {
    rank: Rank,
    tb: u32,
    /// The step's index and type.
    step: u32,
    kind: &'static str,
    cnt: u32,
    offset: usize,
}

impl End {
    /// The step as an error names it (made only for an error: a file has
    /// a million ends).
    fn label(&self) -> String {
        let End {
            rank,
            tb,
            step,
            kind,
            ..
        } = self;
        format!("gpu {rank} tb {tb} step {step} ({kind})")
    }
}

/// One GPU's threadblocks read into operations.
struct Program<'r, 't> {
    r: &'r Reader<'t>,
    layout: &'r Layout,
    rank: Rank,
    /// The id the GPU's first operation will have.
    base: OpId,
    ops: Vec<Op>,
    /// Positions of the threadblocks' own (for `rrs` and `rrc` with
    /// distinct buffers), after the buffers.
    temps: u32,
    /// The steps that send, in each connection's order: peer, channel.
    sends: Vec<(Rank, u32, End)>,
    /// The steps that receive, likewise.
    recvs: Vec<(Rank, u32, End)>,
}

/// A step as read: its threadblock, index, line, the operations it became
/// (the first and the last), its dependency and whether it releases one.
struct Step {
    first: usize,
    last: usize,
    depends: Option<(u32, u32)>,
    releases: bool,
}

impl<'r, 't> Program<'r, 't> {
    fn new(r: &'r Reader<'t>, layout: &'r Layout, rank: Rank, base: OpId) -> Self {
        Program {
            r,
            layout,
            rank,
            base,
            ops: Vec::new(),
            temps: 0,
            sends: Vec::new(),
            recvs: Vec::new(),
        }
    }

    fn read(&mut self, gpu: &Gpu) -> Result<(), ImportError> {
        let r = self.r;
        let ranks = self.layout.ranks;
        let tbs: Vec<Node> = elements(gpu.node, "tb").collect();
        let mut by_id: Vec<Option<Node>> = vec![None; tbs.len()];
        for &tb in &tbs {
            let id = r.number(tb, "id", 0, tbs.len() as u32 - 1).map_err(|_| {
                r.at(
                    tb,
                    format!(
                        "tb id=\"{}\": gpu {} has {} threadblocks, ids 0 to {}",
                        tb.attribute("id").unwrap_or_default(),
                        self.rank,
                        tbs.len(),
                        tbs.len() - 1
                    ),
                )
            })?;
            if by_id[id as usize].replace(tb).is_some() {
                return Err(r.at(
                    tb,
                    format!("threadblock {id} is given twice on gpu {}", self.rank),
                ));
            }
        }
        // One threadblock per connection and direction.
        let mut connections: HashMap<(bool, u32, u32), u32> = HashMap::new();
        let mut steps: Vec<Vec<Step>> = Vec::new();
        for (id, tb) in by_id
            .iter()
            .map(|t| t.expect("every id seen once"))
            .enumerate()
        {
            let peer = |name| -> Result<Option<Rank>, ImportError> {
                let p = r.maybe(tb, name, ranks - 1)?;
                if p == Some(self.rank) {
                    return Err(r.at(tb, format!("{name}=\"{}\" is the gpu itself", self.rank)));
                }
                Ok(p)
            };
            let (send, recv) = (peer("send")?, peer("recv")?);
            // A threadblock without peers uses no channel: the SCCL-era
            // loader its files were written for accepts chan="-1" there.
            let chan = match (send, recv, r.attr(tb, "chan")?) {
                (None, None, "-1") => 0,
                _ => r.number(tb, "chan", 0, u32::MAX)?,
            };
            for (sending, p) in [(true, send), (false, recv)] {
                let Some(p) = p else { continue };
                if let Some(other) = connections.insert((sending, p, chan), id as u32) {
                    return Err(r.at(
                        tb,
                        format!(
                            "threadblocks {other} and {id} of gpu {} both {} gpu {p} on channel \
                             {chan}: one connection each",
                            self.rank,
                            if sending { "send to" } else { "receive from" }
                        ),
                    ));
                }
            }
            let mut program = Vec::new();
            let temp = self.layout.sizes.iter().sum::<u32>() + self.temps;
            let mut temp_used = 0;
            for (k, step) in elements(tb, "step").enumerate() {
                let s = r.number(step, "s", 0, u32::MAX)?;
                if s as usize != k {
                    return Err(r.at(step, format!("s=\"{s}\": step {k} of its threadblock")));
                }
                let prev = self.ops.len().checked_sub(1).filter(|_| k > 0);
                let first = self.ops.len();
                let used = self.step(step, (id as u32, s), (send, recv, chan), temp)?;
                temp_used = temp_used.max(used);
                // Program order: after the threadblock's previous step.
                if let Some(p) = prev {
                    self.ops[first].after.push(self.base + p as OpId);
                }
                let depid = r.maybe(step, "depid", u32::MAX)?;
                let deps = r.maybe(step, "deps", u32::MAX)?;
                let depends = match (depid, deps) {
                    (Some(t), Some(d)) => Some((t, d)),
                    (None, None) => None,
                    _ => return Err(r.at(step, "depid and deps are both -1 or neither")),
                };
                program.push(Step {
                    first,
                    last: self.ops.len() - 1,
                    depends,
                    releases: r.number(step, "hasdep", 0, 1)? == 1,
                });
            }
            self.temps += temp_used;
            steps.push(program);
        }
        // Dependencies between threadblocks, released where the
        // interpreter releases them.
        let step_nodes: Vec<Vec<Node>> = by_id
            .iter()
            .map(|t| elements(t.expect("seen"), "step").collect())
            .collect();
        for (tb, program) in steps.iter().enumerate() {
            for (k, step) in program.iter().enumerate() {
                let Some((t, d)) = step.depends else { continue };
                let at = step_nodes[tb][k];
                if steps
                    .get(t as usize)
                    .and_then(|p| p.get(d as usize))
                    .is_none()
                {
                    return Err(r.at(
                        at,
                        format!(
                            "depid=\"{t}\" deps=\"{d}\": gpu {} has no such step",
                            self.rank
                        ),
                    ));
                }
                let released = steps[t as usize][d as usize..]
                    .iter()
                    .find(|s| s.releases)
                    .ok_or_else(|| {
                        r.at(
                            at,
                            format!(
                                "gpu {} tb {tb} step {k} waits for tb {t} step {d}, which has \
                                 hasdep=\"0\", and no later step of tb {t} has hasdep=\"1\": \
                                 MSCCL's interpreter never releases it",
                                self.rank
                            ),
                        )
                    })?;
                let wait = self.base + released.last as OpId;
                self.ops[step.first].after.push(wait);
            }
        }
        Ok(())
    }

    /// Reads `step`, step `s` of threadblock `tb`, into operations; returns how many
    /// positions of its own it uses (at `temp`).
    fn step(
        &mut self,
        step: Node,
        (tb, s): (u32, u32),
        (send, recv, chan): (Option<Rank>, Option<Rank>, u32),
        temp: Pos,
    ) -> Result<u32, ImportError> {
        let r = self.r;
        let kind = r.attr(step, "type")?;
        // MSCCL's loader checks the count of every step but a nop (whose
        // count msccl-tools and RCCL write as 0, and which moves nothing),
        // and a step of cnt chunks is cnt messages of one chunk here: no
        // limit but its buffers'.
        let cnt = match kind {
            "nop" => r.number(step, "cnt", 0, u32::MAX).map(|_| 0)?,
            _ => r.number(step, "cnt", 1, u32::MAX)?,
        };
        let Some(&(kind, [sends, receives, src, dst])) = STEPS.iter().find(|s| s.0 == kind) else {
            let names: Vec<&str> = STEPS.iter().map(|s| s.0).collect();
            return Err(r.at(
                step,
                format!(
                    "type=\"{kind}\": {} or nop (the steps MSCCL's interpreters run)",
                    names[..names.len() - 1].join(", ")
                ),
            ));
        };
        if sends && send.is_none() {
            return Err(r.at(
                step,
                format!("a {kind} step in a threadblock without a send peer"),
            ));
        }
        if receives && recv.is_none() {
            return Err(r.at(
                step,
                format!("a {kind} step in a threadblock without a recv peer"),
            ));
        }
        let own = self.layout.own[self.rank as usize];
        let place = |which: &str| -> Result<Vec<Pos>, ImportError> {
            let b = buffer(r, step, &format!("{which}buf"))?;
            let off = r.number(step, &format!("{which}off"), 0, u32::MAX)?;
            if off as u64 + cnt as u64 > own[b] as u64 {
                return Err(r.at(
                    step,
                    format!(
                        "{which}off=\"{off}\" cnt=\"{cnt}\" leaves buffer {} of {} chunks",
                        ["i", "o", "s"][b],
                        own[b]
                    ),
                ));
            }
            Ok((off..off + cnt)
                .map(|k| self.layout.position(self.rank, b, k))
                .collect())
        };
        let end = || End {
            rank: self.rank,
            tb,
            step: s,
            kind,
            cnt,
            offset: step.range().start,
        };
        if let (true, Some(p)) = (sends, send) {
            self.sends.push((p, chan, end()));
        }
        if let (true, Some(p)) = (receives, recv) {
            self.recvs.push((p, chan, end()));
        }
        let src = if src { place("src")? } else { Vec::new() };
        let dst = if dst { place("dst")? } else { Vec::new() };
        let temps: Vec<Pos> = (temp..temp + cnt).collect();
        let line = r.lines.line(step.range().start);
        let label = format!("tb {tb} step {s} ({kind})");
        // commcheck's export fixes a run's sends to their slots (MSCCL's
        // loaders ignore the attribute).
        let slot = match step.attribute("slot") {
            Some(_) => Some(r.number(step, "slot", 1, u32::MAX)?),
            None => None,
        };
        let mut parts: Vec<Kind> = Vec::new();
        let to = send.unwrap_or(0);
        // A chunk is a packet: a step of cnt chunks sends (receives) cnt
        // messages of one chunk, in offset order.
        let message = |data: &[Pos], parts: &mut Vec<Kind>| {
            parts.extend(data.iter().map(|&p| Kind::Send {
                to,
                also: Vec::new(),
                tag: chan,
                data: Data::At(vec![p]),
                path: None,
            }))
        };
        let receive = |data: &[Pos], reduce, parts: &mut Vec<Kind>| {
            parts.extend(data.iter().map(|&p| Kind::Recv {
                from: recv,
                tag: Some(chan),
                data: Data::At(vec![p]),
                reduce,
            }))
        };
        let copy = |from: &[Pos], to: &[Pos], parts: &mut Vec<Kind>| {
            for (&from, &to) in from.iter().zip(to) {
                parts.push(Kind::Copy { from, to });
            }
        };
        let mut used = 0;
        match kind {
            "s" => message(&src, &mut parts),
            "r" => receive(&dst, false, &mut parts),
            "rcs" => {
                receive(&dst, false, &mut parts);
                message(&dst, &mut parts);
            }
            "rrs" => {
                // The received sum plus src, sent without writing src.
                copy(&src, &temps, &mut parts);
                receive(&temps, true, &mut parts);
                message(&temps, &mut parts);
                used = cnt;
            }
            "rrc" | "rrcs" => {
                if src == dst {
                    receive(&dst, true, &mut parts);
                } else {
                    copy(&src, &temps, &mut parts);
                    receive(&temps, true, &mut parts);
                    copy(&temps, &dst, &mut parts);
                    used = cnt;
                }
                if kind == "rrcs" {
                    message(&dst, &mut parts);
                }
            }
            "cpy" => copy(&src, &dst, &mut parts),
            "re" => {
                for (&from, &to) in src.iter().zip(&dst) {
                    parts.push(Kind::Reduce { from, to });
                }
            }
            _ => parts.push(Kind::Calc),
        }
        for (i, kind) in parts.into_iter().enumerate() {
            let slot = slot.filter(|_| matches!(kind, Kind::Send { .. }));
            let after = match i {
                0 => Vec::new(),
                _ => vec![self.base + self.ops.len() as OpId - 1],
            };
            self.ops.push(Op {
                rank: self.rank,
                kind,
                after,
                started_after: Vec::new(),
                bytes: 0,
                slot,
                label: label.clone(),
                line,
            });
        }
        Ok(used)
    }
}

/// `schedule`, a run whose sends are fixed to slots (a catalogue run's,
/// `check optimal`'s witness), as MSCCL-IR (`--write-msccl`;
/// docs/schedules.md, "Exports"): a threadblock per peer on one channel,
/// its sends and receives in the run's order, and a dependency (chained
/// through `nop`s, as RCCL writes several) wherever a step touches a chunk
/// another threadblock touched before it, one of them writing
/// ([`Laid::blocks`]). A named collective is written in MSCCL's layout for
/// it, another as `custom` ([`lay_out`]); commcheck's comment keeps the
/// root and the postcondition, and each send's slot is its `slot`
/// attribute, which MSCCL's loaders skip.
pub fn write(schedule: &Schedule) -> Result<String, super::WriteError> {
    let names = [
        "broadcast",
        "reduce",
        "allreduce",
        "allgather",
        "gather",
        "scatter",
        "reducescatter",
        "alltoall",
    ];
    let laid = lay_out(schedule, "MSCCL-IR", &names, false)?;
    let n = schedule.ranks;
    let mut text = match &laid.collective {
        Some(c) => format!(
            "<!-- {COLLECTIVE_COMMENT} {} -->\n",
            serde_json::to_string(c)?
        ),
        None => String::new(),
    };
    text += &format!(
        "<algo name=\"{}\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"{}\" \
         ngpus=\"{n}\" coll=\"{}\" inplace=\"{}\" outofplace=\"{}\" minBytes=\"0\" \
         maxBytes=\"0\">\n",
        xml_escape(&schedule.name),
        laid.per_loop(),
        laid.coll,
        laid.inplace as u8,
        !laid.inplace as u8
    );
    for (q, steps) in laid.ranks.iter().enumerate() {
        let blocks = Laid::blocks(steps, &[]);
        // Indices once each step's chain of nops is before it.
        let mut index = vec![0u32; steps.len()];
        for program in &blocks.programs {
            let mut next = 0;
            for &k in program {
                next += blocks.deps[k].len().saturating_sub(1) as u32;
                index[k] = next;
                next += 1;
            }
        }
        let mut released = vec![false; steps.len()];
        let deps: Vec<Vec<(u32, u32)>> = blocks
            .deps
            .iter()
            .map(|ds| {
                ds.iter()
                    .map(|&k| {
                        released[k] = true;
                        (blocks.at[k].0, index[k])
                    })
                    .collect()
            })
            .collect();

        let [i, o] = laid.sizes[q];
        text += &format!(
            "  <gpu id=\"{q}\" i_chunks=\"{i}\" o_chunks=\"{o}\" s_chunks=\"{}\">\n",
            laid.scratch[q]
        );
        for (tb, program) in blocks.programs.iter().enumerate() {
            let peer = blocks.peers[tb];
            let has = |class| program.iter().any(|&k| steps[k].2 == class);
            let (send, recv) = match peer {
                u32::MAX => (-1, -1),
                p => (
                    if has(0) { p as i64 } else { -1 },
                    if has(1) { p as i64 } else { -1 },
                ),
            };
            text += &format!("    <tb id=\"{tb}\" send=\"{send}\" recv=\"{recv}\" chan=\"0\">\n");
            let mut s = 0;
            for &k in program {
                let (_, slot, class, _, w) = &steps[k];
                let (last, chain) = deps[k]
                    .split_last()
                    .map_or((None, &[][..]), |(l, c)| (Some(*l), c));
                for &(t, d) in chain {
                    text += &format!(
                        "      <step s=\"{s}\" type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"i\" \
                         dstoff=\"-1\" cnt=\"0\" depid=\"{t}\" deps=\"{d}\" hasdep=\"0\"/>\n"
                    );
                    s += 1;
                }
                let (t, d) = last.map_or((-1, -1), |(t, d)| (t as i64, d as i64));
                let slot = match class {
                    0 if peer != u32::MAX => format!(" slot=\"{slot}\""),
                    _ => String::new(),
                };
                text += &format!(
                    "      <step s=\"{s}\" type=\"{}\" srcbuf=\"{}\" srcoff=\"{}\" dstbuf=\"{}\" \
                     dstoff=\"{}\" cnt=\"1\" depid=\"{t}\" deps=\"{d}\" hasdep=\"{}\"{slot}/>\n",
                    w.kind, w.src.0, w.src.1, w.dst.0, w.dst.1, released[k] as u8
                );
                s += 1;
            }
            text += "    </tb>\n";
        }
        text += "  </gpu>\n";
    }
    text += "</algo>\n";
    Ok(text)
}

/// A run laid out in MSCCL's buffers, for the writers of MSCCL-IR and
/// MSCCL++ plans: per GPU its steps in the run's order.
pub(super) struct Laid {
    /// The run's collective, for commcheck's comment or key (a file's
    /// run: the one it stated, if any).
    pub collective: Option<Collective>,
    /// Its name in the format (`custom` where the format has none).
    pub coll: &'static str,
    /// True if written in place.
    pub inplace: bool,
    /// Per GPU, the chunks of its input and output buffers.
    pub sizes: Vec<[u32; 2]>,
    /// Per GPU, its scratch chunks (an alltoall's chunks passing through,
    /// a file's scratch and commcheck's temporaries).
    pub scratch: Vec<u32>,
    /// Per GPU, its steps, sorted by slot (a slot's sends first) and op.
    pub ranks: Vec<Vec<Planned>>,
    /// Each send's receive and each receive's send.
    pub partner: HashMap<OpId, OpId>,
    /// Per GPU, per step, the steps before it by the schedule's own order
    /// (its operations' `after` edges, through those that are no step):
    /// what orders a `wait` before the copy of what the peer put, which
    /// no chunk the two steps touch shows.
    pub order: Vec<Vec<Vec<usize>>>,
}

/// A GPU's steps cut into threadblocks, one per peer in the peers' order.
pub(super) struct Blocks {
    /// Each threadblock's peer (`u32::MAX`: a local copy's of no peer).
    pub peers: Vec<Rank>,
    /// Each threadblock's steps, by their index among the GPU's.
    pub programs: Vec<Vec<usize>>,
    /// Each step's threadblock and place in it.
    pub at: Vec<(u32, u32)>,
    /// Each step's dependencies: per other threadblock, the last step
    /// before it that touched a chunk it touches, one of them writing.
    pub deps: Vec<Vec<usize>>,
}

impl Laid {
    /// `nchunksperloop` as MSCCL's loader checks it: i_chunks times R for
    /// an allgather, o_chunks times R for a reduce-scatter, else either
    /// (1 for gather and scatter, which that loader does not read).
    pub(super) fn per_loop(&self) -> u32 {
        let n = self.sizes.len() as u32;
        let (in_mult, out_mult) = match self.coll {
            "allgather" => (n, 1),
            "reducescatter" => (1, n),
            "gather" | "scatter" => return 1,
            _ => (1, 1),
        };
        self.sizes
            .iter()
            .map(|&[i, o]| (i * in_mult).max(o * out_mult))
            .max()
            .unwrap_or(0)
    }

    /// A GPU's `steps` as threadblocks and their dependencies: on the
    /// steps that touched a chunk before, and on those `order` (per step,
    /// earlier steps; empty for none) puts first.
    pub(super) fn blocks(steps: &[Planned], order: &[Vec<usize>]) -> Blocks {
        let mut peers: Vec<Rank> = steps.iter().map(|s| s.0).collect();
        peers.sort_unstable();
        peers.dedup();
        let tb_of = |peer: Rank| peers.binary_search(&peer).expect("a peer's") as u32;
        let mut programs: Vec<Vec<usize>> = vec![Vec::new(); peers.len()];
        let mut at: Vec<(u32, u32)> = Vec::with_capacity(steps.len());
        let mut deps: Vec<Vec<usize>> = Vec::with_capacity(steps.len());
        let mut last_write: HashMap<Place, usize> = HashMap::new();
        let mut reads: HashMap<Place, Vec<usize>> = HashMap::new();
        for (k, (peer, _, _, _, w)) in steps.iter().enumerate() {
            let tb = tb_of(*peer);
            at.push((tb, programs[tb as usize].len() as u32));
            programs[tb as usize].push(k);
            let (read, written) = w.touches();
            let mut after: Vec<usize> = Vec::new();
            for loc in read.iter().chain(&written) {
                after.extend(last_write.get(loc));
            }
            if let Some(loc) = &written {
                after.extend(reads.get(loc).into_iter().flatten());
            }
            after.extend(order.get(k).into_iter().flatten().filter(|&&d| d < k));
            // Within a threadblock its order suffices; of another, its
            // latest step.
            after.retain(|&d| at[d].0 != tb);
            after.sort_unstable_by_key(|&d| std::cmp::Reverse(at[d]));
            after.dedup_by_key(|d| at[*d].0);
            if let Some(loc) = read {
                reads.entry(loc).or_default().push(k);
            }
            if let Some(loc) = written {
                last_write.insert(loc, k);
                reads.remove(&loc);
            }
            deps.push(after);
        }
        // Left out: a dependency that the thread block's order and the
        // others already imply (the export, written again, keeps the same
        // dependencies, and no semaphore or `nop` more than needed).
        let words = steps.len().div_ceil(64);
        let mut before: Vec<Vec<u64>> = Vec::with_capacity(steps.len());
        for k in 0..steps.len() {
            let (tb, i) = at[k];
            let mut mine = vec![0u64; words];
            let mut add = |d: usize, before: &[Vec<u64>]| {
                for (m, b) in mine.iter_mut().zip(&before[d]) {
                    *m |= b;
                }
                mine[d / 64] |= 1 << (d % 64);
            };
            if i > 0 {
                add(programs[tb as usize][i as usize - 1], &before);
            }
            let mut kept: Vec<usize> = Vec::new();
            for &d in &deps[k] {
                add(d, &before);
            }
            for &d in &deps[k] {
                let after = |e: usize| before[e][d / 64] >> (d % 64) & 1 == 1;
                let through_other = deps[k].iter().any(|&e| e != d && after(e));
                let through_block = i > 0 && after(programs[tb as usize][i as usize - 1]);
                if !through_other && !through_block {
                    kept.push(d);
                }
            }
            deps[k] = kept;
            before.push(mine);
        }
        Blocks {
            peers,
            programs,
            at,
            deps,
        }
    }
}

/// `schedule`, a run whose sends are fixed to slots, laid out for
/// `format`, which names the collectives `names`: per GPU its sends,
/// receives, copies and reductions with their peers and slots.
///
/// A schedule read from an MSCCL-IR file keeps the file's buffers
/// ([`models::schedule::FileLayout`]): each position is written at its
/// buffer and offset, commcheck's temporaries (of `rrs` and of `rrc` with
/// distinct buffers) as scratch chunks after the file's, and its
/// collective as the file named it (refused where `format` names no such
/// collective). Another (a catalogue run, commcheck's format, GOAL) has
/// chunk c at position c: a named collective is in MSCCL's layout for it,
/// in place (broadcast, allgather, gather at `o[c]`; reduce, allreduce,
/// scatter, reduce-scatter at `i[c]`), but alltoall, out of place (in
/// place would overwrite input not yet sent): `i[d]` at the source,
/// `o[s]` at the destination, scratch in transit, each GPU's own chunk
/// copied by a step of no peer; another collective is `custom`, chunk c
/// at offset c of `i`. What the formats cannot say is refused by name: a
/// bus write, a worm's own path, a message of no or several chunks, a
/// receive from any rank, a computation that takes time, and, where
/// `one_sided` is false (MSCCL-IR), a one-sided access or a message of
/// no chunk.
///
/// With `one_sided` (MSCCL++), a put, a packet write (a put with a flag)
/// and a get are steps of the peer's threadblock, fixed to the run's slot
/// as sends are; a message of no chunk is a signal there and its receive
/// a wait; a packet read is one step with the copy or sum of its slot
/// that follows it (MSCCL++'s `upkt`, `repkt`), or, where none does, a
/// copy of the slot into itself.
pub(super) fn lay_out(
    schedule: &Schedule,
    format: &'static str,
    names: &[&str],
    one_sided: bool,
) -> Result<Laid, super::WriteError> {
    use super::WriteError;
    let n = schedule.ranks;
    let (positions, chunks) = (schedule.chunks.positions, schedule.chunks.reduced.len());
    let file = schedule.chunks.layout.as_ref();
    let (collective, coll, inplace, sizes) = match file {
        Some(_) if schedule.chunks.pieces > 1 => {
            return Err(WriteError::Pieces {
                pieces: schedule.chunks.pieces,
            })
        }
        Some(f) if f.coll != "custom" && !names.contains(&f.coll) => {
            return Err(WriteError::NoCollective {
                collective: schedule.collective.clone(),
                format,
            })
        }
        Some(f) => (
            f.stated
                .as_deref()
                .and_then(|s| serde_json::from_str(s).ok()),
            f.coll,
            f.inplace,
            f.own.iter().map(|o| [o[0], o[1]]).collect(),
        ),
        None if positions as usize != chunks => {
            return Err(WriteError::OwnBuffers { chunks, positions })
        }
        None => {
            let collective = Collective::of(&schedule.chunks, n)?;
            let (coll, inplace, sizes) = match collective {
                Collective::Broadcast { chunks, .. } => ("broadcast", true, [chunks, chunks]),
                Collective::Reduce { chunks, .. } => ("reduce", true, [chunks, chunks]),
                Collective::Allreduce { chunks } => ("allreduce", true, [chunks, chunks]),
                Collective::Allgather => ("allgather", true, [1, n]),
                Collective::Gather { .. } => ("gather", true, [1, n]),
                Collective::Scatter { .. } => ("scatter", true, [n, 1]),
                Collective::ReduceScatter => ("reducescatter", true, [n, 1]),
                Collective::Alltoall => ("alltoall", false, [n, n]),
                Collective::Explicit { .. } => ("custom", false, [positions, 0]),
                Collective::Barrier => {
                    return Err(WriteError::NoCollective {
                        collective: collective.name(),
                        format,
                    })
                }
            };
            let (coll, inplace, sizes) = match names.contains(&coll) {
                true => (coll, inplace, sizes),
                false => ("custom", false, [positions, 0]),
            };
            (Some(collective), coll, inplace, vec![sizes; n as usize])
        }
    };
    // Where each rank keeps position p: its buffer and offset in the
    // file's layout; in the collective's, the collective's place for
    // chunk p or (an alltoall's chunk passing through) a scratch chunk.
    let mut transit = vec![HashMap::<Pos, u32>::new(); n as usize];
    let mut scratch: Vec<u32> = match file {
        Some(f) => f.own.iter().map(|o| o[2]).collect(),
        None => vec![0; n as usize],
    };
    let file_scratch = file.map_or(0, |f| f.own.iter().map(|o| o[2]).max().unwrap_or(0));
    let buffers = &schedule.chunks.buffers;
    let mut place = |q: Rank, p: Pos| -> Place {
        if file.is_some() {
            let (name, first) = buffers
                .iter()
                .rev()
                .find(|b| b.1 <= p)
                .expect("a file's positions are in its buffers");
            let at = match name.as_str() {
                "i" => ('i', p - first),
                "o" => ('o', p - first),
                "s" => ('s', p - first),
                _ => ('s', file_scratch + p - first),
            };
            if at.0 == 's' {
                scratch[q as usize] = scratch[q as usize].max(at.1 + 1);
            }
            return at;
        }
        match coll {
            "alltoall" if p / n == q => ('i', p % n),
            "alltoall" if p % n == q => ('o', p / n),
            "alltoall" => {
                let s = &mut transit[q as usize];
                let next = s.len() as u32;
                let at = *s.entry(p).or_insert(next);
                scratch[q as usize] = scratch[q as usize].max(at + 1);
                ('s', at)
            }
            "broadcast" | "allgather" | "gather" => ('o', p),
            _ => ('i', p),
        }
    };

    // What no step written here says: one-sided accesses, and messages
    // of no data (signals, control messages, packet reads).
    for (id, op) in schedule.ops.iter().enumerate() {
        let why = match &op.kind {
            Kind::Move { from, to, .. } if from.0 != op.rank && to.0 != op.rank => {
                "an access that reads one peer and writes another, which no format writes"
            }
            Kind::Move { from, to, .. } if !one_sided && (from.0 != op.rank || to.0 != op.rank) => {
                "a one-sided access (a put, a get, a packet write): MSCCL-IR has sends, \
                 receives, copies and reductions (--write-mscclpp writes it)"
            }
            Kind::Send { data, .. } | Kind::Recv { data, .. }
                if !one_sided && !matches!(data, Data::At(_)) =>
            {
                "a message of no chunk (a signal): MSCCL-IR has sends, receives, copies and \
                 reductions of chunks (--write-mscclpp writes it)"
            }
            _ => continue,
        };
        return Err(WriteError::NoForm {
            op: schedule.where_is(id as OpId),
            why,
        });
    }
    // Each receive's send (or packet write), by sender, receiver and tag
    // in order.
    let mut sends: HashMap<(Rank, Rank, u32), std::collections::VecDeque<OpId>> = HashMap::new();
    for (id, op) in schedule.ops.iter().enumerate() {
        let to: Vec<(Rank, u32)> = match op.kind {
            Kind::Send {
                to, ref also, tag, ..
            } => std::iter::once(&to)
                .chain(also)
                .map(|&v| (v, tag))
                .collect(),
            Kind::Move {
                to, flag: Some(t), ..
            } if to.0 != op.rank => vec![(to.0, t)],
            _ => continue,
        };
        for (v, tag) in to {
            sends
                .entry((op.rank, v, tag))
                .or_default()
                .push_back(id as OpId);
        }
    }
    let mut matched: HashMap<OpId, OpId> = HashMap::new();
    for (id, op) in schedule.ops.iter().enumerate() {
        if let Kind::Recv {
            from: Some(from),
            tag: Some(tag),
            ..
        } = op.kind
        {
            let send = sends
                .get_mut(&(from, op.rank, tag))
                .and_then(|q| q.pop_front())
                .ok_or_else(|| WriteError::NoForm {
                    op: schedule.where_is(id as OpId),
                    why: "no send matches this receive",
                })?;
            matched.insert(send, id as OpId);
            matched.insert(id as OpId, send);
        }
    }

    // Per rank, its steps; a copy of its own alltoall chunk runs in a
    // threadblock of no peer (u32::MAX), first.
    let mut ranks: Vec<Vec<Planned>> = Vec::new();
    let mut order = Vec::new();
    for q in 0..n {
        let mut steps: Vec<Planned> = Vec::new();
        // A packet read's copy or sum, to the read.
        let mut fused: HashMap<OpId, OpId> = HashMap::new();
        if coll == "alltoall" && file.is_none() {
            let (src, dst) = (('i', q), ('o', q));
            steps.push((u32::MAX, 0, 0, 0, Written::local("cpy", src, dst)));
        }
        // Each operation's step, if it is one (a computation of no time,
        // an MSCCL-IR `nop`, only orders, as its dependencies do).
        let mut planned: Vec<Option<Planned>> = Vec::new();
        for id in schedule.rank_ops(q) {
            let op = &schedule.ops[id as usize];
            if fused.contains_key(&id) {
                // A packet read's copy or sum: in the read's step.
                planned.push(None);
                continue;
            }
            let no_form = |why| WriteError::NoForm {
                op: schedule.where_is(id),
                why,
            };
            let one = |data: &Data| match data {
                Data::At(at) if at.len() == 1 => Ok(at[0]),
                Data::At(at) if at.len() > 1 => Err(no_form(
                    "a message of several chunks (an MSCCL-IR step or an MSCCL++ op of cnt \
                     chunks is cnt messages as commcheck reads it)",
                )),
                _ => Err(no_form("a message of no chunk")),
            };
            let fixed = || {
                op.slot.ok_or_else(|| {
                    no_form(
                        "a send fixed to no slot: commcheck writes MSCCL-IR and MSCCL++ of runs",
                    )
                })
            };
            let step = match &op.kind {
                Kind::Send {
                    to,
                    also,
                    data,
                    path,
                    tag,
                } => {
                    if !also.is_empty() {
                        return Err(no_form("a bus write read by several ranks"));
                    }
                    if path.is_some() {
                        return Err(no_form("a worm with a path of its own"));
                    }
                    let slot = fixed()?;
                    if *data == Data::Nothing {
                        planned.push(Some((*to, slot, 0, id, Written::sync("signal", *tag))));
                        continue;
                    }
                    let p = one(data)?;
                    let there = match matched.get(&id).map(|&v| &schedule.ops[v as usize].kind) {
                        Some(Kind::Recv { data, .. }) => place(*to, one(data)?),
                        _ => return Err(no_form("no receive matches this send")),
                    };
                    Some((*to, slot, 0, id, Written::send(place(q, p), there)))
                }
                Kind::Recv {
                    from: Some(from),
                    data,
                    reduce,
                    ..
                } => {
                    let send = matched[&id];
                    let sent = &schedule.ops[send as usize];
                    let Some(slot) = sent.slot else {
                        return Err(no_form("a receive of a send fixed to no slot"));
                    };
                    let w = match (&sent.kind, data) {
                        (Kind::Send { tag, .. }, Data::Nothing) => Written::sync("wait", *tag),
                        (Kind::Send { data: d, .. }, _) => {
                            let here = place(q, one(data)?);
                            Written::receive(place(*from, one(d)?), here, *reduce)
                        }
                        (Kind::Move { to, .. }, Data::Nothing) => {
                            // A packet read, and the copy or sum of its
                            // slot that the same op makes after it.
                            let at = place(q, to.1);
                            let next = id + 1;
                            let then = schedule
                                .rank_ops(q)
                                .contains(&next)
                                .then(|| &schedule.ops[next as usize]);
                            let within = |of: &[OpId], also: &[OpId]| {
                                of.iter().all(|a| *a == id || also.contains(a))
                            };
                            match then {
                                Some(
                                    m @ Op {
                                        kind:
                                            Kind::Move {
                                                from: f,
                                                to: t,
                                                add,
                                                flag: None,
                                            },
                                        ..
                                    },
                                ) if *f == (q, to.1)
                                    && t.0 == q
                                    && m.after.contains(&id)
                                    && within(&m.after, &op.after)
                                    && within(&m.started_after, &op.started_after) =>
                                {
                                    fused.insert(next, id);
                                    let kind = if *add { "repkt" } else { "upkt" };
                                    Written::local(kind, at, place(q, t.1))
                                }
                                _ => Written::local("upkt", at, at),
                            }
                        }
                        _ => return Err(no_form("a receive of a chunk from a message of none")),
                    };
                    Some((*from, slot, 1, id, w))
                }
                Kind::Recv { from: None, .. } => return Err(no_form("a receive from any rank")),
                Kind::Copy { from, to } => {
                    let w = Written::local("cpy", place(q, *from), place(q, *to));
                    Some((u32::MAX, 0, 2, id, w))
                }
                Kind::Reduce { from, to } => {
                    let w = Written::local("re", place(q, *from), place(q, *to));
                    Some((u32::MAX, 0, 2, id, w))
                }
                // A put or a packet write (the peer's threadblock's).
                Kind::Move {
                    from,
                    to,
                    add,
                    flag,
                } if to.0 != q => {
                    if *add {
                        return Err(no_form(
                            "a put that adds: MSCCL++ sums into its own GPU's buffers",
                        ));
                    }
                    let there = place(to.0, to.1);
                    let kind = match flag {
                        Some(_) if there.0 != 's' => {
                            return Err(no_form(
                                "a packet write outside the peer's scratch, which holds \
                                 MSCCL++'s packet slots",
                            ))
                        }
                        Some(_) => "ppkt",
                        None => "put",
                    };
                    let w = Written::local(kind, place(q, from.1), there);
                    Some((to.0, fixed()?, 0, id, w))
                }
                // A get (`rre` where it adds).
                Kind::Move {
                    from,
                    to,
                    add,
                    flag,
                } if from.0 != q => {
                    if flag.is_some() {
                        return Err(no_form("a get with a packet's flag"));
                    }
                    let kind = if *add { "rre" } else { "get" };
                    let w = Written::local(kind, place(from.0, from.1), place(q, to.1));
                    Some((from.0, fixed()?, 0, id, w))
                }
                // Local: the others were refused above.
                Kind::Move { from, to, add, .. } => {
                    let kind = if *add { "re" } else { "cpy" };
                    let w = Written::local(kind, place(q, from.1), place(q, to.1));
                    Some((u32::MAX, 0, 2, id, w))
                }
                Kind::Calc if op.bytes == 0 => None,
                Kind::Calc => {
                    return Err(no_form(
                        "a computation that takes time: MSCCL-IR and MSCCL++ have no such step",
                    ))
                }
            };
            planned.push(step);
        }
        let (ordered, ops_order) = run_order(schedule, q, planned);
        order.push(step_order(
            schedule,
            q,
            &ordered,
            &ops_order,
            &fused,
            steps.len(),
        ));
        steps.extend(ordered);
        ranks.push(steps);
    }
    Ok(Laid {
        collective,
        coll,
        inplace,
        sizes,
        scratch,
        ranks,
        partner: matched,
        order,
    })
}

/// Per step of `steps` (rank `q`'s, in run order, after `offset` steps of
/// no operation), the steps before it by the schedule's own order: its
/// operation's `after` and `started_after`, through the operations that
/// are no step (a `nop`, a semaphore); a packet read's copy (`fused`: the
/// copy's operation to the read's) is its read's step. `ops_order`: the
/// rank's operations (by index in the rank) in [`run_order`]'s order,
/// each after those it waits for.
fn step_order(
    schedule: &Schedule,
    q: Rank,
    steps: &[Planned],
    ops_order: &[usize],
    fused: &HashMap<OpId, OpId>,
    offset: usize,
) -> Vec<Vec<usize>> {
    let ops = schedule.rank_ops(q);
    let base = ops.start;
    let mut step_of: HashMap<OpId, usize> = steps
        .iter()
        .enumerate()
        .map(|(k, s)| (s.3, offset + k))
        .collect();
    for (&copy, read) in fused {
        if let Some(&k) = step_of.get(read) {
            step_of.insert(copy, k);
        }
    }
    let before = |id: OpId| {
        let op = &schedule.ops[id as usize];
        op.after
            .iter()
            .chain(&op.started_after)
            .copied()
            .filter(|a| ops.contains(a))
    };
    // The nearest steps before each operation.
    let mut nearest: Vec<Vec<usize>> = vec![Vec::new(); ops.len()];
    for &k in ops_order {
        let id = base + k as OpId;
        let mut near: Vec<usize> = Vec::new();
        for a in before(id) {
            match step_of.get(&a) {
                Some(&k) => near.push(k),
                None => near.extend(&nearest[(a - base) as usize]),
            }
        }
        near.sort_unstable();
        near.dedup();
        nearest[k] = near;
    }
    steps
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let mut near = nearest[(s.3 - base) as usize].clone();
            if let Some((&copy, _)) = fused.iter().find(|(_, &read)| read == s.3) {
                near.extend(&nearest[(copy - base) as usize]);
            }
            near.retain(|&d| d != offset + k);
            near.sort_unstable();
            near.dedup();
            near
        })
        .collect()
}

/// Rank `q`'s steps `planned` (one per operation, None where it is none)
/// in an order its run allows, with local work's slot: each operation
/// after those it waits for; a send at its slot, a receive at its send's
/// (after the slot's sends), local work as soon as what it waits for is
/// done (after that slot's receives), as lock step runs it; and every
/// operation's index in the rank in that order.
fn run_order(
    schedule: &Schedule,
    q: Rank,
    mut planned: Vec<Option<Planned>>,
) -> (Vec<Planned>, Vec<usize>) {
    use std::cmp::Reverse;
    let ops = schedule.rank_ops(q);
    let base = ops.start;
    let mut waits = vec![0u32; planned.len()];
    let mut next: Vec<Vec<OpId>> = vec![Vec::new(); planned.len()];
    for id in ops.clone() {
        let op = &schedule.ops[id as usize];
        for &a in op.after.iter().chain(&op.started_after) {
            if ops.contains(&a) {
                waits[(id - base) as usize] += 1;
                next[(a - base) as usize].push(id);
            }
        }
    }
    // The slot after which each operation may run.
    let mut earliest = vec![0u32; planned.len()];
    let key = |planned: &[Option<Planned>], earliest: &[u32], id: OpId| {
        let k = (id - base) as usize;
        match &planned[k] {
            Some((_, slot, class @ (0 | 1), ..)) => (*slot, *class, id),
            _ => (earliest[k], 2, id),
        }
    };
    let mut ready: std::collections::BinaryHeap<Reverse<(u32, u8, OpId)>> = ops
        .clone()
        .filter(|&id| waits[(id - base) as usize] == 0)
        .map(|id| Reverse(key(&planned, &earliest, id)))
        .collect();
    let mut order = Vec::with_capacity(planned.len());
    while let Some(Reverse((slot, _, id))) = ready.pop() {
        let k = (id - base) as usize;
        if let Some(step) = &mut planned[k] {
            step.1 = slot;
        }
        order.push(k);
        for &d in &next[k] {
            let j = (d - base) as usize;
            earliest[j] = earliest[j].max(slot);
            waits[j] -= 1;
            if waits[j] == 0 {
                ready.push(Reverse(key(&planned, &earliest, d)));
            }
        }
    }
    let steps = order.iter().filter_map(|&k| planned[k].take()).collect();
    (steps, order)
}

/// A step to write: its threadblock's peer, its slot, 0 for a send and
/// 1 for a receive (a slot's sends go first), the operation, the step.
pub(super) type Planned = (Rank, u32, u8, OpId, Written);

/// A chunk of a GPU's buffer `i`, `o` or `s`, by offset.
pub(super) type Place = (char, u32);

/// One step as written: its type and its operands (a send's destination
/// and a receive's source are the peer's, as msccl-tools writes them).
pub(super) struct Written {
    pub kind: &'static str,
    pub src: Place,
    pub dst: Place,
    /// A signal's or wait's tag (the schedule's; 0 for the rest).
    pub tag: u32,
}

impl Written {
    fn send(src: (char, u32), dst: (char, u32)) -> Written {
        Written {
            kind: "s",
            src,
            dst,
            tag: 0,
        }
    }

    fn receive(src: (char, u32), dst: (char, u32), reduce: bool) -> Written {
        match reduce {
            // rrc: dst := received + src, src being dst.
            true => Written {
                kind: "rrc",
                src: dst,
                dst,
                tag: 0,
            },
            false => Written {
                kind: "r",
                src,
                dst,
                tag: 0,
            },
        }
    }

    /// A local step: `cpy` (dst := src) or `re` (dst := dst + src).
    fn local(kind: &'static str, src: (char, u32), dst: (char, u32)) -> Written {
        Written {
            kind,
            src,
            dst,
            tag: 0,
        }
    }

    /// A `signal` or `wait` of tag `tag`, which touches no chunk.
    fn sync(kind: &'static str, tag: u32) -> Written {
        Written {
            kind,
            src: ('i', 0),
            dst: ('i', 0),
            tag,
        }
    }

    /// The chunks of its own GPU it reads and writes, as [`STEPS`] says
    /// its type does.
    pub(super) fn touches(&self) -> (Option<Place>, Option<Place>) {
        // MSCCL++'s one-sided steps: of a put its source, of a get its
        // destination is the GPU's own (the other end is the peer's).
        match self.kind {
            "put" | "ppkt" => return (Some(self.src), None),
            "get" | "rre" => return (None, Some(self.dst)),
            "signal" | "wait" => return (None, None),
            "upkt" | "repkt" => return (Some(self.src), Some(self.dst)),
            _ => {}
        }
        let [_, _, src, dst] = STEPS
            .iter()
            .find(|s| s.0 == self.kind)
            .expect("a step type of the table")
            .1;
        (src.then_some(self.src), dst.then_some(self.dst))
    }
}

/// `text` with XML's special characters escaped, for an attribute.
fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
