//! The matchings a schedule allows at every relative speed, where its
//! receives do not fix them (docs/schedules.md, "Every relative speed"): a
//! receive from any rank or with any tag, or messages of one (sender,
//! receiver, tag) sent or taken in no fixed order.
//!
//! Given which message each receive takes, happens-before is one partial
//! order and one pass of [`super::causal`] judges every execution with
//! that matching. So the executions are explored up to their matching:
//! the only events that conflict are two receives of a rank taking one
//! message (or one receive taking one message or another); every other
//! event (a start, the end of a send, a copy, a computation) enables
//! others and disables none, and is taken as soon as it can be. A state is
//! the set of matches made; from it, every receive that has started may
//! take every message it admits that is there:
//!
//! * sent to its rank, from the rank and with the tag it names (any, where
//!   it names none), and sent (a packet write's flag: written);
//! * not overtaking: no message of the same sender it admits, sent by an
//!   operation ordered before this message's, is still untaken (MPI's
//!   non-overtaking rule);
//! * not taken from an earlier receive: no receive of the rank ordered
//!   before it, posted and still waiting, admits it (MPI matches a
//!   message with the earliest posted receive that admits it).
//!
//! A receive *matches* a message then; it may end later, as slowly as its
//! speed makes it. Every sequence of matches the rules allow is reached,
//! each matching once (the states are deduplicated), and each maximal one
//! is judged by the pass: a race, a wrong end, or an operation that never
//! completes at those speeds (a receive left with no message: a deadlock
//! some speeds produce) is reported with the matches that make it
//! ([`super::causal`] judges each).
//!
//! **Forced matches** are made alone (a partial-order reduction): where a
//! waiting receive `r` may take a message `m`, every other untaken message
//! `r` admits is of `m`'s sender and sent after it, and every other
//! receive that admits `m` has ended or comes after `r`, then nothing can
//! take `m` but `r` and `r` can take nothing but `m` (non-overtaking, and
//! the earliest posted receive first, keep it so), and the match stays
//! possible until made. Every maximal matching from there makes it, and
//! made first, every other sequence of matches stays possible (the end of
//! `r` only starts operations, and removes a waiting receive and an
//! untaken message, which only ever forbid matches). So the explorer
//! makes it alone: the same maximal matchings, without the interleavings
//! of independent ranks' forced matches (a ring of untagged receives is
//! one chain). A test compares the two explorations on random schedules.

use super::{Kind, OpId, Rank, Schedule};
use std::collections::HashSet;

/// Most operations of a schedule whose matchings are explored (the order
/// between operations is kept as a bit matrix: 32 MB at this size).
pub const MAX_OPS: usize = 1 << 14;

/// Most work (per matching visited, its operations and the pairs of
/// waiting receives and messages it weighs) before the check stops
/// `unknown`: seconds.
pub const MAX_WORK: u64 = 1 << 28;

/// Most matches named in a counterexample's interleaving.
const MAX_NAMED: usize = 24;

/// A message: the operation that sends it, and the rank it goes to.
#[derive(Clone, Copy)]
struct Message {
    send: OpId,
    from: Rank,
    to: Rank,
    tag: u32,
    /// A packet write's flag: there once the write has ended, not started.
    at_end: bool,
}

/// Where the explorer is: which operations have started and ended, which
/// message each receive took, which messages are taken.
#[derive(Clone)]
struct State {
    started: Vec<bool>,
    ended: Vec<bool>,
    took: Vec<u32>,
    taken: Vec<bool>,
}

/// No message (a receive that took none).
const NONE: u32 = u32::MAX;

/// The schedule's order and messages, for the explorer.
struct Explorer<'a> {
    s: &'a Schedule,
    messages: Vec<Message>,
    /// Per rank, the messages sent to it.
    to_rank: Vec<Vec<u32>>,
    /// Per operation, those that may start once it has started, and once
    /// it has ended.
    on_start: Vec<Vec<OpId>>,
    on_end: Vec<Vec<OpId>>,
    /// Per operation, a bit per operation ordered before it.
    before: Vec<Vec<u64>>,
}

