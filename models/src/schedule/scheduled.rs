//! A schedule run as a protocol: the one semantics of docs/schedules.md
//! ("One semantics").
//!
//! In each slot a rank first takes in what arrived and does everything
//! its order allows that needs no port: receives are matched (a message
//! to the earliest-posted receive that fits it, a receive to the earliest
//! queued message), copies, reductions and computations complete at once,
//! until nothing more can happen; the order of these events is the
//! machine's, and every end they reach is a way the slot may go
//! ([`super::orders`]). Then its ready sends go, with what their positions
//! hold, as many as its ports take: all-port, one per outgoing arc;
//! one-port, one. Where more are ready than go, or the local work can end
//! in several ways, the step's `choice` says which (every choice is
//! explored by the exhaustive engines; the executor takes the first: the
//! events in the order of arrival and of the file, and the first ready
//! send in file order). A send with an explicit slot goes in that slot
//! whatever its order says.
//!
//! A send completes as it leaves (MPI's eager protocol); a receive when
//! its message is matched.
//!
//! A one-sided access (an MSCCL++ put, get or remote reduction) is a
//! transmission with no receive: a put goes from its rank as a send does
//! and writes (or adds to) the peer's position as it arrives, before the
//! peer's work of the next slot; a get is a request that carries nothing
//! and the peer's reply, which the peer sends as soon as its ports allow
//! (a read of remote memory is a round trip) and which completes the get
//! as it lands. A local one is a copy or a reduction.
//!
//! One run for every order ([`Scheduled::one_run_decides`]). The orders
//! in which competing sends take a port change when messages land, and
//! nothing else, where the schedule is race-free and causally complete at
//! every speed and its receives fix the matching ([`super::causal`]):
//! every lock-step run is an execution at some speeds (its ranks run the
//! schedule's order, sends eager, each receive taking the message the
//! matching gives it), and in all of them each operation reads and writes
//! the same values (no two unordered accesses to a position, one
//! writing; additions commute), so every run sends the same messages with
//! the same payloads to the same ranks, completes every operation and
//! ends with the same values. Completeness, causality (a send reads the
//! same positions, filled by receives ordered before it), matching,
//! message lengths and the transmission count are then one run's; so is
//! no-duplication where the task keeps what it delivers (a relay that
//! releases a packet makes a second copy's verdict depend on when it
//! lands). Contention-freedom is too where no run can put more
//! transmissions on a resource in a slot than it has lanes: a port sends
//! at most its lanes a slot, so the ports crossing a resource, each
//! counted as at most its lanes and at most its transmissions that cross
//! it, must fit the resource's lanes ([`Scheduled::collision_free`]).
//! The completion time is not: it is the orders' to change.

use super::causal::{Speeds, Verdict};
use super::orders::{Conflicts, Orders};
pub use super::values::Payload;
use super::values::{wrong_located, wrong_words, Values};
use super::{lower_bounds, Data, Kind, OpId, Rank, Schedule, ScheduleError, Value};
use crate::config::{Ports, Switching};
use crate::protocol::{Arrival, Choices, Inputs, Judging, Located, Protocol, Runs};
use crate::topology::Topology;
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Task, Transmission};
use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Arc;

/// An operation that has not started.
const WAITING: u8 = 0;
/// A receive that is posted and unmatched.
const POSTED: u8 = 1;
/// A completed operation.
const DONE: u8 = 2;

/// A message: the send that made it, and what it carries.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Message {
    /// The send operation.
    pub op: OpId,
    /// Its data.
    pub payload: Payload,
    /// A plain chunk the send names but its sender does not hold (its
    /// position is empty), where positions are chunks: the message claims
    /// it, and causality judges the claim.
    pub missing: Option<u32>,
    /// True for the reply to a get (from the rank read, to the getter).
    pub back: bool,
}

/// A rank's state (a node without a rank keeps an empty one).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct RankState {
    /// Its positions.
    values: Values,
    /// Per operation of the rank: waiting, posted, done.
    status: Box<[u8]>,
    /// Messages arrived and not yet matched, in arrival order.
    queue: Vec<Message>,
    /// Receives posted and not yet matched, in the order they were posted.
    posted: Vec<OpId>,
    /// The local operations (no transmission) that wait and may start
    /// (their order allows it), in file order: kept as operations
    /// complete, so that a slot looks at what may happen, not at every
    /// operation of the rank (a function of `status`). A deque: the
    /// executor takes the first, and a rank of a million unordered
    /// operations would otherwise shift the rest at each.
    front: VecDeque<OpId>,
    /// The transmissions that wait and may start by their order (sends
    /// fixed to a slot aside), in file order, kept alike: apart, so that
    /// finding the first local operation never walks past them.
    sending: VecDeque<OpId>,
    /// Gets of other ranks that read this one, to answer: their requests
    /// arrived and their replies have not gone.
    replies: Vec<OpId>,
    /// How many operations have completed.
    done: u32,
    /// The first operation (counted from the rank's first) not completed.
    low: u32,
}

impl RankState {
    /// True once every operation of the rank has completed.
    pub fn finished(&self) -> bool {
        self.done as usize == self.status.len()
    }
}

/// A schedule on a network: ranks placed on nodes, run by every engine.
pub struct Scheduled<T: Topology> {
    schedule: Arc<Schedule>,
    net: T,
    /// Per rank, its node.
    place: Vec<NodeId>,
    /// Per node, its rank (`Rank::MAX`: none).
    rank_at: Vec<Rank>,
    switching: Switching,
    ports: Ports,
    task: Task,
    claims: Claims,
    /// The lower bounds on the network, by name ([`lower_bounds`]).
    bounds: Vec<(&'static str, Slot)>,
    /// What the orders of a slot's local work may change.
    conflicts: Conflicts,
    /// Per operation, the operations of its rank whose order names it.
    next: Vec<Box<[OpId]>>,
    /// Per rank, its sends fixed to a slot.
    fixed: Vec<Vec<OpId>>,
    /// Per rank, its receives.
    receives: Vec<Vec<OpId>>,
    /// Per chunk, its first packet ([`Schedule::bases`]).
    bases: Vec<PacketId>,
    /// Which of those orders are explored.
    orders: Orders,
    /// What may stop their listing part-way.
    stop: Arc<Stop>,
}

/// What may stop the listing of a slot's local orders part-way (the
/// check's time budget, an interrupt: k conflicting operations can take
/// 2^k steps within one state's successors), and whether it did. The
/// ends listed before the stop are each reached by some order, so a
/// violation found through them stands; a search that used a cut listing
/// decides nothing else (the check makes its holds unknown).
#[derive(Default)]
pub struct Stop {
    spent: Option<Box<dyn Fn(u64) -> bool + Send + Sync>>,
    /// The most steps one listing may take, if bounded.
    steps: Option<u64>,
    cut: std::sync::atomic::AtomicBool,
}

impl Stop {
    /// A stop when `spent(more)` says so: the budget is spent, or would
    /// be with `more` bytes more. It is asked every [`Stop::LOOK_EVERY`]
    /// steps of a listing (`more` 0), and before the listing's set of
    /// states seen grows (`more` what the growth takes: a set that
    /// doubles between two looks would overshoot the memory allowance by
    /// as much as it held).
    pub fn new(spent: impl Fn(u64) -> bool + Send + Sync + 'static) -> Stop {
        Stop {
            spent: Some(Box::new(spent)),
            ..Stop::default()
        }
    }

