//! A schedule a user brings (docs/schedules.md): ranks placed on the nodes
//! of a network, each rank's operations (send, receive, copy, reduce,
//! compute) and a partial order on them, and the collective's
//! postcondition. The readers in the front half (commcheck's own format,
//! GOAL, MSCCL-IR) build a [`Schedule`]; [`scheduled::Scheduled`] runs it as a
//! protocol, so every engine drives it and the one `Record` judges it.
//!
//! **Data.** Each rank has *positions* (a chunk's place: commcheck's
//! format has one per chunk, MSCCL-IR one per buffer and offset), each
//! holding a [`Value`]: nothing, a chunk that is not reduced, or a partial
//! sum of a reduced chunk (the ranks whose contributions it combines). The
//! run's packets are the contributions: a plain chunk is one packet, a
//! reduced chunk one packet per rank ([`Schedule::packet`]).

pub mod causal;
pub mod id_set;
pub mod lower_bounds;
pub mod matchings;
pub mod orders;
pub mod scheduled;
pub mod values;

pub use id_set::IdSet;

use properties::{Need, Needs, NodeId, PacketId, Slot, Task};
use std::ops::Range;
use std::sync::Arc;

/// Why a schedule cannot run, or cannot run where it is placed: one
/// line for the person who wrote it.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScheduleError {
    /// The schedule is not one that can run anywhere
    /// ([`Schedule::invalid`]).
    #[error("{0}")]
    Invalid(String),
    /// The mapping places another number of ranks than the schedule has.
    #[error("the mapping places {placed} ranks; the schedule has {ranks}")]
    Placed {
        /// The ranks placed.
        placed: usize,
        /// The schedule's ranks.
        ranks: u32,
    },
    /// A rank placed on a node the network does not have.
    #[error("rank {rank} is placed on node {node}; the network has {nodes} nodes")]
    OffNetwork {
        /// The rank.
        rank: usize,
        /// The node.
        node: NodeId,
        /// The network's nodes.
        nodes: u32,
    },
    /// Two ranks placed on one node.
    #[error("ranks {first} and {second} are placed on one node, {node}")]
    SharedNode {
        /// The rank placed there first.
        first: Rank,
        /// The other.
        second: usize,
        /// The node, labelled.
        node: String,
    },
    /// A send that is not a route of the network.
    #[error("{op}: {why}{hint}")]
    NotARoute {
        /// The send ([`Schedule::where_is`]).
        op: String,
        /// What the network says of its route.
        why: String,
        /// What would make it one, if anything.
        hint: &'static str,
    },
    /// A send to several ranks that one of them does not read.
    #[error(
        "{op}: rank {rank} does not receive {route} (a send reaches several ranks only as a \
         bus write they all read)"
    )]
    NotRead {
        /// The send ([`Schedule::where_is`]).
        op: String,
        /// The rank that does not read it.
        rank: Rank,
        /// Its route, labelled.
        route: String,
    },
}

/// A rank of the schedule (placed on a node by the mapping).
pub type Rank = u32;

/// An operation, by its index in [`Schedule::ops`].
pub type OpId = u32;

/// A rank's position (a place for one chunk).
pub type Pos = u32;

/// Most ranks a reduced chunk combines: a partial sum is a set of ranks
/// ([`IdSet`]), and a collective of this many ranks and chunks is
/// [`MAX_VALUES`] values.
pub const MAX_REDUCED_RANKS: u32 = 4096;

/// Most chunks one message carries: its chunks are a set ([`IdSet`]),
/// kept once where it reaches past the first 127 (8 KB at most).
pub const MAX_CHUNKS_A_MESSAGE: u32 = 1 << 16;

/// Most positions over all ranks: every rank keeps a value a position,
/// so a collective of R ranks and P positions is R x P values (an
/// allgather of 4096 ranks is 2^24).
pub const MAX_VALUES: u64 = 1 << 24;

/// Why `ranks` ranks of `positions` positions each are too many to keep,
/// if they are; checked before anything of that size is made.
pub fn too_large(ranks: u32, positions: u64) -> Option<String> {
    let values = ranks as u64 * positions;
    (values > MAX_VALUES).then(|| {
        format!(
            "{ranks} ranks of {positions} positions each: commcheck keeps every rank's \
             positions, at most 2^24 values in all"
        )
    })
}

