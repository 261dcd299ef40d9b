//! KBCAST-RANKED: K = d broadcasts in d slots when every broadcaster knows
//! its rank. Stamoulis and Tsitsiklis, "An efficient algorithm for
//! multiple simultaneous broadcasts in the hypercube", IPL 46 (1993),
//! section 3.3.2.
//!
//! # The algorithm, as printed
//! "Node x will broadcast its packet along the completely unbalanced
//! spanning tree (rooted at x) in which the hypercube dimensions are
//! crossed in the following index-order: r_x mod d + 1, (r_x + 1) mod d +
//! 1, ..., (r_x + d - 1) mod d + 1; moreover, at the m th slot, the packet
//! of node x may only cross the permissible arcs of dimension (r_x + m - 2)
//! mod d + 1." The rank r_x is x's place in the decreasing order of the
//! broadcasters (r_x = sum of a_y over y >= x, section 3.2: the largest has
//! rank 1), 1..d; it travels in the packet's header, so that every holder
//! knows which arcs its copy may cross. A holder y of x's packet forwards
//! it across dimension j in a slot that permits j if j comes after every
//! dimension of x xor y in the tree's order (the tree's arcs from y).
//!
//! # Two readings
//! * `kbcast-ranked` is the text: slot m permits (r_x + m - 2) mod d + 1,
//!   which is the *last* dimension of the tree's order at m = 1 and its
//!   first at m = 2; a node whose tree path ends with that dimension after
//!   others waits for slot d + 1. The checker finds it (docs/errata.md).
//! * `kbcast-ranked-shifted` permits the tree's m th dimension in slot m,
//!   (r_x + m - 1) mod d + 1: the reading the collision argument and the
//!   d-slot claim fit (the argument only needs distinct ranks).
//!
//! # Inputs and bounds
//! Every d-set of broadcasting nodes (`--broadcasters` for one; K = d is
//! the section's premise). With `--multiset` a node may have several
//! packets, each its own rank as in section 3.2's last paragraph (the
//! section's "extreme case where one node has d packets":
//! `--broadcasters 5,5,5 --multiset`). Claim: d slots, "copies of different packets
//! never collide"; each packet crosses each tree arc once: d (2^d - 1)
//! transmissions (observed).

use crate::blocks::broadcast::Packet;
use crate::config::{Config, Param};
use crate::entry::{Entry, Info};
use crate::protocol::{Arrival, Inputs, Protocol};
use crate::stamoulis::broadcasters;
use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
use properties::{Claims, NodeId, PacketId, Route, Slot, Transmission};

/// Which slot permits which dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// (r_x + m - 2) mod d + 1, as printed.
    Text,
    /// (r_x + m - 1) mod d + 1: the tree's m th dimension.
    Shifted,
}

const PARAMS: &[Param] = &[
    Param {
        flag: "--k",
        meaning: "the number of broadcasting nodes: d only (the section's premise)",
        range: |d| (d as u64, d as u64),
        below: "",
    },
    Param {
        flag: "--broadcasters",
        meaning: "one set of d broadcasting nodes, comma-separated (default: every d-set)",
        range: |d| (d as u64, d as u64),
        below: "",
    },
    broadcasters::MULTISET,
];

/// The registry entry of the text.
pub const TEXT: Entry<KbcastRanked> = Entry {
    info: Info {
        name: "kbcast-ranked",
        summary: "K = d broadcasts with known ranks, one dimension per slot (as printed)",
        reference: "Stamoulis and Tsitsiklis 1993, section 3.3.2",
        claim: "d slots for every d-tuple of broadcasters; copies never collide",
        params: PARAMS,
        ..broadcasters::INFO
    },
    build: |cfg| KbcastRanked::new(cfg, Reading::Text),
};

/// The registry entry of the shifted reading.
pub const SHIFTED: Entry<KbcastRanked> = Entry {
    info: Info {
        name: "kbcast-ranked-shifted",
        summary: "kbcast-ranked with slot m permitting the tree's m-th dimension (corrected)",
        reference: "Stamoulis and Tsitsiklis 1993, section 3.3.2; docs/errata.md",
        ..TEXT.info
    },
    build: |cfg| KbcastRanked::new(cfg, Reading::Shifted),
};

/// K = d ranked broadcasts at one configuration.
#[derive(Clone, Debug)]
pub struct KbcastRanked {
    cube: Hypercube,
    reading: Reading,
    sets: broadcasters::Sets,
}

impl KbcastRanked {
    /// Section 3.3.2 at `cfg`, in one `reading`.
    pub fn new(cfg: Config, reading: Reading) -> Self {
        KbcastRanked {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
            reading,
            // Ranks follow the node numbers: no translation symmetry.
            sets: broadcasters::Sets::new(&cfg, cfg.n as u64, false),
        }
    }

