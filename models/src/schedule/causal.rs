//! A schedule at every relative speed (docs/schedules.md, "Every relative
//! speed"): ranks, threadblocks and messages run at whatever speeds their
//! order and their matching allow, with no clock and no slots.
//!
//! Each operation is two events, its start and its end. The end follows
//! the start; an operation starts once those it is ordered after have
//! ended (`after`) or started (`started_after`); a receive ends once its
//! message was sent (sends are eager: a send ends without its receive).
//! Where every receive names its sender and tag and the messages of each
//! (sender, receiver, tag) are issued and taken in an order the schedule
//! fixes, the k-th receive takes the k-th message (MPI's non-overtaking
//! rule, MSCCL-IR's FIFO connections), and every execution is a
//! linearisation of one partial order of events: happens-before. So one
//! pass over that order judges every execution (it is the one trace
//! optimal dynamic partial-order reduction would explore):
//!
//! * **race-freedom**: no two operations of a rank access one position,
//!   one of them writing, unless one ends before the other starts (a
//!   send reads its data, a receive writes or adds to it, a copy reads
//!   and writes, a reduction reads and adds). Additions commute where one
//!   processor applies a rank's reductions ([`Schedule::parallel_ranks`]
//!   false); on parallel threadblocks two additions race like writes.
//! * **causal-completeness**: what each rank must end with reaches it at
//!   every speed. Where messages name their data, a race-free schedule
//!   ends the same way at every speed (where an operation never
//!   completes, every execution stops at the same place), so the one
//!   pass computes that end and judges it as lock step does. Where messages carry all their
//!   sender holds (GOAL, Chakra), what a rank holds at a speed is what
//!   reaches it along causal chains: the collective's postcondition
//!   (a barrier's and an all-to-all's included) holds at every speed iff
//!   each rank's end has a causal chain from every rank whose chunk it
//!   must hold.
//!
//! Happens-before is kept as vector clocks over chains: a rank's events
//! are cut into chains (a threadblock's steps are one), an event's clock
//! is, per chain, how many of its events precede it; a clock lives until
//! its event's last successor is taken.

use super::values::{wrong_located, wrong_words, Values};
use super::{Data, Kind, OpId, Pos, Rank, Schedule};
use crate::protocol::Located;
use std::collections::HashMap;

/// Most clock entries alive at once (a chain's count per event not yet
/// done with): 512 MB.
pub const MAX_CLOCK_ENTRIES: usize = 1 << 27;

/// A verdict of the timing-free semantics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every execution keeps the property.
    Holds,
    /// Not judged, and why: the schedule is outside the semantics.
    NotJudged(String),
    /// Not judged, and why: beyond the check's limits.
    Unknown(String),
    /// An execution breaks it.
    Violated {
        /// Where, field by field: the rank concerned, and the position
        /// and operations where there are some.
        at: Located,
        /// What happens, in the file's words.
        text: String,
        /// An execution that shows it: operations in the order they end
        /// (the last two, of a race, running at once).
        interleaving: Vec<String>,
    },
}

/// The properties the timing-free semantics judges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Speeds {
    /// No data race.
    pub race_freedom: Verdict,
    /// The postcondition at every speed.
    pub causal_completeness: Verdict,
    /// True where the receives fix the matching, so that every execution
    /// is an ordering of one partial order (each receive takes the same
    /// message at every speed).
    pub one_order: bool,
}

/// How an operation touches a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Read,
    Write,
    Add,
}

impl Access {
    fn words(self) -> &'static str {
        match self {
            Access::Read => "reads",
            Access::Write => "writes",
            Access::Add => "adds to",
        }
    }
}

/// A list per event, kept flat: event e's are `items[start[e]..start[e + 1]]`.
struct Lists {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    /// The lists of `events` events from (event, item) pairs.
    fn new(events: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> Lists {
        let mut start = vec![0u32; events + 1];
        for (e, _) in pairs.clone() {
            start[e as usize + 1] += 1;
        }
        for e in 0..events {
            start[e + 1] += start[e];
        }
        let mut next = start.clone();
        let mut items = vec![0; start[events] as usize];
        for (e, x) in pairs {
            items[next[e as usize] as usize] = x;
            next[e as usize] += 1;
        }
        Lists { start, items }
    }

    /// Event `e`'s list.
    fn of(&self, e: usize) -> impl Iterator<Item = usize> + '_ {
        self.items[self.start[e] as usize..self.start[e + 1] as usize]
            .iter()
            .map(|&x| x as usize)
    }

    /// The length of event `e`'s list.
    fn len(&self, e: usize) -> u32 {
        self.start[e + 1] - self.start[e]
    }
}

/// An operation's access to a position.
type Touch = (OpId, Access);

/// Who touched a position since its last write.
#[derive(Default)]
struct Cell {
    write: Option<OpId>,
    reads: Vec<OpId>,
    adds: Vec<OpId>,
}

/// The operation an event is of, and whether it is its end.
fn op_of(e: usize) -> (OpId, bool) {
    ((e / 2) as OpId, e % 2 == 1)
}

