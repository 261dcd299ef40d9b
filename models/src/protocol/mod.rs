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
//! * random choices and "ties broken arbitrarily" are [`Choices`];
//! * combined packets and bus messages of up to l tokens are a `Msg`
//!   carrying several packets (`packets` lists them).
//!
//! A protocol with a bug seeded into it, for a test or an example, is a
//! [`Mutant`](crate::mutant::Mutant).

//!
//! The trait is small: the types, the node logic and the claim. What a
//! protocol may say beyond them comes in aspects ([`aspects`]), each one
//! value it hands out; engines ask through [`ProtocolExt`], which answers
//! from the aspects and which no protocol implements.

mod aspects;
mod parts;
mod view;

pub use aspects::{Choices, Codes, Hints, Inputs, Judging, Located, Machine, Plain, Sources};
pub use parts::{Arrival, Symmetry, NO_CODE, PACKED_NODE_BITS};
pub use view::ProtocolExt;

use crate::topology::Topology;
use properties::{Claims, NodeId, PacketId, Slot, Transmission};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::Range;

/// The logic of one algorithm at one parameter setting.
///
/// # What an algorithm writes
///
/// * The types: the network (`Topo`), what the claim quantifies over
///   (`Input`), a node's state (`State`) and a message (`Msg`).
/// * The node logic: [`topology`](Protocol::topology),
///   [`init`](Protocol::init), [`step`](Protocol::step) and
///   [`packets`](Protocol::packets) (the packets a message carries).
/// * The claim: [`domain`](Protocol::domain) (the inputs it ranges over,
///   and what a run from each must achieve: [`Sources`] for a broadcast
///   from one source) and [`claims`](Protocol::claims) (what the paper
///   says of it).
///
/// Where it says more, it hands out an aspect: [`Judging`] (per-input
/// bounds, control messages, results, lower bounds), [`Choices`] (open
/// choices, scheduled sends), [`Machine`] (faults), [`Codes`] (the dense
/// executor's) and [`Hints`]; each defaults to none.
///
/// # Example
///
/// Flooding on the hypercube, store-and-forward: a node forwards the
/// packet the slot after it first hears it, to every neighbour that did
/// not send it.
///
/// ```
/// use models::{Arrival, Hypercube, Inputs, Ports, Protocol, ProtocolExt, Sources, Switching, Topology};
/// use properties::{Claims, NodeId, PacketId, Slot, Transmission};
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
///     fn domain(&self) -> impl Inputs<NodeId> + '_ {
///         Sources::of(&self.cube) // every node a source, its packet to all
///     }
///     fn claims(&self) -> Claims {
///         Claims::bounded(self.cube.dim(), self.cube.dim()) // the diameter
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
///                 out.push(Transmission::link(node, to, packet));
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

    // ===== The node logic =================================================

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

    /// [`Protocol::packets`] in runs of consecutive ids, in its order: the
    /// judge takes a run at once. By default its packets, consecutive ones
    /// joined; a protocol whose messages carry long runs (a schedule's
    /// partial sums) gives them whole.
    fn packet_runs(&self, msg: &Self::Msg, f: impl FnMut(Range<PacketId>)) {
        let mut runs = Runs::new(f);
        self.packets(msg, |p| runs.push(p));
        runs.finish();
    }

    // ===== The claim ======================================================

    /// The inputs the claim quantifies over, and what a run from each must
    /// achieve.
    fn domain(&self) -> impl Inputs<Self::Input> + '_;

    /// What the paper claims at these parameters.
    fn claims(&self) -> Claims;

    // ===== Aspects (default: none) ========================================

    /// More of the claim: per-input bounds, control messages, results.
    fn judging(&self) -> Option<impl Judging<Self::Input, Self::State, Self::Msg> + '_> {
        None::<Plain>
    }

    /// Open choices and scheduled sends.
    fn choices(&self) -> Option<impl Choices<Self::State, Self::Msg> + '_> {
        None::<Plain>
    }

    /// An imperfect machine's faults and delays.
    fn machine(&self) -> Option<impl Machine<'_, Self::Input, Self::State> + '_> {
        None::<Plain>
    }

    /// True if this protocol gives [`Codes`], so that the executor can run
    /// it in its dense drive (a constant, so that the catalogue's cost
    /// model knows it before anything is built).
    const PACKS: bool = false;

    /// The dense executor's codes; `Some` exactly where
    /// [`PACKS`](Protocol::PACKS).
    fn codes(&self) -> Option<impl Codes<Self::Input, Self::State, Self::Msg> + '_> {
        None::<Plain>
    }

    /// Hints that let an engine run faster.
    fn hints(&self) -> Hints {
        Hints::LOCKSTEP
    }
}

/// Joins consecutive packet ids into runs and hands each run to `f`, in
/// order (the default [`Protocol::packet_runs`]).
pub struct Runs<F: FnMut(Range<PacketId>)> {
    run: Range<PacketId>,
    f: F,
}

impl<F: FnMut(Range<PacketId>)> Runs<F> {
    /// No packet yet.
    pub fn new(f: F) -> Self {
        Runs { run: 0..0, f }
    }

    /// The next packet: it extends the run, or ends it and starts one.
    #[inline]
    pub fn push(&mut self, p: PacketId) {
        if !self.run.is_empty() && p == self.run.end {
            self.run.end += 1;
        } else {
            if !self.run.is_empty() {
                (self.f)(self.run.clone());
            }
            self.run = p..p + 1;
        }
    }

    /// Hands over the last run.
    #[inline]
    pub fn finish(mut self) {
        if !self.run.is_empty() {
            (self.f)(self.run)
        }
    }
}
