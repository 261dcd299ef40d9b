//! The properties: what must hold of every run, each evaluated here once and
//! fed by every engine with the same events (a send, a resource conflict, a
//! delivery, the end of the run).
//!
//! A [`Record`] is small, hashable and ordered so that the exhaustive checker
//! can keep it in its state, and mergeable so that the executor can keep one
//! per thread. It keeps the first violation of each property: the earliest
//! slot, then the lowest node.

use crate::holdings::{Holdings, Keep};
use crate::vocabulary::{NodeId, PacketId, ResourceId, Route, Slot, Task};

/// The properties a check reports on, with the names docs/architecture.md fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PropertyName {
    /// True iff, when the run ends, every node holds every packet the task
    /// requires of it. Checks every paper's "all nodes receive the packet".
    Completeness,
    /// True iff no node receives a packet it already holds (NODUP) or its own
    /// packet (NOHO). Checks the one-copy claims (Wang-Ku Theorem 1).
    NoDuplication,
    /// True iff no two transmissions of one slot share a resource (arc, bus
    /// or port). Checks the contention-freedom claims (Wang-Ku Theorem 2).
    ContentionFreedom,
    /// True iff every node sends only packets it holds. Guards the model
    /// itself: a protocol that forges packets proves nothing.
    Causality,
    /// True iff the completion time is at most the claimed bound (Wang-Ku
    /// Theorem 3 and Table I, lecture notes' SBT and DT bounds).
    TimeBound,
    /// True iff the number of transmissions equals the optimum (one per
    /// needed delivery), where a paper claims transmission optimality.
    Transmissions,
    /// True iff no message carries more tokens than the task allows (a
    /// mesh-bus gossip's l; Fujita's "at most l tokens").
    MessageLength,
    /// True iff every operation of a schedule completes: every send is
    /// received, every receive gets its message (no orphan, no deadlock).
    /// Only schedules have operations: the catalogue's algorithms are not
    /// judged on it.
    Matching,
}

impl PropertyName {
    /// Every property, in report order.
    pub const ALL: [PropertyName; 8] = [
        PropertyName::Completeness,
        PropertyName::NoDuplication,
        PropertyName::ContentionFreedom,
        PropertyName::Causality,
        PropertyName::TimeBound,
        PropertyName::Transmissions,
        PropertyName::MessageLength,
        PropertyName::Matching,
    ];

    /// Every property but message-length (the last): what an optimal
    /// algorithm claims where a message carries one packet (or combines
    /// without a limit).
    pub const OPTIMAL: [PropertyName; 6] = {
        let a = PropertyName::ALL;
        [a[0], a[1], a[2], a[3], a[4], a[5]]
    };

    /// The name used in reports, JSON and the Explorer.
    pub fn as_str(self) -> &'static str {
        match self {
            PropertyName::Completeness => "completeness",
            PropertyName::NoDuplication => "no-duplication",
            PropertyName::ContentionFreedom => "contention-freedom",
            PropertyName::Causality => "causality",
            PropertyName::TimeBound => "time-bound",
            PropertyName::Transmissions => "transmissions",
            PropertyName::MessageLength => "message-length",
            PropertyName::Matching => "matching",
        }
    }
}

/// What an algorithm's paper claims for the parameters checked.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Claims {
    /// The properties the paper claims; the others are observations.
    pub claimed: Vec<PropertyName>,
    /// The claimed completion time (slots), if any.
    pub bound: Option<Slot>,
    /// The best possible completion time for the problem (for reports).
    pub lower_bound: Option<Slot>,
    /// The claimed number of transmissions, where it is not one per needed
    /// delivery (scatter's shortest paths, accumulation's combining).
    pub transmissions: Option<u64>,
}

impl Claims {
    /// Every property but message-length, a claimed completion time
    /// `bound` and the problem's `lower_bound`, one transmission per
    /// needed delivery: what a broadcast of one's own usually claims.
    pub fn bounded(bound: Slot, lower_bound: Slot) -> Claims {
        Claims {
            claimed: PropertyName::OPTIMAL.to_vec(),
            bound: Some(bound),
            lower_bound: Some(lower_bound),
            transmissions: None,
        }
    }

    /// Every property claimed, with a time that is both the claimed bound
    /// and the problem's lower bound, and a claimed transmission count:
    /// the strong optimality of Bertsekas et al.'s tables.
    pub fn optimal(time: u64, transmissions: u64) -> Claims {
        Claims {
            claimed: PropertyName::OPTIMAL.to_vec(),
            bound: Some(time as Slot),
            lower_bound: Some(time as Slot),
            transmissions: Some(transmissions),
        }
    }

    /// True if the paper claims `p`.
    pub fn claims(&self, p: PropertyName) -> bool {
        self.claimed.contains(&p)
    }
}

