//! The executor: one deterministic run at sizes far beyond exhaustive
//! reach, judged on the fly by the same [`transmit`] and [`receive`] as the
//! checker, on flat data.
//!
//! Per node it keeps the protocol state, one inbox entry (a second arrival
//! in a slot goes to a small overflow list), a busy bit and one holdings
//! bit per packet; per slot one bit per resource. A choice the paper leaves
//! open takes its first option. A conflict's first holder is not stored
//! (that would cost a word per arc); when there is a conflict the run is
//! replayed, watching that one resource.

use super::search::{Cut, Progress};
use super::{horizon, judge_results, receive, release, transmit, Judge, Ledger, Post};
use models::{Arrival, Protocol, Topology};
use properties::{
    Holdings, NodeId, PacketId, Part, PropertyName, Record, ResourceId, Route, Slot, Task,
    Transmission, Violation,
};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::Ordering::Relaxed;

/// The most receivers judged as one range ([`Drive::Schedule`]): a
/// range's arrivals are scattered by receiver into an array that must
/// stay in a core's cache (2 MB of L2 here). At kbcast 16, 2^13 took
/// 73 s where one range per thread (2^15) took 99 s (BENCHMARKS.md).
pub const RANGE: usize = 1 << 13;

/// The outcome of one executed run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub record: Record,
    /// Slots executed (the last one may have been quiet).
    pub slots: Slot,
    /// What stopped the run before its end (Ctrl-C, `--timeout`), if
    /// anything did.
    pub cut: Option<Cut>,
}

/// One bit per resource, cleared every slot; optionally watching one
/// (slot, resource) to name its first holder.
struct BitLedger {
    bits: Vec<u64>,
    /// The words set this slot, so that clearing costs what was used.
    taken: Vec<usize>,
    slot: Slot,
    watch: Option<(Slot, ResourceId)>,
    holder: Option<Route>,
}

impl BitLedger {
    fn new(resources: ResourceId, watch: Option<(Slot, ResourceId)>) -> Self {
        BitLedger {
            bits: vec![0; resources.div_ceil(64) as usize],
            taken: Vec::new(),
            slot: 0,
            watch,
            holder: None,
        }
    }

    /// Frees what the last slot took (only the words it set).
    fn begin(&mut self, slot: Slot) {
        self.slot = slot;
        for w in self.taken.drain(..) {
            self.bits[w] = 0;
        }
    }
}

/// Sets bit `i` of a bitmap kept in words.
#[inline]
fn set_bit(words: &mut [u64], i: usize) {
    words[i / 64] |= 1 << (i % 64);
}

/// Sorts distinct node ids: by a bitmap scan when they are many (a
/// broadcast's slot reaches most nodes), else by comparison.
fn sort_nodes(v: &mut Vec<NodeId>, marks: &mut Vec<u64>) {
    let top = v.iter().max().map_or(0, |&m| m as usize + 1);
    if v.len() < 64 || v.len() * 16 < top {
        v.sort_unstable();
        return;
    }
    marks.clear();
    marks.resize(top.div_ceil(64), 0);
    for &x in v.iter() {
        set_bit(marks, x as usize);
    }
    v.clear();
    for (i, w) in marks.iter().enumerate() {
        let mut w = *w;
        while w != 0 {
            v.push((i * 64) as NodeId + w.trailing_zeros());
            w &= w - 1;
        }
    }
}

/// Orders `v` by receiver, keeping each receiver's entries in the order
/// they were sent: a counting sort when the list is long, else a stable
/// comparison sort.
fn group_by_receiver<A: Copy>(
    v: &mut Vec<(NodeId, A)>,
    scratch: &mut Vec<(NodeId, A)>,
    counts: &mut Vec<u32>,
    nodes: usize,
) {
    if v.len() < 4096 || v.len() * 4 < nodes {
        v.sort_by_key(|(to, _)| *to);
        return;
    }
    counts.clear();
    counts.resize(nodes + 1, 0);
    for (to, _) in v.iter() {
        counts[*to as usize + 1] += 1;
    }
    for i in 1..counts.len() {
        counts[i] += counts[i - 1];
    }
    scratch.clear();
    scratch.resize(v.len(), v[0]);
    for &(to, a) in v.iter() {
        let at = &mut counts[to as usize];
        scratch[*at as usize] = (to, a);
        *at += 1;
    }
    std::mem::swap(v, scratch);
}

/// Appends the union of two sorted lists of distinct nodes to `out`.
fn merge_sorted(a: &[NodeId], b: &[NodeId], out: &mut Vec<NodeId>) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        out.push(x.min(y));
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

