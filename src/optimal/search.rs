//! The least number of rounds any broadcast needs, by exhaustive search
//! at small sizes (up to 64 nodes).
//!
//! A round is what the network's run semantics allows in one slot
//! (docs/architecture.md, "Runs"): every informed node sends to nodes that
//! lack the packet, each send on the route the topology gives it
//! ([`Topology::message_route`]: one arc under store-and-forward, the
//! network's own worm under wormhole), and no two sends of a round share a
//! resource ([`Topology::occupy`]: arcs, and the ports under one-port). A
//! k-port model caps each node's sends a round at k. Only destinations
//! are informed (a worm does not leave copies on its way).
//!
//! The search deepens the number of rounds from one (from the counting and
//! distance bounds where they are trusted, [`Model::bounds`]). At each
//! depth a depth-first search over the informed sets answers whether the
//! rest can be informed in the rounds left; the first depth that succeeds
//! is the optimum, with its schedule, and every shallower depth was
//! searched to the end: that is the certificate. It is exhaustive up to
//! these rules, each sound:
//!
//! * a round's receivers are only those of *maximal* rounds (no idle
//!   sender could still reach an idle receiver), and of two receiver
//!   sets, one inside the other, only the larger is tried: informing more
//!   never hurts, since an extra informed node may stay idle;
//! * in the last round, a branch ends where the receivers left could not
//!   each have a send of their own even if sends occupied only their first
//!   (or only their last) resource: a matching, a relaxation of the round;
//! * a set shown to fail with r rounds left is not searched again with r
//!   or fewer;
//! * with [`Model::bounds`], a set is dropped when its nodes could not
//!   inform everyone even if each informed as many new nodes a round as
//!   it has sends (counting), or, under store-and-forward, when some node
//!   is farther from it than the rounds left (distance). Off, the search
//!   starts at one round and can judge those bounds rather than assume
//!   them.
//!
//! No symmetry of the network is used: every informed set is its own.

use super::task::{hops_from, point_to_point, share_a_resource, TaskError};
use models::topology::Topology;
use properties::{NodeId, ResourceId};
use std::collections::HashMap;

/// The search's budget of informed sets a slot count, wherever commcheck
/// asks it (`check optimal`, the claims' judges): past it the answer is
/// unknown, never a guess.
pub const SEARCH_STATES: u64 = 20_000_000;

/// Why the search gave no answer.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum SearchError {
    /// A network past the search's sets of 64 bits.
    #[error("the optimal search takes at most 64 nodes; this network has {nodes}")]
    TooManyNodes {
        /// The network's nodes.
        nodes: usize,
    },
    /// A send the search cannot take (a bus write).
    #[error(transparent)]
    Send(#[from] TaskError),
    /// The budget of informed sets ran out.
    #[error("the optimal search's budget of {max_states} informed sets ran out")]
    Budget {
        /// The budget.
        max_states: u64,
    },
    /// A [`super::Stop`] ended it.
    #[error("{}", super::STOPPED)]
    Stopped,
}

/// One round's sends, as (sender, receiver).
pub type Round = Vec<(NodeId, NodeId)>;

/// What one round may carry.
#[derive(Clone, Copy, Debug)]
pub struct Model {
    /// Worms (any distance, one round) rather than one arc a round.
    pub wormhole: bool,
    /// At most this many sends a node a round (a k-port model); `None`
    /// leaves only the resources to limit them.
    pub max_sends: Option<u32>,
    /// Prune by the counting and distance bounds (the module's last rule).
    pub bounds: bool,
}

/// The search's answer for one source.
#[derive(Clone, Debug)]
pub struct Optimum {
    /// The least number of rounds, if within the depth searched.
    pub rounds: Option<u32>,
    /// A broadcast in that many rounds.
    pub witness: Vec<Round>,
    /// The depth the search started from (the counting and distance
    /// bounds): depths from it to `rounds - 1` were searched and failed.
    pub from: u32,
    /// Informed sets expanded, over every depth.
    pub states: u64,
}

