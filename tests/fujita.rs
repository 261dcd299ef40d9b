//! Fujita's mesh-bus gossip: SIMPLE and its refinement checked for n <= 5
//! and every l, their time against the schedule counted from the paper's
//! sets, the theorems' bounds, and a seeded bug for each bus property.

use crate::support::*;
use commcheck::engine::executor;
use models::catalog::{Algorithm, Params};
use models::fujita::simple::{Plan, Simple};
use models::topology::mesh_bus::{Bus, LineTokens};
use models::{Arrival, Mutant, MutantState, Mutation, Protocol};
use properties::bounds::fujita;
use properties::{NodeId, PropertyName, Slot, Status, Transmission};

use PropertyName::*;

fn config(a: Algorithm, n: u32, l: u32) -> models::Config {
    let params = Params {
        ell: Some(l as u64),
        ..Params::default()
    };
    a.with_params(a.config(n as u64, None, None).unwrap(), params)
        .unwrap()
}

/// SIMPLE's time from section 4.1's count, independently of its code:
/// phase 1 takes tau = ceil(n/2) steps; in phase 2 a row bus carries each
/// node's V (column j's tokens of odd i + j, |V| depends on j) in
/// ceil(|V|/l) messages, a column bus each H (row i's of even i + j), and
/// the busier kind of bus ends the run.
fn simple_time(n: u32, l: u32) -> Slot {
    let odd = |x: u32| (0..n).filter(|k| (k + x) % 2 == 1).count() as u32;
    let even = |x: u32| n - odd(x);
    let rows: u32 = (0..n).map(|j| odd(j).div_ceil(l)).sum();
    let cols: u32 = (0..n).map(|i| even(i).div_ceil(l)).sum();
    n.div_ceil(2) + rows.max(cols)
}

/// Every l from 1 to n^2 at n = 2..5, every order covered: complete, one
/// writer per bus, no duplicate, at most l tokens a message, within
/// Theorem 3 (and Corollary 2 where l divides ceil(n/2)); the time is the
/// count above for every order, and never below either lower bound.
#[test]
fn simple_meets_theorem_3_at_every_l() {
    for n in 2..=5u32 {
        for l in 1..=n * n {
            let what = format!("simple n={n} l={l}");
            let p = Simple::new(config(Algorithm::Simple, n, l), false);
            let search = lockstep(p);
            assert_holds(&search, &all_but(&[Transmissions]), &what);
            let time = simple_time(n, l);
            // n = 2: every order, 2!^4 (phase 2's two writers on each of
            // four buses; phase 1 has one a bus); n = 3 already has
            // 2^4 3!^6 = 373,248, of which a check lists 64.
            let orders = if n == 2 { 16 } else { 64 };
            assert_eq!(search.by_input.len(), orders, "{what}: orders covered");
            for &(order, (lo, hi)) in &search.by_input {
                assert_eq!((lo, hi), (time, time), "{what}, order {order}");
            }
            let (n, l) = (n as u64, l as u64);
            assert!(time as u64 <= fujita::theorem3(n, l), "{what}");
            if let Some(c) = fujita::corollary2(n, l) {
                assert!(time as u64 <= c, "{what}: Corollary 2");
            }
            let lower = fujita::theorem1(n).max(fujita::theorem2(n, l));
            assert!(time as u64 >= lower, "{what}: below a lower bound");
        }
    }
}

/// The refinement: every l at n = 2..5, complete and within Theorem 4
/// wherever its precondition holds (n = 5, l = 2 here); it never takes
/// longer than SIMPLE.
#[test]
fn simple_packed_meets_theorem_4_and_never_loses_to_simple() {
    let mut claimed = 0;
    for n in 2..=5u32 {
        for l in 1..=n * n {
            let what = format!("simple-packed n={n} l={l}");
            let search = lockstep(Simple::new(config(Algorithm::SimplePacked, n, l), true));
            assert_holds(&search, &all_but(&[TimeBound, Transmissions]), &what);
            let worst = search.worst_time.unwrap();
            assert!(worst <= simple_time(n, l), "{what}: {worst}");
            if let Some(b) = fujita::theorem4(n as u64, l as u64) {
                claimed += 1;
                assert_eq!(status(&search, TimeBound), Status::Holds, "{what}");
                assert!(worst as u64 <= b, "{what}");
            }
        }
    }
    assert_eq!(claimed, 1, "Theorem 4 applies at n = 5, l = 2 only");
}

