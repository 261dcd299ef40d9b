//! A protocol run on an imperfect machine (docs/architecture.md, "Faults,
//! delays and skew"): [`Faulty`] wraps any protocol and runs its node
//! logic, unchanged, under
//!
//! * **faults** ([`crate::faults`]): each input of the check is a pair of
//!   the protocol's input and one *scenario* (a fault set, and a start
//!   offset per node), so the engines cover every scenario listed as they
//!   cover every source; a crashed node's step does nothing from its
//!   slot on, and the judge loses what crosses a failed part;
//! * **skew**: node v starts `offset(v)` slots late. Its step sees its own
//!   clock (its slot 1 is global slot 1 + offset), and what reaches it
//!   before it starts waits in its network interface, handed to its
//!   second step as if it had come in its first slot (a step sees what
//!   came in the slot before it; the delivery itself is judged when it
//!   lands);
//! * **delay** up to D: every transmission (a fan-out as a whole) may
//!   cross its links up to D slots late, as an adversary chooses: each
//!   choice is an open choice of its sender ([`Choices::ways`]), so
//!   the lock-step search explores every one. A transmission d slots late
//!   is judged in the slot it lands: it takes its resources then (where
//!   it meets a scheduled transmission, contention) and its sender must
//!   still hold what it carries (a relay holds a packet until it lands).
//!
//! What the protocol writes is not touched: a time-triggered schedule
//! still sends in its slot whether or not its packet has come, so the
//! properties show how it fares (causality, contention, the time bound).
//! A node whose logic reads no arrival ([`Hints::reads_arrivals`]) is
//! stepped as the executor steps it: when it asked, with no arrivals (an
//! arrival gives such a step nothing to do).
//!
//! # What delays cannot change
//!
//! Under delays alone (no fault, no skew), for a protocol that reads no
//! arrival and a task that keeps what it delivers (a broadcast), every
//! delay pattern makes the same transmissions as the on-time run of the
//! same choices: each node is stepped in the same slots from the same
//! state, so it sends the same messages on the same routes, and a late
//! one only lands later. Nothing is lost (no fault), so each node is
//! delivered the same multiset of packets, and with nothing released it
//! ends holding the same ones. Hence completeness, no-duplication (some
//! node is delivered a packet twice, or its own: true of the multiset),
//! the transmission count and message lengths are those of the on-time
//! runs ([`Faulty::on_time`], [`DELAY_FREE`]), provided no delayed run
//! meets the horizon: a run that ends on time in slot T ends by T + D.
//! Contention, causality and the time bound depend on when things land,
//! and are searched over every pattern (docs/architecture.md, "Faults,
//! delays and skew").

use crate::faults::{Fault, Faults, Subsets};
use crate::protocol::{
    Arrival, Choices, Codes, Hints, Inputs, Judging, Machine, Plain, Protocol, ProtocolExt,
    Symmetry,
};
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Task, Transmission};
use std::sync::{Arc, OnceLock};

/// One way the machine is imperfect in a run: faults and start offsets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scenario {
    /// What fails.
    pub faults: Faults,
    /// Each node's start offset in slots (empty: every node starts in slot 1).
    pub offsets: Vec<Slot>,
}

impl Scenario {
    /// The offset of `node`.
    pub fn offset(&self, node: NodeId) -> Slot {
        self.offsets.get(node as usize).copied().unwrap_or(0)
    }
}

/// Every scenario of a sweep: the faults in every run, times each set of
/// each enumerated family, times each vector of start offsets (the last
/// fastest), each made from its index when a run needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// Faults in every scenario (named, or drawn).
    pub every: Vec<Fault>,
    /// The fault sets enumerated, outermost first.
    pub sets: Vec<Subsets>,
    /// The network's nodes, for the start offsets.
    pub nodes: u32,
    /// The largest start offset (0: every node starts in slot 1).
    pub skew: Slot,
}

impl Sweep {
    /// How many scenarios (saturating).
    pub fn count(&self) -> u64 {
        self.sets
            .iter()
            .fold(self.offsets(), |n, s| n.saturating_mul(s.count()))
    }

    fn offsets(&self) -> u64 {
        offset_vectors(self.nodes, self.skew)
    }

