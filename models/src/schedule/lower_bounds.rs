//! Lower bounds on the slots any schedule of a collective needs on a
//! network (docs/schedules.md, "Lower bounds"), printed beside a
//! schedule's time. Each counts what one slot can do at most:
//!
//! * **distance** (store-and-forward): a packet crosses one arc a slot,
//!   so it reaches a node no sooner than its distance from its origin.
//! * **spreading**: a node sends at most p messages a slot (one-port: 1;
//!   all-port: its out-degree), each to one node, so the holders of a
//!   packet grow at most (1 + p)-fold a slot: reaching k + 1 nodes takes
//!   ceil(log_{1+p}(k + 1)) slots.
//! * **ports** (messages of one packet): a node receives at most its
//!   in-ports' worth of messages a slot and sends at most its out-ports'
//!   worth, and each packet it needs (or alone holds and others need) is
//!   one message.
//! * **cut** (messages of one packet): every packet that starts on one
//!   side of a cut and is needed on the other crosses it at least once,
//!   and at most the arcs across (one-port: the nodes at their ends) carry
//!   one packet each a slot.
//! * **volume** (store-and-forward, messages of one packet): a packet
//!   takes at least as many hops as the farthest node that needs it and
//!   as the nodes that need it, and a slot carries one hop a sending port.
//!
//! On a cube these are the papers' bounds: d for a broadcast (distance,
//! and spreading one-port), 2^d - 1 and ceil((2^d - 1) / d) for the
//! multinode broadcast (ports), 2^(d-1) all-port and d 2^(d-1) one-port
//! for the total exchange (cut, volume). Where messages combine packets
//! (GOAL's, partial sums) only distance and spreading are bounds.

use crate::config::{Ports, Switching};
use properties::{Need, Needs, NodeId, Slot};

