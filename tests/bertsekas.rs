//! Bertsekas et al. 1991: every algorithm checked exhaustively at small d,
//! MLA and SLA, against Tables 1 and 2 typed in by hand; the seeded flaw of
//! Fig. 5 refuted; mutants of the new task semantics (relays, combining)
//! caught.

use crate::support::*;
use models::bertsekas::mnb::Mnb;
use models::bertsekas::scatter::{Parcel, Scatter, ScatterState};
use models::bertsekas::sna::{Sna, Sum};
use models::catalog::{Algorithm, Ports, Switching};
use models::{
    with_protocol, Arrival, Mutant, MutantState, Mutation, Protocol, ProtocolExt, Topology,
};
use properties::{NodeId, PropertyName, Slot, Status, Task, Transmission};

/// Tables 1 and 2 at d = 1..5, by hand: (d, MLA time, SLA time) for the
/// single node problems and the multinode and scatter problems, and the
/// transmission counts 2^d - 1 and 2^d (2^d - 1).
const TABLE: [(u32, u32, u32, u32, u64, u64); 5] = [
    // d, snb,  mnb MLA, mnb SLA, snb tx, mnb tx
    (1, 1, 1, 1, 1, 2),
    (2, 2, 2, 3, 3, 12),
    (3, 3, 3, 7, 7, 56),
    (4, 4, 4, 15, 15, 240),
    (5, 5, 7, 31, 31, 992),
];

fn config(a: Algorithm, d: u32, ports: Ports) -> models::Config {
    a.config(d as u64, Some(Switching::Sf), Some(ports))
        .unwrap()
}

/// Every claimed property holds at every input, and the measured time
/// and transmission count are the table's.
fn check_row(a: Algorithm, d: u32, ports: Ports, time: u32, tx: u64) {
    let what = format!("{} d={d} {ports}", a.name());
    with_protocol!(a, config(a, d, ports), |p| {
        // One source where the xor symmetry covers the others (tested in
        // the symmetry module).
        let inputs = match p.symmetry() {
            Some(_) => p.sourced_inputs(0),
            None => p.inputs(),
        };
        let n = inputs.len();
        // gather at d = 4 under SLA: 414,720 inputs of 16 states.
        let budget = commcheck::engine::exhaustive::Budget {
            max_states: Some(20_000_000),
            ..BUDGET
        };
        let search =
            commcheck::engine::exhaustive::lockstep(std::sync::Arc::new(p), inputs, budget);
        assert_holds(&search, &PropertyName::ALL, &what);
        assert_eq!(search.inputs_done, n, "{what}");
        assert_eq!(search.worst_time, Some(time), "{what}");
        assert_eq!(search.transmissions, Some((tx, tx)), "{what}");
    });
}

#[test]
fn single_node_broadcast_and_accumulation_take_d_slots_and_2d_minus_1_transmissions() {
    for (d, snb, ..) in TABLE {
        let tx = TABLE[d as usize - 1].4;
        for ports in [Ports::All, Ports::One] {
            check_row(Algorithm::Snb, d, ports, snb, tx);
            check_row(Algorithm::Sna, d, ports, snb, tx);
        }
    }
}

#[test]
fn multinode_broadcast_meets_both_tables_in_every_variant() {
    for (d, _, mla, sla, _, tx) in TABLE {
        check_row(Algorithm::Mnb, d, Ports::All, mla, tx);
        check_row(Algorithm::Mnb, d, Ports::One, sla, tx);
        check_row(Algorithm::MnbRing, d, Ports::One, sla, tx);
        check_row(Algorithm::Mna, d, Ports::All, mla, tx);
        check_row(Algorithm::Mna, d, Ports::One, sla, tx);
    }
}

