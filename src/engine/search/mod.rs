//! commcheck's explicit-state search: a depth-first search over a state
//! space whose successors are generated lazily, one at a time, so that
//! every budget binds.
//!
//! stateright's checker builds all of a state's successors before it looks
//! at a budget, keeps them all on its queue, checks its state target every
//! 1500 states and cannot be interrupted; a lock-step slot of NOB at n = 11
//! has millions of rule-3 combinations, so one state blew 10 GB before any
//! budget was read. Here a stack frame is a state plus the index of its
//! next successor: memory is the visited set (one 64-bit fingerprint per
//! state) plus one state per level of depth, and every budget (generated
//! states, time, memory, an interrupt) is looked at between two successors.
//!
//! The judgement is the models' own: every state carries the run's
//! [`Record`], a property is violated where the record says so, and the
//! run ends where the record says it ended. The lock-step model is also a
//! stateright `Model` (for the Explorer); its successor `k` here is
//! stateright's action `k`, so a path found here is an Explorer path, and
//! a test checks that both searches count the same states.
//!
//! With several threads, workers share the visited set (sharded by the
//! fingerprint's top bits) and a pool of jobs; an idle worker starts the
//! next input, or when none is left is fed by splitting the remaining
//! successors of the oldest frame of a busy one.

#[cfg(feature = "mpi")]
#[doc(hidden)] // public for tests/parts only
pub mod sharded;

use super::memory::{growth, process_memory, Allowance};
use super::visited::{Visited, PUBLISH};
use ahash::RandomState;
use properties::{Load, PropertyName, Record, Slot, Violation};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// A state space: initial states (one per input) and lazily indexed
/// successors, each state carrying its run's record.
pub trait Space: Sync {
    /// A state: hashed into the visited set, handed between workers.
    type State: Clone + Hash + Send + Sync;
    /// Per-worker scratch space for making successors.
    type Scratch: Send;

    /// A fresh scratch space.
    fn scratch(&self) -> Self::Scratch;

    /// The initial state of input `ix`.
    fn init(&self, ix: usize) -> Self::State;

    /// How many successors `state` has (saturating at u64::MAX); none once
    /// the run has ended.
    fn successors(&self, state: &Self::State) -> u64;

    /// Writes successor `k` of `state` (for `k < successors(state)`) into
    /// `into`, a state of the same space whose allocations it may reuse
    /// (most successors are states seen before, dropped at once).
    fn successor(
        &self,
        state: &Self::State,
        k: u64,
        into: &mut Self::State,
        scratch: &mut Self::Scratch,
    );

    /// Writes into `h` exactly what hashing successor `k` would write,
    /// without building it, and returns true; or returns false where the
    /// space cannot (then the successor is built and hashed).
    fn probe(
        &self,
        state: &Self::State,
        k: u64,
        scratch: &mut Self::Scratch,
        h: &mut Collect,
    ) -> bool {
        let _ = (state, k, scratch, h);
        false
    }

    /// The record of the run so far.
    fn record<'a>(&self, state: &'a Self::State) -> &'a Record;

    /// Appends `state`'s bytes to `out`: ranks of one search hand states
    /// to their owners (docs/scale.md).
    #[cfg(feature = "mpi")]
    fn encode(&self, state: &Self::State, out: &mut Vec<u8>);

    /// Reads into `into` the state that [`Space::encode`] wrote at the
    /// front of `bytes`, and advances `bytes` past it.
    #[cfg(feature = "mpi")]
    fn decode(&self, bytes: &mut &[u8], into: &mut Self::State);
}

/// Set by the Ctrl-C handler: every search and run stops at its next
/// budget check and reports what it has.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Why a search stopped before it was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Cut {
    /// Every property the search had to settle was violated
    /// ([`Limits::settle`]); the others were not searched on.
    Settled,
    /// `--max-states` generated states.
    States,
    /// `--timeout`.
    Time,
    /// The memory allowance (`--max-memory`, or what the machine allows).
    Memory,
    /// Ctrl-C.
    Interrupted,
}

