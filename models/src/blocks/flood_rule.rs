//! Flooding, the rule the cube's `flood` and the grids' `mesh-flood`
//! share. Lecture notes, "Store-and-forward one-to-all broadcast", "1-port
//! vs. all-port model": "The source sends the packet to all its
//! neighbors, which make a copy of it and forward it to all its remaining
//! neighbors." A node forwards once, in the slot after it is first
//! informed, to every neighbour it did not receive the packet from in that
//! slot; later copies are dropped. The networks differ only in how a
//! node's neighbours are listed.

use crate::blocks::broadcast::Packet;
use crate::protocol::Arrival;
use properties::{NodeId, Route, Transmission};

/// Whether the node is to forward (the source, in slot 1) and whether it
/// has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct FloodState {
    pending: bool,
    forwarded: bool,
}

impl FloodState {
    /// Before slot 1: the source is to forward its own packet.
    pub fn new(source: bool) -> Self {
        FloodState {
            pending: source,
            forwarded: false,
        }
    }

    /// The dense drive's code of the state: its two flags.
    pub fn code(self) -> u16 {
        u16::from(self.pending) | u16::from(self.forwarded) << 1
    }

    /// The state whose [`code`](FloodState::code) is `code`.
    pub fn of_code(code: u16) -> Self {
        FloodState {
            pending: code & 1 != 0,
            forwarded: code & 2 != 0,
        }
    }

    /// One slot at `node`: the first time it holds the packet (the source
    /// in slot 1, any other node the slot after a copy arrives), it sends
    /// it over each of `links` (a neighbour and the route to it) but to
    /// the senders of `arrivals`.
    pub fn step(
        &mut self,
        node: NodeId,
        arrivals: &[Arrival<Packet>],
        links: impl IntoIterator<Item = (NodeId, Route)>,
        out: &mut Vec<Transmission<Packet>>,
    ) {
        if self.forwarded {
            return;
        }
        let msg = match arrivals.first() {
            Some(a) => a.msg,
            None if self.pending => Packet {
                source: node,
                step: 0,
            },
            None => return,
        };
        for (to, route) in links {
            if arrivals.iter().all(|a| a.from != to) {
                out.push(Transmission { route, msg });
            }
        }
        self.pending = false;
        self.forwarded = true;
    }
}