/// What ending a run needs besides its state: the protocol, its input and
/// task, and the horizon.
struct Ending<'a, P: Protocol> {
    protocol: &'a P,
    input: &'a P::Input,
    task: &'a Task,
    horizon: Slot,
}

impl<P: Protocol> Ending<'_, P> {
    /// Ends the run after `slot` if it is over: quiet with nobody left to
    /// step, or at the horizon (judging the results, completeness and the
    /// counts).
    fn ended(
        &self,
        states: &[P::State],
        record: &mut Record,
        holdings: &Holdings,
        slot: Slot,
        idle: bool,
    ) -> bool {
        let over = idle || slot >= self.horizon;
        if over {
            judge_results(self.protocol, self.input, states, record);
            record.end(self.task, holdings, (!idle).then_some(slot));
        }
        over
    }
}

impl Ledger for BitLedger {
    fn take(&mut self, r: ResourceId, route: Route) -> Result<(), Option<Route>> {
        let (w, m) = ((r / 64) as usize, 1u64 << (r % 64));
        if self.watch == Some((self.slot, r)) && self.holder.is_none() {
            self.holder = Some(route);
        }
        if self.bits[w] & m != 0 {
            return Err(None);
        }
        if self.bits[w] == 0 {
            self.taken.push(w);
        }
        self.bits[w] |= m;
        Ok(())
    }
}

/// The memory a run of `protocol` on `task` takes, in bytes: per node its
/// state, two inbox entries and busy bits; the holdings; per resource one
/// bit (the cost model of BENCHMARKS.md).
pub fn memory_needed<P: Protocol>(protocol: &P, task: &Task) -> u64 {
    let topology = protocol.topology();
    let nodes = topology.nodes() as u64;
    let per_node =
        std::mem::size_of::<P::State>() + 2 * std::mem::size_of::<Option<Arrival<P::Msg>>>();
    nodes * per_node as u64 + Holdings::bytes(task) + (2 * nodes + topology.resources()) / 8
}

/// Runs `protocol` from `input` to the end, on every core.
pub fn run<P: Protocol>(protocol: &P, input: &P::Input) -> Run {
    run_with(protocol, input, &Progress::default(), cores())
}

/// The cores this machine offers.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// How a run is driven; every way gives the same [`Run`] (a test checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drive {
    /// Per node an inbox of what arrived in the previous slot.
    Inbox,
    /// Senders stepped on `threads` threads, each range of at most
    /// `range` receivers (a power of two, at least 64) judged on its own;
    /// the arrivals (for a protocol that reads them) grouped per receiver
    /// range.
    Schedule { threads: usize, range: usize },
}

impl Drive {
    /// The fastest way to drive `protocol` with `threads` threads.
    pub fn best<P: Protocol>(protocol: &P, threads: usize) -> Drive {
        if protocol.reads_arrivals() && !protocol.holdings_by_packet() {
            Drive::Inbox
        } else {
            Drive::Schedule {
                threads: threads.max(1),
                range: RANGE,
            }
        }
    }
}

/// [`run`] on `threads` threads, counting slots (`depth`) and node steps
/// (`generated`) in `progress`; Ctrl-C or the
/// deadline in `progress` stops it with the record so far.
pub fn run_with<P: Protocol>(
    protocol: &P,
    input: &P::Input,
    progress: &Progress,
    threads: usize,
) -> Run {
    drive(protocol, input, progress, Drive::best(protocol, threads))
}

/// [`run_with`], driven as `drive` says.
pub fn drive<P: Protocol>(
    protocol: &P,
    input: &P::Input,
    progress: &Progress,
    drive: Drive,
) -> Run {
    let go = |watch| match drive {
        Drive::Inbox => execute(protocol, input, watch, progress),
        Drive::Schedule { threads, range } => {
            // Two threads that took one resource in one slot: which of
            // them is "second" is the one-thread run's to say.
            let go = |threads| execute_schedule(protocol, input, watch, progress, threads, range);
            go(threads).unwrap_or_else(|| go(1).expect("one thread meets no cross-thread conflict"))
        }
    };
    let mut run = go(None).0;
    if let Some(Violation::Conflict {
        slot,
        resource,
        first: None,
        ..
    }) = run.record.violation(PropertyName::ContentionFreedom)
    {
        let (_, holder) = go(Some((slot, resource)));
        let holder = holder.expect("a replay of a deterministic run meets the same conflict");
        run.record.name_conflict_holder(holder);
    }
    run
}

