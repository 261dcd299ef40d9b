//! What a protocol may say beyond its node logic and claim, each part one
//! value it hands out: the inputs the claim ranges over
//! ([`Protocol::domain`](super::Protocol::domain)), more of the claim
//! ([`Judging`]), open choices and scheduled sends ([`Choices`]), an
//! imperfect machine ([`Machine`]), the dense executor's codes
//! ([`Codes`]) and engine [`Hints`].
//!
//! An aspect is a trait over only the types it touches, so a wrapper that
//! keeps them hands its inner protocol's aspect on untouched, and one that
//! changes them (a mutant's state, a faulty machine's inputs) writes an
//! adapter. Every method has the default a protocol without the aspect
//! would have; tests/layout.rs holds the wrappers' adapters to writing
//! every one, so none falls back to a default by being forgotten.

use super::parts::{Arrival, Symmetry};
use crate::faults::Faults;
use crate::topology::Topology;
use properties::{NodeId, Route, Slot, Task, Violation};
use std::fmt::Debug;

/// The inputs a claim quantifies over, each an initial state of the
/// exhaustive check, and what a run from each must achieve.
pub trait Inputs<I: Debug> {
    /// What a run from `input` must achieve.
    fn task(&self, input: &I) -> Task;

    /// The input with the given source node, if the claim has one per
    /// source (a broadcast from one source); `None` for an algorithm
    /// without a source (a set of broadcasting nodes, a variant of a
    /// construction).
    fn source_input(&self, source: NodeId) -> Option<I> {
        let _ = source;
        None
    }

    /// Every input the paper's claim quantifies over at these parameters.
    /// A domain of sources need not list them (default: none listed): its
    /// inputs are then every node's [`sourced`](Inputs::sourced) ones.
    fn all(&self) -> Vec<I> {
        Vec::new()
    }

    /// Every input from the given source: one for a plain broadcast; one
    /// per variant of the construction where the paper leaves choices open
    /// (a check from one source covers all of them).
    fn sourced(&self, source: NodeId) -> Vec<I> {
        self.source_input(source).into_iter().collect()
    }

    /// The input of the executor's one run: source 0, or every choice the
    /// paper leaves open at its first option.
    fn first(&self) -> I {
        self.source_input(0)
            .unwrap_or_else(|| self.all().swap_remove(0))
    }

    /// How many inputs the claim quantifies over, where `all` lists fewer
    /// (a construction with more variants than a check can run); by
    /// default as many as `all` lists (none listed: every node's sourced
    /// inputs, counted by the engines).
    fn total(&self) -> u64 {
        self.all().len() as u64
    }

    /// Which inputs a check covers where `all` lists fewer than `total`
    /// (said in the report).
    fn covered(&self) -> &'static str {
        "the first ones"
    }

    /// An input in the paper's words (by default its `Debug` form).
    fn describe(&self, input: &I) -> String {
        format!("{input:?}")
    }

    /// The symmetry the node logic respects, if any (see [`Symmetry`]).
    fn symmetry(&self) -> Option<Symmetry> {
        None
    }
}

/// The inputs of a broadcast from one source: every node of the network,
/// said as `source 0101`, its packet to reach every node. Counted, not listed, where only the count is
/// asked (a list of 2^30 inputs took a fifth of a 2^24-node run).
pub struct Sources<'a, T> {
    network: &'a T,
    symmetry: Option<Symmetry>,
}

impl<'a, T: Topology> Sources<'a, T> {
    /// Every node of `network` a source.
    pub fn of(network: &'a T) -> Self {
        Sources {
            network,
            symmetry: None,
        }
    }

    /// Every node a source, the logic computed for source 0 and relabelled
    /// by xor ([`Symmetry::XorTranslation`]).
    pub fn xor(network: &'a T) -> Self {
        Sources {
            network,
            symmetry: Some(Symmetry::XorTranslation),
        }
    }
}

impl<T: Topology> Inputs<NodeId> for Sources<'_, T> {
    fn task(&self, &source: &NodeId) -> Task {
        Task::broadcast(self.network.nodes(), source)
    }
    fn source_input(&self, source: NodeId) -> Option<NodeId> {
        Some(source)
    }
    fn all(&self) -> Vec<NodeId> {
        (0..self.network.nodes()).collect()
    }
    fn total(&self) -> u64 {
        self.network.nodes() as u64
    }
    fn describe(&self, &source: &NodeId) -> String {
        format!("source {}", self.network.node_label(source))
    }
    fn symmetry(&self) -> Option<Symmetry> {
        self.symmetry
    }
}