    /// The same, that also stops a listing past `steps` steps (within
    /// [`Stop::LOOK_EVERY`]): `--max-states`, a listing's local states
    /// counted as the search's states are.
    pub fn with_steps(mut self, steps: Option<u64>) -> Stop {
        self.steps = steps;
        self
    }

    /// The steps of a listing between two looks.
    pub const LOOK_EVERY: usize = 1024;

    /// True if a listing was cut.
    pub fn cut(&self) -> bool {
        self.cut.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// True if the listing must stop now, after `steps` steps (and it is
    /// so recorded).
    fn now(&self, steps: usize) -> bool {
        if self.steps.is_some_and(|most| steps as u64 > most) {
            self.cut.store(true, std::sync::atomic::Ordering::Relaxed);
            return true;
        }
        self.spent_with(0)
    }

    /// True if the listing must stop rather than take `more` bytes (and
    /// it is so recorded).
    fn spent_with(&self, more: u64) -> bool {
        let spent = self.spent.as_ref().is_some_and(|spent| spent(more));
        if spent {
            self.cut.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        spent
    }
}

/// A rank part-way through a slot's local work: the slot's messages not
/// yet taken in, in arrival order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Local {
    st: RankState,
    pending: Vec<Message>,
}

/// One step of a slot's local work.
#[derive(Clone, Copy, Debug)]
enum Event {
    /// This pending message arrives.
    Arrive(Message),
    /// This operation is issued.
    Issue(OpId),
}

impl<T: Topology> Scheduled<T> {
    /// `schedule` on `net`, rank r on node `place[r]`, judged against
    /// `claims`; or why it cannot run there (a rank placed outside the
    /// network or two on one node, a send that is not a route of the
    /// network: under store-and-forward a peer that is not a neighbour).
    pub fn new(
        schedule: Schedule,
        net: T,
        place: Vec<NodeId>,
        switching: Switching,
        ports: Ports,
        claims: Claims,
    ) -> Result<Self, ScheduleError> {
        if let Some(why) = schedule.invalid() {
            return Err(ScheduleError::Invalid(why));
        }
        if let Some(op) = schedule.ops.iter().position(
            |o| matches!(o.kind, Kind::Move { from, to, .. } if from.0 != o.rank && to.0 != o.rank),
        ) {
            return Err(ScheduleError::Invalid(format!(
                "{}: an access that reads one peer and writes another, which lock step does not \
                 run (a put or a get touches the rank's own memory at one end)",
                schedule.where_is(op as OpId)
            )));
        }
        let nodes = net.nodes();
        if place.len() != schedule.ranks as usize {
            return Err(ScheduleError::Placed {
                placed: place.len(),
                ranks: schedule.ranks,
            });
        }
        let mut rank_at = vec![Rank::MAX; nodes as usize];
        for (r, &v) in place.iter().enumerate() {
            if v >= nodes {
                return Err(ScheduleError::OffNetwork {
                    rank: r,
                    node: v,
                    nodes,
                });
            }
            if rank_at[v as usize] != Rank::MAX {
                return Err(ScheduleError::SharedNode {
                    first: rank_at[v as usize],
                    second: r,
                    node: net.node_label(v),
                });
            }
            rank_at[v as usize] = r as Rank;
        }
        let task = schedule.task(nodes, &place);
        let conflicts = Conflicts::new(&schedule);
        let mut next = vec![Vec::new(); schedule.ops.len()];
        let mut fixed = vec![Vec::new(); schedule.ranks as usize];
        let mut receives = vec![Vec::new(); schedule.ranks as usize];
        for (i, op) in schedule.ops.iter().enumerate() {
            for &d in op.after.iter().chain(&op.started_after) {
                next[d as usize].push(i as OpId);
            }
            match op.kind {
                Kind::Recv { .. } => receives[op.rank as usize].push(i as OpId),
                _ if fixed_to_slot(op) => fixed[op.rank as usize].push(i as OpId),
                _ => {}
            }
        }
        let bases = schedule.bases();
        let s = Scheduled {
            schedule: Arc::new(schedule),
            net,
            place,
            rank_at,
            switching,
            ports,
            task,
            claims,
            bounds: Vec::new(),
            conflicts,
            next: next
                .into_iter()
                .map(|mut v| {
                    v.sort_unstable();
                    v.dedup();
                    v.into()
                })
                .collect(),
            fixed,
            receives,
            bases,
            orders: Orders::Reduced,
            stop: Arc::default(),
        };
        let hint = match switching {
            Switching::Sf => " (--switching wh sends a message as a worm)",
            Switching::Wh => "",
        };
        // Operation i's route from rank a to rank b, if it is one.
        let routed = |i: usize, a: Rank, b: Rank| {
            let route = s.route(a, b);
            match s.net.invalid(&route) {
                None => Ok(route),
                Some(why) => Err(ScheduleError::NotARoute {
                    op: s.schedule.where_is_named(&|r| s.rank_words(r), i as OpId),
                    why,
                    hint,
                }),
            }
        };
        for (i, op) in s.schedule.ops.iter().enumerate() {
            let peer = s.peer(op.rank, i as OpId);
            if peer != op.rank && matches!(op.kind, Kind::Move { .. }) {
                // A put's route, or a get's request and reply.
                routed(i, op.rank, peer)?;
                routed(i, peer, op.rank)?;
            }
            if let Kind::Send { to, also, .. } = &op.kind {
                let route = routed(i, op.rank, *to)?;
                let mut readers = Vec::new();
                s.net.receivers(&route, |v| readers.push(v));
                if let Some(&other) = also
                    .iter()
                    .find(|&&r| !readers.contains(&s.place[r as usize]))
                {
                    return Err(ScheduleError::NotRead {
                        op: s.schedule.where_is_named(&|r| s.rank_words(r), i as OpId),
                        rank: other,
                        route: s.net.route_label(&route),
                    });
                }
            }
        }
        Ok(s)
    }

