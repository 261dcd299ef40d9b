//! Seeded bugs: every property must catch a mutant protocol built to break
//! it, in the exhaustive checker and in the executor, while the unmutated
//! protocol passes.

use crate::support::*;
use commcheck::engine::executor;
use models::blocks::broadcast::Packet;
use models::catalog::Algorithm;
use models::lecture_notes::sbt::Sbt;
use models::wang_ku::nob::{Levels, Nob};
use models::{Arrival, Mutant, MutantState, Mutation, Protocol, ProtocolExt};
use properties::{NodeId, PropertyName, Route, Slot, Status, Transmission};

/// The bug seeded into a protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bug {
    /// completeness: the source's first transmission is never sent.
    DropFirst,
    /// no-duplication (NODUP): the source sends its first transmission
    /// again in slot 2.
    SendAgain,
    /// no-duplication (NOHO): a node reached by the source sends the
    /// packet straight back.
    EchoToSource,
    /// contention-freedom: worms lose their forced first arc (Wang-Ku
    /// rule 3 without its detour).
    Unforced,
    /// causality: the node farthest from the source sends the packet in
    /// slot 1, before anyone could have given it.
    Forge,
    /// time-bound: every node waits a slot before acting on an arrival.
    Dawdle,
    /// the declared xor symmetry: node 1 (whatever the source) never
    /// sends, so the run from source 1 is not the image of the run from 0.
    Asymmetric,
}

/// What a bug remembers of a node: the source (the bugs' "first" and
/// "farthest" are the source's), a transmission to send again, the
/// arrivals held back a slot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
struct Memory {
    source: NodeId,
    again: Option<Transmission<Packet>>,
    held: Vec<Arrival<Packet>>,
}

type State<P> = MutantState<<P as Protocol>::State, Memory>;

impl<P: Protocol<Input = NodeId, Msg = Packet>> Mutation<P> for Bug {
    type Memory = Memory;

    fn init(&self, inner: &P, input: &NodeId, node: NodeId) -> State<P> {
        MutantState {
            inner: inner.init(input, node),
            memory: Memory {
                source: *input,
                ..Memory::default()
            },
        }
    }

    fn step(
        &self,
        inner: &P,
        node: NodeId,
        state: &mut State<P>,
        slot: Slot,
        arrivals: &[Arrival<Packet>],
        choice: u32,
        out: &mut Vec<Transmission<Packet>>,
    ) -> bool {
        let memory = &mut state.memory;
        let source = memory.source;
        let mut busy = false;
        if *self == Bug::Dawdle && slot > 1 {
            // Act on last slot's arrivals now; keep this slot's for the next.
            let now = std::mem::replace(&mut memory.held, arrivals.to_vec());
            busy |= inner.step(node, &mut state.inner, slot, &now, choice, out);
            return busy || !memory.held.is_empty();
        }
        busy |= inner.step(node, &mut state.inner, slot, arrivals, choice, out);
        match self {
            Bug::DropFirst if slot == 1 && node == source => {
                out.remove(0);
            }
            Bug::SendAgain => {
                if let Some(t) = memory.again.take() {
                    out.push(t);
                } else if slot == 1 && node == source {
                    memory.again = out.first().copied();
                    busy = true;
                }
            }
            Bug::EchoToSource => {
                for a in arrivals.iter().filter(|a| a.from == source) {
                    out.push(Transmission {
                        route: Route::Worm {
                            from: node,
                            to: source,
                            first: None,
                        },
                        msg: a.msg,
                    });
                }
            }
            Bug::Unforced => {
                for t in out.iter_mut() {
                    if let Route::Worm { first, .. } = &mut t.route {
                        *first = None;
                    }
                }
            }
            Bug::Asymmetric if node == 1 => out.clear(),
            Bug::Forge if slot == 1 => {
                let far = source ^ (models::Topology::nodes(inner.topology()) - 1);
                if node == far {
                    out.push(Transmission {
                        route: Route::Worm {
                            from: node,
                            to: node ^ 1,
                            first: None,
                        },
                        msg: Packet { source, step: 0 },
                    });
                }
            }
            _ => {}
        }
        busy
    }