/// The verdict of one property.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Every run covered keeps the property.
    Holds,
    /// Some run breaks it (the violation says how).
    Violated,
    /// The budget (states, time) ran out before a verdict.
    Unknown,
    /// Nothing was there to judge (no time claimed, no length limit) or
    /// the engine cannot judge it; the report says which.
    NotJudged,
}

impl Status {
    /// The name used in reports and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Holds => "holds",
            Status::Violated => "violated",
            Status::Unknown => "unknown",
            Status::NotJudged => "not judged",
        }
    }
}

/// A violation, in the run's own terms; a topology words it for people.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Violation {
    /// completeness: the run ended with `node` lacking `packet`.
    Missing {
        /// The node.
        node: NodeId,
        /// The packet it lacks.
        packet: PacketId,
    },
    /// completeness: the run ended with `node`'s computed result wrong (a
    /// prefix sum, a schedule's buffer).
    WrongResult {
        /// The node.
        node: NodeId,
        /// The protocol's account of what is wrong, for its own words
        /// (`Judging::explain`); 0 where it has none.
        detail: u64,
    },
    /// completeness: the run was still active when the engine's horizon
    /// (a generous multiple of any claimed bound) was reached.
    NotTerminated {
        /// The horizon.
        slot: Slot,
    },
    /// no-duplication (NODUP): `node` received `packet` again in `slot`.
    Duplicate {
        /// When.
        slot: Slot,
        /// The receiver.
        node: NodeId,
        /// The packet it held already.
        packet: PacketId,
        /// The sender of the second copy.
        from: NodeId,
    },
    /// no-duplication (NOHO): `node` received its own `packet` in `slot`.
    OwnPacket {
        /// When.
        slot: Slot,
        /// The receiver, the packet's origin.
        node: NodeId,
        /// Its packet.
        packet: PacketId,
        /// The sender.
        from: NodeId,
    },
    /// contention-freedom: two transmissions of `slot` share `resource`
    /// (`first` is None where an engine keeps no owner per resource; the
    /// executor then finds it by replaying the run).
    Conflict {
        /// When.
        slot: Slot,
        /// The resource taken twice.
        resource: ResourceId,
        /// The transmission that took it first, where known.
        first: Option<Route>,
        /// The one that took it again.
        second: Route,
    },
    /// causality: `node` sent `packet` in `slot` without holding it.
    NotHeld {
        /// When.
        slot: Slot,
        /// The sender.
        node: NodeId,
        /// The packet it did not hold.
        packet: PacketId,
    },
    /// causality: `node` sent `packets` packets as one transmission in
    /// `slot`, where the task does not combine packets (or none at all).
    Bundled {
        /// When.
        slot: Slot,
        /// The sender.
        node: NodeId,
        /// How many packets the transmission carried.
        packets: u32,
    },
    /// time-bound: news (a packet a node lacked, a control message) in
    /// `slot`, after the claimed `bound`.
    Late {
        /// The slot of the late delivery.
        slot: Slot,
        /// The claimed completion time.
        bound: Slot,
        /// The receiver.
        node: NodeId,
    },
    /// transmissions: `count` transmissions where `optimum` suffice.
    NotOptimal {
        /// The transmissions of the run.
        count: u64,
        /// The optimum claimed.
        optimum: u64,
    },
    /// matching: the run ended with operation `op` (its schedule's
    /// number) of the rank on `node` never completed, or with the message
    /// of send `op` to `node` never received.
    Unmatched {
        /// The node.
        node: NodeId,
        /// The operation.
        op: u32,
    },
    /// message-length: `node` sent `tokens` tokens in one message in
    /// `slot`, where at most `limit` fit.
    TooLong {
        /// When.
        slot: Slot,
        /// The sender.
        node: NodeId,
        /// The tokens the message carried.
        tokens: u32,
        /// The most a message may carry (l).
        limit: u32,
    },
}

impl Violation {
    /// The property this violation refutes.
    pub fn property(&self) -> PropertyName {
        match self {
            Violation::Missing { .. }
            | Violation::WrongResult { .. }
            | Violation::NotTerminated { .. } => PropertyName::Completeness,
            Violation::Duplicate { .. } | Violation::OwnPacket { .. } => {
                PropertyName::NoDuplication
            }
            Violation::Conflict { .. } => PropertyName::ContentionFreedom,
            Violation::NotHeld { .. } | Violation::Bundled { .. } => PropertyName::Causality,
            Violation::Late { .. } => PropertyName::TimeBound,
            Violation::NotOptimal { .. } => PropertyName::Transmissions,
            Violation::TooLong { .. } => PropertyName::MessageLength,
            Violation::Unmatched { .. } => PropertyName::Matching,
        }
    }

    /// The slot in which it happened; None for what is judged as the run
    /// ends (a missing packet, a wrong result, the transmission count).
    pub fn slot(&self) -> Option<Slot> {
        Some(self.when().0).filter(|&s| s != Slot::MAX)
    }

