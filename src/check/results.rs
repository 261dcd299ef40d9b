//! What the engines of one check found, handed from running to the
//! report.

use crate::engine::executor::Run;
use crate::engine::exhaustive::Search;

/// What the engines of one check found.
pub struct Results {
    /// The lock-step search, where it ran.
    pub lock: Option<Search>,
    /// The actor-model search, where it ran.
    pub actors: Option<Search>,
    /// The executor's run, where it ran.
    pub executed: Option<Run>,
    /// The engines that ran, in words for the report.
    pub label: String,
    /// What the report says about an engine not run or a property not
    /// judged.
    pub notes: Vec<String>,
    /// Per property, the late landings of the lock-step counterexample's
    /// run (`--delay`), in words; empty where none.
    pub late: Vec<Vec<String>>,
    /// The lock-step search's orders were not searched: one run decided
    /// every claimed property ([`super::run::StandIn::OneRun`]).
    pub one_run: bool,
}