/// More of the claim, where a run is judged by more than its task and the
/// claims' one bound: per-input bounds, control messages, computed
/// results, unfinished operations, lower bounds, a sometimes property.
pub trait Judging<I, S, M> {
    /// The time claimed for the run from `input`, given the claims' one
    /// bound (a mesh broadcast's depends on its source): every engine
    /// judges each run against its own, so a run over every source misses
    /// no source's violation.
    fn bound(&self, input: &I, claimed: Option<Slot>) -> Option<Slot> {
        let _ = input;
        claimed
    }

    /// True if `msg` is a control message (a prefix value, a count, a
    /// termination packet): it carries no packet, takes its resources like
    /// any transmission, is counted apart, and its arrival counts toward
    /// the completion time (the papers' counts include them).
    fn control(&self, msg: &M) -> bool {
        let _ = msg;
        false
    }

    /// None if `node`, ending a run from `input` in `state`, holds the
    /// result the task computes (a prefix sum, a schedule's buffers); else
    /// an account of what is wrong, for [`Judging::explain`] to word (0
    /// if the protocol words it no further). Judged under completeness by
    /// the engines that run protocols which are not event-driven (the
    /// lock-step model and the executor).
    fn wrong_result(&self, input: &I, node: NodeId, state: &S) -> Option<u64> {
        let _ = (input, node, state);
        None
    }

    /// The operation of the rank on `node` that the run from `input`,
    /// ending in `state`, left unfinished, if any (a schedule's orphan or
    /// deadlock: matching). Algorithms have no operations.
    fn unfinished(&self, input: &I, node: NodeId, state: &S) -> Option<u32> {
        let _ = (input, node, state);
        None
    }

    /// `violation` in the protocol's own words, where the network's do not
    /// say enough (a schedule names its operations by label and line).
    fn explain(&self, violation: &Violation) -> Option<String> {
        let _ = violation;
        None
    }

    /// Where `violation` is, field by field, in the terms of the file it
    /// was read from (a schedule's rank, buffer, offset, operations);
    /// nothing where the network's words locate it.
    fn locate(&self, violation: &Violation) -> Located {
        let _ = violation;
        Located::default()
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
    fn drawn(&self, input: &I) -> Option<u64> {
        let _ = input;
        None
    }

    /// The name of the [`Judging::drawn`] quantity, and the paper's bound
    /// on Pr(quantity >= v), if it gives one.
    fn drawn_tail(&self, v: u64) -> (&'static str, Option<f64>) {
        let _ = v;
        ("", None)
    }
}

/// What the node logic leaves to the engine: choices the paper leaves
/// open, and the slot of a scheduled send.
pub trait Choices<S, M> {
    /// How many ways `node` may act this slot; `step` is then called with
    /// a choice below this number.
    fn ways(&self, node: NodeId, state: &S, slot: Slot, arrivals: &[Arrival<M>]) -> u32 {
        let _ = (node, state, slot, arrivals);
        1
    }

    /// After `step` in `slot` returned true: the slot in which the node
    /// must next be stepped even if nothing arrives. Until then its step
    /// without arrivals must do nothing, so that an engine may skip it (a
    /// node waiting for a scheduled send: the executor keeps a calendar
    /// rather than step it every slot; the agreement tests compare).
    fn wake(&self, state: &S, slot: Slot) -> Slot {
        let _ = state;
        slot + 1
    }
}

/// An imperfect machine ([`crate::imperfect::Faulty`]): what it lost and
/// what landed late.
pub trait Machine<'a, I, S> {
    /// The faults of the machine in the run from `input`: the judge loses
    /// what crosses a failed part, and completeness excuses what no
    /// healthy holder can reach (`crate::faults`).
    fn faults(&self, input: &I) -> Option<&'a Faults>;

    /// The transmissions of `state`'s node in its last step that landed
    /// late, each with its delay (under `--delay`): pictures draw them as
    /// such.
    fn landed_late(&self, state: &S) -> Vec<(Slot, Route)>;
}

/// Codes for the executor's dense drive. At 2^30 nodes a byte a node is a
/// gigabyte: the dense drive keeps a node's state and each arrival as a
/// 16-bit code (below [`NO_CODE`](super::NO_CODE)) where the protocol
/// gives one, and whatever has none whole, aside. A code keeps exactly
/// what `step` and the judges read.
pub trait Codes<I, S, M> {
    /// The code of `node`'s `state` in a run from `input`, if it has one;
    /// a state without one is kept whole.
    fn pack_state(&self, input: &I, node: NodeId, state: &S) -> Option<u16>;

    /// The state whose code [`pack_state`](Codes::pack_state) gave.
    fn unpack_state(&self, input: &I, node: NodeId, code: u16) -> S;