    /// Order of discovery: earlier slot first (end-of-run findings last).
    fn when(&self) -> (Slot, NodeId) {
        match *self {
            Violation::Duplicate { slot, node, .. }
            | Violation::OwnPacket { slot, node, .. }
            | Violation::NotHeld { slot, node, .. }
            | Violation::Bundled { slot, node, .. }
            | Violation::Late { slot, node, .. }
            | Violation::TooLong { slot, node, .. } => (slot, node),
            Violation::Conflict { slot, second, .. } => (slot, second.from()),
            Violation::NotTerminated { slot } => (slot, 0),
            Violation::Missing { node, .. }
            | Violation::WrongResult { node, .. }
            | Violation::Unmatched { node, .. } => (Slot::MAX, node),
            Violation::NotOptimal { .. } => (Slot::MAX, NodeId::MAX),
        }
    }
}

/// What a bus write's receivers made of one packet (see
/// [`Record::delivery_run`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct WriteTally {
    /// How many received it.
    pub count: u64,
    /// The lowest receiver.
    pub lowest: NodeId,
    /// The packet's origin, if it received it back.
    pub own: Option<NodeId>,
    /// The lowest receiver that already held it.
    pub again: Option<NodeId>,
    /// The lowest receiver that did not hold it (news: the completion
    /// time and the time-bound follow it).
    pub fresh: Option<NodeId>,
}

/// Evidence for one property after a run or a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// The property.
    pub property: PropertyName,
    /// True if the paper claims it (else it is an observation).
    pub claimed: bool,
    /// The verdict.
    pub status: Status,
    /// The first violation, if any.
    pub violation: Option<Violation>,
}

/// What a run has shown so far: counters and the first violation of each
/// property.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Record {
    /// The claimed time bound the run is judged against.
    bound: Option<Slot>,
    /// The claimed number of transmissions, if not one per needed delivery.
    optimum: Option<u64>,
    /// Transmissions made so far.
    pub transmissions: u64,
    /// Deliveries (packet arrivals at a receiving node) so far.
    pub deliveries: u64,
    /// Control messages sent so far (prefix values, termination packets:
    /// no data, counted apart from `transmissions`).
    pub control: u64,
    /// The completion time: the last slot in which a node received
    /// something new, a packet it lacked or a control message (a paper's
    /// count includes its control messages). The time-bound judges it.
    pub completion: Slot,
    /// The termination time: the last slot in which anything was
    /// delivered, copies again included (docs/architecture.md, "Times").
    pub last_delivery: Slot,
    /// Whether the run has ended (quiescent or at the horizon).
    pub ended: bool,
    /// Deliveries lost to faults (a failed arc or a crashed node on the way).
    pub lost: u64,
    /// (node, packet) pairs the run left missing that completeness
    /// excused under faults (no healthy holder reaches the node).
    pub excused: u64,
    /// (node, packet) pairs the run left missing and not excused (counted
    /// under faults only; otherwise completeness names the first).
    pub missing: u64,
    /// The first violation of each property, and the most transmissions
    /// on one resource in one slot; boxed, and absent until there is a
    /// violation, so that a record is a few words to copy and hash in the
    /// states of a correct protocol.
    first: Option<Box<Firsts>>,
}

/// Every field, as the derived `Hash` would (equal records hash alike,
/// different ones write different bytes), but the counters in one write:
/// the search hashes a record per successor it probes, and a write per
/// field was 8 % of `sbt 5`'s asynchronous search.
impl std::hash::Hash for Record {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let flags = self.bound.is_some() as u64
            | (self.optimum.is_some() as u64) << 1
            | (self.ended as u64) << 2
            | (self.first.is_some() as u64) << 3;
        let words = [
            flags | (self.bound.unwrap_or(0) as u64) << 32,
            self.optimum.unwrap_or(0),
            self.transmissions,
            self.deliveries,
            self.control,
            (self.completion as u64) << 32 | self.last_delivery as u64,
            self.lost,
            self.excused,
            self.missing,
        ];
        let mut bytes = [0u8; 72];
        for (b, w) in bytes.chunks_exact_mut(8).zip(words) {
            b.copy_from_slice(&w.to_le_bytes());
        }
        h.write(&bytes);
        if let Some(first) = &self.first {
            first.hash(h);
        }
    }
}

/// The most transmissions that took one resource in one slot (more than
/// one: a contention), and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Load {
    /// How many.
    pub most: u32,
    /// The first slot with that many.
    pub slot: Slot,
    /// The resource.
    pub resource: ResourceId,
}

/// What a record keeps once something is violated.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
struct Firsts {
    violations: [Option<Violation>; 8],
    load: Option<Load>,
    counting: Counting,
}

