//! The node-logic trait: one protocol, written once, driven by every engine
//! (the lock-step stateright model, the stateright actor model, the
//! executor).
//!
//! Per node and slot the engine hands over the node's state and what it
//! received up to the end of the previous slot; the node appends its
//! transmissions to a reused buffer. Nothing is allocated per packet, so the
//! executor can call it a billion times.
//!
//! How later papers plug in (docs/architecture.md has the details):
//! * time-triggered schedules (Bertsekas et al.) read `slot` and return
//!   `true` from `step` while a node still has scheduled sends;
//! * several packets per node and sets of broadcasting nodes are the
//!   `Input` (every input is an initial state of the exhaustive model);
//! * random choices and "ties broken arbitrarily" are `choices`;
//! * combined packets and bus messages of up to l tokens are a `Msg`
//!   carrying several packets (`packets` lists them).
//!
//! A protocol with a bug seeded into it, for a test or an example, is a
//! [`Mutant`](crate::mutant::Mutant).

use crate::faults::Faults;
use crate::topology::Topology;
use properties::{Claims, NodeId, PacketId, Slot, Task, Transmission};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::hash::Hash;

/// A message delivered to a node, with the node that sent it.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Arrival<M> {
    /// The sender.
    pub from: NodeId,
    /// What it sent.
    pub msg: M,
}

/// A symmetry of the topology that a protocol's node logic respects: the
/// runs from inputs it maps onto each other are images of each other, so
/// an exhaustive check needs one input per orbit. A protocol declares it;
/// a test checks the declaration on every input at small sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// Relabelling every node v as v xor s maps the run from source 0 onto
    /// the run from source s (the hypercube's translations act
    /// transitively on nodes: one orbit).
    XorTranslation,
}

/// The logic of one algorithm at one parameter setting.
///
/// # What an algorithm writes
///
/// Its node logic and its claim; everything else has a default.
/// * The types: the network (`Topo`), what the claim quantifies over
///   (`Input`), a node's state (`State`) and a message (`Msg`).
/// * The node logic: [`topology`](Protocol::topology),
///   [`init`](Protocol::init), [`step`](Protocol::step) and
///   [`packets`](Protocol::packets) (the packets a message carries).
/// * The claim: [`task`](Protocol::task) (what a run must achieve) and
///   [`claims`](Protocol::claims) (what the paper says of it).
/// * The inputs, one of two ways: a broadcast from one source returns
///   `Some` from [`source_input`](Protocol::source_input), and every node
///   is then an input; an algorithm without a source (a set of
///   broadcasting nodes, a variant of a construction) lists
///   [`inputs`](Protocol::inputs) instead.
///
/// The rest, grouped below as in this file, refines the defaults: more
/// about the inputs (how many exist, how to say one in the paper's words),
/// open choices and scheduled wake-ups, more of the claim (control
/// messages, computed results, lower bounds, a sometimes property), a
/// symmetry the logic respects, and hints that let an engine run faster
/// (none of them changes a verdict).
///
/// # Example
///
/// Flooding on the hypercube, store-and-forward: a node forwards the
/// packet the slot after it first hears it, to every neighbour that did
/// not send it.
///
/// ```
/// use models::{Arrival, Hypercube, Ports, Protocol, Switching, Topology};
/// use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Task, Transmission};
///
/// struct Flooding {
///     cube: Hypercube,
/// }
///
/// impl Protocol for Flooding {
///     type Topo = Hypercube;
///     type Input = NodeId; // the source
///     type State = bool; // holds the packet
///     type Msg = NodeId; // the packet, named by its source
///
///     fn topology(&self) -> &Hypercube {
///         &self.cube
///     }
///     fn source_input(&self, source: NodeId) -> Option<NodeId> {
///         Some(source)
///     }
///     fn task(&self, &source: &NodeId) -> Task {
///         Task::Broadcast { nodes: self.cube.nodes(), sources: vec![source] }
///     }
///     fn claims(&self) -> Claims {
///         use PropertyName::*;
///         Claims {
///             claimed: vec![Completeness, Causality, TimeBound],
///             bound: Some(self.cube.dim()), // the diameter
///             lower_bound: Some(self.cube.dim()),
///             transmissions: None,
///         }
///     }
///     fn init(&self, &source: &NodeId, node: NodeId) -> bool {
///         node == source
///     }
///     fn packets(&self, &packet: &NodeId, mut f: impl FnMut(PacketId)) {
///         f(packet)
///     }
///     fn step(
///         &self,
///         node: NodeId,
///         holds: &mut bool,
///         slot: Slot,
///         arrivals: &[Arrival<NodeId>],
///         _choice: u32,
///         out: &mut Vec<Transmission<NodeId>>,
///     ) -> bool {
///         let packet = match arrivals.first() {
///             Some(a) if !*holds => a.msg, // first heard: forward
///             None if *holds && slot == 1 => node, // the source starts
///             _ => return false,
///         };
///         *holds = true;
///         for d in 0..self.cube.dim() {
///             let to = node ^ (1 << d);
///             if arrivals.iter().all(|a| a.from != to) {
///                 out.push(Transmission { route: Route::Link { from: node, to }, msg: packet });
///             }
///         }
///         false
///     }
/// }
///
/// let flooding = Flooding { cube: Hypercube::new(3, Switching::Sf, Ports::All) };
/// assert_eq!(flooding.inputs(), (0..8).collect::<Vec<_>>());
/// assert_eq!(flooding.describe_input(&5), "source 101");
/// let mut source = flooding.init(&5, 5);
/// let mut out = Vec::new();
/// flooding.step(5, &mut source, 1, &[], 0, &mut out);
/// assert_eq!(out.len(), 3, "one link a dimension");
/// ```
pub trait Protocol: Send + Sync {
    // ===== The types ======================================================