/// The least rounds from `source` on `t` under `model`, searching depths up
/// to `max_rounds`; an error if the network is beyond the search (more than
/// 64 nodes, or a send that reaches more than its destination) or the
/// budget of `max_states` expanded sets runs out.
pub fn least_rounds<T: Topology>(
    t: &T,
    model: Model,
    source: NodeId,
    max_rounds: u32,
    max_states: u64,
) -> Result<Optimum, SearchError> {
    let mut s = Search::new(t, model, max_states)?;
    let start = 1u64 << source;
    let from = match model.bounds {
        true => s.bound(start),
        false => 0,
    }
    .max(u32::from(s.n > 1));
    for depth in from..=max_rounds {
        let mut witness = Vec::new();
        if s.feasible(start, depth, &mut witness)? {
            witness.reverse();
            return Ok(Optimum {
                rounds: Some(depth),
                witness,
                from,
                states: s.states,
            });
        }
    }
    Ok(Optimum {
        rounds: None,
        witness: Vec::new(),
        from,
        states: s.states,
    })
}

/// Whether `source` can inform every node within `depth` rounds on `t`
/// under `model`: its rounds if so, and the informed sets expanded. The
/// search ends early, with an error, when `stop` is set or `max_states`
/// sets were expanded.
pub fn within<T: Topology>(
    t: &T,
    model: Model,
    source: NodeId,
    depth: u32,
    max_states: u64,
    stop: &super::Stop,
) -> Result<(Option<Vec<Round>>, u64), SearchError> {
    let mut s = Search::new(t, model, max_states)?;
    s.stop = Some(stop.clone());
    let mut witness = Vec::new();
    let found = s.feasible(1u64 << source, depth, &mut witness)?;
    witness.reverse();
    Ok((found.then_some(witness), s.states))
}

/// A send u -> v: the resources its route occupies.
struct Send {
    from: NodeId,
    to: NodeId,
    /// The first and the last resource on its way (an out-arc or
    /// out-port of `from`, an in-arc or in-port of `to`).
    first: ResourceId,
    last: ResourceId,
    /// Every resource, sorted.
    uses: Vec<ResourceId>,
}

struct Search {
    n: usize,
    all: u64,
    model: Model,
    /// For each receiver, the sends that could reach it.
    into: Vec<Vec<Send>>,
    /// Hop distances (store-and-forward's prune).
    dist: Vec<Vec<u32>>,
    /// The most sends any node can make in a round.
    fanout: u64,
    /// Rounds left with which an informed set was shown to fail.
    failed: HashMap<u64, u32>,
    /// Resources taken in the round being built.
    used: Vec<bool>,
    sends: Vec<u32>,
    states: u64,
    max_states: u64,
    /// Ends the search early.
    stop: Option<super::Stop>,
}

impl Search {
    fn new<T: Topology>(t: &T, model: Model, max_states: u64) -> Result<Search, SearchError> {
        let n = t.nodes() as usize;
        if n > 64 {
            return Err(SearchError::TooManyNodes { nodes: n });
        }
        let mut into: Vec<Vec<Send>> = (0..n).map(|_| Vec::new()).collect();
        for u in 0..n as NodeId {
            for v in (0..n as NodeId).filter(|&v| v != u) {
                let Some(route) = point_to_point(t, u, v, model.wormhole)? else {
                    continue;
                };
                let mut uses = Vec::new();
                t.occupy(&route, |r| uses.push(r));
                let (first, last) = (uses[0], uses[uses.len() - 1]);
                uses.sort_unstable();
                uses.dedup();
                into[v as usize].push(Send {
                    from: u,
                    to: v,
                    first,
                    last,
                    uses,
                });
            }
        }
        let mut adjacent = vec![Vec::new(); n];
        t.links(|u, v| {
            adjacent[u as usize].push(v);
            adjacent[v as usize].push(u);
        });
        let dist = (0..n as NodeId).map(|s| hops_from(&adjacent, s)).collect();
        // Every send leaves its sender over one of its links, and they
        // may not share one: at most its degree a round, at most one where
        // all its sends share a resource, and at most max_sends.
        let fanout = (0..n)
            .map(|u| {
                let sends = into.iter().flatten().filter(|s| s.from as usize == u);
                match share_a_resource(sends.map(|s| &s.uses[..])) {
                    true => 1,
                    false => adjacent[u].len() as u64,
                }
            })
            .max()
            .unwrap_or(0)
            .min(model.max_sends.map_or(u64::MAX, u64::from));
        Ok(Search {
            n,
            all: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
            model,
            into,
            dist,
            fanout,
            failed: HashMap::new(),
            used: vec![false; t.resources() as usize],
            sends: vec![0; n],
            states: 0,
            max_states,
            stop: None,
        })
    }