/// The executor runs the same schedule: the same time and transmissions
/// as the lock-step check at every l, n = 2..6.
#[test]
fn the_executor_agrees_on_simple() {
    for n in 2..=6u32 {
        for l in [1, 2, n, n * n] {
            for packed in [false, true] {
                let a = [Algorithm::Simple, Algorithm::SimplePacked][packed as usize];
                let p = Simple::new(config(a, n, l), packed);
                let run = executor::run(&p, &0);
                let search = lockstep(Simple::new(config(a, n, l), packed));
                let what = format!("{} n={n} l={l}", a.name());
                for p in [
                    Completeness,
                    NoDuplication,
                    ContentionFreedom,
                    Causality,
                    MessageLength,
                ] {
                    assert_eq!(run.record.violation(p), None, "{what}");
                }
                let first = search.by_input.iter().find(|e| e.0 == 0).unwrap().1;
                assert_eq!(run.record.completion, first.1, "{what}");
                assert_eq!(
                    Some(run.record.transmissions),
                    search.transmissions.map(|t| t.0),
                    "{what}"
                );
            }
        }
    }
}

/// The bug seeded into SIMPLE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bug {
    /// message-length: phase-1 writers also send one token of their line
    /// too many (l + 1 tokens at l = 1).
    Overfull,
    /// contention-freedom: node (1,3) writes its phase-1 token on R_1 in
    /// step 1 as well, beside (1,1).
    SecondWriter,
    /// completeness: V leaves out the writer's own token (the reading of
    /// "received" without eavesdropping on one's own write).
    NoOwnToken,
}

impl Mutation<Simple> for Bug {
    type Memory = ();

    /// The first order of the writers alone (in SIMPLE nothing sent
    /// depends on the order).
    fn inputs(&self, _: &Simple) -> Vec<u32> {
        vec![0]
    }

    fn step(
        &self,
        inner: &Simple,
        node: NodeId,
        plan: &mut MutantState<Plan, ()>,
        slot: Slot,
        arrivals: &[Arrival<LineTokens>],
        choice: u32,
        out: &mut Vec<Transmission<LineTokens>>,
    ) -> bool {
        let start = out.len();
        let busy = inner.step(node, &mut plan.inner, slot, arrivals, choice, out);
        let mesh = inner.topology();
        let n = mesh.side();
        let (i, j) = mesh.at(node);
        let tau = n.div_ceil(2);
        // The writer's own token among a message's: its place on the line
        // whose tokens the message carries.
        let own = |line: Bus| match line {
            Bus::Row(_) => j,
            Bus::Col(_) => i,
        };
        match self {
            Bug::Overfull if slot <= tau => {
                for t in &mut out[start..] {
                    // The writer's own line holds the token beside its own.
                    t.msg.add((own(t.msg.line) + 1) % n);
                }
            }
            Bug::SecondWriter if (i, j) == (0, 2) && slot == 1 => {
                let mut msg = LineTokens::new(Bus::Col(j));
                msg.add(i);
                out.push(Transmission {
                    route: mesh.write(node, Bus::Row(i)),
                    msg,
                });
            }
            Bug::NoOwnToken if slot > tau => {
                for t in &mut out[start..] {
                    let own = own(t.msg.line);
                    t.msg.mask[own as usize / 64] &= !(1 << (own % 64));
                }
            }
            _ => {}
        }
        busy
    }
}

/// Each bug is caught by its property in the exhaustive checker and the
/// executor, at n = 4, l = 1.
#[test]
fn mesh_bus_mutants_are_caught() {
    let cases = [
        (Bug::Overfull, MessageLength),
        (Bug::SecondWriter, ContentionFreedom),
        (Bug::NoOwnToken, Completeness),
    ];
    for (bug, property) in cases {
        let inner = Simple::new(config(Algorithm::Simple, 4, 1), false);
        let run = executor::run(&Mutant { inner, bug }, &0);
        assert_eq!(
            run.record.violation(property).map(|v| v.property()),
            Some(property),
            "{bug:?} in the executor"
        );
        let inner = Simple::new(config(Algorithm::Simple, 4, 1), false);
        let search = lockstep(Mutant { inner, bug });
        assert_eq!(status(&search, property), Status::Violated, "{bug:?}");
    }
}

