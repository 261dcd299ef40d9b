//! The algorithms commcheck knows, their names, papers and the switching and
//! port models each is defined for; input validation worded for the user.

use crate::hypercube::Hypercube;
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// Hypercube dimension.
    pub n: u32,
    pub switching: Switching,
    pub ports: Ports,
}

/// Input the catalog refuses, worded for the person who typed it.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ModelError {
    #[error("unknown algorithm '{0}'; `check list` shows the accepted names")]
    UnknownAlgorithm(String),
    #[error("dimension {n} is out of range for {algorithm}: accepted 1..={max}")]
    Dimension {
        algorithm: &'static str,
        n: u64,
        max: u32,
    },
    #[error(
        "{algorithm} is defined for {supported}; not for --switching {switching} --ports {ports}"
    )]
    Mode {
        algorithm: &'static str,
        switching: Switching,
        ports: Ports,
        supported: String,
    },
    #[error("source {node} is not a node of the {n}-cube: accepted 0..={max}")]
    Source { node: u64, n: u32, max: u64 },
}

/// How far each engine finishes without a budget on the reference
/// machine (2 cores; BENCHMARKS.md has the measurements): past `lockstep`
/// the default engine is the executor, past `actor` the actor model asks
/// for a budget, and up to `actor_auto` the default check runs the actor
/// model beside the lock-step one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub lockstep: u32,
    pub actor: u32,
    pub actor_auto: u32,
}

/// Every algorithm, by the paper's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    Sbt,
    Dt,
    Nob,
    NobAppendix,
    NaiveTree,
    Flood,
}

impl Algorithm {
    /// Every algorithm, in `check list` order.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Sbt,
        Algorithm::Dt,
        Algorithm::Nob,
        Algorithm::NobAppendix,
        Algorithm::NaiveTree,
        Algorithm::Flood,
    ];

    /// The CLI token and report label.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Sbt => "sbt",
            Algorithm::Dt => "dt",
            Algorithm::Nob => "nob",
            Algorithm::NobAppendix => "nob-appendix",
            Algorithm::NaiveTree => "naive-tree",
            Algorithm::Flood => "flood",
        }
    }

    /// The algorithm called `name`.
    pub fn parse(name: &str) -> Result<Algorithm, ModelError> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| ModelError::UnknownAlgorithm(name.to_string()))
    }

    /// One line on what it is.
    pub fn summary(self) -> &'static str {
        match self {
            Algorithm::Sbt => "spanning binomial tree broadcast, n steps",
            Algorithm::Dt => "double tree broadcast, ceil(n/2) steps",
            Algorithm::Nob => "near-optimal broadcast with recursive Hamming codes",
            Algorithm::NobAppendix => "nob with the Appendix's floor(n/p) levels, read literally",
            Algorithm::NaiveTree => "2^p-ary subcube tree without Hamming codes (Fig. 4(a))",
            Algorithm::Flood => "flooding: forward to every neighbour but the senders",
        }
    }

    /// Where it comes from.
    pub fn reference(self) -> &'static str {
        match self {
            Algorithm::Sbt => "lecture notes, Store-and-forward OAB, Hypercube",
            Algorithm::Dt => "lecture notes, Wormhole OAB, Hypercube (DTA)",
            Algorithm::Nob => "Wang & Ku, ICS'95, section 3 and Appendix",
            Algorithm::NobAppendix => "Wang & Ku, ICS'95, Appendix (docs/errata.md)",
            Algorithm::NaiveTree => "Wang & Ku, ICS'95, section 3, Figs. 3 and 4(a)",
            Algorithm::Flood => "lecture notes, Store-and-forward OAB",
        }
    }

    /// The paper's claim, in its words and formulas.
    pub fn claim(self) -> &'static str {
        match self {
            Algorithm::Sbt => {
                "n steps; complete, one copy per node, contention-free, 2^n - 1 transmissions"
            }
            Algorithm::Dt => "ceil(n/2) steps; complete, contention-free",
            Algorithm::Nob | Algorithm::NobAppendix => {
                "ceil(n / floor(log2(n+1))) steps (Theorem 3); one copy per node (Theorem 1), \
                 contention-free (Theorem 2)"
            }
            Algorithm::NaiveTree => {
                "claimed as nob's (the paper shows it contends): ceil(n / floor(log2(n+1))) steps"
            }
            Algorithm::Flood => "n steps (the diameter); complete",
        }
    }

    /// Where each engine finishes without a budget (see [`Reach`]).
    pub fn reach(self) -> Reach {
        let (lockstep, actor, actor_auto) = match self {
            Algorithm::Sbt | Algorithm::Dt => (20, 5, 4),
            Algorithm::Nob | Algorithm::NobAppendix => (8, 5, 4),
            Algorithm::NaiveTree => (18, 5, 4),
            Algorithm::Flood => (19, 0, 0),
        };
        Reach {
            lockstep,
            actor,
            actor_auto,
        }
    }

    /// The (switching, ports) combinations the paper defines it for; the
    /// first is the default.
    pub fn modes(self) -> &'static [(Switching, Ports)] {
        use Ports::*;
        use Switching::*;
        match self {
            Algorithm::Sbt => &[(Wh, All), (Sf, All), (Sf, One), (Wh, One)],
            Algorithm::Dt | Algorithm::Nob | Algorithm::NobAppendix | Algorithm::NaiveTree => {
                &[(Wh, All)]
            }
            Algorithm::Flood => &[(Sf, All), (Wh, All)],
        }
    }

    /// The modes as command-line flags (`--switching wh --ports all, ...`).
    pub fn modes_as_flags(self) -> String {
        self.modes()
            .iter()
            .map(|(s, p)| format!("--switching {s} --ports {p}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The configuration for `n` with the given (or default) modes, checked.
    pub fn config(
        self,
        n: u64,
        switching: Option<Switching>,
        ports: Option<Ports>,
    ) -> Result<Config, ModelError> {
        let max = Hypercube::MAX_DIM;
        if !(1..=max as u64).contains(&n) {
            return Err(ModelError::Dimension {
                algorithm: self.name(),
                n,
                max,
            });
        }
        let (ds, dp) = self.modes()[0];
        let (switching, ports) = (switching.unwrap_or(ds), ports.unwrap_or(dp));
        if !self.modes().contains(&(switching, ports)) {
            let supported = self.modes_as_flags();
            return Err(ModelError::Mode {
                algorithm: self.name(),
                switching,
                ports,
                supported,
            });
        }
        Ok(Config {
            n: n as u32,
            switching,
            ports,
        })
    }
}

/// Checks a `--source` against the n-cube.
pub fn check_source(source: u64, n: u32) -> Result<u32, ModelError> {
    let max = (1u64 << n) - 1;
    if source > max {
        return Err(ModelError::Source {
            node: source,
            n,
            max,
        });
    }
    Ok(source as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bad_input_is_worded() {
        for a in Algorithm::ALL {
            assert_eq!(Algorithm::parse(a.name()), Ok(a));
        }
        assert!(Algorithm::parse("nbo")
            .unwrap_err()
            .to_string()
            .contains("check list"));
        let e = Algorithm::Nob
            .config(0, None, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("1..=30"), "{e}");
        let e = Algorithm::Nob
            .config(4, Some(Switching::Sf), None)
            .unwrap_err();
        assert!(e.to_string().contains("--switching wh --ports all"));
        assert!(check_source(16, 4)
            .unwrap_err()
            .to_string()
            .contains("0..=15"));
    }
}
