//! The engines, and the one run semantics they share (docs/architecture.md, "Runs").
//!
//! In slot t every node that has arrivals (or asked to be stepped) runs its
//! protocol step; each transmission is judged by [`transmit`] (causality,
//! resources) and its receivers are handed the message; once every node has
//! sent, [`receive`] judges each delivery (no-duplication, time-bound). The
//! lock-step checker, the actor model and the executor call these two
//! functions and nothing else judges a run.

pub mod actor;
pub mod asynchronous;
pub mod executor;
pub mod exhaustive;
#[cfg(feature = "mpi")]
pub mod group;
pub mod lockstep;
pub mod memory;
pub mod search;
pub mod visited;
pub mod words;

use models::{Arrival, Faults, Protocol, ProtocolExt, Topology};
use properties::{
    Claims, Holdings, Keep, NodeId, PacketId, Record, ResourceId, Route, Slot, Task, Transmission,
};
use std::collections::BTreeMap;

/// Which engine checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The lock-step model, plus the actor model for event-driven protocols
    /// within its default reach.
    Exhaustive,
    /// The lock-step model only.
    Lockstep,
    /// The asynchronous (actor) model only.
    Actor,
    /// One deterministic run.
    Executor,
}

impl Engine {
    /// The engine as `--engine` names it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Exhaustive => "exhaustive",
            Engine::Lockstep => "lockstep",
            Engine::Actor => "actor",
            Engine::Executor => "executor",
        }
    }
}

/// Each property with its engine's predicate `$holds::<$P, I>` ("property
/// I of `PropertyName::ALL` is not violated"), as (name, fn pointer) pairs:
/// stateright takes plain `fn` pointers, so each index is its own
/// monomorphised function, listed here once for every engine.
macro_rules! per_property {
    ($holds:ident, $P:ty) => {
        [
            (
                properties::PropertyName::ALL[0].as_str(),
                $holds::<$P, 0> as fn(&_, &_) -> bool,
            ),
            (properties::PropertyName::ALL[1].as_str(), $holds::<$P, 1>),
            (properties::PropertyName::ALL[2].as_str(), $holds::<$P, 2>),
            (properties::PropertyName::ALL[3].as_str(), $holds::<$P, 3>),
            (properties::PropertyName::ALL[4].as_str(), $holds::<$P, 4>),
            (properties::PropertyName::ALL[5].as_str(), $holds::<$P, 5>),
            (properties::PropertyName::ALL[6].as_str(), $holds::<$P, 6>),
            (properties::PropertyName::ALL[7].as_str(), $holds::<$P, 7>),
        ]
    };
}
pub(crate) use per_property;

/// Who holds which resource in the current slot.
pub trait Ledger {
    /// Takes `resource` for `route`; if already taken, returns the holder
    /// when the ledger knows it.
    fn take(&mut self, resource: ResourceId, route: Route) -> Result<(), Option<Route>>;
}

/// A ledger that remembers every holder (small runs).
#[derive(Default)]
pub struct MapLedger(BTreeMap<ResourceId, Route>);

impl Ledger for MapLedger {
    fn take(&mut self, resource: ResourceId, route: Route) -> Result<(), Option<Route>> {
        match self.0.insert(resource, route) {
            None => Ok(()),
            Some(first) => {
                self.0.insert(resource, first);
                Err(Some(first))
            }
        }
    }
}

/// A ledger that judges nothing: the actor model has no global slot, so
/// contention is the lock-step model's and the executor's to judge.
pub struct NoLedger;

impl Ledger for NoLedger {
    fn take(&mut self, _: ResourceId, _: Route) -> Result<(), Option<Route>> {
        Ok(())
    }
}