    /// The fewest rounds `informed` could need by counting (each informed
    /// node informs at most `fanout` a round) and, under store-and-forward,
    /// by distance.
    fn bound(&self, informed: u64) -> u32 {
        let mut have = u64::from(informed.count_ones());
        let mut counting = 0;
        while have < self.n as u64 {
            have = have.saturating_mul(self.fanout + 1);
            counting += 1;
            if self.fanout == 0 {
                return u32::MAX;
            }
        }
        let far = match self.model.wormhole {
            true => 0,
            false => (0..self.n)
                .filter(|v| informed >> v & 1 == 0)
                .map(|v| {
                    bits(informed)
                        .map(|u| self.dist[u][v])
                        .min()
                        .unwrap_or(u32::MAX)
                })
                .max()
                .unwrap_or(0),
        };
        u32::max(counting, far)
    }

    /// Whether `informed` can inform everyone in `left` rounds; on success
    /// `witness` holds the rounds, last first.
    fn feasible(
        &mut self,
        informed: u64,
        left: u32,
        witness: &mut Vec<Round>,
    ) -> Result<bool, SearchError> {
        if informed == self.all {
            return Ok(true);
        }
        if left == 0 || (self.model.bounds && self.bound(informed) > left) {
            return Ok(false);
        }
        if self.failed.get(&informed).is_some_and(|&r| r >= left) {
            return Ok(false);
        }
        self.states += 1;
        if self.stop.as_ref().is_some_and(|s| s.stopped()) {
            return Err(SearchError::Stopped);
        }
        if self.states > self.max_states {
            return Err(SearchError::Budget {
                max_states: self.max_states,
            });
        }
        if left == 1 {
            let mut round = Vec::new();
            let idle: Vec<usize> = (0..self.n).filter(|v| informed >> v & 1 == 0).collect();
            if self.cover(informed, &idle, &mut round) {
                witness.push(round);
                return Ok(true);
            }
        } else {
            for (next, round) in self.rounds(informed) {
                if self.feasible(informed | next, left - 1, witness)? {
                    witness.push(round);
                    return Ok(true);
                }
            }
        }
        // A stopped enumeration is partial: it proves nothing.
        if self.stopped() {
            return Err(SearchError::Stopped);
        }
        let r = self.failed.entry(informed).or_insert(0);
        *r = (*r).max(left);
        Ok(false)
    }

