//! The executor: one deterministic run at sizes far beyond exhaustive
//! reach, judged on the fly by the same [`transmit`](super::transmit) and
//! [`receive`](super::receive) as the checker, on flat data.
//!
//! Per node it keeps the protocol state, one inbox entry (a second arrival
//! in a slot goes to a small overflow list), a busy bit and one holdings
//! bit per packet; per slot one bit per resource. A choice the paper leaves
//! open takes its first option. A conflict's first holder is not stored
//! (that would cost a word per arc); when there is a conflict the run is
//! replayed, watching that one resource.
//!
//! Three drives give the same [`Run`] ([`Drive`]): `inbox` steps the
//! active nodes in order and hands each its inbox; `dense` does the same
//! with the protocol's 16-bit codes of states and arrivals, a few bytes a
//! node, in lanes of nodes on every core (docs/scale.md); `schedule` steps
//! them on several threads and judges each range of receivers on its
//! own, in named phases: `sending` (each thread's senders stepped and
//! judged by `transmit`), `arrived` (the arrivals grouped by receiver for
//! the next slot), `judging` (each range's deliveries judged by
//! `receive`), and `ending` (when a run is over, shared by every drive).
//! `ledger` keeps the resource bits the inbox and phased drives take.

mod arrived;
mod calendar;
mod dense;
mod ending;
mod inbox;
#[doc(hidden)] // public for tests/parts only
pub mod judging;
mod ledger;
#[cfg(feature = "mpi")]
#[doc(hidden)] // public for tests/parts only
pub mod partitioned;
mod phased;
mod sending;

use super::search::{Cut, Progress};
use models::{Arrival, Protocol, ProtocolExt, Topology};
use properties::{Holdings, PropertyName, Record, ResourceId, Route, Slot, Task, Violation};

/// The most receivers judged as one range ([`Drive::Phased`]): a
/// range's arrivals are scattered by receiver into an array that must
/// stay in a core's cache (2 MB of L2 here). At kbcast 16, 2^13 took
/// 73 s where one range per thread (2^15) took 99 s (BENCHMARKS.md).
pub const RANGE: usize = 1 << 13;

/// The outcome of one executed run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    /// What the run broke and counted, as every engine records it.
    pub record: Record,
    /// Slots executed (the last one may have been quiet).
    pub slots: Slot,
    /// What stopped the run before its end (Ctrl-C, `--timeout`), if
    /// anything did.
    pub cut: Option<Cut>,
}

/// A drive's answer: the run, and the first holder of the watched
/// resource (see [`drive`]) if one was watched and taken.
type Watched = (Run, Option<Route>);

/// Sets bit `i` of a bitmap kept in words (the drives keep nodes to step
/// and sorted receivers as bitmaps).
#[inline]
fn set_bit(words: &mut [u64], i: usize) {
    words[i / 64] |= 1 << (i % 64);
}

/// `f` of each piece of `work`, in order: the first on this thread, each
/// other on a thread of its own (a slot's senders, or its receiver
/// ranges, one piece a thread).
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

/// The memory a run of `protocol` on `task` takes, in bytes (the cost
/// model of BENCHMARKS.md), so that a check can refuse a size that would
/// not fit before it starts: per node, in the dense drive, its codes and
/// bits ([`models::PACKED_NODE_BITS`]), else its state, two inbox entries
/// and busy bits; the holdings; per resource one bit.
pub fn memory_needed<P: Protocol>(protocol: &P, task: &Task) -> u64 {
    let topology = protocol.topology();
    let nodes = topology.nodes() as u64;
    let per_node = match P::PACKS {
        true => models::PACKED_NODE_BITS,
        false => {
            let inbox = std::mem::size_of::<Option<Arrival<P::Msg>>>() as u64;
            8 * (std::mem::size_of::<P::State>() as u64 + 2 * inbox) + 2
        }
    };
    Holdings::bytes(task) + (nodes * per_node + topology.resources()) / 8
}

/// Runs `protocol` from `input` to the end, on every core.
pub fn run<P: Protocol>(protocol: &P, input: &P::Input) -> Run {
    run_with(protocol, input, &Progress::default(), cores())
}

