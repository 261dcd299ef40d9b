//! Seeding a bug into a protocol: a [`Mutant`] is a protocol run with a
//! [`Mutation`], which changes some of what it does and leaves the rest
//! to it.
//!
//! The checker is only as good as the bugs it catches. To see that a
//! property catches what it should, write the bug that breaks it, wrap
//! the protocol in a `Mutant` with that bug, and run the mutant through
//! the engines as you would the protocol: the property must be violated
//! (and must hold for the protocol without the bug). The project's tests
//! do this for every property (tests/mutants.rs), and so can an example
//! with a protocol of its own.
//!
//! A `Mutation` overrides only what its bug changes; every method of
//! [`Protocol`] is delegated once, here, to the bug's method where the
//! bug may change it, and to the protocol's otherwise:
//!
//! | the bug may change | by overriding | by default |
//! |---|---|---|
//! | what a node does in a slot | [`Mutation::step`] | the protocol's step |
//! | a node's state before slot 1, and what the bug remembers beside it | [`Mutation::init`] | the protocol's, and `Memory::default()` |
//! | the open choices of a node in a slot | [`Mutation::choices`] | the protocol's |
//! | when a sleeping node is next stepped | [`Mutation::wake`] | the protocol's |
//! | the inputs a check of the mutant covers | [`Mutation::inputs`] | the protocol's |
//! | what a run must achieve | [`Mutation::task`] | the protocol's |
//! | what is claimed | [`Mutation::claims`] | the protocol's |
//! | the symmetry declared | [`Mutation::symmetry`] | the protocol's |
//!
//! Everything else (the topology, the packets of a message, the engine
//! hints, the other inputs' methods, control messages and results, lower
//! bounds, ...) is the protocol's. Among the engine hints, a protocol that
//! does not read its arrivals ([`Hints::reads_arrivals`](crate::Hints)) is handed
//! none by the executor: a bug seeded into it must not read them either.
//!
//! # Example
//!
//! SBT whose source never sends its first transmission: completeness must
//! catch it.
//!
//! ```
//! use models::blocks::broadcast::Packet;
//! use models::lecture_notes::sbt::{Sbt, SbtState};
//! use models::mutant::{Mutant, MutantState, Mutation};
//! use models::{Algorithm, Arrival, Protocol};
//! use properties::{NodeId, Slot, Transmission};
//!
//! /// The source drops its first transmission.
//! struct DropFirst;
//!
//! impl Mutation<Sbt> for DropFirst {
//!     type Memory = (); // nothing to remember
//!
//!     fn step(
//!         &self,
//!         sbt: &Sbt,
//!         node: NodeId,
//!         state: &mut MutantState<SbtState, ()>,
//!         slot: Slot,
//!         arrivals: &[Arrival<Packet>],
//!         choice: u32,
//!         out: &mut Vec<Transmission<Packet>>,
//!     ) -> bool {
//!         let busy = sbt.step(node, &mut state.inner, slot, arrivals, choice, out);
//!         if slot == 1 && !out.is_empty() {
//!             out.remove(0); // only the source sends in slot 1
//!         }
//!         busy
//!     }
//! }
//!
//! let sbt = Sbt::new(Algorithm::Sbt.config(3, None, None).unwrap());
//! let mutant = Mutant::new(sbt, DropFirst);
//! // Any engine takes the mutant as it takes SBT (commcheck's
//! // `engine::executor::run(&mutant, &0)`, `engine::exhaustive::lockstep`).
//! let mut source = mutant.init(&0, 0);
//! let mut out = Vec::new();
//! mutant.step(0, &mut source, 1, &[], 0, &mut out);
//! assert_eq!(out.len(), 2, "three dimensions, the first dropped");
//! ```
//!
//! A bug that remembers something between slots (a transmission to send
//! again, arrivals held back) names it as its `Memory` and sets it in
//! [`Mutation::init`]. A bug that sends in a slot in which the protocol's
//! node would sleep (see [`Choices::wake`](crate::Choices::wake)) overrides
//! [`Mutation::wake`], or the executor never steps the node then.