    /// Scenario `r` (below [`Sweep::count`]).
    pub fn nth(&self, r: u64) -> Scenario {
        let (mut r, offsets) = (r / self.offsets(), r % self.offsets());
        let mut list = self.every.clone();
        let mut sets: Vec<Vec<Fault>> = Vec::with_capacity(self.sets.len());
        for s in self.sets.iter().rev() {
            sets.push(s.nth(r % s.count()));
            r /= s.count();
        }
        sets.into_iter().rev().for_each(|s| list.extend(s));
        Scenario {
            faults: Faults::new(list),
            offsets: self.nth_offsets(offsets),
        }
    }

    /// Offset vector `r`, in lexicographic order: at node i, each digit
    /// below the one taken is skipped with the vectors it begins (those
    /// with a 0 somewhere, where none came before it and it is not one).
    fn nth_offsets(&self, mut r: u64) -> Vec<Slot> {
        if self.skew == 0 {
            return Vec::new();
        }
        let (s, n) = (self.skew as u64, self.nodes);
        let mut v = Vec::with_capacity(n as usize);
        let mut zero = false;
        for i in 0..n {
            let rest = n - i - 1;
            for d in 0..=s {
                let begun = match zero || d == 0 {
                    true => power(s + 1, rest),
                    false => power(s + 1, rest).saturating_sub(power(s, rest)),
                };
                if r < begun {
                    v.push(d as Slot);
                    zero |= d == 0;
                    break;
                }
                r -= begun;
            }
        }
        v
    }
}

/// How many vectors of start offsets of `nodes` nodes a skew of `skew`
/// gives: those in 0..=skew with at least one node at 0 (a shift of
/// every node is the same run, later), saturating; 1 without skew.
pub fn offset_vectors(nodes: u32, skew: Slot) -> u64 {
    match skew {
        0 => 1,
        s => power(s as u64 + 1, nodes).saturating_sub(power(s as u64, nodes)),
    }
}

/// b^e, saturating.
fn power(b: u64, e: u32) -> u64 {
    b.checked_pow(e).unwrap_or(u64::MAX)
}

/// The scenarios of a check: listed, or a sweep's, made a block at a time
/// when a run first needs one of the block (a sweep may have millions:
/// listed, they took gigabytes before the check's first state, whatever
/// its budget). Blocks, not one scenario at a time: inputs are searched
/// in order, and the search's own allocations interleaved with one small
/// scenario each made the allocator's free lists 40% slower.
#[derive(Debug)]
enum Scenarios {
    Listed(Vec<Scenario>),
    Sweep {
        sweep: Sweep,
        count: u64,
        made: Vec<OnceLock<Vec<Scenario>>>,
    },
}

/// Scenarios made together.
const BLOCK: u64 = 4096;

impl Scenarios {
    fn count(&self) -> u64 {
        match self {
            Scenarios::Listed(list) => list.len() as u64,
            Scenarios::Sweep { count, .. } => *count,
        }
    }

    fn get(&self, k: u32) -> &Scenario {
        match self {
            Scenarios::Listed(list) => &list[k as usize],
            Scenarios::Sweep { sweep, count, made } => {
                let (block, at) = (k as u64 / BLOCK, k as u64 % BLOCK);
                let first = block * BLOCK;
                let list = made[block as usize].get_or_init(|| {
                    (first..(first + BLOCK).min(*count))
                        .map(|r| sweep.nth(r))
                        .collect()
                });
                &list[at as usize]
            }
        }
    }

    /// The largest start offset of any scenario.
    fn most_offset(&self) -> Slot {
        match self {
            Scenarios::Listed(list) => list
                .iter()
                .flat_map(|s| s.offsets.iter())
                .max()
                .copied()
                .unwrap_or(0),
            Scenarios::Sweep { sweep, .. } => sweep.skew,
        }
    }
}

/// The properties no delay can change where [`Faulty::on_time`] gives a
/// machine (module header): what the multiset of transmissions and
/// deliveries decides.
pub const DELAY_FREE: [PropertyName; 4] = [
    PropertyName::Completeness,
    PropertyName::NoDuplication,
    PropertyName::Transmissions,
    PropertyName::MessageLength,
];