/// Judges `s` at every relative speed, naming ranks by `name`.
pub fn judge(s: &Schedule, name: &dyn Fn(Rank) -> String) -> Speeds {
    let not = |why: String| Speeds {
        race_freedom: Verdict::NotJudged(why.clone()),
        causal_completeness: Verdict::NotJudged(why),
        one_order: false,
    };
    if let Some(op) = s.ops.iter().position(|o| o.slot.is_some()) {
        return not(format!(
            "{} is fixed to a slot: a global clock times the schedule, so it is judged in \
             lock step only",
            s.where_is_named(name, op as OpId)
        ));
    }
    let fixed =
        matches(s, name).and_then(|(sent_by, previous)| pass(s, name, &sent_by, &previous, None));
    match fixed {
        Ok(speeds) => Speeds {
            one_order: true,
            ..speeds
        },
        Err(why) => judge_each(s, name, &why),
    }
}

/// Judges `s` at every relative speed over every matching of its
/// receives ([`super::matchings`]); `why` says why they fix none. A
/// verdict found at one matching is reported with the matches that make
/// it; a matching that leaves an operation waiting forever is a
/// deadlock those speeds make.
fn judge_each(s: &Schedule, name: &dyn Fn(Rank) -> String, why: &str) -> Speeds {
    let mut race: Option<Verdict> = None;
    let mut wrong: Option<Verdict> = None;
    // A verdict not judged, or unknown, at some matching (the first).
    let mut unjudged: [Option<Verdict>; 2] = [None, None];
    let none = vec![Vec::new(); s.ops.len()];
    let explored = super::matchings::each(s, name, |m| {
        let Ok(speeds) = pass(s, name, &m.sent_by, &none, Some(&m.words)) else {
            unreachable!("a pass with no order to keep keeps it");
        };
        if race.is_none() && matches!(speeds.race_freedom, Verdict::Violated { .. }) {
            race = Some(speeds.race_freedom.clone());
        }
        if let Some(stuck) = m.stuck {
            wrong.get_or_insert_with(|| Verdict::Violated {
                at: Located {
                    rank: Some(s.ops[stuck as usize].rank),
                    operations: vec![s.where_is_named(name, stuck)],
                    ..Located::default()
                },
                text: format!(
                    "at some speeds {} never completes: the receives take messages so that it \
                     is left waiting (a deadlock those speeds make)",
                    s.where_is_named(name, stuck)
                ),
                interleaving: m.words.clone(),
            });
        } else if matches!(speeds.causal_completeness, Verdict::Violated { .. }) {
            wrong.get_or_insert(speeds.causal_completeness.clone());
        }
        for (slot, v) in unjudged
            .iter_mut()
            .zip([speeds.race_freedom, speeds.causal_completeness])
        {
            if matches!(v, Verdict::NotJudged(_) | Verdict::Unknown(_)) && slot.is_none() {
                *slot = Some(v);
            }
        }
        race.is_none() || wrong.is_none()
    });
    if let Err(limit) = explored {
        let why = format!("{why}, and {limit}: beyond the timing-free check");
        return Speeds {
            race_freedom: race.unwrap_or_else(|| Verdict::Unknown(why.clone())),
            causal_completeness: wrong.unwrap_or(Verdict::Unknown(why)),
            one_order: false,
        };
    }
    let [race_unjudged, wrong_unjudged] = unjudged;
    let verdict = |found: Option<Verdict>, unjudged: Option<Verdict>| {
        found.or(unjudged).unwrap_or(Verdict::Holds)
    };
    Speeds {
        race_freedom: verdict(race, race_unjudged),
        causal_completeness: verdict(wrong, wrong_unjudged),
        one_order: false,
    }
}