impl Cut {
    /// Every cut, in the order of [`Cut::code`] (the largest code wins).
    const ALL: [Cut; 5] = [
        Cut::Settled,
        Cut::States,
        Cut::Time,
        Cut::Memory,
        Cut::Interrupted,
    ];

    /// The cut as a number every rank can take the largest of (0: none).
    pub fn code(cut: Option<Cut>) -> u64 {
        cut.map_or(0, |c| {
            1 + Cut::ALL.iter().position(|&a| a == c).expect("listed") as u64
        })
    }

    /// The cut [`Cut::code`] numbered.
    pub fn of_code(code: u64) -> Option<Cut> {
        let last = Cut::ALL.len() as u64;
        (code > 0).then(|| Cut::ALL[(code.min(last) - 1) as usize])
    }

    /// The cut's name in JSON reports.
    pub fn name(self) -> &'static str {
        match self {
            Cut::Settled => "settled",
            Cut::States => "max-states",
            Cut::Time => "timeout",
            Cut::Memory => "max-memory",
            Cut::Interrupted => "interrupted",
        }
    }

    /// The reason, as reports word it.
    pub fn reason(self) -> &'static str {
        match self {
            Cut::Settled => {
                "every claimed property had its verdict (--observe-all searches on for the others)"
            }
            Cut::States => "the state budget (--max-states) ran out",
            Cut::Time => "the time budget (--timeout) ran out",
            Cut::Memory => "the memory allowance (--max-memory) would have been exceeded",
            Cut::Interrupted => "interrupted (Ctrl-C or SIGTERM)",
        }
    }
}

/// What a search may spend.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Worker threads.
    pub threads: usize,
    /// Generated states after which the search stops.
    pub max_states: Option<u64>,
    /// When the search stops (None: no deadline, also for durations too
    /// long to add to the clock).
    pub deadline: Option<Instant>,
    /// Memory the search may add to the process.
    pub memory: Option<Allowance>,
    /// Build every successor, also the probed ones, and assert that the
    /// two fingerprints agree (tests).
    pub verify_probes: bool,
    /// Properties (bit `p as usize` of each [`PropertyName`]) whose
    /// violation is all the search is for: once each is violated it stops
    /// ([`Cut::Settled`]; at once where the set is empty). None: it
    /// searches to the end.
    pub settle: Option<u64>,
}

/// Counters a progress display reads while the search runs, and when a
/// run without a budget of its own (the executor's) must stop.
#[derive(Debug, Default)]
pub struct Progress {
    /// States generated (node steps for the executor).
    pub generated: AtomicU64,
    /// Distinct states seen.
    pub unique: AtomicU64,
    /// The deepest state reached (the slot for the executor).
    pub depth: AtomicUsize,
    /// Inputs explored to the end.
    pub inputs_done: AtomicUsize,
    /// Inputs to explore.
    pub inputs_total: AtomicUsize,
    /// The executor's expected last slot: the claimed bound, else the
    /// horizon (0: not known yet).
    pub slots: AtomicUsize,
    /// `--timeout` for the executor.
    pub deadline: Option<Instant>,
}

impl Progress {
    /// Why a run must stop now, if it must: Ctrl-C or the deadline.
    pub fn stop(&self) -> Option<Cut> {
        if INTERRUPTED.load(Relaxed) {
            Some(Cut::Interrupted)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Cut::Time)
        } else {
            None
        }
    }
}

/// A violation found, with the path to it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Discovery {
    /// The input (initial state) the path starts from.
    pub input: usize,
    /// Successor indices from the initial state (stateright action indices
    /// for the lock-step model).
    pub path: Vec<u64>,
    /// What the state at the path's end violates.
    pub violation: Violation,
}

