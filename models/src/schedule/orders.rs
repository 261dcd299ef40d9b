//! The orders of a rank's local work in a slot, and their sound
//! reduction (docs/schedules.md, "Orders").
//!
//! In a slot, a rank takes in the messages that arrived and issues the
//! operations its order allows that need no port: receives (posted, or
//! matched at once), copies, reductions, computations. Its order does not
//! say in what sequence: the machine chooses. Each step is an *event*:
//! *arrive* (the first message of the slot not yet taken in from one
//! sender: one sender's messages stay in order) or *issue* (one ready
//! local operation). A message that arrives goes to the earliest-posted
//! receive that fits it (MPI's rule), else to the queue; a receive issued
//! takes the earliest queued message that fits it, else is posted. The
//! slot's local work ends when no event is left, and every end the
//! events' orders reach is a way the slot may go.
//!
//! Every order ([`Orders::Every`]) tries every event at every step,
//! merging the steps that reach one state: up to 2^k steps for k
//! independent operations. The reduction ([`Orders::Reduced`]) takes one
//! event alone where it is *safe*: independent of every event that could
//! still come before it in the slot. Independent events commute, and a
//! safe event stays enabled until taken, so every end of the slot that
//! some order reaches is reached with the safe event first (a persistent
//! set of one: Godefroid's partial-order reduction, which keeps every
//! terminal state). The two give the same ends, so the same state space
//! and verdicts; tests/orders.rs checks that they do.
//!
//! Two operations *conflict* where the order of the two can change the
//! result: one writes a position the other reads or writes, or adds to a
//! position the other reads (two additions to one partial sum commute;
//! two receives of everything write each chunk at its own position, the
//! same value either way, and do not conflict), or both are receives that one
//! message could fit. Operations that wait, through the order, for an
//! operation to complete cannot come before what it does and are not
//! counted; one that waits only for a receive to start can (the receive
//! writes when it completes).

use super::{Data, Kind, OpId, Pos, Rank, Schedule};

/// Which orders of a slot's local work are explored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Orders {
    /// One order for each set of orders that differ only in independent
    /// events (the default: the same ends as every order).
    #[default]
    Reduced,
    /// Every order (`check schedule --all-orders`).
    Every,
}

/// Positions read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Set {
    /// Every position (a receive of everything the message carries).
    All,
    /// These, sorted.
    At(Vec<Pos>),
}

impl Set {
    fn of(mut at: Vec<Pos>) -> Set {
        at.sort_unstable();
        at.dedup();
        Set::At(at)
    }

    fn none() -> Set {
        Set::At(Vec::new())
    }

    /// True if the two share a position.
    fn meets(&self, other: &Set) -> bool {
        match (self, other) {
            (Set::At(a), _) | (_, Set::At(a)) if a.is_empty() => false,
            (Set::All, _) | (_, Set::All) => true,
            (Set::At(a), Set::At(b)) => {
                let (mut i, mut j) = (0, 0);
                while i < a.len() && j < b.len() {
                    match a[i].cmp(&b[j]) {
                        std::cmp::Ordering::Less => i += 1,
                        std::cmp::Ordering::Greater => j += 1,
                        std::cmp::Ordering::Equal => return true,
                    }
                }
                false
            }
        }
    }
}

/// What one operation reads and writes of its rank's positions.
#[derive(Clone, Debug)]
struct Footprint {
    reads: Set,
    writes: Set,
    /// Positions added to (a partial sum taking in others): two additions
    /// commute.
    adds: Set,
    /// A receive of everything, replacing: writes chunk c at position c.
    knowledge: bool,
}

impl Footprint {
    fn of(kind: &Kind) -> Footprint {
        let data = |d: &Data| match d {
            Data::At(at) => Set::of(at.clone()),
            Data::Everything => Set::All,
            Data::Nothing => Set::none(),
        };
        let none = Set::none;
        let (reads, writes, adds, knowledge) = match kind {
            // A send is not an event of the local work: it leaves after
            // it, reading what the work left, so it conflicts with none.
            Kind::Send { .. } => (none(), none(), none(), false),
            Kind::Recv {
                data: d, reduce, ..
            } => match reduce {
                true => (none(), none(), data(d), false),
                false => (none(), data(d), none(), *d == Data::Everything),
            },
            Kind::Copy { from, to } => (Set::of(vec![*from]), Set::of(vec![*to]), none(), false),
            Kind::Reduce { from, to } => (Set::of(vec![*from]), none(), Set::of(vec![*to]), false),
            // A local access is a copy or a reduction; one that transmits
            // is not local work, as a send is not.
            Kind::Move { from, to, add, .. } if from.0 == to.0 => match add {
                true => (Set::of(vec![from.1]), none(), Set::of(vec![to.1]), false),
                false => (Set::of(vec![from.1]), Set::of(vec![to.1]), none(), false),
            },
            Kind::Calc | Kind::Move { .. } => (none(), none(), none(), false),
        };
        Footprint {
            reads,
            writes,
            adds,
            knowledge,
        }
    }

