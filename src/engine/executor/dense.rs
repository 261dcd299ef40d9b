//! The dense drive ([`super::Drive::Dense`]): the inbox drive at a few
//! bytes a node, for protocols that give 16-bit codes of their states and
//! arrivals ([`ProtocolExt::packs`](models::ProtocolExt::packs)). At 2^30 nodes a byte a node is a
//! gigabyte; this drive keeps per node
//!
//! * its state's code (2 bytes),
//! * this slot's and the next slot's inbox, an arrival's code each (4),
//! * bits: to step this slot, to step next slot, and per lane (below)
//!   received this slot ([`models::PACKED_NODE_BITS`] in all, with at
//!   most [`LANES`] lanes),
//!
//! with the holdings (a bit per node and packet) and a bit per resource.
//! What has no code is kept whole, aside: a state in a map, an arrival in
//! the overflow list, where a second arrival in a slot goes too (a
//! contention-free single-source broadcast has none) unless the protocol
//! merges it into the first one's code ([`ProtocolExt::merge_arrival`](models::ProtocolExt::merge_arrival):
//! flooding, whose node hears a copy from every nearer neighbour). The steps, the
//! judging by [`transmit`] and [`receive`] and the order of both are the
//! inbox drive's, so the runs are the same (a test compares every drive).
//!
//! The nodes are split into contiguous lanes, one a thread, that step and
//! send at once; the deliveries are then judged on one thread. Lanes meet
//! only in the next slot's inboxes and the resource bits, which are
//! atomic. What would make the order of their sends matter (two arrivals
//! at one node, a resource taken twice, any violation) gives the run up
//! to one lane, which decides it as the inbox drive would.
//!
//! A code may drop an arrival's sender where `step` does not read it. The
//! two violations that name a sender (a duplicate, an own packet) are
//! then named by a replay ([`execute`]'s `exact`) that keeps the
//! deliveries to that node in that slot whole.

use super::calendar::Calendar;
use super::ending::{Budget, Ending};
use super::{on_threads, set_bit, Run, Watch, Watched};
use crate::engine::memory::huge;
use crate::engine::search::Progress;
use crate::engine::{judge_results, receive, release, transmit, Judge, Ledger, Post};
use models::{Arrival, Protocol, ProtocolExt, Topology, NO_CODE};
use properties::{Holdings, Keep, NodeId, PacketId, Record, ResourceId, Route, Slot};
use std::collections::HashMap;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64};

/// The most lanes: each costs a bit a node.
pub const LANES: usize = 4;

/// A state kept whole, aside.
pub(super) const ASIDE: u16 = NO_CODE;
/// An empty inbox: an inbox holds its arrival's code plus one, so that
/// fresh zeroed memory is empty inboxes.
pub const EMPTY: u16 = 0;
/// An inbox whose first arrival is kept whole, aside.
pub const SPILLED: u16 = u16::MAX;

/// What a slot delivers: per node its first arrival's code; the arrivals
/// without one, and every further arrival, in the overflow list (in send
/// order, then grouped by receiver once judged).
struct Mail<M> {
    /// Per node, [`EMPTY`], its first arrival's code plus one, or
    /// [`SPILLED`] (its
    /// first arrival is the first of its overflow).
    codes: Vec<AtomicU16>,
    /// The arrivals kept whole, with their receivers.
    overflow: Vec<(NodeId, Arrival<M>)>,
}

/// The resource bits of a slot, shared by the lanes.
struct Resources {
    /// A bit per resource.
    bits: Vec<AtomicU64>,
    /// True if some lane's list of the words it set overflowed: every word
    /// is cleared.
    all: AtomicBool,
}

