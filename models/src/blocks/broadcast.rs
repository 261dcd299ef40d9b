//! What every single-source hypercube broadcast shares: the source is the
//! input (every node, in the exhaustive check), the packet is named by its
//! source, and the node logic computes for source 0 and relabels by xor
//! (an automorphism of the cube and of e-cube routes).

use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
use properties::{bounds, Claims, NodeId, PropertyName, Route, Slot, Task};

/// The message of a broadcast: the packet (named by its source) and the
/// step index the paper carries in the header ("the destination and step
/// index are carried in the header", Wang-Ku section 3).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Packet {
    /// The source, which names the packet.
    pub source: NodeId,
    /// The step index in the header.
    pub step: u8,
}

/// The dense drive's code of an arrival of the broadcast from `source` at
/// `to` ([`Codes::pack_arrival`](crate::Codes::pack_arrival)): the
/// step index in the low byte and, above it, 1 + the dimension of a
/// sender that is `to`'s neighbour (0: the sender is not kept). A packet
/// of another source has no code, nor, where `step` reads the sender
/// (`keep_sender`), an arrival from a node that is not a neighbour.
pub fn pack_arrival(
    source: NodeId,
    to: NodeId,
    a: &crate::protocol::Arrival<Packet>,
    keep_sender: bool,
) -> Option<u16> {
    let apart = a.from ^ to;
    let dim = match apart.is_power_of_two() {
        true => apart.trailing_zeros() as u16 + 1,
        false if keep_sender => return None,
        false => 0,
    };
    (a.msg.source == source).then_some(dim << 8 | a.msg.step as u16)
}

/// The arrival whose code [`pack_arrival`] gave.
pub fn unpack_arrival(source: NodeId, to: NodeId, code: u16) -> crate::protocol::Arrival<Packet> {
    let from = match code >> 8 {
        0 => to,
        dim => to ^ (1 << (dim - 1)),
    };
    crate::protocol::Arrival {
        from,
        msg: Packet {
            source,
            step: code as u8,
        },
    }
}

/// Broadcast the source's packet to every node.
pub fn task(cube: &Hypercube, source: NodeId) -> Task {
    Task::Broadcast {
        nodes: cube.nodes(),
        sources: vec![source],
    }
}

/// `source 0000`.
pub fn describe(cube: &Hypercube, source: NodeId) -> String {
    format!("source {}", cube.node_label(source))
}

/// The one-arc route from `from` to its neighbour `to` under the cube's
/// switching (a link under store-and-forward, a one-arc worm under
/// wormhole).
pub fn hop(cube: &Hypercube, from: NodeId, to: NodeId) -> Route {
    match cube.switching() {
        crate::Switching::Sf => Route::Link { from, to },
        crate::Switching::Wh => Route::Worm {
            from,
            to,
            first: None,
        },
    }
}

/// Claims of a broadcast: the listed properties (causality always: it
/// guards the model), the bound, and the lower bound of the cube's model.
pub fn claims(cube: &Hypercube, claimed: &[PropertyName], bound: Option<Slot>) -> Claims {
    let n = cube.dim();
    let lower = match (cube.switching(), cube.ports()) {
        (crate::Switching::Wh, crate::Ports::All) => bounds::all_port_wormhole_lower(n),
        (crate::Switching::Sf, crate::Ports::All) => bounds::store_and_forward_lower(n),
        (_, crate::Ports::One) => bounds::one_port_lower(n),
    };
    let mut claimed = claimed.to_vec();
    claimed.push(PropertyName::Causality);
    Claims {
        claimed,
        bound,
        lower_bound: Some(lower),
        transmissions: None,
    }
}