    /// With the lower bounds of its collective on its network, whose
    /// directed arcs are `arcs`, given `cuts` (each a side of the
    /// network's nodes); the largest is the claims' lower bound.
    pub fn with_lower_bounds(mut self, arcs: &[(NodeId, NodeId)], cuts: &[Vec<bool>]) -> Self {
        if let Task::Schedule(needs) = &self.task {
            self.bounds = lower_bounds::lower_bounds(needs, arcs, self.switching, self.ports, cuts);
        }
        self.claims.lower_bound = self.bounds.iter().map(|b| b.1).max();
        self
    }

    /// The schedule judged at every relative speed ([`super::causal`]),
    /// ranks named as this run names them.
    pub fn speeds(&self) -> super::causal::Speeds {
        super::causal::judge(&self.schedule, &|r| self.rank_words(r))
    }

    /// The properties one lock-step run decides for every run, bit
    /// `p as usize` each, given the schedule's verdicts at every relative
    /// speed (the module header's "One run for every order"); 0 where it
    /// is not race-free and causally complete at every speed, or its
    /// receives do not fix the matching.
    pub fn one_run_decides(&self, speeds: &Speeds) -> u64 {
        use PropertyName::*;
        let right = |v: &Verdict| *v == Verdict::Holds;
        if !speeds.one_order || !right(&speeds.race_freedom) || !right(&speeds.causal_completeness)
        {
            return 0;
        }
        let mut decided = vec![
            Completeness,
            Causality,
            Matching,
            MessageLength,
            Transmissions,
        ];
        if self.task.is_broadcast() {
            decided.push(NoDuplication);
        }
        if self.collision_free() {
            decided.push(ContentionFreedom);
        }
        decided.into_iter().fold(0, |m, p| m | 1 << p as usize)
    }

    /// True if no run puts more transmissions on a resource in a slot
    /// than it has lanes: no send is fixed to a slot, and on every
    /// resource the ports whose transmissions cross it, each counted as
    /// at most its lanes (what [`Self::ready_sends`] lets go in a slot)
    /// and at most its transmissions that cross the resource, fit its
    /// lanes. (A transmission holds its route's resources in the slot it
    /// is sent, and a port is a rank's first arc, or the rank one-port.)
    pub fn collision_free(&self) -> bool {
        use std::collections::HashMap;
        if self.fixed.iter().any(|f| !f.is_empty()) {
            return false;
        }
        // Per (rank, port, resource), the transmissions of the port that
        // cross the resource.
        let mut crossing: HashMap<(Rank, u64, u64), u32> = HashMap::new();
        let mut count = |from: Rank, to: Rank| {
            let route = self.route(from, to);
            let mut port = None;
            self.net.occupy(&route, |res| {
                let key = match self.ports {
                    Ports::One => 0,
                    Ports::All => *port.get_or_insert(res),
                };
                *crossing.entry((from, key, res)).or_default() += 1;
            });
        };
        for (op, o) in self.schedule.ops.iter().enumerate() {
            let op = op as OpId;
            if self.transmits(op) {
                count(o.rank, self.peer(o.rank, op));
            }
            // A get's reply, from the rank read back to the getter.
            if let Kind::Move { from, to, .. } = &o.kind {
                if to.0 == o.rank && from.0 != o.rank {
                    count(from.0, o.rank);
                }
            }
        }
        let mut demand: HashMap<u64, u32> = HashMap::new();
        for ((_, key, res), n) in crossing {
            let lanes = match self.ports {
                Ports::One => 1,
                Ports::All => self.net.lanes(key),
            };
            *demand.entry(res).or_default() += n.min(lanes);
        }
        demand.into_iter().all(|(res, d)| d <= self.net.lanes(res))
    }

    /// The same, exploring `orders` of each slot's local work.
    pub fn with_orders(mut self, orders: Orders) -> Self {
        self.orders = orders;
        self
    }

    /// The same, its listings of a slot's orders stopped by `stop`.
    pub fn with_stop(mut self, stop: Arc<Stop>) -> Self {
        self.stop = stop;
        self
    }

    /// The schedule.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The node of each rank.
    pub fn place(&self) -> &[NodeId] {
        &self.place
    }

    /// Rank `r` in reports: `rank 3`, or `rank 3 (gpu3)` where its node's
    /// name is not its number.
    fn rank_words(&self, r: Rank) -> String {
        let label = self.net.node_label(self.place[r as usize]);
        match label == r.to_string() {
            true => format!("rank {r}"),
            false => format!("rank {r} ({label})"),
        }
    }

    /// The route of a message from rank `from` to rank `to`.
    fn route(&self, from: Rank, to: Rank) -> Route {
        let (from, to) = (self.place[from as usize], self.place[to as usize]);
        self.net
            .message_route(from, to, self.switching == Switching::Wh)
    }

    /// The rank at the other end of what rank `r` transmits for operation
    /// `op`: a send's receiver; a put's target; a get's peer (its
    /// request), or, where `r` answers another rank's get, the getter;
    /// `r` itself for local work.
    fn peer(&self, r: Rank, op: OpId) -> Rank {
        let o = &self.schedule.ops[op as usize];
        match o.kind {
            Kind::Send { to, .. } => to,
            Kind::Move { .. } if o.rank != r => o.rank,
            Kind::Move { to, .. } if to.0 != r => to.0,
            Kind::Move { from, .. } => from.0,
            _ => r,
        }
    }

    /// True if operation `op` leaves its rank as a transmission (a send,
    /// a put, a get's request) rather than as local work.
    fn transmits(&self, op: OpId) -> bool {
        let o = &self.schedule.ops[op as usize];
        match o.kind {
            Kind::Send { .. } => true,
            Kind::Move { .. } => self.peer(o.rank, op) != o.rank,
            _ => false,
        }
    }

    /// The rank message `m` is addressed to (beside a bus write's other
    /// readers).
    fn addressee(&self, m: &Message) -> Rank {
        let o = &self.schedule.ops[m.op as usize];
        match m.back {
            true => o.rank,
            false => self.peer(o.rank, m.op),
        }
    }

    /// True if operation `op` of `rank` may start in `st` (its order's
    /// predecessors have completed or started).
    fn ready(&self, st: &RankState, op: OpId, first: OpId) -> bool {
        let o = &self.schedule.ops[op as usize];
        o.after
            .iter()
            .all(|&d| st.status[(d - first) as usize] == DONE)
            && o.started_after
                .iter()
                .all(|&d| st.status[(d - first) as usize] != WAITING)
    }

    /// True if receive `op` takes message `m` (its sender and tag fit).
    fn fits(&self, op: OpId, m: &Message) -> bool {
        let o = &self.schedule.ops[op as usize];
        let sent = &self.schedule.ops[m.op as usize];
        match sent.kind.message_to(o.rank) {
            Some(t) if !m.back => o.kind.admits(sent.rank, t),
            _ => false,
        }
    }