/// One lane's part of a slot: what its senders broke and counted, and
/// what it keeps for the slot's end.
struct Lane<M, S> {
    /// Its nodes' states that have no code.
    aside: HashMap<NodeId, S>,
    /// What its senders broke and counted this slot.
    record: Record,
    /// Packets its relays sent on.
    released: Vec<(NodeId, PacketId)>,
    /// Arrivals it posted whole, in send order.
    overflow: Vec<(NodeId, Arrival<M>)>,
    /// Nodes that asked to be stepped in a later slot than the next.
    later: Vec<(Slot, NodeId)>,
    /// The resource words it set (at most one in 64 of them).
    taken: Vec<usize>,
    /// A bit per node its senders delivered to this slot (a lane's own, so
    /// that setting one takes no atomic operation: a bit per node a lane).
    got: Vec<u64>,
    /// True if a second arrival reached a node while lanes ran at once.
    crowded: bool,
    /// The watched resource's first holder, once taken.
    holder: Option<Route>,
    /// Steps not yet counted in the progress.
    stepped: u64,
}

impl<M, S> Lane<M, S> {
    fn new(record: Record, words: usize) -> Self {
        Lane {
            got: vec![0; words],
            aside: HashMap::new(),
            record,
            released: Vec::new(),
            overflow: Vec::new(),
            later: Vec::new(),
            taken: Vec::new(),
            crowded: false,
            holder: None,
            stepped: 0,
        }
    }
}

/// A lane's hold on the shared resource bits ([`Ledger`]).
struct Taking<'a> {
    /// The bits.
    resources: &'a Resources,
    /// The words this lane set.
    taken: &'a mut Vec<usize>,
    /// The slot being judged and the watched (slot, resource).
    slot: Slot,
    watch: Watch,
    /// The watched resource's first holder.
    holder: &'a mut Option<Route>,
}

impl Ledger for Taking<'_> {
    #[inline]
    fn take(&mut self, r: ResourceId, route: Route) -> Result<(), Option<Route>> {
        let (w, m) = ((r / 64) as usize, 1u64 << (r % 64));
        if self.watch == Some((self.slot, r)) && self.holder.is_none() {
            *self.holder = Some(route);
        }
        let word = &self.resources.bits[w];
        let old = word.fetch_or(m, Relaxed);
        if old & m != 0 {
            return Err(None);
        }
        if old == 0 {
            match self.taken.len() < self.resources.bits.len() / 64 {
                true => self.taken.push(w),
                false => self.resources.all.store(true, Relaxed),
            }
        }
        Ok(())
    }
}

/// Where [`transmit`] posts a lane's deliveries: the next slot's inboxes,
/// a bit per receiver, and the lane's overflow.
struct Posting<'a, P: Protocol> {
    /// The algorithm, which codes arrivals.
    protocol: &'a P,
    /// The run's input.
    input: &'a P::Input,
    /// The next slot's inboxes.
    codes: &'a [AtomicU16],
    /// A bit per node the lane delivered to this slot.
    got: &'a mut [u64],
    /// The lane's arrivals kept whole.
    overflow: &'a mut Vec<(NodeId, Arrival<P::Msg>)>,
    /// Set if a node receives twice (which lane was first would matter).
    crowded: &'a mut bool,
    /// Receivers whose deliveries this slot are kept whole (see `exact`).
    whole: &'a [NodeId],
}

impl<P: Protocol> Post<P::Msg> for Posting<'_, P> {
    #[inline]
    fn deliver(&mut self, to: NodeId, a: Arrival<P::Msg>) {
        let (p, input) = (self.protocol, self.input);
        let kept = !self.whole.contains(&to);
        let code = kept.then(|| p.pack_arrival(input, to, &a)).flatten();
        let code = code.filter(|&c| c < NO_CODE).map_or(SPILLED, |c| c + 1);
        let entry = &self.codes[to as usize];
        let mut seen = match entry.compare_exchange(EMPTY, code, Relaxed, Relaxed) {
            Ok(_) => {
                set_bit(self.got, to as usize);
                if code == SPILLED {
                    self.overflow.push((to, a));
                }
                return;
            }
            Err(seen) => seen,
        };
        // A further arrival joins the inbox's code if the protocol merges
        // them; if not, the code's arrivals go whole ahead of it, so that
        // no later arrival joins a code this one would follow.
        while seen != SPILLED {
            let merged = p.merge_arrival(input, to, seen - 1, &a);
            let now = merged.filter(|&c| c < NO_CODE).map_or(SPILLED, |c| c + 1);
            match entry.compare_exchange(seen, now, Relaxed, Relaxed) {
                Ok(_) if now != SPILLED => return,
                Ok(_) => {
                    let mut heard = Vec::new();
                    p.unpack_arrivals(input, to, seen - 1, &mut heard);
                    self.overflow.extend(heard.into_iter().map(|h| (to, h)));
                    break;
                }
                Err(again) => seen = again,
            }
        }
        *self.crowded = true;
        self.overflow.push((to, a));
    }
}

