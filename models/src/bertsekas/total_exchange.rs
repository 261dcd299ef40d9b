//! TOTAL-EXCHANGE: a distinct packet from every node to every other node.
//! Bertsekas, Ozveren, Stamoulis, Tseng and Tsitsiklis, "Optimal
//! Communication Algorithms for Hypercubes" (1991), section 4.
//!
//! # The algorithm (the recursive construction of section 4)
//! The (d+1)-cube is two d-cubes C1 (top bit 0) and C2 (top bit 1).
//! 1. Phase one: a total exchange inside C1 and inside C2.
//! 2. Phase two: each node i sends to its counterpart i' = i xor 2^d, over
//!    the new dimension, its 2^d packets for the other cube, "(a) in the
//!    order in which the latter node forwards them in phase three" (the
//!    packet for j' before the one for j'' if s(i, j, d) < s(i, j', d), s
//!    being the slot in which i sends its own packet for j in the d-cube
//!    exchange) and "(b) its packet destined for i' last".
//! 3. Phase three: a total exchange inside each d-cube of the packets
//!    received in phase two: i' sends the packet of i for j' where it
//!    would send its own, and every relay of the d-cube exchange relays it.
//!
//! * MLA: phase two runs beside phases one and three, which follow each
//!   other at once: T_(d+1) = 2 T_d = 2^d, every link busy both ways in
//!   every slot.
//! * SLA (MTADEA, which the paper attributes to Saad and Schultz): the
//!   three phases one after the other, T_(d+1) = 2 T_d + 2^d = (d+1) 2^d.
//!
//! The construction is the paper's proof made executable: the schedule is
//! built recursively and the checker verifies that every packet is at its
//! relay in time (causality), that nothing contends, and the counts. The
//! explicit rules of "Implementation of the Optimal Algorithm" (the d
//! tables giving the order in which node 0 sends its own packets on each
//! link) are coded separately in [`own_order_table`], and a test checks
//! that the recursion sends node 0's own packets in an order they allow,
//! and every node's on the links and in the slots the rules give.
//! The paper obtains node i's order as node 0's xor i; that holds where
//! every node breaks its ties as the translate of node 0's. Ties broken
//! independently per node (allowed by rule (a)) give other orders (at
//! d = 4, ties by destination: node 2 sends to 13 in a slot where node
//! 0's table xor 2 has 15), still within the rules above.
//!
//! # Choices the paper leaves open
//! Ties in rule (a) (packets i sends in the same slot on different links,
//! "ties are broken arbitrarily") are the same choice as the table's
//! "ordered (arbitrarily)". Every node at every level of the recursion
//! orders each of its tie groups independently: each combination is a
//! variant, an input of the exhaustive check. All 256 at d = 3 are
//! checked; at d = 4 and 5 there are more than 10^19, and the check covers
//! variant 0 and [`MAX_VARIANTS`] - 1 drawn at random (every group of
//! every node at every level shuffled; numbering them would vary only the
//! first nodes' lowest ties), and says so. What covers the rest is the
//! proof, not the check: tied packets leave i in one slot of the d-cube
//! exchange, so they share their phase-three deadline and fill one block
//! of consecutive phase-two slots in any order.
//! Variant 0 breaks every tie by destination; the executor runs it.
//!
//! # Bounds (Tables 1 and 2)
//! MLA: 2^(d-1) slots; SLA: d 2^(d-1) slots; d 2^(2d-1) transmissions.

use crate::config::{Config, Ports};
use crate::config::{Ports::*, Switching::*};
use crate::entry::{Entry, Info, Reach};
use crate::protocol::{Arrival, Hints, Inputs, Protocol};
use crate::topology::hypercube::Hypercube;
use crate::topology::Topology;
use properties::bounds::bertsekas;
use properties::{Claims, NodeId, PacketId, Route, Slot, Task, Transmission};

/// The registry entry.
pub const ENTRY: Entry<TotalExchange> = Entry {
    info: Info {
        name: "total-exchange",
        summary: "total exchange by the recursive three-phase construction",
        reference: "Bertsekas et al. 1991, section 4",
        claim: "MLA: 2^(d-1) slots, every link busy both ways every slot; SLA: d 2^(d-1) \
                slots; d 2^(2d-1) transmissions; every packet delivered once",
        modes: &[(Sf, All), (Sf, One)],
        reach: Reach::lockstep_only(5),
        params: &[],
        memory: crate::entry::Footprint::Whole(memory),
        family: crate::topology::Family::Cube,
    },
    build: TotalExchange::new,
};