/// The conflicts of the slot being judged, per resource: scratch for
/// [`Load`] within one slot, which no later slot reads, so states that
/// differ only in it are the same state (it takes no part in equality).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct Counting {
    slot: Slot,
    /// Per resource taken more than once this slot, its takers: a map,
    /// since a broken broadcast of 2^22 nodes has millions of conflicts
    /// in a slot (a list made `naive-tree 22` take 542 s).
    takers: std::collections::HashMap<ResourceId, u32>,
}

impl PartialEq for Counting {
    fn eq(&self, _: &Counting) -> bool {
        true
    }
}

impl Eq for Counting {}

impl std::hash::Hash for Counting {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl Record {
    /// An empty record judged against `claims`.
    pub fn new(claims: &Claims) -> Self {
        Record {
            bound: claims.bound,
            optimum: claims.transmissions,
            transmissions: 0,
            deliveries: 0,
            control: 0,
            completion: 0,
            last_delivery: 0,
            ended: false,
            lost: 0,
            excused: 0,
            missing: 0,
            first: None,
        }
    }

    fn firsts(&mut self) -> &mut Firsts {
        self.first.get_or_insert_with(|| {
            Box::new(Firsts {
                violations: [None; 8],
                load: None,
                counting: Counting::default(),
            })
        })
    }

    fn note(&mut self, v: Violation) {
        let slot = &mut self.firsts().violations[v.property() as usize];
        if slot.is_none_or(|old| v.when() < old.when()) {
            *slot = Some(v);
        }
    }

    /// The first violation found of `p`, if any.
    pub fn violation(&self, p: PropertyName) -> Option<Violation> {
        self.first.as_ref().and_then(|f| f.violations[p as usize])
    }

    /// True if any property has been violated.
    pub fn any_violation(&self) -> bool {
        self.first.is_some()
    }

    /// causality: `node` sends `packet` in `slot`; it must hold it.
    #[inline]
    pub fn send(&mut self, slot: Slot, holdings: &Holdings, node: NodeId, packet: PacketId) {
        if !holdings.holds(node, packet) {
            self.note(Violation::NotHeld { slot, node, packet });
        }
    }

    /// [`Record::send`] of each of the consecutive `packets`.
    #[inline]
    pub fn send_run(
        &mut self,
        slot: Slot,
        holdings: &Holdings,
        node: NodeId,
        packets: std::ops::Range<PacketId>,
    ) {
        // One packet, the common case, as before runs.
        if packets.len() == 1 {
            return self.send(slot, holdings, node, packets.start);
        }
        if let Some(packet) = holdings.first_not_held(node, packets) {
            self.note(Violation::NotHeld { slot, node, packet });
        }
    }

    /// Counts `copies` transmissions by `node` in `slot` of one message
    /// carrying `packets` packets (after each passed [`Record::send`];
    /// several copies where the route is a fan-out); more than one packet
    /// is allowed only where the task combines them, and at most its
    /// message limit.
    #[inline]
    pub fn transmission(
        &mut self,
        slot: Slot,
        node: NodeId,
        packets: u32,
        task: &Task,
        copies: u32,
    ) {
        self.transmissions += copies as u64;
        if packets == 0 || (packets > 1 && !task.combining()) {
            self.note(Violation::Bundled {
                slot,
                node,
                packets,
            });
        }
        if let Some(limit) = task.message_limit().filter(|&l| packets > l) {
            self.note(Violation::TooLong {
                slot,
                node,
                tokens: packets,
                limit,
            });
        }
    }

    /// Counts `copies` of one control message (it carries no packet, so
    /// causality and the transmission count do not apply; it still takes
    /// its resources).
    pub fn control_transmission(&mut self, copies: u32) {
        self.control += copies as u64;
    }

    /// [`Record::delivery`] of `packet` from `from` to `count` nodes at
    /// once (a bus write's receivers, judged by the caller against the
    /// holdings): `lowest` the lowest of them, `own` the packet's origin if
    /// among them (NOHO), `again` the lowest that already held it (NODUP).
    /// The record is the one the deliveries one by one would leave.
    pub fn delivery_run(&mut self, slot: Slot, run: WriteTally, packet: PacketId, from: NodeId) {
        if run.count == 0 {
            return;
        }
        self.deliveries += run.count;
        self.last_delivery = self.last_delivery.max(slot);
        if let Some(node) = run.own {
            self.note(Violation::OwnPacket {
                slot,
                node,
                packet,
                from,
            });
        }
        if let Some(node) = run.again {
            self.note(Violation::Duplicate {
                slot,
                node,
                packet,
                from,
            });
        }
        if let Some(node) = run.fresh {
            self.news(slot, node);
        }
    }

    /// time-bound: a control message arrives at `node` in `slot`; the run
    /// lasts until its last control message is in.
    pub fn control_delivery(&mut self, slot: Slot, node: NodeId) {
        self.last_delivery = self.last_delivery.max(slot);
        self.news(slot, node);
    }

