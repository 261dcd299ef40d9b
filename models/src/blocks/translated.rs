//! A fixed schedule of worms from one source, carried to any other source
//! by a translation of the topology (xor on the hypercube, a shift on the
//! torus): what HKA and the dilated-diagonal broadcast send. A node keeps
//! the source and its own position relative to it; the schedule says what
//! that position sends and when, and the causality property checks that it
//! holds the packet by then.

use crate::blocks::broadcast::Packet;
use properties::{NodeId, Route, Slot, Transmission};

/// Worms (round, from, to) relative to the source, by sender.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    by_sender: Vec<(NodeId, Slot, NodeId)>,
}

impl Schedule {
    /// The schedule of `worms`, each (round, from, to) relative to the source.
    pub fn new(worms: impl IntoIterator<Item = (Slot, NodeId, NodeId)>) -> Self {
        let mut by_sender: Vec<(NodeId, Slot, NodeId)> = worms
            .into_iter()
            .map(|(r, from, to)| (from, r, to))
            .collect();
        by_sender.sort_unstable();
        Schedule { by_sender }
    }

    /// The last round anything is sent in.
    pub fn rounds(&self) -> Slot {
        self.by_sender.iter().map(|s| s.1).max().unwrap_or(0)
    }

    /// The sends of relative node `rel`: (rel, round, relative destination).
    fn sends(&self, rel: NodeId) -> &[(NodeId, Slot, NodeId)] {
        let lo = self.by_sender.partition_point(|s| s.0 < rel);
        let hi = self.by_sender.partition_point(|s| s.0 <= rel);
        &self.by_sender[lo..hi]
    }

    /// The worms `node` (at `rel`) sends in `slot`, each to `place` of its
    /// relative destination; true if it sends later too.
    pub fn step(
        &self,
        node: NodeId,
        rel: NodeId,
        slot: Slot,
        msg: Packet,
        place: impl Fn(NodeId) -> NodeId,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let mut later = false;
        for &(_, at, to) in self.sends(rel) {
            if at == slot {
                out.push(Transmission {
                    route: Route::Worm {
                        from: node,
                        to: place(to),
                        first: None,
                    },
                    msg,
                });
            }
            later |= at > slot;
        }
        later
    }

    /// The next slot after `slot` in which `rel` sends.
    pub fn wake(&self, rel: NodeId, slot: Slot) -> Slot {
        self.sends(rel)
            .iter()
            .map(|s| s.1)
            .filter(|&at| at > slot)
            .min()
            .unwrap_or(slot + 1)
    }
}