fn execute<P: Protocol>(
    protocol: &P,
    input: &P::Input,
    watch: Option<(Slot, ResourceId)>,
    progress: &Progress,
) -> (Run, Option<Route>) {
    let topology = protocol.topology();
    let nodes = topology.nodes() as usize;
    let task = protocol.task(input);
    let claims = protocol.claims();
    let ending = Ending {
        protocol,
        input,
        task: &task,
        horizon: horizon(protocol, &claims),
    };
    let expected = claims.bound.unwrap_or(ending.horizon);
    progress.slots.store(expected as usize, Relaxed);

    let mut states: Vec<P::State> = (0..nodes as NodeId)
        .map(|v| protocol.init(input, v))
        .collect();
    let mut holdings = match protocol.holdings_by_packet() {
        true => Holdings::by_packet(&task, u64::MAX),
        false => Holdings::initial(&task),
    };
    let mut record = Record::new(&claims);
    let mut inbox: Vec<Option<Arrival<P::Msg>>> = vec![None; nodes];
    let mut next_inbox: Vec<Option<Arrival<P::Msg>>> = vec![None; nodes];
    let mut overflow: Vec<(NodeId, Arrival<P::Msg>)> = Vec::new();
    let mut next_overflow: Vec<(NodeId, Arrival<P::Msg>)> = Vec::new();
    // Every node is stepped in slot 1; later only the nodes with arrivals
    // or that asked to be (sorted, so arrivals are read in node order).
    let mut active: Vec<NodeId> = (0..nodes as NodeId).collect();
    let mut next_active: Vec<NodeId> = Vec::new();
    // Nodes that asked to be stepped in a later slot than the next, by
    // slot (8 bytes each).
    let mut calendar: BinaryHeap<Reverse<(Slot, NodeId)>> = BinaryHeap::new();
    // This slot's receivers, each once (sorted after the slot), and the
    // scratch that sorts them and groups the overflow by receiver.
    let mut receivers: Vec<NodeId> = Vec::new();
    let mut marks: Vec<u64> = Vec::new();
    let mut regroup: Vec<(NodeId, Arrival<P::Msg>)> = Vec::new();
    let mut counts: Vec<u32> = Vec::new();
    let mut merged: Vec<NodeId> = Vec::new();
    let mut ledger = BitLedger::new(topology.resources(), watch);
    let mut out = Vec::new();
    let mut released = Vec::new();
    let mut arrivals = Vec::new();
    let mut slot = 0;
    let mut cut = None;
    let mut stepped = 0u64;
    loop {
        if let Some(why) = progress.stop() {
            cut = Some(why);
            break;
        }
        slot += 1;
        progress.depth.store(slot as usize, Relaxed);
        ledger.begin(slot);
        let mut over = overflow.iter().peekable();
        for &node in &active {
            let v = node as usize;
            arrivals.clear();
            arrivals.extend(inbox[v].take());
            while let Some((_, a)) = over.next_if(|(to, _)| *to == node) {
                arrivals.push(*a);
            }
            stepped += 1;
            if stepped.is_multiple_of(65536) {
                progress.generated.fetch_add(65536, Relaxed);
            }
            out.clear();
            if protocol.step(node, &mut states[v], slot, &arrivals, 0, &mut out) {
                match protocol.wake(&states[v], slot) {
                    w if w <= slot + 1 => next_active.push(node),
                    w => calendar.push(Reverse((w, node))),
                }
            }
            let judge = &mut Judge {
                protocol,
                slot,
                task: &task,
                holdings: &holdings,
                record: &mut record,
                ledger: &mut ledger,
                released: &mut released,
            };
            transmit(judge, node, &out, |to, a| match &mut next_inbox[to as usize] {
                entry @ None => {
                    receivers.push(to);
                    *entry = Some(a)
                }
                Some(_) => next_overflow.push((to, a)),
            });
        }
        release(&mut holdings, &mut released);
        // Deliveries of this slot, node by node (the overflow in order).
        sort_nodes(&mut receivers, &mut marks);
        group_by_receiver(&mut next_overflow, &mut regroup, &mut counts, nodes);
        let mut over = next_overflow.iter().peekable();
        for &v in &receivers {
            if let Some(a) = &next_inbox[v as usize] {
                receive(protocol, slot, &task, v, a, &mut holdings, &mut record);
                while let Some((to, a)) = over.next_if(|(to, _)| *to == v) {
                    receive(protocol, slot, &task, *to, a, &mut holdings, &mut record);
                }
            }
        }
        let quiet = receivers.is_empty();
        std::mem::swap(&mut inbox, &mut next_inbox);
        std::mem::swap(&mut overflow, &mut next_overflow);
        next_overflow.clear();
        // Both sorted: merge them; the calendar's few join after.
        merged.clear();
        merge_sorted(&next_active, &receivers, &mut merged);
        std::mem::swap(&mut next_active, &mut merged);
        let mut woken = false;
        while let Some(&Reverse((_, node))) = calendar.peek().filter(|w| w.0 .0 == slot + 1) {
            calendar.pop();
            next_active.push(node);
            woken = true;
        }
        if woken {
            next_active.sort_unstable();
            next_active.dedup();
        }
        std::mem::swap(&mut active, &mut next_active);
        next_active.clear();
        receivers.clear();
        let idle = quiet && active.is_empty() && calendar.is_empty();
        if ending.ended(&states, &mut record, &holdings, slot, idle) {
            break;
        }
    }
    (
        Run {
            record,
            slots: slot,
            cut,
        },
        ledger.holder,
    )
}

