//! Sending, in the phased drive: each thread steps a contiguous run of
//! the active nodes and judges their transmissions by [`transmit`] with
//! its own record and resource bits, posting the deliveries into buckets
//! by receiver range for [`super::judging`].

use super::arrived::{Arrived, Cursor};
use super::ending::Budget;
use super::ledger::BitLedger;
use crate::engine::{transmit, Judge, Post};
use models::{Arrival, Protocol, ProtocolExt, Topology};
use properties::{Holdings, NodeId, PacketId, Record, Route, Slot, Task, Transmission};

/// What one thread's share of the senders did in a slot, kept across
/// slots so that its buffers are reused.
pub(super) struct Share<M> {
    /// What its senders broke and counted this slot.
    pub(super) record: Record,
    /// The resources its senders took this slot.
    pub(super) ledger: BitLedger,
    /// Deliveries in sender order, per range of receivers.
    pub(super) buckets: Vec<Vec<(NodeId, Arrival<M>)>>,
    /// Bus writes in sender order, per range of receivers they reach
    /// (judged together: [`super::judging::Judging::writes`]).
    pub(super) writes: Vec<Vec<(Route, Arrival<M>)>>,
    /// Packets its relays sent on.
    pub(super) released: Vec<(NodeId, PacketId)>,
    /// Nodes that asked to be stepped again next slot.
    pub(super) again: Vec<NodeId>,
    /// Nodes that asked to be stepped in a later slot, with the slot
    /// (from `ProtocolExt::wake`).
    pub(super) later: Vec<(Slot, NodeId)>,
    /// One node's transmissions, as its step makes them.
    pub(super) out: Vec<Transmission<M>>,
    /// Steps not yet counted in the progress.
    pub(super) stepped: u64,
}

impl<M> Share<M> {
    /// A share with nothing sent, for receivers in `parts` ranges.
    pub(super) fn new(record: Record, ledger: BitLedger, parts: usize) -> Self {
        Share {
            record,
            ledger,
            buckets: (0..parts).map(|_| Vec::new()).collect(),
            writes: (0..parts).map(|_| Vec::new()).collect(),
            released: Vec::new(),
            again: Vec::new(),
            later: Vec::new(),
            out: Vec::new(),
            stepped: 0,
        }
    }

    /// True if it sent nothing this slot.
    pub(super) fn quiet(&self) -> bool {
        self.buckets.iter().all(Vec::is_empty) && self.writes.iter().all(Vec::is_empty)
    }

    /// How much judging its sends take: a delivery each, 64 a bus write.
    pub(super) fn load(&self) -> usize {
        let writes: usize = self.writes.iter().map(|w| w.len() * 64).sum();
        self.buckets.iter().map(Vec::len).sum::<usize>() + writes
    }

    /// Empties the buckets once the slot is judged.
    pub(super) fn clear_sent(&mut self) {
        self.buckets.iter_mut().for_each(Vec::clear);
        self.writes.iter_mut().for_each(Vec::clear);
    }
}

/// One thread's senders in a slot: its share, its tally of deliveries
/// per receiver, the active nodes it steps, and the states of the node
/// range they lie in, which starts at node `base`.
pub(super) struct Senders<'a, M, S> {
    /// Where its sends go.
    pub(super) share: &'a mut Share<M>,
    /// Per receiver, its deliveries this slot (for a protocol that reads
    /// its arrivals: see [`Arrived::group`]).
    pub(super) tally: &'a mut [u32],
    /// The active nodes it steps, increasing.
    pub(super) nodes: &'a [NodeId],
    /// The states of nodes `base..`, up to its last node.
    pub(super) states: &'a mut [S],
    /// The first node whose state `states` holds.
    pub(super) base: usize,
}

