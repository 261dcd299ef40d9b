//! KBCAST: the three-phase algorithm for K simultaneous broadcasts, its
//! multinode-broadcast specialisation and its randomized variant.
//! Stamoulis and Tsitsiklis, "An efficient algorithm for multiple
//! simultaneous broadcasts in the hypercube", IPL 46 (1993), section 3.2.
//!
//! # The algorithm (`kbcast`)
//! * Phase 1 (slots 1..2d + 1): the prefix of section 2.4 (see `prefix`)
//!   with a_x = the packets node x broadcasts, so that x learns r_x =
//!   sum_{y >= x} a_y; in slot 2d + 1 node 0 sends K = r_0 to e_1..e_d.
//! * Phase 2 (from slot 2d + 2): x's packet goes to the root e_j(x) of tree
//!   T(j(x)) (see `esbt`), j(x) = (r_x - 1) mod d + 1, "along the reverse
//!   of the path from e_j(x) to x that is contained in T(j(x))". A node
//!   with a_x >= 2 packets sends its m-th to root (r_x - a_x - 1 + m) mod
//!   d + 1. Packets meet on the reversed trees and wait for an arc; which
//!   waiting packet goes first is left open, and the exhaustive check
//!   branches on every choice (the reversed trees are arc-disjoint, so a
//!   node keeps one queue per tree).
//! * Phase 3: "Termination of the phase can be detected individually by
//!   each root e_j at time floor(K/d) + d - 1", counted from the start of
//!   phase 2; from the next slot root e_j broadcasts its N_j packets along
//!   T(j), one per slot, in the order they came (its own first, ties by
//!   packet), "just after forwarding the N_j th packet, root e_j starts
//!   broadcasting a termination packet". A root knows N_j from K: the ranks
//!   1..K fall on tree (r - 1) mod d + 1. A packet not yet there when its
//!   turn comes is sent when it arrives (the text does not say; any other
//!   choice loses it). Every other node forwards what comes down T(j) to its
//!   children in T(j).
//!
//! Prefix values, K and the termination packets are control messages: they
//! carry no data, are counted apart, and their arrivals count toward the
//! completion time, as the paper's slot counts do.
//!
//! # Bounds
//! Claim: 2 floor(K/d) + 4d slots for every K-tuple, complete, and packets
//! of different trees "do not interfere" (contention-free). Whether a node
//! gets a packet twice the paper does not say: observed (phase 3's tree
//! spans the packet's origin and its phase-2 relays). The claim rests on
//! max_j N_j = floor(K/d), which holds only when d divides K: otherwise
//! phase 3 on a tree with ceil(K/d) packets takes one slot more than
//! counted, and a root may wait for a packet beyond its detection time;
//! the checker measures both (docs/errata.md, item 8).
//!
//! # `kbcast-no-wait`
//! The text without the roots' wait: phase 3 at root e_j lasts N_j slots,
//! each sending the next packet that is there, and then the termination
//! packet; a packet that comes later is never broadcast.
//!
//! # `kbcast-ceil`
//! The same with roots waiting ceil(K/d) + d - 1 slots of phase 2, the
//! paper's own pipelining bound max_j {N_j + d - 1}; phase 3 then takes
//! max_j {N_j + d} = ceil(K/d) + d, so 2 ceil(K/d) + 4d in all.
//!
//! # `kbcast-mnb`
//! K = 2^d: "the first phase of the algorithm is not necessary, because it
//! is known that r_x = 2^d - x for every node x". Phase 2 starts in slot 1;
//! roots detect its end after ceil(2^d/d) + d - 1 slots (the paper's
//! total, 2 ceil(2^d/d) + 2d - 1, is this plus phase 3's ceil(2^d/d) + d).
//!
//! # `kbcast-random`
//! "Each of the broadcasting nodes x selects randomly the value of j(x),
//! with Pr[j(x) = i] = 1/d", no prefix; "we can allow the root nodes to
//! start broadcasting (phase 3) as soon as they receive the first packet
//! but let phase 3 packets have priority over phase 2 packets": a phase-2
//! packet waits while its arc carries a phase-3 packet. Roots cannot know
//! N_j, so no termination packet is sent (the paper's other refinement, a
//! detection of phase 2's end, is not described). The random draws are
//! part of the input: the exhaustive check covers every set, each with
//! every draw (d^K) where they fit the input budget ([`MAX_DRAWS`]), else
//! with seeded draws (the report says which), and `--distribution` gives
//! the distribution of max N_j and of the completion time beside the
//! Chernoff bound (1). No time is claimed for every draw.

