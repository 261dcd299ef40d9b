//! What engines ask of a protocol, answered from its aspects: one method
//! a question, so that an engine reads `p.describe_input(&i)` whichever
//! aspect holds the answer. Implemented for every protocol and by none.

use super::aspects::{Choices, Codes, Inputs, Judging, Machine};
use super::parts::{Arrival, Symmetry};
use super::Protocol;
use crate::faults::Faults;
use crate::topology::Topology;
use properties::{Claims, NodeId, Route, Slot, Task, Violation};

/// What engines ask of a protocol ([`Protocol`]'s aspects, with their
/// defaults where it has none).
pub trait ProtocolExt: Protocol {
    // ===== The inputs =====================================================

    /// What a run from `input` must achieve ([`Inputs::task`]).
    fn task(&self, input: &Self::Input) -> Task {
        self.domain().task(input)
    }

    /// The input with the given source node, if the claim has one a source.
    fn source_input(&self, source: NodeId) -> Option<Self::Input> {
        self.domain().source_input(source)
    }

    /// The source of `input`, if it is a source's input.
    fn source_of(&self, input: &Self::Input) -> Option<NodeId> {
        let domain = self.domain();
        if domain.source_input(0).as_ref() == Some(input) {
            return Some(0);
        }
        (0..self.topology().nodes()).find(|&s| domain.source_input(s).as_ref() == Some(input))
    }

    /// Every input the claim quantifies over ([`Inputs::all`]), or where
    /// the domain lists none, every node's sourced inputs.
    fn inputs(&self) -> Vec<Self::Input> {
        let domain = self.domain();
        let mut inputs = domain.all();
        if inputs.is_empty() {
            inputs = (0..self.topology().nodes())
                .flat_map(|s| domain.sourced(s))
                .collect();
        }
        assert!(!inputs.is_empty(), "a protocol's domain has inputs");
        inputs
    }

    /// Every input from the given source ([`Inputs::sourced`]).
    fn sourced_inputs(&self, source: NodeId) -> Vec<Self::Input> {
        self.domain().sourced(source)
    }

    /// The input of the executor's one run ([`Inputs::first`]).
    fn first_input(&self) -> Self::Input {
        self.domain().first()
    }

    /// How many inputs the claim quantifies over ([`Inputs::total`]; a
    /// domain that lists none, and so counts none, has every node's
    /// sourced inputs).
    fn inputs_total(&self) -> u64 {
        match self.domain().total() {
            0 => self.inputs().len() as u64,
            total => total,
        }
    }

