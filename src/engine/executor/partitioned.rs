//! The executor over MPI ranks (`--features mpi`, under `mpirun`): one
//! run of every rank of the group, each rank stepping its own block of
//! nodes (docs/scale.md, "Over MPI ranks").
//!
//! Rank r of R owns the nodes `r * per .. (r + 1) * per`, `per` = nodes /
//! R rounded up: on the cube, with R a power of two, the subcube its high
//! dimensions name; on a grid or mesh-bus (numbered by rows) a block of
//! rows; in a graph file a block of its nodes. It owns the resources
//! numbered in the same share of their range.
//!
//! In slot t each rank steps its active nodes in order and judges what
//! they send by [`transmit`], as the inbox drive does. A delivery to a
//! node of its own goes to its next inbox; one to another rank's node is
//! written into that rank's batch, a resource of another rank into its
//! claims. The batches are exchanged ([`World::exchange`]); each rank
//! places the deliveries to its nodes in the order one process would have
//! made them (by sending rank, then in send order: a node's arrivals reach
//! its step in that order), and judges them by [`receive`], receiver by
//! receiver, with its own nodes' holdings.
//!
//! A broadcast's holdings are by node: a rank keeps its own nodes' bits
//! alone. A personalised task (total exchange, scatter) keeps its holdings by
//! packet, not by node: who holds a packet in transit is the whole
//! network's fact. Each rank then keeps the whole holdings, and every
//! rank's batch goes to every rank, which judges every delivery in the
//! same order (the others' with a scratch record), so that every copy of
//! the holdings is the one process's.
//!
//! Every violation is noted at one node, the sender's or the receiver's,
//! by the rank that owns it and in one process's order there; the
//! records merged in rank order keep one process's first violation of
//! each property. Except contention: which of two worms took an arc
//! first, and the most takers of one, are the whole network's. A conflict
//! (or a resource claimed from two ranks), or a copy received again where
//! codes may have dropped its sender, gives the run up on every rank at
//! once; rank 0 then runs it alone, as one process ([`super::drive`]), so
//! that the report is the one-process run's, violation and all. A run
//! with faults is run so too. A contention-free run is never given up.
//!
//! Every decision is collective: a rank ends, cuts or gives up only when
//! every rank does ([`World::max`]), and rank 0 hands every rank the
//! merged [`Run`], so that every rank goes on the same way.

use super::calendar::Calendar;
use super::dense::{pack, ASIDE};
pub use super::dense::{EMPTY, SPILLED};
use super::ending::Budget;
use super::ledger::BitLedger;
use super::{set_bit, Run};
use crate::engine::group::{amount, wire, World};
use crate::engine::memory::peak_resident;
use crate::engine::search::{Cut, Progress};
use crate::engine::{horizon, judge_results, receive, release, transmit, Judge, Ledger};
use models::{Arrival, Protocol, ProtocolExt, Topology, NO_CODE};
use properties::{Holdings, NodeId, PacketId, PropertyName, Record, ResourceId, Route, Slot, Task};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;

/// The run of `protocol` from `input` over the ranks of `world`: the same
/// [`Run`] on every rank, the one one process would make.
pub(super) fn execute<P: Protocol>(
    world: &World,
    protocol: &P,
    input: &P::Input,
    progress: &Progress,
) -> Run {
    let shared = match protocol.faults(input) {
        Some(_) => None,
        None => slots(world, protocol, input, progress),
    };
    shared.unwrap_or_else(|| {
        let alone = (world.rank == 0).then(|| {
            eprintln!(
                "note: the run is decided by rank 0 alone ({}; docs/scale.md)",
                match protocol.faults(input) {
                    Some(_) => "a run with faults",
                    None => "a conflict, or a copy received again whose sender a code dropped",
                }
            );
            let drive = super::Drive::best(protocol, super::cores());
            super::drive_here(protocol, input, progress, drive)
        });
        world.from_first(alone)
    })
}

