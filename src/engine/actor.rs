//! The actor model: every node of an event-driven protocol as a stateright
//! `Actor`, on a non-duplicating unordered network. It checks that delivery
//! order does not matter: whatever order messages arrive in, the run is
//! complete, duplicate-free, causal and on time.
//!
//! There is no global slot here, so a message carries the logical slot of
//! its delivery (the sender's slot): a node reached in slot t acts in slot
//! t+1, as in the lock-step runs. Contention needs a global slot and is
//! judged by the lock-step model and the executor only. A choice the paper
//! leaves open becomes a stateright random choice. Each node keeps its own
//! [`Record`] and holdings; the properties merge them.
//!
//! A node that asks to act again in its next slot without an arrival (a
//! source of NOB's next level, DT's round-2 send) does so at once, in the
//! same transition: in an event-driven protocol those sends depend on
//! nothing that can still arrive, so letting them fire at every point of
//! the interleaving (as stateright timers would) multiplies the states
//! without adding a behaviour. The delivery order stays fully explored.

use super::{horizon, receive, transmit, Judge, NoLedger};
use models::{Arrival, Protocol, ProtocolExt};
use properties::{Claims, Holdings, NodeId, PropertyName, Record, Slot, Task, Transmission};
use stateright::actor::{Actor, ActorModel, ActorModelState, Id, Network, Out};
use stateright::Expectation;
use std::borrow::Cow;
use std::sync::Arc;

/// One node of the protocol, run from one input.
pub struct NodeActor<P: Protocol> {
    protocol: Arc<P>,
    input: P::Input,
    cfg: Arc<RunCfg>,
    node: NodeId,
}

/// What every node of a run shares.
pub struct RunCfg {
    /// What the run must achieve.
    pub task: Task,
    /// What the paper claims.
    pub claims: Claims,
    /// The slot past which a run counts as not terminating.
    pub horizon: Slot,
}

impl RunCfg {
    /// The run of `protocol` from `input`. The asynchronous semantics has
    /// no global slot at which a relay lets go of what it sent on, so it
    /// runs broadcasts only (a protocol is event-driven only if its task
    /// is a broadcast; a test checks every registered one).
    pub fn new<P: Protocol>(protocol: &P, input: &P::Input) -> RunCfg {
        let task = protocol.task(input);
        assert!(task.is_broadcast(), "an event-driven protocol broadcasts");
        // Faults are judged in slots: `models::Faulty` is not event-driven.
        assert!(
            protocol.faults(input).is_none(),
            "the actor model runs a perfect machine"
        );
        let claims = protocol.claims_for(input);
        RunCfg {
            task,
            horizon: horizon(protocol, &claims),
            claims,
        }
    }
}

/// A message on the network, with the slot of its delivery.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Wire<M> {
    /// The logical slot of its delivery.
    pub slot: Slot,
    /// What it carries.
    pub msg: M,
}

/// A node's protocol state plus what the properties need of it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NodeState<S, M> {
    /// The protocol's own state of the node.
    pub state: S,
    /// The last slot the node acted in.
    pub clock: Slot,
    /// What every node holds (the ground truth, shared by the actors' record).
    pub holdings: Holdings,
    /// The run's record of the properties.
    pub record: Record,
    /// A step waiting for its random choice: its slot and arrival.
    pub pending: Option<(Slot, Option<Arrival<M>>)>,
}

/// Nodes set no timers (see the module header).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NoTimer {}

type Node<P> = NodeState<<P as Protocol>::State, <P as Protocol>::Msg>;

/// Where a node's step starts.
#[derive(Clone, Copy, Debug)]
pub enum Step<M> {
    /// Step in this slot with this arrival, asking for a choice first if
    /// the protocol offers several.
    Proceed(Slot, Option<Arrival<M>>),
    /// Step in this slot with this arrival and the choice made.
    Act(Slot, Option<Arrival<M>>, u32),
}

/// A step that waits for a choice: its slot, its arrival and the number of
/// options.
pub type Waiting<M> = (Slot, Option<Arrival<M>>, u32);

/// Steps `node` as the asynchronous semantics does, both here and in the
/// compact encoding ([`super::asynchronous`]): runs its step, then its own
/// next slots at once while it asks for them (see the module header), and
/// hands every message it sends to `send`. Returns the slot, arrival and
/// number of options of a step that waits for a choice.
#[allow(clippy::too_many_arguments)]
pub fn advance<P: Protocol>(
    p: &P,
    cfg: &RunCfg,
    node: NodeId,
    state: &mut P::State,
    clock: &mut Slot,
    holdings: &Holdings,
    record: &mut Record,
    step: Step<P::Msg>,
    out: &mut Vec<Transmission<P::Msg>>,
    mut send: impl FnMut(NodeId, Wire<P::Msg>),
) -> Option<Waiting<P::Msg>> {
    let (mut slot, mut arrival, mut choice) = match step {
        Step::Proceed(slot, arrival) => {
            let k = p.ways(node, state, slot, arrival.as_slice());
            if k > 1 {
                return Some((slot, arrival, k));
            }
            (slot, arrival, 0)
        }
        Step::Act(slot, arrival, choice) => (slot, arrival, choice),
    };
    loop {
        *clock = slot;
        if slot > cfg.horizon {
            record.horizon_reached(slot);
            return None;
        }
        out.clear();
        let busy = p.step(node, state, slot, arrival.as_slice(), choice, out);
        // Only broadcast tasks run here (see `RunCfg::new`): nothing is
        // relayed, so nothing is released.
        let mut released = Vec::new();
        let judge = &mut Judge {
            protocol: p,
            slot,
            task: &cfg.task,
            holdings,
            record,
            ledger: &mut NoLedger,
            released: &mut released,
            faults: None,
        };
        let post = |to, a: Arrival<P::Msg>| send(to, Wire { slot, msg: a.msg });
        transmit(judge, node, out, post);
        if !busy {
            return None;
        }
        // The node's own next slot, with nothing arrived.
        (slot, arrival) = (slot + 1, None);
        let k = p.ways(node, state, slot, &[]);
        if k > 1 {
            return Some((slot, None, k));
        }
        choice = 0;
    }
}

