//! The inbox drive ([`super::Drive::Inbox`]): per node an inbox of what
//! arrived in the previous slot, the active nodes stepped in order on one
//! thread. The drive for protocols that read their arrivals node by node
//! (a multinode broadcast's holdings by xor offset).

use super::calendar::Calendar;
use super::ending::{Budget, Ending};
use super::ledger::BitLedger;
use super::{set_bit, Run, Watch, Watched};
use crate::engine::search::Progress;
use crate::engine::{receive, release, transmit, Judge, Post};
use models::{Arrival, Protocol, ProtocolExt, Topology};
use properties::{Holdings, NodeId, Record, Slot, Task};
use std::sync::atomic::Ordering::Relaxed;

/// What a slot delivers: per node its first arrival, the others in an
/// overflow list (a second arrival in a slot is rare, and an inbox entry a
/// node is what keeps the common case flat).
struct Mail<M> {
    /// Each node's first arrival.
    inbox: Vec<Option<Arrival<M>>>,
    /// The further arrivals with their receivers: in sender order while
    /// the slot sends, grouped by receiver once it is judged.
    overflow: Vec<(NodeId, Arrival<M>)>,
}

/// Where [`transmit`] posts a slot's deliveries in the inbox drive: the
/// next slot's mail, and the list of its receivers (each once).
struct Posting<'a, M> {
    /// The next slot's mail.
    next: &'a mut Mail<M>,
    /// The slot's receivers, each once, in the order first reached.
    receivers: &'a mut Vec<NodeId>,
}

impl<M> Post<M> for Posting<'_, M> {
    #[inline]
    fn deliver(&mut self, to: NodeId, a: Arrival<M>) {
        match &mut self.next.inbox[to as usize] {
            entry @ None => {
                self.receivers.push(to);
                *entry = Some(a)
            }
            Some(_) => self.next.overflow.push((to, a)),
        }
    }
}

/// The scratch that sorts a slot's receivers and groups its overflow by
/// receiver, kept across slots so that no slot allocates.
struct Scratch<M> {
    /// A bit per node, for sorting many receivers by a scan.
    marks: Vec<u64>,
    /// The overflow regrouped by receiver.
    regroup: Vec<(NodeId, Arrival<M>)>,
    /// Per receiver, where its overflow goes.
    counts: Vec<u32>,
}

/// What judging a slot's deliveries reads: the protocol, the slot and the
/// task (see [`receive`]).
struct Receiving<'a, P> {
    /// The algorithm: what its messages carry.
    protocol: &'a P,
    /// The slot whose deliveries are judged.
    slot: Slot,
    /// What the run must achieve.
    task: &'a Task,
    /// What stops the judging part-way.
    budget: &'a Budget<'a>,
}

impl<P: Protocol> Receiving<'_, P> {
    /// Judges the slot's deliveries `mail` node by node, in increasing
    /// order of `receivers` (sorted here), each node's overflow after its
    /// inbox entry in the order it was sent.
    fn judge(
        &self,
        mail: &mut Mail<P::Msg>,
        receivers: &mut Vec<NodeId>,
        scratch: &mut Scratch<P::Msg>,
        holdings: &mut Holdings,
        record: &mut Record,
    ) {
        let Receiving {
            protocol,
            slot,
            task,
            budget,
        } = *self;
        sort_nodes(receivers, &mut scratch.marks);
        let nodes = mail.inbox.len();
        let (regroup, counts) = (&mut scratch.regroup, &mut scratch.counts);
        group_by_receiver(&mut mail.overflow, regroup, counts, nodes);
        let mut over = mail.overflow.iter().peekable();
        for &v in budget.until_spent(receivers.iter()) {
            if let Some(a) = &mail.inbox[v as usize] {
                receive(protocol, slot, task, v, a, holdings, record);
                while let Some((to, a)) = over.next_if(|(to, _)| *to == v) {
                    receive(protocol, slot, task, *to, a, holdings, record);
                }
            }
        }
    }
}