/// The bounds, by name, that are more than 0, for `needs` on a network of
/// `arcs` (directed), given `cuts` (each a side: true for its nodes).
pub fn lower_bounds(
    needs: &Needs,
    arcs: &[(NodeId, NodeId)],
    switching: Switching,
    ports: Ports,
    cuts: &[Vec<bool>],
) -> Vec<(&'static str, Slot)> {
    let n = needs.nodes as usize;
    let mut out_degree = vec![0u64; n];
    let mut in_degree = vec![0u64; n];
    for &(u, v) in arcs {
        out_degree[u as usize] += 1;
        in_degree[v as usize] += 1;
    }
    let port = |degree: u64| match ports {
        Ports::One => degree.min(1),
        Ports::All => degree,
    };
    let wanted = |p: usize| -> u64 {
        let o = needs.origin[p];
        needs.need[p].count(needs.nodes) - needs.need[p].includes(o) as u64
    };
    let mut bounds = Vec::new();

    let reach = match switching {
        Switching::Sf => distances(needs, arcs),
        Switching::Wh => None,
    };
    if let Some((far, _)) = reach.filter(|r| r.0 > 0) {
        bounds.push(("distance", far));
    }

    let fan = 1 + (0..n).map(|v| port(out_degree[v])).max().unwrap_or(0);
    let most = (0..needs.origin.len()).map(wanted).max().unwrap_or(0);
    if most > 0 && fan > 1 {
        let mut t = 0;
        let mut reach = 1u64;
        while reach < most + 1 {
            reach = reach.saturating_mul(fan);
            t += 1;
        }
        bounds.push(("spreading", t));
    }

    if needs.combining {
        return bounds;
    }
    // Per node: the packets it must receive and those it alone starts with
    // that others need.
    let mut listed = vec![0u64; n];
    let mut everyone_from = vec![0u64; n];
    let mut send = vec![0u64; n];
    let mut everyone = 0u64;
    for p in (0..needs.origin.len()).filter(|&p| wanted(p) > 0) {
        let o = needs.origin[p] as usize;
        send[o] += 1;
        match &needs.need[p] {
            Need::Everyone => {
                everyone += 1;
                everyone_from[o] += 1;
            }
            Need::Nodes(list) => {
                for &v in list.iter().filter(|&&v| v as usize != o) {
                    listed[v as usize] += 1;
                }
            }
        }
    }
    let by = |count: u64, degree: u64| match (count, port(degree)) {
        (0, _) | (_, 0) => 0,
        (c, d) => c.div_ceil(d),
    };
    let ports_bound = (0..n)
        .map(|v| {
            let receive = everyone - everyone_from[v] + listed[v];
            by(receive, in_degree[v]).max(by(send[v], out_degree[v]))
        })
        .max()
        .unwrap_or(0);
    if ports_bound > 0 {
        bounds.push(("ports", ports_bound as Slot));
    }
    // Volume: every packet takes at least as many hops as the farthest
    // node that needs it, and as the nodes that need it; a slot carries
    // one a sending port.
    if let Some((_, hops)) = reach {
        let capacity: u64 = (0..n).map(|v| port(out_degree[v])).sum();
        if hops > 0 && capacity > 0 {
            bounds.push(("volume", hops.div_ceil(capacity) as Slot));
        }
    }

    let mut cut_bound = 0;
    for side in cuts {
        for inside in [true, false] {
            let crossing = (0..needs.origin.len())
                .filter(|&p| side[needs.origin[p] as usize] == inside)
                .filter(|&p| match &needs.need[p] {
                    Need::Everyone => side.iter().any(|&s| s != inside),
                    Need::Nodes(list) => list.iter().any(|&v| side[v as usize] != inside),
                })
                .count() as u64;
            let across: Vec<_> = arcs
                .iter()
                .filter(|&&(u, v)| side[u as usize] == inside && side[v as usize] != inside)
                .collect();
            let capacity = match ports {
                Ports::All => across.len() as u64,
                Ports::One => {
                    let ends = |pick: fn(&(NodeId, NodeId)) -> NodeId| {
                        let mut e: Vec<NodeId> = across.iter().map(|a| pick(a)).collect();
                        e.sort_unstable();
                        e.dedup();
                        e.len() as u64
                    };
                    (across.len() as u64).min(ends(|a| a.0)).min(ends(|a| a.1))
                }
            };
            if crossing > 0 && capacity > 0 {
                cut_bound = cut_bound.max(crossing.div_ceil(capacity));
            }
        }
    }
    if cut_bound > 0 {
        bounds.push(("cut", cut_bound as Slot));
    }
    bounds
}

/// Most work the distance bounds do: a breadth-first search from each
/// origin, origins x (arcs + nodes) at most this (else they are not
/// given).
const MOST_SEARCH: u64 = 1 << 28;

