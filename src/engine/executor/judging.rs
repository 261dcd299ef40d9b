//! Judging, in the phased drive: once every thread has sent, each
//! slot's deliveries are judged by [`receive`] at their receivers, each
//! receiver's in sender order. For a broadcast each range of receivers is
//! judged on its own with its part of the holdings (on several threads
//! where the slot is busy), grouping the arrivals for the next slot as it
//! goes ([`Arrived::group`]); for a personalised task (where two receivers
//! of one packet interact) all on one thread in receiver order.

use super::arrived::{Arrived, Bucket};
use super::ending::Budget;
use super::on_threads;
use super::sending::Share;
use super::set_bit;
use crate::engine::receive;
use models::{Arrival, Protocol, ProtocolExt, Topology};
use properties::{Claims, Holdings, Keep, NodeId, Part, Record, Slot, Task};

/// What every judging thread reads in a slot: the run's protocol, task
/// and claims, the slot, what the threads sent, and how receivers are
/// split into ranges.
pub(super) struct Judging<'a, P: Protocol> {
    /// The algorithm.
    pub(super) protocol: &'a P,
    /// The slot whose deliveries are judged.
    pub(super) slot: Slot,
    /// What the run must achieve.
    pub(super) task: &'a Task,
    /// What each range's record starts from.
    pub(super) claims: &'a Claims,
    /// What each sending thread sent, in node order of the threads.
    pub(super) shares: &'a [Share<P::Msg>],
    /// Whether the protocol reads its arrivals (then they are grouped
    /// for the next slot and their receivers stepped).
    pub(super) reads: bool,
    /// Receivers per range (a power of two).
    pub(super) per: usize,
    /// What stops the slot part-way (a slot can take seconds).
    pub(super) budget: &'a Budget<'a>,
}

/// What judging updates for the next slot besides the holdings.
pub(super) struct Next<'a, M> {
    /// A bit per node to step next slot: the receivers, for a protocol
    /// that reads its arrivals.
    pub(super) step: &'a mut [u64],
    /// The arrivals the next slot's senders read, per receiver range.
    pub(super) arrived: &'a mut [Arrived<M>],
    /// Per sending thread, its deliveries per receiver (zeroed here).
    pub(super) tallies: &'a mut [Vec<u32>],
}

/// One range of receivers to judge on its own: its index, its part of the
/// holdings, its bits of the nodes to step next, its grouped arrivals and
/// every sending thread's tallies for it.
struct Range<'a, M> {
    /// Which range (receivers `index * per..`).
    index: usize,
    /// What its receivers hold.
    holdings: Part<'a>,
    /// Its nodes' bits of [`Next::step`].
    step: &'a mut [u64],
    /// Its arrivals, grouped for the next slot.
    arrived: &'a mut Arrived<M>,
    /// Each sending thread's tallies of its receivers.
    tallies: Vec<&'a mut [u32]>,
}

/// Deliveries up to this many (a bus write counting 64) are judged on the
/// calling thread: a spawn costs more (CENTRALIZE at l = 1 has 2 x 10^5
/// such slots).
const SPAWN: usize = 1 << 14;

