//! The search over MPI ranks (`--features mpi`, under mpirun): each state
//! is owned by the rank its fingerprint names, a rank expands only the
//! states it owns, and successors owned by another rank travel to it in
//! batches: the design of the published distributed explicit-state
//! checkers (Stern and Dill's parallel Murphi, PReach, DiVinE).
//!
//! The search goes in rounds. In a round each rank expands at most
//! [`CHUNK`] states of its own, newest first, hands its batches to their
//! owners in one collective exchange, and the ranks sum the states left
//! to expand. After the exchange no state is in flight, so "no rank has
//! a state left" is sound termination: a synchronous round needs no token
//! (Dijkstra's, Safra's).
//!
//! What a rank keeps: its share of the visited fingerprints (the same
//! table as the one-process search, 8 bytes a state), and a stack of the
//! states it owns and has not expanded, as bytes, each with its input and
//! its path (the successor indices from the initial state). Newest first
//! keeps the stack near a depth-first search's (the depth times the new
//! successors a state has), where breadth first would keep whole levels.
//! Paths travel with states,
//! so a violation found on any rank comes with the path the report
//! replays, and no rank keeps a parent table. A direct-mapped table of
//! the fingerprints lately sent keeps a rank from building and sending a
//! successor it has sent before (most successors are states seen before).
//!
//! The counts are the one-process search's: every reachable state is
//! visited once, by its owner, and expanded once, so the distinct states,
//! the generated successors, the worst times and every verdict are the
//! same. A state is judged when it is expanded; at a cut the states
//! visited but not yet expanded are judged before the report, so a
//! report so far covers every state visited. The counterexample comes
//! from the lowest input, as one process's does; its path may differ
//! (the ranks meet states in another order), and both replay to the
//! violation.

use super::{Cut, Found, Limits, Progress, Shared, Space, AHEAD};
use crate::engine::group::{amount, wire, World};
use crate::engine::memory::peak_resident;
use std::collections::BTreeSet;
use std::sync::atomic::Ordering::Relaxed;

/// States a rank expands in one round, at most: enough work that the
/// round's collectives cost little beside it, few enough that a budget
/// binds within a round of its running out.
const CHUNK: usize = 1 << 14;

/// Bytes a rank hands the others in one round, about (a round ends after
/// the state that passes it), at most.
pub const BATCH: usize = 4 << 20;

/// Slots of the table of fingerprints lately sent, at most (a power of
/// two).
pub const SENT: usize = 1 << 20;

/// The part of a rank's memory allowance each of its own buffers (the
/// batches, the table of fingerprints sent) may take: a small budget a
/// rank is spent on states (the received batches are as large again).
const BUFFER_SHARE: u64 = 64;

/// The round's batch bytes and the sent-table's slots for a rank allowed
/// `allowance` bytes.
pub fn buffers(allowance: Option<u64>) -> (usize, usize) {
    let share = allowance.map_or(u64::MAX, |b| b / BUFFER_SHARE);
    let batch = share.clamp(64 << 10, BATCH as u64) as usize;
    let slots = (share / 8).clamp(1 << 12, SENT as u64) as usize;
    // The largest power of two that fits.
    (batch, 1 << slots.ilog2())
}

/// Successors between two looks at the budgets.
const CHECK: u64 = 32;

/// The rank that owns a state: its fingerprint's high bits (the visited
/// table indexes by the low bits, which stay uniform within a rank).
fn owner(fp: u64, ranks: usize) -> usize {
    (((fp >> 32) * ranks as u64) >> 32) as usize
}

/// A state to expand: one this rank made, with its input and its path
/// from the initial state; or the bytes of one another rank handed over
/// (input, path and [`Space::encode`]), read when its turn comes. Made
/// states skip the bytes (one process's speed on one rank); handed ones
/// wait compactly (most of what waits, over several ranks).
enum Entry<S> {
    Made {
        input: usize,
        path: Vec<u64>,
        state: S,
    },
    Handed(Vec<u8>),
}