/// `inner` run under each of `scenarios`, with deliveries up to `delay`
/// slots late.
#[derive(Clone, Debug)]
pub struct Faulty<P> {
    /// The protocol (shared with its on-time twin, [`Faulty::on_time`]).
    pub inner: Arc<P>,
    scenarios: Arc<Scenarios>,
    delay: Slot,
    /// The scenarios are closed under the protocol's symmetry (every fault
    /// set of a size, every offset vector): one source per orbit still
    /// covers every (source, scenario) pair.
    closed: bool,
}

/// A node's state under [`Faulty`]: the protocol's, and what the machine
/// does around it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct FaultyState<S, M> {
    /// The protocol's state of the node.
    pub inner: S,
    /// The global slot of the node's first step.
    start: Slot,
    /// The slot from which the node is crashed (`Slot::MAX`: never).
    crash: Slot,
    /// The protocol asked to be stepped again.
    busy: bool,
    /// Arrivals that came before the node started.
    waiting: Vec<Arrival<M>>,
    /// Transmissions made late, with the slot each lands in and its delay.
    late: Vec<(Slot, Slot, Transmission<M>)>,
    /// The late transmissions that landed in the node's last step, with
    /// their delays (for pictures).
    landed: Vec<(Slot, Route)>,
}

impl<S, M> FaultyState<S, M> {
    /// How many late transmissions land in `slot` (sent after the node's
    /// own, at the end of its step's output).
    pub fn landing(&self, slot: Slot) -> usize {
        self.late.iter().filter(|(at, ..)| *at == slot).count()
    }
}

impl<P: Protocol> Faulty<P> {
    /// `inner` under `scenarios` (at least one) with delays up to `delay`;
    /// `closed` as on the field.
    pub fn new(inner: P, scenarios: Vec<Scenario>, delay: Slot, closed: bool) -> Self {
        assert!(!scenarios.is_empty(), "at least one scenario");
        Faulty {
            inner: Arc::new(inner),
            scenarios: Arc::new(Scenarios::Listed(scenarios)),
            delay,
            closed,
        }
    }

    /// `inner` under every scenario of `sweep` (at most 2^32); the rest as
    /// [`Faulty::new`].
    pub fn sweep(inner: P, sweep: Sweep, delay: Slot, closed: bool) -> Self {
        let count = sweep.count();
        assert!(
            count <= u32::MAX as u64,
            "{count} scenarios: more than inputs index"
        );
        Faulty {
            inner: Arc::new(inner),
            scenarios: Arc::new(Scenarios::Sweep {
                sweep,
                count,
                made: (0..count.div_ceil(BLOCK))
                    .map(|_| OnceLock::new())
                    .collect(),
            }),
            delay,
            closed,
        }
    }

    /// The scenario of an input.
    pub fn scenario(&self, input: &(P::Input, u32)) -> &Scenario {
        self.scenarios.get(input.1)
    }

    /// The largest delay.
    pub fn delay(&self) -> Slot {
        self.delay
    }

    /// The same machine with every transmission on time, where delays
    /// cannot change the [`DELAY_FREE`] properties (module header): a
    /// delay, one scenario without faults or skew, node logic that reads
    /// no arrival. The task must also keep what it delivers, and no run
    /// meet the horizon: the caller checks both. Its inputs are this
    /// machine's, index for index.
    pub fn on_time(&self) -> Option<Faulty<P>> {
        let only = self.scenarios.get(0);
        let perfect = self.scenarios.count() == 1
            && only.faults.is_empty()
            && only.offsets.iter().all(|&o| o == 0);
        (self.delay > 0 && perfect && !self.inner.reads_arrivals()).then(|| Faulty {
            inner: Arc::clone(&self.inner),
            scenarios: Arc::clone(&self.scenarios),
            delay: 0,
            closed: self.closed,
        })
    }

    /// Whether the inner step runs in `slot`, and with which local slot
    /// and arrivals (those that waited first).
    fn due(
        &self,
        st: &FaultyState<P::State, P::Msg>,
        slot: Slot,
        arrivals: &[Arrival<P::Msg>],
    ) -> Option<(Slot, Vec<Arrival<P::Msg>>)> {
        if slot >= st.crash || slot < st.start {
            return None;
        }
        let local = slot - st.start + 1;
        if local == 1 {
            // What came before the node started waits for its second step.
            return Some((1, Vec::new()));
        }
        if !self.inner.reads_arrivals() {
            return st.busy.then_some((local, Vec::new()));
        }
        let mut all = st.waiting.clone();
        all.extend_from_slice(arrivals);
        (st.busy || !all.is_empty()).then_some((local, all))
    }