impl Explorer<'_> {
    fn new(s: &Schedule) -> Explorer<'_> {
        let n = s.ops.len();
        let mut messages = Vec::new();
        let mut to_rank = vec![Vec::new(); s.ranks as usize];
        let mut on_start = vec![Vec::new(); n];
        let mut on_end = vec![Vec::new(); n];
        for (i, op) in s.ops.iter().enumerate() {
            for &a in &op.after {
                on_end[a as usize].push(i as OpId);
            }
            for &a in &op.started_after {
                on_start[a as usize].push(i as OpId);
            }
            let to: Vec<(Rank, u32, bool)> = match &op.kind {
                Kind::Send { to, also, tag, .. } => std::iter::once(to)
                    .chain(also)
                    .map(|&t| (t, *tag, false))
                    .collect(),
                Kind::Move {
                    to, flag: Some(t), ..
                } => vec![(to.0, *t, true)],
                _ => Vec::new(),
            };
            for (t, tag, at_end) in to {
                to_rank[t as usize].push(messages.len() as u32);
                messages.push(Message {
                    send: i as OpId,
                    from: op.rank,
                    to: t,
                    tag,
                    at_end,
                });
            }
        }
        let before = order(s);
        Explorer {
            s,
            messages,
            to_rank,
            on_start,
            on_end,
            before,
        }
    }

    /// True if operation `a` is ordered before operation `b`.
    fn precedes(&self, a: OpId, b: OpId) -> bool {
        self.before[b as usize][a as usize / 64] >> (a % 64) & 1 == 1
    }

    /// True if receive `r` admits message `m` (its sender and tag).
    fn admits(&self, r: OpId, m: u32) -> bool {
        let (m, op) = (&self.messages[m as usize], &self.s.ops[r as usize]);
        m.to == op.rank && op.kind.admits(m.from, m.tag)
    }

    /// The state with no match made.
    fn initial(&self) -> State {
        let n = self.s.ops.len();
        let mut st = State {
            started: vec![false; n],
            ended: vec![false; n],
            took: vec![NONE; n],
            taken: vec![false; self.messages.len()],
        };
        self.settle(&mut st, (0..n as OpId).collect());
        st
    }

    /// Starts, and ends, every operation of `work` (and those they free)
    /// that can, but for receives' ends: those are matches.
    fn settle(&self, st: &mut State, mut work: Vec<OpId>) {
        while let Some(i) = work.pop() {
            let op = &self.s.ops[i as usize];
            let ready = !st.started[i as usize]
                && op.after.iter().all(|&a| st.ended[a as usize])
                && op.started_after.iter().all(|&a| st.started[a as usize]);
            if !ready {
                continue;
            }
            st.started[i as usize] = true;
            work.extend(&self.on_start[i as usize]);
            if !matches!(op.kind, Kind::Recv { .. }) {
                st.ended[i as usize] = true;
                work.extend(&self.on_end[i as usize]);
            }
        }
    }

    /// The matches state `st` allows: (receive, message); None once they
    /// would take more than the `budget` left of work (taken from it).
    fn choices(&self, st: &State, budget: &mut u64) -> Option<Vec<(OpId, u32)>> {
        let s = self.s;
        let mut waiting: Vec<Vec<OpId>> = vec![Vec::new(); s.ranks as usize];
        for (r, op) in s.ops.iter().enumerate() {
            if matches!(op.kind, Kind::Recv { .. }) && st.started[r] && !st.ended[r] {
                waiting[op.rank as usize].push(r as OpId);
            }
        }
        let mut out = Vec::new();
        for (rank, waiting) in waiting.iter().enumerate().filter(|(_, w)| !w.is_empty()) {
            // Messages issued to the rank and not taken (a packet write's
            // is there once the write has ended).
            let issued: Vec<u32> = self.to_rank[rank]
                .iter()
                .copied()
                .filter(|&m| {
                    !st.taken[m as usize] && st.started[self.messages[m as usize].send as usize]
                })
                .collect();
            let (w, i) = (waiting.len() as u64, issued.len() as u64);
            *budget = budget.checked_sub(w * i * (w + i) + 1)?;
            for &m in &issued {
                let msg = self.messages[m as usize];
                if msg.at_end && !st.ended[msg.send as usize] {
                    continue;
                }
                for &r in waiting.iter().filter(|&&r| self.admits(r, m)) {
                    let overtakes = issued.iter().any(|&m0| {
                        let old = &self.messages[m0 as usize];
                        m0 != m
                            && old.from == msg.from
                            && self.admits(r, m0)
                            && self.precedes(old.send, msg.send)
                    });
                    let earlier = waiting
                        .iter()
                        .any(|&q| q != r && self.precedes(q, r) && self.admits(q, m));
                    if !overtakes && !earlier {
                        out.push((r, m));
                    }
                }
            }
        }
        Some(out)
    }

    /// True if receive `r` taking message `m` is forced in `st`: every
    /// maximal matching from `st` makes it (see the module's words).
    fn forced(&self, st: &State, r: OpId, m: u32) -> bool {
        let msg = self.messages[m as usize];
        let rank = self.s.ops[r as usize].rank;
        let alone = self.to_rank[rank as usize].iter().all(|&o| {
            let other = &self.messages[o as usize];
            o == m
                || st.taken[o as usize]
                || !self.admits(r, o)
                || (other.from == msg.from && self.precedes(msg.send, other.send))
        });
        alone
            && self.s.rank_ops(rank).all(|q| {
                q == r
                    || !matches!(self.s.ops[q as usize].kind, Kind::Recv { .. })
                    || st.ended[q as usize]
                    || self.precedes(r, q)
                    || !self.admits(q, m)
            })
    }

    /// `st` with receive `r` taking message `m`.
    fn take(&self, st: &State, r: OpId, m: u32) -> State {
        let mut next = st.clone();
        next.took[r as usize] = m;
        next.taken[m as usize] = true;
        next.ended[r as usize] = true;
        self.settle(&mut next, self.on_end[r as usize].clone());
        next
    }

    /// The words of a matching: each receive that could take another
    /// message, and the one it takes.
    fn words(&self, st: &State, name: &dyn Fn(Rank) -> String) -> Vec<String> {
        let s = self.s;
        let mut words = Vec::new();
        let mut more = 0;
        for (r, &m) in st.took.iter().enumerate() {
            if m == NONE {
                continue;
            }
            let r = r as OpId;
            let rank = s.ops[r as usize].rank;
            let others = self.to_rank[rank as usize]
                .iter()
                .any(|&o| o != m && self.admits(r, o));
            if !others {
                continue;
            }
            match words.len() < MAX_NAMED {
                true => words.push(format!(
                    "{} takes the message of {}",
                    s.where_is_named(name, r),
                    s.where_is_named(name, self.messages[m as usize].send)
                )),
                false => more += 1,
            }
        }
        if more > 0 {
            words.push(format!(
                "({more} more receives take a message of their choice)"
            ));
        }
        words
    }
}

