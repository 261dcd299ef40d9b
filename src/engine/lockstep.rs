//! The lock-step model: the papers' synchronous runs as a stateright
//! `Model`, one transition per slot for every node at once (an
//! `ActorModel` would interleave every delivery; docs/stateright.md).
//!
//! Every input (every source node) is an initial state; a slot in which some
//! node has a choice the paper leaves open (Wang-Ku rule 3's R') has one
//! action per combination of choices. The state carries the run's
//! [`Record`], so each property is a plain predicate on it, and the
//! transmissions of the last slot, for the Explorer's picture.

use super::search::Space;
use super::{
    end_run, horizon, judge_results, numbered, receive, release, transmit, Judge, MapLedger,
};
use models::{Arrival, Protocol, ProtocolExt};
use properties::{Claims, Holdings, NodeId, PropertyName, Record, Slot, Task, Transmission};
use stateright::{Model, Path, Property};
use std::sync::Arc;

/// The lock-step model of a protocol over a set of inputs.
pub struct LockStep<P: Protocol> {
    /// The protocol.
    pub protocol: Arc<P>,
    /// The inputs, each an initial state.
    pub inputs: Vec<P::Input>,
    /// Each input's task, shared by neighbours that have the same (a
    /// fault sweep's millions of inputs have one task a source).
    tasks: Vec<Arc<Task>>,
    /// What the paper claims.
    pub claims: Claims,
    horizon: Slot,
    /// Label each action with its slot's transmissions (the Explorer's
    /// lists); off for checks, where labels would cost a slot's run each.
    labels: bool,
    /// Draws a state for the Explorer (`as_svg`), where one is given: the
    /// pictures live with the other views (`show::picture`), and the
    /// engine does not import them.
    draw: Option<Drawing<P>>,
    /// Every node takes its first choice: the one run the executor makes.
    first: bool,
    /// Set where, taking first choices, some node had another.
    branched: std::sync::atomic::AtomicBool,
}

/// How the Explorer draws a state of the model.
pub type Drawing<P> = fn(&LockStep<P>, &State<P>) -> String;

/// The state after a slot: node states, what arrived in the slot, what
/// every node holds, and the record of the run so far.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RunState<S, M> {
    /// Index of the input this run started from.
    pub input: usize,
    /// The last slot run (0 before the first).
    pub slot: Slot,
    /// Every node's protocol state.
    pub nodes: Vec<S>,
    /// Nodes to step in the next slot even without arrivals.
    pub busy: Vec<NodeId>,
    /// Arrivals of `slot`, by receiving node.
    pub inbox: Vec<(NodeId, Arrival<M>)>,
    /// What every node holds.
    pub holdings: Holdings,
    /// The run's record of the properties.
    pub record: Record,
    /// The transmissions of `slot`, for pictures.
    pub sent: Vec<Transmission<M>>,
}

/// One slot, with the choice of every node that had more than one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SlotAction {
    /// The slot run.
    pub slot: Slot,
    /// The choice of each node that had several.
    pub choices: Vec<(NodeId, u32)>,
    /// What the slot sends, in the paper's words, where the model labels
    /// its actions (the Explorer); empty otherwise.
    pub label: String,
}

/// The lock-step state of protocol `P`.
pub type State<P> = RunState<<P as Protocol>::State, <P as Protocol>::Msg>;

