//! Building blocks several algorithms share: the plumbing of a
//! single-source hypercube broadcast (`broadcast`), the flooding rule on
//! any network (`flood`) and a fixed schedule of worms carried to any
//! source by a translation (`schedule`).

pub mod broadcast;
pub mod flood_rule;
pub mod translated;