    /// completion and time-bound: `node` gets something new in `slot`. A
    /// copy it holds already is no news: it moves the termination time,
    /// not the completion time a bound is judged against.
    #[inline]
    fn news(&mut self, slot: Slot, node: NodeId) {
        self.completion = self.completion.max(slot);
        if let Some(bound) = self.bound {
            if slot > bound {
                self.note(Violation::Late { slot, bound, node });
            }
        }
    }

    /// contention-freedom: `second` needs `resource` in `slot`, already
    /// taken by `first`.
    pub fn conflict(
        &mut self,
        slot: Slot,
        resource: ResourceId,
        first: Option<Route>,
        second: Route,
    ) {
        self.note(Violation::Conflict {
            slot,
            resource,
            first,
            second,
        });
        // Each conflict is one more taker of a resource held already.
        let f = self.firsts();
        if f.counting.slot != slot {
            f.counting = Counting {
                slot,
                takers: Default::default(),
            };
        }
        // A resource's first conflict is its second taker.
        let takers = *f
            .counting
            .takers
            .entry(resource)
            .and_modify(|k| *k += 1)
            .or_insert(2);
        if f.load.is_none_or(|l| takers > l.most) {
            f.load = Some(Load {
                most: takers,
                slot,
                resource,
            });
        }
    }

    /// The most transmissions that took one resource in one slot, where
    /// more than one did.
    pub fn load(&self) -> Option<Load> {
        self.first.as_ref().and_then(|f| f.load)
    }

    /// no-duplication and time-bound: `node` receives `packet` in `slot`
    /// from node `from`. Updates `holdings`. Its own packet back is no
    /// news, nor a packet it holds.
    #[inline]
    pub fn delivery(
        &mut self,
        slot: Slot,
        task: &Task,
        holdings: &mut impl Keep,
        node: NodeId,
        packet: PacketId,
        from: NodeId,
    ) {
        self.deliveries += 1;
        self.last_delivery = self.last_delivery.max(slot);
        if task.origin(packet) == node {
            self.note(Violation::OwnPacket {
                slot,
                node,
                packet,
                from,
            });
        } else if !holdings.insert(node, packet) {
            self.note(Violation::Duplicate {
                slot,
                node,
                packet,
                from,
            });
        } else {
            self.news(slot, node);
        }
    }

    /// [`Record::delivery`] of each of the consecutive `packets`, the
    /// stretches between the node's own packets a run of bits at once:
    /// the record the deliveries one by one would leave.
    pub fn deliveries(
        &mut self,
        slot: Slot,
        task: &Task,
        holdings: &mut impl Keep,
        node: NodeId,
        packets: std::ops::Range<PacketId>,
        from: NodeId,
    ) {
        if packets.len() == 1 {
            return self.delivery(slot, task, holdings, node, packets.start, from);
        }
        let mut rest = packets;
        while !rest.is_empty() {
            let own = task.first_own(node, rest.clone());
            let others = rest.start..own.unwrap_or(rest.end);
            if !others.is_empty() {
                self.deliveries += others.len() as u64;
                self.last_delivery = self.last_delivery.max(slot);
                let got = holdings.insert_run(node, others);
                if let Some(packet) = got.held {
                    self.note(Violation::Duplicate {
                        slot,
                        node,
                        packet,
                        from,
                    });
                }
                if got.fresh {
                    self.news(slot, node);
                }
            }
            let Some(own) = own else { break };
            self.delivery(slot, task, holdings, node, own, from);
            rest = own + 1..rest.end;
        }
    }

    /// completeness and transmissions, at the end of the run. `horizon` is
    /// `Some(slot)` when the run was cut off still active.
    pub fn end(&mut self, task: &Task, holdings: &Holdings, horizon: Option<Slot>) {
        self.end_missing(task, horizon, holdings.first_missing())
    }

    /// [`Record::end`] with the first (node, packet) missing found
    /// elsewhere: the ranks of one run each search their own nodes.
    pub fn end_missing(
        &mut self,
        task: &Task,
        horizon: Option<Slot>,
        missing: Option<(NodeId, PacketId)>,
    ) {
        self.close(task, horizon, missing, 0)
    }

    /// [`Record::end`] on a machine with faults: a node missing a packet
    /// where `excused(node, packet)` (it crashed, or no healthy holder
    /// reaches it) breaks no completeness; such pairs are counted
    /// (`excused`), and the optimum of transmissions, where it is one per
    /// needed delivery, needs none for them.
    pub fn end_excusing(
        &mut self,
        task: &Task,
        holdings: &Holdings,
        horizon: Option<Slot>,
        excused: impl FnMut(NodeId, PacketId) -> bool,
    ) {
        let (first, spared, missing) = holdings.missing_except(excused);
        self.missing = missing;
        self.close(task, horizon, first, spared)
    }