impl<P: Protocol> LockStep<P> {
    /// The model of `protocol` from each of `inputs`.
    pub fn new(protocol: Arc<P>, inputs: Vec<P::Input>) -> Self {
        let mut tasks: Vec<Arc<Task>> = Vec::with_capacity(inputs.len());
        for i in &inputs {
            let task = protocol.task(i);
            match tasks.last().filter(|last| ***last == task) {
                Some(last) => tasks.push(last.clone()),
                None => tasks.push(Arc::new(task)),
            }
        }
        let claims = protocol.claims();
        LockStep {
            horizon: horizon(&*protocol, &claims),
            protocol,
            inputs,
            tasks,
            claims,
            labels: false,
            draw: None,
            first: false,
            branched: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// The same model with only the run in which every node takes its
    /// first choice (the executor's run, as a search of one path).
    pub fn first_choices(mut self) -> Self {
        self.first = true;
        self
    }

    /// True if, in a model of first choices only, some node had another
    /// choice (else its one run was every run).
    pub fn branched(&self) -> bool {
        self.branched.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The same model with every action labelled by what its slot sends
    /// (for the Explorer).
    pub fn labelled(mut self) -> Self {
        self.labels = true;
        self
    }

    /// The same model, drawn by `draw` in the Explorer.
    pub fn drawn(mut self, draw: Drawing<P>) -> Self {
        self.draw = Some(draw);
        self
    }

    /// `msg` in the paper's words: the packets it carries, or that it is a
    /// control message.
    pub fn message_words(&self, state: &State<P>, msg: &P::Msg) -> String {
        crate::engine::words::message(&*self.protocol, self.task(state), msg)
    }

    /// A transmission in the paper's words (`0000->0011: the packet of
    /// 0000`).
    fn transmission_words(&self, state: &State<P>, tx: &Transmission<P::Msg>) -> String {
        let t = self.protocol.topology();
        format!(
            "{}: {}",
            models::Topology::route_label(t, &tx.route),
            self.message_words(state, &tx.msg)
        )
    }

    /// A state in the paper's words (the Explorer's state pane): the input,
    /// the slot's transmissions, who holds what it must, what has been
    /// violated so far (claims) and observed so far (what the paper does
    /// not claim), and whether the run has ended.
    pub fn describe(&self, s: &State<P>) -> String {
        let p = &*self.protocol;
        let t = p.topology();
        let task = self.task(s);
        let mut out = format!(
            "{}, after slot {}\n\nsent in slot {}: {}\n",
            p.describe_input(&self.inputs[s.input]),
            s.slot,
            s.slot,
            s.sent.len()
        );
        for tx in &s.sent {
            out += &format!("  {}\n", self.transmission_words(s, tx));
        }
        out += "\n";
        out += &crate::engine::words::holdings(t, &s.holdings);
        out += &crate::engine::words::record(t, task, &self.claims, &s.record, &|v| p.explain(v));
        out += match s.record.ended {
            true => "\n\nthe run has ended",
            false => "\n\nthe run goes on",
        };
        out
    }

    /// The label of the slot after `state` with `choices`: its
    /// transmissions, those of the nodes that chose first (at most three,
    /// then how many more).
    fn label(&self, state: &State<P>, choices: &[(NodeId, u32)]) -> String {
        let next = self.run_slot(state, choices);
        let chose = |tx: &Transmission<P::Msg>| {
            let from = tx.route.from();
            choices.iter().any(|(v, _)| *v == from)
        };
        let mut sent: Vec<_> = next.sent.iter().collect();
        sent.sort_by_key(|tx| !chose(tx));
        let mut label = format!("slot {}: ", next.slot);
        if sent.is_empty() {
            label += "nothing sent";
        }
        for (i, tx) in sent.iter().take(3).enumerate() {
            if i > 0 {
                label += ", ";
            }
            label += &self.transmission_words(state, tx);
        }
        if sent.len() > 3 {
            label += &format!(" and {} more", sent.len() - 3);
        }
        label
    }

    /// Nodes that act in the slot after `state`, with their arrivals.
    fn active(&self, state: &State<P>) -> Vec<(NodeId, Vec<Arrival<P::Msg>>)> {
        let mut active: Vec<(NodeId, Vec<Arrival<P::Msg>>)> = Vec::new();
        let mut busy = state.busy.iter().peekable();
        let mut inbox = state.inbox.iter().peekable();
        loop {
            let next = match (busy.peek(), inbox.peek()) {
                (None, None) => break,
                (Some(&&b), Some(&&(i, _))) => b.min(i),
                (Some(&&b), None) => b,
                (None, Some(&&(i, _))) => i,
            };
            busy.next_if(|&&b| b == next);
            let mut arrivals = Vec::new();
            while let Some((_, a)) = inbox.next_if(|(i, _)| *i == next) {
                arrivals.push(*a);
            }
            active.push((next, arrivals));
        }
        active
    }

    /// Runs one slot of `state` with the given choices.
    fn run_slot(&self, state: &State<P>, choices: &[(NodeId, u32)]) -> State<P> {
        let p = &*self.protocol;
        let slot = state.slot + 1;
        let mut next = state.clone();
        next.slot = slot;
        next.sent.clear();
        next.busy.clear();
        let mut inbox = Vec::new();
        let mut ledger = MapLedger::default();
        let mut out = Vec::new();
        let mut released = Vec::new();
        let task = &self.tasks[state.input];
        for (node, arrivals) in self.active(state) {
            let choice = choices.iter().find(|(v, _)| *v == node).map_or(0, |c| c.1);
            out.clear();
            if p.step(
                node,
                &mut next.nodes[node as usize],
                slot,
                &arrivals,
                choice,
                &mut out,
            ) {
                next.busy.push(node);
            }
            // Judged against what was held before this slot's deliveries.
            let (holdings, record) = (&state.holdings, &mut next.record);
            let judge = &mut Judge {
                protocol: p,
                slot,
                task,
                holdings,
                record,
                ledger: &mut ledger,
                released: &mut released,
                faults: p.faults(&self.inputs[state.input]),
            };
            transmit(judge, node, &out, |to, a| inbox.push((to, a)));
            next.sent.extend(out.iter().copied());
        }
        release(&mut next.holdings, &mut released);
        inbox.sort_by_key(|(to, _)| *to);
        for (to, a) in &inbox {
            receive(p, slot, task, *to, a, &mut next.holdings, &mut next.record);
        }
        next.inbox = inbox;
        let idle = next.inbox.is_empty() && next.busy.is_empty();
        if idle || slot >= self.horizon {
            let input = &self.inputs[state.input];
            judge_results(p, input, numbered(&next.nodes), &mut next.record);
            let (holdings, record) = (&next.holdings, &mut next.record);
            end_run(p, input, task, slot, holdings, record, !idle);
        }
        next
    }

    /// The run from input `ix` that takes every node's first choice: the
    /// run the executor makes, for comparing the two engines.
    pub fn first_choice_run(&self, ix: usize) -> State<P>
    where
        P: 'static,
    {
        let mut state = self.initial(ix);
        while !state.record.ended {
            state = self.run_slot(&state, &[]);
        }
        state
    }

    /// The run from input `ix` taking every node's first choice, up to the
    /// first slot after which `stop` holds (or its end).
    pub fn first_choice_until(&self, ix: usize, stop: impl Fn(&State<P>) -> bool) -> State<P>
    where
        P: 'static,
    {
        let mut state = self.initial(ix);
        while !state.record.ended && !stop(&state) {
            state = self.run_slot(&state, &[]);
        }
        state
    }

    /// The run from input `ix` taking every node's first choice, handing
    /// each slot's state to `f` until it returns an error or the run ends;
    /// returns the last state.
    pub fn first_choice_each<E>(
        &self,
        ix: usize,
        mut f: impl FnMut(&State<P>) -> Result<(), E>,
    ) -> Result<State<P>, E> {
        let mut state = self.initial(ix);
        while !state.record.ended {
            state = self.run_slot(&state, &[]);
            f(&state)?;
        }
        Ok(state)
    }

    /// Knuth's estimate of the size of the search tree ("Estimating the
    /// efficiency of backtrack programs", 1975), taken along each input's
    /// first-choice run: `1 + b1 + b1 b2 + ...`, `b_i` the successors of
    /// the run's i-th state, summed over the inputs. The search meets at
    /// most the tree's nodes (runs that merge are met once), so a small
    /// estimate says the search is short; it is one path's estimate, not a
    /// bound. Stops counting once past `enough` (and says so by the value).
    pub fn tree_estimate(&self, enough: f64) -> f64
    where
        P: 'static,
    {
        let mut total = 0.0;
        for ix in 0..self.inputs.len() {
            let (mut width, mut state) = (1.0, self.initial(ix));
            total += 1.0;
            while !state.record.ended && total <= enough {
                width *= Self::combinations(&self.choice_counts(&state)) as f64;
                total += width;
                state = self.run_slot(&state, &[]);
            }
        }
        total
    }

    /// The nodes of the next slot with more than one way to act, and how
    /// many; none once the run has ended.
    fn choice_counts(&self, state: &State<P>) -> Vec<(NodeId, u32)> {
        if state.record.ended {
            return Vec::new();
        }
        let slot = state.slot + 1;
        let counts: Vec<(NodeId, u32)> = self
            .active(state)
            .iter()
            .map(|(v, arr)| {
                let k = self.protocol.ways(*v, &state.nodes[*v as usize], slot, arr);
                (*v, k)
            })
            .filter(|(_, k)| *k > 1)
            .collect();
        if self.first {
            if !counts.is_empty() {
                self.branched
                    .store(true, std::sync::atomic::Ordering::Relaxed);
            }
            return Vec::new();
        }
        counts
    }

    /// The number of combinations of choices (saturating): a slot's
    /// successors, or 0 once the run has ended.
    fn combinations(counts: &[(NodeId, u32)]) -> u64 {
        counts
            .iter()
            .fold(1u64, |total, (_, k)| total.saturating_mul(*k as u64))
    }

    /// Combination `index` of the nodes' choices, the first node slowest
    /// (the order of stateright's actions, so paths are Explorer paths).
    fn decode(counts: &[(NodeId, u32)], mut index: u64) -> Vec<(NodeId, u32)> {
        let mut choices = vec![(0, 0); counts.len()];
        for (j, (v, k)) in counts.iter().enumerate().rev() {
            choices[j] = (*v, (index % *k as u64) as u32);
            index /= *k as u64;
        }
        choices
    }

    /// The state before slot 1 from input `ix`.
    fn initial(&self, ix: usize) -> State<P> {
        let p = &*self.protocol;
        let nodes = self.tasks[ix].nodes();
        let input = &self.inputs[ix];
        RunState {
            input: ix,
            slot: 0,
            nodes: (0..nodes).map(|v| p.init(input, v)).collect(),
            // Every node is stepped in slot 1.
            busy: (0..nodes).collect(),
            inbox: Vec::new(),
            holdings: Holdings::initial(&self.tasks[ix]),
            record: Record::new(&p.claims_for(input)),
            sent: Vec::new(),
        }
    }

    /// The task of the run `state` belongs to.
    pub fn task(&self, state: &State<P>) -> &Task {
        &self.tasks[state.input]
    }
}

/// Property `I` of [`PropertyName::ALL`] was not violated in the slot
/// that led to `s`. Over every reachable state this is "never violated",
/// and a violation is found in the state of its own slot: stateright keeps
/// the last violating state it meets as the discovery, and a violation,
/// once recorded, stays in every later state of its run.
fn holds<P: Protocol, const I: usize>(_: &LockStep<P>, s: &State<P>) -> bool {
    match s.record.violation(PropertyName::ALL[I]) {
        None => true,
        // Violations without a slot are judged as the run ends.
        Some(v) => v.slot().map_or(!s.record.ended, |k| k != s.slot),
    }
}

/// The Explorer's name of property `p`: its own name where the paper
/// claims it; otherwise the property in words, marked as not claimed
/// (`no duplicate receptions (not claimed)`). Both are `always`
/// properties, so the Explorer marks a run that keeps one as good news
/// and one that breaks it with a warning; the name says which the paper
/// does not claim.
pub fn explorer_name(claims: &Claims, p: PropertyName) -> &'static str {
    if claims.claims(p) {
        return p.as_str();
    }
    match p {
        PropertyName::Completeness => "every node gets its packets (not claimed)",
        PropertyName::NoDuplication => "no duplicate receptions (not claimed)",
        PropertyName::ContentionFreedom => "no contended resources (not claimed)",
        PropertyName::Causality => "nothing sent before it is held (not claimed)",
        PropertyName::TimeBound => "no deliveries after the bound (not claimed)",
        PropertyName::Transmissions => "the optimum's transmissions (not claimed)",
        PropertyName::MessageLength => "no message over the length limit (not claimed)",
        PropertyName::Matching => "every operation completed (not claimed)",
    }
}

/// Name of the `sometimes` property that keeps a vacuous model honest.
pub const RUN_ENDS: &str = "a run ends";

impl<P: Protocol + 'static> Model for LockStep<P> {
    type State = State<P>;
    type Action = SlotAction;

    fn init_states(&self) -> Vec<State<P>> {
        (0..self.inputs.len()).map(|ix| self.initial(ix)).collect()
    }

    fn actions(&self, state: &State<P>, actions: &mut Vec<SlotAction>) {
        if state.record.ended {
            return;
        }
        let counts = self.choice_counts(state);
        for index in 0..Self::combinations(&counts) {
            let choices = Self::decode(&counts, index);
            let label = match self.labels {
                true => self.label(state, &choices),
                false => String::new(),
            };
            actions.push(SlotAction {
                slot: state.slot + 1,
                choices,
                label,
            });
        }
    }

    fn next_state(&self, state: &State<P>, action: SlotAction) -> Option<State<P>> {
        Some(self.run_slot(state, &action.choices))
    }

    fn format_action(&self, action: &SlotAction) -> String {
        if !action.label.is_empty() {
            return action.label.clone();
        }
        let topology = self.protocol.topology();
        let mut s = format!("slot {}", action.slot);
        for (v, c) in &action.choices {
            s += &format!(
                ", {} takes choice {c}",
                models::Topology::node_label(topology, *v)
            );
        }
        s
    }

    /// The state pane: the slot's transmissions, who holds what, and what
    /// has been violated, in the paper's words.
    fn format_step(&self, last: &State<P>, action: SlotAction) -> Option<String> {
        let next = self.run_slot(last, &action.choices);
        Some(self.describe(&next))
    }

    /// Every property is an `always` property, named as the paper's claim
    /// or as not claimed ([`explorer_name`]): its discovery is the run
    /// that breaks it. One per property, in [`PropertyName::ALL`] order
    /// (matching only where claimed), then [`RUN_ENDS`].
    fn properties(&self) -> Vec<Property<Self>> {
        let mut properties: Vec<Property<Self>> = super::per_property!(holds, P)
            .into_iter()
            .zip(PropertyName::ALL)
            // Matching is a schedule's: listed where claimed.
            .filter(|(_, q)| *q != PropertyName::Matching || self.claims.claims(*q))
            .map(|((_, holds), q)| Property::always(explorer_name(&self.claims, q), holds))
            .collect();
        properties.push(Property::sometimes(RUN_ENDS, |_, s: &State<P>| {
            s.record.ended
        }));
        properties
    }

    fn as_svg(&self, path: Path<State<P>, SlotAction>) -> Option<String> {
        self.draw.map(|draw| draw(self, path.last_state()))
    }
}

/// The same model for commcheck's own search: successor `k` is
/// stateright's action `k`, generated alone.
impl<P: Protocol> Space for LockStep<P> {
    type State = State<P>;
    type Scratch = ();