/// The run in the inbox drive: every node stepped in slot 1, later the
/// nodes with arrivals or that asked to be (in node order, so arrivals are
/// read in node order), each step judged by [`transmit`] as it is made and
/// each slot's deliveries by [`receive`] once every node has sent.
pub(super) fn execute<P: Protocol>(
    protocol: &P,
    input: &P::Input,
    watch: Watch,
    progress: &Progress,
) -> Watched {
    let topology = protocol.topology();
    let nodes = topology.nodes() as usize;
    let task = protocol.task(input);
    let claims = protocol.claims_for(input);
    let ending = Ending::new(protocol, input, &task, &claims, progress);

    let budget = &ending.budget;
    let mut states: Vec<P::State> = budget
        .nodes(nodes)
        .map(|v| protocol.init(input, v))
        .collect();
    if let Some(run) = ending.unstarted(&claims) {
        return (run, None);
    }
    let mut holdings = match protocol.holdings_by_packet() {
        true => Holdings::by_packet(&task, u64::MAX),
        false => Holdings::initial(&task),
    };
    let mut record = Record::new(&claims);
    let empty = || Mail {
        inbox: vec![None; nodes],
        overflow: Vec::new(),
    };
    let (mut mail, mut next_mail) = (empty(), empty());
    // Every node is stepped in slot 1; later only the nodes with arrivals
    // or that asked to be (sorted, so arrivals are read in node order).
    let mut active: Vec<NodeId> = (0..nodes as NodeId).collect();
    let mut next_active: Vec<NodeId> = Vec::new();
    // Nodes that asked to be stepped in a later slot than the next, by
    // slot (8 bytes each).
    let mut calendar = Calendar::default();
    // This slot's receivers, each once (sorted after the slot).
    let mut receivers: Vec<NodeId> = Vec::new();
    let mut scratch = Scratch {
        marks: Vec::new(),
        regroup: Vec::new(),
        counts: Vec::new(),
    };
    let mut merged: Vec<NodeId> = Vec::new();
    let mut ledger = BitLedger::new(topology.resources(), watch);
    let mut out = Vec::new();
    let mut released = Vec::new();
    let mut arrivals = Vec::new();
    let mut stepped = 0u64;
    let (slot, cut) = ending
        .run_slots(|slot| {
            ledger.begin(slot);
            let judge = &mut Judge {
                protocol,
                slot,
                task: &task,
                holdings: &holdings,
                record: &mut record,
                ledger: &mut ledger,
                released: &mut released,
                faults: protocol.faults(input),
            };
            let mut over = mail.overflow.iter().peekable();
            for (k, &node) in active.iter().enumerate() {
                if budget.spent_at(k) {
                    break;
                }
                let v = node as usize;
                arrivals.clear();
                arrivals.extend(mail.inbox[v].take());
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
                        w => calendar.push(w, node),
                    }
                }
                let posting = Posting {
                    next: &mut next_mail,
                    receivers: &mut receivers,
                };
                transmit(judge, node, &out, posting);
            }
            release(&mut holdings, &mut released);
            // Deliveries of this slot, node by node (the overflow in order).
            let receiving = Receiving {
                protocol,
                slot,
                task: &task,
                budget,
            };
            receiving.judge(
                &mut next_mail,
                &mut receivers,
                &mut scratch,
                &mut holdings,
                &mut record,
            );
            let quiet = receivers.is_empty();
            std::mem::swap(&mut mail, &mut next_mail);
            next_mail.overflow.clear();
            // Both sorted: merge them; the calendar's few join after.
            merged.clear();
            merge_sorted(&next_active, &receivers, &mut merged);
            std::mem::swap(&mut next_active, &mut merged);
            let mut woken = false;
            calendar.due(slot + 1, |node| {
                next_active.push(node);
                woken = true;
            });
            if woken {
                next_active.sort_unstable();
                next_active.dedup();
            }
            std::mem::swap(&mut active, &mut next_active);
            next_active.clear();
            receivers.clear();
            let idle = quiet && active.is_empty() && calendar.is_empty();
            Some(ending.ended(ending.judge(&states), &mut record, &holdings, slot, idle))
        })
        .expect("the inbox drive never gives a run up");
    (
        Run {
            record,
            slots: slot,
            cut,
        },
        ledger.holder,
    )
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