    /// The network the algorithm runs on.
    type Topo: Topology;
    /// What the claim quantifies over (a source node; a set of broadcasting
    /// nodes; ...). Every input is an initial state of the exhaustive check.
    type Input: Clone + Debug + Eq + Hash + Send + Sync;
    /// A node's local state. Serialisable, so that ranks of one search
    /// can hand states across processes (docs/scale.md).
    type State: Clone + Debug + Eq + Hash + Send + Sync + Serialize + DeserializeOwned;
    /// What a transmission carries (a packet plus the header the paper puts
    /// in it). Serialisable, so that ranks of one run can hand it across
    /// processes (docs/scale.md).
    type Msg: Copy + Debug + Eq + Ord + Hash + Send + Sync + Serialize + DeserializeOwned;

    // ===== The node logic (required) ======================================

    /// The network.
    fn topology(&self) -> &Self::Topo;

    /// A node's state before slot 1.
    fn init(&self, input: &Self::Input, node: NodeId) -> Self::State;

    /// What `node` does in `slot`, knowing everything delivered to it up to
    /// the end of slot - 1 (`arrivals` holds what came in slot - 1). Appends
    /// its transmissions to `out`. Returns true if the node must be stepped
    /// again in a later slot even if nothing arrives (a scheduled send).
    ///
    /// Every node is stepped in slot 1; later, only nodes with arrivals or
    /// that returned true.
    fn step(
        &self,
        node: NodeId,
        state: &mut Self::State,
        slot: Slot,
        arrivals: &[Arrival<Self::Msg>],
        choice: u32,
        out: &mut Vec<Transmission<Self::Msg>>,
    ) -> bool;

    /// Calls `f` with every packet `msg` carries.
    fn packets(&self, msg: &Self::Msg, f: impl FnMut(PacketId));

    // ===== The claim (required) ===========================================

    /// What a run from `input` must achieve.
    fn task(&self, input: &Self::Input) -> Task;

    /// What the paper claims at these parameters.
    fn claims(&self) -> Claims;

    /// The time claimed for the run from `input`. By default the claims'
    /// one bound; an algorithm whose bound depends on the input (a mesh
    /// broadcast's on its source) gives each input its own here, and
    /// every engine judges each run against its own
    /// ([`Protocol::claims_for`]), so a run over every source misses no
    /// source's violation.
    fn bound(&self, input: &Self::Input) -> Option<Slot> {
        let _ = input;
        self.claims().bound
    }

