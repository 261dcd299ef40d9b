//! LogGOPS as LogGOPSim times a schedule (Hoefler, Schneider, Lumsdaine,
//! "LogGOPSim: Simulating Large-Scale Applications in the LogGOPS Model",
//! HPDC 2010; the simulator's source is the reference for what follows,
//! docs/cost.md).
//!
//! Every host has one CPU and one network interface, and three clocks:
//! the CPU's `nexto` and the interface's `nextgs` (sending) and `nextgr`
//! (receiving). Times are in nanoseconds; s is a message's size in bytes.
//!
//! * An operation is ready when the operations it requires have completed
//!   and those it requires to have started have started; it then waits in
//!   one queue ordered by time, then by arrival in the queue.
//! * A **send** at t, once `max(nexto, nextgs) <= t`: `nexto = t + o +
//!   (s-1)O`, `nextgs = t + g + (s-1)G`; the message arrives at `t + o +
//!   L`. A message of at most S bytes goes eagerly: the send has
//!   completed. A larger one is a rendezvous: the send completes when the
//!   receiver matches it, and the sender's clocks wait for that.
//! * An **arrival** at t, once `max(nexto, nextgr) <= t`:
//!   `nexto = t + o + max((s-1)O, (s-1)G)`, `nextgr = t + g + (s-1)G`; then it matches the
//!   first posted receive that takes it (sender and tag, -1 for any), or
//!   waits among the unexpected messages.
//! * A **receive** takes no CPU: posted, it matches the first unexpected
//!   message that it takes, or waits among the posted receives.
//! * A **computation** of n ns at t, once `nexto <= t`: `nexto = t + n`.
//! * An operation's dependents become ready when it completes; they are
//!   queued at the host's `nexto` if that is later (a send's at
//!   `max(nexto, nextgs)`).
//!
//! A host finishes at its last `nexto`; the schedule at the latest host.
//! A message of 0 bytes counts (s-1) as -1, as LogGOPSim does.
//!
//! LogGOPSim has no one-sided operations; commcheck times them by the
//! same rules, the target's CPU taking no part (remote memory access):
//!
//! * A **put** (a remote write or reduction, a packet write) at t, once
//!   `max(nexto, nextgs) <= t` on its rank: the CPU and interface as for
//!   a send; it arrives at the target at `t + o + L`, whose interface
//!   takes it once `nextgr <= t'`: `nextgr = t' + g + (s-1)G`. The put
//!   ends at `t' + (s-1)G`, its data written (the interface has taken its
//!   bytes); a packet write's flag is then a message the target's packet
//!   read takes as a receive takes one.
//! * A **get** at t, once `max(nexto, nextgs) <= t`: `nexto = t + o`,
//!   `nextgs = t + g` (a request carries no data), arriving at the peer
//!   at `t + o + L`, whose interface replies once `nextgs <= t2`:
//!   `nextgs = t2 + g + (s-1)G`; the reply arrives at `t2 + L` and the
//!   get's interface takes it once `nextgr <= t3`: `nextgr = t3 + g +
//!   (s-1)G`. The get ends at `t3 + (s-1)G`.
//! * A rank finishes at its last `nexto` or the end of the last put or
//!   get that wrote into it, whichever is later.

use models::schedule::{Kind, OpId, Schedule};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// LogGOPS's parameters, in nanoseconds (G and O per byte), and S in
/// bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogGops {
    /// Latency: from a send's start to its arrival, less o.
    pub l: i64,
    /// Overhead: CPU time to send or receive a message.
    pub o: i64,
    /// Gap: network interface time between two messages.
    pub g: i64,
    /// Gap per byte.
    pub big_g: i64,
    /// Overhead per byte.
    pub big_o: i64,
    /// Largest message sent eagerly (bytes); larger ones rendezvous.
    pub s: i64,
}

impl Default for LogGops {
    /// LogGOPSim's defaults.
    fn default() -> Self {
        LogGops {
            l: 2500,
            o: 1500,
            g: 1000,
            big_g: 6,
            big_o: 0,
            s: 65535,
        }
    }
}

impl LogGops {
    /// The parameters `L=2500,o=1500,...` set (each of L, o, g, G, O, S at
    /// most once; the others LogGOPSim's defaults).
    pub fn parse(text: &str) -> Result<LogGops, String> {
        let mut p = LogGops::default();
        for (name, value) in super::pairs(text, "L=2500")? {
            let value: i64 = value
                .parse()
                .ok()
                .filter(|v| (0..=1 << 40).contains(v))
                .ok_or_else(|| {
                    format!("{name}={value}: a parameter is a whole number, 0 to 2^40")
                })?;
            match name {
                "L" => p.l = value,
                "o" => p.o = value,
                "g" => p.g = value,
                "G" => p.big_g = value,
                "O" => p.big_o = value,
                "S" => p.s = value,
                _ => {
                    return Err(format!(
                        "{name}: LogGOPS's parameters are L, o, g, G, O and S"
                    ))
                }
            }
        }
        Ok(p)
    }