/// Holdings (a bit and a relay word per packet) and the schedule (12
/// bytes per transmission).
fn memory(d: u32) -> u64 {
    let packets = 1u64.checked_shl(2 * d).filter(|_| 2 * d < 64);
    packets.map_or(u64::MAX, |p| p / 8 + 4 * p + 12 * (d as u64 * p / 2))
}

/// One transmission of the schedule: sender, receiver, origin and
/// destination of the packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Hop {
    from: NodeId,
    to: NodeId,
    origin: NodeId,
    dest: NodeId,
}

/// The schedule: per slot, its transmissions sorted by sender.
type Schedule = Vec<Vec<Hop>>;

/// Variants a check covers at most: every one where there are no more
/// (d <= 3), else variant 0 and the rest drawn at random.
pub const MAX_VARIANTS: u64 = 1024;

/// How the ties of one variant are broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tying {
    /// Variant number k of the mixed-radix numbering whose digits, read in
    /// construction order (level, node, tie group), pick each group's
    /// order (0: every tie by destination).
    Numbered(u64),
    /// Every group's order drawn uniformly at random, from this seed:
    /// where the variants are too many to number, the first ones would
    /// vary only the first nodes' ties at the lowest level.
    Drawn(u64),
}

/// The tie-breaking of one variant as it is read, group by group; also
/// counts the variants there are (saturating).
struct Ties {
    tying: Tying,
    total: u64,
}

impl Ties {
    /// The order of the next tie group of `g` packets, as a permutation.
    fn pick(&mut self, g: usize) -> Vec<usize> {
        let radix = (1..=g as u64).product::<u64>();
        self.total = self.total.saturating_mul(radix);
        match &mut self.tying {
            Tying::Numbered(rest) => {
                let mut k = *rest % radix;
                *rest /= radix;
                // The k-th permutation of 0..g (Lehmer code).
                let mut left: Vec<usize> = (0..g).collect();
                let mut order = Vec::with_capacity(g);
                for i in (1..=g).rev() {
                    let f = (1..i as u64).product::<u64>();
                    order.push(left.remove((k / f) as usize));
                    k %= f;
                }
                order
            }
            Tying::Drawn(state) => {
                // Fisher-Yates on splitmix64 (a fixed, portable stream).
                let mut order: Vec<usize> = (0..g).collect();
                for i in (1..g).rev() {
                    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                    let mut z = *state;
                    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                    z ^= z >> 31;
                    order.swap(i, (z % (i as u64 + 1)) as usize);
                }
                order
            }
        }
    }
}

/// The exchange of the d-cube under the port model, built recursively
/// with the tie-breaking `tying`; also the number of variants.
fn schedule(d: u32, ports: Ports, tying: Tying) -> (Schedule, u64) {
    let mut ties = Ties { tying, total: 1 };
    // The 1-cube: both packets in slot 1.
    let mut s: Schedule = vec![vec![
        Hop {
            from: 0,
            to: 1,
            origin: 0,
            dest: 1,
        },
        Hop {
            from: 1,
            to: 0,
            origin: 1,
            dest: 0,
        },
    ]];
    for k in 1..d {
        s = step_up(&s, k, ports, &mut ties);
    }
    (s, ties.total)
}