    /// The dimension (1-based) that slot m permits for rank r.
    pub fn permitted(&self, r: u32, m: Slot) -> u32 {
        let d = self.cube.dim();
        match self.reading {
            Reading::Text => (r + m + d - 2) % d + 1,
            Reading::Shifted => (r + m - 1) % d + 1,
        }
    }
}

/// Position (0-based) of dimension j (1-based) in the tree order of rank
/// r: r mod d + 1, (r + 1) mod d + 1, ...
pub fn position(r: u32, j: u32, d: u32) -> u32 {
    (j + d - 1 - r % d) % d
}

/// The message: the packet (named by its id, its broadcaster where each
/// has one) and its rank, in the header.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Ranked {
    /// The packet.
    pub packet: Packet,
    /// Its broadcaster's rank r_x.
    pub rank: u32,
}

/// A node's state: the packets it holds (by id: a node's i-th packet is
/// i 2^d + x), with their ranks and the slot each arrived in (0: its own). A copy crosses each of its tree's arcs
/// once, in the first slot after its arrival that permits it (every
/// dimension comes round within d slots).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Held(pub Vec<(NodeId, u32, Slot)>);

impl Protocol for KbcastRanked {
    type Topo = Hypercube;
    /// The broadcasting nodes, in increasing order.
    type Input = Vec<NodeId>;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn domain(&self) -> impl Inputs<Vec<NodeId>> + '_ {
        broadcasters::Broadcasters {
            sets: &self.sets,
            cube: &self.cube,
            covered: "the first 65,536 d-sets in increasing order",
        }
    }

    type State = Held;
    type Msg = Ranked;

    fn claims(&self) -> Claims {
        let d = self.cube.dim();
        broadcasters::claims(&self.cube, d as u64, d, false)
    }

    fn init(&self, set: &Vec<NodeId>, node: NodeId) -> Held {
        // r_x: the packets at or above x; x's own a_x packets take the
        // ranks r_x - a_x + 1, ..., r_x.
        let ids = broadcasters::packets(&self.cube, set);
        Held(
            (0..set.len())
                .filter(|&p| set[p] == node)
                .map(|p| (ids[p], (set.len() - p) as u32, 0))
                .collect(),
        )
    }

    fn packets(&self, msg: &Ranked, mut f: impl FnMut(PacketId)) {
        f(msg.packet.source)
    }

    fn step(
        &self,
        node: NodeId,
        held: &mut Held,
        slot: Slot,
        arrivals: &[Arrival<Ranked>],
        _: u32,
        out: &mut Vec<Transmission<Ranked>>,
    ) -> bool {
        let d = self.cube.dim();
        for a in arrivals {
            held.0.push((a.msg.packet.source, a.msg.rank, slot - 1));
        }
        held.0.sort_unstable();
        for &(id, rank, came) in &held.0 {
            if slot - came > d {
                continue;
            }
            let j = self.permitted(rank, slot);
            let crossed = (id % self.cube.nodes()) ^ node;
            // The tree's arcs from this node: dimensions after every one
            // already crossed, in the order of rank r.
            let after = (0..d)
                .filter(|b| crossed & (1 << b) != 0)
                .all(|b| position(rank, b + 1, d) < position(rank, j, d));
            if after && crossed & (1 << (j - 1)) == 0 {
                out.push(Transmission {
                    route: Route::Link {
                        from: node,
                        to: node ^ (1 << (j - 1)),
                    },
                    msg: Ranked {
                        packet: Packet {
                            source: id,
                            step: 0,
                        },
                        rank,
                    },
                });
            }
        }
        held.0.iter().any(|&(_, _, came)| slot - came < d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rank 1 on the 3-cube: the order 2, 3, 1 (r mod d + 1 first); the
    /// text permits 1 in slot 1 (its last), 2 in slot 2; the shifted
    /// reading 2 in slot 1, 3 in slot 2, 1 in slot 3.
    #[test]
    fn the_two_readings_by_hand() {
        assert_eq!(
            [position(1, 2, 3), position(1, 3, 3), position(1, 1, 3)],
            [0, 1, 2]
        );
        let cfg = crate::Algorithm::KbcastRanked
            .config(3, None, None)
            .unwrap();
        let text = KbcastRanked::new(cfg.clone(), Reading::Text);
        assert_eq!([1, 2, 3].map(|m| text.permitted(1, m)), [1, 2, 3]);
        let shifted = KbcastRanked::new(cfg, Reading::Shifted);
        assert_eq!([1, 2, 3].map(|m| shifted.permitted(1, m)), [2, 3, 1]);
    }
}