/// One pass over the happens-before order that receives taking the
/// messages of `sent_by` give (None: a receive that never completes).
/// `previous` lists, per operation, those of its (sender, receiver, tag)
/// the matching needs before it: Err if some speed does not keep that
/// order. `choices`, where the matching is one of several the schedule
/// allows ([`super::matchings`]), names the receives' choices: the
/// verdicts then hold for the speeds that make them.
pub(super) fn pass(
    s: &Schedule,
    name: &dyn Fn(Rank) -> String,
    sent_by: &[Option<OpId>],
    previous: &[Vec<OpId>],
    choices: Option<&[String]>,
) -> Result<Speeds, String> {
    let n = s.ops.len();
    // Events: 2i is op i's start, 2i + 1 its end.
    let events = 2 * n;
    // Edges (event, predecessor).
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(3 * n);
    let mut never = vec![false; events];
    for (i, op) in s.ops.iter().enumerate() {
        let (start, end) = (2 * i as u32, 2 * i as u32 + 1);
        edges.extend(op.after.iter().map(|&a| (start, 2 * a + 1)));
        edges.extend(op.started_after.iter().map(|&a| (start, 2 * a)));
        edges.push((end, start));
        if let Kind::Recv { .. } = op.kind {
            // A send is eager: its receive ends once it started; a packet
            // write's flag is seen once the write has ended.
            match sent_by[i] {
                Some(q) if matches!(s.ops[q as usize].kind, Kind::Move { .. }) => {
                    edges.push((end, 2 * q + 1))
                }
                Some(q) => edges.push((end, 2 * q)),
                None => never[end as usize] = true,
            }
        }
    }
    let rank_of = |e: usize| s.ops[e / 2].rank;
    let preds = Lists::new(events, edges.iter().copied());
    let succs = Lists::new(events, edges.iter().map(|&(e, p)| (p, e)));
    drop(edges);
    let mut waiting: Vec<u32> = (0..events).map(|e| preds.len(e)).collect();
    let mut left: Vec<u32> = (0..events).map(|e| succs.len(e)).collect();
    // First in, first out: the frontier, and the clocks alive, stay
    // about one event a chain.
    let mut ready: std::collections::VecDeque<usize> = (0..events)
        .filter(|&e| waiting[e] == 0 && !never[e])
        .collect();
    // Chains: (rank, events so far); per event its chain and place on it.
    let mut chains: Vec<(Rank, u32)> = Vec::new();
    let mut tail: Vec<usize> = Vec::new();
    let mut place: Vec<(u32, u32)> = vec![(u32::MAX, 0); events];
    let mut clocks: HashMap<usize, Vec<u32>> = HashMap::new();
    let mut alive = 0usize;
    let mut taken: Vec<u32> = Vec::with_capacity(events);
    let knowledge = s.ops.iter().any(|o| match &o.kind {
        Kind::Send { data, .. } | Kind::Recv { data, .. } => *data == Data::Everything,
        _ => false,
    });
    let mut values: Vec<Values> = (0..s.ranks)
        .map(|r| Values::initial(&s.chunks, r))
        .collect();
    // Messages sent and not yet taken by all their receivers.
    let mut in_flight: HashMap<OpId, (super::values::Payload, usize)> = HashMap::new();
    let mut cells: HashMap<(Rank, Pos), Cell> = HashMap::new();
    // The first race: the rank, the position, the earlier access, the later.
    let mut race: Option<(Rank, Pos, Touch, Touch)> = None;
    let mut uncaused: Vec<(Rank, Vec<Rank>)> = Vec::new();
    // Per rank, the join of its ends' clocks (messages that carry
    // everything: what reaches the rank).
    let mut reach: Vec<Vec<u32>> = vec![Vec::new(); s.ranks as usize];
    let mut unordered: Option<(OpId, OpId)> = None;
    while let Some(e) = ready.pop_front() {
        taken.push(e as u32);
        let r = rank_of(e);
        // The clock: the join of the predecessors', then this event (but
        // a relaxed signal's: it orders the wait's end, makes nothing
        // visible).
        let mut clock: Vec<u32> = Vec::new();
        let relaxed_signal = match op_of(e) {
            (op, true) => sent_by[op as usize].filter(|&q| {
                s.relaxed.binary_search(&op).is_ok() || s.relaxed.binary_search(&q).is_ok()
            }),
            _ => None,
        };
        for p in preds.of(e) {
            let pc = clocks
                .get(&p)
                .expect("a predecessor's clock lives until taken");
            if relaxed_signal != Some((p / 2) as OpId) {
                if pc.len() > clock.len() {
                    clock.resize(pc.len(), 0);
                }
                for (c, &x) in clock.iter_mut().zip(pc) {
                    *c = (*c).max(x);
                }
            }
            left[p] -= 1;
            if left[p] == 0 {
                alive -= clocks.remove(&p).map_or(0, |c| c.len());
            }
        }
        {
            // Extend the chain of a predecessor of the rank that ends it.
            let chain = preds
                .of(e)
                .map(|p| (p, place[p].0))
                .find(|&(p, c)| c != u32::MAX && chains[c as usize].0 == r && tail[c as usize] == p)
                .map(|(_, c)| c)
                .unwrap_or_else(|| {
                    chains.push((r, 0));
                    tail.push(usize::MAX);
                    chains.len() as u32 - 1
                });
            let k = chains[chain as usize].1;
            chains[chain as usize].1 += 1;
            tail[chain as usize] = e;
            place[e] = (chain, k);
            if clock.len() <= chain as usize {
                clock.resize(chain as usize + 1, 0);
            }
            clock[chain as usize] = k + 1;
        }
        let before = |x: usize, clock: &[u32]| {
            let (c, k) = place[x];
            clock.get(c as usize).is_some_and(|&have| have > k)
        };
        let (op, end) = op_of(e);
        if end && knowledge {
            let joined = &mut reach[r as usize];
            if joined.len() < clock.len() {
                joined.resize(clock.len(), 0);
            }
            for (c, &x) in joined.iter_mut().zip(&clock) {
                *c = (*c).max(x);
            }
        }
        // The messages of a (sender, receiver, tag) are issued,
        // and its receives posted, in an order every speed keeps.
        for &q in previous[op as usize].iter().filter(|_| !end) {
            if unordered.is_none() && !before(2 * q as usize, &clock) {
                unordered = Some((q, op));
            }
        }
        let o = &s.ops[op as usize];
        let v = &mut values[o.rank as usize];
        match (&o.kind, end) {
            (Kind::Send { data, also, .. }, false) => {
                in_flight.insert(op, (v.payload(data), 1 + also.len()));
            }
            (
                Kind::Recv {
                    data, reduce: add, ..
                },
                true,
            ) => {
                // A bus write's readers each take it (a packet write's
                // flag carries nothing: its data landed with the write).
                let sent = sent_by[op as usize].filter(|q| in_flight.contains_key(q));
                if let Some(q) = sent {
                    let (payload, readers) = in_flight.get_mut(&q).expect("in flight");
                    let payload = *payload;
                    *readers -= 1;
                    if *readers == 0 {
                        in_flight.remove(&q);
                    }
                    v.put(data, payload, *add);
                }
            }
            (Kind::Copy { from, to }, false) => v.copy(*from, *to),
            (Kind::Reduce { from, to }, false) => v.reduce(*from, *to),
            (Kind::Move { from, to, add, .. }, false) => {
                let value = values[from.0 as usize].at(from.1);
                values[to.0 as usize].store(to.1, value, *add);
            }
            _ => {}
        }
        if !end && !knowledge && race.is_none() {
            for (owner, p, access) in accesses(o) {
                let cell = cells.entry((owner, p)).or_default();
                let parallel = s.parallel_ranks;
                let conflicts = |other: Access| match (access, other) {
                    (Access::Read, Access::Read) => false,
                    (Access::Add, Access::Add) => parallel,
                    _ => true,
                };
                let earlier = cell
                    .write
                    .map(|w| (w, Access::Write))
                    .into_iter()
                    .chain(cell.reads.iter().map(|&q| (q, Access::Read)))
                    .chain(cell.adds.iter().map(|&q| (q, Access::Add)));
                let mut clash = None;
                for (q, was) in earlier {
                    if q != op && conflicts(was) && !before(2 * q as usize + 1, &clock) {
                        clash = Some((q, was));
                        break;
                    }
                }
                if let Some(first) = clash {
                    race = Some((owner, p, first, (op, access)));
                    break;
                }
                match access {
                    Access::Read => cell.reads.push(op),
                    Access::Add => cell.adds.push(op),
                    Access::Write => {
                        *cell = Cell {
                            write: Some(op),
                            ..Cell::default()
                        }
                    }
                }
            }
        }

        alive += clock.len();
        if alive > MAX_CLOCK_ENTRIES {
            let why = format!(
                "happens-before over {n} operations needs more than 2^27 clock entries at \
                 once: beyond the timing-free check"
            );
            return Ok(Speeds {
                race_freedom: Verdict::Unknown(why.clone()),
                causal_completeness: Verdict::Unknown(why),
                one_order: false,
            });
        }
        for x in succs.of(e) {
            waiting[x] -= 1;
            if waiting[x] == 0 && !never[x] {
                ready.push_back(x);
            }
        }
        match left[e] {
            0 => alive -= clock.len(),
            _ => {
                clocks.insert(e, clock);
            }
        }
    }
    if let Some((a, b)) = unordered {
        let what = match s.ops[a as usize].kind {
            Kind::Send { .. } => "send",
            _ => "receive",
        };
        return Err(format!(
            "{} and {} {what} with one sender, receiver and tag in no fixed order: which \
             message each receive takes depends on speed",
            s.where_is_named(name, a),
            s.where_is_named(name, b),
        ));
    }
    let mut done = vec![false; events];
    for &e in &taken {
        done[e as usize] = true;
    }
    let order: Vec<u32> = taken;
    let stuck = order.len() < events;
    if knowledge && !stuck {
        for (r, joined) in reach.iter().enumerate() {
            // Ranks with an event before this rank's end.
            let mut reached = vec![false; s.ranks as usize];
            reached[r] = true;
            for (c, &k) in joined.iter().enumerate() {
                if k > 0 {
                    reached[chains[c].0 as usize] = true;
                }
            }
            let mut missing: Vec<Rank> = s.chunks.expect[r]
                .iter()
                .filter_map(|&(_, want)| match want {
                    super::Value::Chunk(c) => Some(s.chunks.origin[c as usize]),
                    _ => None,
                })
                .filter(|&q| !reached[q as usize])
                .collect();
            missing.sort_unstable();
            missing.dedup();
            if !missing.is_empty() {
                uncaused.push((r as Rank, missing));
            }
        }
    }
    // An execution: what must happen before `targets` (and, `inclusive`,
    // they themselves), in the order of the pass, as operations that end.
    let past = |targets: &[usize], inclusive: bool| -> Vec<OpId> {
        let mut seen = vec![false; events];
        let mut stack: Vec<usize> = targets.iter().flat_map(|&t| preds.of(t)).collect();
        if inclusive {
            stack.extend(targets);
        }
        while let Some(x) = stack.pop() {
            if !std::mem::replace(&mut seen[x], true) {
                stack.extend(preds.of(x));
            }
        }
        order
            .iter()
            .map(|&x| x as usize)
            .filter(|&x| seen[x] && x < 2 * n && x % 2 == 1)
            .map(|x| (x / 2) as OpId)
            .collect()
    };
    // A step of several chunks is several operations of one name.
    let ends = |ops: Vec<OpId>| -> Vec<String> {
        let mut words: Vec<String> = choices.unwrap_or_default().to_vec();
        words.extend(
            ops.into_iter()
                .map(|q| format!("{} ends", s.where_is_named(name, q))),
        );
        words.dedup();
        words
    };
    let race_freedom = match race {
        Some((rank, p, (a, was), (c, access))) => {
            let mut interleaving = ends(past(&[2 * a as usize, 2 * c as usize], false));
            interleaving.push(format!(
                "{} and {} run at once",
                s.where_is_named(name, a),
                s.where_is_named(name, c)
            ));
            let (buffer, offset) = s.chunks.place(p);
            Verdict::Violated {
                at: Located {
                    rank: Some(rank),
                    buffer: buffer.map(str::to_string),
                    offset: Some(offset),
                    operations: vec![s.where_is_named(name, c), s.where_is_named(name, a)],
                    ..Located::default()
                },
                text: format!(
                    "{} {} {} while {} {} it: nothing orders them (no dependency or chain of \
                     messages between them), so at some speeds they overlap",
                    s.where_is_named(name, c),
                    access.words(),
                    s.chunks.place_words(p),
                    s.where_is_named(name, a),
                    was.words(),
                ),
                interleaving,
            }
        }
        None if knowledge => Verdict::NotJudged(
            "messages carry all their sender holds, not named positions: \
             causal-completeness judges what they carry"
                .into(),
        ),
        None => Verdict::Holds,
    };
    let first_stuck = (0..2 * n).find(|&e| !done[e]).map(|e| (e / 2) as OpId);
    let others = uncaused.len().saturating_sub(1);
    let causal_completeness = if let Some((r, missing)) = uncaused.into_iter().min() {
        let names: Vec<String> = missing.iter().map(|&q| name(q)).collect();
        let all: Vec<usize> = s.rank_ops(r).map(|q| 2 * q as usize + 1).collect();
        let mut interleaving = ends(past(&all, true));
        interleaving.push(format!(
            "{} has ended; {} {} done nothing it depends on",
            name(r),
            names.join(", "),
            match names.len() {
                1 => "has",
                _ => "have",
            }
        ));
        Verdict::Violated {
            at: Located {
                rank: Some(r),
                ..Located::default()
            },
            text: format!(
                "{} can end with no causal chain from {}: at some speeds it ends before \
                 they start, and lacks their chunks{}",
                name(r),
                names.join(", "),
                match others {
                    0 => String::new(),
                    k => format!(" ({k} other ranks likewise)"),
                }
            ),
            interleaving,
        }
    } else if stuck && knowledge {
        Verdict::NotJudged(match first_stuck {
            Some(op) => format!(
                "{} never completes at any speed (matching says why)",
                s.where_is_named(name, op)
            ),
            None => "an operation never completes (matching says why)".into(),
        })
    } else if knowledge {
        Verdict::Holds
    } else if let Verdict::Violated { .. } = race_freedom {
        Verdict::NotJudged(
            "the result depends on the race race-freedom reports: the two accesses end \
             either way"
                .into(),
        )
    } else {
        match (0..s.ranks).find_map(|r| Some((r, values[r as usize].wrong(&s.chunks, r)?))) {
            Some((r, code)) => Verdict::Violated {
                at: wrong_located(&s.chunks, r, code, name),
                text: format!(
                    "{}, {}",
                    match choices {
                        None => "at every speed",
                        Some(_) => "at some speeds",
                    },
                    wrong_words(&s.chunks, r, code, name)
                ),
                interleaving: choices.unwrap_or_default().to_vec(),
            },
            None => Verdict::Holds,
        }
    };
    Ok(Speeds {
        race_freedom,
        causal_completeness,
        one_order: false,
    })
}