    /// True if it reads, writes and adds to nothing (a send, a
    /// computation): it clashes with no footprint.
    fn inert(&self) -> bool {
        let empty = |s: &Set| matches!(s, Set::At(a) if a.is_empty());
        empty(&self.reads) && empty(&self.writes) && empty(&self.adds)
    }

    /// True if the two, in either order, can leave different values.
    fn clashes(&self, other: &Footprint) -> bool {
        let both_write = self.writes.meets(&other.writes) && !(self.knowledge && other.knowledge);
        let touch = |a: &Footprint, b: &Footprint| {
            a.writes.meets(&b.reads) || a.writes.meets(&b.adds) || a.adds.meets(&b.reads)
        };
        both_write || touch(self, other) || touch(other, self)
    }
}

/// Ranks with more operations than this keep no order relation: each
/// operation is taken to come possibly before every other (sound, and
/// only more events are unsafe).
const ORDERED_RANKS_UP_TO: usize = 4096;

/// The conflict relation of a schedule's operations.
///
/// The footprints and receive filters are kept at once; each rank's
/// order, closed transitively, and the rivals it yields are built the
/// first time the reduction asks (a run of the executor never does: its
/// one order needs no reduction, and a rank of n operations costs n^2
/// to close).
#[derive(Debug)]
pub struct Conflicts {
    foot: Vec<Footprint>,
    /// Per receive, the sender and tag it takes (None: any).
    filter: Vec<Option<(Option<Rank>, Option<u32>)>>,
    /// The operations that can conflict with any (a footprint or a
    /// receive), in id order: where a rank keeps no order, its events
    /// look only at these (a rank of a million computations and a send
    /// has none to look at).
    touching: Vec<OpId>,
    order: std::sync::OnceLock<Order>,
}

/// The ranks' orders, closed.
#[derive(Debug)]
struct Order {
    /// Per rank, bit `b` of row `a` (ops counted from the rank's first):
    /// `b` comes after `a` in the rank's order (None: not kept).
    later: Vec<Option<Vec<Vec<u64>>>>,
    /// Per operation, the operations of its rank that could still be
    /// open when it is issued (neither waits for the other through the
    /// order) and conflict with it (None: not kept, for ranks whose order
    /// is not kept).
    rivals: Vec<Option<Box<[OpId]>>>,
}

impl Conflicts {
    /// The footprints of `schedule`'s operations.
    pub fn new(schedule: &Schedule) -> Conflicts {
        let foot: Vec<Footprint> = schedule
            .ops
            .iter()
            .map(|o| Footprint::of(&o.kind))
            .collect();
        let filter: Vec<_> = schedule
            .ops
            .iter()
            .map(|o| match o.kind {
                Kind::Recv { from, tag, .. } => Some((from, tag)),
                _ => None,
            })
            .collect();
        let touching = (0..schedule.ops.len() as OpId)
            .filter(|&b| !foot[b as usize].inert() || filter[b as usize].is_some())
            .collect();
        Conflicts {
            foot,
            filter,
            touching,
            order: std::sync::OnceLock::new(),
        }
    }

    /// The operations of `ids` that can conflict with some operation:
    /// every other has no footprint and is no receive, so neither clashes
    /// nor competes with any.
    pub fn touching(&self, ids: std::ops::Range<OpId>) -> &[OpId] {
        let from = self.touching.partition_point(|&b| b < ids.start);
        let to = self.touching.partition_point(|&b| b < ids.end);
        &self.touching[from..to]
    }

    /// The orders of `schedule` (the one these conflicts are of), built
    /// on first use.
    fn order(&self, schedule: &Schedule) -> &Order {
        self.order.get_or_init(|| {
            let later: Vec<_> = (0..schedule.ranks)
                .map(|r| later_than(schedule, r))
                .collect();
            let mut rivals = vec![None; schedule.ops.len()];
            for r in 0..schedule.ranks {
                let Some(rows) = &later[r as usize] else {
                    continue;
                };
                let ops = schedule.rank_ops(r);
                let first = ops.start;
                let ordered = |a: OpId, b: OpId| {
                    let (a, b) = ((a - first) as usize, (b - first) as usize);
                    rows[a][b / 64] >> (b % 64) & 1 == 1
                };
                for a in ops.clone() {
                    // What `a` waits for is done when `a` is issued, and
                    // what waits for `a` comes after it: neither is a rival.
                    let list = ops
                        .clone()
                        .filter(|&b| {
                            b != a
                                && !ordered(a, b)
                                && !ordered(b, a)
                                && (self.clash(a, b) || self.compete(a, b))
                        })
                        .collect();
                    rivals[a as usize] = Some(list);
                }
            }
            Order { later, rivals }
        })
    }