/// One rank's side of the search.
struct Rank<'a, Sp: Space> {
    world: &'a World,
    shared: Shared<'a, Sp>,
    /// `--max-states`, over every rank's generated states.
    max_states: Option<u64>,
    /// What this rank's expanded states showed.
    found: Found,
    /// The states to expand, newest last.
    work: Vec<Entry<Sp::State>>,
    /// Per slot, the last fingerprint sent from it (slot i starts with a
    /// value whose own slot is not i).
    sent: Vec<u64>,
    /// Per rank, the batch for it this round; their bytes, about, at most.
    out: Vec<Vec<u8>>,
    batch: usize,
    /// Visited insertions not yet published to the table's length.
    unpublished: usize,
    /// This rank's generated successors, distinct states visited, and
    /// the longest path judged.
    generated: u64,
    unique: u64,
    depth: usize,
    /// Every rank's generated states, and this rank's, when this round
    /// began.
    generated_before: u64,
    mine_before: u64,
    /// Bytes handed to other ranks, the most states waiting to be
    /// expanded, and rounds.
    handed: u64,
    waiting: u64,
    rounds: u64,
}

/// Searches every input of `space` over the ranks of `world`; every rank
/// returns rank 0's merge of what all found.
pub(super) fn search<Sp: Space>(
    world: &World,
    space: &Sp,
    inputs: usize,
    limits: Limits,
    progress: &Progress,
) -> Found {
    // A rank is one worker: ranks are the parallelism (one a core). Ranks
    // search to the end: one rank's settled properties are not the world's.
    let one = Limits {
        threads: 1,
        max_states: None,
        settle: None,
        ..limits
    };
    let (batch, slots) = buffers(limits.memory.map(|a| a.bytes));
    let mut rank = Rank {
        world,
        shared: Shared::new(space, inputs, one, progress),
        max_states: limits.max_states,
        found: Found::default(),
        work: Vec::new(),
        sent: (0..slots).map(|i| (i ^ 1) as u64).collect(),
        out: vec![Vec::new(); world.size],
        batch,
        unpublished: 0,
        generated: 0,
        unique: 0,
        depth: 0,
        generated_before: 0,
        mine_before: 0,
        handed: 0,
        waiting: 0,
        rounds: 0,
    };
    let mut cut = rank.start();
    loop {
        if cut.is_none() {
            cut = rank.expand();
        }
        let batches = std::mem::replace(&mut rank.out, vec![Vec::new(); world.size]);
        rank.handed += batches.iter().map(|b| b.len() as u64).sum::<u64>();
        rank.rounds += 1;
        let got = world.exchange(batches);
        if cut.is_none() {
            cut = rank.receive(&got);
        }
        rank.waiting = rank.waiting.max(rank.work.len() as u64);
        let mine = [rank.work.len() as u64, rank.generated, rank.unique];
        let [left, generated, unique] = world.sum(&mine)[..] else {
            unreachable!("three sums")
        };
        cut = Cut::of_code(world.max(&[Cut::code(cut)])[0]);
        progress.generated.store(generated, Relaxed);
        progress.unique.store(unique, Relaxed);
        (rank.generated_before, rank.mine_before) = (generated, rank.generated);
        if cut.is_none() && rank.max_states.is_some_and(|m| generated >= m) {
            cut = Some(Cut::States);
        }
        if cut.is_some() || left == 0 {
            break;
        }
    }
    rank.finish(cut, inputs)
}

