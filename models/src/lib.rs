//! Topologies, the node-logic trait every engine drives, and one module per
//! algorithm.
//!
//! Every algorithm module opens with the paper, section and claim it
//! encodes, then reads top to bottom as that paper describes it.

pub mod broadcast;
pub mod catalog;
pub mod dt;
pub mod flood;
pub mod hamming;
pub mod hypercube;
pub mod naive_tree;
pub mod nob;
pub mod protocol;
pub mod sbt;
pub mod topology;

pub use catalog::{Algorithm, Config, ModelError, Ports, Switching};
pub use hypercube::Hypercube;
pub use protocol::{Arrival, Protocol, Symmetry};
pub use topology::Topology;

/// The name and the protocol constructor of every algorithm, in one place:
/// `with_protocol!(algorithm, config, |p| body)` runs `body` with `p` bound
/// to the algorithm's protocol (each has its own types, so the engines are
/// generic and this is the one match over algorithms).
#[macro_export]
macro_rules! with_protocol {
    ($alg:expr, $cfg:expr, |$p:ident| $body:expr) => {{
        use $crate::catalog::Algorithm;
        let cfg = $cfg;
        match $alg {
            Algorithm::Sbt => {
                let $p = $crate::sbt::Sbt::new(cfg);
                $body
            }
            Algorithm::Dt => {
                let $p = $crate::dt::Dt::new(cfg);
                $body
            }
            Algorithm::Nob => {
                let $p = $crate::nob::Nob::new(cfg, $crate::nob::Levels::Text);
                $body
            }
            Algorithm::NobAppendix => {
                let $p = $crate::nob::Nob::new(cfg, $crate::nob::Levels::Appendix);
                $body
            }
            Algorithm::NaiveTree => {
                let $p = $crate::naive_tree::NaiveTree::new(cfg);
                $body
            }
            Algorithm::Flood => {
                let $p = $crate::flood::Flood::new(cfg);
                $body
            }
        }
    }};
}