/// What a position holds.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Value {
    /// Nothing yet.
    Empty,
    /// A chunk that is not reduced.
    Chunk(u32),
    /// A partial sum of reduced chunk `chunk`: bit r for rank r's
    /// contribution.
    Sum {
        /// The chunk.
        chunk: u32,
        /// The ranks whose contributions it combines.
        ranks: IdSet,
    },
}

/// What a send carries, or where a receive puts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Data {
    /// These positions (a send: their values; a receive: where the
    /// message's values go, in order).
    At(Vec<Pos>),
    /// Everything the rank holds (a send: GOAL's messages, which name no
    /// data; a receive: every chunk received is kept).
    Everything,
    /// No data: a packet of a message before its last, which delivers
    /// the message's data (GOAL's `--packet-bytes`).
    Nothing,
}

/// One operation of a rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Send `data` to rank `to` (and to `also`: a bus write has several
    /// readers).
    Send {
        /// The receiving rank.
        to: Rank,
        /// Further receiving ranks, each a reader of the same write (only
        /// a bus's writes have several: elsewhere the run refuses them).
        also: Vec<Rank>,
        /// MPI's tag (0 where the format has none).
        tag: u32,
        /// What it sends.
        data: Data,
        /// The nodes its worm crosses, where the schedule gives them.
        path: Option<Vec<NodeId>>,
    },
    /// Receive from rank `from` (None: any rank).
    Recv {
        /// The sending rank, or any.
        from: Option<Rank>,
        /// The tag (None: any).
        tag: Option<u32>,
        /// Where the data goes.
        data: Data,
        /// True: add the incoming partial sums to the positions' own
        /// (each contribution must enter once); false: replace them.
        reduce: bool,
    },
    /// Copy position `from` to `to`.
    Copy {
        /// The source position.
        from: Pos,
        /// The destination.
        to: Pos,
    },
    /// Add position `from`'s partial sum to `to`'s.
    Reduce {
        /// The source position.
        from: Pos,
        /// The destination.
        to: Pos,
    },
    /// A computation: nothing happens to the data.
    Calc,
    /// A one-sided access (MSCCL++'s puts, gets and remote reductions):
    /// the operation reads position `from.1` of rank `from.0` and writes
    /// (or, `add`, adds to) position `to.1` of rank `to.0`, either of them
    /// another rank's, with no receive: in lock step a transmission (a
    /// put's, or a get's request and reply) or local work
    /// ([`scheduled`]), at every relative speed an access during the
    /// operation ([`causal`]).
    Move {
        /// The rank and position read.
        from: (Rank, Pos),
        /// The rank and position written.
        to: (Rank, Pos),
        /// True: add to `to`'s partial sum; false: replace it.
        add: bool,
        /// A packet write's flag (MSCCL++'s LL packets carry one beside
        /// their data): the target's receive from this rank with this
        /// tag takes the write once it has landed, as a packet read
        /// spins on the flag. None: a put no receive waits for.
        flag: Option<u32>,
    },
}

impl Kind {
    /// True if this is a send that rank `r` receives.
    pub fn sends_to(&self, r: Rank) -> bool {
        matches!(self, Kind::Send { to, also, .. } if *to == r || also.contains(&r))
    }

    /// The tag by which a receive of rank `r` takes this operation, if
    /// one can: a send's to `r`, or a packet write's into `r` (its flag).
    pub fn message_to(&self, r: Rank) -> Option<u32> {
        match self {
            Kind::Send { tag, .. } if self.sends_to(r) => Some(*tag),
            Kind::Move {
                to, flag: Some(t), ..
            } if to.0 == r => Some(*t),
            _ => None,
        }
    }

    /// True if this is a receive that takes a message of `sender` with
    /// `tag` (its source and tag each given and equal, or any).
    pub fn admits(&self, sender: Rank, tag: u32) -> bool {
        matches!(self, Kind::Recv { from, tag: t, .. }
            if from.is_none_or(|f| f == sender) && t.is_none_or(|g| g == tag))
    }

    /// True if both are receives from the same sender with the same tag.
    fn same_receive(&self, other: &Kind) -> bool {
        matches!((self, other), (Kind::Recv { from: f1, tag: t1, .. }, Kind::Recv { from: f2, tag: t2, .. })
            if f1 == f2 && t1 == t2)
    }
}