    /// The ways the rank's local work in a slot may end after
    /// `arrivals` (docs/schedules.md, "Orders"), distinct, the first
    /// [`Self::settle_first`]'s.
    fn settlements(
        &self,
        r: Rank,
        st: &RankState,
        arrivals: &[Arrival<Message>],
    ) -> Vec<RankState> {
        let start = self.local(r, st.clone(), arrivals);
        let mut ends: Vec<RankState> = vec![self.settle_first(r, start.clone())];
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![start];
        let mut events = Vec::new();
        let mut steps = 0usize;
        while let Some(mut local) = stack.pop() {
            loop {
                steps += 1;
                if steps.is_multiple_of(Stop::LOOK_EVERY) && self.stop.now(steps) {
                    return ends;
                }
                self.events(&local, &mut events);
                if self.orders == Orders::Reduced && !events.is_empty() {
                    // Every event of the pass that is safe when its turn
                    // comes, alone (each still enabled: events stay so).
                    let mut took = false;
                    for &e in &events {
                        if self.safe(r, &local, e) {
                            self.apply(r, &mut local, e);
                            took = true;
                        }
                    }
                    if took {
                        continue;
                    }
                }
                let Some((&first, rest)) = events.split_first() else {
                    self.canonical(r, &mut local.st);
                    if !ends.contains(&local.st) {
                        ends.push(local.st);
                    }
                    break;
                };
                if !rest.is_empty() {
                    if seen.len() == seen.capacity() && self.stop.spent_with(grown_bytes(&seen)) {
                        return ends;
                    }
                    if !seen.insert(local.clone()) {
                        break;
                    }
                }
                for &e in rest.iter().rev() {
                    let mut other = local.clone();
                    self.apply(r, &mut other, e);
                    stack.push(other);
                }
                self.apply(r, &mut local, first);
            }
        }
        ends
    }

    /// The way the rank's local work ends when it takes its events in the
    /// order of arrival and of the file, the first each time (the
    /// executor's, choice 0). It is one of the ends every order reaches,
    /// so one of the reduction's (which keeps them all).
    fn settle_first(&self, r: Rank, mut local: Local) -> RankState {
        // The first of [`Self::events`], found without listing them all
        // (a rank of many unordered operations would take the square of
        // their number): the first pending message, else the first ready
        // local operation.
        loop {
            let e = match local.pending.first() {
                Some(&m) => Event::Arrive(m),
                None => match local.st.front.front() {
                    Some(&op) => Event::Issue(op),
                    None => break,
                },
            };
            self.apply(r, &mut local, e);
        }
        self.canonical(r, &mut local.st);
        local.st
    }

    /// Rank `r` in `st` with the slot's `arrivals` addressed to it to
    /// take in (a bus write reaches every reader of the bus: a rank takes
    /// what is addressed to it, `to` or `also`).
    ///
    /// One-sided accesses land first, before the slot's work: a put's
    /// data and a get's reply are written where they go (the reply
    /// completes its get), a get's request waits for its reply to go; a
    /// packet write's flag is then a message for a receive to take.
    fn local(&self, r: Rank, mut st: RankState, arrivals: &[Arrival<Message>]) -> Local {
        let mut pending = Vec::new();
        for m in arrivals.iter().map(|a| a.msg) {
            let o = &self.schedule.ops[m.op as usize];
            match o.kind {
                Kind::Send { .. } if o.kind.sends_to(r) => pending.push(m),
                Kind::Move { to, add, .. } if self.addressee(&m) == r => {
                    if !m.back && to.0 != r {
                        st.replies.push(m.op);
                        continue;
                    }
                    st.values.put(&Data::At(vec![to.1]), m.payload, add);
                    if !m.back && o.kind.message_to(r).is_some() {
                        pending.push(m);
                    }
                    if m.back {
                        let first = self.schedule.rank_ops(r).start;
                        self.mark(&mut st, m.op, first, DONE);
                    }
                }
                _ => {}
            }
        }
        Local { st, pending }
    }

    /// Puts the rank's posted receives and queued messages in one order
    /// of those that match alike: only the order of two receives that
    /// could take one message, and of two messages one sender sent or one
    /// open receive could take, is ever read; the others are sorted. So
    /// orders that differ only in independent events end in one state.
    fn canonical(&self, r: Rank, st: &mut RankState) {
        if st.posted.len() < 2 && st.queue.len() < 2 {
            return;
        }
        let first = self.schedule.rank_ops(r).start;
        let open: Vec<OpId> = self.receives[r as usize]
            .iter()
            .copied()
            .filter(|&b| st.status[(b - first) as usize] != DONE)
            .collect();
        let posted = std::mem::take(&mut st.posted);
        st.posted = least_order(
            &posted,
            |&a| a,
            |i, j| self.conflicts.compete(posted[i], posted[j]),
        );
        // Per queued message, the open receives that could take it, a bit
        // each: two messages that one could take share a bit.
        let queue = std::mem::take(&mut st.queue);
        let words = open.len().div_ceil(64);
        let mut takers = vec![0u64; queue.len() * words];
        for (m, row) in queue.iter().zip(takers.chunks_exact_mut(words.max(1))) {
            for (k, &q) in open.iter().enumerate() {
                if self.fits(q, m) {
                    row[k / 64] |= 1 << (k % 64);
                }
            }
        }
        let row = |i: usize| &takers[i * words..][..words];
        let sender = |m: &Message| self.schedule.ops[m.op as usize].rank;
        st.queue = least_order(
            &queue,
            |m| *m,
            |i, j| {
                sender(&queue[i]) == sender(&queue[j])
                    || row(i).iter().zip(row(j)).any(|(a, b)| a & b != 0)
            },
        );
    }

    /// The events that may come next in `local`: the first pending
    /// message of each sender, then the ready local operations in file
    /// order.
    fn events(&self, local: &Local, events: &mut Vec<Event>) {
        events.clear();
        let sender = |m: &Message| self.schedule.ops[m.op as usize].rank;
        for (i, m) in local.pending.iter().enumerate() {
            if !local.pending[..i].iter().any(|p| sender(p) == sender(m)) {
                events.push(Event::Arrive(*m));
            }
        }
        events.extend(local.st.front.iter().map(|&op| Event::Issue(op)));
    }

