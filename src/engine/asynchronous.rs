//! The asynchronous semantics of an event-driven protocol, in a compact
//! encoding for commcheck's search: the actor model's states and
//! transitions, without stateright's actor runtime.
//!
//! The semantics are the actor model's ([`super::actor`]): messages travel
//! on a non-duplicating unordered network and carry the logical slot of
//! their delivery; one transition delivers one message (any one in flight)
//! plus the receiver's whole reaction, or resolves one pending choice; a
//! node's own next slots run at once, in the same transition. Both
//! encodings step a node with [`advance`], so they share one semantics; a
//! test checks they visit the same number of states and reach the same
//! verdicts.
//!
//! The encoding differs in what it keeps: one network multiset as a sorted
//! vector of distinct envelopes with counts, one record and one holdings
//! matrix for the whole system instead of one per node (a node's copy only
//! ever gains its own row, so their union is the same information), no
//! histories or timers. The properties read the merged record in both
//! encodings, so the verdicts agree; the state counts agree on runs without
//! violations, while states that differ only in which node's record holds
//! a violation are one state here. stateright's `ActorModel` clones and
//! hashes every actor behind an `Arc` and a hash-map network per
//! successor, about 1.4 us each on `sbt 5`; here a successor seen before
//! costs its one node's step (see `Async::local` and `probe`).

use super::actor::{advance, RunCfg, Step, Wire};
use super::search::{Collect, Space};
use ahash::RandomState;
use models::{Arrival, Protocol};
use properties::{Holdings, NodeId, Record, Slot, Transmission};
use std::hash::{Hash, Hasher};

/// A message in flight: receiver, sender, and what it carries.
pub type Envelope<M> = (NodeId, NodeId, Wire<M>);

/// The whole system between two transitions.
#[derive(Debug)]
pub struct System<S, M> {
    /// Index of the input this run started from.
    pub input: usize,
    /// The sum (wrapping) of a strong hash of every node (id, state,
    /// clock), pending choice and envelope in flight: kept up to date by
    /// each transition, so a state's identity costs the few parts it
    /// changed rather than a pass over all of it (Zobrist hashing; a sum
    /// also makes the network an unordered multiset).
    pub parts: u64,
    /// Every node's protocol state.
    pub nodes: Vec<S>,
    /// The last slot each node acted in.
    pub clocks: Vec<Slot>,
    /// Nodes waiting for a choice: the slot and arrival of their step and
    /// the number of options, in node order.
    pub pending: Vec<(NodeId, Slot, Option<Arrival<M>>, u32)>,
    /// Messages in flight: a multiset, as distinct envelopes (sorted) with
    /// their counts, so that successor k < net.len() delivers entry k.
    pub net: Vec<(Envelope<M>, u32)>,
    /// What every node holds.
    pub holdings: Holdings,
    /// The run's record of the properties.
    pub record: Record,
}

/// Field by field, so that `clone_from` reuses the vectors of a scratch
/// state (the search writes most successors into one).
impl<S: Clone, M: Clone> Clone for System<S, M> {
    fn clone(&self) -> Self {
        System {
            input: self.input,
            parts: self.parts,
            nodes: self.nodes.clone(),
            clocks: self.clocks.clone(),
            pending: self.pending.clone(),
            net: self.net.clone(),
            holdings: self.holdings.clone(),
            record: self.record.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.input = source.input;
        self.parts = source.parts;
        self.nodes.clone_from(&source.nodes);
        self.clocks.clone_from(&source.clocks);
        self.pending.clone_from(&source.pending);
        self.net.clone_from(&source.net);
        self.holdings.clone_from(&source.holdings);
        self.record.clone_from(&source.record);
    }
}

/// A state's identity: its parts' sum, what every node holds and the
/// run's record.
impl<S, M> Hash for System<S, M> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        identity(self.input, self.parts, &self.holdings, &self.record, h);
    }
}

