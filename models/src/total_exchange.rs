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
//! explicit per-node routing rules of "Implementation of the Optimal
//! Algorithm" follow from this recursion; they are not coded separately.
//!
//! # Choices the paper leaves open
//! Ties in rule (a) (packets i sends in the same slot on different links)
//! and the table's "ordered (arbitrarily)": this module breaks them by
//! destination; other tie-breakings are not yet enumerated (the check says
//! so).
//!
//! # Bounds (Tables 1 and 2)
//! MLA: 2^(d-1) slots; SLA: d 2^(d-1) slots; d 2^(2d-1) transmissions.

use crate::catalog::{Config, Entry, Info, Ports, Reach};
use crate::catalog::{Ports::*, Switching::*};
use crate::hypercube::Hypercube;
use crate::protocol::{Arrival, Protocol};
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
        reach: Reach {
            lockstep: 5,
            actor: 0,
            actor_auto: 0,
        },
        params: &[],
        memory,
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hop {
    from: NodeId,
    to: NodeId,
    origin: NodeId,
    dest: NodeId,
}

/// The schedule: per slot, its transmissions sorted by sender.
type Schedule = Vec<Vec<Hop>>;

/// The exchange of the d-cube under the port model, built recursively.
fn schedule(d: u32, ports: Ports) -> Schedule {
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
        s = step_up(&s, k, ports);
    }
    s
}

/// The exchange of the (k+1)-cube from that of the k-cube.
fn step_up(s: &Schedule, k: u32, ports: Ports) -> Schedule {
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
    for (slot, hops) in s.iter().enumerate() {
        for hop in hops {
            let up = |x: NodeId| x + h;
            // Phase one in C1 and C2.
            out[slot].push(*hop);
            out[slot].push(Hop {
                from: up(hop.from),
                to: up(hop.to),
                origin: up(hop.origin),
                dest: up(hop.dest),
            });
            // Phase three: C1 relays C2's packets and vice versa.
            out[third + slot].push(Hop {
                origin: up(hop.origin),
                ..*hop
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
    for i in 0..h {
        let mut order: Vec<NodeId> = (0..h).filter(|&j| j != i).collect();
        order.sort_by_key(|&j| (own[(i * h + j) as usize], j));
        order.push(i);
        for (p, &j) in order.iter().enumerate() {
            out[second + p].push(Hop {
                from: i,
                to: i + h,
                origin: i,
                dest: j + h,
            });
            out[second + p].push(Hop {
                from: i + h,
                to: i,
                origin: i + h,
                dest: j,
            });
        }
    }
    for hops in &mut out {
        hops.sort_by_key(|hop| hop.from);
    }
    out
}

/// Total exchange at one configuration.
#[derive(Clone, Debug)]
pub struct TotalExchange {
    cube: Hypercube,
    schedule: Schedule,
}

/// A packet of the exchange, by origin and destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Letter {
    pub origin: NodeId,
    pub dest: NodeId,
}

impl TotalExchange {
    pub fn new(cfg: Config) -> Self {
        TotalExchange {
            cube: Hypercube::new(cfg.n, cfg.switching, cfg.ports),
            schedule: schedule(cfg.n, cfg.ports),
        }
    }
}

impl Protocol for TotalExchange {
    type Topo = Hypercube;
    /// The construction leaves nothing open here (ties broken by
    /// destination): one input.
    type Input = u32;
    type State = ();
    type Msg = Letter;

    fn topology(&self) -> &Hypercube {
        &self.cube
    }

    fn inputs(&self) -> Vec<u32> {
        vec![0]
    }

    fn source_input(&self, _: NodeId) -> Option<u32> {
        None
    }

    fn describe_input(&self, _: &u32) -> String {
        "the recursive construction, ties by destination".into()
    }

    fn task(&self, _: &u32) -> Task {
        Task::TotalExchange {
            nodes: self.cube.nodes(),
        }
    }

    fn claims(&self) -> Claims {
        let d = self.cube.dim();
        let time = match self.cube.ports() {
            Ports::All => bertsekas::total_exchange_time_mla(d),
            Ports::One => bertsekas::total_exchange_time_sla(d),
        };
        Claims::optimal(time, bertsekas::total_exchange_transmissions(d))
    }

    fn init(&self, _: &u32, _: NodeId) {}

    fn packets(&self, m: &Letter, mut f: impl FnMut(PacketId)) {
        f(m.origin * self.cube.nodes() + m.dest)
    }

    fn step(
        &self,
        node: NodeId,
        _: &mut (),
        slot: Slot,
        _: &[Arrival<Letter>],
        _: u32,
        out: &mut Vec<Transmission<Letter>>,
    ) -> bool {
        let Some(hops) = self.schedule.get(slot as usize - 1) else {
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
        (slot as usize) < self.schedule.len()
    }

    fn event_driven(&self) -> bool {
        false
    }

    fn reads_arrivals(&self) -> bool {
        false
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
            assert_eq!(schedule(d, Ports::All).len(), 1 << (d - 1));
            let sla = schedule(d, Ports::One);
            assert_eq!(sla.len(), (d << (d - 1)) as usize);
            for hops in &sla {
                let mut from: Vec<NodeId> = hops.iter().map(|h| h.from).collect();
                from.dedup();
                assert_eq!(from.len(), hops.len(), "d={d}");
            }
        }
    }
}