    /// True if event `e` is independent of every event that could come
    /// before it in the slot ([`super::orders`]).
    fn safe(&self, r: Rank, local: &Local, e: Event) -> bool {
        let ops = self.schedule.rank_ops(r);
        let first = ops.start;
        let open = |b: OpId| local.st.status[(b - first) as usize] != DONE;
        // An operation `b` that may still come before or after `a`, and
        // whose order with it matters.
        let clashes_with = |a: OpId, receives_compete: bool| {
            // A receive writes only when it takes a message, and no
            // message comes during the slot's work but those pending or
            // queued: one that none of them fits writes nothing this slot.
            let writes_now = |b: OpId| {
                !matches!(self.schedule.ops[b as usize].kind, Kind::Recv { .. })
                    || local
                        .pending
                        .iter()
                        .chain(&local.st.queue)
                        .any(|m| self.fits(b, m))
            };
            let rival = |b: OpId| {
                b != a
                    && open(b)
                    && !self.conflicts.after(&self.schedule, r, first, a, b)
                    && ((self.conflicts.clash(a, b) && writes_now(b))
                        || (receives_compete && self.conflicts.compete(a, b)))
            };
            match self.conflicts.rivals(&self.schedule, a) {
                Some(rivals) => rivals.iter().any(|&b| rival(b)),
                None => self
                    .conflicts
                    .touching(first + local.st.low..ops.end)
                    .iter()
                    .any(|&b| rival(b)),
            }
        };
        match e {
            Event::Issue(a) => !clashes_with(a, true),
            Event::Arrive(m) => {
                let m = &m;
                let sender = |m: &Message| self.schedule.ops[m.op as usize].rank;
                // Receives before the first open operation are done.
                let receives = &self.receives[r as usize];
                let low = receives.partition_point(|&b| b < first + local.st.low);
                let takers: Vec<OpId> = receives[low..]
                    .iter()
                    .copied()
                    .filter(|&b| open(b) && self.fits(b, m))
                    .collect();
                let Some(&taker) = takers.first() else {
                    return true;
                };
                // Another sender's message a receive that fits `m` could
                // take: their order of arrival decides which goes where.
                let rival = local
                    .pending
                    .iter()
                    .any(|p| sender(p) != sender(m) && takers.iter().any(|&t| self.fits(t, p)));
                if rival {
                    return false;
                }
                if takers.len() > 1 {
                    // Several open receives fit it: every order gives it
                    // to the same one where they are a chain, each waiting
                    // for the one before to complete (a threadblock's
                    // receives from its peer), and what they take before
                    // it has come already, its like (same sender and tag,
                    // so fitting the same receives): they take the
                    // messages in the order of arrival, which no event
                    // changes. Else it depends on the order.
                    let chain = takers
                        .windows(2)
                        .all(|w| self.conflicts.after(&self.schedule, r, first, w[0], w[1]));
                    let channel = |q: &Message| {
                        let op = &self.schedule.ops[q.op as usize];
                        (op.rank, op.kind.message_to(r))
                    };
                    let alike = local.st.queue.iter().all(|q| {
                        channel(q) == channel(m) || !takers.iter().any(|&t| self.fits(t, q))
                    });
                    if !(chain && alike) {
                        return false;
                    }
                }
                // The receive it completes, if posted, writes now (the
                // first of a chain: the others wait for it).
                let posted = local.st.posted.contains(&taker);
                !(posted && clashes_with(taker, false))
            }
        }
    }

    /// Takes event `e` in `local`.
    fn apply(&self, r: Rank, local: &mut Local, e: Event) {
        let first = self.schedule.rank_ops(r).start;
        let st = &mut local.st;
        match e {
            Event::Arrive(m) => {
                if let Some(i) = local.pending.iter().position(|p| *p == m) {
                    local.pending.remove(i);
                }
                match st.posted.iter().position(|&p| self.fits(p, &m)) {
                    Some(k) => {
                        let op = st.posted.remove(k);
                        self.complete(st, op, first, m);
                    }
                    None => st.queue.push(m),
                }
            }
            Event::Issue(op) => match &self.schedule.ops[op as usize].kind {
                Kind::Send { .. } => {}
                Kind::Recv { .. } => match st.queue.iter().position(|m| self.fits(op, m)) {
                    Some(k) => {
                        let m = st.queue.remove(k);
                        self.complete(st, op, first, m);
                    }
                    None => {
                        self.mark(st, op, first, POSTED);
                        st.posted.push(op);
                    }
                },
                Kind::Copy { from, to } => {
                    st.values.copy(*from, *to);
                    self.mark(st, op, first, DONE);
                }
                Kind::Reduce { from, to } => {
                    st.values.reduce(*from, *to);
                    self.mark(st, op, first, DONE);
                }
                // A local access (one that transmits is not issued here).
                Kind::Move { from, to, add, .. } => {
                    match add {
                        true => st.values.reduce(from.1, to.1),
                        false => st.values.copy(from.1, to.1),
                    }
                    self.mark(st, op, first, DONE);
                }
                Kind::Calc => self.mark(st, op, first, DONE),
            },
        }
    }

    /// Receive `op` takes message `m`.
    fn complete(&self, st: &mut RankState, op: OpId, first: OpId, m: Message) {
        let Kind::Recv { data, reduce, .. } = &self.schedule.ops[op as usize].kind else {
            return;
        };
        st.values.put(data, m.payload, *reduce);
        self.mark(st, op, first, DONE);
    }

    /// Sets operation `op`'s status (the rank's first operation is
    /// `first`), keeping the front, the count of completed operations
    /// and the first open one.
    fn mark(&self, st: &mut RankState, op: OpId, first: OpId, to: u8) {
        let i = (op - first) as usize;
        if st.status[i] == to {
            return;
        }
        if st.status[i] == WAITING {
            let ready = match self.transmits(op) {
                true => &mut st.sending,
                false => &mut st.front,
            };
            if let Ok(k) = ready.binary_search(&op) {
                ready.remove(k);
            }
        }
        st.status[i] = to;
        if to == DONE {
            st.done += 1;
            while st.status.get(st.low as usize) == Some(&DONE) {
                st.low += 1;
            }
        }
        for &b in self.next[op as usize].iter() {
            if st.status[(b - first) as usize] == WAITING
                && self.in_front(b)
                && self.ready(st, b, first)
            {
                let ready = match self.transmits(b) {
                    true => &mut st.sending,
                    false => &mut st.front,
                };
                if let Err(k) = ready.binary_search(&b) {
                    ready.insert(k, b);
                }
            }
        }
    }

    /// True if operation `op` starts by its order (all but a
    /// transmission fixed to a slot, which goes in that slot).
    fn in_front(&self, op: OpId) -> bool {
        !fixed_to_slot(&self.schedule.ops[op as usize])
    }