    /// The code of an arrival at `to`, if it has one. It keeps the
    /// message, and the sender where `step` reads it; an unpacked arrival
    /// whose sender was not kept names `to` as its sender, and the
    /// executor replays a run whose report would name it.
    fn pack_arrival(&self, input: &I, to: NodeId, a: &Arrival<M>) -> Option<u16> {
        let _ = (input, to, a);
        None
    }

    /// The arrival whose code [`pack_arrival`](Codes::pack_arrival) gave.
    fn unpack_arrival(&self, input: &I, to: NodeId, code: u16) -> Arrival<M> {
        let _ = (input, to, code);
        unreachable!("a protocol that packs arrivals unpacks them")
    }

    /// The code of the arrivals of `code` followed by `a`, all at `to` in
    /// one slot, if there is one: an inbox of several arrivals in one code
    /// (flooding's node hears its packet from every nearer neighbour at
    /// once). The drive merges in the order it delivers, which on one lane
    /// is one process's; lanes that deliver at once may merge in another
    /// order, and must then reach the same code or none (a refusal gives
    /// the run to one lane).
    fn merge_arrival(&self, input: &I, to: NodeId, code: u16, a: &Arrival<M>) -> Option<u16> {
        let _ = (input, to, code, a);
        None
    }

    /// Pushes onto `into` every arrival of `code` (one from
    /// [`pack_arrival`](Codes::pack_arrival) or
    /// [`merge_arrival`](Codes::merge_arrival)), in the order merged.
    fn unpack_arrivals(&self, input: &I, to: NodeId, code: u16, into: &mut Vec<Arrival<M>>) {
        into.push(self.unpack_arrival(input, to, code))
    }
}

/// Hints that let an engine run faster; none of them changes a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hints {
    /// The node logic reacts to each arrival on its own, so that it can
    /// also run as a stateright `ActorModel` where deliveries interleave
    /// (otherwise the lock-step model and the executor only).
    pub event_driven: bool,
    /// The executor should keep what nodes hold packet by packet rather
    /// than node by node: right for packets forwarded down trees, where a
    /// slot delivers few packets to many nodes (a layout only).
    pub holdings_by_packet: bool,
    /// `step` reads its arrivals; a schedule fixed by the slot alone does
    /// not, and the executor then keeps no inboxes and steps the nodes on
    /// several threads.
    pub reads_arrivals: bool,
}

impl Hints {
    /// The safe choice: lock-step only, holdings by node, arrivals read.
    pub const LOCKSTEP: Hints = Hints {
        event_driven: false,
        holdings_by_packet: false,
        reads_arrivals: true,
    };

    /// A protocol that also runs as an actor model.
    pub const EVENT_DRIVEN: Hints = Hints {
        event_driven: true,
        ..Hints::LOCKSTEP
    };

    /// A schedule fixed by the slot alone: `step` reads no arrival.
    pub const SCHEDULED: Hints = Hints {
        reads_arrivals: false,
        ..Hints::LOCKSTEP
    };
}

impl Default for Hints {
    fn default() -> Self {
        Hints::LOCKSTEP
    }
}

/// The aspect of a protocol that has none: every default, and no codes
/// (it has no values, so its code methods are never called).
pub enum Plain {}

impl<I, S, M> Judging<I, S, M> for Plain {}
impl<S, M> Choices<S, M> for Plain {}

impl<'a, I, S> Machine<'a, I, S> for Plain {
    fn faults(&self, _: &I) -> Option<&'a Faults> {
        match *self {}
    }
    fn landed_late(&self, _: &S) -> Vec<(Slot, Route)> {
        match *self {}
    }
}

impl<I, S, M> Codes<I, S, M> for Plain {
    fn pack_state(&self, _: &I, _: NodeId, _: &S) -> Option<u16> {
        match *self {}
    }
    fn unpack_state(&self, _: &I, _: NodeId, _: u16) -> S {
        match *self {}
    }
}

/// Where a violation is in the terms of the file a schedule was read
/// from, field by field: what the report's sentence says, for JSON and
/// Python to give as data ([`Judging::locate`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Located {
    /// The rank, by its number in the file.
    pub rank: Option<u32>,
    /// The buffer (MSCCL-IR's and MSCCL++'s `i`, `o`, `s`), where the
    /// file has buffers.
    pub buffer: Option<String>,
    /// The offset in that buffer, in chunks (where chunks are cut into
    /// pieces, the chunk's), or the position where there are no buffers.
    pub offset: Option<u32>,
    /// What the place must end with, in words.
    pub expected: Option<String>,
    /// What it ends with, in words.
    pub found: Option<String>,
    /// The operations concerned, in the file's terms (rank, label or JSON
    /// path, line).
    pub operations: Vec<String>,
}