    fn scratch(&self) {}

    fn init(&self, ix: usize) -> State<P> {
        self.initial(ix)
    }

    fn successors(&self, state: &State<P>) -> u64 {
        if state.record.ended {
            return 0;
        }
        Self::combinations(&self.choice_counts(state))
    }

    fn successor(&self, state: &State<P>, k: u64, into: &mut State<P>, _: &mut ()) {
        let choices = Self::decode(&self.choice_counts(state), k);
        *into = self.run_slot(state, &choices);
    }

    fn record<'a>(&self, state: &'a State<P>) -> &'a Record {
        &state.record
    }

    #[cfg(feature = "mpi")]
    fn encode(&self, s: &State<P>, out: &mut Vec<u8>) {
        let parts = (s.slot, &s.nodes, &s.busy, &s.inbox, &s.sent);
        super::group::wire::put_state(out, s.input, &parts, &s.holdings, &s.record);
    }

    #[cfg(feature = "mpi")]
    fn decode(&self, bytes: &mut &[u8], into: &mut State<P>) {
        type Parts<P> = (
            Slot,
            Vec<<P as Protocol>::State>,
            Vec<NodeId>,
            Vec<(NodeId, Arrival<<P as Protocol>::Msg>)>,
            Vec<Transmission<<P as Protocol>::Msg>>,
        );
        let fresh = |input: usize| Holdings::initial(&self.tasks[input]);
        let (input, parts, record): (usize, Parts<P>, Record) =
            super::group::wire::take_state(bytes, into.input, &mut into.holdings, fresh);
        (into.input, into.record) = (input, record);
        (into.slot, into.nodes, into.busy, into.inbox, into.sent) = parts;
    }
}