/// One thread's senders in a slot: its share, its tally of deliveries per
/// receiver, the active nodes, the states of the node range they lie in
/// and the first node of that range.
type Senders<'a, M, S> = (
    (&'a mut Share<M>, &'a mut [u32]),
    &'a [NodeId],
    &'a mut [S],
    usize,
);

/// What arrived in the previous slot at one range of receivers, each
/// receiver's arrivals in sender order: by receiver offsets where many
/// arrived (`ends`), else as a sorted list of receivers (`to`).
struct Arrived<M> {
    msg: Vec<Arrival<M>>,
    /// Sparse: the receiver of each entry of `msg`, increasing.
    to: Vec<NodeId>,
    /// Dense: `ends[i]` is where the arrivals of node `first + i` end.
    ends: Vec<u32>,
    dense: bool,
    first: NodeId,
}

impl<M: Copy> Arrived<M> {
    fn new() -> Self {
        Arrived {
            msg: Vec::new(),
            to: Vec::new(),
            ends: Vec::new(),
            dense: false,
            first: 0,
        }
    }

    fn clear(&mut self) {
        self.msg.clear();
        self.to.clear();
        self.dense = false;
    }

    /// Hands `each` every entry of `sources` (each in sender order, the
    /// sources in order) and replaces the contents with them grouped by
    /// receiver, for receivers `first..first + range`. `tallies[s][i]` is
    /// how many entries of `sources[s]` go to node `first + i` (counted as
    /// they were sent, so that one pass over the entries places them: a
    /// counting sort where they are many); the tallies end zeroed. Sets
    /// the bit of every receiver in `next` (a word per 64 receivers).
    fn group(
        &mut self,
        sources: &[&Bucket<M>],
        tallies: &mut [&mut [u32]],
        first: NodeId,
        range: usize,
        next: &mut [u64],
        mut each: impl FnMut(NodeId, &Arrival<M>),
    ) {
        self.to.clear();
        self.dense = false;
        self.first = first;
        let total: usize = sources.iter().map(|s| s.len()).sum();
        if total * 4 < range {
            self.msg.clear();
            for (source, tally) in sources.iter().zip(tallies.iter_mut()) {
                for (to, a) in source.iter() {
                    each(*to, a);
                    let i = (to - first) as usize;
                    tally[i] = 0;
                    set_bit(next, i);
                }
            }
            let mut all: Vec<(NodeId, Arrival<M>)> =
                sources.iter().flat_map(|s| s.iter()).copied().collect();
            all.sort_by_key(|(to, _)| *to);
            self.to.extend(all.iter().map(|e| e.0));
            self.msg.extend(all.iter().map(|e| e.1));
            return;
        }
        self.dense = true;
        let ends = &mut self.ends;
        ends.clear();
        ends.resize(range + 1, 0);
        let mut at = 0;
        for (i, end) in ends.iter_mut().enumerate() {
            *end = at;
            for tally in tallies.iter_mut().filter(|t| i < t.len()) {
                at += std::mem::take(&mut tally[i]);
            }
            if at != *end {
                set_bit(next, i);
            }
        }
        assert_eq!(at as usize, total, "the tallies count every entry");
        // ends[i] is now where node first + i starts; filling moves it to
        // where it ends. Every place below `total` is filled, so what the
        // last slot left there needs no clearing.
        let any = sources.iter().find_map(|s| s.first()).expect("total > 0").1;
        self.msg.truncate(total);
        self.msg.resize(total, any);
        for source in sources {
            for (to, a) in source.iter() {
                each(*to, a);
                let at = &mut ends[(to - first) as usize];
                self.msg[*at as usize] = *a;
                *at += 1;
            }
        }
    }
}