use crate::faults::Faults;
use crate::protocol::{
    Arrival, Choices, Codes, Hints, Inputs, Judging, Machine, Protocol, ProtocolExt, Symmetry,
};
use properties::{Claims, NodeId, PacketId, Route, Slot, Task, Transmission};
use serde::{de::DeserializeOwned, Serialize};
use std::fmt::Debug;
use std::hash::Hash;

/// A protocol with a bug seeded into it: `inner`'s node logic, changed
/// where `bug` (a [`Mutation`] of it) says. It is a [`Protocol`], and
/// every engine runs it as one.
#[derive(Clone, Debug)]
pub struct Mutant<P, B> {
    /// The protocol.
    pub inner: P,
    /// The bug seeded into it.
    pub bug: B,
}

impl<P, B> Mutant<P, B> {
    /// `inner` with `bug` seeded into it.
    pub fn new(inner: P, bug: B) -> Self {
        Mutant { inner, bug }
    }
}

/// A node's state in a mutant: the protocol's state, and what the bug
/// remembers beside it (`()` for most bugs, which hashes to nothing: the
/// mutant's states are then told apart exactly as the protocol's).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MutantState<S, M> {
    /// The protocol's state of the node.
    pub inner: S,
    /// What the bug remembers of the node.
    pub memory: M,
}

/// A bug seeded into protocol `P`: each method is one thing the bug may
/// change, and defaults to what `P` does. Override [`Mutation::step`] for
/// a bug in the node logic; the others where the bug changes the initial
/// state, the choices, the inputs, the task, the claims or the symmetry.
pub trait Mutation<P: Protocol>: Send + Sync {
    /// What the bug remembers of a node between slots, beside the
    /// protocol's state (`()` if nothing).
    type Memory: Clone + Debug + Default + Eq + Hash + Send + Sync + Serialize + DeserializeOwned;

    /// A node's state before slot 1 (default: the protocol's, and
    /// `Memory::default()`).
    fn init(
        &self,
        inner: &P,
        input: &P::Input,
        node: NodeId,
    ) -> MutantState<P::State, Self::Memory> {
        MutantState {
            inner: inner.init(input, node),
            memory: Self::Memory::default(),
        }
    }

    /// What `node` does in `slot` ([`Protocol::step`]; default: what the
    /// protocol's node does). The usual bug runs the protocol's step on
    /// `state.inner` and then changes what it appended to `out`.
    #[allow(clippy::too_many_arguments)] // Protocol::step's, and the protocol
    fn step(
        &self,
        inner: &P,
        node: NodeId,
        state: &mut MutantState<P::State, Self::Memory>,
        slot: Slot,
        arrivals: &[Arrival<P::Msg>],
        choice: u32,
        out: &mut Vec<Transmission<P::Msg>>,
    ) -> bool {
        inner.step(node, &mut state.inner, slot, arrivals, choice, out)
    }

    /// How many ways `node` may act this slot ([`Choices::ways`];
    /// default: the protocol's).
    fn choices(
        &self,
        inner: &P,
        node: NodeId,
        state: &MutantState<P::State, Self::Memory>,
        slot: Slot,
        arrivals: &[Arrival<P::Msg>],
    ) -> u32 {
        inner.ways(node, &state.inner, slot, arrivals)
    }

    /// The slot in which a node that asked to be stepped again is next
    /// stepped ([`Choices::wake`]; default: the protocol's). A bug that
    /// sends in slots the protocol's node sleeps through returns `slot +
    /// 1` here.
    fn wake(&self, inner: &P, state: &MutantState<P::State, Self::Memory>, slot: Slot) -> Slot {
        inner.wake(&state.inner, slot)
    }

    /// The inputs a check of the mutant covers ([`Inputs::all`];
    /// default: the protocol's). A test may take fewer, to be quick.
    fn inputs(&self, inner: &P) -> Vec<P::Input> {
        inner.inputs()
    }

    /// What a run from `input` must achieve ([`Inputs::task`]; default:
    /// the protocol's).
    fn task(&self, inner: &P, input: &P::Input) -> Task {
        inner.task(input)
    }

    /// What is claimed ([`Protocol::claims`]; default: the protocol's).
    fn claims(&self, inner: &P) -> Claims {
        inner.claims()
    }