    /// Which inputs a check covers ([`Inputs::covered`]).
    fn covered_inputs(&self) -> &'static str {
        self.domain().covered()
    }

    /// An input in the paper's words ([`Inputs::describe`]).
    fn describe_input(&self, input: &Self::Input) -> String {
        self.domain().describe(input)
    }

    /// The symmetry the node logic respects ([`Inputs::symmetry`]).
    fn symmetry(&self) -> Option<Symmetry> {
        self.domain().symmetry()
    }

    // ===== Open choices and scheduled sends ===============================

    /// How many ways `node` may act this slot ([`Choices::ways`]).
    fn ways(
        &self,
        node: NodeId,
        state: &Self::State,
        slot: Slot,
        arrivals: &[Arrival<Self::Msg>],
    ) -> u32 {
        self.choices()
            .map_or(1, |c| c.ways(node, state, slot, arrivals))
    }

    /// The slot of a node's next scheduled step ([`Choices::wake`]).
    fn wake(&self, state: &Self::State, slot: Slot) -> Slot {
        self.choices().map_or(slot + 1, |c| c.wake(state, slot))
    }

    // ===== More of the claim ==============================================

    /// The time claimed for the run from `input` ([`Judging::bound`]).
    fn bound(&self, input: &Self::Input) -> Option<Slot> {
        let claimed = self.claims().bound;
        self.judging().map_or(claimed, |j| j.bound(input, claimed))
    }

    /// [`Protocol::claims`] for the run from `input`: its bound is
    /// [`ProtocolExt::bound`]'s. Engines judge a run by these.
    fn claims_for(&self, input: &Self::Input) -> Claims {
        Claims {
            bound: self.bound(input),
            ..self.claims()
        }
    }

    /// True if `msg` is a control message ([`Judging::control`]).
    fn control(&self, msg: &Self::Msg) -> bool {
        self.judging().is_some_and(|j| j.control(msg))
    }

    /// What is wrong with `node`'s computed result, if anything
    /// ([`Judging::wrong_result`]).
    fn wrong_result(&self, input: &Self::Input, node: NodeId, state: &Self::State) -> Option<u64> {
        self.judging()?.wrong_result(input, node, state)
    }

    /// The operation `node` left unfinished ([`Judging::unfinished`]).
    fn unfinished(&self, input: &Self::Input, node: NodeId, state: &Self::State) -> Option<u32> {
        self.judging()?.unfinished(input, node, state)
    }

    /// `violation` in the protocol's words ([`Judging::explain`]).
    fn explain(&self, violation: &Violation) -> Option<String> {
        self.judging()?.explain(violation)
    }

    /// Where `violation` is, field by field ([`Judging::locate`]).
    fn locate(&self, violation: &Violation) -> super::Located {
        self.judging()
            .map_or_else(Default::default, |j| j.locate(violation))
    }

    /// The paper's lower bounds by name ([`Judging::lower_bounds`]).
    fn lower_bounds(&self) -> Vec<(&'static str, Slot)> {
        self.judging().map_or_else(Vec::new, |j| j.lower_bounds())
    }

    /// The last step of a schedule fixed in advance ([`Judging::last_step`]).
    fn last_step(&self) -> Option<Slot> {
        self.judging()?.last_step()
    }

    /// A sometimes property ([`Judging::forced`]).
    fn forced(&self) -> Option<(Slot, bool)> {
        self.judging()?.forced()
    }

    /// The drawn quantity of a random input ([`Judging::drawn`]).
    fn drawn(&self, input: &Self::Input) -> Option<u64> {
        self.judging()?.drawn(input)
    }

    /// The drawn quantity's name and tail bound ([`Judging::drawn_tail`]).
    fn drawn_tail(&self, v: u64) -> (&'static str, Option<f64>) {
        self.judging().map_or(("", None), |j| j.drawn_tail(v))
    }

    // ===== The machine ====================================================

    /// The faults of the machine in the run from `input` ([`Machine::faults`]).
    fn faults(&self, input: &Self::Input) -> Option<&Faults> {
        self.machine()?.faults(input)
    }

    /// What landed late ([`Machine::landed_late`]).
    fn landed_late(&self, state: &Self::State) -> Vec<(Slot, Route)> {
        self.machine()
            .map_or_else(Vec::new, |m| m.landed_late(state))
    }

    // ===== Engine hints ===================================================

    /// [`Hints::event_driven`].
    fn event_driven(&self) -> bool {
        self.hints().event_driven
    }

    /// [`Hints::holdings_by_packet`].
    fn holdings_by_packet(&self) -> bool {
        self.hints().holdings_by_packet
    }

    /// [`Hints::reads_arrivals`].
    fn reads_arrivals(&self) -> bool {
        self.hints().reads_arrivals
    }

    // ===== Codes for the executor's dense drive ===========================

    /// [`Protocol::PACKS`], of a value.
    fn packs(&self) -> bool {
        Self::PACKS
    }

    /// [`Codes::pack_state`].
    fn pack_state(&self, input: &Self::Input, node: NodeId, state: &Self::State) -> Option<u16> {
        self.codes()?.pack_state(input, node, state)
    }

    /// [`Codes::unpack_state`].
    fn unpack_state(&self, input: &Self::Input, node: NodeId, code: u16) -> Self::State {
        let codes = self
            .codes()
            .expect("a protocol that packs states unpacks them");
        codes.unpack_state(input, node, code)
    }

    /// [`Codes::pack_arrival`].
    fn pack_arrival(&self, input: &Self::Input, to: NodeId, a: &Arrival<Self::Msg>) -> Option<u16> {
        self.codes()?.pack_arrival(input, to, a)
    }

    /// [`Codes::unpack_arrival`].
    fn unpack_arrival(&self, input: &Self::Input, to: NodeId, code: u16) -> Arrival<Self::Msg> {
        let codes = self
            .codes()
            .expect("a protocol that packs arrivals unpacks them");
        codes.unpack_arrival(input, to, code)
    }

    /// [`Codes::merge_arrival`].
    fn merge_arrival(
        &self,
        input: &Self::Input,
        to: NodeId,
        code: u16,
        a: &Arrival<Self::Msg>,
    ) -> Option<u16> {
        self.codes()?.merge_arrival(input, to, code, a)
    }

    /// [`Codes::unpack_arrivals`].
    fn unpack_arrivals(
        &self,
        input: &Self::Input,
        to: NodeId,
        code: u16,
        into: &mut Vec<Arrival<Self::Msg>>,
    ) {
        let codes = self
            .codes()
            .expect("a protocol that packs arrivals unpacks them");
        codes.unpack_arrivals(input, to, code, into)
    }
}

impl<P: Protocol> ProtocolExt for P {}