    /// Whether the caller asked the search to end.
    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.stopped())
    }

    /// Whether every node of `idle` can be reached in one round from
    /// `informed`: the receiver with fewest free sends is placed first,
    /// and a branch ends where even sends that occupied only their first
    /// (or only their last) resource could not reach every receiver (a
    /// matching).
    fn cover(&mut self, informed: u64, idle: &[usize], round: &mut Round) -> bool {
        if self.stopped() {
            return false;
        }
        if !self.matched(informed, idle, |s| s.first) || !self.matched(informed, idle, |s| s.last) {
            return false;
        }
        let Some((at, _)) = idle
            .iter()
            .enumerate()
            .map(|(i, &v)| (i, self.open(informed, v).count()))
            .min_by_key(|&(_, c)| c)
        else {
            return true;
        };
        let v = idle[at];
        let rest: Vec<usize> = idle.iter().copied().filter(|&w| w != v).collect();
        for i in self.open(informed, v).collect::<Vec<_>>() {
            self.take(v, i);
            let s = &self.into[v][i];
            round.push((s.from, s.to));
            if self.cover(informed, &rest, round) {
                self.give(v, i);
                return true;
            }
            round.pop();
            self.give(v, i);
        }
        false
    }

    /// Every receiver set of a maximal round from `informed`, none inside
    /// another, largest first, each with one assignment that makes it.
    fn rounds(&mut self, informed: u64) -> Vec<(u64, Round)> {
        let reachable: Vec<usize> = (0..self.n)
            .filter(|&v| informed >> v & 1 == 0 && self.open(informed, v).next().is_some())
            .collect();
        let mut found: HashMap<u64, Round> = HashMap::new();
        match self.model.max_sends {
            // k >= 2 sends a node is no pairwise conflict: every
            // assignment, kept where maximal (small sizes only).
            Some(k) if k >= 2 => {
                let mut round = Vec::new();
                self.assign(informed, &reachable, 0, 0, &mut round, &mut found)
            }
            _ => self.cliques(informed, &reachable, &mut found),
        }
        let mut sets: Vec<(u64, Round)> = found.into_iter().collect();
        sets.sort_by_key(|(r, _)| (std::cmp::Reverse(r.count_ones()), *r));
        let mut kept: Vec<(u64, Round)> = Vec::new();
        for (r, round) in sets {
            if !kept.iter().any(|(k, _)| r & k == r) {
                kept.push((r, round));
            }
        }
        kept
    }

    /// The maximal rounds where conflicts are pairwise (shared resources,
    /// a shared receiver, a one-send node's two sends): the maximal
    /// cliques of the compatibility graph of the possible sends, by
    /// Bron-Kerbosch with pivoting.
    fn cliques(&self, informed: u64, reachable: &[usize], found: &mut HashMap<u64, Round>) {
        let sends: Vec<&Send> = reachable
            .iter()
            .flat_map(|&v| self.open(informed, v).map(move |i| &self.into[v][i]))
            .collect();
        let m = sends.len();
        let one = self.model.max_sends == Some(1);
        let compatible: Vec<Bits> = (0..m)
            .map(|a| {
                let mut b = Bits::new(m);
                for (c, t) in sends.iter().enumerate() {
                    let s = sends[a];
                    let clash = c == a
                        || s.to == t.to
                        || (one && s.from == t.from)
                        || s.uses.iter().any(|r| t.uses.binary_search(r).is_ok());
                    if !clash {
                        b.set(c);
                    }
                }
                b
            })
            .collect();
        let mut all = Bits::new(m);
        (0..m).for_each(|c| all.set(c));
        let mut clique = Vec::new();
        let stopped = || self.stopped();
        bron_kerbosch(
            &compatible,
            &mut clique,
            all,
            Bits::new(m),
            &stopped,
            &mut |c| {
                let got = c.iter().fold(0u64, |g, &i| g | 1 << sends[i].to);
                found
                    .entry(got)
                    .or_insert_with(|| c.iter().map(|&i| (sends[i].from, sends[i].to)).collect());
            },
        );
    }

    fn assign(
        &mut self,
        informed: u64,
        reachable: &[usize],
        at: usize,
        got: u64,
        round: &mut Round,
        found: &mut HashMap<u64, Round>,
    ) {
        if self.stopped() {
            return;
        }
        let Some(&v) = reachable.get(at) else {
            // Maximal: no receiver left out could still be reached.
            let maximal = reachable
                .iter()
                .all(|&w| got >> w & 1 == 1 || self.open(informed, w).next().is_none());
            if maximal {
                found.entry(got).or_insert_with(|| round.clone());
            }
            return;
        };
        for i in self.open(informed, v).collect::<Vec<_>>() {
            self.take(v, i);
            let s = &self.into[v][i];
            round.push((s.from, s.to));
            self.assign(informed, reachable, at + 1, got | 1 << v, round, found);
            round.pop();
            self.give(v, i);
        }
        self.assign(informed, reachable, at + 1, got, round, found);
    }

    /// Whether each node of `idle` can be given a free send of its own,
    /// no two with the same `key` resource (augmenting paths).
    fn matched(&self, informed: u64, idle: &[usize], key: fn(&Send) -> ResourceId) -> bool {
        let options: Vec<Vec<ResourceId>> = idle
            .iter()
            .map(|&v| {
                self.open(informed, v)
                    .map(|i| key(&self.into[v][i]))
                    .collect()
            })
            .collect();
        let mut owner: HashMap<ResourceId, usize> = HashMap::new();
        fn augment(
            v: usize,
            options: &[Vec<ResourceId>],
            owner: &mut HashMap<ResourceId, usize>,
            seen: &mut Vec<ResourceId>,
        ) -> bool {
            for &r in &options[v] {
                if seen.contains(&r) {
                    continue;
                }
                seen.push(r);
                let free = match owner.get(&r) {
                    None => true,
                    Some(&w) => augment(w, options, owner, seen),
                };
                if free {
                    owner.insert(r, v);
                    return true;
                }
            }
            false
        }
        (0..idle.len()).all(|v| augment(v, &options, &mut owner, &mut Vec::new()))
    }

    /// The sends into `v` from informed nodes whose resources and port
    /// budget are free now.
    fn open(&self, informed: u64, v: usize) -> impl Iterator<Item = usize> + '_ {
        self.into[v].iter().enumerate().filter_map(move |(i, s)| {
            let free = informed >> s.from & 1 == 1
                && self
                    .model
                    .max_sends
                    .is_none_or(|k| self.sends[s.from as usize] < k)
                && s.uses.iter().all(|&r| !self.used[r as usize]);
            free.then_some(i)
        })
    }

    fn take(&mut self, v: usize, i: usize) {
        let s = &self.into[v][i];
        self.sends[s.from as usize] += 1;
        for &r in &s.uses {
            self.used[r as usize] = true;
        }
    }

    fn give(&mut self, v: usize, i: usize) {
        let s = &self.into[v][i];
        self.sends[s.from as usize] -= 1;
        for &r in &s.uses {
            self.used[r as usize] = false;
        }
    }
}