/// Where a sending rank puts an arrival in its order: (rank, position in
/// the rank's sends). The first arrival a node's inbox code holds came
/// first.
pub type Key = (u32, u64);

/// A delivery with its receiver and its place in the order.
pub type Entry<M> = (NodeId, Key, Arrival<M>);

/// A rank's nodes' states: their codes ([`ProtocolExt::packs`](models::ProtocolExt::packs)), the ones
/// without a code kept aside, or every state whole.
enum Cells<S> {
    Codes(Vec<u16>, HashMap<NodeId, S>),
    Whole(Vec<S>),
}

impl<S> Cells<S> {
    /// Steps node `v` (the `i`th of the rank) with `f` on its state.
    fn with<P: Protocol<State = S>, R>(
        &mut self,
        p: &P,
        input: &P::Input,
        v: NodeId,
        i: usize,
        f: impl FnOnce(&mut S) -> R,
    ) -> R {
        match self {
            Cells::Whole(states) => f(&mut states[i]),
            Cells::Codes(codes, aside) => {
                let mut state = match codes[i] {
                    ASIDE => aside.remove(&v).expect("a state kept aside"),
                    code => p.unpack_state(input, v, code),
                };
                let r = f(&mut state);
                codes[i] = pack(p, input, v, state, aside);
                r
            }
        }
    }
}

/// What a slot delivers to a rank's nodes: per node a code of its first
/// arrivals (plus one; [`EMPTY`], or [`SPILLED`] when they are all kept
/// whole), the others whole with their place in the order.
///
/// A node's code holds arrivals that come, in one process's order, before
/// every arrival of the node kept whole. A rank places its own deliveries
/// first (it makes them while stepping), then the others' by rank and send
/// order; one process's order puts the lower ranks' before its own. So a
/// lower rank's arrival that the code cannot take ([`ProtocolExt::merge_arrival`](models::ProtocolExt::merge_arrival))
/// sends the code's arrivals to the overflow, whole, and goes there too.
pub struct Mail<M> {
    /// This rank.
    me: u32,
    /// Per node, as in the dense drive (empty if the protocol has no codes).
    pub codes: Vec<u16>,
    /// A bit per node: it received this slot.
    got: Vec<u64>,
    /// A bit per node: its code holds an arrival from this rank.
    local: Vec<u64>,
    /// A bit per node: an arrival came after its code and is kept whole, so
    /// no later one may join the code.
    tail: Vec<u64>,
    /// The arrivals kept whole, grouped by receiver and ordered by key once
    /// the slot's deliveries are all in.
    pub overflow: Vec<Entry<M>>,
    /// A code's arrivals, being sent to the overflow.
    spill: Vec<Arrival<M>>,
}

impl<M: Copy> Mail<M> {
    pub fn new(me: usize, codes: bool, own: usize) -> Self {
        Mail {
            me: me as u32,
            codes: vec![EMPTY; if codes { own } else { 0 }],
            got: vec![0; own.div_ceil(64)],
            local: vec![0; own.div_ceil(64)],
            tail: vec![0; own.div_ceil(64)],
            overflow: Vec::new(),
            spill: Vec::new(),
        }
    }