/// Section 2's q and E_i read with floor, as printed (`mnb-floor`): E_q
/// takes d + r elements (r = (2^d - 1) mod d, at least 1), so in slot
/// floor((2^d - 1)/d) two links of one type collide and the parent of
/// 1..1 sends what it has not yet received, at every d = 2..5 and every
/// variant; at d = 1 floor and ceil agree and it holds.
#[test]
fn the_floor_reading_of_the_link_sets_collides_and_forges() {
    use PropertyName::*;
    for d in 1..=5u32 {
        let what = format!("mnb-floor d={d}");
        let p = Mnb::floor(config(Algorithm::MnbFloor, d, Ports::All));
        let inputs = p.inputs();
        let search =
            commcheck::engine::exhaustive::lockstep(std::sync::Arc::new(p), inputs, BUDGET);
        let status = |q: PropertyName| search.findings[q as usize].status;
        let broken = d >= 2;
        for q in [ContentionFreedom, Causality] {
            assert_eq!(
                status(q) == Status::Violated,
                broken,
                "{what}: {}",
                q.as_str()
            );
        }
        if broken {
            let floor = ((1u32 << d) - 1) / d;
            assert_eq!(search.worst_time, Some(floor), "{what}");
            assert!(floor < properties::bounds::bertsekas::scatter_time_mla(d) as u32);
        }
    }
}

/// Scatter and gather: Table 1's scatter times (the multinode ones) and
/// Table 2's d 2^(d-1) transmissions, by hand: 1, 4, 12, 32 at d = 1..4,
/// every tree, every tie (gather: every reversed schedule up to its cap;
/// gather-mnb: every variant of the multinode broadcast it is cut from,
/// section 3's claim that it attains Eq. (2) in the optimal time).
#[test]
fn scatter_and_gather_meet_both_tables() {
    let tx = [1u64, 4, 12, 32];
    for (d, _, mla, sla, ..) in &TABLE[..4] {
        let t = tx[*d as usize - 1];
        for a in [Algorithm::Scatter, Algorithm::Gather, Algorithm::GatherMnb] {
            check_row(a, *d, Ports::All, *mla, t);
            check_row(a, *d, Ports::One, *sla, t);
        }
    }
}

/// d = 5 has six variants of the construction (one free class in N_2 with
/// two candidates, one in N_3 with three), all checked.
#[test]
fn every_variant_of_the_construction_is_an_input() {
    let p = Mnb::new(config(Algorithm::Mnb, 5, Ports::All));
    assert_eq!(p.inputs().len(), 6);
    assert_eq!(p.inputs_total(), 6);
}

/// Fig. 5: the binomial tree's A_2 has two links of one type, so its
/// translates collide from d = 3 on (two packets for one arc in slot 2);
/// at d <= 2 every A_i has one link per type.
#[test]
fn the_binomial_tree_replicated_contends() {
    for d in 3..=5 {
        let search = lockstep(Mnb::binomial(config(Algorithm::MnbSbt, d, Ports::All)));
        assert_eq!(
            status(&search, PropertyName::ContentionFreedom),
            Status::Violated,
            "d={d}"
        );
        let v = search.findings[PropertyName::ContentionFreedom as usize].violation;
        assert!(
            matches!(v, Some(properties::Violation::Conflict { slot: 2, .. })),
            "d={d}: {v:?}"
        );
    }
    for d in 1..=2 {
        let search = lockstep(Mnb::binomial(config(Algorithm::MnbSbt, d, Ports::All)));
        assert_holds(&search, &PropertyName::ALL, &format!("d={d}"));
    }
}

/// The bug seeded into single node accumulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bug {
    /// no-duplication: a leaf sends its term twice (added twice at the
    /// root).
    SumTwice,
    /// causality: a node claims its parent's whole subtree.
    Overclaim,
    /// causality: terms bundled where the task does not combine (the
    /// run judged as a gather).
    Bundle,
}

impl Mutation<Sna> for Bug {
    type Memory = ();

    fn task(&self, inner: &Sna, root: &NodeId) -> Task {
        match self {
            Bug::Bundle => Task::Gather {
                nodes: inner.topology().nodes(),
                root: *root,
            },
            _ => inner.task(root),
        }
    }

    fn step(
        &self,
        inner: &Sna,
        node: NodeId,
        root: &mut MutantState<NodeId, ()>,
        slot: Slot,
        arrivals: &[Arrival<Sum>],
        choice: u32,
        out: &mut Vec<Transmission<Sum>>,
    ) -> bool {
        let busy = inner.step(node, &mut root.inner, slot, arrivals, choice, out);
        let x = node ^ root.inner;
        match self {
            Bug::SumTwice if x == 0b111 && slot == 1 => {
                out.push(out[0]);
            }
            Bug::Overclaim if x == 0b11 => {
                for t in out.iter_mut() {
                    t.msg.below = 0b10;
                }
            }
            _ => {}
        }
        busy
    }
}