/// What every lane reads in a slot.
struct Sending<'a, P: Protocol> {
    protocol: &'a P,
    input: &'a P::Input,
    slot: Slot,
    task: &'a properties::Task,
    holdings: &'a Holdings,
    /// This slot's inboxes (each lane takes only its nodes').
    mail: &'a Mail<P::Msg>,
    /// The next slot's inboxes.
    next_codes: &'a [AtomicU16],
    resources: &'a Resources,
    watch: Watch,
    whole: &'a [NodeId],
    budget: &'a Budget<'a>,
}

/// One lane's nodes: their bits to step now and next, their state codes,
/// and the first node.
struct Nodes<'a> {
    now: &'a mut [u64],
    next: &'a mut [u64],
    states: &'a mut [u16],
    base: usize,
}

impl<P: Protocol> Sending<'_, P> {
    /// Steps a lane's nodes in order and judges what each sends.
    fn send(&self, lane: &mut Lane<P::Msg, P::State>, nodes: Nodes<'_>) {
        let Sending {
            protocol: p,
            input,
            slot,
            ..
        } = *self;
        let Nodes {
            now,
            next,
            states,
            base,
        } = nodes;
        let overflow = &self.mail.overflow;
        let first = overflow.partition_point(|(to, _)| (*to as usize) < base);
        let mut over = overflow[first..].iter().peekable();
        let (mut arrivals, mut out) = (Vec::new(), Vec::new());
        for (i, word) in self.budget.until_spent_by(now.iter_mut().enumerate(), 64) {
            while *word != 0 {
                let v = base + i * 64 + word.trailing_zeros() as usize;
                *word &= *word - 1;
                let node = v as NodeId;
                arrivals.clear();
                // Only this lane reads its nodes' inboxes: no atomic swap.
                let inbox = &self.mail.codes[v];
                let code = inbox.load(Relaxed);
                inbox.store(EMPTY, Relaxed);
                match code {
                    EMPTY | SPILLED => {}
                    code => p.unpack_arrivals(input, node, code - 1, &mut arrivals),
                }
                while let Some((_, a)) = over.next_if(|(to, _)| *to == node) {
                    arrivals.push(*a);
                }
                lane.stepped += 1;
                let cell = &mut states[v - base];
                let mut state = match *cell {
                    ASIDE => lane.aside.remove(&node).expect("a state kept aside"),
                    code => p.unpack_state(input, node, code),
                };
                out.clear();
                if p.step(node, &mut state, slot, &arrivals, 0, &mut out) {
                    match p.wake(&state, slot) {
                        w if w <= slot + 1 => set_bit(next, v - base),
                        w => lane.later.push((w, node)),
                    }
                }
                *cell = pack(p, input, node, state, &mut lane.aside);
                if out.is_empty() {
                    continue;
                }
                let judge = &mut Judge {
                    protocol: p,
                    slot,
                    task: self.task,
                    holdings: self.holdings,
                    record: &mut lane.record,
                    ledger: &mut Taking {
                        resources: self.resources,
                        taken: &mut lane.taken,
                        slot,
                        watch: self.watch,
                        holder: &mut lane.holder,
                    },
                    released: &mut lane.released,
                    faults: p.faults(input),
                };
                let posting = Posting {
                    protocol: p,
                    input,
                    codes: self.next_codes,
                    got: &mut lane.got,
                    overflow: &mut lane.overflow,
                    crowded: &mut lane.crowded,
                    whole: self.whole,
                };
                transmit(judge, node, &out, posting);
            }
        }
    }
}