/// What a search found.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Found {
    /// The first discovery of each property, in `PropertyName::ALL` order.
    pub discoveries: [Option<Discovery>; PropertyName::ALL.len()],
    /// Some run ended (the model is not vacuous).
    pub run_ends: bool,
    /// Distinct states seen.
    pub unique: u64,
    /// States generated (repeats included).
    pub generated: u64,
    /// The deepest state reached (slots for the lock-step model).
    pub depth: usize,
    /// Inputs explored to the end.
    pub inputs_done: usize,
    /// Why the search stopped early, if it did.
    pub cut: Option<Cut>,
    /// Worst completion time over every ended run.
    pub worst_time: Option<Slot>,
    /// Latest termination (last delivery, copies included) over every
    /// ended run.
    pub worst_termination: Option<Slot>,
    /// The lowest input whose run took `worst_time`.
    pub worst_input: Option<usize>,
    /// Fewest and most transmissions over every ended run.
    pub transmissions: Option<(u64, u64)>,
    /// Most control messages in an ended run.
    pub control: u64,
    /// The most transmissions on one resource in one slot, over every
    /// run (where more than one).
    pub load: Option<Load>,
    /// Each input's fastest and slowest completion time over its runs
    /// (distributions; the slots an input forces).
    pub by_input: std::collections::BTreeMap<usize, (Slot, Slot)>,
}

impl Found {
    /// Notes what a state's `record` shows: the first discovery of each
    /// property it violates from the lowest input (with the path, made only if needed), and,
    /// for an ended run, its completion time and counts. Returns the
    /// properties (bit `p as usize`) discovered here for the first time.
    fn judge(&mut self, record: &Record, input: usize, path: impl FnOnce() -> Vec<u64>) -> u64 {
        let (mut path, mut made) = (Some(path), None::<Vec<u64>>);
        let mut first = 0;
        for p in PropertyName::ALL {
            let Some(violation) = record.violation(p) else {
                continue;
            };
            let known = &self.discoveries[p as usize];
            first |= (known.is_none() as u64) << p as usize;
            // The lowest input's (a worker may take a job of a lower input
            // later; a rank's breadth-first levels mix inputs).
            if known.as_ref().is_none_or(|d| input < d.input) {
                let path = made
                    .get_or_insert_with(|| path.take().expect("made once")())
                    .clone();
                self.discoveries[p as usize] = Some(Discovery {
                    input,
                    path,
                    violation,
                });
            }
        }
        self.load = most_load(self.load, record.load());
        if record.ended {
            self.run_ends = true;
            let t = record.completion;
            self.worst_termination = self.worst_termination.max(Some(record.last_delivery));
            if Some(t) > self.worst_time
                || (Some(t) == self.worst_time && self.worst_input.is_some_and(|w| input < w))
            {
                self.worst_input = Some(input);
            }
            self.worst_time = self.worst_time.max(Some(t));
            let span = self.by_input.entry(input).or_insert((t, t));
            *span = (span.0.min(t), span.1.max(t));
            self.control = self.control.max(record.control);
            let n = record.transmissions;
            self.transmissions = Some(
                self.transmissions
                    .map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))),
            );
        }
        first
    }

    /// Folds in what another worker found, independent of which finished
    /// first.
    fn merge(&mut self, other: Found) {
        // The lowest input's, then the shorter: inputs run side by side,
        // and which worker finishes first should not pick the report's
        // counterexample.
        let key = |d: &Discovery| (d.input, d.path.len());
        for (mine, theirs) in self.discoveries.iter_mut().zip(other.discoveries) {
            if let Some(t) = theirs {
                if mine.as_ref().is_none_or(|m| key(&t) < key(m)) {
                    *mine = Some(t);
                }
            }
        }
        self.run_ends |= other.run_ends;
        if (other.worst_time, std::cmp::Reverse(other.worst_input))
            > (self.worst_time, std::cmp::Reverse(self.worst_input))
        {
            self.worst_input = other.worst_input;
        }
        self.worst_time = self.worst_time.max(other.worst_time);
        self.worst_termination = self.worst_termination.max(other.worst_termination);
        self.transmissions = match (self.transmissions, other.transmissions) {
            (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
            (a, b) => a.or(b),
        };
        self.control = self.control.max(other.control);
        self.load = most_load(self.load, other.load);
        for (input, (lo, hi)) in other.by_input {
            let span = self.by_input.entry(input).or_insert((lo, hi));
            *span = (span.0.min(lo), span.1.max(hi));
        }
    }
}