    /// The symmetry declared ([`Inputs::symmetry`]; default: the
    /// protocol's). A bug may keep a declaration its node logic breaks:
    /// the symmetry test must catch that.
    fn symmetry(&self, inner: &P) -> Option<Symmetry> {
        inner.symmetry()
    }
}

/// Every item of [`Protocol`], delegated once: to the bug where it may
/// change it, to the protocol otherwise. Each aspect goes through the
/// mutant itself, which writes every method of it (tests/layout.rs holds
/// it to that), so none falls back to a default by being forgotten.
impl<P: Protocol, B: Mutation<P>> Protocol for Mutant<P, B> {
    type Topo = P::Topo;
    type Input = P::Input;
    type State = MutantState<P::State, B::Memory>;
    type Msg = P::Msg;

    // ===== The node logic =================================================

    fn topology(&self) -> &P::Topo {
        self.inner.topology()
    }

    fn init(&self, input: &P::Input, node: NodeId) -> Self::State {
        self.bug.init(&self.inner, input, node)
    }

    fn step(
        &self,
        node: NodeId,
        state: &mut Self::State,
        slot: Slot,
        arrivals: &[Arrival<P::Msg>],
        choice: u32,
        out: &mut Vec<Transmission<P::Msg>>,
    ) -> bool {
        self.bug
            .step(&self.inner, node, state, slot, arrivals, choice, out)
    }

    fn packets(&self, msg: &P::Msg, f: impl FnMut(PacketId)) {
        self.inner.packets(msg, f)
    }

    fn packet_runs(&self, msg: &P::Msg, f: impl FnMut(std::ops::Range<PacketId>)) {
        self.inner.packet_runs(msg, f)
    }

    // ===== The claim ======================================================

    fn domain(&self) -> impl Inputs<P::Input> + '_ {
        self
    }

    fn claims(&self) -> Claims {
        self.bug.claims(&self.inner)
    }

    // ===== Aspects: the mutant's own, forwarding ==========================

    fn judging(&self) -> Option<impl Judging<P::Input, Self::State, P::Msg> + '_> {
        Some(self)
    }

    fn choices(&self) -> Option<impl Choices<Self::State, P::Msg> + '_> {
        Some(self)
    }

    fn machine(&self) -> Option<impl Machine<'_, P::Input, Self::State> + '_> {
        Some(self)
    }

    const PACKS: bool = P::PACKS;

    fn codes(&self) -> Option<impl Codes<P::Input, Self::State, P::Msg> + '_> {
        P::PACKS.then_some(self)
    }

    fn hints(&self) -> Hints {
        self.inner.hints()
    }
}

/// The inputs: the protocol's, but for those the bug may change.
impl<P: Protocol, B: Mutation<P>> Inputs<P::Input> for &Mutant<P, B> {
    fn task(&self, input: &P::Input) -> Task {
        self.bug.task(&self.inner, input)
    }

    fn source_input(&self, source: NodeId) -> Option<P::Input> {
        self.inner.source_input(source)
    }

    fn all(&self) -> Vec<P::Input> {
        self.bug.inputs(&self.inner)
    }

    fn sourced(&self, source: NodeId) -> Vec<P::Input> {
        self.inner.sourced_inputs(source)
    }

    fn first(&self) -> P::Input {
        self.inner.first_input()
    }

    fn total(&self) -> u64 {
        self.inner.inputs_total()
    }

    fn covered(&self) -> &'static str {
        self.inner.covered_inputs()
    }

    fn describe(&self, input: &P::Input) -> String {
        self.inner.describe_input(input)
    }

    fn symmetry(&self) -> Option<Symmetry> {
        self.bug.symmetry(&self.inner)
    }
}