/// The exchange of the (k+1)-cube from that of the k-cube.
fn step_up(s: &Schedule, k: u32, ports: Ports, ties: &mut Ties) -> Schedule {
    let h = 1u32 << k;
    let t = s.len();
    // s(i, j): the slot in which i sends its own packet for j.
    let mut own = vec![0usize; (h * h) as usize];
    for (slot, hops) in s.iter().enumerate() {
        for hop in hops {
            if hop.from == hop.origin {
                own[(hop.origin * h + hop.dest) as usize] = slot + 1;
            }
        }
    }
    // Phase three starts after phase one (MLA) or after phase two (SLA).
    let third = match ports {
        Ports::All => t,
        Ports::One => t + h as usize,
    };
    let mut out: Schedule = vec![Vec::new(); third + t];
    let up = |x: NodeId| x + h;
    for (slot, hops) in s.iter().enumerate() {
        // C1's senders, then C2's: a slot's hops come in runs already in
        // sender order, which the sort below merges (10^8 hops at d = 12).
        for hop in hops {
            // Phase one in C1; phase three: C1 relays C2's packets.
            out[slot].push(*hop);
            out[third + slot].push(Hop {
                origin: up(hop.origin),
                ..*hop
            });
        }
        for hop in hops {
            // Phase one in C2; phase three: C2 relays C1's packets.
            out[slot].push(Hop {
                from: up(hop.from),
                to: up(hop.to),
                origin: up(hop.origin),
                dest: up(hop.dest),
            });
            out[third + slot].push(Hop {
                from: up(hop.from),
                to: up(hop.to),
                origin: hop.origin,
                dest: up(hop.dest),
            });
        }
    }
    // Phase two: rules (a) and (b), from slot 1 (MLA) or after phase one.
    let second = match ports {
        Ports::All => 0,
        Ports::One => t,
    };
    // Node x of the (k+1)-cube and its counterpart x xor h; x's packets
    // for the other cube, named by their position j there.
    for x in 0..2 * h {
        let i = x % h;
        let mut order: Vec<NodeId> = (0..h).filter(|&j| j != i).collect();
        order.sort_by_key(|&j| (own[(i * h + j) as usize], j));
        // (a) ties (one slot of i's own sends) in the variant's order.
        for group in
            order.chunk_by_mut(|a, b| own[(i * h + a) as usize] == own[(i * h + b) as usize])
        {
            if group.len() > 1 {
                let by_destination = group.to_vec();
                for (slot, pick) in group.iter_mut().zip(ties.pick(by_destination.len())) {
                    *slot = by_destination[pick];
                }
            }
        }
        // (b) the packet for the counterpart last.
        order.push(i);
        let (to, other) = if x < h { (x + h, h) } else { (x - h, 0) };
        for (p, &j) in order.iter().enumerate() {
            out[second + p].push(Hop {
                from: x,
                to,
                origin: x,
                dest: j + other,
            });
        }
    }
    for hops in &mut out {
        hops.sort_by_key(|hop| hop.from);
    }
    out
}

/// The rules of "Implementation of the Optimal Algorithm", coded from the
/// text and not from the recursion: the d tables giving the order in
/// which node 0 sends its own packets. Per link m (dimension m - 1), the
/// destinations in the order of time units 1, 2, ..., as blocks whose
/// inner order the paper leaves arbitrary ("ordered (arbitrarily) from
/// left to right"). Table 1 holds e_1; table k keeps the k - 1 columns of
/// table k - 1 and adds, for each row of it from top to bottom, that
/// row's entries with their kth bit set, then e_k.
pub fn own_order_table(d: u32) -> Vec<Vec<Vec<NodeId>>> {
    let mut table: Vec<Vec<Vec<NodeId>>> = Vec::new();
    for k in 1..=d {
        let e = 1 << (k - 1);
        let columns: Vec<Vec<NodeId>> = table.iter().map(|c| c.concat()).collect();
        let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
        let mut last: Vec<Vec<NodeId>> = (0..rows)
            .map(|r| {
                columns
                    .iter()
                    .filter_map(|c| c.get(r))
                    .map(|&x| x | e)
                    .collect()
            })
            .collect();
        last.push(vec![e]);
        table.push(last);
    }
    table
}

/// Total exchange at one configuration.
#[derive(Clone, Debug)]
pub struct TotalExchange {
    cube: Hypercube,
    /// The schedule of every variant the check covers.
    schedules: Vec<Schedule>,
    /// Variants in all (saturating).
    variants: u64,
}

/// A packet of the exchange, by origin and destination.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Letter {
    /// The node it starts at.
    pub origin: NodeId,
    /// The node it is for.
    pub dest: NodeId,
}

impl TotalExchange {
    /// Every variant where there are at most [`MAX_VARIANTS`], else
    /// variant 0 and `MAX_VARIANTS - 1` drawn at random (seeds 1, 2, ...),
    /// where the exhaustive check can reach; past that variant 0 alone.
    pub fn new(cfg: Config) -> Self {
        let (first, variants) = schedule(cfg.n, cfg.ports, Tying::Numbered(0));
        let reach = cfg.n <= crate::entry::ENUMERATED_UP_TO.min(5);
        let tying = |v| match variants <= MAX_VARIANTS {
            true => Tying::Numbered(v),
            false => Tying::Drawn(v),
        };
        let built = if reach { variants.min(MAX_VARIANTS) } else { 1 };
        let schedules = std::iter::once(first)
            .chain((1..built).map(|v| schedule(cfg.n, cfg.ports, tying(v)).0))
            .collect();
        TotalExchange {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
            schedules,
            variants,
        }
    }
}

impl Protocol for TotalExchange {
    type Topo = Hypercube;
    /// The tie-breaking variant.
    type Input = u32;
    /// The variant (the schedule is the input's).
    type State = u32;
    type Msg = Letter;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn claims(&self) -> Claims {
        let d = self.cube.dim();
        let time = match self.cube.ports() {
            Ports::All => bertsekas::total_exchange_time_mla(d),
            Ports::One => bertsekas::total_exchange_time_sla(d),
        };
        Claims::optimal(time, bertsekas::total_exchange_transmissions(d))
    }