/// One operation with its place in the order and in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op {
    /// Its rank.
    pub rank: Rank,
    /// What it does.
    pub kind: Kind,
    /// Operations of its rank that must complete before it starts.
    pub after: Vec<OpId>,
    /// Operations of its rank that must start before it starts.
    pub started_after: Vec<OpId>,
    /// The slot the schedule fixes for it, if any (a time-triggered send).
    pub slot: Option<Slot>,
    /// Its name in the file's own terms (`l3`, `tb 2 step 5`).
    pub label: String,
    /// Its size as the file gives it, for the cost models: a send's or a
    /// receive's bytes, a computation's length in nanoseconds (GOAL's
    /// `calc N`); 0 where the file gives none.
    pub bytes: u64,
    /// Its line in the file (0: not from a file).
    pub line: u32,
}

/// A collective's data: the chunks, where they start, where they must end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunks {
    /// Per chunk, true if it is reduced (a contribution from every rank).
    pub reduced: Vec<bool>,
    /// Positions each rank has.
    pub positions: u32,
    /// Per rank, the values its positions start with (others empty).
    pub initial: Vec<Vec<(Pos, Value)>>,
    /// Per rank, the values its positions must end with.
    pub expect: Vec<Vec<(Pos, Value)>>,
    /// Per chunk, the rank a plain chunk starts at (reduced: unused).
    pub origin: Vec<Rank>,
    /// The buffers positions fall in, by name and first position, in
    /// order (MSCCL-IR's `i`, `o`, `s`); none where a position is a
    /// chunk's place, named by its number.
    pub buffers: Vec<(String, Pos)>,
    /// Positions (and chunks) per chunk of the file: 1, but where the
    /// file cuts its chunks into pieces (MSCCL++'s thread-block groups),
    /// each piece a position and a chunk of its own.
    pub pieces: u32,
    /// The buffers' sizes and the collective as the file declared them,
    /// where it had buffers: what a run of it is written back in.
    pub layout: Option<FileLayout>,
}

/// How an MSCCL-IR file or MSCCL++ plan laid its chunks out, kept so that
/// a run of it is written in the same buffers (`--write-msccl`,
/// `--write-mscclpp`) and reads back as the same collective.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileLayout {
    /// The collective as MSCCL-IR names it (`allreduce`, `reducescatter`,
    /// `custom`).
    pub coll: &'static str,
    /// True if written in place.
    pub inplace: bool,
    /// Per rank, the chunks of its input, output and scratch buffers.
    pub own: Vec<[u32; 3]>,
    /// The collective commcheck's comment or key stated (its root, or the
    /// postcondition of a custom one), as that JSON, if the file had one.
    pub stated: Option<String>,
}

impl Chunks {
    /// Position `p` in the file's words: `buffer o, offset 3`, or
    /// `position 3`.
    pub fn place_words(&self, p: Pos) -> String {
        match self.place(p) {
            (Some(name), offset) => format!(
                "buffer {name}, offset {offset}{}",
                self.piece_words(p - self.buffer_start(p))
            ),
            (None, _) => format!("position {p}"),
        }
    }

    /// Position `p` as (buffer, offset in chunks) where there are
    /// buffers, else (None, p).
    pub fn place(&self, p: Pos) -> (Option<&str>, u32) {
        match self.buffers.iter().rev().find(|b| b.1 <= p) {
            Some((name, first)) => (Some(name), (p - first) / self.pieces),
            None => (None, p),
        }
    }

    /// The first position of `p`'s buffer (0 where there are none).
    fn buffer_start(&self, p: Pos) -> Pos {
        self.buffers
            .iter()
            .rev()
            .find(|b| b.1 <= p)
            .map_or(0, |b| b.1)
    }

    /// Chunk `c` in the file's words: `chunk 3`, or `chunk 3 (piece 2
    /// of 4)`.
    pub fn chunk_words(&self, c: u32) -> String {
        format!("chunk {}{}", c / self.pieces, self.piece_words(c))
    }

    /// Which piece of its chunk `i` is, where chunks are cut.
    fn piece_words(&self, i: u32) -> String {
        match self.pieces {
            1 => String::new(),
            n => format!(" (piece {} of {n})", i % n + 1),
        }
    }