impl<Sp: Space> Rank<'_, Sp> {
    /// Visits the initial states this rank owns: the first level.
    fn start(&mut self) -> Option<Cut> {
        let space = self.shared.space;
        let mut buf = Vec::new();
        for ix in 0..self.shared.inputs {
            let init = space.init(ix);
            let fp = self.shared.fingerprint(&init, &mut buf);
            if owner(fp, self.world.size) != self.world.rank {
                continue;
            }
            match self.shared.visit(0, fp, &mut self.unpublished) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(why) => return Some(why),
            }
            self.generated += 1;
            self.unique += 1;
            self.work.push(Entry::Made {
                input: ix,
                path: Vec::new(),
                state: init,
            });
        }
        None
    }

    /// Expands up to [`CHUNK`] states of the current level, or until the
    /// batches pass their bytes ([`buffers`]) or a budget runs out.
    fn expand(&mut self) -> Option<Cut> {
        let space = self.shared.space;
        let (me, ranks) = (self.world.rank, self.world.size);
        let verify = self.shared.limits.verify_probes;
        let mut local = space.scratch();
        let mut buf = Vec::new();
        let mut entry = Vec::new();
        let mut ahead: Vec<Option<u64>> = Vec::with_capacity(AHEAD as usize);
        let mut child: Option<Sp::State> = None;
        let mut read: Option<Sp::State> = None;
        let (mut checks, mut expanded, mut batched) = (0u64, 0, 0);
        while expanded < CHUNK && batched < self.batch && !self.states_spent() {
            let Some(next) = self.work.pop() else {
                break;
            };
            let made;
            let (input, mut path, state) = match next {
                Entry::Made { input, path, state } => {
                    made = state;
                    (input, path, &made)
                }
                Entry::Handed(bytes) => {
                    let (input, path, state) = self.read(&bytes, &mut read);
                    (input, path, state)
                }
            };
            expanded += 1;
            self.depth = self.depth.max(path.len().max(1));
            let record = space.record(state);
            self.found.judge(record, input, || path.clone());
            let successors = space.successors(state);
            for k in 0..successors {
                // Every AHEAD successors, probe them all and prefetch the
                // visited slots of this rank's own, so that the table's
                // cache misses overlap (as the one-process worker does).
                if k % AHEAD == 0 {
                    ahead.clear();
                    for j in k..successors.min(k + AHEAD) {
                        let probed = self.shared.probed(state, j, &mut local, &mut buf);
                        if let Some(fp) = probed.filter(|&fp| owner(fp, ranks) == me) {
                            self.shared.visited.prefetch(fp);
                        }
                        ahead.push(probed);
                    }
                }
                self.generated += 1;
                if self.generated.is_multiple_of(CHECK) {
                    if let Some(why) = self.over_budget(&mut checks) {
                        return Some(why);
                    }
                }
                let probed = ahead[(k % AHEAD) as usize];
                let child = child.get_or_insert_with(|| state.clone());
                let mut built = false;
                let fp = match probed {
                    Some(fp) if !verify => fp,
                    _ => {
                        space.successor(state, k, child, &mut local);
                        built = true;
                        let fp = self.shared.fingerprint(child, &mut buf);
                        assert!(
                            probed.is_none_or(|p| p == fp),
                            "a probed successor has the fingerprint of the built one"
                        );
                        fp
                    }
                };
                let to = owner(fp, ranks);
                if to == me {
                    match self.shared.visit(0, fp, &mut self.unpublished) {
                        Ok(true) => self.unique += 1,
                        Ok(false) => continue,
                        Err(why) => return Some(why),
                    }
                } else {
                    let mask = self.sent.len() - 1;
                    let slot = &mut self.sent[fp as usize & mask];
                    if *slot == fp {
                        continue;
                    }
                    *slot = fp;
                }
                if !built {
                    space.successor(state, k, child, &mut local);
                }
                path.push(k);
                if to == me {
                    let path = path.clone();
                    let state = std::mem::replace(child, state.clone());
                    self.work.push(Entry::Made { input, path, state });
                } else {
                    entry.clear();
                    wire::append(&mut entry, &(input, &path));
                    space.encode(child, &mut entry);
                    let batch = &mut self.out[to];
                    batch.extend_from_slice(&fp.to_le_bytes());
                    batch.extend_from_slice(&(entry.len() as u32).to_le_bytes());
                    batch.extend_from_slice(&entry);
                    batched += 12 + entry.len();
                }
                path.pop();
            }
        }
        None
    }

    /// Why this rank must stop now, if it must: the one-process search's
    /// budgets but the states (see `states_spent`).
    fn over_budget(&mut self, checks: &mut u64) -> Option<Cut> {
        *checks += 1;
        if checks.is_multiple_of(64) {
            self.shared.memory.probe();
        }
        self.shared.over_budget()
    }

    /// True if the ranks may have generated `--max-states` states by now,
    /// counting the others as generating as fast as this one this round:
    /// the round ends, and the search stops where the sum says they have.
    fn states_spent(&self) -> bool {
        let this_round = self.generated - self.mine_before;
        let all = self.generated_before + this_round * self.world.size as u64;
        self.max_states.is_some_and(|m| all >= m)
    }

    /// The input, path and state of a handed entry, the state read into
    /// `into` (made from the first input's initial state the first time).
    fn read<'s>(
        &self,
        mut bytes: &[u8],
        into: &'s mut Option<Sp::State>,
    ) -> (usize, Vec<u64>, &'s Sp::State) {
        let space = self.shared.space;
        let (input, path): (usize, Vec<u64>) = wire::take(&mut bytes);
        let state = into.get_or_insert_with(|| space.init(input));
        space.decode(&mut bytes, state);
        (input, path, state)
    }

    /// Visits the states other ranks handed this one: the new ones are
    /// to expand.
    fn receive(&mut self, got: &[Vec<u8>]) -> Option<Cut> {
        for (from, batch) in got.iter().enumerate() {
            if from == self.world.rank {
                continue;
            }
            let mut at = 0;
            while at < batch.len() {
                let fp = u64::from_le_bytes(batch[at..at + 8].try_into().expect("8 bytes"));
                let len = u32::from_le_bytes(batch[at + 8..at + 12].try_into().expect("4 bytes"));
                let entry = &batch[at + 12..at + 12 + len as usize];
                at += 12 + len as usize;
                match self.shared.visit(0, fp, &mut self.unpublished) {
                    Ok(true) => {
                        self.unique += 1;
                        self.work.push(Entry::Handed(entry.to_vec()));
                    }
                    Ok(false) => {}
                    Err(why) => return Some(why),
                }
            }
        }
        None
    }

    /// Judges the states visited but not expanded (after a cut), gathers
    /// what every rank found at rank 0, and hands rank 0's merge to all.
    fn finish(mut self, cut: Option<Cut>, inputs: usize) -> Found {
        let space = self.shared.space;
        let mut pending = BTreeSet::<usize>::new();
        let mut read = None;
        for entry in std::mem::take(&mut self.work) {
            let (input, path, state) = match entry {
                Entry::Made { input, path, state } => (input, path, state),
                Entry::Handed(bytes) => {
                    let (input, path, state) = self.read(&bytes, &mut read);
                    (input, path, state.clone())
                }
            };
            self.depth = self.depth.max(path.len().max(1));
            self.found.judge(space.record(&state), input, || path);
            pending.insert(input);
        }
        let [generated, unique] = self.world.sum(&[self.generated, self.unique])[..] else {
            unreachable!("two sums")
        };
        let mine = (
            std::mem::take(&mut self.found),
            self.depth,
            pending,
            peak_resident(),
            self.handed,
            self.rounds,
            self.waiting,
        );
        let all = self.world.gather(&mine);
        let merged = all.map(|all| {
            let mut found = Found::default();
            let mut pending = BTreeSet::<usize>::new();
            for (f, depth, p, ..) in &all {
                found.merge(f.clone());
                found.depth = found.depth.max(*depth);
                pending.extend(p);
            }
            found.cut = cut;
            found.unique = unique;
            found.generated = generated;
            found.inputs_done = inputs - pending.len();
            let peaks = all.iter().map(|p| p.3);
            eprintln!(
                "note: over {} ranks: peak memory per rank {} to {}; states waiting on a rank \
                 at most {}; handed between ranks {} in {} rounds",
                all.len(),
                amount(peaks.clone().min().unwrap_or(0)),
                amount(peaks.max().unwrap_or(0)),
                all.iter().map(|p| p.6).max().unwrap_or(0),
                amount(all.iter().map(|p| p.4).sum()),
                all[0].5,
            );
            found
        });
        let found: Found = self.world.from_first(merged);
        let progress = self.shared.progress;
        progress.generated.store(found.generated, Relaxed);
        progress.unique.store(found.unique, Relaxed);
        progress.depth.store(found.depth, Relaxed);
        progress.inputs_done.store(found.inputs_done, Relaxed);
        found
    }
}