/// `node`'s state as its code, or [`ASIDE`] with the state kept whole in
/// `aside`.
pub(super) fn pack<P: Protocol>(
    p: &P,
    input: &P::Input,
    node: NodeId,
    state: P::State,
    aside: &mut HashMap<NodeId, P::State>,
) -> u16 {
    match p.pack_state(input, node, &state).filter(|&c| c < ASIDE) {
        Some(code) => code,
        None => {
            aside.insert(node, state);
            ASIDE
        }
    }
}

/// What judging a slot's deliveries reads: the slot, its inboxes and
/// overflow (grouped by receiver).
struct Receiving<'a, P: Protocol> {
    protocol: &'a P,
    input: &'a P::Input,
    slot: Slot,
    task: &'a properties::Task,
    codes: &'a [AtomicU16],
    overflow: &'a [(NodeId, Arrival<P::Msg>)],
    budget: &'a Budget<'a>,
}

impl<P: Protocol> Receiving<'_, P> {
    /// Judges the deliveries to the receivers in `got` (bits of nodes
    /// from word `base` on, cleared here), receiver by receiver, each
    /// one's first arrival before its overflow (in the order sent).
    fn judge(&self, got: &mut [u64], base: usize, keep: &mut impl Keep, record: &mut Record) {
        let (p, input, slot, task) = (self.protocol, self.input, self.slot, self.task);
        let first = self
            .overflow
            .partition_point(|(to, _)| (*to as usize) < base * 64);
        let mut over = self.overflow[first..].iter().peekable();
        let mut heard = Vec::new();
        for (i, word) in self.budget.until_spent_by(got.iter_mut().enumerate(), 64) {
            let mut w = std::mem::take(word);
            while w != 0 {
                let node = ((base + i) * 64) as NodeId + w.trailing_zeros();
                w &= w - 1;
                if let code @ 1..=NO_CODE = self.codes[node as usize].load(Relaxed) {
                    heard.clear();
                    p.unpack_arrivals(input, node, code - 1, &mut heard);
                    for a in &heard {
                        receive(p, slot, task, node, a, keep, record);
                    }
                }
                while let Some((to, a)) = over.next_if(|(to, _)| *to == node) {
                    receive(p, slot, task, *to, a, keep, record);
                }
            }
        }
    }
}

/// Splits `v` into one part a lane, at `bounds` (word indices) times
/// `per` (64 for a node's items, 1 for its bit words).
fn lanes_of<'a, T>(bounds: &[usize], per: usize, mut v: &'a mut [T]) -> Vec<&'a mut [T]> {
    let mut parts = Vec::with_capacity(bounds.len() - 1);
    for w in bounds.windows(2) {
        let len = ((w[1] - w[0]) * per).min(v.len());
        let (part, rest) = std::mem::take(&mut v).split_at_mut(len);
        parts.push(part);
        v = rest;
    }
    parts
}

/// Splits the node bits and states into one part a lane, at `bounds`.
fn split<'a>(
    bounds: &[usize],
    now: &'a mut [u64],
    next: &'a mut [u64],
    states: &'a mut [u16],
) -> Vec<Nodes<'a>> {
    let now = lanes_of(bounds, 1, now);
    let next = lanes_of(bounds, 1, next);
    let states = lanes_of(bounds, 64, states);
    let parts = now.into_iter().zip(next).zip(states).zip(bounds);
    parts
        .map(|(((now, next), states), &w)| Nodes {
            now,
            next,
            states,
            base: w * 64,
        })
        .collect()
}

