//! The run vocabulary every engine shares (slot, resource, transmission,
//! delivery), the properties a check reports on, and the papers' bound
//! formulas.
//!
//! This crate knows nothing of stateright, clap or any topology: a property
//! is written here once and evaluated by the exhaustive checker and by the
//! executor alike, which is what lets the two be compared.

#![warn(missing_docs)]

pub mod bounds;
pub mod holdings;
pub mod record;
pub mod vocabulary;

pub use holdings::{Holdings, Inserted, Keep, Part, Reached};
pub use record::{Claims, Evidence, Load, PropertyName, Record, Status, Violation, WriteTally};
pub use vocabulary::{Need, Needs, NodeId, PacketId, ResourceId, Route, Slot, Task, Transmission};

/// A seeded generator for the unit tests' random cases: each call gives a
/// number below its argument (a linear congruence, the same every run).
#[cfg(test)]
fn seeded(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |m| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    }
}