use crate::config::{Config, Param};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Choices, Hints, Inputs, Judging, Protocol};
use crate::stamoulis::broadcasters;
use crate::stamoulis::esbt;
use crate::stamoulis::prefix::{self, Sums};
use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
use properties::bounds::stamoulis;
use properties::{Claims, NodeId, PacketId, PropertyName, Route, Slot, Task, Transmission};

/// The three variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Section 3.2 with its prefix phase.
    Prefixed,
    /// The same, with roots waiting ceil(K/d) + d - 1 slots of phase 2, the
    /// paper's own max_j {N_j + d - 1} (docs/errata.md).
    Ceil,
    /// K = 2^d, ranks known.
    Mnb,
    /// Trees drawn at random, phase 3 at once with priority.
    Random,
}

const PARAMS: &[Param] = &[
    broadcasters::k_param("the number of packets broadcast (default d)"),
    Param {
        flag: "--broadcasters",
        meaning: "one set of broadcasting nodes, comma-separated (default: every K-set)",
        range: |d| (1, 1 << d),
        below: "",
    },
    broadcasters::MULTISET,
];

/// The registry entry of section 3.2's algorithm.
pub const ENTRY: Entry<Kbcast> = Entry {
    info: Info {
        name: "kbcast",
        summary: "K simultaneous broadcasts: prefix, packets up to d roots, broadcast on d trees",
        reference: "Stamoulis and Tsitsiklis 1993, section 3.2",
        claim: "2 floor(K/d) + 4d slots for every K-tuple; complete and contention-free",
        params: PARAMS,
        ..broadcasters::INFO
    },
    build: |cfg| Kbcast::new(cfg, Variant::Prefixed),
};

/// The registry entry of the corrected detection time.
pub const CEIL: Entry<Kbcast> = Entry {
    info: Info {
        name: "kbcast-ceil",
        summary: "kbcast with roots waiting ceil(K/d) + d - 1 slots of phase 2 (corrected)",
        reference: "Stamoulis and Tsitsiklis 1993, section 3.2; docs/errata.md",
        claim: "2 ceil(K/d) + 4d slots for every K-tuple; complete and contention-free",
        ..ENTRY.info
    },
    build: |cfg| Kbcast::new(cfg, Variant::Ceil),
};

/// The registry entry of section 3.2 without the roots' wait.
pub const NO_WAIT: Entry<Kbcast> = Entry {
    info: Info {
        name: "kbcast-no-wait",
        summary: "kbcast with roots broadcasting only in their N_j slots (the text, no wait)",
        reference: "Stamoulis and Tsitsiklis 1993, section 3.2, phase 3; docs/errata.md",
        ..ENTRY.info
    },
    build: |cfg| Kbcast {
        wait: false,
        ..Kbcast::new(cfg, Variant::Prefixed)
    },
};

/// The registry entry of the multinode broadcast.
pub const MNB: Entry<Kbcast> = Entry {
    info: Info {
        name: "kbcast-mnb",
        summary: "multinode broadcast by the three-phase algorithm without its prefix phase",
        reference: "Stamoulis and Tsitsiklis 1993, section 3.2",
        claim: "2 ceil(2^d/d) + 2d - 1 slots; complete and contention-free for every order \
                of waiting packets",
        reach: Reach {
            lockstep: 5,
            ..ENTRY.info.reach
        },
        params: &[],
        ..ENTRY.info
    },
    build: |cfg| Kbcast::new(cfg, Variant::Mnb),
};

