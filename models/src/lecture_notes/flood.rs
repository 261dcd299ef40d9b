//! Flooding. Lecture notes, "Store-and-forward one-to-all broadcast",
//! "1-port vs. all-port model".
//!
//! # The algorithm
//! "The source sends the packet to all its neighbors, which make a copy of
//! it and forward it to all its remaining neighbors." A node forwards once,
//! in the slot after it is first informed, to every neighbour it did not
//! receive the packet from in that slot; later copies are dropped. The
//! rule is `blocks::flood_rule`'s, shared with `mesh-flood`; on the cube a
//! node's neighbours are across its n dimensions.
//!
//! # Claims
//! * rounds = the diameter n, in all-port store-and-forward networks
//!   ("trivial optimal OAB with the number of rounds equal to its
//!   diameter").
//! * No claim of one copy: "some nodes can receive the packet more than
//!   once if the graph contains cycles". The checker shows those
//!   duplicates as an observation: on Q_n a node at distance d hears the
//!   packet d times, all in slot d.
//!
//! # Codes for the executor's dense drive
//! A state is its two flags. An inbox holds, in one 16-bit code, the
//! copies a node hears in one slot ([`ProtocolExt::merge_arrival`](crate::ProtocolExt::merge_arrival)): `step`
//! reads who sent them, and in slot d a node hears its d nearer
//! neighbours. The code names them without a bit a dimension: the
//! nearer neighbours across the two top dimensions by a bit each (the
//! drive's lanes, at most four, are the subcubes those dimensions name,
//! so those copies come from other lanes at any moment), and the others
//! by how many of them, in the order of their numbers, have been heard
//! (they are the receiver's lane's, which sends in that order). A copy
//! that fits neither, as from a farther neighbour, a lost copy's
//! successor, or another message, has no merged code: the drive keeps the
//! slot's copies to that node whole.

use crate::blocks::broadcast::{self, Packet};
pub use crate::blocks::flood_rule::FloodState;
use crate::config::Config;
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Codes, Inputs, Protocol, Sources};
use crate::topology::hypercube::Hypercube;
use properties::{bounds, Claims, NodeId, PacketId, PropertyName, Slot, Transmission};

/// Flooding at one configuration.
#[derive(Clone, Debug)]
pub struct Flood {
    cube: Hypercube,
}

/// The registry entry.
pub const ENTRY: Entry<Flood> = Entry {
    info: Info {
        name: "flood",
        summary: "flooding: forward to every neighbour but the senders",
        reference: "lecture notes, Store-and-forward OAB",
        claim: "n steps (the diameter); complete",
        modes: &[(Sf, All), (Wh, All)],
        reach: Reach::lockstep_only(19),
        params: &[],
        memory: crate::entry::Footprint::ByNode(crate::entry::one_packet_bytes),
        family: crate::topology::Family::Cube,
    },
    build: Flood::new,
};

impl Flood {
    /// Flooding at `cfg`.
    pub fn new(cfg: Config) -> Self {
        Flood {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
        }
    }
}

impl Protocol for Flood {
    type State = FloodState;
    type Topo = Hypercube;
    type Input = NodeId;
    type Msg = Packet;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    // The logic is computed for source 0 and relabelled by xor.
    fn domain(&self) -> impl Inputs<NodeId> + '_ {
        Sources::xor(&self.cube)
    }

    fn packets(&self, msg: &Packet, mut f: impl FnMut(PacketId)) {
        f(msg.source)
    }

    fn claims(&self) -> Claims {
        use PropertyName::*;
        broadcast::claims(
            &self.cube,
            &[Completeness, TimeBound],
            Some(bounds::sbt(self.cube.dim())),
        )
    }

    fn init(&self, source: &NodeId, node: NodeId) -> FloodState {
        FloodState::new(node == *source)
    }

    fn step(
        &self,
        node: NodeId,
        state: &mut FloodState,
        _slot: Slot,
        arrivals: &[Arrival<Packet>],
        _choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let cube = &self.cube;
        let links = (0..cube.dim()).map(|d| {
            let to = node ^ (1 << d);
            (to, broadcast::hop(cube, node, to))
        });
        state.step(node, arrivals, links, out);
        false
    }

    const PACKS: bool = true;

    fn codes(&self) -> Option<impl Codes<NodeId, FloodState, Packet> + '_> {
        Some(self)
    }
}

/// The dense drive's codes of a node and an arrival.
impl Codes<NodeId, FloodState, Packet> for &Flood {
    fn pack_state(&self, _: &NodeId, _: NodeId, state: &FloodState) -> Option<u16> {
        Some(state.code())
    }

