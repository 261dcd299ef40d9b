//! The networks, the node-logic trait every engine drives, and the
//! algorithms of five papers.
//!
//! * `topology`: the [`Topology`] trait and one file per network
//!   (hypercube, meshes and tori, mesh-bus, a graph a user describes).
//! * `config`: a run's configuration (switching, ports, size, parameters),
//!   the vocabulary the networks, the algorithms and the catalog share.
//! * `protocol`: the [`Protocol`] trait, the node logic an algorithm
//!   writes; `entry`: what an algorithm says about itself (name, paper,
//!   claim, modes, reach, cost model); `catalog`: the registry of the
//!   algorithms' entries; `mutant`: a protocol with a bug seeded
//!   into it ([`Mutant`]), for tests and examples.
//! * `faults`, `faulty`: an imperfect machine (failed links and nodes,
//!   late deliveries, skewed starts) and any protocol run on it.
//! * `blocks`: what several algorithms share.
//! * `schedule`: a schedule a user brings (ranks, operations, a partial
//!   order, a collective), run as a protocol (docs/schedules.md).
//! * one folder per paper, one file per algorithm: `wang_ku`,
//!   `bertsekas`, `stamoulis`, `fujita`, `lecture_notes`. Every algorithm
//!   file opens with the paper, section and claim it encodes, then reads
//!   top to bottom as that paper describes it.

#![warn(missing_docs)]

pub mod bertsekas;
pub mod blocks;
pub mod catalog;
pub mod config;
pub mod entry;
pub mod faults;
pub mod fujita;
pub mod imperfect;
pub mod lecture_notes;
pub mod mutant;
pub mod protocol;
pub mod schedule;
pub mod stamoulis;
pub mod topology;
pub mod wang_ku;

pub use catalog::{Algorithm, ModelError};
pub use config::{Config, Ports, Switching};
pub use faults::{Fault, Faults, Part};
pub use imperfect::{Faulty, Scenario, Sweep};
pub use mutant::{Mutant, MutantState, Mutation};
pub use protocol::{
    Arrival, Choices, Codes, Hints, Inputs, Judging, Machine, Plain, Protocol, ProtocolExt,
    Sources, Symmetry, NO_CODE, PACKED_NODE_BITS,
};
pub use topology::{
    Family, Graph, Grid, Hypercube, Medium, MeshBus, Network, NetworkSpec, Topology,
};

/// Runs `body` with `p` bound to the protocol of an algorithm:
/// `with_protocol!(algorithm, config, |p| body)`. Each algorithm has its own
/// types, so the engines are generic; this match is generated from
/// [`registry!`], the one list of algorithms.
#[macro_export]
macro_rules! with_protocol {
    ($alg:expr, $cfg:expr, |$p:ident| $body:expr) => {
        $crate::registry!([$crate::with_protocol_arms]($alg, $cfg, $p, $body))
    };
    // `p` is `Some(protocol)`, built through `$build` (a closure of a
    // [`Builder`] to its product or none): a check builds on a thread it
    // can stop waiting for, since the largest models take a minute.
    ($alg:expr, $cfg:expr, built by $build:expr, |$p:ident| $body:expr) => {
        $crate::registry!([$crate::with_protocol_built_arms](
            $alg, $cfg, $build, $p, $body
        ))
    };
}

/// A protocol's build, boxed so that one function (not one a protocol)
/// can run it on a thread: see `with_protocol!(.., built by ..)`.
pub type Builder = Box<dyn FnOnce() -> Box<dyn std::any::Any + Send> + Send>;

/// The protocol a [`Builder`] of `build` made.
#[doc(hidden)]
pub fn unbox<P: 'static>(_build: fn(Config) -> P, built: Box<dyn std::any::Any + Send>) -> P {
    *built
        .downcast()
        .expect("a builder makes its entry's protocol")
}

#[doc(hidden)]
#[macro_export]
macro_rules! with_protocol_built_arms {
    (($alg:expr, $cfg:expr, $build:expr, $p:ident, $body:expr) $($variant:ident => $entry:path,)*) => {{
        let cfg = $cfg;
        match $alg {
            $($crate::catalog::Algorithm::$variant => {
                let builder: $crate::Builder = Box::new(move || Box::new(($entry.build)(cfg)));
                let $p = ($build)(builder).map(|built| $crate::unbox($entry.build, built));
                $body
            })*
        }
    }};
}

#[doc(hidden)]
#[macro_export]
macro_rules! with_protocol_arms {
    (($alg:expr, $cfg:expr, $p:ident, $body:expr) $($variant:ident => $entry:path,)*) => {{
        let cfg = $cfg;
        match $alg {
            $($crate::catalog::Algorithm::$variant => {
                let $p = ($entry.build)(cfg);
                $body
            })*
        }
    }};
}