/// Per operation, a bit per operation ordered before it (through `after`
/// and `started_after`, transitively); operations on a cycle never start,
/// and their bits do not matter.
fn order(s: &Schedule) -> Vec<Vec<u64>> {
    let n = s.ops.len();
    let words = n.div_ceil(64);
    let mut before = vec![vec![0u64; words]; n];
    let mut waiting: Vec<usize> = s
        .ops
        .iter()
        .map(|o| o.after.len() + o.started_after.len())
        .collect();
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, o) in s.ops.iter().enumerate() {
        for &a in o.after.iter().chain(&o.started_after) {
            next[a as usize].push(i);
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&i| waiting[i] == 0).collect();
    while let Some(a) = ready.pop() {
        for &b in &next[a] {
            let (from, to) = match a < b {
                true => {
                    let (x, y) = before.split_at_mut(b);
                    (&x[a], &mut y[0])
                }
                false => {
                    let (x, y) = before.split_at_mut(a);
                    (&y[0], &mut x[b])
                }
            };
            for (t, f) in to.iter_mut().zip(from) {
                *t |= f;
            }
            to[a / 64] |= 1 << (a % 64);
            waiting[b] -= 1;
            if waiting[b] == 0 {
                ready.push(b);
            }
        }
    }
    before
}

/// A maximal matching: the send each receive takes (None: none), the
/// matches named in words ([`MAX_NAMED`] at most), and an operation
/// that never completes with it, if one does not.
pub struct Matching {
    /// Per operation, the send a receive takes (None: none, or not a
    /// receive).
    pub sent_by: Vec<Option<OpId>>,
    /// The receives that could take another message, with the one they
    /// take, in words.
    pub words: Vec<String>,
    /// An operation that never completes with this matching.
    pub stuck: Option<OpId>,
}