/// The registry entry of the randomized variant.
pub const RANDOM: Entry<Kbcast> = Entry {
    info: Info {
        name: "kbcast-random",
        summary: "kbcast without the prefix: each broadcaster draws its tree at random",
        reference: "Stamoulis and Tsitsiklis 1993, section 3.2 (randomization, bound (1))",
        claim: "complete and contention-free for every draw; the time is random: max N_j \
                obeys the Chernoff bound (1)",
        ..ENTRY.info
    },
    build: |cfg| Kbcast::new(cfg, Variant::Random),
};

/// Packets x set-draw inputs of one kbcast-random check (a run's cost
/// grows with K): every set gets an equal share of MAX_DRAWS / K inputs
/// (at least one draw), and every draw where its share holds them all.
pub const MAX_DRAWS: u64 = 1 << 17;

/// The algorithm at one configuration.
#[derive(Clone, Debug)]
pub struct Kbcast {
    cube: Hypercube,
    /// Which of the section's algorithms.
    pub variant: Variant,
    /// The broadcasting sets checked.
    pub sets: broadcasters::Sets,
    /// kbcast-random: phase-3 packets go first on a shared arc (the
    /// paper's rule; false only in the test that shows why it is needed).
    pub priority: bool,
    /// A root sends a packet that comes after its turn when it comes
    /// (false: phase 3 ends N_j slots after it starts, `kbcast-no-wait`).
    pub wait: bool,
}

impl Kbcast {
    /// The `variant` at `cfg`.
    pub fn new(cfg: Config, variant: Variant) -> Self {
        let d = cfg.n;
        let default_k = match variant {
            Variant::Mnb => 1 << d,
            _ => d as u64,
        };
        Kbcast {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
            variant,
            // The trees' roots e_j and the ranks break the translations.
            sets: broadcasters::Sets::new(&cfg, default_k.min(1 << d), false),
            priority: true,
            wait: true,
        }
    }

    fn d(&self) -> u32 {
        self.cube.dim()
    }

    /// K: the packets broadcast.
    pub fn k(&self) -> u64 {
        self.sets.k
    }

    /// The first slot of phase 2.
    pub fn phase_two(&self) -> Slot {
        match self.variant {
            Variant::Prefixed | Variant::Ceil => 2 * self.d() + 2,
            Variant::Mnb | Variant::Random => 1,
        }
    }

    /// The slots of phase 2 the roots wait before phase 3, knowing K:
    /// floor(K/d) + d - 1 (kbcast), ceil(K/d) + d - 1 (kbcast-ceil,
    /// kbcast-mnb).
    pub fn detection(&self, k: u64) -> Slot {
        let d = self.d() as u64;
        let n = match self.variant {
            Variant::Prefixed => k / d,
            _ => k.div_ceil(d),
        };
        (n + d - 1) as Slot
    }

    /// N_j: the ranks 1..K with (r - 1) mod d + 1 = j.
    pub fn share(&self, k: u64, j: u32) -> u64 {
        let d = self.d() as u64;
        k / d + u64::from((j as u64) <= k % d)
    }

    /// The trees (1-based) of x's packets, from r_x and a_x: the m-th to
    /// (r_x - a_x - 1 + m) mod d + 1.
    pub fn trees_of(&self, r: u32, a: u32) -> impl Iterator<Item = u32> {
        let d = self.d();
        (1..=a).map(move |m| (r - a - 1 + m) % d + 1)
    }

    /// The draws of the random variant for set number `index` of `sets`,
    /// of `k` packets: every one of the d^k where a set's share of
    /// [`MAX_DRAWS`] holds them, else that share drawn (seeded by the set
    /// and the draw).
    pub fn draws(&self, k: usize, index: usize, sets: usize) -> Vec<Vec<u8>> {
        let d = self.d() as u64;
        let total = d.checked_pow(k as u32).unwrap_or(u64::MAX);
        let share = (MAX_DRAWS / (sets.max(1) * k.max(1)) as u64).max(1);
        if total <= share {
            (0..total)
                .map(|mut i| {
                    (0..k)
                        .map(|_| {
                            let j = i % d;
                            i /= d;
                            j as u8 + 1
                        })
                        .collect()
                })
                .collect()
        } else {
            let first = index as u64 * share;
            (first..first + share)
                .map(|seed| draw(seed, k, d))
                .collect()
        }
    }
}