    /// [`Protocol::claims`] for the run from `input`: its bound is
    /// [`Protocol::bound`]'s. Engines judge a run by these.
    fn claims_for(&self, input: &Self::Input) -> Claims {
        Claims {
            bound: self.bound(input),
            ..self.claims()
        }
    }

    // ===== The inputs (default: one per source) ===========================

    /// The input with the given source node, if the algorithm has one
    /// source (default: none; a broadcast from one source returns
    /// `Some`, an algorithm without a source lists [`Protocol::inputs`]).
    fn source_input(&self, source: NodeId) -> Option<Self::Input> {
        let _ = source;
        None
    }

    /// The source of `input`, if it is a source's input (default: the
    /// node whose [`Protocol::source_input`] it is).
    fn source_of(&self, input: &Self::Input) -> Option<NodeId> {
        if self.source_input(0).as_ref() == Some(input) {
            return Some(0);
        }
        (0..self.topology().nodes()).find(|&s| self.source_input(s).as_ref() == Some(input))
    }

    /// Every input the paper's claim quantifies over at these parameters:
    /// by default every source's inputs ([`Protocol::sourced_inputs`]);
    /// an algorithm without a source lists its own.
    fn inputs(&self) -> Vec<Self::Input> {
        let inputs: Vec<Self::Input> = (0..self.topology().nodes())
            .flat_map(|s| self.sourced_inputs(s))
            .collect();
        assert!(
            !inputs.is_empty(),
            "a protocol returns Some from source_input or lists its inputs"
        );
        inputs
    }

    /// Every input from the given source: one for a plain broadcast; one
    /// per variant of the construction where the paper leaves choices open
    /// (a check from one source covers all of them).
    fn sourced_inputs(&self, source: NodeId) -> Vec<Self::Input> {
        self.source_input(source).into_iter().collect()
    }

    /// The input of the executor's one run: source 0, or every choice the
    /// paper leaves open at its first option.
    fn first_input(&self) -> Self::Input {
        self.source_input(0)
            .unwrap_or_else(|| self.inputs().swap_remove(0))
    }

    /// How many inputs the claim quantifies over, where `inputs` lists
    /// fewer (a construction with more variants than a check can run).
    fn inputs_total(&self) -> u64 {
        self.inputs().len() as u64
    }