    fn unpack_state(&self, _: &NodeId, _: NodeId, code: u16) -> FloodState {
        FloodState::of_code(code)
    }

    fn pack_arrival(&self, &source: &NodeId, to: NodeId, a: &Arrival<Packet>) -> Option<u16> {
        broadcast::pack_arrival(source, to, a, true)
    }

    fn unpack_arrival(&self, &source: &NodeId, to: NodeId, code: u16) -> Arrival<Packet> {
        broadcast::unpack_arrival(source, to, code)
    }

    fn merge_arrival(
        &self,
        source: &NodeId,
        to: NodeId,
        code: u16,
        a: &Arrival<Packet>,
    ) -> Option<u16> {
        let heard = Heard::of_code(self.cube.dim(), *source, to, code)?;
        heard.and(a).map(Heard::code)
    }

    fn unpack_arrivals(
        &self,
        source: &NodeId,
        to: NodeId,
        code: u16,
        into: &mut Vec<Arrival<Packet>>,
    ) {
        match code & MERGED {
            0 => into.push(broadcast::unpack_arrival(*source, to, code)),
            _ => Heard::of_code(self.cube.dim(), *source, to, code)
                .expect("a merged code is read whole")
                .senders(into),
        }
    }
}

/// A merged inbox code is marked by its top bit; below it the two top
/// dimensions' bits (bits 13-14), the count of the other nearer
/// neighbours heard (bits 8-12) and the message's step (bits 0-7). A code
/// from [`broadcast::pack_arrival`] has the top bit clear.
const MERGED: u16 = 0x8000;

/// The top dimensions whose copies a merged code names a bit each: they
/// name the executor's lanes (at most 4, `LANES` in the dense drive), so
/// their copies may come in any order.
const TOP: u32 = 2;

/// The copies one node has heard in a slot, in a form any of them can
/// join (see the module header).
#[derive(Clone, Copy, Debug)]
struct Heard {
    /// The cube's dimension, the source and the receiver.
    n: u32,
    source: NodeId,
    to: NodeId,
    /// Bit j: the nearer neighbour across dimension n - 1 - j (j < [`TOP`]).
    top: u16,
    /// How many of the other nearer neighbours, in the order of their
    /// numbers.
    low: u32,
    /// The step index every copy carries.
    step: u8,
}

impl Heard {
    /// What `code` (a single arrival's or a merged one) says was heard;
    /// None if it is not a form copies can join.
    fn of_code(n: u32, source: NodeId, to: NodeId, code: u16) -> Option<Heard> {
        let heard = Heard {
            n,
            source,
            to,
            top: (code >> 13) & ((1 << TOP) - 1),
            low: (code >> 8) as u32 & 0x1f,
            step: code as u8,
        };
        match code & MERGED {
            0 => Heard {
                top: 0,
                low: 0,
                ..heard
            }
            .and(&broadcast::unpack_arrival(source, to, code)),
            _ => Some(heard),
        }
    }

    /// The code of these copies.
    fn code(self) -> u16 {
        MERGED | self.top << 13 | (self.low as u16) << 8 | self.step as u16
    }

    /// The dimensions below the [`TOP`] ones.
    fn lows(&self) -> u32 {
        self.n.saturating_sub(TOP)
    }

    /// The nearer neighbours across dimensions below the top two, in the
    /// order of their numbers: those below `to` (a bit of `to` cleared,
    /// the highest first), then those above (a bit set, the lowest first).
    fn low_order(&self) -> impl Iterator<Item = u32> {
        let near = (self.to ^ self.source) & ((1u64 << self.lows()) - 1) as NodeId;
        let (below, above) = (near & self.to, near & !self.to);
        let below = (0..32).rev().filter(move |d| below >> d & 1 == 1);
        below.chain((0..32).filter(move |d| above >> d & 1 == 1))
    }

    /// These copies and `a`, if `a` is a copy of the same message from a
    /// nearer neighbour that fits the form.
    fn and(mut self, a: &Arrival<Packet>) -> Option<Heard> {
        let apart = a.from ^ self.to;
        let d = apart.trailing_zeros();
        let nearer = apart.is_power_of_two() && (self.to ^ self.source) & apart != 0;
        if !nearer || a.msg.source != self.source || a.msg.step != self.step {
            return None;
        }
        if d >= self.lows() {
            let bit = 1 << (self.n - 1 - d);
            (self.top & bit == 0).then_some(())?;
            self.top |= bit;
        } else {
            (self.low_order().nth(self.low as usize) == Some(d)).then_some(())?;
            self.low += 1;
        }
        Some(self)
    }

