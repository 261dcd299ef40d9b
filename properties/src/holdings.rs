//! Which node holds which packet: the ground truth the engines keep beside
//! the protocol's own state, so that causality and completeness judge the
//! model rather than trust it.

use crate::vocabulary::{NodeId, PacketId, Task};

/// A node x packet bit matrix, one bit per (node, packet of the task),
/// packed flat: one bit per node for a single broadcast.
#[derive(Debug, PartialEq, Eq)]
pub struct Holdings {
    /// The task's packets in increasing order; a packet's column is its
    /// position here.
    packets: std::sync::Arc<[PacketId]>,
    bits: Vec<u64>,
}

/// The bits alone: the packet list is the task's, the same for every
/// state of a run (and hashing it per state was a measurable cost).
impl std::hash::Hash for Holdings {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.bits.hash(state);
    }
}

/// Field by field, so that `clone_from` reuses the bit vector.
impl Clone for Holdings {
    fn clone(&self) -> Self {
        Holdings {
            packets: self.packets.clone(),
            bits: self.bits.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        if !std::sync::Arc::ptr_eq(&self.packets, &source.packets) {
            self.packets = source.packets.clone();
        }
        self.bits.clone_from(&source.bits);
    }
}

impl Holdings {
    /// What every node holds before slot 1.
    pub fn initial(task: &Task) -> Self {
        let packets: std::sync::Arc<[PacketId]> = task.packets().into();
        let len = (task.nodes() as u64 * packets.len() as u64).div_ceil(64);
        let mut h = Holdings {
            packets,
            bits: vec![0; len as usize],
        };
        for node in 0..task.nodes() {
            task.initial(node, |p| {
                h.insert(node, p);
            });
        }
        h
    }

    /// The bit of (node, packet), or None for a packet the task does not
    /// have (a forged one).
    fn index(&self, node: NodeId, packet: PacketId) -> Option<(usize, u64)> {
        let column = match *self.packets {
            [only] => (only == packet).then_some(0),
            _ => self.packets.binary_search(&packet).ok(),
        }?;
        let i = node as u64 * self.packets.len() as u64 + column as u64;
        Some(((i / 64) as usize, 1 << (i % 64)))
    }

    /// True if `node` holds `packet`.
    pub fn holds(&self, node: NodeId, packet: PacketId) -> bool {
        self.index(node, packet)
            .is_some_and(|(w, m)| self.bits[w] & m != 0)
    }

    /// Records that `node` holds `packet`; returns false if it already did.
    /// A packet foreign to the task is never held.
    pub fn insert(&mut self, node: NodeId, packet: PacketId) -> bool {
        let Some((w, m)) = self.index(node, packet) else {
            return true;
        };
        let fresh = self.bits[w] & m == 0;
        self.bits[w] |= m;
        fresh
    }

    /// Adds everything `other` holds (the actor model keeps one per node).
    pub fn union_with(&mut self, other: &Holdings) {
        assert_eq!(self.bits.len(), other.bits.len(), "holdings of one task");
        for (a, b) in self.bits.iter_mut().zip(&other.bits) {
            *a |= b;
        }
    }

    /// The first node, in id order, missing a packet the task requires of it.
    pub fn first_missing(&self, task: &Task) -> Option<(NodeId, PacketId)> {
        (0..task.nodes()).find_map(|node| {
            let mut missing = None;
            task.required(node, |p| {
                if missing.is_none() && !self.holds(node, p) {
                    missing = Some(p)
                }
            });
            missing.map(|p| (node, p))
        })
    }
}