/// Reports every maximal clique of `compatible` that extends `clique`
/// with nodes of `p` and none of `x` (some only, once `stopped`).
fn bron_kerbosch(
    compatible: &[Bits],
    clique: &mut Vec<usize>,
    mut p: Bits,
    mut x: Bits,
    stopped: &dyn Fn() -> bool,
    report: &mut impl FnMut(&[usize]),
) {
    if stopped() {
        return;
    }
    if p.is_empty() {
        if x.is_empty() {
            report(clique);
        }
        return;
    }
    let pivot = p
        .iter()
        .chain(x.iter())
        .max_by_key(|&u| p.and(&compatible[u]).count())
        .expect("p is not empty");
    for v in p.and_not(&compatible[pivot]).iter().collect::<Vec<_>>() {
        clique.push(v);
        bron_kerbosch(
            compatible,
            clique,
            p.and(&compatible[v]),
            x.and(&compatible[v]),
            stopped,
            report,
        );
        clique.pop();
        p.clear(v);
        x.set(v);
    }
}

/// A set of small integers.
#[derive(Clone)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    fn and(&self, o: &Bits) -> Bits {
        Bits(self.0.iter().zip(&o.0).map(|(a, b)| a & b).collect())
    }
    fn and_not(&self, o: &Bits) -> Bits {
        Bits(self.0.iter().zip(&o.0).map(|(a, b)| a & !b).collect())
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &b)| {
            (0..64)
                .filter(move |i| b >> i & 1 == 1)
                .map(move |i| w * 64 + i)
        })
    }
}

/// The nodes of a set.
fn bits(set: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |i| set >> i & 1 == 1)
}