impl<P: Protocol> NodeActor<P> {
    /// Runs `step` on this node's state, sending through `o`.
    fn run(&self, st: &mut Node<P>, step: Step<P::Msg>, o: &mut Out<Self>) {
        let waiting = advance(
            &*self.protocol,
            &self.cfg,
            self.node,
            &mut st.state,
            &mut st.clock,
            &st.holdings,
            &mut st.record,
            step,
            &mut Vec::new(),
            |to, wire| o.send(Id::from(to as usize), wire),
        );
        if let Some((slot, arrival, k)) = waiting {
            st.pending = Some((slot, arrival));
            o.choose_random("choice", (0..k).collect());
        }
    }
}

impl<P: Protocol> Actor for NodeActor<P> {
    type Msg = Wire<P::Msg>;
    type State = Node<P>;
    type Timer = NoTimer;
    type Random = u32;
    type Storage = ();

    /// The node as the paper writes it (`011`): its timeline's label in
    /// the Explorer's sequence diagram.
    fn name(&self) -> String {
        models::Topology::node_label(self.protocol.topology(), self.node)
    }

    fn on_start(&self, _id: Id, _storage: &Option<()>, o: &mut Out<Self>) -> Node<P> {
        let mut st = NodeState {
            state: self.protocol.init(&self.input, self.node),
            clock: 0,
            holdings: Holdings::initial(&self.cfg.task),
            record: Record::new(&self.cfg.claims),
            pending: None,
        };
        self.run(&mut st, Step::Proceed(1, None), o);
        st
    }

    fn on_msg(
        &self,
        _id: Id,
        state: &mut Cow<Node<P>>,
        src: Id,
        wire: Wire<P::Msg>,
        o: &mut Out<Self>,
    ) {
        let st = state.to_mut();
        let arrival = Arrival {
            from: usize::from(src) as NodeId,
            msg: wire.msg,
        };
        let p = &*self.protocol;
        receive(
            p,
            wire.slot,
            &self.cfg.task,
            self.node,
            &arrival,
            &mut st.holdings,
            &mut st.record,
        );
        self.run(st, Step::Proceed(wire.slot + 1, Some(arrival)), o);
    }

    fn on_random(&self, _id: Id, state: &mut Cow<Node<P>>, choice: &u32, o: &mut Out<Self>) {
        let st = state.to_mut();
        let (slot, arrival) = st
            .pending
            .take()
            .expect("a random choice follows a pending step");
        self.run(st, Step::Act(slot, arrival, *choice), o);
    }
}

/// The actor model of a protocol from one input.
pub type Actors<P> = ActorModel<NodeActor<P>, Arc<RunCfg>, ()>;

/// The actor model of `protocol` from `input`.
pub fn model<P: Protocol + 'static>(protocol: Arc<P>, input: P::Input) -> Actors<P> {
    let cfg = Arc::new(RunCfg::new(&*protocol, &input));
    let nodes = cfg.task.nodes();
    let mut m = ActorModel::new(Arc::clone(&cfg), ())
        .actors((0..nodes).map(|node| NodeActor {
            protocol: Arc::clone(&protocol),
            input: input.clone(),
            cfg: Arc::clone(&cfg),
            node,
        }))
        .init_network(Network::new_unordered_nonduplicating([]));
    // Matching is a schedule's, and schedules are not event-driven.
    let judged = super::per_property!(holds, P)
        .into_iter()
        .filter(|(name, _)| *name != PropertyName::Matching.as_str());
    for (name, holds) in judged {
        m = m.property(Expectation::Always, name, holds);
    }
    m = m.property(Expectation::Sometimes, super::lockstep::RUN_ENDS, |m, s| {
        verdict(m, s).ended
    });
    m
}

/// True once nothing is in flight or awaiting a choice.
fn quiescent<P: Protocol>(s: &ActorModelState<NodeActor<P>>) -> bool {
    s.network.len() == 0 && s.actor_states.iter().all(|a| a.pending.is_none())
}

/// The run's record so far: every node's record merged, judged at the end
/// when the system is quiescent.
pub fn verdict<P: Protocol>(m: &Actors<P>, s: &ActorModelState<NodeActor<P>>) -> Record {
    let mut record = Record::new(&m.cfg.claims);
    let mut holdings = Holdings::initial(&m.cfg.task);
    for a in &s.actor_states {
        record.merge(&a.record);
        holdings.union_with(&a.holdings);
    }
    if quiescent(s) && !record.ended {
        record.end(&m.cfg.task, &holdings, None);
    }
    record
}

/// Property `I` has not been violated. Before the end only the nodes' own
/// records can hold a violation, so the merge waits for quiescence.
fn holds<P: Protocol, const I: usize>(m: &Actors<P>, s: &ActorModelState<NodeActor<P>>) -> bool {
    let p = PropertyName::ALL[I];
    if !quiescent(s) {
        return s
            .actor_states
            .iter()
            .all(|a| a.record.violation(p).is_none());
    }
    verdict(m, s).violation(p).is_none()
}