/// A thread's place in the grouped arrivals as it steps its nodes in
/// increasing order.
struct Cursor {
    part: usize,
    at: usize,
}

impl Cursor {
    /// The arrivals of `node` (receivers split into ranges of 2^shift).
    fn arrivals<'a, M>(
        &mut self,
        arrived: &'a [Arrived<M>],
        node: NodeId,
        shift: u32,
    ) -> &'a [Arrival<M>] {
        let part = (node >> shift) as usize;
        let Some(a) = arrived.get(part) else {
            return &[];
        };
        if a.dense {
            let i = (node - a.first) as usize;
            let start = if i == 0 { 0 } else { a.ends[i - 1] as usize };
            return &a.msg[start..a.ends[i] as usize];
        }
        if part != self.part {
            self.part = part;
            self.at = a.to.partition_point(|&t| t < node);
        }
        while self.at < a.to.len() && a.to[self.at] < node {
            self.at += 1;
        }
        let start = self.at;
        while self.at < a.to.len() && a.to[self.at] == node {
            self.at += 1;
        }
        &a.msg[start..self.at]
    }
}

/// `f` of each piece of `work`, in order: the first on this thread, each
/// other on a thread of its own.
fn on_threads<T: Send, R: Send>(work: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let mut work = work.into_iter();
    let Some(first) = work.next() else {
        return Vec::new();
    };
    let f = &f;
    std::thread::scope(|scope| {
        let others: Vec<_> = work.map(|w| scope.spawn(move || f(w))).collect();
        let mut results = vec![f(first)];
        results.extend(others.into_iter().map(|t| t.join().expect("no panic")));
        results
    })
}

/// Judges bus writes (in sender order) at their receivers in `range`,
/// as `receive` would judge one arrival per receiver, each receiver's in
/// sender order, but decoding each write's packets once and without an
/// entry per receiver. `mark` hears each receiver.
#[allow(clippy::too_many_arguments)]
fn judge_writes<'a, P: Protocol>(
    protocol: &P,
    slot: Slot,
    task: &Task,
    writes: impl Iterator<Item = &'a (Route, Arrival<P::Msg>)>,
    range: std::ops::Range<NodeId>,
    holdings: &mut impl properties::Keep,
    record: &mut Record,
    mut mark: impl FnMut(NodeId),
) where
    P::Msg: 'a,
{
    let topology = protocol.topology();
    let mut packets = Vec::new();
    for (route, a) in writes {
        let (first, step, count) = topology.receivers_run(route).expect("a bus write");
        // The receivers in range, in order.
        let mut receivers = (0..count)
            .map(|k| first + k * step)
            .filter(|to| range.contains(to) && *to != a.from)
            .peekable();
        let Some(&lowest) = receivers.peek() else {
            continue;
        };
        let receivers: Vec<NodeId> = receivers.collect();
        if protocol.control(&a.msg) {
            receivers
                .iter()
                .for_each(|&to| record.control_delivery(slot, to));
        } else {
            // Packet by packet: a receiver's violations are noted in the
            // order its one-by-one deliveries would note them (the record
            // keeps the earliest by slot and node), with one bookkeeping
            // call per packet rather than per reception.
            packets.clear();
            protocol.packets(&a.msg, |p| packets.push(p));
            for &p in &packets {
                let origin = task.origin(p);
                let mut run = properties::Run {
                    count: receivers.len() as u64,
                    lowest,
                    ..Default::default()
                };
                for &to in &receivers {
                    if to == origin {
                        run.own = Some(to);
                    } else if !holdings.insert(to, p) && run.again.is_none() {
                        run.again = Some(to);
                    }
                }
                record.delivery_run(slot, run, p, a.from);
            }
        }
        receivers.into_iter().for_each(&mut mark);
    }
}

/// Deliveries of a slot, each with its receiver.
type Bucket<M> = [(NodeId, Arrival<M>)];

/// One judging thread's work: its range's index, holdings part, bits of
/// the nodes to step next, arrivals to group and the senders' tallies of
/// them.
type Judging<'a, M> = (
    usize,
    (
        ((Part<'a>, &'a mut [u64]), &'a mut Arrived<M>),
        Vec<&'a mut [u32]>,
    ),
);

/// Where one thread's senders post their transmissions: deliveries and
/// bus writes into its buckets by receiver range, each delivery tallied
/// per receiver for a protocol that reads its arrivals.
struct Outbox<'a, T, M> {
    topology: &'a T,
    buckets: &'a mut [Vec<(NodeId, Arrival<M>)>],
    writes: &'a mut [Vec<(Route, Arrival<M>)>],
    tally: &'a mut [u32],
    reads: bool,
    shift: u32,
}