impl<P: Protocol> Judging<'_, P> {
    /// True if no thread sent anything this slot.
    pub(super) fn quiet(&self) -> bool {
        self.shares.iter().all(Share::quiet)
    }

    /// Judges a broadcast's deliveries range by range, each with its
    /// `parts` of the holdings, on up to `threads` threads (consecutive
    /// ranges, as many groups as threads); returns each range's record,
    /// in range order.
    pub(super) fn in_ranges(
        &self,
        parts: Vec<Part<'_>>,
        next: Next<'_, P::Msg>,
        threads: usize,
    ) -> Vec<Record> {
        let ranges = next.arrived.len();
        let mut parted: Vec<Vec<&mut [u32]>> = (0..ranges).map(|_| Vec::new()).collect();
        for tally in next.tallies.iter_mut() {
            for (p, part) in tally.chunks_mut(self.per).enumerate() {
                parted[p].push(part);
            }
        }
        let work = parts
            .into_iter()
            .zip(next.step.chunks_mut(self.per / 64))
            .zip(next.arrived.iter_mut())
            .zip(parted)
            .enumerate()
            .map(|(index, (((holdings, step), arrived), tallies))| Range {
                index,
                holdings,
                step,
                arrived,
                tallies,
            });
        let load: usize = self.shares.iter().map(Share::load).sum();
        if load < SPAWN {
            return work.map(|r| self.range(r)).collect();
        }
        let mut work = work.peekable();
        let mut groups = Vec::new();
        let size = ranges.div_ceil(threads);
        while work.peek().is_some() {
            groups.push(work.by_ref().take(size).collect::<Vec<_>>());
        }
        let judged: Vec<Vec<Record>> =
            on_threads(groups, |g| g.into_iter().map(|r| self.range(r)).collect());
        judged.into_iter().flatten().collect()
    }

    /// Judges one range's deliveries in sender order (grouping them for
    /// the next slot where the protocol reads them), then its bus writes;
    /// returns what they broke and counted.
    fn range(&self, range: Range<'_, P::Msg>) -> Record {
        let Range {
            index,
            mut holdings,
            step,
            arrived,
            mut tallies,
        } = range;
        let (protocol, slot, task) = (self.protocol, self.slot, self.task);
        let mut record = Record::new(self.claims);
        let sources: Vec<&Bucket<P::Msg>> =
            self.shares.iter().map(|s| &s.buckets[index][..]).collect();
        let lo = (index * self.per) as NodeId;
        let mut judged = 0;
        let mut each = |to: NodeId, a: &Arrival<P::Msg>| {
            judged += 1;
            if !self.budget.spent_at(judged - 1) {
                receive(protocol, slot, task, to, a, &mut holdings, &mut record);
            }
        };
        if self.reads {
            arrived.group(&sources, &mut tallies, lo, self.per, step, &mut each);
        } else {
            for source in &sources {
                source.iter().for_each(|(to, a)| each(*to, a));
            }
        }
        let reads = self.reads;
        let mark = |to: NodeId| {
            if reads {
                set_bit(step, (to - lo) as usize)
            }
        };
        self.writes(index, &mut holdings, &mut record, mark);
        record
    }

    /// Judges a personalised task's deliveries (or a slot whose holdings
    /// do not split) on this thread, in receiver order, each receiver's
    /// in sender order; then the bus writes range by range. `sorted` is
    /// scratch.
    pub(super) fn together(
        &self,
        holdings: &mut Holdings,
        record: &mut Record,
        next: Next<'_, P::Msg>,
        sorted: &mut Sorted<P::Msg>,
    ) {
        let (protocol, slot, task, reads) = (self.protocol, self.slot, self.task, self.reads);
        let Next {
            step,
            arrived,
            tallies,
        } = next;
        let shift = self.per.trailing_zeros();
        for part in arrived.iter_mut() {
            part.clear();
        }
        for (share, tally) in self.shares.iter().zip(tallies.iter_mut()).filter(|_| reads) {
            for (to, _) in share.buckets.iter().flatten() {
                tally[*to as usize] = 0;
            }
        }
        let nodes = self.protocol.topology().nodes() as usize;
        let all = self.shares.iter().flat_map(|s| s.buckets.iter().flatten());
        let deliveries = sorted.by_receiver(nodes, all);
        for (to, a) in self.budget.until_spent(deliveries.iter()) {
            receive(protocol, slot, task, *to, a, holdings, record);
            if reads {
                set_bit(step, *to as usize);
                let part = &mut arrived[(*to >> shift) as usize];
                part.to.push(*to);
                part.msg.push(*a);
            }
        }
        for p in 0..arrived.len() {
            let mark = |to: NodeId| {
                if reads {
                    set_bit(step, to as usize)
                }
            };
            self.writes(p, holdings, record, mark);
        }
    }

    /// Judges the bus writes that reach range `index` (in sender order)
    /// at their receivers in the range, as `receive` would judge one
    /// arrival per receiver, each receiver's in sender order, but decoding
    /// each write's packets once and without an entry per receiver.
    /// `mark` hears each receiver.
    pub(super) fn writes(
        &self,
        index: usize,
        holdings: &mut impl Keep,
        record: &mut Record,
        mut mark: impl FnMut(NodeId),
    ) {
        let (protocol, slot, task) = (self.protocol, self.slot, self.task);
        let topology = protocol.topology();
        let lo = (index * self.per) as NodeId;
        let range = lo..lo + self.per as NodeId;
        let writes = self.shares.iter().flat_map(|s| &s.writes[index]);
        let mut packets = Vec::new();
        for (route, a) in writes {
            // A write may reach a whole line of receivers.
            if self.budget.look() {
                return;
            }
            let (first, step, count) = topology.receivers_run(route).expect("a bus write");
            // The receivers in range, in order: only the terms of the run
            // that fall in it are looked at (a column's write crosses a
            // range at one node of hundreds).
            let ks = within(first, step, count, &range);
            let line = first + ks.start * step..first + ks.end.saturating_sub(1) * step + 1;
            let receivers = ks.map(|k| first + k * step).filter(|&to| to != a.from);
            let (Some(lowest), count) = (receivers.clone().next(), receivers.clone().count())
            else {
                continue;
            };
            if protocol.control(&a.msg) {
                receivers.for_each(|to| record.control_delivery(slot, to));
                continue;
            }
            // Packet by packet: a receiver's violations are noted in the
            // order its one-by-one deliveries would note them (the record
            // keeps the earliest by slot and node), with one bookkeeping
            // call per packet rather than per reception.
            packets.clear();
            protocol.packets(&a.msg, |p| packets.push(p));
            for &p in &packets {
                let origin = task.origin(p);
                let mut run = properties::WriteTally {
                    count: count as u64,
                    lowest,
                    ..Default::default()
                };
                if step == 1 {
                    // A row of consecutive receivers: the packet's bits in
                    // runs (Keep::insert_nodes), the writer and the
                    // packet's origin cut out.
                    let own = origin != a.from && line.contains(&origin);
                    run.own = own.then_some(origin);
                    for nodes in runs_without(line.clone(), [a.from, origin]) {
                        let got = holdings.insert_nodes(nodes, p);
                        run.again = run.again.or(got.again);
                        run.fresh = run.fresh.or(got.fresh);
                    }
                } else {
                    for to in receivers.clone() {
                        if to == origin {
                            run.own = Some(to);
                        } else if !holdings.insert(to, p) {
                            run.again = run.again.or(Some(to));
                        } else {
                            run.fresh = run.fresh.or(Some(to));
                        }
                    }
                }
                record.delivery_run(slot, run, p, a.from);
            }
            receivers.for_each(&mut mark);
        }
    }
}