/// The last slot an engine runs before it declares the run
/// non-terminating: four times the claimed bound (or the lower bound) plus
/// 16, generous enough that no claimed algorithm comes near it, or twice a
/// fixed schedule's last step plus 16 where that is later (a schedule
/// the paper bounds only asymptotically).
pub fn horizon<P: Protocol>(protocol: &P, claims: &Claims) -> Slot {
    let guard = 4 * claims.bound.or(claims.lower_bound).unwrap_or(64) + 16;
    guard.max(protocol.last_step().map_or(0, |s| 2 * s + 16))
}

/// What judging a slot's transmissions needs besides the transmissions:
/// the run's protocol and task, the slot, what every node held before it,
/// and where the verdicts go. [`transmit`] borrows it, so every engine
/// hands the one judge the same context (built once a slot, or at the
/// call) rather than a long list of arguments.
pub struct Judge<'a, P: Protocol, L: Ledger> {
    /// The algorithm: its topology, and what its messages carry.
    pub protocol: &'a P,
    /// The slot whose transmissions are judged.
    pub slot: Slot,
    /// What the run must achieve: whether a sent packet is kept (a
    /// broadcast) or released by its relay.
    pub task: &'a Task,
    /// What every node held before the slot: causality is judged against
    /// it, not against this slot's deliveries.
    pub holdings: &'a Holdings,
    /// Where violations and counts go.
    pub record: &'a mut Record,
    /// Who holds which resource this slot (contention).
    pub ledger: &'a mut L,
    /// The packets relays sent on: the engine releases them once every
    /// node has sent, before the deliveries ([`release`]).
    pub released: &'a mut Vec<(NodeId, PacketId)>,
    /// The machine's faults in this run ([`ProtocolExt::faults`](models::ProtocolExt::faults)): what
    /// crosses a failed part is sent but not delivered.
    pub faults: Option<&'a Faults>,
}

/// Where [`transmit`] hands a judged transmission's message: to each
/// receiver ([`Post::deliver`]), or whole to an engine that judges a bus
/// write's receivers together (the executor, [`Post::whole`]). A closure
/// over (receiver, arrival) posts receiver by receiver.
pub trait Post<M> {
    /// Takes the whole transmission over `route` and returns true, or
    /// returns false to have it handed receiver by receiver.
    fn whole(&mut self, route: &Route, arrival: Arrival<M>) -> bool {
        let _ = (route, arrival);
        false
    }

    /// Hands receiver `to` its arrival.
    fn deliver(&mut self, to: NodeId, arrival: Arrival<M>);
}

/// Every arrival to the closure, receiver by receiver.
impl<M, F: FnMut(NodeId, Arrival<M>)> Post<M> for F {
    #[inline]
    fn deliver(&mut self, to: NodeId, arrival: Arrival<M>) {
        self(to, arrival)
    }
}

/// Judges the transmissions `node` made in the judge's slot (causality,
/// counts, resources) against what it held before the slot, and posts each
/// message to its receivers ([`Post`]); the packets it relayed on go to
/// the judge's `released`.
pub fn transmit<P: Protocol>(
    judge: &mut Judge<'_, P, impl Ledger>,
    node: NodeId,
    out: &[Transmission<P::Msg>],
    mut post: impl Post<P::Msg>,
) {
    let Judge {
        protocol,
        slot,
        task,
        holdings,
        record,
        ledger,
        released,
        faults,
    } = judge;
    let (protocol, slot, task, holdings) = (*protocol, *slot, *task, *holdings);
    let topology = protocol.topology();
    let keeps = task.is_broadcast();
    for tx in out {
        if let Some(why) = topology.invalid(&tx.route) {
            panic!("protocol bug: node {node} in slot {slot}: {why}");
        }
        let control = protocol.control(&tx.msg);
        let mut packets = 0;
        protocol.packet_runs(&tx.msg, |run| {
            packets += run.len() as u32;
            record.send_run(slot, holdings, node, run.clone());
            if !keeps {
                released.extend(run.map(|packet| (node, packet)));
            }
        });
        if control {
            record.control_transmission(tx.route.transmissions());
        } else {
            record.transmission(slot, node, packets, task, tx.route.transmissions());
        }
        topology.occupy(&tx.route, |resource| {
            if let Err(first) = take_lane(*ledger, topology, resource, tx.route) {
                record.conflict(slot, resource, first, tx.route);
            }
        });
        let arrival = Arrival {
            from: node,
            msg: tx.msg,
        };
        if let Some(faults) = faults {
            let mut lost = 0;
            topology.receivers(&tx.route, |to| {
                match faults.lost(topology, &tx.route, to, slot) {
                    true => lost += 1,
                    false => post.deliver(to, arrival),
                }
            });
            record.lose(lost);
        } else if !post.whole(&tx.route, arrival) {
            topology.receivers(&tx.route, |to| post.deliver(to, arrival));
        }
    }
}

