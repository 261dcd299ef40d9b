//! commcheck: a model checker and executor for the classic communication
//! algorithms of parallel machines.
//!
//! `properties` (the run vocabulary and the properties) <- `models`
//! (topologies, the node-logic trait, the algorithms) <- this crate (the
//! engines, the `check` CLI, reports, tables and pictures).

pub mod check;
pub mod engine;
pub mod report;
pub mod show;
pub mod table;