    /// The same data with each chunk cut into `n` pieces: position p
    /// becomes positions p·n to p·n + n - 1, chunk c chunks c·n to
    /// c·n + n - 1, piece j of a position holding piece j of its chunk.
    pub fn cut(self, n: u32) -> Chunks {
        let cut_values = |list: Vec<Vec<(Pos, Value)>>| -> Vec<Vec<(Pos, Value)>> {
            list.into_iter()
                .map(|vs| {
                    vs.into_iter()
                        .flat_map(|(p, v)| {
                            (0..n).map(move |j| {
                                let v = match v {
                                    Value::Chunk(c) => Value::Chunk(c * n + j),
                                    Value::Sum { chunk, ranks } => Value::Sum {
                                        chunk: chunk * n + j,
                                        ranks,
                                    },
                                    other => other,
                                };
                                (p * n + j, v)
                            })
                        })
                        .collect()
                })
                .collect()
        };
        fn repeat<T: Copy>(v: Vec<T>, n: u32) -> Vec<T> {
            v.into_iter()
                .flat_map(|x| std::iter::repeat_n(x, n as usize))
                .collect()
        }
        Chunks {
            reduced: repeat(self.reduced, n),
            positions: self.positions * n,
            initial: cut_values(self.initial),
            expect: cut_values(self.expect),
            origin: repeat(self.origin, n),
            buffers: self
                .buffers
                .into_iter()
                .map(|(name, first)| (name, first * n))
                .collect(),
            pieces: self.pieces * n,
            layout: self.layout,
        }
    }

    /// What rank `r` must end with at position `p`, if anything.
    pub fn expected(&self, r: Rank, p: Pos) -> Option<Value> {
        self.expect[r as usize]
            .iter()
            .find(|e| e.0 == p)
            .map(|e| e.1)
    }
}

/// A schedule: ranks, operations, order and data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Its name in reports (the file's name).
    pub name: String,
    /// The number of ranks.
    pub ranks: u32,
    /// Every operation, rank by rank.
    pub ops: Vec<Op>,
    /// Rank r's operations are `first[r]..first[r + 1]`.
    pub first: Vec<OpId>,
    /// The collective's data.
    pub chunks: Chunks,
    /// The collective's name (`broadcast from 0`, `allgather`), for reports.
    pub collective: String,
    /// True where a rank's operations run on parallel processors (MSCCL-IR's
    /// threadblocks), so that two unordered additions to one position race;
    /// false where one processor applies a rank's reductions in turn (GOAL,
    /// Chakra, commcheck's format), so that additions commute.
    pub parallel_ranks: bool,
    /// The relaxed signals and waits (MSCCL++'s `rlxsignal`, `rlxwait` on
    /// memory channels), sorted: such a wait ends after its signal, but
    /// with no release or acquire between them nothing either side did
    /// before is made visible to the other, so their edge orders
    /// execution, not memory, and race-freedom does not count it.
    pub relaxed: Vec<OpId>,
}

impl Schedule {
    /// Rank `r`'s operations.
    pub fn rank_ops(&self, r: Rank) -> std::ops::Range<OpId> {
        self.first[r as usize]..self.first[r as usize + 1]
    }

    /// The packet of chunk `chunk`'s contribution from rank `rank` (a
    /// plain chunk has one packet, whoever holds it).
    pub fn packet(&self, chunk: u32, rank: Rank) -> PacketId {
        let base = self.bases()[chunk as usize];
        match self.chunks.reduced[chunk as usize] {
            true => base + rank,
            false => base,
        }
    }

    /// Packet `p` in the file's words: `chunk 5`, or `rank 2's term of
    /// chunk 5` where the chunk is reduced.
    pub fn packet_words(&self, p: PacketId) -> String {
        match self.packet_chunk(p) {
            (chunk, None) => self.chunks.chunk_words(chunk),
            (chunk, Some(rank)) => {
                format!("rank {rank}'s term of {}", self.chunks.chunk_words(chunk))
            }
        }
    }

    /// The chunk packet `p` is of, and the rank whose term it is where
    /// the chunk is reduced (the inverse of [`Schedule::packet`]).
    pub fn packet_chunk(&self, p: PacketId) -> (u32, Option<Rank>) {
        let plain = self.plain_chunks();
        let nth = |reduced: bool, k: u32| {
            let mut of_kind = (0..self.chunks.reduced.len() as u32)
                .filter(|&c| self.chunks.reduced[c as usize] == reduced);
            of_kind.nth(k as usize).unwrap_or(k)
        };
        match p < plain {
            true => (nth(false, p), None),
            false => {
                let (k, rank) = ((p - plain) / self.ranks, (p - plain) % self.ranks);
                (nth(true, k), Some(rank))
            }
        }
    }

    /// How many chunks are not reduced.
    fn plain_chunks(&self) -> u32 {
        self.chunks.reduced.iter().filter(|&&r| !r).count() as u32
    }

    /// The number of packets.
    pub fn packets(&self) -> u32 {
        let plain = self.plain_chunks();
        plain + (self.chunks.reduced.len() as u32 - plain) * self.ranks
    }