/// The hash of one part of a state, with a tag per kind of part.
fn part(tag: u8, x: impl Hash) -> u64 {
    static PARTS: std::sync::LazyLock<RandomState> = std::sync::LazyLock::new(|| {
        RandomState::with_seeds(
            0x9e37_79b9_7f4a_7c15,
            0xbf58_476d_1ce4_e5b9,
            0x94d0_49bb_1331_11eb,
            0x2545_f491_4f6c_dd1d,
        )
    });
    PARTS.hash_one((tag, x))
}

const NODE: u8 = 0;
const PENDING: u8 = 1;
const ENVELOPE: u8 = 2;

type Sys<P> = System<<P as Protocol>::State, <P as Protocol>::Msg>;

/// The asynchronous model of `protocol` over a set of inputs.
pub struct Async<'a, P: Protocol> {
    /// The protocol.
    pub protocol: &'a P,
    /// The inputs, each an initial state.
    pub inputs: &'a [P::Input],
    cfgs: Vec<RunCfg>,
}

impl<'a, P: Protocol> Async<'a, P> {
    /// The asynchronous model of `protocol` from each of `inputs`.
    pub fn new(protocol: &'a P, inputs: &'a [P::Input]) -> Self {
        let cfgs = inputs.iter().map(|i| RunCfg::new(&*protocol, i)).collect();
        Async {
            protocol,
            inputs,
            cfgs,
        }
    }

    /// The effect of `transition` on the one node it concerns, written
    /// into `l` without touching the rest of `sys`: the node's new state,
    /// clock, holdings and record, what it sends, whether it then waits
    /// for a choice, and the new sum of parts.
    fn local(&self, sys: &Sys<P>, transition: Transition, l: &mut Local<P::State, P::Msg>) {
        let task = &self.cfgs[sys.input].task;
        let (node, step, taken) = match transition {
            Transition::Deliver(i) => {
                let e @ (to, from, wire) = sys.net[i].0;
                let arrival = Arrival {
                    from,
                    msg: wire.msg,
                };
                let step = Step::Proceed(wire.slot + 1, Some(arrival));
                (to, step, part(ENVELOPE, e))
            }
            Transition::Choose(at, choice) => {
                let p @ (node, slot, arrival, _) = sys.pending[at];
                (node, Step::Act(slot, arrival, choice), part(PENDING, p))
            }
            Transition::Start(node) => (node, Step::Proceed(1, None), 0),
        };
        let v = node as usize;
        l.node = node;
        l.transition = transition;
        let state = match &mut l.state {
            Some(s) => {
                s.clone_from(&sys.nodes[v]);
                s
            }
            none => none.insert(sys.nodes[v].clone()),
        };
        let mut clock = sys.clocks[v];
        let holdings = match &mut l.holdings {
            Some(h) => {
                h.clone_from(&sys.holdings);
                h
            }
            none => none.insert(sys.holdings.clone()),
        };
        l.record.clone_from(&sys.record);
        if let Step::Proceed(slot, Some(arrival)) = step {
            let (record, delivered) = (&mut l.record, slot - 1);
            super::receive(
                self.protocol,
                delivered,
                task,
                node,
                &arrival,
                holdings,
                record,
            );
        }
        let sent = &mut l.sent;
        sent.clear();
        l.waiting = advance(
            self.protocol,
            &self.cfgs[sys.input],
            node,
            state,
            &mut clock,
            holdings,
            &mut l.record,
            step,
            &mut l.out,
            |to, wire| sent.push((to, node, wire)),
        )
        .map(|(slot, arrival, k)| (node, slot, arrival, k));
        l.clock = clock;
        let mut parts = sys
            .parts
            .wrapping_sub(taken)
            .wrapping_sub(part(NODE, (node, &sys.nodes[v], sys.clocks[v])))
            .wrapping_add(part(NODE, (node, &*state, clock)));
        for &e in sent.iter() {
            parts = parts.wrapping_add(part(ENVELOPE, e));
        }
        if let Some(p) = l.waiting {
            parts = parts.wrapping_add(part(PENDING, p));
        }
        l.parts = parts;
        // The run ends when nothing is in flight or pending any more.
        let in_flight: u32 = sys.net.iter().map(|e| e.1).sum();
        let (in_flight, pending) = match transition {
            Transition::Deliver(_) => (in_flight - 1, sys.pending.len()),
            Transition::Choose(..) => (in_flight, sys.pending.len() - 1),
            Transition::Start(_) => return,
        };
        if in_flight as usize + sent.len() == 0
            && pending + l.waiting.is_some() as usize == 0
            && !l.record.ended
        {
            l.record.end(task, holdings, None);
        }
    }