/// One seeded draw of `k` trees out of d (splitmix64).
pub fn draw(seed: u64, k: usize, d: u64) -> Vec<u8> {
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (0..k)
        .map(|_| {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            x ^= x >> 31;
            (x % d) as u8 + 1
        })
        .collect()
}

/// An input: the broadcasting nodes (sorted; a node listed once per
/// packet) and, in the random variant, the tree each packet drew.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Draw {
    /// The broadcasting nodes.
    pub set: Vec<NodeId>,
    /// Each packet's tree (kbcast-random; empty otherwise).
    pub trees: Vec<u8>,
}

/// What a transmission carries.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Msg {
    /// Phase 1: a prefix value (control).
    Prefix(u32),
    /// Phase 1's last slot: K, from node 0 to the roots (control).
    Count(u32),
    /// Phase 2: a packet on its way up reversed T(tree).
    Up {
        /// The packet.
        packet: PacketId,
        /// Its tree j.
        tree: u8,
    },
    /// Phase 3: a packet broadcast down T(tree).
    Down {
        /// The packet.
        packet: PacketId,
        /// Its tree j.
        tree: u8,
    },
    /// The termination packet of T(tree) (control).
    End {
        /// The tree j.
        tree: u8,
    },
}

/// A node's state.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Node {
    /// Phase 1 (kbcast only).
    pub sums: Sums,
    /// The node's own packets and their trees (0 until phase 1 gives r_x),
    /// queued when phase 2 starts.
    pub own: Vec<(PacketId, u8)>,
    /// K, once known (roots; every node in kbcast-mnb).
    pub k: Option<u32>,
    /// Phase 2, per tree (index j - 1): packets waiting to go up, in
    /// increasing order.
    pub up: Vec<Vec<PacketId>>,
    /// Bit j - 1 set while tree j's queue is not empty.
    pub queued: u32,
    /// At a root: the packets it got, in order.
    pub got: Vec<PacketId>,
    /// How many of them it has sent.
    pub sent: u32,
    /// Whether its termination packet is out.
    pub ended: bool,
}

impl Kbcast {
    /// Which tree (1-based) `node` is the root of.
    fn root_of(&self, node: NodeId) -> Option<u32> {
        (node.is_power_of_two() && node < self.cube.nodes()).then(|| node.trailing_zeros() + 1)
    }

