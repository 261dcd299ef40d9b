//! The examples (examples/): programs a user would write against the
//! public API, each with a protocol of its own. `cargo clippy
//! --all-targets` checks them as programs; here each example's file is
//! included as a module and its checks run as its `main` runs them, so an
//! example stays a standalone program and is still checked. What they
//! find is held against figures computed here from the definitions (the
//! path's and the comb's times and counts), not taken from the examples'
//! code.

/// The pipelined Gray-code path broadcast on the n-cube.
#[allow(dead_code)] // `main` and the printing are the program's
#[path = "../examples/gray_path.rs"]
mod gray_path;

/// The comb broadcast tree on a mesh.
#[allow(dead_code)]
#[path = "../examples/mesh_tree.rs"]
mod mesh_tree;

/// The smallest complete program, quoted whole by docs/extending.md.
#[allow(dead_code)]
#[path = "../examples/first_claim.rs"]
mod first_claim;

use commcheck::check::{check_protocol, Options, Subject};
use commcheck::report::{Finder, Outcome, PropertyReport};
use models::{Hypercube, Ports, Switching};
use properties::Status;

/// Every claimed property of `o` holds.
fn assert_holds(o: &Outcome) {
    for p in o.properties.iter().filter(|p| p.claimed) {
        assert_eq!(p.status, Status::Holds, "{}:\n{}", p.name, o.text());
    }
    assert!(!o.refuted() && !o.undecided(), "{}", o.text());
}

/// The report of property `name` in `o`.
fn property<'a>(o: &'a Outcome, name: &str) -> &'a PropertyReport {
    o.properties
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("{name} is reported"))
}

/// `name` is a violated claim of `o`, found by the lock-step model, with a
/// counterexample and an Explorer path; returns the report.
fn assert_caught<'a>(o: &'a Outcome, name: &str) -> &'a PropertyReport {
    let p = property(o, name);
    assert!(p.claimed, "{name} is claimed");
    assert_eq!(p.status, Status::Violated, "{}", o.text());
    assert_eq!(p.found_by, Some(Finder::LockStep));
    assert!(p.counterexample.is_some(), "{}", o.text());
    let path = p.explorer_path.as_deref().expect("an Explorer path");
    assert!(
        !path.is_empty() && path.split('/').all(|s| s.parse::<u64>().is_ok()),
        "an Explorer path is input/action/...: {path}"
    );
    assert!(o.refuted());
    p
}

#[test]
fn gray_path_takes_2_to_the_n_minus_2_plus_k_slots_and_catches_an_eager_source() {
    let found = gray_path::findings(|_| {});
    let mut engines = Vec::new();
    for (n, k, o) in &found.honest {
        let (n, k) = (*n as u64, *k as u64);
        assert_holds(o);
        // The last of K packets leaves the source in slot K and takes
        // 2^n - 1 hops; every node but the source receives each packet once.
        let nodes = 1u64 << n;
        assert_eq!(
            o.time.measured,
            Some((nodes - 2 + k) as u32),
            "{}",
            o.text()
        );
        assert_eq!(o.time.bound, o.time.measured);
        assert_eq!(o.transmissions, Some(k * (nodes - 1)));
        assert_eq!(o.optimal_transmissions, Some(k * (nodes - 1)));
        if o.engine.starts_with("exhaustive") {
            // Every source, and both models: the protocol is event-driven.
            assert_eq!(o.inputs_checked as u64, nodes, "{}", o.text());
            assert!(
                o.states.is_some() && o.actor_states.is_some(),
                "{}",
                o.text()
            );
        }
        engines.push((o.engine.clone(), n, k));
    }
    assert!(engines
        .iter()
        .any(|(e, _, k)| e.contains("actor") && *k > 1));
    assert!(engines.iter().any(|(e, n, _)| e == "executor" && *n == 20));

    // Two packets over one arc in one slot: contention, from the first slot.
    let seeded = &found.seeded;
    let p = assert_caught(seeded, "contention-freedom");
    let c = p.counterexample.as_ref().unwrap();
    assert_eq!(c.slot, Some(1), "{}", c.text);
    assert_eq!(c.transmissions.len(), 2, "{}", c.text);
    // The bug is the rate only: everything still arrives, once, in time.
    for name in ["completeness", "no-duplication", "causality", "time-bound"] {
        assert_eq!(property(seeded, name).status, Status::Holds, "{name}");
    }
    assert!(gray_path::judge(&found), "the program exits 0");
    // docs/extending.md quotes this counterexample and its path.
    let guide = std::fs::read_to_string("docs/extending.md").unwrap();
    assert!(guide.contains(&c.text), "the guide quotes {}", c.text);
    let path = p.explorer_path.as_ref().unwrap();
    assert!(guide.contains(&format!("explorer: #/steps/{path}\n")));
}