    fn init(&self, v: &u32, _: NodeId) -> u32 {
        *v
    }

    fn packets(&self, m: &Letter, mut f: impl FnMut(PacketId)) {
        f(m.origin * self.cube.nodes() + m.dest)
    }

    fn step(
        &self,
        node: NodeId,
        variant: &mut u32,
        slot: Slot,
        _: &[Arrival<Letter>],
        _: u32,
        out: &mut Vec<Transmission<Letter>>,
    ) -> bool {
        let schedule = &self.schedules[*variant as usize];
        let Some(hops) = schedule.get(slot as usize - 1) else {
            return false;
        };
        let first = hops.partition_point(|h| h.from < node);
        for h in hops[first..].iter().take_while(|h| h.from == node) {
            out.push(Transmission {
                route: Route::Link {
                    from: node,
                    to: h.to,
                },
                msg: Letter {
                    origin: h.origin,
                    dest: h.dest,
                },
            });
        }
        (slot as usize) < schedule.len()
    }

    fn domain(&self) -> impl Inputs<u32> + '_ {
        self
    }

    fn hints(&self) -> Hints {
        Hints::SCHEDULED
    }
}

/// The inputs the claim ranges over.
impl Inputs<u32> for &TotalExchange {
    fn task(&self, _: &u32) -> Task {
        Task::TotalExchange {
            nodes: self.cube.nodes(),
        }
    }

    fn all(&self) -> Vec<u32> {
        (0..self.schedules.len() as u32).collect()
    }

    fn total(&self) -> u64 {
        self.variants
    }