/// Splits the `active` nodes (increasing) into one contiguous run per
/// share, each with the states of the nodes up to its last one, so that
/// the threads step disjoint states.
pub(super) fn split<'a, M, S>(
    shares: &'a mut [Share<M>],
    tallies: &'a mut [Vec<u32>],
    active: &'a [NodeId],
    states: &'a mut [S],
) -> Vec<Senders<'a, M, S>> {
    let senders = active.len().div_ceil(shares.len()).max(1);
    let mut rest: &mut [S] = states;
    let mut base = 0usize;
    let mut work = Vec::with_capacity(shares.len());
    let mine = shares
        .iter_mut()
        .zip(tallies.iter_mut().map(|t| &mut t[..]));
    for ((share, tally), nodes) in mine.zip(active.chunks(senders)) {
        let end = *nodes.last().expect("chunks are not empty") as usize + 1;
        let (states, after) = std::mem::take(&mut rest).split_at_mut(end - base);
        work.push(Senders {
            share,
            tally,
            nodes,
            states,
            base,
        });
        rest = after;
        base = end;
    }
    work
}

/// Where one thread's senders post their transmissions: deliveries and
/// bus writes into its buckets by receiver range, each delivery tallied
/// per receiver for a protocol that reads its arrivals.
struct Outbox<'a, T, M> {
    /// The network, which says where a bus write's receivers lie.
    topology: &'a T,
    /// Deliveries by receiver range.
    buckets: &'a mut [Vec<(NodeId, Arrival<M>)>],
    /// Bus writes by receiver range.
    writes: &'a mut [Vec<(Route, Arrival<M>)>],
    /// Deliveries per receiver.
    tally: &'a mut [u32],
    /// Whether the protocol reads its arrivals.
    reads: bool,
    /// Receiver ranges are of 2^shift nodes.
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
        let shift = self.shift;
        if step < 1 << shift {
            // Terms closer than a range: every range from the first's to
            // the last's holds one.
            let last = first + step * (count - 1);
            for part in &mut self.writes[(first >> shift) as usize..=(last >> shift) as usize] {
                part.push((*route, a));
            }
        } else {
            // Terms a range or more apart (a column): only their ranges,
            // one each.
            for k in 0..count {
                self.writes[((first + k * step) >> shift) as usize].push((*route, a));
            }
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

/// What every sending thread reads in a slot.
pub(super) struct Sending<'a, P: Protocol> {
    /// The algorithm.
    pub(super) protocol: &'a P,
    /// The slot being sent.
    pub(super) slot: Slot,
    /// What the run must achieve.
    pub(super) task: &'a Task,
    /// What every node held before the slot.
    pub(super) holdings: &'a Holdings,
    /// What arrived in the previous slot, per receiver range.
    pub(super) inbox: &'a [Arrived<P::Msg>],
    /// Whether the protocol reads its arrivals (else it is handed none).
    pub(super) reads: bool,
    /// Receiver ranges are of 2^shift nodes.
    pub(super) shift: u32,
    /// What stops the slot part-way.
    pub(super) budget: &'a Budget<'a>,
}

impl<P: Protocol> Sending<'_, P> {
    /// Steps one thread's senders in order and judges what each sends.
    pub(super) fn send(&self, senders: Senders<'_, P::Msg, P::State>) {
        let Sending {
            protocol,
            slot,
            task,
            holdings,
            inbox,
            reads,
            shift,
            budget,
        } = *self;
        let Senders {
            share,
            tally,
            nodes,
            states,
            base,
        } = senders;
        let topology = protocol.topology();
        share.ledger.begin(slot);
        let mut cursor = Cursor::new();
        for &node in budget.until_spent(nodes.iter()) {
            share.out.clear();
            share.stepped += 1;
            let state = &mut states[node as usize - base];
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
                task,
                holdings,
                record: &mut share.record,
                ledger: &mut share.ledger,
                released: &mut share.released,
                // A run with faults takes the inbox drive (`drive`).
                faults: None,
            };
            let outbox = Outbox {
                topology,
                buckets: &mut share.buckets,
                writes: &mut share.writes,
                tally: &mut *tally,
                reads,
                shift,
            };
            transmit(judge, node, &share.out, outbox);
        }
    }
}