#[test]
fn accumulation_mutants_are_caught() {
    let cases = [
        (Bug::SumTwice, PropertyName::NoDuplication),
        (Bug::Overclaim, PropertyName::Causality),
        (Bug::Bundle, PropertyName::Causality),
    ];
    for (bug, property) in cases {
        let inner = Sna::new(config(Algorithm::Sna, 3, Ports::All));
        let search = lockstep(Mutant { inner, bug });
        assert_eq!(status(&search, property), Status::Violated, "{bug:?}");
    }
}

/// Total exchange, by hand from Tables 1 and 2: MLA 2^(d-1) slots, SLA
/// d 2^(d-1), d 2^(2d-1) transmissions; under MLA every directed link is
/// busy in every slot (the section's 100% utilization).
#[test]
fn total_exchange_meets_both_tables_with_every_link_busy() {
    let rows: [(u32, u32, u32, u64); 5] = [
        (1, 1, 1, 2),
        (2, 2, 4, 16),
        (3, 4, 12, 96),
        (4, 8, 32, 512),
        (5, 16, 80, 2560),
    ];
    for (d, mla, sla, tx) in rows {
        check_row(Algorithm::TotalExchange, d, Ports::All, mla, tx);
        check_row(Algorithm::TotalExchange, d, Ports::One, sla, tx);
        let req = commcheck::check::Request::new(
            Algorithm::TotalExchange,
            d as u64,
            Some(Switching::Sf),
            Some(Ports::All),
        )
        .unwrap();
        let outcome = commcheck::check::check(&req).unwrap();
        assert_eq!(outcome.link_utilization, Some(1.0), "d={d}");
        if d == 3 {
            // Every node's two-packet tie in rule (a), both ways: 2^8.
            assert_eq!(outcome.inputs_total, 256);
            assert_eq!(outcome.inputs_checked, 256, "every tie-breaking checked");
        }
    }
}

/// The bug seeded into scatter's relays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RelayBug {
    /// no-duplication: a relay sends a packet on twice in one slot (two
    /// copies reach the destination).
    Twice,
    /// causality: a relay sends a packet on again a slot later, after it
    /// let go of it.
    Again,
}

/// What a relay bug remembers: the transmission to send again.
type Last = Option<Transmission<Parcel>>;

impl Mutation<Scatter> for RelayBug {
    type Memory = Last;

    /// From source 0 alone (every tree).
    fn inputs(&self, inner: &Scatter) -> Vec<(NodeId, u32)> {
        inner.sourced_inputs(0)
    }

    fn step(
        &self,
        inner: &Scatter,
        node: NodeId,
        s: &mut MutantState<ScatterState, Last>,
        slot: Slot,
        arrivals: &[Arrival<Parcel>],
        choice: u32,
        out: &mut Vec<Transmission<Parcel>>,
    ) -> bool {
        let busy = inner.step(node, &mut s.inner, slot, arrivals, choice, out);
        let relay = node != s.inner.root && !out.is_empty();
        let again = s.memory.take();
        match self {
            RelayBug::Twice if relay => out.push(out[0]),
            RelayBug::Again if relay => s.memory = Some(out[0]),
            _ => {}
        }
        if let Some(t) = again {
            out.push(t);
        }
        busy || s.memory.is_some()
    }
}

#[test]
fn relay_mutants_are_caught() {
    for (bug, property) in [
        (RelayBug::Twice, PropertyName::NoDuplication),
        (RelayBug::Again, PropertyName::Causality),
    ] {
        for ports in [Ports::All, Ports::One] {
            let inner = Scatter::new(config(Algorithm::Scatter, 3, ports));
            let search = lockstep(Mutant { inner, bug });
            assert_eq!(
                status(&search, property),
                Status::Violated,
                "{bug:?} {ports}"
            );
        }
    }
}