    /// Per chunk, its first packet: plain chunks first, then reduced ones a
    /// packet per rank (the common case, no reductions, is the identity).
    /// [`Schedule::packet`] is the first plus the rank for a reduced chunk.
    pub fn bases(&self) -> Vec<PacketId> {
        let plain = self.plain_chunks();
        let (mut plain_before, mut reduced_before) = (0, 0);
        let mut bases = Vec::with_capacity(self.chunks.reduced.len());
        for &reduced in &self.chunks.reduced {
            match reduced {
                false => {
                    bases.push(plain_before);
                    plain_before += 1;
                }
                true => {
                    bases.push(plain + reduced_before * self.ranks);
                    reduced_before += 1;
                }
            }
        }
        bases
    }

    /// The packets a value carries, given the chunks' [`Schedule::bases`].
    pub fn value_packets(bases: &[PacketId], value: Value, mut f: impl FnMut(PacketId)) {
        Schedule::value_runs(bases, value, |run| run.for_each(&mut f));
    }

    /// [`Schedule::value_packets`] in runs of consecutive packets: a sum's
    /// terms are its chunk's first packet plus its ranks.
    #[inline]
    pub fn value_runs(bases: &[PacketId], value: Value, mut f: impl FnMut(Range<PacketId>)) {
        match value {
            Value::Empty => {}
            Value::Chunk(c) => f(bases[c as usize]..bases[c as usize] + 1),
            Value::Sum { chunk, ranks } => {
                let base = bases[chunk as usize];
                ranks.each_run(|r, n| f(base + r..base + r + n));
            }
        }
    }

    /// The task a run must achieve on `nodes` nodes, rank r on node
    /// `place[r]`: each packet needed where an expected value contains it.
    pub fn task(&self, nodes: u32, place: &[NodeId]) -> Task {
        let packets = self.packets() as usize;
        let mut origin = vec![0; packets];
        let bases = self.bases();
        for (c, &reduced) in self.chunks.reduced.iter().enumerate() {
            let base = bases[c] as usize;
            match reduced {
                false => origin[base] = place[self.chunks.origin[c] as usize],
                true => {
                    let ranks = self.ranks as usize;
                    origin[base..base + ranks].copy_from_slice(&place[..ranks]);
                }
            }
        }
        // Per chunk, who expects which value of it.
        let mut expected: Vec<Vec<(NodeId, Value)>> = vec![Vec::new(); self.chunks.reduced.len()];
        for (r, expect) in self.chunks.expect.iter().enumerate() {
            for &(_, value) in expect {
                if let Value::Chunk(c) | Value::Sum { chunk: c, .. } = value {
                    expected[c as usize].push((place[r], value));
                }
            }
        }
        // Packets that need the same nodes share one list: a chunk's
        // packets where every holder expects the same sum (an allreduce's
        // R^2 packets are R lists, not R^3 entries).
        let mut need = vec![Need::Nodes(Arc::from([])); packets];
        let mut last: Option<Arc<[NodeId]>> = None;
        let mut share = |mut nodes_of: Vec<NodeId>| {
            nodes_of.sort_unstable();
            nodes_of.dedup();
            match nodes_of.len() as u32 == nodes {
                true => Need::Everyone,
                false => match &last {
                    Some(list) if **list == *nodes_of => Need::Nodes(list.clone()),
                    _ => {
                        let list: Arc<[NodeId]> = nodes_of.into();
                        last = Some(list.clone());
                        Need::Nodes(list)
                    }
                },
            }
        };
        for holders in expected {
            let Some(&(_, first)) = holders.first() else {
                continue;
            };
            match holders.iter().all(|&(_, v)| v == first) {
                true => {
                    let list = share(holders.iter().map(|&(v, _)| v).collect());
                    Schedule::value_packets(&bases, first, |p| need[p as usize] = list.clone());
                }
                false => {
                    let mut by_packet: std::collections::BTreeMap<PacketId, Vec<NodeId>> =
                        Default::default();
                    for (v, value) in holders {
                        Schedule::value_packets(&bases, value, |p| {
                            by_packet.entry(p).or_default().push(v)
                        });
                    }
                    for (p, nodes_of) in by_packet {
                        need[p as usize] = share(nodes_of);
                    }
                }
            }
        }
        // With one position a message carries one value at most.
        let combining = self.chunks.reduced.iter().any(|&r| r)
            || (self.chunks.positions > 1
                && self.ops.iter().any(|op| match &op.kind {
                    Kind::Send { data, .. } => match data {
                        Data::At(at) => at.len() > 1,
                        Data::Everything => true,
                        Data::Nothing => false,
                    },
                    _ => false,
                }));
        Task::Schedule(Arc::new(Needs {
            nodes,
            origin,
            need,
            combining,
        }))
    }