    /// The rank's sends that may go in `slot` after settling: those its
    /// order allows and those fixed to this slot, grouped by the port they
    /// compete for (one-port: one group; all-port: one per first arc),
    /// each with the sends the port takes in a slot (a link's lanes).
    fn ready_sends(&self, r: Rank, st: &RankState, slot: Slot) -> Vec<(u32, Vec<OpId>)> {
        let first = self.schedule.rank_ops(r).start;
        let mut going: Vec<OpId> = st.sending.iter().copied().collect();
        going.extend(self.fixed[r as usize].iter().copied().filter(|&op| {
            st.status[(op - first) as usize] != DONE
                && self.schedule.ops[op as usize].slot == Some(slot)
        }));
        going.extend(&st.replies);
        going.sort_unstable();
        going.dedup();
        let mut groups: Vec<(u64, Vec<OpId>)> = Vec::new();
        for op in going {
            let to = self.peer(r, op);
            let key = match self.ports {
                Ports::One => 0,
                Ports::All => {
                    let mut arc = None;
                    self.net.occupy(&self.route(r, to), |res| {
                        arc.get_or_insert(res);
                    });
                    arc.unwrap_or(0)
                }
            };
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, g)) => g.push(op),
                None => groups.push((key, vec![op])),
            }
        }
        let lanes = |key| match self.ports {
            Ports::One => 1,
            Ports::All => self.net.lanes(key),
        };
        groups.into_iter().map(|(k, g)| (lanes(k), g)).collect()
    }

    /// A group's free sends and how many of them go in a slot: its lanes
    /// less its fixed sends, but always one (a fixed send beside a free
    /// one is the schedule's contention to show).
    fn split(&self, lanes: u32, group: &[OpId]) -> (Vec<OpId>, Vec<OpId>, u32) {
        let (fixed, free): (Vec<OpId>, Vec<OpId>) = group
            .iter()
            .partition(|&&op| self.schedule.ops[op as usize].slot.is_some());
        let room = lanes.saturating_sub(fixed.len() as u32).max(1);
        (fixed, free, room)
    }

    /// How many ways the rank's free ready sends may take its ports in
    /// `slot`: for each port of k free sends and m lanes, the m-subsets.
    fn send_choices(&self, r: Rank, st: &RankState, slot: Slot) -> u32 {
        self.ready_sends(r, st, slot)
            .iter()
            .map(|(lanes, g)| {
                let (_, free, room) = self.split(*lanes, g);
                subsets(free.len() as u32, room).max(1)
            })
            .fold(1u32, |a, b| a.saturating_mul(b))
    }

    /// The next slot after `slot` in which one of the rank's sends is
    /// fixed to go.
    fn next_fixed(&self, r: Rank, st: &RankState, slot: Slot) -> Option<Slot> {
        let first = self.schedule.rank_ops(r).start;
        self.fixed[r as usize]
            .iter()
            .filter(|&&op| st.status[(op - first) as usize] != DONE)
            .filter_map(|&op| self.schedule.ops[op as usize].slot)
            .filter(|&s| s > slot)
            .min()
    }

    /// The operations of node `node`'s rank that never completed, in file
    /// order (matching: orphans and deadlocks).
    pub fn unfinished_ops(&self, node: NodeId, st: &RankState) -> Vec<OpId> {
        let r = self.rank_at[node as usize];
        if r == Rank::MAX {
            return Vec::new();
        }
        let ops = self.schedule.rank_ops(r);
        let first = ops.start;
        ops.filter(|&op| st.status[(op - first) as usize] != DONE)
            .collect()
    }
}

/// True for a transmission the schedule fixes to a slot: a send, or a
/// one-sided access of a peer (a put, a get's request); a slot on local
/// work is not read.
fn fixed_to_slot(o: &super::Op) -> bool {
    o.slot.is_some()
        && match o.kind {
            Kind::Send { .. } => true,
            Kind::Move { from, to, .. } => from.0 != o.rank || to.0 != o.rank,
            _ => false,
        }
}

/// About the bytes a full hash set's growth takes: its table of twice the
/// buckets (a slot and a control byte each), allocated while the old one
/// is still held. The entries' own heap memory is not counted here: it
/// grows a state at a time, between two of the stop's looks.
fn grown_bytes<T>(set: &std::collections::HashSet<T>) -> u64 {
    let buckets = (set.capacity().max(3) + 1) * 8 / 7;
    (2 * buckets.next_power_of_two() * (std::mem::size_of::<T>() + 1)) as u64
}

/// The least (by `key`) of the sequences that keep the order of every
/// two items that `ordered` relates (by index, the earlier first): at
/// each place, the least item that no related item before it must
/// precede (the lexicographic normal form of a trace). Each pair is
/// related once, and each place is found by counting: n^2 steps, where a
/// search of the related earlier items at each place took n^3 (a rank of
/// a hundred queued messages spent its minute here).
fn least_order<I: Copy, K: Ord>(
    items: &[I],
    key: impl Fn(&I) -> K,
    ordered: impl Fn(usize, usize) -> bool,
) -> Vec<I> {
    let n = items.len();
    // Per item, the later items it must precede; how many earlier items
    // not yet placed must precede it.
    let mut later: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut waits = vec![0usize; n];
    for (i, after) in later.iter_mut().enumerate() {
        for (j, wait) in waits.iter_mut().enumerate().skip(i + 1) {
            if ordered(i, j) {
                after.push(j);
                *wait += 1;
            }
        }
    }
    let mut placed = vec![false; n];
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        // The first least of the free items (there is one: the first not
        // placed waits for none).
        let next = (0..n)
            .filter(|&i| !placed[i] && waits[i] == 0)
            .min_by_key(|&i| key(&items[i]))
            .expect("the first item not placed is free");
        placed[next] = true;
        for &j in &later[next] {
            waits[j] -= 1;
        }
        out.push(items[next]);
    }
    out
}

impl<T: Topology> Protocol for Scheduled<T> {
    type Topo = T;
    type Input = ();
    type State = RankState;
    type Msg = Message;

    fn topology(&self) -> &T {
        &self.net
    }

    fn init(&self, _: &(), node: NodeId) -> RankState {
        let r = self.rank_at[node as usize];
        if r == Rank::MAX {
            return RankState::default();
        }
        let ops = self.schedule.rank_ops(r);
        let mut st = RankState {
            values: Values::initial(&self.schedule.chunks, r),
            status: vec![WAITING; ops.len()].into(),
            ..RankState::default()
        };
        let (sending, front) = ops
            .clone()
            .filter(|&op| self.in_front(op) && self.ready(&st, op, ops.start))
            .partition(|&op| self.transmits(op));
        (st.sending, st.front) = (sending, front);
        st
    }