/// Takes a free lane of `resource` for `route` (a link of k lanes carries
/// k transmissions a slot, [`Topology::lanes`]); if every lane is taken,
/// returns the first lane's holder when the ledger knows it.
#[inline]
fn take_lane(
    ledger: &mut impl Ledger,
    topology: &impl Topology,
    resource: ResourceId,
    route: Route,
) -> Result<(), Option<Route>> {
    let first = ledger.take(resource, route);
    if first.is_ok() {
        return first;
    }
    for lane in 1..topology.lanes(resource) as ResourceId {
        if ledger.take(resource + lane, route).is_ok() {
            return Ok(());
        }
    }
    first
}

/// Ends the run from `input` at `slot` (`horizon`: cut off still active
/// there): completeness and transmissions, excusing under the run's
/// faults what no healthy holder can reach ([`Faults::excuser`]).
pub fn end_run<P: Protocol>(
    protocol: &P,
    input: &P::Input,
    task: &Task,
    slot: Slot,
    holdings: &Holdings,
    record: &mut Record,
    horizon: bool,
) {
    let cut = horizon.then_some(slot);
    match protocol.faults(input) {
        None => record.end(task, holdings, cut),
        Some(faults) => {
            let excused = faults.excuser(protocol.topology(), slot, |v, p| holdings.holds(v, p));
            record.end_excusing(task, holdings, cut, excused)
        }
    }
}

/// Releases what relays sent on (see [`transmit`]).
pub fn release(holdings: &mut Holdings, released: &mut Vec<(NodeId, PacketId)>) {
    for (node, packet) in released.drain(..) {
        holdings.release(node, packet);
    }
}

/// completeness of computed results: at the end of a run from `input`,
/// every node's state must hold what the task computes
/// ([`ProtocolExt::wrong_result`](models::ProtocolExt::wrong_result)).
pub fn judge_results<P: Protocol, S: std::borrow::Borrow<P::State>>(
    protocol: &P,
    input: &P::Input,
    states: impl IntoIterator<Item = (NodeId, S)>,
    record: &mut Record,
) {
    for (v, s) in states {
        if let Some(detail) = protocol.wrong_result(input, v, s.borrow()) {
            record.wrong_result(v, detail);
        }
        if let Some(op) = protocol.unfinished(input, v, s.borrow()) {
            record.unmatched(v, op);
        }
    }
}

/// Each node's state with its id, for [`judge_results`].
pub fn numbered<S>(states: &[S]) -> impl Iterator<Item = (NodeId, &S)> {
    (0..).zip(states)
}

/// Judges one delivery of `slot` to `node` and updates what it holds.
pub fn receive<P: Protocol>(
    protocol: &P,
    slot: Slot,
    task: &Task,
    node: NodeId,
    arrival: &Arrival<P::Msg>,
    holdings: &mut impl Keep,
    record: &mut Record,
) {
    if protocol.control(&arrival.msg) {
        return record.control_delivery(slot, node);
    }
    protocol.packet_runs(&arrival.msg, |run| {
        record.deliveries(slot, task, holdings, node, run, arrival.from)
    });
}