    /// The ways of the slot: for each choice of the protocol, (D + 1)^k
    /// delays of its k transmissions.
    fn delayed_ways(
        &self,
        node: NodeId,
        st: &FaultyState<P::State, P::Msg>,
        local: Slot,
        arrivals: &[Arrival<P::Msg>],
    ) -> Vec<u64> {
        let own = self.inner.ways(node, &st.inner, local, arrivals);
        (0..own)
            .map(|c| {
                if self.delay == 0 {
                    return 1;
                }
                let mut probe = st.inner.clone();
                let mut out = Vec::new();
                self.inner
                    .step(node, &mut probe, local, arrivals, c, &mut out);
                (self.delay as u64 + 1).saturating_pow(out.len() as u32)
            })
            .collect()
    }
}

impl<P: Protocol> Protocol for Faulty<P> {
    type Topo = P::Topo;
    type Input = (P::Input, u32);
    type State = FaultyState<P::State, P::Msg>;
    type Msg = P::Msg;

    fn topology(&self) -> &P::Topo {
        self.inner.topology()
    }

    fn init(&self, input: &Self::Input, node: NodeId) -> Self::State {
        let scenario = self.scenario(input);
        FaultyState {
            inner: self.inner.init(&input.0, node),
            start: 1 + scenario.offset(node),
            crash: scenario.faults.crash_slot(node).unwrap_or(Slot::MAX),
            busy: false,
            waiting: Vec::new(),
            late: Vec::new(),
            landed: Vec::new(),
        }
    }

    fn step(
        &self,
        node: NodeId,
        st: &mut Self::State,
        slot: Slot,
        arrivals: &[Arrival<P::Msg>],
        choice: u32,
        out: &mut Vec<Transmission<P::Msg>>,
    ) -> bool {
        st.landed.clear();
        if slot >= st.crash {
            st.late.clear();
            st.busy = false;
            return false;
        }
        if slot <= st.start && self.inner.reads_arrivals() {
            st.waiting.extend_from_slice(arrivals);
        }
        if slot < st.start {
            return true;
        }
        if let Some((local, all)) = self.due(st, slot, arrivals) {
            if local > 1 {
                st.waiting.clear();
            }
            let (mut own, mut delays) = (choice, 0u64);
            if self.delay > 0 {
                // Choice index -> (the protocol's choice, the delays).
                let ways = self.delayed_ways(node, st, local, &all);
                let mut index = choice as u64;
                own = 0;
                while index >= ways[own as usize] {
                    index -= ways[own as usize];
                    own += 1;
                }
                delays = index;
            }
            let first = out.len();
            st.busy = self.inner.step(node, &mut st.inner, local, &all, own, out);
            if self.delay > 0 {
                let fresh: Vec<_> = out.drain(first..).collect();
                for tx in fresh {
                    let d = (delays % (self.delay as u64 + 1)) as Slot;
                    delays /= self.delay as u64 + 1;
                    match d {
                        0 => out.push(tx),
                        d => st.late.push((slot + d, d, tx)),
                    }
                }
            }
        }
        st.late.retain(|&(at, d, tx)| {
            if at == slot {
                out.push(tx);
                st.landed.push((d, tx.route));
            }
            at != slot
        });
        st.busy || !st.late.is_empty() || !st.waiting.is_empty()
    }

    fn packets(&self, msg: &P::Msg, f: impl FnMut(PacketId)) {
        self.inner.packets(msg, f)
    }

    fn packet_runs(&self, msg: &P::Msg, f: impl FnMut(std::ops::Range<PacketId>)) {
        self.inner.packet_runs(msg, f)
    }

    fn domain(&self) -> impl Inputs<Self::Input> + '_ {
        self
    }

    fn claims(&self) -> Claims {
        self.inner.claims()
    }

    fn judging(&self) -> Option<impl Judging<Self::Input, Self::State, P::Msg> + '_> {
        Some(self)
    }

    fn choices(&self) -> Option<impl Choices<Self::State, P::Msg> + '_> {
        Some(self)
    }

    fn machine(&self) -> Option<impl Machine<'_, Self::Input, Self::State> + '_> {
        Some(self)
    }

    // The dense drive keeps no delays or skew: a faulty machine has no codes.
    const PACKS: bool = false;

    fn codes(&self) -> Option<impl Codes<Self::Input, Self::State, P::Msg> + '_> {
        None::<Plain>
    }

    fn hints(&self) -> Hints {
        Hints {
            // The actor model delivers in every order already; faults, skew
            // and delays are judged by the lock-step model and the executor.
            event_driven: false,
            ..self.inner.hints()
        }
    }
}

