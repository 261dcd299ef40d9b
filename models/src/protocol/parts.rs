//! The small types every protocol and engine shares: a delivered message,
//! a symmetry of the node logic, and the dense drive's code limits.

use properties::NodeId;

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

/// The bits the executor's dense drive keeps of a node of a protocol that
/// packs (`Protocol::PACKS`): its state's code and two inbox codes, 16
/// bits each, two bits (to step now, next) and a bit per lane of its four
/// at most (received).
pub const PACKED_NODE_BITS: u64 = 3 * 16 + 2 + 4;

/// The codes from [`NO_CODE`] up are the dense drive's own (an empty
/// inbox, a state or arrival kept whole): a protocol's codes lie below.
pub const NO_CODE: u16 = u16::MAX - 1;