/// PARTITION as printed is complete exactly where its short last block
/// does not cut a line off: m = floor(2l/n) divides n, or m = 1, or one
/// block (m >= n); every other claimed property holds at every l. The
/// corrected variant is complete everywhere, and both take tau + min(m,
/// n) + (phase-3 writers per line) steps, within Theorem 6's tau + m +
/// sigma.
#[test]
fn partition_is_incomplete_exactly_where_m_does_not_divide_n() {
    use models::fujita::partition::Partition;
    for n in 2..=6u32 {
        for l in n.div_ceil(2)..=n * n {
            let m = 2 * l / n;
            let tau = n.div_ceil(2);
            let sigma = n.div_ceil(m);
            let theorem6 = tau + m + sigma;
            let what = format!("partition n={n} l={l} m={m}");
            let search = lockstep(Partition::new(config(Algorithm::Partition, n, l), false));
            assert_holds(
                &search,
                &[ContentionFreedom, Causality, TimeBound, MessageLength],
                &what,
            );
            let broken = m > 1 && m < n && n % m != 0;
            let expected = if broken {
                Status::Violated
            } else {
                Status::Holds
            };
            assert_eq!(status(&search, Completeness), expected, "{what}");
            let fixed = lockstep(Partition::new(
                config(Algorithm::PartitionFixed, n, l),
                true,
            ));
            assert_holds(
                &fixed,
                &[
                    Completeness,
                    ContentionFreedom,
                    Causality,
                    TimeBound,
                    MessageLength,
                ],
                &format!("partition-fixed n={n} l={l}"),
            );
            // Its phases end at tau + min(m, n) + sigma; every node has
            // every token by then (at small n the last phase brings only
            // copies, so the completion may come earlier).
            let time = tau + m.min(n) + sigma;
            let what = format!("partition-fixed n={n} l={l}");
            assert_eq!(fixed.worst_termination, Some(time), "{what}");
            assert!(fixed.worst_time.is_some_and(|t| t <= time), "{what}");
            assert!(time <= theorem6);
        }
    }
}

/// Section 6's modified PARTITION (m = ceil(2l/n), the least m for which
/// its note 2l < mn holds): where 2l/n is an integer it is
/// partition-fixed and every property holds; elsewhere its phase-3
/// messages carry the even-sum tokens of m rows, more than l of them at
/// n/2 < l < n, and it keeps to tau + m + sigma steps.
#[test]
fn the_modified_partition_of_section_6_sends_more_than_l_tokens() {
    use models::fujita::partition::Partition;
    for n in 3..=6u32 {
        for l in n / 2 + 1..=n {
            let m = (2 * l).div_ceil(n);
            let what = format!("partition-sec6 n={n} l={l} m={m}");
            let search = lockstep(Partition::section_6(config(Algorithm::PartitionSec6, n, l)));
            assert_holds(
                &search,
                &[Completeness, ContentionFreedom, Causality, TimeBound],
                &what,
            );
            let expected = match (2 * l) % n {
                0 => Status::Holds,
                _ => Status::Violated,
            };
            assert_eq!(status(&search, MessageLength), expected, "{what}");
            let sigma = n.div_ceil(m);
            assert!(
                search.worst_termination <= Some(n.div_ceil(2) + m + sigma),
                "{what}"
            );
        }
    }
}

/// The printed counterexample: at n = 5, l = 5 (m = 2, blocks {1,2},
/// {3,4}, {5}), row 1's phase-3 writers sit at columns 2 and 4, none in
/// the last block, so node (1,2) never gets t(2,5), an odd-sum token of
/// column 5.
#[test]
fn partition_counterexample_as_reported() {
    let o = outcome_with("partition", 5, &["--ell", "5"]);
    let c = reported(&o, "completeness");
    assert_eq!(c.status, properties::Status::Violated);
    assert!(
        c.counterexample
            .as_ref()
            .unwrap()
            .text
            .contains("node (1,2) lacking token t(2,5)"),
        "{:?}",
        c.counterexample
    );
}

