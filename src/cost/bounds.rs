//! The bounds an engineer knows, in microseconds (docs/cost.md): no run
//! of the collective on the machine takes less.
//!
//! * **Bandwidth.** Each rank must take in (or, from a root, send out) so
//!   many bytes through its links: an allreduce of D bytes a rank
//!   2(n-1)/n x D (the reduce-scatter and allgather argument), an
//!   allgather and a reduce-scatter (n-1)/n of the whole buffer, an
//!   alltoall (n-1)/n of what a rank sends; a broadcast or reduce of D
//!   bytes D through the root's links, a scatter or gather (n-1)/n of the
//!   buffer. The time is at least the bytes over the rank's bandwidth
//!   (the sum of its links' in, or out for a root that sends), at the
//!   rank where that is longest.
//!   An alltoall also moves a chunk from every rank on one side of a cut
//!   of the network to every rank on the other, over the links across it
//!   (the bisection bound, at the network's cuts commcheck knows: a
//!   cube's dimensions, a grid's halves, a machine's servers and its
//!   nodes' halves); the larger of the two is the bound.
//! * **Latency.** A byte must cross the farthest pair of ranks: at least
//!   the hops between them times the smallest latency of a link.

use models::schedule::Schedule;

/// What the bounds are made of.
pub struct Machine {
    /// Per rank, the bandwidth of the links into it and out of it (GB/s).
    pub bandwidth: Vec<(f64, f64)>,
    /// The most hops between two ranks.
    pub hops: u32,
    /// The smallest latency of a link (ns).
    pub latency: f64,
    /// Cuts of the network, each once each way.
    pub cuts: Vec<Cut>,
}

/// A cut of the network in one direction: what an alltoall must carry
/// across it, a chunk from each rank on one side to each on the other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    /// Ranks on the side data leaves.
    pub from: u32,
    /// Ranks on the side it enters.
    pub to: u32,
    /// The bandwidth of the links across, that way (GB/s).
    pub bandwidth: f64,
}

/// The bounds on a schedule's time.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Bounds {
    /// The bandwidth bound (us), where the collective has one and the
    /// chunks have a size.
    pub bandwidth_us: Option<f64>,
    /// How it is made, in words.
    pub bandwidth_why: String,
    /// The latency bound (us).
    pub latency_us: f64,
}

/// The bounds on `schedule`'s time on `machine`, its chunks of
/// `chunk_bytes` each (None: GOAL's messages, whose bytes are not a
/// buffer's).
pub fn bounds(schedule: &Schedule, chunk_bytes: Option<u64>, machine: &Machine) -> Bounds {
    let latency_us = machine.hops as f64 * machine.latency / 1000.0;
    let n = schedule.ranks as f64;
    let chunks = schedule.chunks.reduced.len() as f64;
    let name = schedule.collective.as_str();
    let none = |why: &str| Bounds {
        bandwidth_us: None,
        bandwidth_why: why.to_string(),
        latency_us,
    };
    let Some(b) = chunk_bytes else {
        return none("no chunk size (--bytes)");
    };
    let buffer = chunks * b as f64;
    let share = (n - 1.0) / n;
    // (bytes, formula, the ranks that must move them and whether out).
    let root = schedule.chunks.origin.first().copied().unwrap_or(0) as usize;
    let sink = schedule
        .chunks
        .expect
        .iter()
        .position(|e| !e.is_empty())
        .unwrap_or(0);
    let (bytes, formula, at, out): (f64, &str, Option<usize>, bool) = match name {
        _ if name.starts_with("allreduce") => (2.0 * share * buffer, "2(n-1)/n x D", None, false),
        _ if name.starts_with("allgather") || name.starts_with("reduce-scatter") => {
            (share * buffer, "(n-1)/n x D", None, false)
        }
        _ if name.starts_with("alltoall") => (share * buffer / n, "(n-1)/n x D/n", None, false),
        _ if name.starts_with("broadcast") => (buffer, "D from the root", Some(root), true),
        _ if name.starts_with("scatter") => (
            share * buffer,
            "(n-1)/n x D from the root",
            Some(root),
            true,
        ),
        _ if name.starts_with("reduce") => (buffer, "D into the root", Some(sink), false),
        _ if name.starts_with("gather") => (
            share * buffer,
            "(n-1)/n x D into the root",
            Some(sink),
            false,
        ),
        _ => return none("no bandwidth bound for this collective"),
    };
    let bw = |r: usize| {
        let (i, o) = machine.bandwidth[r];
        if out {
            o
        } else {
            i
        }
    };
    let slowest = match at {
        Some(r) => bw(r),
        None => (0..machine.bandwidth.len())
            .map(bw)
            .fold(f64::INFINITY, f64::min),
    };
    if !(slowest.is_finite() && slowest > 0.0) {
        return none("a rank without links");
    }
    // An alltoall's chunks from one side of a cut to the other all cross
    // it: the bisection argument, at the narrowest cut known.
    let across = machine
        .cuts
        .iter()
        .filter(|_| name.starts_with("alltoall"))
        .filter(|c| c.bandwidth > 0.0 && c.from > 0 && c.to > 0)
        .map(|c| (c.from as f64 * c.to as f64 * b as f64 / c.bandwidth, c))
        .max_by(|x, y| x.0.total_cmp(&y.0));
    if let Some((ns, c)) = across.filter(|(ns, _)| *ns > bytes / slowest) {
        return Bounds {
            bandwidth_us: Some(ns / 1000.0),
            bandwidth_why: format!(
                "a chunk of {b} B from each of {} ranks to each of {} across a cut of {} GB/s",
                c.from,
                c.to,
                (c.bandwidth * 1000.0).round() / 1000.0
            ),
            latency_us,
        };
    }
    Bounds {
        bandwidth_us: Some(bytes / slowest / 1000.0),
        bandwidth_why: format!(
            "{formula}, D = {} B, over {} GB/s",
            buffer,
            (slowest * 1000.0).round() / 1000.0
        ),
        latency_us,
    }
}