    /// Puts the arrival `a` (with its code, if it has one) to the rank's
    /// `i`th node, node `v`, in its place `key` (this rank sent it if
    /// [`local_key`] made the key); `rank_of` names a sender's rank as a
    /// key does. False if a code whose arrivals must go whole dropped a
    /// sender of several: their places are unknown, and the run is given
    /// up (no protocol of the catalogue merges codes that drop senders).
    pub fn place<P: Protocol<Msg = M>>(
        &mut self,
        p: &P,
        input: &P::Input,
        (v, i): (NodeId, usize),
        (key, a, code): (Key, Arrival<M>, Option<u16>),
        rank_of: impl Fn(NodeId) -> u32,
    ) -> bool {
        let local = key.0 == local_key(0).0;
        let (w, m) = (i / 64, 1u64 << (i % 64));
        let first = self.got[w] & m == 0;
        self.got[w] |= m;
        if self.codes.is_empty() {
            self.overflow.push((v, key, a));
            return true;
        }
        let code = code.filter(|&c| c < NO_CODE);
        if first {
            if local {
                self.local[w] |= m;
            }
            self.first(i, v, key, a, code);
            return true;
        }
        let held = self.codes[i];
        if held == SPILLED {
            self.overflow.push((v, key, a));
            return true;
        }
        if self.tail[w] & m == 0 {
            if let Some(c) = p
                .merge_arrival(input, v, held - 1, &a)
                .filter(|&c| c < NO_CODE)
            {
                self.codes[i] = c + 1;
                return true;
            }
        }
        let before_own = self.local[w] & m != 0 && !local && key.0 < self.me;
        self.tail[w] |= m;
        if !before_own {
            self.overflow.push((v, key, a));
            return true;
        }
        // The code's arrivals go whole, each keyed by its sender's rank
        // (sorted stably, they keep the code's order), and `a` after them:
        // the code may hold lower ranks' arrivals that come before it.
        self.spill.clear();
        p.unpack_arrivals(input, v, held - 1, &mut self.spill);
        let single = self.spill.len() == 1;
        for b in self.spill.drain(..) {
            let rank = match b.from {
                from if from != v => rank_of(from),
                _ if single => local_key(0).0,
                _ => return false,
            };
            self.overflow.push((v, (rank, 0), b));
        }
        self.codes[i] = SPILLED;
        self.overflow.push((v, key, a));
        true
    }

    /// Makes `a` node `i`'s first arrival.
    fn first(&mut self, i: usize, v: NodeId, key: Key, a: Arrival<M>, code: Option<u16>) {
        match code {
            Some(c) => self.codes[i] = c + 1,
            None => {
                self.codes[i] = SPILLED;
                self.overflow.push((v, key, a));
            }
        }
    }

    /// Orders the arrivals kept whole by receiver, then as one process
    /// delivers them (stably: a code's spilled arrivals keep its order).
    pub fn sort(&mut self) {
        let me = self.me as usize;
        self.overflow
            .sort_by_key(|&(to, key, _)| (to, in_order(me, key)));
    }

    /// Ready for the next slot: the bits cleared, what was received handed
    /// to `next` (the nodes to step).
    fn clear_bits(&mut self, next: &mut [u64]) {
        for (n, g) in next.iter_mut().zip(&mut self.got) {
            *n |= std::mem::take(g);
        }
        self.local.iter_mut().for_each(|w| *w = 0);
        self.tail.iter_mut().for_each(|w| *w = 0);
    }
}

/// The key of this rank's `seq`th send: the rank is marked, not named
/// (it sorts as this rank's number once the slot's deliveries are in).
pub fn local_key(seq: u64) -> Key {
    (u32::MAX, seq)
}

/// Where `key` falls in one process's order on rank `me`: this rank's
/// own sends between the lower ranks' and the higher ranks'.
pub fn in_order(me: usize, key: Key) -> Key {
    match key.0 {
        u32::MAX => (me as u32, key.1),
        r => (r, key.1),
    }
}

/// A rank's hold on resources: its own share a bit each; the others'
/// claimed, to be sent to their owners.
struct Claims<'a> {
    own: &'a mut BitLedger,
    /// The rank's share of the resources.
    share: Range<ResourceId>,
    per: ResourceId,
    /// Per rank, the resources of its share this rank took.
    others: &'a mut [Vec<ResourceId>],
}

impl Ledger for Claims<'_> {
    fn take(&mut self, r: ResourceId, route: Route) -> Result<(), Option<Route>> {
        match self.share.contains(&r) {
            true => self.own.take(r - self.share.start, route),
            false => {
                self.others[(r / self.per) as usize].push(r);
                Ok(())
            }
        }
    }
}