/// The larger of two loads (on a tie, the earlier slot's, then the lower
/// resource's: the same whichever worker found which).
pub fn most_load(a: Option<Load>, b: Option<Load>) -> Option<Load> {
    let key = |l: &Load| (l.most, std::cmp::Reverse((l.slot, l.resource)));
    match (a, b) {
        (Some(x), Some(y)) => Some(if key(&y) > key(&x) { y } else { x }),
        (x, y) => x.or(y),
    }
}

/// Memory the search may still take: what it has taken since `base` (the
/// larger of resident and address-space growth) against the allowance.
struct MemoryGuard {
    /// Resident and virtual size when the allowance was given (else when
    /// the search started).
    base: (u64, u64),
    /// What the search may add (None: no limit known).
    allowance: Option<Allowance>,
    /// Bytes promised to set growths since the last probe.
    promised: AtomicU64,
    /// Growth measured at the last probe.
    measured: AtomicU64,
}

impl MemoryGuard {
    /// Measures the growth now, and forgets the promises it covers.
    fn probe(&self) {
        let grown = growth(self.base, self.allowance.is_some_and(|a| a.address_space));
        self.measured.store(grown, Relaxed);
        self.promised.store(0, Relaxed);
    }

    /// True if `bytes` more still fit.
    fn fits(&self, bytes: u64) -> bool {
        self.allowance.is_none_or(|a| {
            self.measured.load(Relaxed) + self.promised.load(Relaxed) + bytes <= a.bytes
        })
    }
}

/// Successors probed ahead of their lookup.
const AHEAD: u64 = 16;

/// A state with the successors still to explore.
struct Frame<S> {
    /// The state.
    state: S,
    /// Its next successor index to explore.
    next: u64,
    /// One past its last successor index this frame explores (a split
    /// frame explores part of them).
    end: u64,
    /// The successor index that led here from the frame below.
    via: u64,
    /// Successors probed ahead (index, fingerprint), the next one last.
    ahead: Vec<(u64, u64)>,
}

/// Work for an idle worker: a frame split off a busy one, with its path.
struct Job<S> {
    /// The input the frame's run starts from.
    input: usize,
    /// Path from the initial state to `frame.state`.
    path: Vec<u64>,
    /// The split-off frame.
    frame: Frame<S>,
}

/// Jobs, how many workers are idle, the next input to start and, per
/// input under way, its jobs not yet finished.
struct Pool<S> {
    /// Jobs waiting for a worker.
    jobs: Vec<Job<S>>,
    /// Workers waiting for a job.
    idle: usize,
    /// The next input to start.
    next: usize,
    /// Per input under way, its jobs not yet finished.
    live: HashMap<usize, usize>,
}

/// What all workers share while searching.
struct Shared<'a, Sp: Space> {
    /// The state space searched.
    space: &'a Sp,
    /// What the search may spend.
    limits: Limits,
    /// Counters for the display, and the stop signal.
    progress: &'a Progress,
    /// Fingerprints states (one hasher, so workers agree).
    hasher: RandomState,
    /// Fingerprints of the states seen.
    visited: Visited,
    /// What memory the search may still take.
    memory: MemoryGuard,
    /// The inputs to search, in order.
    inputs: usize,
    /// Jobs and inputs to hand out.
    pool: Mutex<Pool<Sp::State>>,
    /// Idle workers with no job to take (a hint for splitting).
    waiting: AtomicUsize,
    /// Wakes idle workers when a job is posted or the search ends.
    wake: Condvar,
    /// Why the search stopped early, once it has.
    stop: Mutex<Option<Cut>>,
    /// Set with `stop`, read without its lock in the hot loop.
    stopping: AtomicBool,
    /// What the workers found, folded in as each ends.
    found: Mutex<Found>,
    /// The properties some worker has found violated (bit per property).
    violated: AtomicU64,
}

/// Collects what `Hash` writes, so that a state is hashed in one pass over
/// its bytes rather than one hasher round per field.
pub struct Collect<'a>(pub &'a mut Vec<u8>);