impl<T: Topology, M: Copy> Post<M> for Outbox<'_, T, M> {
    #[inline]
    fn whole(&mut self, route: &Route, a: Arrival<M>) -> bool {
        // A protocol that reads its arrivals needs them one by one.
        let Some((first, step, count)) = (!self.reads)
            .then(|| self.topology.receivers_run(route))
            .flatten()
        else {
            return false;
        };
        let last = first + step * (count - 1);
        let shift = self.shift;
        for part in &mut self.writes[(first >> shift) as usize..=(last >> shift) as usize] {
            part.push((*route, a));
        }
        true
    }

    #[inline]
    fn deliver(&mut self, to: NodeId, a: Arrival<M>) {
        self.buckets[(to >> self.shift) as usize].push((to, a));
        if self.reads {
            self.tally[to as usize] += 1;
        }
    }
}

/// What one thread's share of the senders did in a slot.
struct Share<M> {
    record: Record,
    ledger: BitLedger,
    /// Deliveries in sender order, per range of receivers.
    buckets: Vec<Vec<(NodeId, Arrival<M>)>>,
    /// Bus writes in sender order, per range of receivers they reach
    /// (judged together: [`judge_writes`]).
    writes: Vec<Vec<(Route, Arrival<M>)>>,
    released: Vec<(NodeId, PacketId)>,
    /// Nodes that asked to be stepped again next slot, and later (the
    /// slot, from `Protocol::wake`).
    again: Vec<NodeId>,
    later: Vec<(Slot, NodeId)>,
    out: Vec<Transmission<M>>,
    stepped: u64,
}

