//! commcheck: a model checker and executor for the classic communication
//! algorithms of parallel machines.
//!
//! `properties` (the run vocabulary and the properties) <- `models`
//! (topologies, the node-logic trait, the algorithms) <- this crate (the
//! engines, checks, reports, tables and pictures; the `check` command is
//! its binary).
//!
//! # Using it as a library
//!
//! A protocol of your own implements [`models::Protocol`] (its node logic
//! and its claim) and is checked like the catalogue's algorithms, with
//! every property, by [`check::check_protocol`]; `use
//! commcheck::prelude::*` brings in what that takes from the three crates:
//!
//! * [`check::Subject::own`] names it, and reads its size and modes from
//!   its topology;
//! * [`check::Options`] picks the engine (lock-step, actor model,
//!   executor) and the budgets;
//! * the [`report::Outcome`] has one verdict per property, the
//!   counterexample in the paper's words and its Explorer path
//!   (`text()` prints it as `check` does);
//! * [`show::explore`] serves the model in stateright's Explorer.
//!
//! A catalogued algorithm is checked by [`check::check`] with a
//! [`check::Request`]. `examples/` holds complete programs, and
//! docs/extending.md walks through writing one.

#![warn(missing_docs)]

pub mod check;
pub mod claims;
pub mod cli;
pub mod cost;
pub mod engine;
pub mod import;
pub mod optimal;
pub mod prelude;
pub mod report;
pub mod show;
pub mod table;