impl Hasher for Collect<'_> {
    fn finish(&self) -> u64 {
        unreachable!("the collected bytes are hashed, not this")
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

impl<Sp: Space> Shared<'_, Sp> {
    /// The state's 64-bit fingerprint (its identity in the visited set;
    /// `buf` is scratch space).
    fn fingerprint(&self, s: &Sp::State, buf: &mut Vec<u8>) -> u64 {
        buf.clear();
        s.hash(&mut Collect(buf));
        self.finish(buf)
    }

    /// The fingerprint of successor `k` of `state` without building it,
    /// if the space can probe it ([`Space::probe`]).
    #[inline]
    fn probed(
        &self,
        state: &Sp::State,
        k: u64,
        local: &mut Sp::Scratch,
        buf: &mut Vec<u8>,
    ) -> Option<u64> {
        buf.clear();
        (self.space.probe(state, k, local, &mut Collect(buf))).then(|| self.finish(buf))
    }

    /// The fingerprint of what a state's `Hash` wrote.
    #[inline]
    fn finish(&self, bytes: &[u8]) -> u64 {
        let mut h = self.hasher.build_hasher();
        h.write(bytes);
        h.finish()
    }

    /// Inserts a fingerprint for worker `w`; Ok(true) if new, Err if the
    /// set must grow and may not. `count` is the worker's insertions not
    /// yet published to the set.
    fn visit(&self, w: usize, fp: u64, count: &mut usize) -> Result<bool, Cut> {
        let fresh = self.visited.insert(w, fp);
        if fresh {
            *count += 1;
            if *count == PUBLISH {
                *count = 0;
                self.publish(w, PUBLISH)?;
            }
        }
        Ok(fresh)
    }

    /// Adds `count` insertions of worker `w` to the set's length, growing
    /// the table if it is due and the memory allows.
    fn publish(&self, w: usize, count: usize) -> Result<(), Cut> {
        if let Some(bytes) = self.visited.publish(count, self.limits.threads) {
            if !self.memory.fits(bytes) {
                return Err(Cut::Memory);
            }
            if self.visited.grow(w, self.limits.threads) {
                self.memory.promised.fetch_add(bytes, Relaxed);
            }
        }
        Ok(())
    }

    /// Stops the search for `why` (the first reason stays).
    fn cut(&self, why: Cut) {
        let mut stop = self.stop.lock().expect("stop lock");
        stop.get_or_insert(why);
        self.stopping.store(true, Relaxed);
        drop(stop);
        self.wake.notify_all();
    }

    /// Notes `first`, the properties a worker has just found violated for
    /// the first time, and stops the search once every property it must
    /// settle is violated.
    fn violations(&self, first: u64) {
        if first == 0 {
            return;
        }
        let all = self.violated.fetch_or(first, Relaxed) | first;
        if self.limits.settle.is_some_and(|s| all & s == s) {
            self.cut(Cut::Settled);
        }
    }

    /// Checks every budget; called every few successors.
    fn over_budget(&self) -> Option<Cut> {
        if INTERRUPTED.load(Relaxed) {
            return Some(Cut::Interrupted);
        }
        if self
            .limits
            .max_states
            .is_some_and(|n| self.progress.generated.load(Relaxed) >= n)
        {
            return Some(Cut::States);
        }
        let now = Instant::now();
        if self.limits.deadline.is_some_and(|d| now >= d) {
            return Some(Cut::Time);
        }
        if !self.memory.fits(0) {
            return Some(Cut::Memory);
        }
        None
    }

    /// Takes a job (`done`: the input of the job this worker finished):
    /// one from the pool, else the next input's first, else waits while
    /// others may still split one off. Inputs run side by side, one per
    /// idle worker: most are small, and feeding a worker by splitting costs
    /// more than such an input's whole search. None when every input is
    /// done, or on a cut.
    fn take(&self, w: usize, done: Option<usize>) -> Option<Job<Sp::State>> {
        // A worker growing the visited set may hold the pool's lock.
        self.visited.leave(w);
        let mut pool = self.pool.lock().expect("pool lock");
        if let Some(ix) = done {
            let live = pool.live.get_mut(&ix).expect("a job's input is under way");
            *live -= 1;
            if *live == 0 {
                pool.live.remove(&ix);
                self.progress.inputs_done.fetch_add(1, Relaxed);
            }
        }
        pool.idle += 1;
        loop {
            if self.stopping.load(Relaxed) {
                return None;
            }
            let job = pool.jobs.pop().or_else(|| self.start(w, &mut pool));
            if let Some(job) = job {
                pool.idle -= 1;
                self.waiting
                    .store(pool.idle - pool.jobs.len().min(pool.idle), Relaxed);
                return Some(job);
            }
            self.waiting.store(pool.idle, Relaxed);
            if pool.idle == self.limits.threads || self.stopping.load(Relaxed) {
                self.wake.notify_all();
                return None;
            }
            pool = self.wake.wait(pool).expect("pool lock");
        }
    }

    /// Starts the inputs from `pool.next` on: judges each initial state
    /// and returns the first job, or None when no input is left to start
    /// or a budget ran out.
    fn start(&self, w: usize, pool: &mut Pool<Sp::State>) -> Option<Job<Sp::State>> {
        while pool.next < self.inputs {
            if let Some(why) = self.over_budget() {
                self.cut(why);
                return None;
            }
            let ix = pool.next;
            pool.next += 1;
            let init = self.space.init(ix);
            let fp = self.fingerprint(&init, &mut Vec::new());
            let visited = self
                .visit(w, fp, &mut 0)
                .and_then(|fresh| self.publish(w, fresh as usize).map(|()| fresh));
            // This worker may wait in `take` next: it holds no flag there.
            self.visited.leave(w);
            let fresh = match visited {
                Err(why) => {
                    self.cut(why);
                    return None;
                }
                Ok(fresh) => fresh,
            };
            let end = if fresh {
                self.progress.unique.fetch_add(1, Relaxed);
                self.progress.generated.fetch_add(1, Relaxed);
                self.progress.depth.fetch_max(1, Relaxed);
                let first = self.found.lock().expect("found lock").judge(
                    self.space.record(&init),
                    ix,
                    Vec::new,
                );
                self.violations(first);
                self.space.successors(&init)
            } else {
                0
            };
            if end == 0 {
                self.progress.inputs_done.fetch_add(1, Relaxed);
                continue;
            }
            pool.live.insert(ix, 1);
            return Some(Job {
                input: ix,
                path: Vec::new(),
                frame: Frame {
                    state: init,
                    next: 0,
                    end,
                    via: 0,
                    ahead: Vec::new(),
                },
            });
        }
        None
    }

    /// True if some worker waits for work (read without the pool's lock:
    /// a stale answer only delays or adds one split).
    fn hungry(&self) -> bool {
        self.limits.threads > 1 && self.waiting.load(Relaxed) > 0
    }

    /// Worker `w`: takes jobs (or starts inputs) and explores them depth
    /// first until the search ends.
    fn worker(&self, w: usize) {
        let mut found = Found::default();
        let mut buf = Vec::new();
        let mut scratch: Option<Sp::State> = None;
        // Done frames' states and lists, for later successors and frames.
        let (mut spare_states, mut spare_aheads) = (Vec::new(), Vec::new());
        let mut local = self.space.scratch();
        let mut unpublished = 0;
        let mut since_check = 0u32;
        let (mut new_states, mut depth) = (0u64, 0usize);
        // The shared counters are one cache line that every worker writes:
        // added to every 32 successors it moved between the cores more
        // often than the visited set's lines (BENCHMARKS.md). The state
        // budget reads them, so it keeps them counted every 32.
        let mut unshared = 0u64;
        let share_every = if self.limits.max_states.is_some() {
            32
        } else {
            1024
        };
        let mut since_probe = 0u32;
        let mut done = None;
        'jobs: while let Some(job) = self.take(w, done.take()) {
            let (input, base) = (job.input, job.path);
            let mut stack = vec![job.frame];
            while let Some(top) = stack.last_mut() {
                if top.ahead.is_empty() {
                    if top.next == top.end {
                        // The done frame's vectors make later successors
                        // and frames: a state allocated and freed per new
                        // state was 8 % of sbt 5's search (BENCHMARKS.md).
                        let done = stack.pop().expect("the top frame");
                        spare_states.push(done.state);
                        spare_aheads.push(done.ahead);
                        continue;
                    }
                    if !self.limits.verify_probes {
                        self.probe_ahead(top, &mut local, &mut buf);
                    }
                }
                let (k, known) = match top.ahead.pop() {
                    Some((k, fp)) => (k, Some(fp)),
                    None => {
                        top.next += 1;
                        (top.next - 1, None)
                    }
                };
                since_check += 1;
                if since_check == 32 {
                    since_check = 0;
                    unshared += 32;
                    if unshared >= share_every {
                        self.progress.generated.fetch_add(unshared, Relaxed);
                        self.progress.unique.fetch_add(new_states, Relaxed);
                        self.progress.depth.fetch_max(depth, Relaxed);
                        (unshared, new_states) = (0, 0);
                    }
                    since_probe += 1;
                    if since_probe == 64 {
                        since_probe = 0;
                        self.memory.probe();
                    }
                    if let Some(why) = self.over_budget() {
                        self.cut(why);
                    }
                    if self.stopping.load(Relaxed) {
                        break 'jobs;
                    }
                    if self.hungry() {
                        self.split(w, input, &base, &mut stack);
                    }
                }
                let top = stack.last().expect("the frame just advanced");
                let next = scratch
                    .get_or_insert_with(|| spare_states.pop().unwrap_or_else(|| top.state.clone()));
                let fp = match known {
                    Some(fp) => fp,
                    None => {
                        let probed_fp = self.probed(&top.state, k, &mut local, &mut buf);
                        self.space.successor(&top.state, k, next, &mut local);
                        let fp = self.fingerprint(next, &mut buf);
                        assert!(
                            probed_fp.is_none_or(|p| p == fp),
                            "a probed successor has the fingerprint of the built one"
                        );
                        fp
                    }
                };
                match self.visit(w, fp, &mut unpublished) {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(why) => {
                        self.cut(why);
                        break 'jobs;
                    }
                }
                if known.is_some() {
                    self.space.successor(&top.state, k, next, &mut local);
                }
                new_states += 1;
                depth = depth.max(base.len() + stack.len());
                let next = scratch.take().expect("the successor just made");
                let record = self.space.record(&next);
                let first = found.judge(record, input, || {
                    let mut path = base.clone();
                    path.extend(stack.iter().skip(1).map(|f| f.via));
                    path.push(k);
                    path
                });
                self.violations(first);
                let end = self.space.successors(&next);
                if end > 0 {
                    stack.push(Frame {
                        state: next,
                        next: 0,
                        end,
                        via: k,
                        ahead: spare_aheads.pop().unwrap_or_default(),
                    });
                } else {
                    scratch = Some(next);
                }
            }
            done = Some(input);
        }
        self.visited.leave(w);
        self.progress
            .generated
            .fetch_add(unshared + since_check as u64, Relaxed);
        self.progress.unique.fetch_add(new_states, Relaxed);
        self.progress.depth.fetch_max(depth, Relaxed);
        if let Err(why) = self.publish(w, unpublished) {
            self.cut(why);
        }
        self.found.lock().expect("found lock").merge(found);
    }

    /// Probes up to [`AHEAD`] successors of `top` and prefetches their
    /// slots in the visited set, so that the table's cache misses overlap
    /// with the probing of the next ones (the lookups dominated: BENCHMARKS.md).
    fn probe_ahead(&self, top: &mut Frame<Sp::State>, local: &mut Sp::Scratch, buf: &mut Vec<u8>) {
        let end = top.end.min(top.next + AHEAD);
        while top.next < end {
            let Some(fp) = self.probed(&top.state, top.next, local, buf) else {
                break;
            };
            self.visited.prefetch(fp);
            top.ahead.push((top.next, fp));
            top.next += 1;
        }
        top.ahead.reverse();
    }

    /// Gives a hungry worker half of the oldest frame that has two or more
    /// successors left.
    fn split(&self, w: usize, input: usize, base: &[u64], stack: &mut [Frame<Sp::State>]) {
        // A frame's successors left are a range: those probed ahead, then
        // next..end.
        let first = |f: &Frame<Sp::State>| f.ahead.last().map_or(f.next, |a| a.0);
        let Some(i) = stack.iter().position(|f| f.end - first(f) >= 2) else {
            return;
        };
        let f = &mut stack[i];
        let lo = first(f);
        let mid = lo + (f.end - lo) / 2;
        f.ahead.retain(|a| a.0 < mid);
        f.next = f.next.min(mid);
        let mut path = base.to_vec();
        path.extend(stack[1..=i].iter().map(|f| f.via));
        let f = &mut stack[i];
        let job = Job {
            input,
            path,
            frame: Frame {
                state: f.state.clone(),
                next: mid,
                end: f.end,
                via: f.via,
                ahead: Vec::new(),
            },
        };
        f.end = mid;
        // A worker growing the visited set may hold the pool's lock.
        self.visited.leave(w);
        let mut pool = self.pool.lock().expect("pool lock");
        *pool
            .live
            .get_mut(&input)
            .expect("a job's input is under way") += 1;
        pool.jobs.push(job);
        self.waiting
            .store(pool.idle.saturating_sub(pool.jobs.len()), Relaxed);
        drop(pool);
        self.wake.notify_one();
    }
}