    /// The operations of `a`'s rank that could be open when `a` is
    /// issued and conflict with it, or None where they are not kept
    /// (then every open operation of the rank must be looked at).
    pub fn rivals<'a>(&'a self, schedule: &Schedule, a: OpId) -> Option<&'a [OpId]> {
        self.order(schedule).rivals[a as usize].as_deref()
    }

    /// True if `a` and `b` are receives that one message could fit.
    pub fn compete(&self, a: OpId, b: OpId) -> bool {
        let meet = |x: Option<u32>, y: Option<u32>| x.is_none() || y.is_none() || x == y;
        match (self.filter[a as usize], self.filter[b as usize]) {
            (Some((f1, t1)), Some((f2, t2))) => meet(f1, f2) && meet(t1, t2),
            _ => false,
        }
    }

    /// True if `b` comes after `a` has done what it does, in their rank's
    /// order (both of rank `r`, whose first operation is `first`): `b`
    /// waits, through some chain, for `a` to complete.
    pub fn after(&self, schedule: &Schedule, r: Rank, first: OpId, a: OpId, b: OpId) -> bool {
        self.order(schedule).later[r as usize]
            .as_ref()
            .is_some_and(|rows| {
                let (a, b) = ((a - first) as usize, (b - first) as usize);
                rows[a][b / 64] >> (b % 64) & 1 == 1
            })
    }

    /// True if `a` and `b` touch a common position so that their order
    /// can change what the rank holds.
    pub fn clash(&self, a: OpId, b: OpId) -> bool {
        self.foot[a as usize].clashes(&self.foot[b as usize])
    }
}

/// Rank `r`'s order closed transitively, row per operation; None for a
/// rank of more than [`ORDERED_RANKS_UP_TO`] operations.
fn later_than(schedule: &Schedule, r: Rank) -> Option<Vec<Vec<u64>>> {
    let ops = schedule.rank_ops(r);
    let (first, n) = (ops.start, ops.len());
    if n > ORDERED_RANKS_UP_TO {
        return None;
    }
    // Successors: an operation's order names what it comes after, once
    // completed (`after`) or once started (`started_after`). A receive
    // starts (is posted) before it writes, so what starts after it
    // started may still come before its write.
    let mut done: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut started: Vec<Vec<usize>> = vec![Vec::new(); n];
    for op in ops {
        let o = &schedule.ops[op as usize];
        let i = (op - first) as usize;
        o.after
            .iter()
            .for_each(|&d| done[(d - first) as usize].push(i));
        o.started_after
            .iter()
            .for_each(|&d| started[(d - first) as usize].push(i));
    }
    let receive = |a: usize| matches!(schedule.ops[first as usize + a].kind, Kind::Recv { .. });
    let words = n.div_ceil(64);
    let rows = (0..n)
        .map(|a| {
            // After `a` is done: what waits for it to complete (or, where
            // it completes as it starts, to start), and then everything
            // that waits for those in either way.
            let mut row = vec![0u64; words];
            let mut stack = done[a].clone();
            if !receive(a) {
                stack.extend(&started[a]);
            }
            while let Some(b) = stack.pop() {
                if row[b / 64] >> (b % 64) & 1 == 0 {
                    row[b / 64] |= 1 << (b % 64);
                    stack.extend(&done[b]);
                    stack.extend(&started[b]);
                }
            }
            row
        })
        .collect();
    Some(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_meet_where_they_share_a_position() {
        assert!(Set::of(vec![3, 1]).meets(&Set::of(vec![2, 3])));
        assert!(!Set::of(vec![1, 4]).meets(&Set::of(vec![2, 3])));
        assert!(Set::All.meets(&Set::of(vec![0])));
        assert!(!Set::All.meets(&Set::none()));
    }

    #[test]
    fn receives_of_everything_do_not_clash_with_each_other() {
        let everything = Kind::Recv {
            from: None,
            tag: None,
            data: Data::Everything,
            reduce: false,
        };
        let copy = Kind::Copy { from: 2, to: 5 };
        let (a, c) = (Footprint::of(&everything), Footprint::of(&copy));
        assert!(!a.clashes(&a.clone()));
        assert!(a.clashes(&c), "a copy reads what a receive writes");
        let reduce = Kind::Reduce { from: 5, to: 7 };
        assert!(c.clashes(&Footprint::of(&reduce)), "the reduction reads 5");
        let other = Kind::Copy { from: 3, to: 4 };
        assert!(!c.clashes(&Footprint::of(&other)));
    }
}