/// More of the claim: the protocol's, judged on its part of the state.
impl<P: Protocol, B: Mutation<P>> Judging<P::Input, MutantState<P::State, B::Memory>, P::Msg>
    for &Mutant<P, B>
{
    fn bound(&self, input: &P::Input, _claimed: Option<Slot>) -> Option<Slot> {
        self.inner.bound(input)
    }

    fn control(&self, msg: &P::Msg) -> bool {
        self.inner.control(msg)
    }

    fn wrong_result(
        &self,
        input: &P::Input,
        node: NodeId,
        state: &MutantState<P::State, B::Memory>,
    ) -> Option<u64> {
        self.inner.wrong_result(input, node, &state.inner)
    }

    fn unfinished(
        &self,
        input: &P::Input,
        node: NodeId,
        state: &MutantState<P::State, B::Memory>,
    ) -> Option<u32> {
        self.inner.unfinished(input, node, &state.inner)
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
        self.inner.last_step()
    }

    fn forced(&self) -> Option<(Slot, bool)> {
        self.inner.forced()
    }

    fn drawn(&self, input: &P::Input) -> Option<u64> {
        self.inner.drawn(input)
    }

    fn drawn_tail(&self, v: u64) -> (&'static str, Option<f64>) {
        self.inner.drawn_tail(v)
    }
}

/// Open choices and scheduled sends: the bug's.
impl<P: Protocol, B: Mutation<P>> Choices<MutantState<P::State, B::Memory>, P::Msg>
    for &Mutant<P, B>
{
    fn ways(
        &self,
        node: NodeId,
        state: &MutantState<P::State, B::Memory>,
        slot: Slot,
        arrivals: &[Arrival<P::Msg>],
    ) -> u32 {
        self.bug.choices(&self.inner, node, state, slot, arrivals)
    }

    fn wake(&self, state: &MutantState<P::State, B::Memory>, slot: Slot) -> Slot {
        self.bug.wake(&self.inner, state, slot)
    }
}

/// The machine: the protocol's.
impl<'a, P: Protocol, B: Mutation<P>> Machine<'a, P::Input, MutantState<P::State, B::Memory>>
    for &'a Mutant<P, B>
{
    fn faults(&self, input: &P::Input) -> Option<&'a Faults> {
        self.inner.faults(input)
    }

    fn landed_late(&self, state: &MutantState<P::State, B::Memory>) -> Vec<(Slot, Route)> {
        self.inner.landed_late(&state.inner)
    }
}

/// Codes: the protocol's, where the bug remembers what it did at first. A
/// bug may read what the protocol's code drops (an arrival's sender): an
/// arrival keeps its code only if the code gives it back whole.
impl<P: Protocol, B: Mutation<P>> Codes<P::Input, MutantState<P::State, B::Memory>, P::Msg>
    for &Mutant<P, B>
{
    fn pack_state(
        &self,
        input: &P::Input,
        node: NodeId,
        state: &MutantState<P::State, B::Memory>,
    ) -> Option<u16> {
        (state.memory == self.bug.init(&self.inner, input, node).memory)
            .then(|| self.inner.pack_state(input, node, &state.inner))
            .flatten()
    }

    fn unpack_state(
        &self,
        input: &P::Input,
        node: NodeId,
        code: u16,
    ) -> MutantState<P::State, B::Memory> {
        MutantState {
            inner: self.inner.unpack_state(input, node, code),
            memory: self.bug.init(&self.inner, input, node).memory,
        }
    }

    fn pack_arrival(&self, input: &P::Input, to: NodeId, a: &Arrival<P::Msg>) -> Option<u16> {
        let code = self.inner.pack_arrival(input, to, a)?;
        (self.inner.unpack_arrival(input, to, code) == *a).then_some(code)
    }

    fn unpack_arrival(&self, input: &P::Input, to: NodeId, code: u16) -> Arrival<P::Msg> {
        self.inner.unpack_arrival(input, to, code)
    }

    fn merge_arrival(
        &self,
        input: &P::Input,
        to: NodeId,
        code: u16,
        a: &Arrival<P::Msg>,
    ) -> Option<u16> {
        let merged = self.inner.merge_arrival(input, to, code, a)?;
        let (mut was, mut is) = (Vec::new(), Vec::new());
        self.inner.unpack_arrivals(input, to, code, &mut was);
        self.inner.unpack_arrivals(input, to, merged, &mut is);
        was.push(*a);
        was.sort_unstable();
        is.sort_unstable();
        (was == is).then_some(merged)
    }

    fn unpack_arrivals(
        &self,
        input: &P::Input,
        to: NodeId,
        code: u16,
        into: &mut Vec<Arrival<P::Msg>>,
    ) {
        self.inner.unpack_arrivals(input, to, code, into)
    }
}