/// Searches every input of `space` in order, to the end or the first cut;
/// over MPI ranks when the program runs under mpirun.
pub fn search<Sp: Space>(space: &Sp, inputs: usize, limits: Limits, progress: &Progress) -> Found {
    #[cfg(feature = "mpi")]
    if let Some(world) = super::group::world() {
        return sharded::search(&world, space, inputs, limits, progress);
    }
    let threads = limits.threads.max(1);
    let limits = Limits { threads, ..limits };
    let shared = Shared::new(space, inputs, limits, progress);
    if limits.settle == Some(0) {
        shared.cut(Cut::Settled);
    }
    std::thread::scope(|scope| {
        for w in 0..threads {
            let shared = &shared;
            scope.spawn(move || shared.worker(w));
        }
    });
    let mut found = shared.found.into_inner().expect("found lock");
    found.cut = shared.stop.into_inner().expect("stop lock");
    found.unique = progress.unique.load(Relaxed);
    found.generated = progress.generated.load(Relaxed);
    found.depth = progress.depth.load(Relaxed);
    found.inputs_done = progress.inputs_done.load(Relaxed);
    found
}

impl<'a, Sp: Space> Shared<'a, Sp> {
    /// What `limits.threads` workers share to search `inputs` of `space`.
    fn new(space: &'a Sp, inputs: usize, limits: Limits, progress: &'a Progress) -> Self {
        progress.inputs_total.store(inputs, Relaxed);
        Shared {
            space,
            limits,
            progress,
            hasher: RandomState::with_seeds(
                0x243f_6a88_85a3_08d3,
                0x1319_8a2e_0370_7344,
                0xa409_3822_299f_31d0,
                0x082e_fa98_ec4e_6c89,
            ),
            visited: Visited::new(limits.threads),
            memory: MemoryGuard {
                base: limits.memory.map_or_else(process_memory, |a| a.base),
                allowance: limits.memory,
                promised: AtomicU64::new(0),
                measured: AtomicU64::new(0),
            },
            inputs,
            pool: Mutex::new(Pool {
                jobs: Vec::new(),
                idle: 0,
                next: 0,
                live: HashMap::new(),
            }),
            waiting: AtomicUsize::new(0),
            wake: Condvar::new(),
            stop: Mutex::new(None),
            stopping: AtomicBool::new(false),
            found: Mutex::new(Found::default()),
            violated: AtomicU64::new(0),
        }
    }
}

/// The deadline `timeout` from now, or None if it is too far to represent.
pub fn deadline(timeout: Option<Duration>) -> Option<Instant> {
    timeout.and_then(|t| Instant::now().checked_add(t))
}
