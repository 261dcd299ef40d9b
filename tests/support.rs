//! Running a protocol through each engine, for the tests.

use commcheck::check::{self, Engine, Request};
use commcheck::engine::executor::{Drive, RANGE};
use commcheck::engine::exhaustive::{self, Budget, Search};
use commcheck::report::Outcome;
use models::catalog::{Algorithm, Ports, Switching};
use models::{Protocol, ProtocolExt};
use properties::{PropertyName, Status};
use std::path::PathBuf;
use std::sync::Arc;

/// A budget that every test model stays far below.
pub const BUDGET: Budget = Budget {
    threads: 1,
    max_states: Some(5_000_000),
    timeout: None,
    memory: None,
    verify_probes: true,
    settle: None,
};

/// The executor's threaded drives the tests compare with its inboxes:
/// 1 to 3 threads with its ranges of receivers, and ranges of 64 (several
/// to a thread once a network has 128 nodes).
pub const SCHEDULES: [Drive; 5] = [
    Drive::Phased {
        threads: 1,
        range: RANGE,
    },
    Drive::Phased {
        threads: 2,
        range: RANGE,
    },
    Drive::Phased {
        threads: 3,
        range: RANGE,
    },
    Drive::Phased {
        threads: 1,
        range: 64,
    },
    Drive::Phased {
        threads: 3,
        range: 64,
    },
];

/// The lock-step search of `protocol` from every input.
pub fn lockstep<P: Protocol + 'static>(protocol: P) -> Search {
    let p = Arc::new(protocol);
    let inputs = p.inputs();
    exhaustive::lockstep(p, inputs, BUDGET)
}

/// The actor-model search of `protocol` from every input.
pub fn actors<P: Protocol + 'static>(protocol: P) -> Search {
    let p = Arc::new(protocol);
    let inputs = p.inputs();
    exhaustive::actors(p, &inputs, BUDGET)
}

/// The status of `property` in a search.
pub fn status(search: &Search, property: PropertyName) -> Status {
    search.findings[property as usize].status
}

/// Asserts the search was complete and every property in `holding` holds.
pub fn assert_holds(search: &Search, holding: &[PropertyName], what: &str) {
    assert!(
        search.cut.is_none(),
        "{what}: the search was cut by the budget"
    );
    assert!(!search.no_run_ends, "{what}: no run ended");
    for &p in holding {
        let f = &search.findings[p as usize];
        assert_eq!(
            f.status,
            Status::Holds,
            "{what}: {} {:?}",
            p.as_str(),
            f.violation
        );
    }
}

/// Every property but those in `left_out`, in [`PropertyName::ALL`]'s
/// order.
pub fn all_but(left_out: &[PropertyName]) -> Vec<PropertyName> {
    PropertyName::ALL
        .into_iter()
        .filter(|p| !left_out.contains(p))
        .collect()
}

/// The properties the actor model judges (it has no global slot, so not
/// contention-freedom; transmissions is added where it is claimed).
pub const ACTOR_JUDGED: [PropertyName; 4] = [
    PropertyName::Completeness,
    PropertyName::NoDuplication,
    PropertyName::Causality,
    PropertyName::TimeBound,
];

/// The outcome of `check <algorithm> <n>` with an engine, through the
/// library (as the CLI runs it).
pub fn outcome(
    algorithm: &str,
    n: u64,
    engine: Engine,
    modes: Option<(Switching, Ports)>,
) -> Outcome {
    let algorithm = Algorithm::parse(algorithm).unwrap();
    let (switching, ports) = modes.unzip();
    let mut req = Request::new(algorithm, n, switching, ports).unwrap();
    req.options.engine = Some(engine);
    check::check(&req).unwrap()
}

/// The status of `property` in an outcome.
pub fn reported<'a>(o: &'a Outcome, property: &str) -> &'a commcheck::report::PropertyReport {
    o.properties.iter().find(|p| p.name == property).unwrap()
}

/// The status of `property` in an outcome, which must report it (the
/// outcome is printed if it does not).
pub fn status_of(o: &Outcome, property: &str) -> properties::Status {
    o.properties
        .iter()
        .find(|p| p.name == property)
        .unwrap_or_else(|| panic!("{property} reported\n{}", o.text()))
        .status
}

/// The counterexample's sentence of `property` in `o` (empty: none).
pub fn text_of(o: &Outcome, property: &str) -> String {
    counterexample_of(o, property)
        .map(|c| c.text)
        .unwrap_or_default()
}

/// The counterexample of `property` in `o`, if it has one.
pub fn counterexample_of(o: &Outcome, property: &str) -> Option<commcheck::report::Counterexample> {
    o.properties
        .iter()
        .find(|p| p.name == property)
        .and_then(|p| p.counterexample.clone())
}

/// The statuses of a JSON report's properties, in its order.
pub fn statuses(report: &serde_json::Value) -> Vec<&str> {
    report["properties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["status"].as_str().unwrap())
        .collect()
}

/// The property `name` of a JSON report (its one entry; panics naming
/// the report where there is none).
pub fn property<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["properties"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == name))
        .unwrap_or_else(|| panic!("no {name} in {report}"))
}

/// A file in the temporary directory holding one test's input, named by
/// the process and `name`, removed when dropped.
pub struct TempFile(pub PathBuf);

impl TempFile {
    /// `text`, written to a file of its own.
    pub fn new(name: &str, text: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("commcheck-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The witness `check optimal` wrote for `task` on the 2-cube
/// (store-and-forward, all-port) to `file`, in any format `check
/// schedule` reads, checked again: every safety property holds at the
/// optimum, with its transmissions. The outcome, for more.
pub fn witness_holds(
    task: &str,
    file: &std::path::Path,
    report: &commcheck::check::optimal::OptimalReport,
) -> Outcome {
    use commcheck::check::schedule::{check_schedule, ScheduleRequest};
    let o = check_schedule(&ScheduleRequest {
        switching: Switching::Sf,
        ..ScheduleRequest::new(file, "hypercube:2".parse().unwrap())
    })
    .unwrap_or_else(|e| panic!("{task}: {e}"));
    for p in [
        "completeness",
        "contention-freedom",
        "causality",
        "matching",
    ] {
        assert_eq!(status_of(&o, p), Status::Holds, "{task} {p}: {}", o.text());
    }
    assert_eq!(o.time.measured, report.slots, "{task}: {}", o.text());
    assert_eq!(
        o.transmissions,
        report.transmissions.map(|t| t as u64),
        "{task}"
    );
    o
}