    /// Writes into `next` the system `sys` after the transition `l` holds.
    fn apply(&self, sys: &Sys<P>, l: &Local<P::State, P::Msg>, next: &mut Sys<P>) {
        next.clone_from(sys);
        match l.transition {
            Transition::Deliver(i) => {
                next.net[i].1 -= 1;
                if next.net[i].1 == 0 {
                    next.net.remove(i);
                }
            }
            Transition::Choose(at, _) => {
                next.pending.remove(at);
            }
            Transition::Start(_) => {}
        }
        let v = l.node as usize;
        next.nodes[v].clone_from(l.state.as_ref().expect("a local step was made"));
        next.clocks[v] = l.clock;
        next.holdings
            .clone_from(l.holdings.as_ref().expect("a local step was made"));
        next.record.clone_from(&l.record);
        next.parts = l.parts;
        if let Some(p) = l.waiting {
            let at = next.pending.partition_point(|q| q.0 < p.0);
            next.pending.insert(at, p);
        }
        for &e in &l.sent {
            match next.net.binary_search_by(|x| x.0.cmp(&e)) {
                Ok(at) => next.net[at].1 += 1,
                Err(at) => next.net.insert(at, (e, 1)),
            }
        }
    }

    /// Transition `k`: delivery of distinct envelope k, or one option of a
    /// pending choice.
    fn transition(sys: &Sys<P>, k: u64) -> Transition {
        if let Some(i) = (k as usize).checked_sub(0).filter(|&i| i < sys.net.len()) {
            return Transition::Deliver(i);
        }
        let mut k = k - sys.net.len() as u64;
        for (at, p) in sys.pending.iter().enumerate() {
            if k < p.3 as u64 {
                return Transition::Choose(at, k as u32);
            }
            k -= p.3 as u64;
        }
        panic!("transition index past the successors")
    }
}

/// What a transition does: deliver a distinct envelope (by index), take
/// an option of a pending choice (by index), or start a node (slot 1).
#[derive(Clone, Copy, Debug)]
enum Transition {
    Deliver(usize),
    Choose(usize, u32),
    Start(NodeId),
}

/// One transition's effect on its node (see `Async::local`); reused
/// from one successor to the next.
pub struct Local<S, M> {
    node: NodeId,
    transition: Transition,
    state: Option<S>,
    clock: Slot,
    holdings: Option<Holdings>,
    record: Record,
    parts: u64,
    waiting: Option<(NodeId, Slot, Option<Arrival<M>>, u32)>,
    out: Vec<Transmission<M>>,
    sent: Vec<Envelope<M>>,
}

impl<S, M> Local<S, M> {
    fn new(claims: &properties::Claims) -> Self {
        Local {
            node: 0,
            transition: Transition::Start(0),
            state: None,
            clock: 0,
            holdings: None,
            record: Record::new(claims),
            parts: 0,
            waiting: None,
            out: Vec::new(),
            sent: Vec::new(),
        }
    }
}