    fn covered(&self) -> &'static str {
        match self.variants <= MAX_VARIANTS {
            true => "the first ones",
            false => {
                "variant 0, the others drawn at random: every tie of every node at every level"
            }
        }
    }

    fn describe(&self, v: &u32) -> String {
        match *v {
            0 => "the recursive construction, every tie by destination".into(),
            v if self.variants <= MAX_VARIANTS => {
                crate::entry::variant_label("tie-breaking", v, self.variants)
            }
            v => format!(
                "every tie drawn at random, seed {v} (of {} tie-breakings)",
                crate::entry::count_words(self.variants)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The recursion's lengths: 2^(d-1) (MLA) and d 2^(d-1) (SLA) slots,
    /// and the SLA schedule sends at most one packet per node per slot.
    #[test]
    fn the_recursion_has_the_papers_lengths() {
        for d in 1..=6u32 {
            assert_eq!(
                schedule(d, Ports::All, Tying::Numbered(0)).0.len(),
                1 << (d - 1)
            );
            let sla = schedule(d, Ports::One, Tying::Numbered(0)).0;
            assert_eq!(sla.len(), (d << (d - 1)) as usize);
            for hops in &sla {
                let mut from: Vec<NodeId> = hops.iter().map(|h| h.from).collect();
                from.dedup();
                assert_eq!(from.len(), hops.len(), "d={d}");
            }
        }
    }
    /// The recursion sends own packets as the implementation rules say,
    /// for every tie-breaking variant at d <= 3, drawn ones at d = 4, 5 and
    /// variant 0 up to d = 6: node i sends on its kth link, one per slot in
    /// slots 1 .. 2^(k-1), its packets for (i_d .. i_(k+1), not i_k, any),
    /// the one for i xor e_k last, and before it, block by block, each row
    /// of what it sent on its links 1 .. k-1 (in the slot of that row)
    /// with bit k flipped: the tables' rule, read on the run, since a row's
    /// order is the arbitrary one. Node 0 with ties by destination sends in
    /// the order of the tables coded from the text.
    #[test]
    fn own_packets_follow_the_implementation_rules() {
        // The table for d = 2 by hand: link 1 sends to 01 in slot 1; link
        // 2 to 11 (row 1 of table 1 with bit 2 set), then e_2 = 10.
        assert_eq!(
            own_order_table(2),
            vec![vec![vec![1]], vec![vec![3], vec![2]]]
        );
        for d in 1..=6u32 {
            let table = own_order_table(d);
            let (_, total) = schedule(d, Ports::All, Tying::Numbered(0));
            let tyings: Vec<Tying> = match d {
                ..=3 => (0..total).map(Tying::Numbered).collect(),
                4..=5 => (0..8).map(Tying::Drawn).collect(),
                _ => vec![Tying::Numbered(0)],
            };
            if d == 3 {
                assert_eq!(total, 256, "one tie of two per node of the 3-cube");
            }
            for v in tyings {
                let (s, _) = schedule(d, Ports::All, v);
                for x in 0..1u32 << d {
                    // Per link, x's own packets sent on it: (slot, dest).
                    let sends: Vec<Vec<(usize, NodeId)>> = (0..d)
                        .map(|m| {
                            let mut sent: Vec<(usize, NodeId)> = s
                                .iter()
                                .enumerate()
                                .flat_map(|(t, hops)| hops.iter().map(move |h| (t + 1, h)))
                                .filter(|(_, h)| {
                                    h.from == x && h.origin == x && h.to == x ^ (1 << m)
                                })
                                .map(|(t, h)| (t, h.dest))
                                .collect();
                            sent.sort_unstable();
                            sent
                        })
                        .collect();
                    for (m, sent) in sends.iter().enumerate() {
                        let e = 1 << m;
                        let what = format!("d={d} {v:?} node {x} link {}", m + 1);
                        let slots: Vec<usize> = sent.iter().map(|&(t, _)| t).collect();
                        assert_eq!(slots, (1..=1usize << m).collect::<Vec<_>>(), "{what}");
                        let mut dests: Vec<NodeId> = sent.iter().map(|&(_, j)| j).collect();
                        assert_eq!(dests.last(), Some(&(x ^ e)), "{what}");
                        dests.sort_unstable();
                        let group: Vec<NodeId> = (0..1u32 << d)
                            .filter(|y| y >> (m + 1) == x >> (m + 1) && (y ^ x) & e != 0)
                            .collect();
                        assert_eq!(dests, group, "{what}");
                        // The rows of the lower links, in slot order.
                        let mut at = 0;
                        for r in 1..=1usize << m.saturating_sub(1) {
                            let mut want: Vec<NodeId> = sends[..m]
                                .iter()
                                .flat_map(|l| l.iter().filter(|&&(t, _)| t == r))
                                .map(|&(_, y)| y ^ e)
                                .collect();
                            if want.is_empty() {
                                break;
                            }
                            let mut got: Vec<NodeId> =
                                sent[at..at + want.len()].iter().map(|&(_, j)| j).collect();
                            got.sort_unstable();
                            want.sort_unstable();
                            assert_eq!(got, want, "{what}, row {r}");
                            at += want.len();
                        }
                        assert_eq!(at + 1, sent.len(), "{what}: rows, then e_k");
                        if x != 0 || (d > 3 && v != Tying::Numbered(0)) {
                            continue;
                        }
                        let mut at = 0;
                        for block in &table[m] {
                            let mut got: Vec<NodeId> =
                                sent[at..at + block.len()].iter().map(|&(_, j)| j).collect();
                            got.sort_unstable();
                            let mut want = block.clone();
                            want.sort_unstable();
                            assert_eq!(got, want, "{what}");
                            at += block.len();
                        }
                    }
                }
            }
        }
    }

    /// Variants differ: every one of the 256 at d = 3 is its own schedule.
    #[test]
    fn every_tie_breaking_is_a_different_schedule() {
        let all: std::collections::HashSet<Schedule> = (0..256)
            .map(|v| schedule(3, Ports::All, Tying::Numbered(v)).0)
            .collect();
        assert_eq!(all.len(), 256);
    }

    /// The drawn tie-breakings are not the first numbered ones: each
    /// level's ties (from the 3-cube on, the phase two that crosses
    /// dimension k) are broken otherwise than by destination by some seed.
    #[test]
    fn drawn_tie_breakings_vary_every_level() {
        let d = 5;
        let crossing = |s: &Schedule, k: u32| -> Vec<(usize, Hop)> {
            s.iter()
                .enumerate()
                .flat_map(|(t, hops)| hops.iter().map(move |h| (t, *h)))
                .filter(|(_, h)| h.from ^ h.to == 1 << k)
                .collect()
        };
        let (first, _) = schedule(d, Ports::All, Tying::Numbered(0));
        let drawn: Vec<Schedule> = (1..=8)
            .map(|seed| schedule(d, Ports::All, Tying::Drawn(seed)).0)
            .collect();
        for k in 2..d {
            assert!(
                drawn.iter().any(|s| crossing(s, k) != crossing(&first, k)),
                "level {k}"
            );
        }
        let distinct: std::collections::HashSet<&Schedule> = drawn.iter().collect();
        assert_eq!(distinct.len(), drawn.len());
    }
}