/// Calls `visit` on each maximal matching of `s`'s receives at every
/// speed, each once, until it returns false; Err (why) past
/// [`MAX_OPS`] operations or [`MAX_WORK`] steps of work.
pub fn each(
    s: &Schedule,
    name: &dyn Fn(Rank) -> String,
    visit: impl FnMut(Matching) -> bool,
) -> Result<(), String> {
    explore(s, name, true, visit).map(|_| ())
}

/// [`each`], making forced matches alone where `reduce` (false: every
/// interleaving of matches, the reference the reduction is tested
/// against); Ok: how many matchings, partial or whole, it reached.
fn explore(
    s: &Schedule,
    name: &dyn Fn(Rank) -> String,
    reduce: bool,
    mut visit: impl FnMut(Matching) -> bool,
) -> Result<usize, String> {
    let n = s.ops.len();
    if n > MAX_OPS {
        return Err(format!(
            "the matchings of more than {MAX_OPS} operations are not explored"
        ));
    }
    let x = Explorer::new(s);
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let mut stack = vec![x.initial()];
    let mut budget = MAX_WORK;
    while let Some(st) = stack.pop() {
        let choices = budget.checked_sub(n as u64 + 1).and_then(|left| {
            budget = left;
            x.choices(&st, &mut budget)
        });
        let Some(mut choices) = choices else {
            return Err(format!(
                "its {} matchings (partial or whole) explored so far are more than 2^28 \
                 steps of work",
                seen.len()
            ));
        };
        if choices.is_empty() {
            let matching = Matching {
                sent_by: st
                    .took
                    .iter()
                    .map(|&m| (m != NONE).then(|| x.messages[m as usize].send))
                    .collect(),
                words: x.words(&st, name),
                stuck: (0..n).find(|&i| !st.ended[i]).map(|i| i as OpId),
            };
            if !visit(matching) {
                return Ok(seen.len());
            }
            continue;
        }
        if reduce {
            let ranks = s.ranks as u64;
            budget = budget.saturating_sub(choices.len() as u64 * (n as u64 + ranks));
            if let Some(&forced) = choices.iter().find(|&&(r, m)| x.forced(&st, r, m)) {
                choices = vec![forced];
            }
        }
        for (r, m) in choices {
            let next = x.take(&st, r, m);
            if seen.insert(next.took.clone()) {
                stack.push(next);
            }
        }
    }
    Ok(seen.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::{Chunks, Data};
    use std::collections::BTreeSet;

    /// A schedule of messages of no data: per rank its operations (kind,
    /// the rank's earlier operations it comes after, by index).
    fn schedule(ops: Vec<Vec<(Kind, Vec<u32>)>>) -> Schedule {
        let ranks = ops.len() as Rank;
        let chunks = Chunks {
            reduced: Vec::new(),
            positions: 0,
            initial: vec![Vec::new(); ranks as usize],
            expect: vec![Vec::new(); ranks as usize],
            origin: Vec::new(),
            buffers: Vec::new(),
            layout: None,
            pieces: 1,
        };
        crate::schedule::test_schedule(ranks, ops, chunks)
    }

    fn send(to: Rank, tag: u32) -> Kind {
        Kind::Send {
            to,
            also: Vec::new(),
            tag,
            data: Data::Nothing,
            path: None,
        }
    }

    fn recv(from: Option<Rank>, tag: Option<u32>) -> Kind {
        Kind::Recv {
            from,
            tag,
            data: Data::Nothing,
            reduce: false,
        }
    }

    /// Maximal matchings: each receive's send, and the operation left
    /// waiting.
    type Found = BTreeSet<(Vec<Option<OpId>>, Option<OpId>)>;

    /// The maximal matchings of `s`, and how many matchings were reached.
    fn matchings(s: &Schedule, reduce: bool) -> (Found, usize) {
        let mut found = BTreeSet::new();
        let name = |r: Rank| format!("rank {r}");
        let reached = explore(s, &name, reduce, |m| {
            found.insert((m.sent_by, m.stuck));
            true
        })
        .unwrap();
        (found, reached)
    }

    /// On random schedules (sends and receives of two tags, receives from
    /// a named rank or any, with a tag or any, each after a random set of
    /// its rank's earlier operations), the reduced exploration finds the
    /// same maximal matchings, deadlocks included, as every interleaving.
    #[test]
    fn forced_matches_keep_every_maximal_matching() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |below: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        };
        let (mut full, mut reduced, mut fewer) = (0, 0, 0);
        for _ in 0..600 {
            let ranks = 2 + next(3) as Rank;
            let ops: Vec<Vec<(Kind, Vec<u32>)>> = (0..ranks)
                .map(|r| {
                    (0..1 + next(5) as u32)
                        .map(|i| {
                            let peer = (r + 1 + next(ranks as u64 - 1) as Rank) % ranks;
                            let tag = next(2) as u32;
                            let kind = match next(5) {
                                0 | 1 => send(peer, tag),
                                2 => recv(Some(peer), Some(tag)),
                                3 => recv(Some(peer), None),
                                _ => recv(None, (next(2) == 0).then_some(tag)),
                            };
                            let after = (0..i).filter(|_| next(3) == 0).collect();
                            (kind, after)
                        })
                        .collect()
                })
                .collect();
            let s = schedule(ops);
            let (a, n) = matchings(&s, false);
            let (b, m) = matchings(&s, true);
            assert_eq!(a, b, "{:?}", s.ops);
            full += n;
            reduced += m;
            fewer += (m < n) as u32;
        }
        assert!(
            reduced < full && fewer > 0,
            "{reduced} of {full}, {fewer} fewer"
        );
    }

    /// A ring of `n` ranks passing `rounds` messages on, each receive
    /// naming its sender but no tag: every match is forced, and the
    /// reduced exploration is one chain of matches, where every
    /// interleaving of the ranks' matches is exponential in n.
    #[test]
    fn a_ring_of_untagged_receives_is_one_chain() {
        let ring = |n: Rank, rounds: u32| {
            schedule(
                (0..n)
                    .map(|r| {
                        (0..rounds)
                            .flat_map(|k| {
                                let chain = |i: u32| (i > 0).then(|| i - 1).into_iter().collect();
                                [
                                    (send((r + 1) % n, 0), chain(2 * k)),
                                    (recv(Some((r + n - 1) % n), None), chain(2 * k + 1)),
                                ]
                            })
                            .collect()
                    })
                    .collect(),
            )
        };
        let s = ring(6, 2);
        let (a, full) = matchings(&s, false);
        let (b, reduced) = matchings(&s, true);
        assert_eq!((a.len(), &a), (1, &b));
        // A partial matching a match made.
        assert_eq!(reduced, 6 * 2);
        assert!(full > 10 * reduced, "{full}");
        let (c, reduced) = matchings(&ring(8, 14), true);
        assert_eq!((c.len(), reduced), (1, 8 * 14));
    }
}
