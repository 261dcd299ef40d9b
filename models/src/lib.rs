//! Topologies, the node-logic trait every engine drives, and one module per
//! algorithm.
//!
//! Every algorithm module opens with the paper, section and claim it
//! encodes, then reads top to bottom as that paper describes it.

pub mod broadcast;
pub mod broadcasters;
pub mod catalog;
pub mod centralize;
pub mod dilated_diagonal;
pub mod dt;
pub mod esbt;
pub mod fixed_trees;
pub mod flood;
pub mod gather;
pub mod grid;
pub mod hamming;
pub mod hka;
pub mod hypercube;
pub mod kbcast;
pub mod kbcast_ranked;
pub mod kbcast_small;
pub mod mesh_bus;
pub mod mesh_flood;
pub mod mesh_sf;
pub mod mna;
pub mod mnb;
pub mod mnb_ring;
pub mod mnb_sbt;
pub mod naive_tree;
pub mod nob;
pub mod partition;
pub mod prefix;
pub mod protocol;
pub mod recursive_doubling;
pub mod rotation;
pub mod sbt;
pub mod scatter;
pub mod schedule;
pub mod simple;
pub mod sna;
pub mod snb;
pub mod topology;
pub mod total_exchange;

pub use catalog::{Algorithm, Config, ModelError, Ports, Shape, Switching};
pub use grid::Grid;
pub use hypercube::Hypercube;
pub use mesh_bus::MeshBus;
pub use protocol::{Arrival, Protocol, Symmetry};
pub use topology::Topology;

/// Runs `body` with `p` bound to the protocol of an algorithm:
/// `with_protocol!(algorithm, config, |p| body)`. Each algorithm has its own
/// types, so the engines are generic; this match is generated from
/// [`registry!`], the one list of algorithms.
#[macro_export]
macro_rules! with_protocol {
    ($alg:expr, $cfg:expr, |$p:ident| $body:expr) => {
        $crate::registry!([$crate::with_protocol_arms]($alg, $cfg, $p, $body))
    };
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