    /// Everything `node` does in `slot` but phase 2's sends: takes its
    /// arrivals, queues its own packets when phase 2 starts, sends prefix
    /// values, K and phase-3 packets. Returns the trees whose queue may
    /// send (not blocked by a phase-3 packet on its arc), as bits j - 1.
    fn plan(
        &self,
        node: NodeId,
        s: &mut Node,
        slot: Slot,
        arrivals: &[Arrival<Msg>],
        out: &mut Vec<Transmission<Msg>>,
    ) -> u32 {
        let d = self.d();
        let root = self.root_of(node);
        let link = |to: NodeId, msg: Msg| Transmission {
            route: Route::Link { from: node, to },
            msg,
        };
        // One message to every child in a tree at once (none at a leaf).
        let fan = |out: &mut Vec<Transmission<Msg>>, ports: u32, msg: Msg| {
            if ports != 0 {
                out.push(Transmission {
                    route: Route::Fan { from: node, ports },
                    msg,
                });
            }
        };
        // Own packets first (phase 2 starts before any packet moves up).
        if slot == self.phase_two() {
            let (r, a) = (s.sums.rank(), s.own.len() as u32);
            for (m, (packet, drawn)) in std::mem::take(&mut s.own).into_iter().enumerate() {
                let j = match drawn {
                    0 => (r - a + m as u32) % d + 1,
                    j => j as u32,
                };
                if root == Some(j) {
                    s.got.push(packet);
                } else {
                    let q = &mut s.up[j as usize - 1];
                    let at = q.partition_point(|&z| z < packet);
                    q.insert(at, packet);
                    s.queued |= 1 << (j - 1);
                }
            }
        }
        let before = s.got.len();
        for a in arrivals {
            match a.msg {
                Msg::Prefix(v) => s.sums.take(d, slot - 1, v),
                Msg::Count(k) => s.k = Some(k),
                Msg::Up { packet, tree } if root == Some(tree as u32) => s.got.push(packet),
                Msg::Up { packet, tree } => {
                    let q = &mut s.up[tree as usize - 1];
                    let at = q.partition_point(|&z| z < packet);
                    q.insert(at, packet);
                    s.queued |= 1 << (tree - 1);
                }
                Msg::Down { tree, .. } | Msg::End { tree } => {
                    fan(out, esbt::child_dimensions(tree as u32, node, d), a.msg);
                }
            }
        }
        // Packets that came in one slot, by packet.
        s.got[before..].sort_unstable();
        if matches!(self.variant, Variant::Prefixed | Variant::Ceil) {
            if let Some((to, v)) = s.sums.give(node, d, slot) {
                out.push(link(to, Msg::Prefix(v)));
            }
            if slot == 2 * d + 1 && node == 0 {
                for i in 0..d {
                    out.push(link(1 << i, Msg::Count(s.sums.acc)));
                }
            }
        }
        // Phase 3 at a root: the next packet, one per slot; then the
        // termination packet.
        if let Some(j) = root {
            let started = match (self.variant, s.k) {
                (Variant::Random, _) => true,
                (_, Some(k)) => slot >= self.phase_two() + self.detection(k as u64),
                (_, None) => false,
            };
            let share = s.k.map(|k| self.share(k as u64, j));
            let more = share.is_none_or(|n| (s.sent as u64) < n);
            // Without the wait, phase 3's N_j slots are all a root has.
            let closed = |k: u32| {
                let start = self.phase_two() + self.detection(k as u64);
                u64::from(slot.saturating_sub(start)) >= self.share(k as u64, j)
            };
            let more = more && (self.wait || !s.k.is_some_and(closed));
            let msg = if !started || s.ended {
                None
            } else if more && (s.sent as usize) < s.got.len() {
                s.sent += 1;
                Some(Msg::Down {
                    packet: s.got[s.sent as usize - 1],
                    tree: j as u8,
                })
            } else if !more && self.variant != Variant::Random {
                s.ended = true;
                Some(Msg::End { tree: j as u8 })
            } else {
                None
            };
            if let Some(msg) = msg {
                fan(out, esbt::child_dimensions(j, node, d), msg);
            }
        }
        let mut open = s.queued;
        if self.variant == Variant::Random && self.priority {
            for i in 0..d {
                if open & (1 << i) == 0 {
                    continue;
                }
                let to = esbt::parent(i + 1, node, d).expect("not the root");
                let busy = |t: &Transmission<Msg>| match t.route {
                    Route::Fan { ports, .. } => ports & (node ^ to) != 0,
                    route => route == Route::Link { from: node, to },
                };
                if out.iter().any(busy) {
                    open &= !(1 << i);
                }
            }
        }
        open
    }

    /// True while `node` has something left to do without arrivals.
    fn busy(&self, node: NodeId, s: &Node, slot: Slot) -> bool {
        let waiting = s.queued != 0;
        let root_busy = self.root_of(node).is_some()
            && match self.variant {
                Variant::Random => (s.sent as usize) < s.got.len(),
                _ => !s.ended,
            };
        slot < self.phase_two() || waiting || root_busy
    }
}