/// The run in the dense drive (see the module header) on `lanes` threads;
/// the deliveries of slot `s` to node `v` are kept whole for each `(s, v)`
/// in `exact`. None if the lanes met (see the module header): the run is
/// then one lane's to decide.
pub(super) fn execute<P: Protocol>(
    protocol: &P,
    input: &P::Input,
    watch: Watch,
    exact: &[(Slot, NodeId)],
    progress: &Progress,
    lanes: usize,
) -> Option<Watched> {
    let topology = protocol.topology();
    let nodes = topology.nodes() as usize;
    let words = nodes.div_ceil(64);
    // Lanes of a power of two of nodes (whole words), so that each judges
    // its receivers with its own part of the holdings.
    let per = nodes
        .div_ceil(lanes.clamp(1, LANES))
        .next_power_of_two()
        .max(64);
    let lanes = nodes.div_ceil(per);
    let task = protocol.task(input);
    let claims = protocol.claims_for(input);
    let ending = Ending::new(protocol, input, &task, &claims, progress);
    // Lane i steps words bounds[i]..bounds[i+1].
    let bounds: Vec<usize> = (0..=lanes).map(|i| (i * per / 64).min(words)).collect();
    let mut lane: Vec<Lane<P::Msg, P::State>> = (0..lanes)
        .map(|_| Lane::new(Record::new(&claims), words))
        .collect();

    let mut states = huge::<u16>(nodes);
    let inits = lanes_of(&bounds, 64, &mut states);
    let inits: Vec<_> = inits
        .into_iter()
        .zip(&bounds)
        .zip(lane.iter_mut())
        .collect();
    let budget = &ending.budget;
    on_threads(inits, |((cells, &w), lane)| {
        for (i, cell) in budget.until_spent(cells.iter_mut().enumerate()) {
            let v = (w * 64 + i) as NodeId;
            *cell = pack(protocol, input, v, protocol.init(input, v), &mut lane.aside);
        }
    });
    if let Some(run) = ending.unstarted(&claims) {
        return Some((run, None));
    }
    let mut holdings = match protocol.holdings_by_packet() {
        true => Holdings::by_packet(&task, per as u64),
        false => Holdings::in_blocks(&task, per as u64),
    };
    let mut record = Record::new(&claims);
    let empty = || Mail {
        codes: huge(nodes),
        overflow: Vec::new(),
    };
    let (mut mail, mut next_mail) = (empty(), empty());
    // A bit per node to step this slot (every node in slot 1) and next.
    let mut now = vec![u64::MAX; words];
    if !nodes.is_multiple_of(64) {
        now[words - 1] = (1 << (nodes % 64)) - 1;
    }
    let mut next = vec![0u64; words];
    // Nodes that asked to be stepped in a later slot than the next.
    let mut calendar = Calendar::default();
    let mut resources = Resources {
        bits: huge(topology.resources().div_ceil(64) as usize),
        all: AtomicBool::new(false),
    };
    let mut released = Vec::new();
    let mut whole = Vec::new();
    let mut met = false;
    let (slot, cut) = ending.run_slots(|slot| {
        // Free what the last slot took: every word on every lane (a plain
        // write, no lane running) if some lane's list ran over.
        let all = std::mem::take(resources.all.get_mut());
        let bits = &mut resources.bits;
        for l in lane.iter_mut() {
            match all {
                true => l.taken.clear(),
                false => l.taken.drain(..).for_each(|w| *bits[w].get_mut() = 0),
            }
        }
        if all {
            let per = bits.len().div_ceil(lanes);
            on_threads(bits.chunks_mut(per).collect(), |part| {
                part.iter_mut().for_each(|w| *w.get_mut() = 0)
            });
        }
        whole.clear();
        whole.extend(exact.iter().filter(|e| e.0 == slot).map(|e| e.1));
        let sending = Sending {
            protocol,
            input,
            slot,
            task: &task,
            holdings: &holdings,
            mail: &mail,
            next_codes: &next_mail.codes,
            resources: &resources,
            watch,
            whole: &whole,
            budget,
        };
        let parts = split(&bounds, &mut now, &mut next, &mut states);
        let work: Vec<_> = parts.into_iter().zip(lane.iter_mut()).collect();
        on_threads(work, |(part, lane)| sending.send(lane, part));
        for l in lane.iter_mut() {
            met |= lanes > 1 && (l.crowded || l.record.any_violation());
            record.merge(&l.record);
            l.record = Record::new(&claims);
            released.append(&mut l.released);
            next_mail.overflow.append(&mut l.overflow);
            calendar.take(&mut l.later);
            progress
                .generated
                .fetch_add(std::mem::take(&mut l.stepped), Relaxed);
        }
        if met {
            return None;
        }
        release(&mut holdings, &mut released);
        // The slot's receivers, every lane's, in the first lane's bits.
        let (first, others) = lane.split_first_mut().expect("a lane at least");
        let got = &mut first.got;
        for l in others {
            got.iter_mut()
                .zip(&mut l.got)
                .for_each(|(w, o)| *w |= std::mem::take(o));
        }
        next.iter_mut().zip(got.iter()).for_each(|(n, g)| *n |= g);
        let quiet = got.iter().all(|&w| w == 0);
        next_mail.overflow.sort_by_key(|(to, _)| *to);
        let receiving = Receiving {
            protocol,
            input,
            slot,
            task: &task,
            codes: &next_mail.codes,
            overflow: &next_mail.overflow,
            budget,
        };
        match holdings.parts(per as u32).filter(|_| !quiet) {
            // A lane's receivers at a time, the records merged in node
            // order (as one thread would have noted them).
            Some(parts) => {
                let gots = lanes_of(&bounds, 1, got);
                let work = parts.into_iter().zip(gots).zip(&bounds).collect();
                let records = on_threads(work, |((mut part, got), &w)| {
                    let mut r = Record::new(&claims);
                    receiving.judge(got, w, &mut part, &mut r);
                    r
                });
                records.iter().for_each(|r| record.merge(r));
            }
            None => receiving.judge(got, 0, &mut holdings, &mut record),
        }
        std::mem::swap(&mut mail, &mut next_mail);
        next_mail.overflow.clear();
        calendar.due(slot + 1, |node| set_bit(&mut next, node as usize));
        std::mem::swap(&mut now, &mut next);
        let idle = quiet && calendar.is_empty() && now.iter().all(|&w| w == 0);
        // The results judged a lane at a time, the records merged in
        // node order (as one thread would have noted them).
        let judge = |record: &mut Record| {
            let work = bounds.windows(2).zip(&lane).collect();
            let parts = on_threads(work, |(w, lane)| {
                let mut part = Record::new(&claims);
                let nodes = budget.until_spent(w[0] * 64..(w[1] * 64).min(nodes));
                let nodes = nodes.map(|v| {
                    let node = v as NodeId;
                    let state = match states[v] {
                        ASIDE => lane.aside[&node].clone(),
                        code => protocol.unpack_state(input, node, code),
                    };
                    (node, state)
                });
                judge_results(protocol, input, nodes, &mut part);
                part
            });
            parts.iter().for_each(|part| record.merge(part));
        };
        Some(ending.ended(judge, &mut record, &holdings, slot, idle))
    })?;
    let holder = lane.iter_mut().find_map(|l| l.holder.take());
    Some((
        Run {
            record,
            slots: slot,
            cut,
        },
        holder,
    ))
}

/// The (slot, receiver) of each violation in `record` that names a
/// sender a code dropped (the receiver stands in for it): [`execute`]
/// keeps those deliveries whole when it replays.
pub(super) fn senders_named(record: &Record) -> Vec<(Slot, NodeId)> {
    use properties::{PropertyName, Violation};
    PropertyName::ALL
        .iter()
        .filter_map(|&p| match record.violation(p)? {
            Violation::Duplicate {
                slot, node, from, ..
            }
            | Violation::OwnPacket {
                slot, node, from, ..
            } if from == node => Some((slot, node)),
            _ => None,
        })
        .collect()
}