    /// The parameters in words (`L=2500 ns, o=1500 ns, ...`).
    pub fn describe(&self) -> String {
        format!(
            "L={} ns, o={} ns, g={} ns, G={} ns/B, O={} ns/B, S={} B",
            self.l, self.o, self.g, self.big_g, self.big_o, self.s
        )
    }
}

/// What the queue holds: an operation ready to go, or a message arrived
/// at its receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    Op(OpId),
    Arrival(OpId),
    /// A put's data, or a get's reply, at the rank it writes.
    Landing(OpId),
    /// A get's request at the rank it reads.
    Request(OpId),
}

/// Per operation, what is left before it is ready.
struct Waiting {
    /// Required operations not completed, and not started.
    left: Vec<u32>,
    /// Per operation, the operations that wait for it to complete and to
    /// start.
    on_end: Vec<Vec<OpId>>,
    on_start: Vec<Vec<OpId>>,
}

/// Each rank's finishing time (ns) when `schedule` runs under `p`, its
/// sends and receives of the sizes `bytes` gives (an operation's own, or
/// the file's chunk size times its chunks) and its computations of their
/// own lengths.
pub fn finish_times(schedule: &Schedule, p: &LogGops, bytes: impl Fn(OpId) -> u64) -> Vec<i64> {
    let ops = &schedule.ops;
    let n = ops.len();
    let mut w = Waiting {
        left: vec![0; n],
        on_end: vec![Vec::new(); n],
        on_start: vec![Vec::new(); n],
    };
    for (i, op) in ops.iter().enumerate() {
        w.left[i] = (op.after.len() + op.started_after.len()) as u32;
        for &a in &op.after {
            w.on_end[a as usize].push(i as OpId);
        }
        for &a in &op.started_after {
            w.on_start[a as usize].push(i as OpId);
        }
    }
    let ranks = schedule.ranks as usize;
    let (mut nexto, mut nextgs, mut nextgr) =
        (vec![0i64; ranks], vec![0i64; ranks], vec![0i64; ranks]);
    // Per rank, when the last put or get reply written into it was.
    let mut landed = vec![0i64; ranks];
    let mut queue: BinaryHeap<Reverse<(i64, u64, Event)>> = BinaryHeap::new();
    let mut seq = 0u64;
    let mut push = |queue: &mut BinaryHeap<_>, t: i64, e: Event| {
        queue.push(Reverse((t, seq, e)));
        seq += 1;
    };
    for (i, left) in w.left.iter().enumerate() {
        if *left == 0 {
            push(&mut queue, 0, Event::Op(i as OpId));
        }
    }
    // Per rank: receives posted and messages (sends) arrived unmatched.
    let mut posted: Vec<VecDeque<OpId>> = vec![VecDeque::new(); ranks];
    let mut unexpected: Vec<VecDeque<OpId>> = vec![VecDeque::new(); ranks];
    // Per rendezvous send, the time its receiver matched it.
    let size = |op: OpId| bytes(op) as i64;
    // A receive takes a send's message, or a packet write's flag.
    let takes = |recv: OpId, send: OpId| {
        let (recv, send) = (&ops[recv as usize], &ops[send as usize]);
        send.kind
            .message_to(recv.rank)
            .is_some_and(|tag| recv.kind.admits(send.rank, tag))
    };
    // Frees what waits on `op` (its start or its end) at `t`.
    macro_rules! free {
        ($list:ident, $op:expr, $t:expr) => {{
            let op: OpId = $op;
            for k in 0..w.$list[op as usize].len() {
                let d = w.$list[op as usize][k];
                w.left[d as usize] -= 1;
                if w.left[d as usize] == 0 {
                    let r = ops[d as usize].rank as usize;
                    let at = match ops[d as usize].kind {
                        Kind::Send { .. } => nexto[r].max(nextgs[r]),
                        _ => nexto[r],
                    };
                    push(&mut queue, at.max($t), Event::Op(d));
                }
            }
        }};
    }
    // Completes a match of receive `recv` and send `send` at `t`.
    macro_rules! matched {
        ($recv:expr, $send:expr, $t:expr) => {{
            let (recv, send, t): (OpId, OpId, i64) = ($recv, $send, $t);
            free!(on_end, recv, t);
            if matches!(ops[send as usize].kind, Kind::Send { .. }) && size(send) > p.s {
                let sender = ops[send as usize].rank as usize;
                nexto[sender] = nexto[sender].max(t);
                nextgs[sender] = nextgs[sender].max(t);
                free!(on_end, send, t);
            }
        }};
    }
    while let Some(Reverse((t, _, event))) = queue.pop() {
        match event {
            Event::Op(i) => {
                let op = &ops[i as usize];
                let r = op.rank as usize;
                match &op.kind {
                    Kind::Send { .. } => {
                        let busy = nexto[r].max(nextgs[r]);
                        if busy > t {
                            push(&mut queue, busy, event);
                            continue;
                        }
                        let s = size(i);
                        nexto[r] = t + p.o + (s - 1) * p.big_o;
                        nextgs[r] = t + p.g + (s - 1) * p.big_g;
                        free!(on_start, i, t);
                        push(&mut queue, t + p.o + p.l, Event::Arrival(i));
                        if s <= p.s {
                            free!(on_end, i, t);
                        }
                    }
                    Kind::Recv { .. } => {
                        free!(on_start, i, t);
                        let q = &mut unexpected[r];
                        match q.iter().position(|&m| takes(i, m)) {
                            Some(k) => {
                                let send = q.remove(k).expect("a position in the queue");
                                matched!(i, send, t);
                            }
                            None => posted[r].push_back(i),
                        }
                    }
                    Kind::Calc => {
                        if nexto[r] > t {
                            push(&mut queue, nexto[r], event);
                            continue;
                        }
                        free!(on_start, i, t);
                        nexto[r] = t + size(i);
                        free!(on_end, i, t);
                    }
                    Kind::Move { from, to, .. } if from.0 != op.rank || to.0 != op.rank => {
                        let busy = nexto[r].max(nextgs[r]);
                        if busy > t {
                            push(&mut queue, busy, event);
                            continue;
                        }
                        free!(on_start, i, t);
                        match to.0 as usize != r {
                            // A put: as a send's, its data to the target.
                            true => {
                                let s = size(i);
                                nexto[r] = t + p.o + (s - 1) * p.big_o;
                                nextgs[r] = t + p.g + (s - 1) * p.big_g;
                            }
                            // A get: a request of no data.
                            false => {
                                nexto[r] = t + p.o;
                                nextgs[r] = t + p.g;
                            }
                        }
                        let next = match to.0 as usize != r {
                            true => Event::Landing(i),
                            false => Event::Request(i),
                        };
                        push(&mut queue, t + p.o + p.l, next);
                    }
                    // Local copies and reductions take no time here.
                    Kind::Copy { .. } | Kind::Reduce { .. } | Kind::Move { .. } => {
                        free!(on_start, i, t);
                        free!(on_end, i, t);
                    }
                }
            }
            Event::Request(get) => {
                // The peer's interface replies with the data.
                let Kind::Move { from, .. } = ops[get as usize].kind else {
                    continue;
                };
                let q = from.0 as usize;
                if nextgs[q] > t {
                    push(&mut queue, nextgs[q], event);
                    continue;
                }
                nextgs[q] = t + p.g + (size(get) - 1) * p.big_g;
                push(&mut queue, t + p.l, Event::Landing(get));
            }
            Event::Landing(op) => {
                let Kind::Move { to, flag, .. } = ops[op as usize].kind else {
                    continue;
                };
                let q = to.0 as usize;
                if nextgr[q] > t {
                    push(&mut queue, nextgr[q], event);
                    continue;
                }
                let s = size(op);
                nextgr[q] = t + p.g + (s - 1) * p.big_g;
                // Written once the interface has taken its bytes.
                let t = t + (s - 1).max(0) * p.big_g;
                landed[q] = landed[q].max(t);
                free!(on_end, op, t);
                if flag.is_some() {
                    let waiting = &mut posted[q];
                    match waiting.iter().position(|&recv| takes(recv, op)) {
                        Some(k) => {
                            let recv = waiting.remove(k).expect("a position in the queue");
                            matched!(recv, op, t);
                        }
                        None => unexpected[q].push_back(op),
                    }
                }
            }
            Event::Arrival(send) => {
                let Kind::Send { to, .. } = ops[send as usize].kind else {
                    continue;
                };
                let r = to as usize;
                let busy = nexto[r].max(nextgr[r]);
                if busy > t {
                    push(&mut queue, busy, event);
                    continue;
                }
                let s = size(send);
                nexto[r] = t + p.o + ((s - 1) * p.big_o).max((s - 1) * p.big_g);
                nextgr[r] = t + p.g + (s - 1) * p.big_g;
                let q = &mut posted[r];
                match q.iter().position(|&recv| takes(recv, send)) {
                    Some(k) => {
                        let recv = q.remove(k).expect("a position in the queue");
                        matched!(recv, send, t);
                    }
                    None => unexpected[r].push_back(send),
                }
            }
        }
    }
    nexto.iter().zip(&landed).map(|(&o, &l)| o.max(l)).collect()
}