impl Protocol for Kbcast {
    type Topo = Hypercube;
    type Input = Draw;
    type State = Node;
    type Msg = Msg;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn claims(&self) -> Claims {
        use PropertyName::*;
        let d = self.d();
        let k = match self.variant {
            Variant::Mnb => self.cube.nodes() as u64,
            _ => self.k(),
        };
        let (claimed, bound) = match self.variant {
            Variant::Prefixed => (
                vec![Completeness, ContentionFreedom, Causality, TimeBound],
                Some(stamoulis::three_phase(d, k)),
            ),
            Variant::Ceil => (
                vec![Completeness, ContentionFreedom, Causality, TimeBound],
                Some(stamoulis::three_phase_ceil(d, k)),
            ),
            Variant::Mnb => (
                vec![Completeness, ContentionFreedom, Causality, TimeBound],
                Some(stamoulis::multinode_three_phase(d)),
            ),
            Variant::Random => (vec![Completeness, ContentionFreedom, Causality], None),
        };
        Claims {
            claimed,
            bound: bound.map(|b| b as Slot),
            lower_bound: Some(stamoulis::lower(d, k) as Slot),
            transmissions: None,
        }
    }

    fn init(&self, input: &Draw, node: NodeId) -> Node {
        let d = self.d();
        // The set is sorted: x's packets are a run of it, the m-th with id
        // m 2^d + x (see `broadcasters::packets`).
        let first = input.set.partition_point(|&y| y < node);
        let count = input.set[first..].partition_point(|&y| y == node);
        let mine: Vec<(PacketId, u8)> = (0..count)
            .map(|m| {
                let id = m as PacketId * self.cube.nodes() + node;
                (id, input.trees.get(first + m).copied().unwrap_or(0))
            })
            .collect();
        Node {
            own: mine,
            sums: match self.variant {
                // The ranks are known: r_x = 2^d - x.
                Variant::Mnb => Sums {
                    own: 1,
                    beyond: self.cube.nodes() - node - 1,
                    ..Sums::new(1)
                },
                _ => Sums::new(count as u32),
            },
            k: (self.variant == Variant::Mnb).then_some(self.cube.nodes()),
            up: vec![Vec::new(); d as usize],
            queued: 0,
            got: Vec::new(),
            sent: 0,
            ended: false,
        }
    }

    fn packets(&self, msg: &Msg, mut f: impl FnMut(PacketId)) {
        if let Msg::Up { packet, .. } | Msg::Down { packet, .. } = *msg {
            f(packet)
        }
    }

    fn step(
        &self,
        node: NodeId,
        s: &mut Node,
        slot: Slot,
        arrivals: &[Arrival<Msg>],
        mut choice: u32,
        out: &mut Vec<Transmission<Msg>>,
    ) -> bool {
        let d = self.d();
        let open = self.plan(node, s, slot, arrivals, out);
        for i in (0..d as usize).filter(|i| open & (1 << i) != 0) {
            let q = &mut s.up[i];
            let pick = choice as usize % q.len();
            choice /= q.len() as u32;
            let packet = q.remove(pick);
            if q.is_empty() {
                s.queued &= !(1 << i);
            }
            let parent = esbt::parent(i as u32 + 1, node, d).expect("not the root");
            out.push(Transmission {
                route: Route::Link {
                    from: node,
                    to: parent,
                },
                msg: Msg::Up {
                    packet,
                    tree: i as u8 + 1,
                },
            });
        }
        self.busy(node, s, slot)
    }

    fn domain(&self) -> impl Inputs<Draw> + '_ {
        self
    }

    fn judging(&self) -> Option<impl Judging<Draw, Node, Msg> + '_> {
        Some(self)
    }

    fn choices(&self) -> Option<impl Choices<Node, Msg> + '_> {
        Some(self)
    }

    fn hints(&self) -> Hints {
        Hints {
            // Phase 3 delivers one packet per tree level per slot to many nodes.
            holdings_by_packet: true,
            ..Hints::LOCKSTEP
        }
    }
}

/// The inputs the claim ranges over.
impl Inputs<Draw> for &Kbcast {
    fn task(&self, input: &Draw) -> Task {
        broadcasters::task(&self.cube, &input.set)
    }