impl<P: Protocol> Space for Async<'_, P> {
    type State = Sys<P>;
    type Scratch = Local<P::State, P::Msg>;

    fn scratch(&self) -> Local<P::State, P::Msg> {
        Local::new(&self.cfgs[0].claims)
    }

    fn init(&self, ix: usize) -> Sys<P> {
        let p = self.protocol;
        let nodes = self.cfgs[ix].task.nodes();
        let input = &self.inputs[ix];
        let mut sys = System {
            input: ix,
            parts: 0,
            nodes: (0..nodes).map(|v| p.init(input, v)).collect(),
            clocks: vec![0; nodes as usize],
            pending: Vec::new(),
            net: Vec::new(),
            holdings: Holdings::initial(&self.cfgs[ix].task),
            record: Record::new(&self.cfgs[ix].claims),
        };
        for v in 0..nodes as usize {
            let node = (v as NodeId, &sys.nodes[v], sys.clocks[v]);
            sys.parts = sys.parts.wrapping_add(part(NODE, node));
        }
        // Every node starts in slot 1, in node order (stateright's on_start).
        let mut l = self.scratch();
        for v in 0..nodes {
            self.local(&sys, Transition::Start(v), &mut l);
            let mut next = sys.clone();
            self.apply(&sys, &l, &mut next);
            sys = next;
        }
        if sys.net.is_empty() && sys.pending.is_empty() {
            let cfg = &self.cfgs[ix];
            sys.record.end(&cfg.task, &sys.holdings, None);
        }
        sys
    }

    fn successors(&self, sys: &Sys<P>) -> u64 {
        if sys.record.ended {
            return 0;
        }
        let choices: u64 = sys.pending.iter().map(|p| p.3 as u64).sum();
        sys.net.len() as u64 + choices
    }

    fn successor(&self, sys: &Sys<P>, k: u64, next: &mut Sys<P>, l: &mut Self::Scratch) {
        self.local(sys, Self::transition(sys, k), l);
        self.apply(sys, l, next);
    }

    /// A successor's identity from its node's effect alone: most
    /// successors are states seen before, and are never built.
    fn probe(&self, sys: &Sys<P>, k: u64, l: &mut Self::Scratch, h: &mut Collect) -> bool {
        self.local(sys, Self::transition(sys, k), l);
        identity(
            sys.input,
            l.parts,
            l.holdings.as_ref().expect("a local step was made"),
            &l.record,
            h,
        );
        true
    }

    fn record<'b>(&self, sys: &'b Sys<P>) -> &'b Record {
        &sys.record
    }

    #[cfg(feature = "mpi")]
    fn encode(&self, sys: &Sys<P>, out: &mut Vec<u8>) {
        let parts = (sys.parts, &sys.nodes, &sys.clocks, &sys.pending, &sys.net);
        super::group::wire::put_state(out, sys.input, &parts, &sys.holdings, &sys.record);
    }

    #[cfg(feature = "mpi")]
    fn decode(&self, bytes: &mut &[u8], into: &mut Sys<P>) {
        type Parts<P> = (
            u64,
            Vec<<P as Protocol>::State>,
            Vec<Slot>,
            Vec<(NodeId, Slot, Option<Arrival<<P as Protocol>::Msg>>, u32)>,
            Vec<(Envelope<<P as Protocol>::Msg>, u32)>,
        );
        let fresh = |input: usize| Holdings::initial(&self.cfgs[input].task);
        let (input, parts, record): (usize, Parts<P>, Record) =
            super::group::wire::take_state(bytes, into.input, &mut into.holdings, fresh);
        (into.input, into.record) = (input, record);
        (into.parts, into.nodes, into.clocks, into.pending, into.net) = parts;
    }
}

/// What identifies a state (its `Hash`): written the same way for a built
/// state and for a probed successor. Inlined: the search's hot path,
/// which a larger crate (`--features mpi`) otherwise calls out of line.
#[inline]
fn identity<H: Hasher>(input: usize, parts: u64, holdings: &Holdings, record: &Record, h: &mut H) {
    input.hash(h);
    parts.hash(h);
    holdings.hash(h);
    record.hash(h);
}