    /// The schedule, if it is one that can run ([`Schedule::invalid`]).
    pub fn validated(self) -> Result<Schedule, ScheduleError> {
        match self.invalid() {
            Some(why) => Err(ScheduleError::Invalid(why)),
            None => Ok(self),
        }
    }

    /// Why the schedule is not one that can run, if it is not: an order
    /// that names another rank's operation or an operation out of range,
    /// a peer out of range, a position out of range, a reduced chunk over
    /// more than [`MAX_REDUCED_RANKS`] ranks. (Cycles are found by the
    /// run: a deadlock.)
    pub fn invalid(&self) -> Option<String> {
        if self.first.len() != self.ranks as usize + 1 {
            return Some("the operations are not grouped by rank".into());
        }
        let ops = self.ops.len();
        if self.relaxed.windows(2).any(|w| w[0] >= w[1])
            || self.relaxed.last().is_some_and(|&o| o as usize >= ops)
        {
            return Some("the relaxed operations are not listed in order, in range".into());
        }
        let reduced = self.chunks.reduced.iter().any(|&r| r);
        if reduced && self.ranks > MAX_REDUCED_RANKS {
            return Some(format!(
                "reduced chunks over {} ranks: commcheck combines at most {MAX_REDUCED_RANKS}",
                self.ranks
            ));
        }
        let positions = self.chunks.positions;
        for (i, op) in self.ops.iter().enumerate() {
            let at = |what: String| Some(format!("{}: {what}", self.where_is(i as OpId)));
            let own = self.rank_ops(op.rank);
            for &d in op.after.iter().chain(&op.started_after) {
                if !own.contains(&d) {
                    return at("it is ordered after an operation of another rank".into());
                }
                if d == i as OpId {
                    return at("it is ordered after itself".into());
                }
            }
            let peers: Vec<Rank> = match &op.kind {
                Kind::Send { to, also, .. } => std::iter::once(*to).chain(also.clone()).collect(),
                Kind::Recv { from, .. } => from.iter().copied().collect(),
                _ => Vec::new(),
            };
            if let Some(p) = peers.iter().find(|&&p| p >= self.ranks || p == op.rank) {
                return at(format!(
                    "peer rank {p}: ranks are 0 to {}, another rank",
                    self.ranks - 1
                ));
            }
            if let Some(p) = peers
                .iter()
                .enumerate()
                .find_map(|(i, p)| peers[..i].contains(p).then_some(p))
            {
                return at(format!("rank {p} is named twice as a receiver"));
            }
            let mut used: Vec<Pos> = Vec::new();
            match &op.kind {
                Kind::Send {
                    data: Data::Everything,
                    ..
                } => {
                    // A message that carries all its sender holds is one
                    // packet of at most MAX_CHUNKS_A_MESSAGE chunks and no
                    // partial sums.
                    if reduced {
                        return at("a message that names no data cannot carry partial sums: \
                                   reduced chunks need their positions named"
                            .into());
                    }
                    if positions > MAX_CHUNKS_A_MESSAGE {
                        return at(format!(
                            "a message that names no data carries all {positions} chunks \
                             its sender may hold: at most {MAX_CHUNKS_A_MESSAGE}"
                        ));
                    }
                }
                Kind::Send { data, .. } | Kind::Recv { data, .. } => {
                    if let Data::At(at_pos) = data {
                        if at_pos.is_empty() {
                            return at("it names no data".into());
                        }
                        if reduced && at_pos.len() > 1 {
                            return at(format!(
                                "{} positions in one message of a reduction: a message \
                                 carries one partial sum",
                                at_pos.len()
                            ));
                        }
                        if at_pos.len() as u32 > MAX_CHUNKS_A_MESSAGE {
                            return at(format!(
                                "{} chunks in one message: at most {MAX_CHUNKS_A_MESSAGE}",
                                at_pos.len()
                            ));
                        }
                        used.extend(at_pos);
                    }
                }
                Kind::Copy { from, to } | Kind::Reduce { from, to } => used.extend([*from, *to]),
                Kind::Move { from, to, flag, .. } => {
                    if let Some(r) = [from.0, to.0].into_iter().find(|&r| r >= self.ranks) {
                        return at(format!("rank {r} of {}", self.ranks));
                    }
                    if flag.is_some() && (from.0 != op.rank || to.0 == op.rank) {
                        return at("a packet write (a write with a flag) reads its own rank \
                                   and writes another's"
                            .into());
                    }
                    used.extend([from.1, to.1]);
                }
                Kind::Calc => {}
            }
            if let Some(p) = used.iter().find(|&&p| p >= positions) {
                return at(format!("position {p} of {positions}"));
            }
        }
        None
    }