/// The ranks' positions an operation touches, and how.
fn accesses(op: &super::Op) -> Vec<(Rank, Pos, Access)> {
    let own = |list: Vec<(Pos, Access)>| list.into_iter().map(|(p, a)| (op.rank, p, a)).collect();
    own(match &op.kind {
        Kind::Send {
            data: Data::At(at), ..
        } => at.iter().map(|&p| (p, Access::Read)).collect(),
        Kind::Recv {
            data: Data::At(at),
            reduce,
            ..
        } => {
            let how = match reduce {
                true => Access::Add,
                false => Access::Write,
            };
            at.iter().map(|&p| (p, how)).collect()
        }
        Kind::Copy { from, to } => vec![(*from, Access::Read), (*to, Access::Write)],
        Kind::Reduce { from, to } => vec![(*from, Access::Read), (*to, Access::Add)],
        Kind::Move { from, to, add, .. } => {
            let how = match add {
                true => Access::Add,
                false => Access::Write,
            };
            return vec![(from.0, from.1, Access::Read), (to.0, to.1, how)];
        }
        _ => Vec::new(),
    })
}

/// Per operation, the send a receive takes, and the operations of its
/// (sender, receiver, tag) just before it.
type Matches = (Vec<Option<OpId>>, Vec<Vec<OpId>>);