/// The inputs: the protocol's, each under every scenario.
impl<P: Protocol> Inputs<(P::Input, u32)> for &Faulty<P> {
    fn task(&self, input: &(P::Input, u32)) -> Task {
        self.inner.task(&input.0)
    }

    fn source_input(&self, source: NodeId) -> Option<(P::Input, u32)> {
        self.inner.source_input(source).map(|i| (i, 0))
    }

    fn all(&self) -> Vec<(P::Input, u32)> {
        if self.inner.source_input(0).is_some() {
            let nodes = crate::Topology::nodes(self.inner.topology());
            return (0..nodes).flat_map(|s| self.sourced(s)).collect();
        }
        self.cross(self.inner.inputs())
    }

    fn sourced(&self, source: NodeId) -> Vec<(P::Input, u32)> {
        self.cross(self.inner.sourced_inputs(source))
    }

    fn first(&self) -> (P::Input, u32) {
        (self.inner.first_input(), 0)
    }

    fn total(&self) -> u64 {
        self.inner
            .inputs_total()
            .saturating_mul(self.scenarios.count())
    }

    fn covered(&self) -> &'static str {
        self.inner.covered_inputs()
    }

    fn describe(&self, input: &(P::Input, u32)) -> String {
        let scenario = self.scenario(input);
        let t = self.inner.topology();
        let mut words = self.inner.describe_input(&input.0);
        if !scenario.faults.is_empty() {
            words += &format!(", {} down", scenario.faults.words(t));
        }
        if scenario.offsets.iter().any(|&o| o > 0) {
            let late: Vec<String> = (0..crate::Topology::nodes(t))
                .filter(|&v| scenario.offset(v) > 0)
                .map(|v| {
                    format!(
                        "{} +{}",
                        crate::Topology::node_label(t, v),
                        scenario.offset(v)
                    )
                })
                .collect();
            words += &format!(", starting late: {}", late.join(" "));
        }
        words
    }

    fn symmetry(&self) -> Option<Symmetry> {
        self.inner.symmetry().filter(|_| self.closed)
    }
}

/// More of the claim: the protocol's, where a crashed node computes
/// nothing and leaves nothing unfinished.
impl<P: Protocol> Judging<(P::Input, u32), FaultyState<P::State, P::Msg>, P::Msg> for &Faulty<P> {
    fn bound(&self, input: &(P::Input, u32), _claimed: Option<Slot>) -> Option<Slot> {
        self.inner.bound(&input.0)
    }

    fn control(&self, msg: &P::Msg) -> bool {
        self.inner.control(msg)
    }

    fn wrong_result(
        &self,
        input: &(P::Input, u32),
        node: NodeId,
        st: &FaultyState<P::State, P::Msg>,
    ) -> Option<u64> {
        if st.crash != Slot::MAX {
            return None;
        }
        self.inner.wrong_result(&input.0, node, &st.inner)
    }

    fn unfinished(
        &self,
        input: &(P::Input, u32),
        node: NodeId,
        st: &FaultyState<P::State, P::Msg>,
    ) -> Option<u32> {
        match st.crash {
            Slot::MAX => self.inner.unfinished(&input.0, node, &st.inner),
            _ => None,
        }
    }

    fn explain(&self, violation: &properties::Violation) -> Option<String> {
        self.inner.explain(violation)
    }

    fn locate(&self, violation: &properties::Violation) -> crate::protocol::Located {
        self.inner.locate(violation)
    }

    fn lower_bounds(&self) -> Vec<(&'static str, Slot)> {
        self.inner.lower_bounds()
    }

    fn last_step(&self) -> Option<Slot> {
        let most = self.scenarios.most_offset();
        self.inner.last_step().map(|s| s + most + self.delay)
    }

    // The adversary's forced input is of a perfect machine.
    fn forced(&self) -> Option<(Slot, bool)> {
        None
    }