    fn all(&self) -> Vec<Draw> {
        let sets = match self.variant {
            Variant::Mnb => vec![(0..self.cube.nodes()).collect()],
            _ => self.sets.all(),
        };
        let mut inputs = Vec::new();
        let count = sets.len();
        for (index, set) in sets.into_iter().enumerate() {
            match self.variant {
                Variant::Random => {
                    for trees in self.draws(set.len(), index, count) {
                        inputs.push(Draw {
                            set: set.clone(),
                            trees,
                        });
                    }
                }
                _ => inputs.push(Draw {
                    set,
                    trees: Vec::new(),
                }),
            }
        }
        inputs
    }

    fn first(&self) -> Draw {
        let set = match self.variant {
            Variant::Mnb => (0..self.cube.nodes()).collect(),
            _ => self.sets.first(),
        };
        let trees = match self.variant {
            Variant::Random => draw(0, set.len(), self.d() as u64),
            _ => Vec::new(),
        };
        Draw { set, trees }
    }

    fn total(&self) -> u64 {
        match self.variant {
            Variant::Mnb => 1,
            Variant::Prefixed | Variant::Ceil => self.sets.total(),
            Variant::Random => self
                .sets
                .total()
                .saturating_mul((self.d() as u64).saturating_pow(self.sets.k as u32)),
        }
    }

    fn covered(&self) -> &'static str {
        match self.variant {
            Variant::Random => {
                "every set (the first 65,536 where there are more), each with every draw of \
                 trees where sets x d^K <= 131,072 / K, else with 131,072 / (K sets) seeded \
                 draws (at least one)"
            }
            _ => "the first 65,536 sets in increasing order",
        }
    }

    fn describe(&self, input: &Draw) -> String {
        if self.variant == Variant::Mnb {
            return "every node broadcasting".into();
        }
        let set = broadcasters::describe(&self.cube, &input.set);
        if input.trees.is_empty() {
            return set;
        }
        let trees = broadcasters::abridge(&input.trees, u8::to_string);
        format!("{set}, trees ({trees})")
    }
}

/// More of the claim.
impl Judging<Draw, Node, Msg> for &Kbcast {
    fn control(&self, msg: &Msg) -> bool {
        matches!(msg, Msg::Prefix(_) | Msg::Count(_) | Msg::End { .. })
    }

    fn wrong_result(&self, input: &Draw, node: NodeId, s: &Node) -> Option<u64> {
        // Phase 1's ranks, which phase 2 used.
        let right = !matches!(self.variant, Variant::Prefixed | Variant::Ceil)
            || s.sums.rank() as usize == prefix::rank(&input.set, node);
        (!right).then_some(0)
    }

    /// max_j N_j of a random draw.
    fn drawn(&self, input: &Draw) -> Option<u64> {
        (self.variant == Variant::Random).then(|| {
            let mut n = vec![0u64; self.d() as usize];
            for &j in &input.trees {
                n[j as usize - 1] += 1;
            }
            n.into_iter().max().unwrap_or(0)
        })
    }

    /// (1): Pr(max_j N_j >= C K/d) <= 2d (e/C)^(C K/d), at C = v d / K.
    fn drawn_tail(&self, v: u64) -> (&'static str, Option<f64>) {
        let (d, k) = (self.d(), self.k());
        let c = v as f64 * d as f64 / k as f64;
        ("max N_j", Some(stamoulis::chernoff(d, k, c)))
    }
}

/// Open choices and scheduled sends.
impl Choices<Node, Msg> for &Kbcast {
    fn ways(&self, node: NodeId, s: &Node, slot: Slot, arrivals: &[Arrival<Msg>]) -> u32 {
        if s.queued == 0
            && !arrivals.iter().any(|a| matches!(a.msg, Msg::Up { .. }))
            && slot != self.phase_two()
        {
            return 1;
        }
        let mut t = s.clone();
        let mut scratch = Vec::new();
        let open = self.plan(node, &mut t, slot, arrivals, &mut scratch);
        (0..self.d() as usize)
            .filter(|i| open & (1 << i) != 0)
            .fold(1u32, |p, i| p.saturating_mul(t.up[i].len() as u32))
    }
}
