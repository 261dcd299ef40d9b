//! The vocabulary of a run's configuration: the switching technique, the
//! port model, the size and the parameters beyond it (each a command-line
//! flag an algorithm declares). It names no network and no algorithm, so
//! that the topologies, the algorithms and the catalog all build on it.

use properties::NodeId;
use std::fmt;

/// Switching technique (docs/architecture.md, "Runs").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Switching {
    /// Wormhole: a worm occupies every arc of its path for one slot.
    Wh,
    /// Store-and-forward: a packet moves one arc per slot.
    Sf,
}

/// Port model (docs/architecture.md, "Port models").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ports {
    /// Any number of transmissions per node per slot (the papers' MLA).
    All,
    /// At most one sent and one received per node per slot (SLA).
    One,
}

impl fmt::Display for Switching {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Switching::Wh => "wh",
            Switching::Sf => "sf",
        })
    }
}

impl fmt::Display for Ports {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ports::All => "all",
            Ports::One => "one",
        })
    }
}

/// The parameters of a check.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// The size: the hypercube's dimension, the mesh-bus's side (see
    /// [`Family`](crate::topology::Family)).
    pub n: u32,
    /// The switching technique.
    pub switching: Switching,
    /// The port model.
    pub ports: Ports,
    /// The parameters beyond the size, as given (checked against what the
    /// algorithm declares by [`Algorithm::with_params`](crate::catalog::Algorithm::with_params)).
    pub params: Params,
}

/// The values of the parameters beyond the size: each is a flag, and an
/// algorithm takes only those it declares (see [`Param`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Params {
    /// `--k`: the number of broadcasting nodes.
    pub k: Option<u64>,
    /// `--ell`: tokens per bus message.
    pub ell: Option<u64>,
    /// `--broadcasters`: the broadcasting nodes, as given.
    pub broadcasters: Option<Vec<NodeId>>,
    /// `--multiset`: a node may broadcast several packets (listed as many
    /// times in `--broadcasters`; every K-multiset with `--k`).
    pub multiset: bool,
    /// A mesh's or torus's sides as given (`5x7`); None: n x n.
    pub sides: Option<Vec<u32>>,
    /// `--torus`: the torus rather than the mesh.
    pub torus: bool,
    /// `--source`, where an algorithm's claim depends on the source (a
    /// mesh's eccentricity).
    pub source: Option<NodeId>,
}

impl Params {
    /// The flags given, by name.
    pub fn given(&self) -> Vec<&'static str> {
        let mut flags = Vec::new();
        if self.k.is_some() {
            flags.push("--k");
        }
        if self.ell.is_some() {
            flags.push("--ell");
        }
        if self.broadcasters.is_some() {
            flags.push("--broadcasters");
        }
        if self.multiset {
            flags.push("--multiset");
        }
        if self.torus {
            flags.push("--torus");
        }
        flags
    }
}

/// A parameter an algorithm declares beyond its size: the CLI accepts its
/// flag for this algorithm only.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// The flag (`--k`, `--ell`, `--broadcasters`).
    pub flag: &'static str,
    /// What it means, its range and its default, in words.
    pub meaning: &'static str,
    /// The values accepted at dimension n, inclusive (for a list, the
    /// range of its length).
    pub range: fn(u32) -> (u64, u64),
    /// Why values below the range fail, and what to use instead (an
    /// algorithm's precondition), or "".
    pub below: &'static str,
}
