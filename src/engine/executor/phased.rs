//! The phased drive ([`super::Drive::Phased`]): the run of a
//! protocol that does not read its arrivals node by node, without
//! inboxes, on several threads. Each slot runs three phases:
//!
//! 1. sending ([`super::sending`]): the active nodes are split into
//!    `threads` contiguous runs, each stepped and judged by `transmit` on
//!    its own thread with its own record and resource bits;
//! 2. folding ([`Phased::fold`]): the threads' records are folded in
//!    node order and relays release;
//! 3. judging ([`super::judging`]): the deliveries are judged by
//!    `receive`, for a broadcast each range of receivers on its own with
//!    its part of the holdings, in sender order (the ranges in as many
//!    consecutive groups as threads, a group to a thread); for a
//!    personalised task (where two receivers of one packet interact) on
//!    one thread in receiver order.
//!
//! Each receiver thus sees its arrivals in the order the inbox drive
//! hands them over, and the record is the same.

use super::arrived::Arrived;
use super::calendar::Calendar;
use super::ending::{Budget, Ending};
use super::judging::{Judging, Next, Sorted};
use super::ledger::BitLedger;
use super::sending::{split, Sending, Share};
use super::{on_threads, set_bit, Run, Watch, Watched};
use crate::engine::release;
use crate::engine::search::Progress;
use models::{Protocol, ProtocolExt, Topology};
use properties::{Claims, Holdings, NodeId, PacketId, Record, Slot, Task};
use std::sync::atomic::Ordering::Relaxed;

/// What stays fixed over a scheduled run: the protocol and its input,
/// task and claims, how many threads send, and how receivers are split
/// into ranges.
struct Plan<'a, P: Protocol> {
    /// The algorithm.
    protocol: &'a P,
    /// The run's input.
    input: &'a P::Input,
    /// What the run must achieve.
    task: Task,
    /// What the paper claims (every record starts from them).
    claims: Claims,
    /// Whether the protocol reads its arrivals.
    reads: bool,
    /// Threads that send, and that judge a busy slot.
    threads: usize,
    /// Receivers per range: a power of two of nodes (whole words).
    per: usize,
    /// How many ranges.
    parts: usize,
}

impl<'a, P: Protocol> Plan<'a, P> {
    /// The plan of a run from `input` on `threads` threads, ranges of at
    /// most `range` receivers (one range for a personalised task), one or
    /// more a thread: small enough that a range's arrivals, scattered by
    /// receiver, stay in a core's cache.
    fn new(protocol: &'a P, input: &'a P::Input, threads: usize, range: usize) -> Self {
        let nodes = protocol.topology().nodes() as usize;
        let task = protocol.task(input);
        let threads = threads.max(1);
        let per = if !task.is_broadcast() {
            nodes.next_power_of_two()
        } else {
            nodes.div_ceil(threads).next_power_of_two().min(range)
        }
        .max(64);
        Plan {
            protocol,
            input,
            claims: protocol.claims_for(input),
            task,
            reads: protocol.reads_arrivals(),
            threads,
            per,
            parts: nodes.div_ceil(per),
        }
    }

    /// Receiver ranges are of 2^shift nodes.
    fn shift(&self) -> u32 {
        self.per.trailing_zeros()
    }
}

/// The state of a scheduled run between slots.
struct Phased<M, S> {
    /// Each node's protocol state.
    states: Vec<S>,
    /// What every node holds, laid out in blocks of a range.
    holdings: Holdings,
    /// What arrived in the last slot, per receiver range.
    arrived: Vec<Arrived<M>>,
    /// The run's record, the threads' folded in node order.
    record: Record,
    /// Per sending thread, what it sent.
    shares: Vec<Share<M>>,
    /// Per sending thread, for a protocol that reads its arrivals: how
    /// many deliveries it made to each receiver this slot (see
    /// `Arrived::group`).
    tallies: Vec<Vec<u32>>,
    /// The nodes stepped this slot, increasing.
    active: Vec<NodeId>,
    /// Nodes waiting for a scheduled send (see `ProtocolExt::wake`).
    calendar: Calendar,
    /// Nodes to step next slot, one bit each: those that asked, and, for
    /// a protocol that reads its arrivals, those that received (a step
    /// that cannot read them has nothing to do for them: it asked to be
    /// woken for its scheduled sends).
    next: Vec<u64>,
    /// Scratch for judging deliveries on one thread.
    deliveries: Sorted<M>,
    /// The packets relays sent on this slot.
    released: Vec<(NodeId, PacketId)>,
    /// The resources every thread took this slot (with more than one).
    taken: Vec<u64>,
}

/// Two threads took one resource in one slot: which transmission is
/// "second" is then the one-thread run's to say.
struct CrossConflict;