/// The cores this machine offers: how many threads [`run`] takes.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// How a run is driven; every way gives the same [`Run`] (a test checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drive {
    /// Per node an inbox of what arrived in the previous slot.
    Inbox,
    /// The inbox drive with states and arrivals kept as the protocol's
    /// 16-bit codes ([`ProtocolExt::packs`](models::ProtocolExt::packs)): a few bytes a node; the nodes
    /// step in `threads` lanes at once.
    Dense {
        /// Lanes of nodes stepped at once.
        threads: usize,
    },
    /// Senders stepped on `threads` threads, each range of at most
    /// `range` receivers (a power of two, at least 64) judged on its own;
    /// the arrivals (for a protocol that reads them) grouped per receiver
    /// range.
    Phased {
        /// Threads that step the senders and judge the receiver ranges.
        threads: usize,
        /// The most receivers in one range (see [`RANGE`]).
        range: usize,
    },
}

impl Drive {
    /// The fastest way to drive `protocol` with `threads` threads.
    pub fn best<P: Protocol>(protocol: &P, threads: usize) -> Drive {
        // The dense drive first: of the protocols that give codes, those
        // that read no arrivals would step faster on threads, but at a
        // few times the memory.
        if P::PACKS {
            Drive::Dense {
                threads: threads.max(1),
            }
        } else if protocol.reads_arrivals() && !protocol.holdings_by_packet() {
            Drive::Inbox
        } else {
            Drive::Phased {
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

/// [`run_with`], driven as `drive` says. A conflict's first holder is
/// named by replaying the run, watching that one resource. Under `mpirun`
/// (`--features mpi`), the run is every rank's, whatever `drive` says
/// (docs/scale.md).
pub fn drive<P: Protocol>(
    protocol: &P,
    input: &P::Input,
    progress: &Progress,
    drive: Drive,
) -> Run {
    #[cfg(feature = "mpi")]
    if let Some(world) = crate::engine::group::world() {
        // A rank judges its share of the resources alone, so a link's
        // lanes, which may fall in two shares, are judged in one process.
        assert!(
            protocol.topology().max_lanes() == 1,
            "links of several lanes are judged in one process: run without mpirun"
        );
        return partitioned::execute(&world, protocol, input, progress);
    }
    drive_here(protocol, input, progress, drive)
}

/// [`drive`] in this process alone.
fn drive_here<P: Protocol>(
    protocol: &P,
    input: &P::Input,
    progress: &Progress,
    drive: Drive,
) -> Run {
    // Losses are judged receiver by receiver: a run with faults takes
    // the inbox drive (or the dense one, which judges as it does).
    let drive = match protocol.faults(input) {
        Some(_) if !matches!(drive, Drive::Dense { .. }) => Drive::Inbox,
        _ => drive,
    };
    // The dense drive's deliveries kept whole, once its first run is in.
    let mut exact: Option<Vec<_>> = None;
    let mut go = |watch| match drive {
        Drive::Inbox => inbox::execute(protocol, input, watch, progress),
        Drive::Dense { threads } => {
            // Lanes that met: the run is one lane's to decide.
            let go = |exact: &[_]| {
                let go = |lanes| dense::execute(protocol, input, watch, exact, progress, lanes);
                go(threads).unwrap_or_else(|| go(1).expect("one lane meets no other"))
            };
            let run = go(exact.as_deref().unwrap_or_default());
            if exact.is_some() {
                return run;
            }
            // A violation that names a sender the codes may have dropped:
            // the run again, those deliveries kept whole.
            let named = exact.insert(dense::senders_named(&run.0.record));
            match named.is_empty() {
                true => run,
                false => go(named),
            }
        }
        Drive::Phased { threads, range } => {
            // Two threads that took one resource in one slot: which of
            // them is "second" is the one-thread run's to say.
            let go = |threads| phased::execute(protocol, input, watch, progress, threads, range);
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
        // The replay meets the same conflict, unless the budget, Ctrl-C
        // or a signal that cut the run cuts it first: the conflict is then
        // reported without its first holder.
        if let (_, Some(holder)) = go(Some((slot, resource))) {
            run.record.name_conflict_holder(holder);
        }
    }
    run
}

/// The (slot, resource) whose first holder a replay names, if any.
type Watch = Option<(Slot, ResourceId)>;
