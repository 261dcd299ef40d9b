//! The wake queue every drive keeps: nodes that asked to be stepped in a
//! later slot than the next (`ProtocolExt::wake`), earliest first.

use properties::{NodeId, Slot};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Nodes waiting for their slot, as (slot, node), earliest first.
#[derive(Default)]
pub(super) struct Calendar(BinaryHeap<Reverse<(Slot, NodeId)>>);

impl Calendar {
    /// `node` is to be stepped in `slot`.
    pub(super) fn push(&mut self, slot: Slot, node: NodeId) {
        self.0.push(Reverse((slot, node)));
    }

    /// Takes in what a thread or lane noted, as (slot, node).
    pub(super) fn take(&mut self, noted: &mut Vec<(Slot, NodeId)>) {
        self.0.extend(noted.drain(..).map(Reverse));
    }

    /// Calls `f` with every node due by `slot`, and forgets it.
    pub(super) fn due(&mut self, slot: Slot, mut f: impl FnMut(NodeId)) {
        while let Some(&Reverse((w, v))) = self.0.peek() {
            if w > slot {
                break;
            }
            self.0.pop();
            f(v);
        }
    }

    /// True if no node waits.
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