    /// Pushes every copy heard onto `into`, in the order of the senders'
    /// numbers (the order one lane delivers them in).
    fn senders(self, into: &mut Vec<Arrival<Packet>>) {
        let first = into.len();
        let top = (0..TOP)
            .filter(|j| self.top >> j & 1 == 1)
            .map(|j| self.n - 1 - j);
        for d in self.low_order().take(self.low as usize).chain(top) {
            into.push(Arrival {
                from: self.to ^ (1 << d),
                msg: Packet {
                    source: self.source,
                    step: self.step,
                },
            });
        }
        into[first..].sort_unstable_by_key(|a| a.from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ProtocolExt;

    fn flood(n: u32) -> Flood {
        Flood::new(Config {
            n,
            switching: Sf,
            ports: All,
            params: Default::default(),
        })
    }

    /// The copies `to` hears, one from `from`.
    fn copy(source: NodeId, from: NodeId) -> Arrival<Packet> {
        Arrival {
            from,
            msg: Packet { source, step: 0 },
        }
    }

    /// The code of `copies` heard in that order; None once one refuses.
    fn heard(f: &Flood, source: NodeId, to: NodeId, copies: &[NodeId]) -> Option<u16> {
        let (first, rest) = copies.split_first().expect("a copy");
        let mut code = f.pack_arrival(&source, to, &copy(source, *first))?;
        for &from in rest {
            code = f.merge_arrival(&source, to, code, &copy(source, from))?;
        }
        Some(code)
    }

    /// On Q_6 from several sources, every node's nearer neighbours,
    /// heard in their numbers' order with the top two dimensions' copies
    /// at any place (as lanes deliver them), give one code, which lists
    /// them all in their numbers' order.
    #[test]
    fn the_nearer_neighbours_copies_make_one_code_in_any_lanes_order() {
        let n = 6;
        let f = flood(n);
        for source in [0, 5, 0b101010, 63] {
            for to in (0..64).filter(|&v| v != source) {
                let nearer: Vec<NodeId> = (0..n)
                    .filter(|d| (to ^ source) >> d & 1 == 1)
                    .map(|d| to ^ (1 << d))
                    .collect();
                let mut sorted = nearer.clone();
                sorted.sort_unstable();
                let (top, low): (Vec<NodeId>, Vec<NodeId>) =
                    sorted.iter().partition(|&&u| (u ^ to) >= 1 << (n - 2));
                let mut codes = std::collections::HashSet::new();
                for at in 0..=low.len() {
                    for reversed in [false, true] {
                        let mut order = low.clone();
                        let mut tops = top.clone();
                        if reversed {
                            tops.reverse();
                        }
                        for (i, u) in tops.into_iter().enumerate() {
                            order.insert((at + i).min(order.len()), u);
                        }
                        let code = heard(&f, source, to, &order);
                        let what = format!("source {source} to {to} order {order:?}");
                        codes.insert(code.unwrap_or_else(|| panic!("{what}: refused")));
                    }
                }
                assert_eq!(codes.len(), 1, "source {source} to {to}");
                let mut listed = Vec::new();
                let code = codes.into_iter().next().unwrap();
                f.unpack_arrivals(&source, to, code, &mut listed);
                let from: Vec<NodeId> = listed.iter().map(|a| a.from).collect();
                assert_eq!(from, sorted, "source {source} to {to}");
                assert!(listed.iter().all(|a| a.msg == copy(source, 0).msg));
            }
        }
    }

    /// What the form cannot say is refused: a farther neighbour's copy, a
    /// copy heard twice, a lower copy after a higher one (or with one
    /// missing before it), another message.
    #[test]
    fn copies_the_form_cannot_say_are_refused() {
        let f = flood(6);
        let (source, to) = (0, 0b000111);
        // Nearer: 000110, 000101, 000011 (in their numbers' order).
        assert!(heard(&f, source, to, &[0b000011, 0b000101, 0b000110]).is_some());
        assert_eq!(heard(&f, source, to, &[0b000011, 0b001111]), None);
        assert_eq!(heard(&f, source, to, &[0b000011, 0b000011]), None);
        assert_eq!(heard(&f, source, to, &[0b000101, 0b000011]), None);
        assert_eq!(heard(&f, source, to, &[0b000101, 0b000110]), None);
        let code = f
            .pack_arrival(&source, to, &copy(source, 0b000011))
            .unwrap();
        let other = Arrival {
            from: 0b000101,
            msg: Packet { source, step: 1 },
        };
        assert_eq!(f.merge_arrival(&source, to, code, &other), None);
    }
}