    /// Which inputs a check covers where `inputs` lists fewer than
    /// `inputs_total` (said in the report).
    fn covered_inputs(&self) -> &'static str {
        "the first ones"
    }

    /// An input in the paper's words. By default a source's input is
    /// `source 0000` (found by asking every node's
    /// [`Protocol::source_input`]: override it where that is slow), and
    /// any other input is its `Debug` form.
    fn describe_input(&self, input: &Self::Input) -> String {
        let topology = self.topology();
        if self.source_input(0).is_some() {
            let source =
                (0..topology.nodes()).find(|&s| self.source_input(s).as_ref() == Some(input));
            if let Some(s) = source {
                return format!("source {}", topology.node_label(s));
            }
        }
        format!("{input:?}")
    }

    // ===== Open choices and scheduled sends (default: none) ===============

    /// How many ways `node` may act this slot (choices the paper leaves
    /// open); `step` is then called with a choice below this number.
    fn choices(
        &self,
        node: NodeId,
        state: &Self::State,
        slot: Slot,
        arrivals: &[Arrival<Self::Msg>],
    ) -> u32 {
        let _ = (node, state, slot, arrivals);
        1
    }

    /// After `step` in `slot` returned true: the slot in which the node
    /// must next be stepped even if nothing arrives. Until then its step
    /// without arrivals must do nothing, so that an engine may skip it (a
    /// node waiting for a scheduled send: the executor keeps a calendar
    /// rather than step it every slot; the agreement tests compare).
    fn wake(&self, state: &Self::State, slot: Slot) -> Slot {
        let _ = state;
        slot + 1
    }

    // ===== More of the claim (default: none) ==============================

    /// True if `msg` is a control message (a prefix value, a count, a
    /// termination packet): it carries no packet, takes its resources like
    /// any transmission, is counted apart, and its arrival counts toward
    /// the completion time (the papers' counts include them).
    fn control(&self, msg: &Self::Msg) -> bool {
        let _ = msg;
        false
    }

    /// True if `node`, ending a run from `input` in `state`, holds the
    /// result the task computes (a prefix sum); judged under completeness
    /// by the engines that run protocols which are not event-driven (the
    /// lock-step model and the executor).
    fn result_ok(&self, input: &Self::Input, node: NodeId, state: &Self::State) -> bool {
        let _ = (input, node, state);
        true
    }

    /// The operation of the rank on `node` that the run from `input`,
    /// ending in `state`, left unfinished, if any (a schedule's orphan or
    /// deadlock: matching). Algorithms have no operations.
    fn unfinished(&self, input: &Self::Input, node: NodeId, state: &Self::State) -> Option<u32> {
        let _ = (input, node, state);
        None
    }

    /// `violation` in the protocol's own words, where the network's do not
    /// say enough (a schedule names its operations by label and line).
    fn explain(&self, violation: &properties::Violation) -> Option<String> {
        let _ = violation;
        None
    }

    /// Lower bounds the paper proves for the problem at these parameters,
    /// by name, printed beside every result (the largest is
    /// `Claims::lower_bound`).
    fn lower_bounds(&self) -> Vec<(&'static str, Slot)> {
        Vec::new()
    }

    /// Where the schedule is fixed in advance, its last step: the engines'
    /// horizon (past which a run counts as not terminating) is then at
    /// least twice it, however far it is above the claimed bound.
    fn last_step(&self) -> Option<Slot> {
        None
    }

    /// A sometimes property: some input forces at least this many slots
    /// in every run (section 3.1's adversary against prespecified trees),
    /// and whether the paper claims it at these parameters. The exhaustive
    /// check looks for such an input (`forced-slots`).
    fn forced(&self) -> Option<(Slot, bool)> {
        None
    }

    /// Where the inputs are random draws that the paper bounds in
    /// probability (kbcast-random), the drawn quantity of `input` (max_j
    /// N_j), for `--distribution`.
    fn drawn(&self, input: &Self::Input) -> Option<u64> {
        let _ = input;
        None
    }

    /// The name of the [`Protocol::drawn`] quantity, and the paper's
    /// bound on Pr(quantity >= v), if it gives one.
    fn drawn_tail(&self, v: u64) -> (&'static str, Option<f64>) {
        let _ = v;
        ("", None)
    }

    // ===== The machine (default: perfect) =================================

    /// The faults of the machine in the run from `input` (default: none):
    /// the judge loses what crosses a failed part, and completeness
    /// excuses what no healthy holder can reach (`crate::faults`).
    /// [`crate::imperfect::Faulty`] runs a protocol under faults.
    fn faults(&self, input: &Self::Input) -> Option<&Faults> {
        let _ = input;
        None
    }

    /// The transmissions of `state`'s node in its last step that landed
    /// late, each with its delay (default: none; [`crate::imperfect::Faulty`]
    /// under `--delay`): pictures draw them as such.
    fn landed_late(&self, state: &Self::State) -> Vec<(Slot, properties::Route)> {
        let _ = state;
        Vec::new()
    }

    // ===== Symmetry (default: none) =======================================

    /// The symmetry the node logic respects, if any (see [`Symmetry`]).
    fn symmetry(&self) -> Option<Symmetry> {
        None
    }

    // ===== Engine hints (defaults: the safe choice) =======================

    /// True if the node logic reacts to each arrival on its own, so that it
    /// can also run as a stateright `ActorModel` where deliveries
    /// interleave (default: false, the lock-step model and the executor
    /// only).
    fn event_driven(&self) -> bool {
        false
    }

    /// True if the executor should keep what nodes hold packet by packet
    /// rather than node by node: right for packets forwarded down trees,
    /// where a slot delivers few packets to many nodes (a layout only:
    /// the verdicts are the same).
    fn holdings_by_packet(&self) -> bool {
        false
    }

    /// False if `step` never reads its arrivals (a schedule fixed by the
    /// slot alone): the executor then keeps no inboxes and steps the nodes
    /// on several threads.
    fn reads_arrivals(&self) -> bool {
        true
    }

    // ===== Codes for the executor's dense drive (default: none) ==========
    //
    // At 2^30 nodes a byte a node is a gigabyte: the dense drive keeps a
    // node's state and each arrival as a 16-bit code (below
    // [`NO_CODE`]) where the protocol gives one, and whatever has none
    // whole, aside. A code keeps exactly what `step` and the judges read.

    /// True if this protocol gives the codes below, so that the executor
    /// can run it in its dense drive (a constant, so that the catalogue's
    /// cost model knows it before anything is built).
    const PACKS: bool = false;

    /// [`Protocol::PACKS`], of a value.
    fn packs(&self) -> bool {
        Self::PACKS
    }

    /// The code of `node`'s `state` in a run from `input`, if it has one
    /// (below [`NO_CODE`]); a state without one is kept whole.
    fn pack_state(&self, _input: &Self::Input, _node: NodeId, _state: &Self::State) -> Option<u16> {
        None
    }

    /// The state whose code [`pack_state`](Protocol::pack_state) gave.
    fn unpack_state(&self, _input: &Self::Input, _node: NodeId, _code: u16) -> Self::State {
        unreachable!("a protocol that packs states unpacks them")
    }

    /// The code of an arrival at `to`, if it has one (below [`NO_CODE`]).
    /// It keeps the message, and the sender where `step` reads it; an
    /// unpacked arrival whose sender was not kept names `to` as its
    /// sender, and the executor replays a run whose report would name it.
    fn pack_arrival(
        &self,
        _input: &Self::Input,
        _to: NodeId,
        _a: &Arrival<Self::Msg>,
    ) -> Option<u16> {
        None
    }

    /// The arrival whose code [`pack_arrival`](Protocol::pack_arrival)
    /// gave.
    fn unpack_arrival(&self, _input: &Self::Input, _to: NodeId, _code: u16) -> Arrival<Self::Msg> {
        unreachable!("a protocol that packs arrivals unpacks them")
    }

    /// The code of the arrivals of `code` followed by `a`, all at `to` in
    /// one slot, if there is one (below [`NO_CODE`]): an inbox of several
    /// arrivals in one code (flooding's node hears its packet from every
    /// nearer neighbour at once). The drive merges in the order it
    /// delivers, which on one lane is one process's; lanes that deliver at
    /// once may merge in another order, and must then reach the same code
    /// or none (a refusal gives the run to one lane).
    fn merge_arrival(
        &self,
        _input: &Self::Input,
        _to: NodeId,
        _code: u16,
        _a: &Arrival<Self::Msg>,
    ) -> Option<u16> {
        None
    }

    /// Pushes onto `into` every arrival of `code` (one from
    /// [`pack_arrival`](Protocol::pack_arrival) or
    /// [`merge_arrival`](Protocol::merge_arrival)), in the order merged.
    fn unpack_arrivals(
        &self,
        input: &Self::Input,
        to: NodeId,
        code: u16,
        into: &mut Vec<Arrival<Self::Msg>>,
    ) {
        into.push(self.unpack_arrival(input, to, code))
    }
}

/// The bits the executor's dense drive keeps of a node of a protocol that
/// packs ([`Protocol::PACKS`]): its state's code and two inbox codes, 16
/// bits each, two bits (to step now, next) and a bit per lane of its four
/// at most (received).
pub const PACKED_NODE_BITS: u64 = 3 * 16 + 2 + 4;

/// The codes from [`NO_CODE`] up are the dense drive's own (an empty
/// inbox, a state or arrival kept whole): a protocol's codes lie below.
pub const NO_CODE: u16 = u16::MAX - 1;