/// Per operation, the send a receive takes at every speed, and the
/// operations of its (sender, receiver, tag) just before it: the k-th
/// receive of a rank from a sender with a tag takes the k-th such
/// message (a packet write's flag is one), where the schedule orders
/// those sends and those receives ([`judge`]'s pass checks it); else why
/// not.
fn matches(s: &Schedule, name: &dyn Fn(Rank) -> String) -> Result<Matches, String> {
    let mut previous: Vec<Vec<OpId>> = vec![Vec::new(); s.ops.len()];
    let mut sends: HashMap<(Rank, Rank, u32), Vec<OpId>> = HashMap::new();
    for (i, op) in s.ops.iter().enumerate() {
        let receivers: Vec<(Rank, u32)> = match &op.kind {
            Kind::Send { to, also, tag, .. } => std::iter::once(to)
                .chain(also)
                .map(|&t| (t, *tag))
                .collect(),
            Kind::Move {
                to, flag: Some(t), ..
            } => vec![(to.0, *t)],
            _ => continue,
        };
        for (t, tag) in receivers {
            let group = sends.entry((op.rank, t, tag)).or_default();
            previous[i].extend(group.last());
            group.push(i as OpId);
        }
    }
    let mut taken: HashMap<(Rank, Rank, u32), (usize, OpId)> = HashMap::new();
    let mut sent_by = vec![None; s.ops.len()];
    for (i, op) in s.ops.iter().enumerate() {
        if let Kind::Recv { from, tag, .. } = &op.kind {
            let (Some(f), Some(t)) = (from, tag) else {
                return Err(format!(
                    "{} receives from any rank or with any tag: which message it takes \
                     depends on speed",
                    s.where_is_named(name, i as OpId)
                ));
            };
            let key = (*f, op.rank, *t);
            let (k, last) = taken.entry(key).or_insert((0, OpId::MAX));
            sent_by[i] = sends.get(&key).and_then(|q| q.get(*k)).copied();
            if *last != OpId::MAX {
                previous[i].push(*last);
            }
            (*k, *last) = (*k + 1, i as OpId);
        }
    }
    Ok((sent_by, previous))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::{Chunks, IdSet, Value};

    use crate::schedule::test_schedule as schedule;

    fn send(to: Rank, data: Data) -> Kind {
        Kind::Send {
            to,
            also: Vec::new(),
            tag: 0,
            data,
            path: None,
        }
    }

    fn recv(from: Rank, data: Data, reduce: bool) -> Kind {
        Kind::Recv {
            from: Some(from),
            tag: Some(0),
            data,
            reduce,
        }
    }

    /// Every rank starts with its own chunk and must end with all.
    fn allgather(n: u32) -> Chunks {
        Chunks {
            reduced: vec![false; n as usize],
            positions: n,
            initial: (0..n).map(|r| vec![(r, Value::Chunk(r))]).collect(),
            expect: (0..n)
                .map(|_| (0..n).map(|c| (c, Value::Chunk(c))).collect())
                .collect(),
            origin: (0..n).collect(),
            buffers: Vec::new(),
            layout: None,
            pieces: 1,
        }
    }

    fn words(r: Rank) -> String {
        format!("rank {r}")
    }

    /// The dissemination barrier on 8 ranks, messages naming no data:
    /// round k sends to r + 2^k and receives from r - 2^k. Where a round's
    /// send waits only for the previous round's receive, rank 0's end has
    /// causal chains from ranks 7 (round 0), 6 and 5 (round 1), and 4, 2
    /// and 1 (round 2) only: at some speeds it leaves before rank 3 starts.
    /// Where each round also waits for the whole previous round, it is a
    /// barrier.
    #[test]
    fn a_dissemination_barrier_is_one_only_where_its_rounds_are_chained() {
        let n = 8;
        let barrier = |chained: bool| {
            let ops = (0..n)
                .map(|r| {
                    (0..3)
                        .flat_map(|k| {
                            let d = 1 << k;
                            // Ops 2k (send) and 2k + 1 (receive).
                            let prev: Vec<u32> = match (k, chained) {
                                (0, _) => vec![],
                                (_, false) => vec![2 * k - 1],
                                (_, true) => vec![2 * k - 2, 2 * k - 1],
                            };
                            let recv_after = if chained { prev.clone() } else { vec![] };
                            [
                                (send((r + d) % n, Data::Everything), prev),
                                (recv((r + n - d) % n, Data::Everything, false), recv_after),
                            ]
                        })
                        .collect()
                })
                .collect();
            judge(&schedule(n, ops, allgather(n)), &words)
        };
        let Verdict::Violated { at, text, .. } = barrier(false).causal_completeness else {
            panic!("the unchained barrier is judged a barrier");
        };
        assert_eq!(at.rank, Some(0));
        assert!(
            text.starts_with("rank 0 can end with no causal chain from rank 3:"),
            "{text}"
        );
        let chained = barrier(true);
        assert_eq!(chained.causal_completeness, Verdict::Holds);
        assert!(matches!(chained.race_freedom, Verdict::NotJudged(_)));
    }

    /// Rank 1 forwards the chunk it receives from rank 0 to rank 2: where
    /// the send is not ordered after the receive, the send may read the
    /// position before the receive writes it.
    #[test]
    fn a_forward_not_ordered_after_its_receive_races_with_it() {
        let chunks = Chunks {
            reduced: vec![false],
            positions: 1,
            initial: vec![vec![(0, Value::Chunk(0))], vec![], vec![]],
            expect: vec![vec![(0, Value::Chunk(0))]; 3],
            origin: vec![0],
            buffers: Vec::new(),
            layout: None,
            pieces: 1,
        };
        let forward = |after: Vec<u32>| {
            let ops = vec![
                vec![(send(1, Data::At(vec![0])), vec![])],
                vec![
                    (recv(0, Data::At(vec![0]), false), vec![]),
                    (send(2, Data::At(vec![0])), after),
                ],
                vec![(recv(1, Data::At(vec![0]), false), vec![])],
            ];
            judge(&schedule(3, ops, chunks.clone()), &words)
        };
        let Verdict::Violated {
            at,
            text,
            interleaving,
        } = forward(vec![]).race_freedom
        else {
            panic!("the unordered forward is race-free");
        };
        assert_eq!(at.rank, Some(1));
        assert_eq!((at.buffer, at.offset), (None, Some(0)));
        assert_eq!(at.operations, ["rank 1, op 1", "rank 1, op 0"]);
        assert!(text.contains("rank 1, op 1 reads position 0"), "{text}");
        assert!(text.contains("rank 1, op 0 writes it"), "{text}");
        assert_eq!(
            interleaving.last().map(String::as_str),
            Some("rank 1, op 0 and rank 1, op 1 run at once")
        );
        let ordered = forward(vec![0]);
        assert_eq!(ordered.race_freedom, Verdict::Holds);
        assert_eq!(ordered.causal_completeness, Verdict::Holds);
    }

    /// Rank 0 adds the partial sums of ranks 1 and 2 in no order: one
    /// processor applying them in turn is right at every speed; parallel
    /// threadblocks adding at once race.
    #[test]
    fn unordered_additions_race_only_on_parallel_processors() {
        let sum = |rs: &[Rank]| Value::Sum {
            chunk: 0,
            ranks: rs.iter().copied().collect::<IdSet>(),
        };
        let chunks = Chunks {
            reduced: vec![true],
            positions: 1,
            initial: (0..3).map(|r| vec![(0, sum(&[r]))]).collect(),
            expect: vec![vec![(0, sum(&[0, 1, 2]))], vec![], vec![]],
            origin: vec![0],
            buffers: Vec::new(),
            layout: None,
            pieces: 1,
        };
        let ops = vec![
            vec![
                (recv(1, Data::At(vec![0]), true), vec![]),
                (recv(2, Data::At(vec![0]), true), vec![]),
            ],
            vec![(send(0, Data::At(vec![0])), vec![])],
            vec![(send(0, Data::At(vec![0])), vec![])],
        ];
        let mut s = schedule(3, ops, chunks);
        let serial = judge(&s, &words);
        assert_eq!(serial.race_freedom, Verdict::Holds);
        assert_eq!(serial.causal_completeness, Verdict::Holds);
        s.parallel_ranks = true;
        let Verdict::Violated { text, .. } = judge(&s, &words).race_freedom else {
            panic!("parallel additions are race-free");
        };
        assert!(text.contains("adds to position 0 while"), "{text}");
        // Rank 1's term reaches rank 0 straight and through rank 2: wrong
        // at every speed.
        let twice = vec![
            vec![
                (recv(1, Data::At(vec![0]), true), vec![]),
                (recv(2, Data::At(vec![0]), true), vec![]),
            ],
            vec![
                (send(0, Data::At(vec![0])), vec![]),
                (send(2, Data::At(vec![0])), vec![]),
            ],
            vec![
                (recv(1, Data::At(vec![0]), true), vec![]),
                (send(0, Data::At(vec![0])), vec![0]),
            ],
        ];
        let s = schedule(3, twice, s.chunks.clone());
        let Verdict::Violated { text, .. } = judge(&s, &words).causal_completeness else {
            panic!("a term counted twice is complete");
        };
        assert_eq!(
            text,
            "at every speed, rank 0 ends with rank 1's term counted twice at position 0"
        );
    }

    /// Two messages of one sender, receiver and tag sent in no order: which
    /// receive takes which depends on speed, and each matching is judged.
    /// Rank 0 sends chunk 0 and chunk 1; rank 1 puts the first message it
    /// takes at position 0 and the second at position 1: right where the
    /// sends are ordered, wrong at the speeds that swap them.
    #[test]
    fn messages_of_one_tag_in_no_order_are_judged_over_each_matching() {
        let two = |ordered: bool| {
            let ops = vec![
                vec![
                    (send(1, Data::At(vec![0])), vec![]),
                    (
                        send(1, Data::At(vec![1])),
                        if ordered { vec![0] } else { vec![] },
                    ),
                ],
                vec![
                    (recv(0, Data::At(vec![0]), false), vec![]),
                    (recv(0, Data::At(vec![1]), false), vec![0]),
                ],
            ];
            let mut chunks = allgather(2);
            chunks.initial = vec![vec![(0, Value::Chunk(0)), (1, Value::Chunk(1))], vec![]];
            chunks.origin = vec![0, 0];
            chunks.expect[0].clear();
            judge(&schedule(2, ops, chunks), &words)
        };
        let ordered = two(true);
        assert_eq!(ordered.causal_completeness, Verdict::Holds);
        assert_eq!(ordered.race_freedom, Verdict::Holds);
        let swapped = two(false);
        assert_eq!(swapped.race_freedom, Verdict::Holds);
        let Verdict::Violated {
            at,
            text,
            interleaving,
        } = swapped.causal_completeness
        else {
            panic!("the swapped messages are judged right: {swapped:?}");
        };
        assert_eq!(at.rank, Some(1));
        assert!(
            text.starts_with("at some speeds, rank 1 ends with"),
            "{text}"
        );
        assert_eq!(
            interleaving,
            [
                "rank 1, op 0 takes the message of rank 0, op 1",
                "rank 1, op 1 takes the message of rank 0, op 0"
            ]
        );
    }

    /// Rank 0 receives from any rank, then from rank 1; ranks 1 and 2 each
    /// send it one message. Where the first receive takes rank 1's, the
    /// second waits forever: a deadlock some speeds make, and lock step
    /// (rank 1's message there first, or rank 2's) may not show.
    #[test]
    fn a_receive_from_any_rank_deadlocks_at_the_speeds_that_feed_it_the_wrong_message() {
        let any = Kind::Recv {
            from: None,
            tag: Some(0),
            data: Data::At(vec![]),
            reduce: false,
        };
        let program = |second: Rank| {
            let ops = vec![
                vec![
                    (any.clone(), vec![]),
                    (recv(second, Data::At(vec![]), false), vec![0]),
                ],
                vec![(send(0, Data::At(vec![])), vec![])],
                vec![(send(0, Data::At(vec![])), vec![])],
            ];
            let mut chunks = allgather(3);
            chunks.expect = vec![Vec::new(); 3];
            judge(&schedule(3, ops, chunks), &words)
        };
        let Verdict::Violated {
            at,
            text,
            interleaving,
        } = program(1).causal_completeness
        else {
            panic!("the wildcard deadlock is not found");
        };
        assert_eq!(at.rank, Some(0));
        assert_eq!(at.operations, ["rank 0, op 1"]);
        assert!(
            text.starts_with("at some speeds rank 0, op 1 never completes"),
            "{text}"
        );
        assert_eq!(
            interleaving,
            ["rank 0, op 0 takes the message of rank 1, op 0"]
        );
        // Either message may come first: the same deadlock, either way round.
        assert!(matches!(
            program(2).causal_completeness,
            Verdict::Violated { .. }
        ));
    }

    /// MPI matches a message with the earliest posted receive that admits
    /// it. Rank 0 posts a receive from any rank, then one from rank 1;
    /// rank 1 sends chunk 0, then chunk 1. The first message finds the
    /// first receive posted (the second is posted only after it), so at
    /// every speed it goes there, and the second to the second: right.
    /// Were a later receive free to take it, the chunks would swap.
    #[test]
    fn an_earlier_posted_receive_takes_the_message_first() {
        let any = Kind::Recv {
            from: None,
            tag: Some(0),
            data: Data::At(vec![0]),
            reduce: false,
        };
        let ops = vec![
            vec![(any, vec![]), (recv(1, Data::At(vec![1]), false), vec![])],
            vec![
                (send(0, Data::At(vec![0])), vec![]),
                (send(0, Data::At(vec![1])), vec![0]),
            ],
        ];
        let mut chunks = allgather(2);
        chunks.initial = vec![vec![], vec![(0, Value::Chunk(0)), (1, Value::Chunk(1))]];
        chunks.origin = vec![1, 1];
        chunks.expect[1].clear();
        let mut s = schedule(2, ops, chunks);
        s.ops[1].started_after = vec![0];
        let speeds = judge(&s, &words);
        assert_eq!(speeds.causal_completeness, Verdict::Holds, "{speeds:?}");
        assert_eq!(speeds.race_freedom, Verdict::Holds);
    }
    /// Rank 0 puts its chunk into rank 1's position, then signals; rank 1
    /// waits, then copies the position out. A signal and wait make the put
    /// visible; their relaxed forms order the copy after the signal but
    /// make nothing visible: the put and the copy race.
    #[test]
    fn a_relaxed_signal_orders_execution_not_memory() {
        let chunks = Chunks {
            reduced: vec![false],
            positions: 2,
            initial: vec![vec![(0, Value::Chunk(0))], vec![]],
            expect: vec![vec![], vec![(1, Value::Chunk(0))]],
            origin: vec![0],
            buffers: Vec::new(),
            layout: None,
            pieces: 1,
        };
        let put = Kind::Move {
            from: (0, 0),
            to: (1, 0),
            add: false,
            flag: None,
        };
        let ops = vec![
            vec![(put, vec![]), (send(1, Data::Nothing), vec![0])],
            vec![
                (recv(0, Data::Nothing, false), vec![]),
                (Kind::Copy { from: 0, to: 1 }, vec![0]),
            ],
        ];
        let mut s = schedule(2, ops, chunks);
        let strong = judge(&s, &words);
        assert_eq!(strong.race_freedom, Verdict::Holds);
        assert_eq!(strong.causal_completeness, Verdict::Holds);
        // Either end relaxed is enough.
        for relaxed in [vec![1], vec![2], vec![1, 2]] {
            s.relaxed = relaxed;
            let Verdict::Violated { text, .. } = judge(&s, &words).race_freedom else {
                panic!("a put seen through a relaxed signal is race-free");
            };
            assert!(
                text.starts_with("rank 1, op 1 reads position 0 while rank 0, op 0 writes it"),
                "{text}"
            );
        }
    }
}