    /// A resend and held arrivals come in slots the protocol's node may
    /// sleep through: every slot is stepped.
    fn wake(&self, _: &P, _: &State<P>, slot: Slot) -> Slot {
        slot + 1
    }
}

fn nob(n: u64) -> Nob {
    Nob::new(Algorithm::Nob.config(n, None, None).unwrap(), Levels::Text)
}

fn sbt(n: u64) -> Sbt {
    Sbt::new(Algorithm::Sbt.config(n, None, None).unwrap())
}

/// The mutant of `make()` with `bug` violates `property` in the lock-step
/// check and in the executor run from source 0; the unmutated protocol
/// does not.
fn caught<P>(make: impl Fn() -> P, bug: Bug, property: PropertyName)
where
    P: Protocol<Input = NodeId, Msg = Packet> + 'static,
{
    let clean = lockstep(make());
    assert_eq!(
        status(&clean, property),
        Status::Holds,
        "{bug:?}: the unmutated protocol passes"
    );
    let search = lockstep(Mutant { inner: make(), bug });
    assert_eq!(
        status(&search, property),
        Status::Violated,
        "{bug:?} escapes the checker"
    );
    let run = executor::run(&Mutant { inner: make(), bug }, &0);
    let claims = run.record.evidence(&Mutant { inner: make(), bug }.claims());
    assert_eq!(
        claims[property as usize].status,
        Status::Violated,
        "{bug:?} escapes the executor"
    );
    // The dense drive (the one `run` takes where the protocol gives
    // codes) reports what the inbox drive does, senders named and all.
    let mutant = Mutant { inner: make(), bug };
    let inbox = executor::drive(&mutant, &0, &Default::default(), executor::Drive::Inbox);
    assert_eq!(run, inbox, "{bug:?}: the executor's drives agree");
}

#[test]
fn completeness_catches_a_dropped_worm() {
    caught(|| nob(4), Bug::DropFirst, PropertyName::Completeness);
}

#[test]
fn no_duplication_catches_a_resent_worm() {
    caught(|| nob(4), Bug::SendAgain, PropertyName::NoDuplication);
}

#[test]
fn no_duplication_catches_a_packet_sent_home() {
    caught(|| sbt(3), Bug::EchoToSource, PropertyName::NoDuplication);
    let search = lockstep(Mutant {
        inner: sbt(3),
        bug: Bug::EchoToSource,
    });
    let v = search.findings[PropertyName::NoDuplication as usize].violation;
    assert!(
        matches!(v, Some(properties::Violation::OwnPacket { .. })),
        "NOHO, not NODUP: {v:?}"
    );
}

#[test]
fn contention_freedom_catches_rule_3_without_its_detour() {
    caught(|| nob(4), Bug::Unforced, PropertyName::ContentionFreedom);
}

#[test]
fn causality_catches_a_forged_packet() {
    caught(|| sbt(3), Bug::Forge, PropertyName::Causality);
}

#[test]
fn time_bound_catches_a_dawdling_node() {
    caught(|| nob(4), Bug::Dawdle, PropertyName::TimeBound);
    // Dawdling delays, it does not lose: completeness still holds.
    let search = lockstep(Mutant {
        inner: nob(4),
        bug: Bug::Dawdle,
    });
    assert_eq!(status(&search, PropertyName::Completeness), Status::Holds);
}

#[test]
fn transmissions_catches_a_wasted_worm() {
    // sbt claims transmission optimality (lecture notes).
    caught(|| sbt(3), Bug::SendAgain, PropertyName::Transmissions);
}