impl<P: Protocol> Plan<'_, P> {
    /// Nothing sent yet: every node in its initial state and active.
    fn start(&self, watch: Watch, budget: &Budget) -> Phased<P::Msg, P::State> {
        let (protocol, input, per, parts) = (self.protocol, self.input, self.per, self.parts);
        let topology = protocol.topology();
        let nodes = topology.nodes() as usize;
        let words = topology.resources().div_ceil(64) as usize;
        let states = budget
            .nodes(nodes)
            .map(|v| protocol.init(input, v))
            .collect();
        let holdings = match protocol.holdings_by_packet() {
            true => Holdings::by_packet(&self.task, per as u64),
            false => Holdings::in_blocks(&self.task, per as u64),
        };
        let arrived = (0..parts).map(|_| Arrived::new()).collect();
        let share = || {
            let ledger = BitLedger::new(topology.resources(), watch);
            Share::new(Record::new(&self.claims), ledger, parts)
        };
        let tally = if self.reads { parts * per } else { 0 };
        Phased {
            states,
            holdings,
            arrived,
            record: Record::new(&self.claims),
            shares: (0..self.threads).map(|_| share()).collect(),
            tallies: (0..self.threads).map(|_| vec![0; tally]).collect(),
            active: (0..nodes as NodeId).collect(),
            calendar: Calendar::default(),
            next: vec![0u64; nodes.div_ceil(64)],
            deliveries: Sorted::default(),
            released: Vec::new(),
            taken: vec![0u64; if self.threads > 1 { words } else { 0 }],
        }
    }

    /// Phase 1: the active nodes step and send, a contiguous run of them
    /// a thread.
    fn send(&self, run: &mut Phased<P::Msg, P::State>, slot: Slot, budget: &Budget) {
        let sending = Sending {
            protocol: self.protocol,
            slot,
            task: &self.task,
            holdings: &run.holdings,
            inbox: &run.arrived,
            reads: self.reads,
            shift: self.shift(),
            budget,
        };
        let work = split(
            &mut run.shares,
            &mut run.tallies,
            &run.active,
            &mut run.states,
        );
        on_threads(work, |senders| sending.send(senders));
    }

    /// Phase 2: the threads' records folded in node order, the nodes that
    /// asked to be stepped noted, and relays' packets released; fails if
    /// two threads took one resource.
    fn fold(
        &self,
        run: &mut Phased<P::Msg, P::State>,
        progress: &Progress,
    ) -> Result<(), CrossConflict> {
        for w in run.taken.iter_mut() {
            *w = 0;
        }
        for share in run.shares.iter_mut() {
            if self.threads > 1 {
                for w in share.ledger.words_set() {
                    if run.taken[w] & share.ledger.bits[w] != 0 {
                        return Err(CrossConflict);
                    }
                    run.taken[w] |= share.ledger.bits[w];
                }
            }
            run.record.merge(&share.record);
            share.record = Record::new(&self.claims);
            run.released.append(&mut share.released);
            for &v in &share.again {
                set_bit(&mut run.next, v as usize);
            }
            share.again.clear();
            run.calendar.take(&mut share.later);
            if share.stepped >= 65536 {
                progress.generated.fetch_add(share.stepped, Relaxed);
                share.stepped = 0;
            }
        }
        release(&mut run.holdings, &mut run.released);
        Ok(())
    }

    /// Phase 3: the slot's deliveries judged, by range where the holdings
    /// split, else on this thread; returns true if nothing was sent.
    fn judge(&self, run: &mut Phased<P::Msg, P::State>, slot: Slot, budget: &Budget) -> bool {
        let judging = Judging {
            protocol: self.protocol,
            slot,
            task: &self.task,
            claims: &self.claims,
            shares: &run.shares,
            reads: self.reads,
            per: self.per,
            budget,
        };
        let quiet = judging.quiet();
        let next = Next {
            step: &mut run.next,
            arrived: &mut run.arrived,
            tallies: &mut run.tallies,
        };
        match run.holdings.parts(self.per as u32).filter(|_| !quiet) {
            Some(parts) => {
                for r in &judging.in_ranges(parts, next, self.threads) {
                    run.record.merge(r);
                }
            }
            None => judging.together(
                &mut run.holdings,
                &mut run.record,
                next,
                &mut run.deliveries,
            ),
        }
        for share in run.shares.iter_mut() {
            share.clear_sent();
        }
        quiet
    }
}

impl<M, S> Phased<M, S> {
    /// The nodes stepped in the slot after `slot`: those marked in
    /// `next`, with those whose wake-up is due; true if none is left
    /// anywhere, not even in the calendar.
    fn advance(&mut self, slot: Slot) -> bool {
        let next = &mut self.next;
        self.calendar.due(slot + 1, |v| set_bit(next, v as usize));
        self.active.clear();
        for (i, w) in self.next.iter_mut().enumerate() {
            while *w != 0 {
                self.active.push((i * 64) as NodeId + w.trailing_zeros());
                *w &= *w - 1;
            }
        }
        self.active.is_empty() && self.calendar.is_empty()
    }
}

/// The run in the phased drive, on `threads` threads with receiver
/// ranges of at most `range` nodes (see the module header). Returns None
/// when two threads took one resource in one slot: which transmission is
/// "second" is then the one-thread run's to say.
pub(super) fn execute<P: Protocol>(
    protocol: &P,
    input: &P::Input,
    watch: Watch,
    progress: &Progress,
    threads: usize,
    range: usize,
) -> Option<Watched> {
    let plan = Plan::new(protocol, input, threads, range);
    let ending = Ending::new(protocol, input, &plan.task, &plan.claims, progress);
    let budget = &ending.budget;
    let mut run = plan.start(watch, budget);
    if let Some(run) = ending.unstarted(&plan.claims) {
        return Some((run, None));
    }
    let (slot, cut) = ending.run_slots(|slot| {
        plan.send(&mut run, slot, budget);
        plan.fold(&mut run, progress).ok()?;
        let quiet = plan.judge(&mut run, slot, budget);
        let idle = run.advance(slot) && quiet;
        let judge = ending.judge(&run.states);
        Some(ending.ended(judge, &mut run.record, &run.holdings, slot, idle))
    })?;
    let holder = run.shares.iter_mut().find_map(|s| s.ledger.holder.take());
    Some((
        Run {
            record: run.record,
            slots: slot,
            cut,
        },
        holder,
    ))
}