    fn close(
        &mut self,
        task: &Task,
        horizon: Option<Slot>,
        missing: Option<(NodeId, PacketId)>,
        spared: u64,
    ) {
        self.ended = true;
        self.excused = spared;
        if let Some(slot) = horizon {
            self.horizon_reached(slot);
        }
        if let Some((node, packet)) = missing {
            self.note(Violation::Missing { node, packet });
        }
        let optimum = self
            .optimum
            .or_else(|| task.least_transmissions().map(|o| o.saturating_sub(spared)));
        if let Some(optimum) = optimum.filter(|&o| o != self.transmissions) {
            self.note(Violation::NotOptimal {
                count: self.transmissions,
                optimum,
            });
        }
    }

    /// Deliveries lost to faults.
    pub fn lose(&mut self, deliveries: u64) {
        self.lost += deliveries;
    }

    /// completeness: `node` ended with a wrong result (`detail`: the
    /// protocol's account of it).
    pub fn wrong_result(&mut self, node: NodeId, detail: u64) {
        self.note(Violation::WrongResult { node, detail });
    }

    /// matching: the run ended with operation `op` at `node` unfinished.
    pub fn unmatched(&mut self, node: NodeId, op: u32) {
        self.note(Violation::Unmatched { node, op });
    }

    /// completeness: the run was still active at the engine's horizon.
    pub fn horizon_reached(&mut self, slot: Slot) {
        self.note(Violation::NotTerminated { slot });
    }

    /// Names the first holder of the first conflict, where the engine that
    /// found it could not (the executor's replay).
    pub fn name_conflict_holder(&mut self, holder: Route) {
        let Some(first) = &mut self.first else {
            return;
        };
        let slot = &mut first.violations[PropertyName::ContentionFreedom as usize];
        if let Some(Violation::Conflict {
            first: first @ None,
            ..
        }) = slot
        {
            *first = Some(holder);
        }
    }

    /// Folds another record of the same slot range into this one (the
    /// executor keeps one per thread).
    pub fn merge(&mut self, other: &Record) {
        self.transmissions += other.transmissions;
        self.deliveries += other.deliveries;
        self.control += other.control;
        self.completion = self.completion.max(other.completion);
        self.last_delivery = self.last_delivery.max(other.last_delivery);
        self.ended |= other.ended;
        self.lost += other.lost;
        self.excused += other.excused;
        self.missing += other.missing;
        for v in other
            .first
            .iter()
            .flat_map(|f| f.violations.iter())
            .flatten()
        {
            self.note(*v);
        }
        if let Some(l) = other.load() {
            let f = self.firsts();
            if f.load.is_none_or(|mine| {
                (l.most, std::cmp::Reverse(l.slot)) > (mine.most, std::cmp::Reverse(mine.slot))
            }) {
                f.load = Some(l);
            }
        }
    }

