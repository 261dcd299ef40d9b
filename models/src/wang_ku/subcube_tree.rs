//! The 2^p-ary tree of subcubes that NOB and the naive tree both walk
//! (Wang and Ku, section 3): the partitions of a node's address in step i,
//! the step a node performs next, and what Wang and Ku require of a
//! broadcasting tree. The two differ only in whom a source sends to.
//!
//! "Each recipient will turn into the next-step's source node in each
//! child subcube", and so does the sender: a node informed in step i acts
//! from step i+1 on, once a step, until the last level.

use crate::blocks::broadcast::{self, Packet};
use crate::protocol::{Arrival, Codes};
use crate::topology::hypercube::Hypercube;
use properties::{bounds, Claims, NodeId, PropertyName};

/// One step of one source: the partitions of its (relative) address, A P
/// R with A the first i-1 partitions (a bits), P the i-th (p bits) and R
/// the rest (r bits).
pub struct Partition {
    /// The bits of the partitions before step i.
    pub a: u32,
    /// The bits of step i's partition.
    pub p: u32,
    /// The bits after it.
    pub r: u32,
    /// A, the address's first a bits.
    pub big_a: u64,
    /// P, its p bits of step i.
    pub big_p: u64,
}

impl Partition {
    /// The partition of relative address `x` of the n-cube in step `i`
    /// (from 1), the partitions' sizes being `levels`, if the broadcast has
    /// such a step.
    pub fn of(levels: &[u32], n: u32, x: NodeId, i: u8) -> Option<Partition> {
        let i = i as usize;
        if i == 0 || i > levels.len() {
            return None;
        }
        let a: u32 = levels[..i - 1].iter().sum();
        let p = levels[i - 1];
        let r = n - a - p;
        let x = x as u64;
        Some(Partition {
            a,
            p,
            r,
            big_a: if a == 0 { 0 } else { x >> (n - a) },
            big_p: (x >> r) & ((1 << p) - 1),
        })
    }
}

/// What Wang and Ku require of a broadcasting tree (Theorems 1-3): every
/// node once, no contention, ceil(n / floor(log2(n+1))) steps.
pub fn claims(cube: &Hypercube) -> Claims {
    use PropertyName::*;
    let claimed = [Completeness, NoDuplication, ContentionFreedom, TimeBound];
    broadcast::claims(cube, &claimed, Some(bounds::nob(cube.dim())))
}

/// The step a node performs in the next slot, if any, and for which
/// source's packet: a source of step i stays the source of its own child
/// subcube in step i+1.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct TreeState {
    next: Option<Packet>,
}

impl TreeState {
    /// Before slot 1: the source performs step 1.
    pub fn new(source: &NodeId, node: NodeId) -> Self {
        TreeState {
            next: (node == *source).then_some(Packet {
                source: node,
                step: 1,
            }),
        }
    }

    /// The dense drive's code: 0 for no next step, else 1 + its index (a
    /// packet of another source has none).
    pub fn pack(&self, source: NodeId) -> Option<u16> {
        match self.next {
            None => Some(0),
            Some(p) if p.source == source => Some(p.step as u16 + 1),
            Some(_) => None,
        }
    }

    /// The state whose code [`TreeState::pack`] gave.
    pub fn unpack(source: NodeId, code: u16) -> Self {
        TreeState {
            next: code.checked_sub(1).map(|step| Packet {
                source,
                step: step as u8,
            }),
        }
    }

    /// The step a node performs now, if any: the one carried by its first
    /// arrival, or the next one of a subcube it is already the source of.
    pub fn task(&self, arrivals: &[Arrival<Packet>]) -> Option<Packet> {
        arrivals.first().map(|a| a.msg).or(self.next)
    }

    /// One slot: `send(j, task)` for the node's own next step (j = 0) and
    /// for the step each arrival carries, in order (a second one in a slot
    /// already breaks Theorem 1); where the sender `stays` a source, each
    /// task's next step, up to the last of `steps`, follows in the next
    /// slot. True while one does.
    pub fn step(
        &mut self,
        arrivals: &[Arrival<Packet>],
        steps: usize,
        stays: bool,
        mut send: impl FnMut(usize, Packet),
    ) -> bool {
        let tasks = self
            .next
            .take()
            .into_iter()
            .chain(arrivals.iter().map(|a| a.msg));
        for (j, task) in tasks.enumerate() {
            send(j, task);
            if stays && (task.step as usize) < steps {
                self.next = Some(Packet {
                    step: task.step + 1,
                    ..task
                });
            }
        }
        self.next.is_some()
    }
}

/// The dense drive's codes of NOB and the naive tree: a node's next step
/// fits a byte; `step` reads no sender.
pub struct TreeCodes;

impl Codes<NodeId, TreeState, Packet> for TreeCodes {
    fn pack_state(&self, source: &NodeId, _: NodeId, state: &TreeState) -> Option<u16> {
        state.pack(*source)
    }

    fn unpack_state(&self, source: &NodeId, _: NodeId, code: u16) -> TreeState {
        TreeState::unpack(*source, code)
    }

    fn pack_arrival(&self, &source: &NodeId, to: NodeId, a: &Arrival<Packet>) -> Option<u16> {
        broadcast::pack_arrival(source, to, a, false)
    }

    fn unpack_arrival(&self, &source: &NodeId, to: NodeId, code: u16) -> Arrival<Packet> {
        broadcast::unpack_arrival(source, to, code)
    }
}