    fn drawn(&self, input: &(P::Input, u32)) -> Option<u64> {
        self.inner.drawn(&input.0)
    }

    fn drawn_tail(&self, v: u64) -> (&'static str, Option<f64>) {
        self.inner.drawn_tail(v)
    }
}

/// The delays' choices; every node stepped each slot (a late
/// transmission lands in a slot of its own).
impl<P: Protocol> Choices<FaultyState<P::State, P::Msg>, P::Msg> for &Faulty<P> {
    fn ways(
        &self,
        node: NodeId,
        st: &FaultyState<P::State, P::Msg>,
        slot: Slot,
        arrivals: &[Arrival<P::Msg>],
    ) -> u32 {
        match self.due(st, slot, arrivals) {
            None => 1,
            Some((local, all)) => {
                let total: u64 = self.delayed_ways(node, st, local, &all).iter().sum();
                total.min(u32::MAX as u64) as u32
            }
        }
    }

    fn wake(&self, _: &FaultyState<P::State, P::Msg>, slot: Slot) -> Slot {
        slot + 1
    }
}

/// The machine: the scenario's faults, and what landed late.
impl<'a, P: Protocol> Machine<'a, (P::Input, u32), FaultyState<P::State, P::Msg>>
    for &'a Faulty<P>
{
    fn faults(&self, input: &(P::Input, u32)) -> Option<&'a Faults> {
        let faulty: &'a Faulty<P> = self;
        let faults = &faulty.scenario(input).faults;
        (!faults.is_empty()).then_some(faults)
    }

    fn landed_late(&self, st: &FaultyState<P::State, P::Msg>) -> Vec<(Slot, Route)> {
        st.landed.clone()
    }
}

impl<P: Protocol> Faulty<P> {
    fn cross(&self, inputs: Vec<P::Input>) -> Vec<(P::Input, u32)> {
        inputs
            .into_iter()
            .flat_map(|i| (0..self.scenarios.count() as u32).map(move |k| (i.clone(), k)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::faults::Part;

    /// Every offset vector with a node at 0, listed by counting (the
    /// definition the unranking must agree with).
    fn listed(nodes: u32, skew: Slot) -> Vec<Vec<Slot>> {
        let mut out = Vec::new();
        let mut v = vec![0; nodes as usize];
        loop {
            if v.contains(&0) {
                out.push(v.clone());
            }
            let Some(i) = (0..v.len()).rev().find(|&i| v[i] < skew) else {
                return out;
            };
            v[i] += 1;
            v[i + 1..].iter_mut().for_each(|x| *x = 0);
        }
    }

    fn sweep(sets: Vec<Subsets>, nodes: u32, skew: Slot) -> Sweep {
        Sweep {
            every: vec![Fault::at_start(Part::Node(9))],
            sets,
            nodes,
            skew,
        }
    }

    #[test]
    fn each_offset_vector_is_reached_by_its_index() {
        for nodes in 1..=4 {
            for skew in 1..=3 {
                let all = listed(nodes, skew);
                let s = sweep(Vec::new(), nodes, skew);
                assert_eq!(s.count(), all.len() as u64, "{nodes} nodes, skew {skew}");
                for (r, v) in all.iter().enumerate() {
                    assert_eq!(
                        &s.nth(r as u64).offsets,
                        v,
                        "{nodes} nodes, skew {skew}, {r}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_sweep_goes_through_its_families_outermost_first() {
        let nodes = |k: u32| (0..k).map(Part::Node).collect::<Vec<_>>();
        let links = vec![Part::Link(0, 1), Part::Link(1, 2)];
        let families = vec![Subsets::new(links, 1), Subsets::new(nodes(3), 2)];
        let s = sweep(families.clone(), 3, 1);
        let offsets = listed(3, 1);
        let mut r = 0;
        for l in 0..families[0].count() {
            for n in 0..families[1].count() {
                for o in &offsets {
                    let mut list = vec![Fault::at_start(Part::Node(9))];
                    list.extend(families[0].nth(l));
                    list.extend(families[1].nth(n));
                    let want = Scenario {
                        faults: Faults::new(list),
                        offsets: o.clone(),
                    };
                    assert_eq!(s.nth(r), want, "scenario {r}");
                    r += 1;
                }
            }
        }
        assert_eq!(s.count(), r);
    }
}