/// CENTRALIZE as printed drops the odd member of U: complete exactly when
/// n is a power of two. The corrected variant is complete at every n and
/// l; with l = n^2 it takes phase 1 (ceil(n/2) steps: an odd n's odd
/// column has that many writers) + ceil(log2 n) merging rounds + 2
/// broadcast steps.
#[test]
fn centralize_is_complete_exactly_at_powers_of_two() {
    use models::fujita::centralize::Centralize;
    for n in 2..=6u32 {
        for l in [1, n, n * n / 2, n * n] {
            let what = format!("centralize n={n} l={l}");
            let search = lockstep(Centralize::new(config(Algorithm::Centralize, n, l), false));
            assert_holds(
                &search,
                &[ContentionFreedom, Causality, MessageLength],
                &what,
            );
            let expected = match n.is_power_of_two() {
                true => Status::Holds,
                false => Status::Violated,
            };
            assert_eq!(status(&search, Completeness), expected, "{what}");
            let fixed = lockstep(Centralize::new(
                config(Algorithm::CentralizeFixed, n, l),
                true,
            ));
            assert_holds(
                &fixed,
                &[Completeness, ContentionFreedom, Causality, MessageLength],
                &format!("centralize-fixed n={n} l={l}"),
            );
            if l == n * n {
                let rounds = 32 - (n - 1).leading_zeros();
                assert_eq!(fixed.worst_time, Some(n.div_ceil(2) + rounds + 2), "{what}");
            }
        }
    }
}

/// `check <algorithm> <n> --ell <l>` through the library, as the CLI runs
/// it (only `--ell` is taken here).
fn outcome_with(algorithm: &str, n: u64, args: &[&str]) -> commcheck::report::Outcome {
    let a = Algorithm::parse(algorithm).unwrap();
    let mut req = commcheck::check::Request::new(a, n, None, None).unwrap();
    let ell = match args {
        ["--ell", l] => Some(l.parse().unwrap()),
        _ => None,
    };
    let params = Params {
        ell,
        ..Params::default()
    };
    req.config = a.with_params(req.config, params).unwrap();
    commcheck::check::check(&req).unwrap()
}

/// `check table fujita` at sides 4, 8 and 16 (exhaustive over every order
/// at 4, the executor above): SIMPLE's cells are the count above and
/// PARTITION's its proof's phases, tau + min(m, n) + sigma (phase 2 has
/// min(m, n) writers a bus, each within one message since l >= n/2 >=
/// tau); no cell is below either lower bound; at powers of two no claim
/// breaks, so the text lists no difference; a side where PARTITION is
/// incomplete (errata item 10) is reported as broken.
#[test]
fn the_fujita_table_cells() {
    use commcheck::table::fujita::{self as t, COLUMNS, FAMILIES};
    let sides = [4, 8, 16];
    let mut heard = 0;
    let unlimited = commcheck::engine::search::Progress::default();
    let cells = t::measure_all(&sides, &unlimited, &mut |_| heard += 1);
    assert!(heard > 0 && heard <= cells.len(), "progress per run");
    for (&(c, f, n), m) in &cells {
        let (algorithm, l) = (COLUMNS[c].algorithm, (FAMILIES[f].at)(n));
        let what = format!("{} n={n} l={l}", algorithm.name());
        assert!(m.broken.is_empty(), "{what}: breaks {:?}", m.broken);
        assert!(
            m.steps as u64 >= t::lower(n, l),
            "{what}: below a lower bound"
        );
        match algorithm {
            Algorithm::Simple => assert_eq!(m.steps, simple_time(n, l), "{what}"),
            Algorithm::Partition => {
                // Within its phases (the last may bring only copies).
                let mm = (2 * l / n).min(n);
                let sigma = n.div_ceil(2 * l / n);
                assert!(m.steps <= n.div_ceil(2) + mm + sigma, "{what}");
            }
            _ => {}
        }
    }
    // Every algorithm runs on every family it names, at every side.
    for (c, column) in COLUMNS.iter().enumerate() {
        for (f, family) in FAMILIES.iter().enumerate() {
            for n in sides {
                let expected = column.families.contains(&family.name);
                assert_eq!(cells.contains_key(&(c, f, n)), expected, "{c} {f} {n}");
            }
        }
    }
    let (sheet, cut) = t::sheet(&sides, None, &mut |_| {});
    assert!(!cut);
    let text = sheet.render(commcheck::table::Format::Text);
    assert!(!text.contains("difference:"), "{text}");
    assert!(text.contains("n=16") && !text.contains("n=32"), "{text}");
    for column in &COLUMNS {
        assert!(text.contains(column.algorithm.name()), "{text}");
    }
    let unlimited = commcheck::engine::search::Progress::default();
    let broken = t::measure(Algorithm::Partition, 5, 5, &unlimited).unwrap();
    let broken = broken.expect("no budget to cut it");
    assert!(broken.broken.contains(&"completeness"), "{broken:?}");
}