/// The run of a protocol whose step never reads its arrivals, without
/// inboxes. The active nodes are split into `threads` contiguous ranges,
/// each stepped and judged by [`transmit`] on its own thread with its own
/// record and resource bits; the records are folded in node order and
/// relays release. Then the deliveries are judged by [`receive`]: for a
/// broadcast, each range of receivers on its own thread with its part of
/// the holdings, in sender order (the ranges in as many consecutive
/// groups as threads, a group to a thread); for a personalised task (where two
/// receivers of one packet interact) on one thread in receiver order.
/// Each receiver thus sees its arrivals in the order [`execute`] hands
/// them over, and the record is the same.
/// Returns None when two threads took one resource in one slot: which
/// transmission is "second" is then the one-thread run's to say.
fn execute_schedule<P: Protocol>(
    protocol: &P,
    input: &P::Input,
    watch: Option<(Slot, ResourceId)>,
    progress: &Progress,
    threads: usize,
    range: usize,
) -> Option<(Run, Option<Route>)> {
    let topology = protocol.topology();
    let nodes = topology.nodes() as usize;
    let task = protocol.task(input);
    let claims = protocol.claims();
    let ending = Ending {
        protocol,
        input,
        task: &task,
        horizon: horizon(protocol, &claims),
    };
    let expected = claims.bound.unwrap_or(ending.horizon);
    progress.slots.store(expected as usize, Relaxed);
    let personal = !task.is_broadcast();
    let words = topology.resources().div_ceil(64) as usize;
    let threads = threads.max(1);
    // Receivers in ranges of a power of two of nodes (whole words), one
    // or more per thread: small enough that a range's arrivals, scattered
    // by receiver, stay in a core's cache.
    let per = if personal {
        nodes.next_power_of_two()
    } else {
        nodes.div_ceil(threads).next_power_of_two().min(range)
    }
    .max(64);
    let parts = nodes.div_ceil(per);
    let shift = per.trailing_zeros();

    let mut states: Vec<P::State> = (0..nodes as NodeId)
        .map(|v| protocol.init(input, v))
        .collect();
    let mut holdings = match protocol.holdings_by_packet() {
        true => Holdings::by_packet(&task, per as u64),
        false => Holdings::in_blocks(&task, per as u64),
    };
    let reads = protocol.reads_arrivals();
    let mut arrived: Vec<Arrived<P::Msg>> = (0..parts).map(|_| Arrived::new()).collect();
    let mut record = Record::new(&claims);
    let mut shares: Vec<Share<P::Msg>> = (0..threads)
        .map(|_| Share {
            record: Record::new(&claims),
            ledger: BitLedger::new(topology.resources(), watch),
            buckets: vec![Vec::new(); parts],
            writes: vec![Vec::new(); parts],
            released: Vec::new(),
            again: Vec::new(),
            later: Vec::new(),
            out: Vec::new(),
            stepped: 0,
        })
        .collect();
    // Per thread, for a protocol that reads its arrivals: how many
    // deliveries it made to each receiver this slot (see `Arrived::group`).
    let mut tallies: Vec<Vec<u32>> = (0..threads)
        .map(|_| vec![0; if reads { parts * per } else { 0 }])
        .collect();
    let mut active: Vec<NodeId> = (0..nodes as NodeId).collect();
    // Nodes waiting for a scheduled send (see `Protocol::wake`).
    let mut calendar: BinaryHeap<Reverse<(Slot, NodeId)>> = BinaryHeap::new();
    // Nodes to step next slot, one bit each: those that asked, and, for a
    // protocol that reads its arrivals, those that received (a step that
    // cannot read them has nothing to do for them: it asked to be woken
    // for its scheduled sends).
    let mut next = vec![0u64; nodes.div_ceil(64)];
    let mut deliveries = Vec::new();
    let mut released = Vec::new();
    let mut taken = vec![0u64; if threads > 1 { words } else { 0 }];
    let mut slot = 0;
    let mut cut = None;
    loop {
        if let Some(why) = progress.stop() {
            cut = Some(why);
            break;
        }
        slot += 1;
        progress.depth.store(slot as usize, Relaxed);

        // Senders, a contiguous range of nodes per thread.
        let senders = active.len().div_ceil(shares.len()).max(1);
        let mut rest: &mut [P::State] = &mut states;
        let mut base = 0usize;
        let mut work = Vec::with_capacity(shares.len());
        let mine = shares
            .iter_mut()
            .zip(tallies.iter_mut().map(|t| &mut t[..]));
        for (share, chunk) in mine.zip(active.chunks(senders)) {
            let end = *chunk.last().expect("chunks are not empty") as usize + 1;
            let (mine, after) = std::mem::take(&mut rest).split_at_mut(end - base);
            work.push((share, chunk, mine, base));
            rest = after;
            base = end;
        }
        let inbox = &arrived;
        let send = |((share, tally), chunk, mine, base): Senders<P::Msg, P::State>| {
            share.ledger.begin(slot);
            let mut cursor = Cursor {
                part: usize::MAX,
                at: 0,
            };
            for &node in chunk {
                share.out.clear();
                share.stepped += 1;
                let state = &mut mine[node as usize - base];
                let arrivals = match reads {
                    true => cursor.arrivals(inbox, node, shift),
                    false => &[],
                };
                if protocol.step(node, state, slot, arrivals, 0, &mut share.out) {
                    match protocol.wake(state, slot) {
                        w if w <= slot + 1 => share.again.push(node),
                        w => share.later.push((w, node)),
                    }
                }
                let judge = &mut Judge {
                    protocol,
                    slot,
                    task: &task,
                    holdings: &holdings,
                    record: &mut share.record,
                    ledger: &mut share.ledger,
                    released: &mut share.released,
                };
                let outbox = Outbox {
                    topology,
                    buckets: &mut share.buckets,
                    writes: &mut share.writes,
                    tally,
                    reads,
                    shift,
                };
                transmit(judge, node, &share.out, outbox);
            }
        };
        on_threads(work, send);

        // Fold the shares in node order.
        for w in taken.iter_mut() {
            *w = 0;
        }
        for share in shares.iter_mut() {
            if threads > 1 {
                for &w in &share.ledger.taken {
                    if taken[w] & share.ledger.bits[w] != 0 {
                        return None;
                    }
                    taken[w] |= share.ledger.bits[w];
                }
            }
            record.merge(&share.record);
            share.record = Record::new(&claims);
            released.append(&mut share.released);
            for &v in &share.again {
                set_bit(&mut next, v as usize);
            }
            share.again.clear();
            calendar.extend(share.later.drain(..).map(Reverse));
            if share.stepped >= 65536 {
                progress.generated.fetch_add(share.stepped, Relaxed);
                share.stepped = 0;
            }
        }
        release(&mut holdings, &mut released);

        // Deliveries of this slot.
        let quiet = shares
            .iter()
            .all(|s| s.buckets.iter().all(Vec::is_empty) && s.writes.iter().all(Vec::is_empty));
        if let Some(holdings) = holdings.parts(per as u32).filter(|_| !quiet) {
            let shares = &shares;
            let judge = |(p, (((mut holdings, next), arrived), mut tally)): Judging<P::Msg>| {
                let mut record = Record::new(&claims);
                let sources: Vec<&Bucket<P::Msg>> =
                    shares.iter().map(|s| &s.buckets[p][..]).collect();
                let lo = (p * per) as NodeId;
                let mut each = |to: NodeId, a: &Arrival<P::Msg>| {
                    receive(protocol, slot, &task, to, a, &mut holdings, &mut record);
                };
                if reads {
                    arrived.group(&sources, &mut tally, lo, per, next, &mut each);
                } else {
                    for source in &sources {
                        source.iter().for_each(|(to, a)| each(*to, a));
                    }
                }
                let mark = |to: NodeId| {
                    if reads {
                        set_bit(next, (to - lo) as usize)
                    }
                };
                let writes = shares.iter().flat_map(|s| &s.writes[p]);
                let range = lo..lo + per as NodeId;
                judge_writes(
                    protocol,
                    slot,
                    &task,
                    writes,
                    range,
                    &mut holdings,
                    &mut record,
                    mark,
                );
                record
            };
            let mut parted: Vec<Vec<&mut [u32]>> = (0..parts).map(|_| Vec::new()).collect();
            for tally in tallies.iter_mut() {
                for (p, part) in tally.chunks_mut(per).enumerate() {
                    parted[p].push(part);
                }
            }
            let work = holdings
                .into_iter()
                .zip(next.chunks_mut(per / 64))
                .zip(arrived.iter_mut())
                .zip(parted)
                .enumerate();
            // A slot of few deliveries is judged on this thread: a spawn
            // costs more (CENTRALIZE at l = 1 has 2 x 10^5 such slots).
            let load: usize = shares
                .iter()
                .map(|s| {
                    let writes: usize = s.writes.iter().map(|w| w.len() * 64).sum();
                    s.buckets.iter().map(Vec::len).sum::<usize>() + writes
                })
                .sum();
            let records: Vec<Record> = match load < 1 << 14 {
                true => work.map(judge).collect(),
                false => {
                    // Consecutive ranges, as many groups as threads.
                    let mut work = work.peekable();
                    let mut groups = Vec::new();
                    let size = parts.div_ceil(threads);
                    while work.peek().is_some() {
                        groups.push(work.by_ref().take(size).collect::<Vec<_>>());
                    }
                    let judged: Vec<Vec<Record>> =
                        on_threads(groups, |g| g.into_iter().map(&judge).collect());
                    judged.into_iter().flatten().collect()
                }
            };
            for r in &records {
                record.merge(r);
            }
        } else {
            for part in arrived.iter_mut() {
                part.clear();
            }
            for (share, tally) in shares.iter().zip(tallies.iter_mut()).filter(|_| reads) {
                for (to, _) in share.buckets.iter().flatten() {
                    tally[*to as usize] = 0;
                }
            }
            deliveries.extend(
                shares
                    .iter_mut()
                    .flat_map(|s| s.buckets.iter_mut().flat_map(|b| b.drain(..))),
            );
            deliveries.sort_by_key(|(to, _)| *to);
            for (to, a) in deliveries.iter() {
                receive(protocol, slot, &task, *to, a, &mut holdings, &mut record);
                if reads {
                    set_bit(&mut next, *to as usize);
                    let part = &mut arrived[(*to >> shift) as usize];
                    part.to.push(*to);
                    part.msg.push(*a);
                }
            }
            deliveries.clear();
            for p in 0..parts {
                let lo = (p * per) as NodeId;
                let writes = shares.iter().flat_map(|s| &s.writes[p]);
                let mark = |to: NodeId| {
                    if reads {
                        set_bit(&mut next, to as usize)
                    }
                };
                let range = lo..lo + per as NodeId;
                judge_writes(
                    protocol,
                    slot,
                    &task,
                    writes,
                    range,
                    &mut holdings,
                    &mut record,
                    mark,
                );
            }
        }
        for share in shares.iter_mut() {
            share.buckets.iter_mut().for_each(Vec::clear);
            share.writes.iter_mut().for_each(Vec::clear);
        }
        // Nodes whose wake-up is due join those stepped next slot.
        while let Some(&Reverse((w, v))) = calendar.peek() {
            if w > slot + 1 {
                break;
            }
            calendar.pop();
            set_bit(&mut next, v as usize);
        }
        active.clear();
        for (i, w) in next.iter_mut().enumerate() {
            while *w != 0 {
                active.push((i * 64) as NodeId + w.trailing_zeros());
                *w &= *w - 1;
            }
        }
        let idle = quiet && active.is_empty() && calendar.is_empty();
        if ending.ended(&states, &mut record, &holdings, slot, idle) {
            break;
        }
    }
    let holder = shares.iter_mut().find_map(|s| s.ledger.holder.take());
    Some((
        Run {
            record,
            slots: slot,
            cut,
        },
        holder,
    ))
}