#[test]
fn contention_freedom_catches_a_port_overload_under_one_port() {
    // One-port sbt sends one arc per slot; the resend of slot 2 doubles
    // the source's sends in that slot.
    let cfg = Algorithm::Sbt
        .config(3, Some(models::Switching::Sf), Some(models::Ports::One))
        .unwrap();
    caught(
        || Sbt::new(cfg.clone()),
        Bug::SendAgain,
        PropertyName::ContentionFreedom,
    );
}

#[test]
fn a_declared_symmetry_that_does_not_hold_is_refused() {
    let clean = crate::symmetry::xor_symmetry_broken(std::sync::Arc::new(sbt(3)));
    assert_eq!(clean, None);
    let broken = crate::symmetry::xor_symmetry_broken(std::sync::Arc::new(Mutant {
        inner: sbt(3),
        bug: Bug::Asymmetric,
    }));
    assert!(
        broken.is_some_and(|why| why.starts_with("source 1")),
        "caught"
    );
}

/// The compact asynchronous encoding and stateright's own ActorModel reach
/// the same verdicts on every mutant (they share one semantics, but not
/// one encoding). Their state counts may differ here: the compact encoding
/// keeps one record for the system, so two states that differ only in
/// which node's record holds a violation are one state (the properties
/// read the merged record in both); without violations the counts are
/// equal (tests/agreement.rs).
#[test]
fn the_compact_actor_encoding_agrees_with_stateright_on_every_mutant() {
    use commcheck::engine::exhaustive;
    use std::sync::Arc;
    let bugs = [
        Bug::DropFirst,
        Bug::SendAgain,
        Bug::EchoToSource,
        Bug::Forge,
        Bug::Dawdle,
        Bug::Asymmetric,
    ];
    for bug in bugs {
        for mutant in [Mutant { inner: nob(3), bug }] {
            let p = Arc::new(mutant);
            let inputs = p.inputs();
            let ours = exhaustive::actors(Arc::clone(&p), &inputs, BUDGET);
            let theirs = exhaustive::stateright_actors(Arc::clone(&p), &inputs, 1);
            for prop in ACTOR_JUDGED {
                assert_eq!(
                    status(&ours, prop),
                    status(&theirs, prop),
                    "{bug:?}: {}",
                    prop.as_str()
                );
            }
        }
        let sbt_mutant = Arc::new(Mutant { inner: sbt(3), bug });
        let inputs = sbt_mutant.inputs();
        let ours = exhaustive::actors(Arc::clone(&sbt_mutant), &inputs, BUDGET);
        let theirs = exhaustive::stateright_actors(sbt_mutant, &inputs, 1);
        for prop in ACTOR_JUDGED {
            assert_eq!(status(&ours, prop), status(&theirs, prop), "sbt {bug:?}");
        }
    }
}

/// The same seeded bugs on a mesh (lecture notes' algorithms on M(4,4)):
/// the grid's arcs and ports are judged by the same properties.
#[test]
fn grid_broadcasts_catch_the_seeded_bugs() {
    use models::catalog::Params;
    use models::lecture_notes::mesh_sf::{Kind, MeshSf};
    use models::lecture_notes::recursive_doubling::RecursiveDoubling;
    let grid = |a: Algorithm| {
        let cfg = a.config(4, None, None).unwrap();
        let params = Params {
            sides: Some(vec![4, 4]),
            ..Params::default()
        };
        a.with_params(cfg, params).unwrap()
    };
    let mesh = || MeshSf::new(grid(Algorithm::MeshSf), Kind::Printed);
    let doubling = || RecursiveDoubling::new(grid(Algorithm::RecursiveDoubling));
    caught(mesh, Bug::DropFirst, PropertyName::Completeness);
    caught(mesh, Bug::EchoToSource, PropertyName::NoDuplication);
    caught(mesh, Bug::Dawdle, PropertyName::TimeBound);
    // The resent worm leaves the source's out-port busy twice in slot 2.
    caught(doubling, Bug::SendAgain, PropertyName::ContentionFreedom);
    caught(doubling, Bug::Forge, PropertyName::Causality);
}