/// A delivery on the wire: the receiver, then its code, or [`NO_WIRE_CODE`]
/// and the arrival whole.
const NO_WIRE_CODE: u16 = u16::MAX;

/// Writes the delivery of `a` to `to` onto `out`.
fn put_delivery<P: Protocol>(
    p: &P,
    input: &P::Input,
    out: &mut Vec<u8>,
    to: NodeId,
    a: &Arrival<P::Msg>,
) {
    out.extend_from_slice(&to.to_le_bytes());
    match p.pack_arrival(input, to, a).filter(|&c| c < NO_CODE) {
        Some(c) => out.extend_from_slice(&c.to_le_bytes()),
        None => {
            out.extend_from_slice(&NO_WIRE_CODE.to_le_bytes());
            wire::append(out, a);
        }
    }
}

/// Reads a delivery written by [`put_delivery`]: receiver, arrival, code.
fn take_delivery<P: Protocol>(
    p: &P,
    input: &P::Input,
    bytes: &mut &[u8],
) -> (NodeId, Arrival<P::Msg>, Option<u16>) {
    let to = NodeId::from_le_bytes(bytes[..4].try_into().expect("4 bytes"));
    let code = u16::from_le_bytes(bytes[4..6].try_into().expect("2 bytes"));
    *bytes = &bytes[6..];
    match code {
        NO_WIRE_CODE => (to, wire::take(bytes), None),
        c => (to, p.unpack_arrival(input, to, c), Some(c)),
    }
}

/// Which nodes are whose.
struct Rank {
    task: Task,
    /// Nodes a rank: this rank's are `nodes`.
    per: usize,
    nodes: Range<usize>,
    /// True if the task is personalised (see the module header).
    personal: bool,
}

impl Rank {
    fn owner(&self, v: NodeId) -> usize {
        v as usize / self.per
    }

    fn own(&self, v: NodeId) -> bool {
        self.nodes.contains(&(v as usize))
    }
}

