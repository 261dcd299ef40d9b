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
    let takes = |recv: OpId, send: OpId| {
        let (Kind::Recv { from, tag, .. }, Kind::Send { tag: sent, .. }) =
            (&ops[recv as usize].kind, &ops[send as usize].kind)
        else {
            return false;
        };
        from.is_none_or(|f| f == ops[send as usize].rank) && tag.is_none_or(|t| t == *sent)
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
            if size(send) > p.s {
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
                    // Local copies and reductions take no time here (one-sided
                    // accesses are not timed: `check schedule` refuses --cost
                    // for them).
                    Kind::Copy { .. } | Kind::Reduce { .. } | Kind::Move { .. } => {
                        free!(on_start, i, t);
                        free!(on_end, i, t);
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
    nexto
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parameters are named, each at most once, whole numbers.
    #[test]
    fn parameters_are_read() {
        let p = LogGops::parse("L=100,G=2").unwrap();
        assert_eq!((p.l, p.big_g, p.o), (100, 2, 1500));
        assert!(LogGops::parse("x=1")
            .unwrap_err()
            .contains("L, o, g, G, O and S"));
        assert!(LogGops::parse("L=1,L=2").unwrap_err().contains("twice"));
        assert!(LogGops::parse("L=-1").unwrap_err().contains("whole number"));
        assert!(LogGops::parse("L").unwrap_err().contains("NAME=VALUE"));
        assert_eq!(LogGops::parse("").unwrap(), LogGops::default());
    }
}