    fn step(
        &self,
        node: NodeId,
        st: &mut RankState,
        slot: Slot,
        arrivals: &[Arrival<Message>],
        choice: u32,
        out: &mut Vec<Transmission<Message>>,
    ) -> bool {
        let r = self.rank_at[node as usize];
        if r == Rank::MAX {
            return false;
        }
        let before = st.done;
        // The choice names an end of the local work, then its sends.
        let mut pick = choice;
        let ends = match choice {
            0 => vec![self.settle_first(r, self.local(r, std::mem::take(st), arrivals))],
            _ => self.settlements(r, st, arrivals),
        };
        let last = ends.len() - 1;
        for (i, end) in ends.into_iter().enumerate() {
            // The last end takes what is left (its sends counted after).
            let k = match i == last {
                true => u32::MAX,
                false => self.send_choices(r, &end, slot),
            };
            if pick < k {
                *st = end;
                break;
            }
            pick -= k;
        }
        let first = self.schedule.rank_ops(r).start;
        let groups = self.ready_sends(r, st, slot);
        let mut left = false;
        for (lanes, group) in &groups {
            // Fixed-slot sends all go (their slot says so); of the others,
            // as many as the port has lanes, the choice's digit saying
            // which.
            let (mut going, free, room) = self.split(*lanes, group);
            if !free.is_empty() {
                let k = free.len() as u32;
                let ways = subsets(k, room);
                going.extend(nth_subset(k, room.min(k), pick % ways).map(|i| free[i as usize]));
                pick /= ways;
                left |= k > room;
            }
            for op in going {
                let o = &self.schedule.ops[op as usize];
                let back = o.rank != r;
                let at;
                let read = match &o.kind {
                    Kind::Send { data, .. } => Some(data),
                    // A put or a reply carries the position read; a
                    // request nothing.
                    Kind::Move { from, .. } if from.0 == r => {
                        at = Data::At(vec![from.1]);
                        Some(&at)
                    }
                    _ => None,
                };
                let (payload, missing) = match read {
                    Some(data) => (
                        st.values.payload(data),
                        st.values.missing(&self.schedule.chunks, data),
                    ),
                    None => (Payload::Nothing, None),
                };
                out.push(Transmission {
                    route: self.route(r, self.peer(r, op)),
                    msg: Message {
                        op,
                        payload,
                        missing,
                        back,
                    },
                });
                match o.kind {
                    _ if back => st.replies.retain(|&g| g != op),
                    // A get ends when its reply lands.
                    Kind::Move { to, .. } if to.0 == r => self.mark(st, op, first, POSTED),
                    _ => self.mark(st, op, first, DONE),
                }
            }
        }
        let after = st.done;
        let pending = (after as usize) < st.status.len() || !st.replies.is_empty();
        pending && (after > before || left || self.next_fixed(r, st, slot).is_some())
    }

    fn packets(&self, msg: &Message, mut f: impl FnMut(PacketId)) {
        self.packet_runs(msg, |run| run.for_each(&mut f));
    }

    /// A partial sum's terms are a run (its chunk's packets a rank each).
    fn packet_runs(&self, msg: &Message, mut f: impl FnMut(Range<PacketId>)) {
        if let Some(c) = msg.missing {
            f(self.bases[c as usize]..self.bases[c as usize] + 1);
        }
        match msg.payload {
            Payload::Nothing => {}
            Payload::Chunks { first, rest } => {
                let mut runs = Runs::new(f);
                rest.each(|i| runs.push(self.bases[(first + i) as usize]));
                runs.finish();
            }
            Payload::Sum { chunk, ranks } => {
                Schedule::value_runs(&self.bases, Value::Sum { chunk, ranks }, f)
            }
        }
    }

    fn claims(&self) -> Claims {
        self.claims.clone()
    }

    fn domain(&self) -> impl Inputs<()> + '_ {
        self
    }

    fn judging(&self) -> Option<impl Judging<(), RankState, Message> + '_> {
        Some(self)
    }

    fn choices(&self) -> Option<impl Choices<RankState, Message> + '_> {
        Some(self)
    }
}

/// The inputs the claim ranges over.
impl<T: Topology> Inputs<()> for &Scheduled<T> {
    fn task(&self, _: &()) -> Task {
        self.task.clone()
    }

    fn all(&self) -> Vec<()> {
        vec![()]
    }

    fn describe(&self, _: &()) -> String {
        self.schedule.collective.clone()
    }
}

/// More of the claim.
impl<T: Topology> Judging<(), RankState, Message> for &Scheduled<T> {
    /// The packets of a message before its last (`Data::Nothing`) carry
    /// no data: they take their links like any transmission and are
    /// counted apart.
    fn control(&self, msg: &Message) -> bool {
        let o = &self.schedule.ops[msg.op as usize];
        match o.kind {
            Kind::Send { ref data, .. } => *data == Data::Nothing,
            // A get's request.
            Kind::Move { from, .. } => from.0 != o.rank && !msg.back,
            _ => false,
        }
    }

    /// Judged at the end: each position holds what the collective
    /// requires, combining each contribution once; else the first
    /// contribution combined twice, or the first position that holds
    /// something else ([`Values::wrong`]).
    fn wrong_result(&self, _: &(), node: NodeId, st: &RankState) -> Option<u64> {
        let r = self.rank_at[node as usize];
        if r == Rank::MAX {
            return None;
        }
        st.values.wrong(&self.schedule.chunks, r)
    }

    /// The first operation of the node's rank never completed, else the
    /// first message it never received.
    fn unfinished(&self, _: &(), node: NodeId, st: &RankState) -> Option<u32> {
        self.unfinished_ops(node, st)
            .first()
            .copied()
            .or(st.queue.first().map(|m| m.op))
    }

    /// A matching violation in the file's terms (the cycle of a deadlock).
    /// A lost or repeated chunk by rank and chunk, a rank's node named
    /// where it is not the rank's number (`rank 3 (gpu3)`).
    fn explain(&self, v: &properties::Violation) -> Option<String> {
        use properties::Violation::*;
        let rank = |node: NodeId| self.rank_words(self.rank_at[node as usize]);
        let chunk = |p: PacketId| self.schedule.packet_words(p);
        match *v {
            Unmatched { node, op } => {
                let r = self.rank_at[node as usize];
                Some(self.schedule.why_unfinished(op, r, &|q| self.rank_words(q)))
            }
            Missing { node, packet } => Some(format!(
                "the run ends with {} lacking {}",
                rank(node),
                chunk(packet)
            )),
            Duplicate {
                slot,
                node,
                packet,
                from,
            } => Some(format!(
                "step {slot}: {} receives {} again, from {}",
                rank(node),
                chunk(packet),
                rank(from)
            )),
            OwnPacket {
                slot,
                node,
                packet,
                from,
            } => Some(format!(
                "step {slot}: {} receives its own {} of {} back, from {}",
                rank(node),
                match self.schedule.packet_chunk(packet).1 {
                    Some(_) => "term",
                    None => "copy",
                },
                self.schedule
                    .chunks
                    .chunk_words(self.schedule.packet_chunk(packet).0),
                rank(from)
            )),
            WrongResult { node, detail } => {
                let r = self.rank_at[node as usize];
                Some(wrong_words(&self.schedule.chunks, r, detail, &|q| {
                    self.rank_words(q)
                }))
            }
            _ => None,
        }
    }