#[test]
fn mesh_comb_takes_each_sources_eccentricity_and_catches_a_branching_tooth() {
    let found = mesh_tree::findings(|_, _| {});
    let mut small = 0;
    for (case, o) in &found.honest {
        assert_holds(o);
        let (r, c) = case.source;
        let ecc = r.max(case.rows - 1 - r) + c.max(case.cols - 1 - c);
        assert_eq!(o.time.measured, Some(ecc), "{}", o.text());
        assert_eq!(o.time.bound, Some(ecc), "the claim is the source's own");
        assert_eq!(o.transmissions, Some((case.rows * case.cols - 1) as u64));
        if o.engine.starts_with("exhaustive") {
            assert!(o.actor_states.is_some(), "{}", o.text());
            small += 1;
        }
    }
    assert_eq!(small, 20, "every source of M(4,5)");
    let big = &found.honest.last().unwrap().1;
    assert_eq!(big.engine, "executor");
    assert_eq!(big.time.measured, Some(723 + 700));

    // A tooth reached along its column also sends along its row: the
    // spine's neighbours in the next rows hear the packet twice.
    let seeded = &found.seeded;
    let p = assert_caught(seeded, "no-duplication");
    let c = p.counterexample.as_ref().unwrap();
    assert_eq!(c.slot, Some(2), "{}", c.text);
    assert_caught(seeded, "transmissions");
    assert_eq!(property(seeded, "completeness").status, Status::Holds);
    assert!(mesh_tree::judge(&found), "the program exits 0");
}

#[test]
fn the_smallest_program_reaches_a_verdict_and_the_guide_quotes_it_whole() {
    let path = first_claim::Path(Hypercube::new(3, Switching::Sf, Ports::One));
    let subject = Subject::own("path", &path);
    let o = check_protocol(path, &subject, &Options::default()).unwrap();
    assert_holds(&o);
    assert_eq!(o.time.measured, Some(7));
    assert_eq!(o.transmissions, Some(7));

    let program = std::fs::read_to_string("examples/first_claim.rs").unwrap();
    let guide = std::fs::read_to_string("docs/extending.md").unwrap();
    let quoted = guide
        .split("```rust\n")
        .nth(1)
        .and_then(|s| s.split("```\n").next())
        .expect("docs/extending.md opens with a rust block");
    assert_eq!(quoted, program, "docs/extending.md quotes first_claim.rs");
    // The report quoted after it is the one the program prints (but for
    // the time it took).
    let report = guide
        .split("```text\n")
        .nth(1)
        .and_then(|s| s.split("```\n").next())
        .expect("docs/extending.md quotes the program's report");
    let timeless = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with("elapsed:"))
            .map(String::from)
            .collect()
    };
    assert_eq!(timeless(report), timeless(&o.text()));
    let lines = program
        .lines()
        .skip_while(|l| !l.starts_with("use "))
        .count();
    assert!(lines <= 50, "first_claim.rs is {lines} lines from `use`");
    assert!(
        guide.contains(&format!("the whole program is {lines} lines from `use`")),
        "docs/extending.md gives the program's length, {lines} lines"
    );
}