/// The nodes of `line` but the `cuts`, as at most three runs in order.
pub fn runs_without(
    line: std::ops::Range<NodeId>,
    mut cuts: [NodeId; 2],
) -> impl Iterator<Item = std::ops::Range<NodeId>> {
    cuts.sort_unstable();
    let mut start = line.start;
    let mut runs = [0..0, 0..0, 0..0];
    for (run, cut) in runs.iter_mut().zip(cuts) {
        if line.contains(&cut) && cut >= start {
            *run = start..cut;
            start = cut + 1;
        }
    }
    runs[2] = start..line.end;
    runs.into_iter().filter(|r| !r.is_empty())
}

/// A slot's deliveries put in receiver order, each receiver's in the
/// order given, in buffers kept from slot to slot.
pub struct Sorted<M> {
    deliveries: Vec<(NodeId, Arrival<M>)>,
    /// Per receiver, where its deliveries start (a counting sort).
    starts: Vec<u32>,
}

/// Nothing sorted yet.
impl<M> Default for Sorted<M> {
    fn default() -> Self {
        Sorted {
            deliveries: Vec::new(),
            starts: Vec::new(),
        }
    }
}

impl<M: Copy> Sorted<M> {
    /// The deliveries of `all`, to receivers below `nodes`, in receiver
    /// order, each receiver's in the order of `all`: by counting where a
    /// slot delivers to many of the nodes (total exchange: 12 a node), by
    /// a stable sort where to few (counts per node would cost more).
    pub fn by_receiver<'a>(
        &mut self,
        nodes: usize,
        all: impl Iterator<Item = &'a (NodeId, Arrival<M>)> + Clone,
    ) -> &[(NodeId, Arrival<M>)]
    where
        M: 'a,
    {
        let Sorted { deliveries, starts } = self;
        deliveries.clear();
        let count = all.clone().count();
        let Some(&first) = all.clone().next() else {
            return deliveries;
        };
        if count < nodes / 4 {
            deliveries.extend(all.copied());
            deliveries.sort_by_key(|(to, _)| *to);
            return deliveries;
        }
        starts.clear();
        starts.resize(nodes + 1, 0);
        for (to, _) in all.clone() {
            starts[*to as usize + 1] += 1;
        }
        for v in 1..=nodes {
            starts[v] += starts[v - 1];
        }
        deliveries.resize(count, first);
        for d in all {
            let at = &mut starts[d.0 as usize];
            deliveries[*at as usize] = *d;
            *at += 1;
        }
        deliveries
    }
}

/// The indices k below `count` whose term `first + k * step` lies in
/// `range`.
pub fn within(
    first: NodeId,
    step: u32,
    count: u32,
    range: &std::ops::Range<NodeId>,
) -> std::ops::Range<u32> {
    if step == 0 {
        return match range.contains(&first) {
            true => 0..count,
            false => 0..0,
        };
    }
    // The first k at or past `at`: k * step >= at - first.
    let from = |at: NodeId| at.saturating_sub(first).div_ceil(step).min(count);
    from(range.start)..from(range.end)
}
