//! The library's parts, each tested alone through its public surface
//! (modules marked `#[doc(hidden)]` are public for these tests only).

mod args;
mod astra;
mod cost_goal;
mod goal_comments;
mod judging;
mod lines;
mod links;
mod loggops;
#[cfg(feature = "mpi")]
mod partitioned;
mod progress;
#[cfg(feature = "mpi")]
mod sharded;
mod sheet;
mod topo_xml;
mod visited;