    /// The rank (not its node), and for a wrong result its buffer,
    /// offset and values, for an unfinished operation the operation.
    fn locate(&self, v: &properties::Violation) -> Located {
        use properties::Violation::*;
        let rank_of = |node: NodeId| {
            let r = self.rank_at[node as usize];
            (r != Rank::MAX).then_some(r)
        };
        match *v {
            WrongResult { node, detail } => {
                let r = self.rank_at[node as usize];
                wrong_located(&self.schedule.chunks, r, detail, &|q| self.rank_words(q))
            }
            Unmatched { node, op } => Located {
                rank: rank_of(node),
                operations: vec![self.schedule.where_is_named(&|q| self.rank_words(q), op)],
                ..Located::default()
            },
            Missing { node, packet } => Located {
                rank: rank_of(node),
                expected: Some(self.schedule.packet_words(packet)),
                ..Located::default()
            },
            Duplicate { node, .. } | OwnPacket { node, .. } => Located {
                rank: rank_of(node),
                ..Located::default()
            },
            _ => Located::default(),
        }
    }

    fn lower_bounds(&self) -> Vec<(&'static str, Slot)> {
        self.bounds.clone()
    }

    /// No run is longer than one slot an operation plus the last fixed
    /// slot: a slot in which nothing completes sends nothing, so nothing
    /// arrives, and only a fixed slot ahead can change the next one.
    fn last_step(&self) -> Option<Slot> {
        let fixed = self.schedule.ops.iter().filter_map(|op| op.slot).max();
        // A get takes two slots: its request's and its reply's.
        let gets = self
            .schedule
            .ops
            .iter()
            .filter(|o| matches!(o.kind, Kind::Move { from, .. } if from.0 != o.rank))
            .count();
        let ops = (self.schedule.ops.len() + gets) as u64 + fixed.map_or(0, |s| s as u64 + 1);
        Some(ops.min(Slot::MAX as u64 / 4) as Slot)
    }
}

/// Open choices and scheduled sends.
impl<T: Topology> Choices<RankState, Message> for &Scheduled<T> {
    fn ways(&self, node: NodeId, st: &RankState, slot: Slot, arrivals: &[Arrival<Message>]) -> u32 {
        let r = self.rank_at[node as usize];
        if r == Rank::MAX {
            return 1;
        }
        self.settlements(r, st, arrivals)
            .iter()
            .map(|end| self.send_choices(r, end, slot))
            .fold(0u32, |a, b| a.saturating_add(b))
    }
}

/// What a schedule claims by default: every property but the
/// transmission count (a schedule states no optimum) and, where chunks
/// are reduced, no-duplication (a rank receives its own contribution back
/// inside every full sum).
pub fn default_claims(schedule: &Schedule) -> Claims {
    use PropertyName::*;
    let mut claimed = vec![Completeness, ContentionFreedom, Causality, Matching];
    if !schedule.chunks.reduced.iter().any(|&r| r) {
        claimed.push(NoDuplication);
    }
    Claims {
        claimed,
        bound: None,
        lower_bound: None,
        transmissions: None,
    }
}

/// How many m-subsets a set of k has (m >= k: one, the whole), saturating.
fn subsets(k: u32, m: u32) -> u32 {
    let m = m.min(k).min(k - m.min(k));
    let mut c: u64 = 1;
    for i in 0..m as u64 {
        c = c * (k as u64 - i) / (i + 1);
        if c > u32::MAX as u64 {
            return u32::MAX;
        }
    }
    c as u32
}

/// The `index`-th m-subset of 0..k in lexicographic order (index below
/// [`subsets`]`(k, m)`), smallest member first.
fn nth_subset(k: u32, m: u32, mut index: u32) -> impl Iterator<Item = u32> {
    let mut chosen = Vec::with_capacity(m as usize);
    let mut left = m;
    for i in 0..k {
        if left == 0 {
            break;
        }
        // Subsets that take i: those choosing the rest from after it.
        let with = subsets(k - i - 1, left - 1);
        if index < with {
            chosen.push(i);
            left -= 1;
        } else {
            index -= with;
        }
    }
    chosen.into_iter()
}

#[cfg(test)]
mod lane_tests {
    use super::{nth_subset, subsets};

    /// The m-subsets of k, counted and listed in lexicographic order: one
    /// lane picks one send of k (as a port always did), k lanes take all.
    #[test]
    fn subsets_are_counted_and_listed() {
        assert_eq!(subsets(5, 1), 5);
        assert_eq!(subsets(5, 2), 10);
        assert_eq!(subsets(5, 5), 1);
        assert_eq!(subsets(3, 7), 1);
        assert_eq!(subsets(0, 1), 1);
        let all: Vec<Vec<u32>> = (0..subsets(4, 2))
            .map(|i| nth_subset(4, 2, i).collect())
            .collect();
        assert_eq!(all, [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]);
        for i in 0..4 {
            assert_eq!(nth_subset(4, 1, i).collect::<Vec<_>>(), [i]);
        }
        assert_eq!(subsets(200, 100), u32::MAX);
    }
}

#[cfg(test)]
mod order_tests {
    use super::least_order;

    /// The normal form as it was first written: at each place, search the
    /// items left for the least one no earlier item left must precede.
    fn by_search(items: &[u32], ordered: &dyn Fn(u32, u32) -> bool) -> Vec<u32> {
        let mut left = items.to_vec();
        let mut out = Vec::new();
        while !left.is_empty() {
            let free = (0..left.len())
                .filter(|&i| !left[..i].iter().any(|&b| ordered(b, left[i])))
                .min_by_key(|&i| left[i])
                .unwrap();
            out.push(left.remove(free));
        }
        out
    }

    /// Random sequences (repeats included) and random symmetric relations:
    /// the counting normal form is the searching one.
    #[test]
    fn the_least_order_by_counting_is_the_least_by_search() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..2000 {
            let n = (next() % 12) as usize;
            let items: Vec<u32> = (0..n).map(|_| (next() % 8) as u32).collect();
            let mask = next();
            // Values a and b related by a bit of the mask: symmetric.
            let ordered = |a: u32, b: u32| mask >> (a.min(b) * 8 + a.max(b)) & 1 == 1;
            let counted = least_order(&items, |&x| x, |i, j| ordered(items[i], items[j]));
            assert_eq!(
                counted,
                by_search(&items, &ordered),
                "case {case}: {items:?}"
            );
        }
    }
}
