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

use super::{line_column, ImportError};
use models::schedule::{
    Chunks, Data, IdSet, Kind, Op, OpId, Pos, Rank, Schedule, Value, MAX_REDUCED_RANKS,
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
        line: e.pos().row,
        column: e.pos().col,
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
    let coll = Coll::parse(&r, algo)?;
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
    let mut chunks = layout.chunks();
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
        collective: layout.coll.name(inplace),
        parallel_ranks: true,
    };
    schedule.validated().map_err(|why| ImportError::File {
        file: file.to_string(),
        line: 0,
        column: 0,
        why: why.to_string(),
    })
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Coll {
    Allgather,
    Allreduce,
    ReduceScatter,
    Alltoall,
    Custom,
}

impl Coll {
    fn parse(r: &Reader, algo: Node) -> Result<Coll, ImportError> {
        Ok(match r.attr(algo, "coll")? {
            "allgather" => Coll::Allgather,
            "allreduce" => Coll::Allreduce,
            "reduce_scatter" | "reducescatter" => Coll::ReduceScatter,
            "alltoall" => Coll::Alltoall,
            "custom" => Coll::Custom,
            other => {
                return Err(r.at(
                    algo,
                    format!(
                        "coll \"{other}\": commcheck reads allgather, allreduce, alltoall, \
                         reduce_scatter and custom (msccl-tools' collectives)"
                    ),
                ))
            }
        })
    }

    pub(super) fn name(self, inplace: bool) -> String {
        let name = match self {
            Coll::Allgather => "allgather",
            Coll::Allreduce => "allreduce",
            Coll::ReduceScatter => "reduce-scatter",
            Coll::Alltoall => "alltoall",
            Coll::Custom => "custom (no postcondition)",
        };
        match inplace {
            true => format!("{name}, in place"),
            false => name.to_string(),
        }
    }

    fn reduced(self) -> bool {
        matches!(self, Coll::Allreduce | Coll::ReduceScatter)
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
        for g in gpus {
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
            (Coll::Custom, _) => Some(i),
        }
        .filter(|&c| c > 0 || coll == Coll::Custom)
        .ok_or_else(|| {
            format!(
                "i_chunks {i} and o_chunks {o} on {ranks} GPUs are not the buffers of {}",
                coll.name(inplace)
            )
        })?;
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
            (true, Coll::Allgather, 0) => (1, rank * c + off),
            (true, Coll::Allreduce | Coll::Alltoall, 1) => (0, off),
            (true, Coll::ReduceScatter, 1) => (0, rank * c + off),
            _ => (b, off),
        };
        self.sizes[..b].iter().sum::<u32>() + off
    }

    /// How many chunks the collective has (before anything of that size
    /// is made: an alltoall's grows with the square of the GPUs).
    pub(super) fn count(&self) -> u64 {
        let (n, c) = (self.ranks as u64, self.factor as u64);
        match self.coll {
            Coll::Allgather | Coll::ReduceScatter => n * c,
            Coll::Allreduce => c,
            Coll::Alltoall => n * n * c,
            Coll::Custom => n * self.sizes[0] as u64,
        }
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
                Coll::Allgather => {
                    for ch in 0..c {
                        init.push((self.position(q, 0, ch), Value::Chunk(q * c + ch)));
                        origin.push(q);
                    }
                }
                Coll::Allreduce | Coll::ReduceScatter => {
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
                Coll::Allgather => {
                    for k in 0..n * c {
                        want.push((self.position(q, 1, k), Value::Chunk(k)));
                    }
                }
                Coll::Allreduce => {
                    for k in 0..c {
                        want.push((self.position(q, 1, k), sum(k)));
                    }
                }
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
        }
    }
}

/// The steps' types.
const STEPS: [&str; 9] = ["s", "r", "rcs", "rrs", "rrc", "rrcs", "cpy", "re", "nop"];

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
        let (sends, receives, src, dst) = match kind {
            "s" => (true, false, true, false),
            "r" => (false, true, false, true),
            "rcs" => (true, true, false, true),
            "rrs" => (true, true, true, false),
            "rrc" => (false, true, true, true),
            "rrcs" => (true, true, true, true),
            "cpy" | "re" => (false, false, true, true),
            "nop" => (false, false, false, false),
            other => {
                return Err(r.at(
                    step,
                    format!(
                        "type=\"{other}\": s, r, rcs, rrs, rrc, rrcs, cpy, re or nop \
                         (the steps MSCCL's interpreters run)"
                    ),
                ))
            }
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
            kind: STEPS.into_iter().find(|&k| k == kind).unwrap_or("?"),
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
                slot: None,
                label: label.clone(),
                line,
            });
        }
        Ok(used)
    }
}
