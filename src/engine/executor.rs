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

use super::search::{Progress, INTERRUPTED};
use super::{horizon, receive, release, transmit, Ledger};
use models::{Arrival, Protocol, Topology};
use properties::{
    Holdings, NodeId, PropertyName, Record, ResourceId, Route, Slot, Task, Violation,
};
use std::sync::atomic::Ordering::Relaxed;

/// The outcome of one executed run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub record: Record,
    /// Slots executed (the last one may have been quiet).
    pub slots: Slot,
    /// True if Ctrl-C stopped the run before its end.
    pub interrupted: bool,
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

/// Runs `protocol` from `input` to the end.
pub fn run<P: Protocol>(protocol: &P, input: &P::Input) -> Run {
    run_with(protocol, input, &Progress::default())
}

/// [`run`], counting slots (`depth`) and node steps (`generated`) in
/// `progress`; Ctrl-C stops it with the record so far.
pub fn run_with<P: Protocol>(protocol: &P, input: &P::Input, progress: &Progress) -> Run {
    let mut run = execute(protocol, input, None, progress).0;
    if let Some(Violation::Conflict {
        slot,
        resource,
        first: None,
        ..
    }) = run.record.violation(PropertyName::ContentionFreedom)
    {
        let (_, holder) = execute(protocol, input, Some((slot, resource)), progress);
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
    let horizon = horizon(&claims);

    let mut states: Vec<P::State> = (0..nodes as NodeId)
        .map(|v| protocol.init(input, v))
        .collect();
    let mut holdings = Holdings::initial(&task);
    let mut record = Record::new(&claims);
    let mut inbox: Vec<Option<Arrival<P::Msg>>> = vec![None; nodes];
    let mut next_inbox: Vec<Option<Arrival<P::Msg>>> = vec![None; nodes];
    let mut overflow: Vec<(NodeId, Arrival<P::Msg>)> = Vec::new();
    let mut next_overflow: Vec<(NodeId, Arrival<P::Msg>)> = Vec::new();
    // Every node is stepped in slot 1; later only the nodes with arrivals
    // or that asked to be (sorted, so arrivals are read in node order).
    let mut active: Vec<NodeId> = (0..nodes as NodeId).collect();
    let mut next_active: Vec<NodeId> = Vec::new();
    let mut receivers: Vec<NodeId> = Vec::new();
    let mut ledger = BitLedger {
        bits: vec![0; topology.resources().div_ceil(64) as usize],
        taken: Vec::new(),
        slot: 0,
        watch,
        holder: None,
    };
    let mut out = Vec::new();
    let mut released = Vec::new();
    let mut arrivals = Vec::new();
    let mut slot = 0;
    let mut interrupted = false;
    let mut stepped = 0u64;
    loop {
        if INTERRUPTED.load(Relaxed) {
            interrupted = true;
            break;
        }
        slot += 1;
        progress.depth.store(slot as usize, Relaxed);
        ledger.slot = slot;
        for w in ledger.taken.drain(..) {
            ledger.bits[w] = 0;
        }
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
                next_active.push(node);
            }
            transmit(
                protocol,
                slot,
                &task,
                node,
                &out,
                &holdings,
                &mut record,
                &mut ledger,
                &mut released,
                |to, a| {
                    receivers.push(to);
                    match &mut next_inbox[to as usize] {
                        entry @ None => *entry = Some(a),
                        Some(_) => next_overflow.push((to, a)),
                    }
                },
            );
        }
        release(&mut holdings, &mut released);
        // Deliveries of this slot, node by node (the overflow in order).
        receivers.sort_unstable();
        receivers.dedup();
        next_overflow.sort_by_key(|(to, _)| *to);
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
        next_active.extend_from_slice(&receivers);
        next_active.sort_unstable();
        next_active.dedup();
        std::mem::swap(&mut active, &mut next_active);
        next_active.clear();
        receivers.clear();
        if quiet && active.is_empty() {
            record.end(&task, &holdings, None);
            break;
        }
        if slot >= horizon {
            record.end(&task, &holdings, Some(slot));
            break;
        }
    }
    (
        Run {
            record,
            slots: slot,
            interrupted,
        },
        ledger.holder,
    )
}