    /// The sends that may match receive `op`: MPI matches the k-th
    /// receive of a rank from a sender with a tag to the k-th such send
    /// (a receive from any sender or with any tag: every send that fits;
    /// a packet write's flag is a send of its own).
    pub fn matching_sends(&self, op: OpId) -> Vec<OpId> {
        let o = &self.ops[op as usize];
        let Kind::Recv { from, tag, .. } = &o.kind else {
            return Vec::new();
        };
        let fits = |q: OpId| {
            let s = &self.ops[q as usize];
            s.kind
                .message_to(o.rank)
                .is_some_and(|t| from.is_none_or(|f| f == s.rank) && tag.is_none_or(|g| g == t))
        };
        let senders: Vec<Rank> = match from {
            Some(f) => vec![*f],
            None => (0..self.ranks).collect(),
        };
        let sends: Vec<OpId> = senders
            .into_iter()
            .flat_map(|r| self.rank_ops(r))
            .filter(|&q| fits(q))
            .collect();
        if from.is_none() || tag.is_none() {
            return sends;
        }
        // The k-th of this rank's receives with the same sender and tag.
        let k = self
            .rank_ops(o.rank)
            .take_while(|&q| q < op)
            .filter(|&q| self.ops[q as usize].kind.same_receive(&o.kind))
            .count();
        sends.get(k).copied().into_iter().collect()
    }

    /// What `op` waits for: its order's predecessors, and for a receive
    /// the sends that may match it.
    pub fn waits_for(&self, op: OpId) -> Vec<OpId> {
        let o = &self.ops[op as usize];
        let mut w: Vec<OpId> = o.after.iter().chain(&o.started_after).copied().collect();
        w.extend(self.matching_sends(op));
        w
    }

    /// A cycle of operations each waiting for the next, from `op`, if the
    /// order and the matching make one (a deadlock in every execution).
    pub fn cycle_from(&self, op: OpId) -> Option<Vec<OpId>> {
        // Depth-first, keeping the path; a step back onto it is a cycle.
        let mut path = vec![op];
        let mut next = vec![self.waits_for(op)];
        let mut done = vec![false; self.ops.len()];
        while let Some(options) = next.last_mut() {
            let Some(q) = options.pop() else {
                done[path.pop()? as usize] = true;
                next.pop();
                continue;
            };
            if let Some(at) = path.iter().position(|&p| p == q) {
                let mut cycle = path[at..].to_vec();
                cycle.push(q);
                return Some(cycle);
            }
            if !done[q as usize] {
                path.push(q);
                next.push(self.waits_for(q));
            }
        }
        None
    }

    /// Why `op` (of `rank`'s node) never completed, in the file's terms:
    /// a deadlock with its cycle, a receive no send matches, a send never
    /// received, or what it waits for; each rank named by `name`
    /// ([`Schedule::where_is_named`]).
    pub fn why_unfinished(&self, op: OpId, at_rank: Rank, name: &dyn Fn(Rank) -> String) -> String {
        let o = &self.ops[op as usize];
        if o.rank != at_rank {
            return format!(
                "the message of {} to {} is never received (an orphan send)",
                self.where_is_named(name, op),
                name(at_rank)
            );
        }
        if let Some(cycle) = self.cycle_from(op) {
            let steps: Vec<String> = cycle
                .iter()
                .map(|&q| self.where_is_named(name, q))
                .collect();
            return format!("a deadlock: {}", steps.join(", which waits for "));
        }
        if matches!(o.kind, Kind::Recv { .. }) && self.matching_sends(op).is_empty() {
            return format!(
                "{} waits for a message no operation sends (an orphan receive)",
                self.where_is_named(name, op)
            );
        }
        let waits: Vec<String> = self
            .waits_for(op)
            .iter()
            .map(|&q| self.where_is_named(name, q))
            .collect();
        format!(
            "{} never completes (it waits for {})",
            self.where_is_named(name, op),
            match waits.is_empty() {
                true => "a port".to_string(),
                false => waits.join(", "),
            }
        )
    }