/// The slots of the run on this rank, until every rank is done; None if
/// the run was given up (see the module header).
fn slots<P: Protocol>(
    world: &World,
    protocol: &P,
    input: &P::Input,
    progress: &Progress,
) -> Option<Run> {
    let topology = protocol.topology();
    let total = topology.nodes() as usize;
    let (me, size) = (world.rank, world.size);
    let per = total.div_ceil(size).max(1);
    let nodes = (me * per).min(total)..((me + 1) * per).min(total);
    let own = nodes.len();
    let words = own.div_ceil(64);
    let resources = topology.resources();
    let per_resource = resources.div_ceil(size as u64).max(1);
    let share =
        (me as u64 * per_resource).min(resources)..((me as u64 + 1) * per_resource).min(resources);
    let task = protocol.task(input);
    let claims = protocol.claims_for(input);
    let horizon = horizon(protocol, &claims);
    progress
        .slots
        .store(claims.bound.unwrap_or(horizon) as usize, Relaxed);
    let rank = Rank {
        personal: !task.is_broadcast(),
        task,
        per,
        nodes: nodes.clone(),
    };
    let p = protocol;
    // This rank's looks at the budget (the one-process drives' own): it
    // sets up, steps and judges until the budget is spent, and the ranks
    // then agree to end the run before the slot (or before slot 1).
    let budget = Budget::new(progress);
    let setting_up = || budget.until_spent(nodes.clone());
    let mut cells = match P::PACKS {
        true => {
            let mut aside = HashMap::new();
            let codes = setting_up()
                .map(|v| {
                    pack(
                        p,
                        input,
                        v as NodeId,
                        p.init(input, v as NodeId),
                        &mut aside,
                    )
                })
                .collect();
            Cells::Codes(codes, aside)
        }
        false => Cells::Whole(setting_up().map(|v| p.init(input, v as NodeId)).collect()),
    };
    let mut holdings = match rank.personal {
        true => Holdings::initial(&rank.task),
        // A broadcast's bits are by node: this rank's alone, in blocks
        // that divide its share (so that its first node starts one).
        false => {
            let block = 1u64 << per.trailing_zeros();
            let range = nodes.start as NodeId..nodes.end as NodeId;
            Holdings::of_nodes(&rank.task, block, range)
        }
    };
    let mut record = Record::new(&claims);
    let (mut mail, mut next_mail) = (Mail::new(me, P::PACKS, own), Mail::new(me, P::PACKS, own));
    // A sender's rank as a key names it.
    let rank_of = |from: NodeId| match rank.own(from) {
        true => local_key(0).0,
        false => rank.owner(from) as u32,
    };
    let mut now = vec![u64::MAX; words];
    if own % 64 != 0 {
        now[words - 1] = (1 << (own % 64)) - 1;
    }
    let mut next = vec![0u64; words];
    let mut calendar = Calendar::default();
    let mut ledger = BitLedger::new(share.end - share.start, None);
    let mut released = Vec::new();
    let mut arrivals = Vec::new();
    let mut out = Vec::new();
    let mut slot: Slot = 0;
    // Bytes this rank handed the others, per slot (for the closing note).
    let mut handed = Vec::new();
    let stop = |progress: &Progress| world.max(&[Cut::code(progress.stop())])[0];
    let mut cut = Cut::of_code(stop(progress));
    let mut idle = false;
    while cut.is_none() {
        slot += 1;
        progress.depth.store(slot as usize, Relaxed);
        ledger.begin(slot);
        // Per rank, its batch: deliveries, claims, releases.
        let mut batches: Vec<Vec<u8>> = vec![Vec::new(); size];
        let mut others: Vec<Vec<ResourceId>> = vec![Vec::new(); size];
        // A personalised task's deliveries to other ranks' nodes, judged
        // here too (the module header).
        let mut foreign: Vec<Entry<P::Msg>> = Vec::new();
        let mut seq = 0u64;
        let (mut over, mut stepped) = (0, 0);
        // A delivery whose place in the order was lost (see Mail::place).
        let mut unplaced = false;
        for (k, word) in budget.until_spent_by(now.iter_mut().enumerate(), 64) {
            while *word != 0 {
                let i = k * 64 + word.trailing_zeros() as usize;
                *word &= *word - 1;
                let v = (nodes.start + i) as NodeId;
                arrivals.clear();
                if let Some(code) = mail.codes.get_mut(i) {
                    match std::mem::replace(code, EMPTY) {
                        EMPTY | SPILLED => {}
                        c => p.unpack_arrivals(input, v, c - 1, &mut arrivals),
                    }
                }
                while let Some((_, _, a)) = mail.overflow.get(over).filter(|e| e.0 == v) {
                    arrivals.push(*a);
                    over += 1;
                }
                out.clear();
                let wake = cells.with(p, input, v, i, |state| {
                    p.step(v, state, slot, &arrivals, 0, &mut out)
                        .then(|| p.wake(state, slot))
                });
                stepped += 1;
                match wake {
                    Some(w) if w <= slot + 1 => set_bit(&mut next, i),
                    Some(w) => calendar.push(w, v),
                    None => {}
                }
                if out.is_empty() {
                    continue;
                }
                let judge = &mut Judge {
                    protocol: p,
                    slot,
                    task: &rank.task,
                    holdings: &holdings,
                    record: &mut record,
                    ledger: &mut Claims {
                        own: &mut ledger,
                        share: share.clone(),
                        per: per_resource,
                        others: &mut others,
                    },
                    released: &mut released,
                    faults: None,
                };
                let posting = |to: NodeId, a: Arrival<P::Msg>| {
                    seq += 1;
                    let key = local_key(seq);
                    if rank.personal {
                        put_delivery(p, input, &mut batches[me], to, &a);
                        if !rank.own(to) {
                            foreign.push((to, key, a));
                        }
                    } else if !rank.own(to) {
                        put_delivery(p, input, &mut batches[rank.owner(to)], to, &a);
                        return;
                    }
                    if rank.own(to) {
                        let i = to as usize - nodes.start;
                        let code = p.pack_arrival(input, to, &a);
                        unplaced |= !next_mail.place(p, input, (to, i), (key, a, code), rank_of);
                    }
                };
                transmit(judge, v, &out, posting);
            }
        }
        mail.overflow.clear();
        progress.generated.fetch_add(stepped, Relaxed);
        let mut met = order_matters(&record) || unplaced;
        // The batches, each with its claims and releases in front.
        let mine = std::mem::take(&mut batches[me]);
        let outgoing: Vec<Vec<u8>> = (0..size)
            .map(|r| {
                let deliveries = match rank.personal {
                    true => &mine,
                    false => &batches[r],
                };
                let releases: &[(NodeId, PacketId)] = match rank.personal {
                    true => &released,
                    false => &[],
                };
                match r == me {
                    true => Vec::new(),
                    false => {
                        let mut b = wire::put(&(&others[r], releases));
                        b.extend_from_slice(deliveries);
                        b
                    }
                }
            })
            .collect();
        drop(batches);
        handed.push(outgoing.iter().map(|b| b.len() as u64).sum());
        let incoming = world.exchange(outgoing);
        release(&mut holdings, &mut released);
        let mut scratch = Record::new(&claims);
        for (src, batch) in incoming.iter().enumerate() {
            if src == me {
                continue;
            }
            let mut bytes = &batch[..];
            let (taken, releases): (Vec<ResourceId>, Vec<(NodeId, PacketId)>) =
                wire::take(&mut bytes);
            for r in taken {
                met |= !ledger.claim(r - share.start);
            }
            for (v, packet) in releases {
                holdings.release(v, packet);
            }
            let mut at = 0u64;
            while !bytes.is_empty() {
                let (to, a, code) = take_delivery(p, input, &mut bytes);
                at += 1;
                let key = (src as u32, at);
                match rank.own(to) {
                    true => {
                        let i = to as usize - nodes.start;
                        met |= !next_mail.place(p, input, (to, i), (key, a, code), rank_of);
                    }
                    false => foreign.push((to, key, a)),
                }
            }
        }
        drop(incoming);
        // The slot's deliveries, receiver by receiver (this rank's key
        // between the lower and the higher ranks').
        let order = |key: Key| in_order(me, key);
        next_mail.sort();
        foreign.sort_by_key(|&(to, key, _)| (to, order(key)));
        let below = foreign.partition_point(|e| (e.0 as usize) < nodes.start);
        let receiving = |to: NodeId, a: &Arrival<P::Msg>, h: &mut Holdings, r: &mut Record| {
            receive(p, slot, &rank.task, to, a, h, r)
        };
        for (to, _, a) in &foreign[..below] {
            receiving(*to, a, &mut holdings, &mut scratch);
        }
        let mut quiet = true;
        let mut o = 0;
        for (k, &word) in budget.until_spent_by(next_mail.got.iter().enumerate(), 64) {
            let mut w = word;
            quiet &= w == 0;
            while w != 0 {
                let i = k * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                let v = (nodes.start + i) as NodeId;
                if let Some(&c @ 1..=NO_CODE) = next_mail.codes.get(i) {
                    arrivals.clear();
                    p.unpack_arrivals(input, v, c - 1, &mut arrivals);
                    for a in &arrivals {
                        receiving(v, a, &mut holdings, &mut record);
                    }
                }
                while let Some((to, _, a)) = next_mail.overflow.get(o).filter(|e| e.0 == v) {
                    receiving(*to, a, &mut holdings, &mut record);
                    o += 1;
                }
            }
        }
        for (to, _, a) in &foreign[below..] {
            receiving(*to, a, &mut holdings, &mut scratch);
        }
        met |= order_matters(&record);
        next_mail.clear_bits(&mut next);
        std::mem::swap(&mut mail, &mut next_mail);
        calendar.due(slot + 1, |v| set_bit(&mut next, v as usize - nodes.start));
        std::mem::swap(&mut now, &mut next);
        let busy = !(quiet && calendar.is_empty() && now.iter().all(|&w| w == 0));
        let why = Cut::code(progress.stop());
        // Where the budget stopped this rank's part of the slot.
        let partial = budget.spent();
        let mine = [met as u64, busy as u64, why, partial as u64];
        let [met, busy, why, partial] = world.max(&mine)[..] else {
            unreachable!("four values")
        };
        if met != 0 {
            return None;
        }
        if partial != 0 {
            // A rank left the slot unfinished (its budget, which it still
            // reads as spent, so `why` names it): the run ends before it.
            cut = Cut::of_code(why);
            slot -= 1;
            break;
        }
        if busy == 0 || slot >= horizon {
            idle = busy == 0;
            break;
        }
        cut = Cut::of_code(why);
    }
    // The end: each rank's results and first missing, merged at rank 0 in
    // rank order, as one process notes them in node order.
    let ended = cut.is_none();
    let mut missing = None;
    if ended {
        let first = nodes.start as NodeId;
        match &cells {
            Cells::Whole(states) => judge_results(p, input, (first..).zip(states), &mut record),
            Cells::Codes(codes, aside) => {
                let states = (first..).zip(codes).map(|(v, &c)| match c {
                    ASIDE => (v, aside[&v].clone()),
                    c => (v, p.unpack_state(input, v, c)),
                });
                judge_results(p, input, states, &mut record)
            }
        }
        let range = nodes.start as NodeId..nodes.end as NodeId;
        missing = holdings.first_missing_in(range);
    }
    let mine = (record, missing, peak_resident(), handed);
    let merged = world.gather(&mine).map(|parts| {
        say_costs(&parts);
        let mut record = Record::new(&claims);
        for (r, ..) in &parts {
            record.merge(r);
        }
        if ended {
            let first = parts.iter().find_map(|(_, m, ..)| *m);
            let horizon = (!idle).then_some(slot);
            record.end_missing(&rank.task, horizon, first);
        }
        Run {
            record,
            slots: slot,
            cut,
        }
    });
    Some(world.from_first(merged))
}