/// The largest distance from a packet's origin to a node that needs it,
/// and the sum over packets of the hops each needs at least (the larger
/// of its farthest distance and the nodes that need it); None where
/// there are too many origins to search.
fn distances(needs: &Needs, arcs: &[(NodeId, NodeId)]) -> Option<(Slot, u64)> {
    let n = needs.nodes as usize;
    let mut origins: Vec<NodeId> = needs.origin.clone();
    origins.sort_unstable();
    origins.dedup();
    if origins.len() as u64 * (arcs.len() as u64 + n as u64) > MOST_SEARCH {
        return None;
    }
    let mut first = vec![0usize; n + 1];
    for &(u, _) in arcs {
        first[u as usize + 1] += 1;
    }
    for v in 0..n {
        first[v + 1] += first[v];
    }
    let mut next = first.clone();
    let mut to = vec![0 as NodeId; arcs.len()];
    for &(u, v) in arcs {
        to[next[u as usize]] = v;
        next[u as usize] += 1;
    }
    let mut packets_of: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (p, &o) in needs.origin.iter().enumerate() {
        packets_of[o as usize].push(p);
    }
    let (mut far, mut hops) = (0u32, 0u64);
    let mut dist = vec![u32::MAX; n];
    for &o in &origins {
        dist.iter_mut().for_each(|d| *d = u32::MAX);
        dist[o as usize] = 0;
        let mut queue = std::collections::VecDeque::from([o]);
        while let Some(u) = queue.pop_front() {
            for &v in &to[first[u as usize]..first[u as usize + 1]] {
                if dist[v as usize] == u32::MAX {
                    dist[v as usize] = dist[u as usize] + 1;
                    queue.push_back(v);
                }
            }
        }
        let reached = |v: &NodeId| Some(dist[*v as usize]).filter(|&d| d != u32::MAX);
        let everyone = (0..needs.nodes)
            .filter_map(|v| reached(&v))
            .max()
            .unwrap_or(0);
        for &p in &packets_of[o as usize] {
            let (most, count) = match &needs.need[p] {
                Need::Everyone => (everyone, needs.nodes as u64 - 1),
                Need::Nodes(list) => (
                    list.iter().filter_map(reached).max().unwrap_or(0),
                    list.iter().filter(|&&v| v != o).count() as u64,
                ),
            };
            far = far.max(most);
            hops += count.max(most as u64);
        }
    }
    Some((far, hops))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The d-cube's arcs and its dimension cuts.
    fn cube(d: u32) -> (Vec<(NodeId, NodeId)>, Vec<Vec<bool>>) {
        let n = 1u32 << d;
        let arcs = (0..n)
            .flat_map(|u| (0..d).map(move |k| (u, u ^ (1 << k))))
            .collect();
        let cuts = (0..d)
            .map(|k| (0..n).map(|v| v >> k & 1 == 1).collect())
            .collect();
        (arcs, cuts)
    }

    fn largest(b: &[(&str, Slot)]) -> Slot {
        b.iter().map(|x| x.1).max().unwrap_or(0)
    }

    /// Bertsekas et al.'s Table 1 lower bounds for the d-cube, as the
    /// paper states them: broadcast d; multinode broadcast 2^d - 1
    /// one-port and ceil((2^d - 1) / d) all-port; total exchange
    /// d 2^(d-1) one-port and 2^(d-1) all-port.
    #[test]
    fn the_cube_bounds_are_the_papers() {
        for d in 1..=5u32 {
            let n = 1u32 << d;
            let (arcs, cuts) = cube(d);
            let needs = |origin: Vec<NodeId>, need: Vec<Need>| Needs {
                nodes: n,
                origin,
                need,
                combining: false,
            };
            let broadcast = needs(vec![0], vec![Need::Everyone]);
            let mnb = needs((0..n).collect(), vec![Need::Everyone; n as usize]);
            let te = needs(
                (0..n * n).map(|p| p / n).collect(),
                (0..n * n)
                    .map(|p| Need::Nodes(vec![p % n].into()))
                    .collect(),
            );
            let at =
                |t: &Needs, ports| largest(&lower_bounds(t, &arcs, Switching::Sf, ports, &cuts));
            assert_eq!(at(&broadcast, Ports::One), d, "d={d}");
            assert_eq!(at(&broadcast, Ports::All), d, "d={d}");
            assert_eq!(at(&mnb, Ports::One), n - 1, "d={d}");
            assert_eq!(at(&mnb, Ports::All), (n - 1).div_ceil(d), "d={d}");
            assert_eq!(at(&te, Ports::One), d * n / 2, "d={d}");
            assert_eq!(at(&te, Ports::All), n / 2, "d={d}");
        }
    }

    /// Messages that combine packets keep only the bounds that count one
    /// packet's spread: an allgather of GOAL messages on the 3-cube,
    /// one-port, is bounded by log2 8 = 3, not by 7.
    #[test]
    fn combining_keeps_only_the_spreading_bounds() {
        let (arcs, cuts) = cube(3);
        let gossip = Needs {
            nodes: 8,
            origin: (0..8).collect(),
            need: vec![Need::Everyone; 8],
            combining: true,
        };
        let b = lower_bounds(&gossip, &arcs, Switching::Sf, Ports::One, &cuts);
        assert_eq!(b, vec![("distance", 3), ("spreading", 3)]);
        let b = lower_bounds(&gossip, &arcs, Switching::Wh, Ports::One, &cuts);
        assert_eq!(b, vec![("spreading", 3)]);
    }
}