    /// Operation `op` in the file's terms: `rank 3, l5 (line 14)`.
    pub fn where_is(&self, op: OpId) -> String {
        self.where_is_named(&|r| format!("rank {r}"), op)
    }

    /// [`Schedule::where_is`] with each rank named by `name` (with its
    /// node's name where that is not the rank's number: `rank 3 (gpu3),
    /// tb 0 step 2 (r) (line 9)`).
    pub fn where_is_named(&self, name: &dyn Fn(Rank) -> String, op: OpId) -> String {
        let o = &self.ops[op as usize];
        match o.line {
            0 => format!("{}, {}", name(o.rank), o.label),
            line => format!("{}, {} (line {line})", name(o.rank), o.label),
        }
    }
}

/// A schedule of `ranks` ranks for tests, from per-rank operations
/// (kind, the rank's earlier operations it comes after, by their index in
/// the rank), over `chunks`.
#[cfg(test)]
pub(crate) fn test_schedule(
    ranks: Rank,
    ops: Vec<Vec<(Kind, Vec<u32>)>>,
    chunks: Chunks,
) -> Schedule {
    let mut all = Vec::new();
    let mut first = vec![0];
    for (r, mine) in ops.into_iter().enumerate() {
        let base = all.len() as OpId;
        for (i, (kind, after)) in mine.into_iter().enumerate() {
            all.push(Op {
                rank: r as Rank,
                kind,
                after: after.iter().map(|a| base + a).collect(),
                started_after: Vec::new(),
                slot: None,
                label: format!("op {i}"),
                bytes: 0,
                line: 0,
            });
        }
        first.push(all.len() as OpId);
    }
    Schedule {
        name: "test".into(),
        ranks,
        ops: all,
        first,
        chunks,
        collective: "test".into(),
        parallel_ranks: false,
        relaxed: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packets a run must deliver, and where, as the definition says:
    /// a plain chunk where a rank expects it, a term of a sum where a rank
    /// expects a sum with it; whether the holders of a chunk expect one
    /// sum (lists shared) or different ones (lists per packet).
    #[test]
    fn a_task_needs_each_term_where_a_sum_with_it_is_expected() {
        let ranks = |rs: &[Rank]| rs.iter().copied().collect::<IdSet>();
        let sum = |chunk, rs: &[Rank]| Value::Sum {
            chunk,
            ranks: ranks(rs),
        };
        let schedule = Schedule {
            name: "needs".into(),
            ranks: 3,
            ops: Vec::new(),
            first: vec![0; 4],
            chunks: Chunks {
                reduced: vec![false, true, true],
                positions: 3,
                initial: vec![Vec::new(); 3],
                buffers: Vec::new(),
                layout: None,
                pieces: 1,
                expect: vec![
                    vec![(1, sum(1, &[0, 1, 2])), (2, sum(2, &[0, 1, 2]))],
                    vec![
                        (0, Value::Chunk(0)),
                        (1, sum(1, &[0, 1])),
                        (2, sum(2, &[0, 1, 2])),
                    ],
                    vec![
                        (0, Value::Chunk(0)),
                        (1, sum(1, &[0, 1, 2])),
                        (2, sum(2, &[0, 1, 2])),
                    ],
                ],
                origin: vec![0, 0, 0],
            },
            collective: "test".into(),
            parallel_ranks: false,
            relaxed: Vec::new(),
        };
        // Three ranks on nodes 0..3 and a node 3 that needs nothing.
        let task = schedule.task(4, &[0, 1, 2]);
        let needed_at = |p| (0..4).filter(|&v| task.requires(v, p)).collect::<Vec<_>>();
        // Chunk 0 is packet 0; chunk 1's terms packets 1..4, chunk 2's 4..7.
        assert_eq!(needed_at(0), [1, 2]);
        assert_eq!(needed_at(1), [0, 1, 2]);
        assert_eq!(needed_at(2), [0, 1, 2]);
        assert_eq!(
            needed_at(3),
            [0, 2],
            "rank 1 expects chunk 1 without rank 2's term"
        );
        for p in 4..7 {
            assert_eq!(needed_at(p), [0, 1, 2]);
        }
        assert_eq!(
            (0..7).map(|p| task.origin(p)).collect::<Vec<_>>(),
            [0, 0, 1, 2, 0, 1, 2]
        );
    }
}