/// True if `record` holds a violation whose report the ranks could not
/// give as one process would: a conflict (its first holder and the most
/// takers of a resource are the whole network's, in send order), or a
/// copy received again where codes may have dropped its sender. Every
/// other violation is noted at one node (the sender's or the receiver's),
/// by the rank that owns it, in one process's order; merged in rank
/// order, the first of each property is one process's.
fn order_matters(record: &Record) -> bool {
    record.violation(PropertyName::ContentionFreedom).is_some()
        || !super::dense::senders_named(record).is_empty()
}

/// Says, on rank 0's standard error, what the run cost each rank: its
/// peak memory, and the bytes handed between ranks in all and in the
/// busiest slot (docs/scale.md's figures come from this line).
fn say_costs<R, M>(parts: &[(R, M, u64, Vec<u64>)]) {
    let peaks = parts.iter().map(|p| p.2);
    let slots = parts.iter().map(|p| p.3.len()).max().unwrap_or(0);
    let per_slot: Vec<u64> = (0..slots)
        .map(|s| parts.iter().map(|p| p.3.get(s).copied().unwrap_or(0)).sum())
        .collect();
    eprintln!(
        "note: over {} ranks: peak memory per rank {} to {}; handed between ranks {} in \
         {} slots, at most {} in one",
        parts.len(),
        amount(peaks.clone().min().unwrap_or(0)),
        amount(peaks.max().unwrap_or(0)),
        amount(per_slot.iter().sum()),
        per_slot.len(),
        amount(per_slot.iter().copied().max().unwrap_or(0)),
    );
}