    /// The evidence for every property once the run has ended.
    pub fn evidence(&self, claims: &Claims) -> Vec<Evidence> {
        PropertyName::ALL
            .iter()
            .map(|&p| {
                let violation = self.violation(p);
                Evidence {
                    property: p,
                    claimed: claims.claims(p),
                    status: match (violation, self.ended) {
                        (Some(_), _) => Status::Violated,
                        (None, true) => Status::Holds,
                        (None, false) => Status::Unknown,
                    },
                    violation,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task() -> Task {
        Task::Broadcast {
            nodes: 4,
            sources: vec![0],
        }
    }

    fn claims() -> Claims {
        Claims {
            claimed: PropertyName::ALL.to_vec(),
            bound: Some(2),
            lower_bound: Some(2),
            transmissions: None,
        }
    }

    const BY: Route = Route::Link { from: 0, to: 1 };
    const FROM: NodeId = 0;

    #[test]
    fn a_second_copy_is_a_duplicate_and_an_own_packet_is_noho() {
        let task = task();
        let mut h = Holdings::initial(&task);
        let mut r = Record::new(&claims());
        r.delivery(1, &task, &mut h, 1, 0, FROM);
        assert_eq!(r.violation(PropertyName::NoDuplication), None);
        r.delivery(2, &task, &mut h, 1, 0, FROM);
        assert!(matches!(
            r.violation(PropertyName::NoDuplication),
            Some(Violation::Duplicate {
                slot: 2,
                node: 1,
                ..
            })
        ));
        let mut r = Record::new(&claims());
        r.delivery(1, &task, &mut h, 0, 0, FROM);
        assert!(matches!(
            r.violation(PropertyName::NoDuplication),
            Some(Violation::OwnPacket { node: 0, .. })
        ));
    }

    #[test]
    fn the_time_is_the_last_news_and_a_late_copy_breaks_no_bound() {
        // The claims' bound is 2 (claims()).
        let task = task();
        let mut h = Holdings::initial(&task);
        let mut r = Record::new(&claims());
        r.delivery(2, &task, &mut h, 1, 0, FROM);
        // A copy again in slot 3, and the packet home: no news.
        r.delivery(3, &task, &mut h, 1, 0, FROM);
        r.delivery(3, &task, &mut h, 0, 0, FROM);
        assert_eq!((r.completion, r.last_delivery), (2, 3));
        assert_eq!(r.violation(PropertyName::TimeBound), None);
        // News after the bound is late, and names its node.
        r.delivery(3, &task, &mut h, 2, 0, FROM);
        assert_eq!(r.completion, 3);
        assert!(matches!(
            r.violation(PropertyName::TimeBound),
            Some(Violation::Late {
                slot: 3,
                node: 2,
                bound: 2
            })
        ));
        // A bus write's receivers: news if one of them lacked the packet.
        let mut r = Record::new(&claims());
        let copies = WriteTally {
            count: 2,
            lowest: 1,
            again: Some(1),
            ..Default::default()
        };
        r.delivery_run(4, copies, 0, FROM);
        assert_eq!((r.completion, r.last_delivery), (0, 4));
        r.delivery_run(
            5,
            WriteTally {
                fresh: Some(2),
                ..copies
            },
            0,
            FROM,
        );
        assert_eq!(r.completion, 5);
        assert!(r.violation(PropertyName::TimeBound).is_some());
    }

    #[test]
    fn the_earliest_violation_is_kept_across_merges() {
        let mut a = Record::new(&claims());
        let mut b = Record::new(&claims());
        a.conflict(3, 7, Some(BY), BY);
        b.conflict(2, 9, None, BY);
        a.merge(&b);
        assert!(matches!(
            a.violation(PropertyName::ContentionFreedom),
            Some(Violation::Conflict {
                slot: 2,
                resource: 9,
                ..
            })
        ));
    }

    #[test]
    fn the_end_judges_completeness_transmissions_and_lateness() {
        let task = task();
        let mut h = Holdings::initial(&task);
        let mut r = Record::new(&claims());
        r.send(1, &h, 0, 0);
        r.transmission(1, 0, 1, &task, 1);
        r.delivery(3, &task, &mut h, 1, 0, FROM);
        r.end(&task, &h, None);
        let ev = r.evidence(&claims());
        let status = |p: PropertyName| ev.iter().find(|e| e.property == p).unwrap().status;
        assert_eq!(status(PropertyName::Completeness), Status::Violated);
        assert_eq!(status(PropertyName::TimeBound), Status::Violated);
        assert_eq!(status(PropertyName::Transmissions), Status::Violated);
        assert_eq!(status(PropertyName::Causality), Status::Holds);
        assert!(matches!(
            r.violation(PropertyName::Completeness),
            Some(Violation::Missing { node: 2, packet: 0 })
        ));
    }

    #[test]
    fn only_a_combining_task_sends_several_packets_at_once() {
        let mut r = Record::new(&claims());
        r.transmission(1, 0, 2, &task(), 1);
        assert!(matches!(
            r.violation(PropertyName::Causality),
            Some(Violation::Bundled { packets: 2, .. })
        ));
        let sum = Task::Accumulate {
            nodes: 4,
            roots: vec![0],
        };
        let mut r = Record::new(&claims());
        r.transmission(1, 3, 2, &sum, 1);
        assert!(!r.any_violation());
    }

    #[test]
    fn sending_what_one_does_not_hold_breaks_causality() {
        let task = task();
        let h = Holdings::initial(&task);
        let mut r = Record::new(&claims());
        r.send(1, &h, 2, 0);
        assert!(r.violation(PropertyName::Causality).is_some());
    }

    /// The load counts the takers of one resource in one slot, keeps the
    /// most (the first slot on a tie), and its scratch of the slot being
    /// judged makes no two records differ.
    #[test]
    fn the_load_is_the_most_takers_of_one_resource_in_one_slot() {
        const BY: Route = Route::Link { from: 0, to: 1 };
        let mut a = Record::new(&claims());
        assert_eq!(a.load(), None);
        a.conflict(1, 7, Some(BY), BY);
        a.conflict(1, 8, Some(BY), BY);
        a.conflict(1, 7, Some(BY), BY);
        assert_eq!(
            a.load(),
            Some(Load {
                most: 3,
                slot: 1,
                resource: 7
            })
        );
        a.conflict(2, 8, Some(BY), BY);
        a.conflict(2, 8, Some(BY), BY);
        assert_eq!(
            a.load().map(|l| (l.most, l.slot)),
            Some((3, 1)),
            "a tie keeps the first"
        );
        a.conflict(3, 9, Some(BY), BY);
        let mut b = a.clone();
        b.conflict(3, 9, Some(BY), BY);
        assert_eq!(
            b.load().map(|l| (l.most, l.slot, l.resource)),
            Some((3, 1, 7))
        );
        let mut c = Record::new(&claims());
        c.merge(&b);
        c.conflict(5, 9, Some(BY), BY);
        assert_eq!(b.load(), c.load().filter(|l| l.slot == 1));
        // b's scratch holds slot 3's takers, a's fewer: the same record.
        let mut a2 = a.clone();
        a2.conflict(4, 1, Some(BY), BY);
        let mut b2 = b.clone();
        b2.conflict(4, 1, Some(BY), BY);
        assert_eq!(a2, b2);
    }

    /// Runs of packets judged at once leave the record and holdings that
    /// the same packets one by one leave: sends and deliveries of random
    /// runs, with own packets and packets held already among them, on a
    /// schedule's task (rows of bits, word by word) and on a broadcast's
    /// (packet by packet).
    #[test]
    fn runs_are_judged_as_their_packets_one_by_one() {
        use crate::vocabulary::{Need, Needs};
        let mut next = crate::seeded(11);
        for case in 0..300 {
            let nodes = 2 + next(4) as u32;
            let packets = 1 + next(150) as u32;
            // Mostly from node 0, so that a duplicate is often the first
            // violation of no-duplication (an own packet would be).
            let mut origin = |_| match next(8) {
                0 => next(nodes as u64) as NodeId,
                _ => 0,
            };
            let task = match case % 2 {
                0 => Task::Schedule(std::sync::Arc::new(Needs {
                    nodes,
                    origin: (0..packets).map(&mut origin).collect(),
                    need: (0..packets).map(|_| Need::Everyone).collect(),
                    combining: true,
                })),
                _ => Task::Broadcast {
                    nodes,
                    sources: (0..packets).map(origin).collect(),
                },
            };
            let (mut one, mut run) = (Holdings::initial(&task), Holdings::initial(&task));
            let (mut by_one, mut by_run) = (Record::new(&claims()), Record::new(&claims()));
            for slot in 1..20 {
                let node = next(nodes as u64) as NodeId;
                let start = next(packets as u64) as PacketId;
                let end = start + 1 + next((packets - start) as u64) as PacketId;
                match next(2) {
                    0 => {
                        (start..end).for_each(|p| by_one.send(slot, &one, node, p));
                        by_run.send_run(slot, &run, node, start..end);
                    }
                    _ => {
                        for p in start..end {
                            by_one.delivery(slot, &task, &mut one, node, p, FROM);
                        }
                        by_run.deliveries(slot, &task, &mut run, node, start..end, FROM);
                    }
                }
                assert_eq!(by_one, by_run, "case {case}, slot {slot}");
                assert_eq!(one, run, "case {case}, slot {slot}");
            }
        }
    }

    /// The bytes a record's `Hash` writes (the search's fingerprint reads
    /// them).
    fn written(r: &Record) -> Vec<u8> {
        struct Bytes(Vec<u8>);
        impl std::hash::Hasher for Bytes {
            fn finish(&self) -> u64 {
                0
            }
            fn write(&mut self, b: &[u8]) {
                self.0.extend_from_slice(b);
            }
        }
        let mut b = Bytes(Vec::new());
        std::hash::Hash::hash(r, &mut b);
        b.0
    }

    #[test]
    fn records_that_differ_in_any_field_write_different_bytes() {
        let task = task();
        let base = Record::new(&claims());
        let mut variants: Vec<Record> = vec![base.clone()];
        let changes: [fn(&mut Record); 12] = [
            |r| r.bound = None,
            |r| r.bound = Some(3),
            |r| r.optimum = Some(0),
            |r| r.transmissions += 1,
            |r| r.deliveries += 1,
            |r| r.control += 1,
            |r| r.completion += 1,
            |r| r.last_delivery += 1,
            |r| r.ended = true,
            |r| r.lost += 1,
            |r| r.excused += 1,
            |r| r.missing += 1,
        ];
        for change in changes {
            let mut r = base.clone();
            change(&mut r);
            variants.push(r);
        }
        // A violation, and another.
        let mut h = Holdings::initial(&task);
        let mut r = base.clone();
        r.delivery(1, &task, &mut h, 0, 0, FROM);
        variants.push(r.clone());
        r.delivery(2, &task, &mut h, 1, 0, FROM);
        r.delivery(2, &task, &mut h, 1, 0, FROM);
        variants.push(r);
        for (i, a) in variants.iter().enumerate() {
            assert_eq!(written(a), written(&a.clone()), "variant {i}");
            for (j, b) in variants.iter().enumerate().skip(i + 1) {
                assert_ne!(a, b, "variants {i} and {j} are one record");
                assert_ne!(written(a), written(b), "variants {i} and {j}");
            }
        }
    }
}
