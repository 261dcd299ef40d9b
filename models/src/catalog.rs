//! The algorithms commcheck knows: the registry of their entries (one line
//! each), the [`Algorithm`] enum generated from it, and input validation
//! worded for the user. What an entry says is `entry`'s vocabulary, and a
//! run's configuration `config`'s; both are re-exported here.

pub use crate::config::{Config, Param, Params, Ports, Switching};
pub use crate::entry::{
    count_words, every_packet_bytes, one_packet_bytes, one_packet_bytes_grid, pair_packet_bytes,
    personal_packet_bytes, variant_label, Entry, Info, Reach, ENUMERATED_UP_TO,
};
use crate::protocol::{Arrival, Protocol};
use crate::topology::Family;

/// Input the catalog refuses, worded for the person who typed it.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ModelError {
    /// No algorithm has this name.
    #[error("unknown algorithm '{0}'; `check list` shows the accepted names")]
    UnknownAlgorithm(String),
    /// The size is out of the algorithm's range.
    #[error("{word} {n} is out of range for {algorithm}: accepted {min}..={max}{beyond}")]
    Dimension {
        /// The algorithm's name.
        algorithm: &'static str,
        /// What its size is called ("dimension", "side").
        word: &'static str,
        /// The size given.
        n: u64,
        /// The least size accepted.
        min: u32,
        /// The largest.
        max: u32,
        /// Past the top: what the executor would need there.
        beyond: String,
    },
    /// The paper does not define the algorithm in this mode.
    #[error(
        "{algorithm} is defined for {supported}; not for --switching {switching} --ports {ports}"
    )]
    Mode {
        /// The algorithm's name.
        algorithm: &'static str,
        /// The switching asked for.
        switching: Switching,
        /// The port model asked for.
        ports: Ports,
        /// The modes it is defined for, as flags.
        supported: String,
    },
    /// The source is not a node of the cube.
    #[error("source {node} is not a node of the {n}-cube: accepted 0..={max}")]
    Source {
        /// The source given.
        node: u64,
        /// The dimension.
        n: u32,
        /// The largest node.
        max: u64,
    },
    /// The algorithm does not take this flag.
    #[error("{algorithm} does not take {flag}: it takes {takes}")]
    NotTaken {
        /// The algorithm's name.
        algorithm: &'static str,
        /// The flag given.
        flag: &'static str,
        /// The flags it takes, in words.
        takes: String,
    },
    /// A parameter's value is out of its range at this size.
    #[error(
        "{flag} {value} is out of range for {algorithm} at n = {n}: accepted {lo}..={hi}{why}"
    )]
    ParamRange {
        /// The algorithm's name.
        algorithm: &'static str,
        /// The flag.
        flag: &'static str,
        /// The value given.
        value: u64,
        /// The size.
        n: u32,
        /// The least value accepted.
        lo: u64,
        /// The largest.
        hi: u64,
        /// The precondition that fails, where the algorithm gives one.
        why: String,
    },
    /// Sides the algorithm does not cover (the dilated-diagonal
    /// broadcast's T(5^k, 5^k)).
    #[error("{why}")]
    Sides {
        /// Why, in one line.
        why: String,
    },
    /// The broadcasting nodes given do not fit.
    #[error("--broadcasters: {why}")]
    Broadcasters {
        /// Why, in words.
        why: String,
    },
}

/// A lower bound on the executor's memory at dimension d for `algorithm`:
/// its holdings, in bytes (the run adds a few words per node, which the
/// check adds once the protocol is built).
pub fn executor_bytes(algorithm: Algorithm, d: u32) -> u64 {
    algorithm.executor_bytes(d)
}

/// The executor's cost model (BENCHMARKS.md): per node its state, two
/// inbox entries and two busy bits; a bit per arc; and what the entry
/// declares (holdings and the algorithm's own tables).
fn entry_bytes<P: Protocol>(entry: &Entry<P>, d: u32, ranks: u64) -> u64 {
    let family = entry.info.family;
    if family == Family::Cube && d >= 40 {
        return u64::MAX;
    }
    let nodes = family.nodes(d);
    // Per node its codes and bits in the dense drive, else its state, two
    // inbox entries and two busy bits.
    let per_node = match P::PACKS {
        true => crate::protocol::PACKED_NODE_BITS,
        false => {
            let inbox = std::mem::size_of::<Option<Arrival<P::Msg>>>() as u64;
            8 * (std::mem::size_of::<P::State>() as u64 + 2 * inbox) + 2
        }
    };
    // A bit per resource (a cube's d arcs a node and, under one-port, its
    // two ports; a mesh-bus's 2n buses).
    let resources = match family {
        Family::Cube => (2 + d as u64) * nodes,
        Family::MeshBus { .. } => 2 * d as u64,
        // Up to four dimensions' arcs both ways and the ports (a graph
        // is no catalogued algorithm's network: as a grid's).
        Family::Grid { .. } | Family::Graph => 8 * nodes,
    };
    let bits = nodes.saturating_mul(per_node).saturating_add(resources);
    entry
        .info
        .memory
        .bytes_over(d, ranks)
        .saturating_add(bits / 8 / ranks.max(1))
}

/// The registry: one line per algorithm, `Variant => entry`, in `check list`
/// order. `registry!([m] (args))` calls `m! { (args) Variant => entry, ... }`, so that the
/// [`Algorithm`] enum and `with_protocol!` are both generated from it.
#[macro_export]
macro_rules! registry {
    ([$($m:tt)*] ($($args:tt)*)) => {
        $($m)*! { ($($args)*)
            Sbt => $crate::lecture_notes::sbt::ENTRY,
            Dt => $crate::lecture_notes::dt::ENTRY,
            Nob => $crate::wang_ku::nob::TEXT,
            NobAppendix => $crate::wang_ku::nob::APPENDIX,
            NobRule3Printed => $crate::wang_ku::nob::RULE3_PRINTED,
            NobRule2Left => $crate::wang_ku::nob::RULE2_LEFT,
            NobEcubeLow => $crate::wang_ku::nob::ECUBE_LOW,
            NobSourcesRetire => $crate::wang_ku::nob::SOURCES_RETIRE,
            NaiveTree => $crate::wang_ku::naive_tree::ENTRY,
            Flood => $crate::lecture_notes::flood::ENTRY,
            Snb => $crate::bertsekas::snb::ENTRY,
            Sna => $crate::bertsekas::sna::ENTRY,
            Mnb => $crate::bertsekas::mnb::ENTRY,
            MnbFloor => $crate::bertsekas::mnb::FLOOR,
            MnbRing => $crate::bertsekas::mnb_ring::ENTRY,
            Mna => $crate::bertsekas::mna::ENTRY,
            MnbSbt => $crate::bertsekas::mnb_sbt::ENTRY,
            Scatter => $crate::bertsekas::scatter::ENTRY,
            Gather => $crate::bertsekas::gather::ENTRY,
            GatherMnb => $crate::bertsekas::gather_mnb::ENTRY,
            TotalExchange => $crate::bertsekas::total_exchange::ENTRY,
            Prefix => $crate::stamoulis::prefix::ENTRY,
            Esbt => $crate::stamoulis::esbt::ENTRY,
            FtTrees => $crate::stamoulis::ft_trees::ENTRY,
            KbcastSmall => $crate::stamoulis::kbcast_small::ENTRY,
            FixedTrees => $crate::stamoulis::fixed_trees::ENTRY,
            Kbcast => $crate::stamoulis::kbcast::ENTRY,
            KbcastCeil => $crate::stamoulis::kbcast::CEIL,
            KbcastNoWait => $crate::stamoulis::kbcast::NO_WAIT,
            KbcastMnb => $crate::stamoulis::kbcast::MNB,
            KbcastRandom => $crate::stamoulis::kbcast::RANDOM,
            KbcastRanked => $crate::stamoulis::kbcast_ranked::TEXT,
            KbcastRankedShifted => $crate::stamoulis::kbcast_ranked::SHIFTED,
            Simple => $crate::fujita::simple::ENTRY,
            SimplePacked => $crate::fujita::simple::PACKED,
            SimpleOwnUnheard => $crate::fujita::simple::OWN_UNHEARD,
            Partition => $crate::fujita::partition::ENTRY,
            PartitionFixed => $crate::fujita::partition::FIXED,
            PartitionSec6 => $crate::fujita::partition::SECTION_6,
            Centralize => $crate::fujita::centralize::ENTRY,
            CentralizeFixed => $crate::fujita::centralize::FIXED,
            MeshSf => $crate::lecture_notes::mesh_sf::ENTRY,
            MeshSfFarthest => $crate::lecture_notes::mesh_sf::FARTHEST,
            TorusSf => $crate::lecture_notes::mesh_sf::TORUS,
            TorusSfCut => $crate::lecture_notes::mesh_sf::TORUS_CUT,
            RecursiveDoubling => $crate::lecture_notes::recursive_doubling::ENTRY,
            MeshFlood => $crate::lecture_notes::mesh_flood::ENTRY,
            HoKao => $crate::lecture_notes::hka::ENTRY,
            DilatedDiagonal => $crate::lecture_notes::dilated_diagonal::ENTRY,
        }
    };
}

macro_rules! define_algorithms {
    (() $($variant:ident => $entry:path,)*) => {
        /// Every algorithm, by the paper's name (generated from [`registry!`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Algorithm {
            $(
                #[doc = concat!("The algorithm of `", stringify!($entry), "`.")]
                $variant,
            )*
        }

        impl Algorithm {
            /// Every algorithm, in `check list` order.
            pub const ALL: &'static [Algorithm] = &[$(Algorithm::$variant,)*];

            /// What the algorithm's module says about it.
            pub fn info(self) -> &'static Info {
                match self {
                    $(Algorithm::$variant => &$entry.info,)*
                }
            }

            /// What an executor run takes at dimension d, in bytes, known
            /// before anything is built (see `entry_bytes`).
            pub fn executor_bytes(self, d: u32) -> u64 {
                self.executor_bytes_over(d, 1)
            }

            /// What each of `ranks` MPI ranks of an executor run takes at
            /// dimension d: its share of the nodes' and resources' bits
            /// and of a broadcast's holdings, and the tables every rank
            /// keeps whole ([`crate::entry::Footprint`]).
            pub fn executor_bytes_over(self, d: u32, ranks: u64) -> u64 {
                match self {
                    $(Algorithm::$variant => entry_bytes(&$entry, d, ranks),)*
                }
            }
        }
    };
}

registry!([define_algorithms]());

impl Algorithm {
    /// The CLI token and report label.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The algorithm called `name`.
    pub fn parse(name: &str) -> Result<Algorithm, ModelError> {
        Algorithm::ALL
            .iter()
            .copied()
            .find(|a| a.name() == name)
            .ok_or_else(|| ModelError::UnknownAlgorithm(name.to_string()))
    }

    /// One line on what it is.
    pub fn summary(self) -> &'static str {
        self.info().summary
    }

    /// Where it comes from.
    pub fn reference(self) -> &'static str {
        self.info().reference
    }

    /// The paper's claim, in its words and formulas.
    pub fn claim(self) -> &'static str {
        self.info().claim
    }

    /// Where each engine finishes without a budget (see [`Reach`]).
    pub fn reach(self) -> Reach {
        self.info().reach
    }

    /// The network, and what its size n means.
    pub fn family(self) -> Family {
        self.info().family
    }

    /// The (switching, ports) combinations the paper defines it for; the
    /// first is the default.
    pub fn modes(self) -> &'static [(Switching, Ports)] {
        self.info().modes
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
        let family = self.family();
        let (min, max) = family.sizes();
        if !(min as u64..=max as u64).contains(&n) {
            let beyond = if n > max as u64 && n <= 64 {
                let bytes = self.info().memory.bytes(n as u32);
                let gb = bytes as f64 / 1e9;
                let about = if bytes == u64::MAX {
                    "more than"
                } else {
                    "about"
                };
                let gb = if gb < 1e4 {
                    format!("{gb:.1}")
                } else {
                    format!("{gb:.1e}")
                };
                format!(" (node ids are 32-bit; its executor would need {about} {gb} GB)")
            } else {
                String::new()
            };
            return Err(ModelError::Dimension {
                algorithm: self.name(),
                word: family.size_word(),
                n,
                min,
                max,
                beyond,
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
            params: Params::default(),
        })
    }

    /// `config` with the parameters `params`: each flag must be one the
    /// algorithm declares, in its range; broadcasters must be distinct
    /// nodes of the cube.
    pub fn with_params(self, mut config: Config, params: Params) -> Result<Config, ModelError> {
        let declared = self.info().params;
        let param = |flag| declared.iter().find(|p| p.flag == flag);
        for flag in params.given() {
            if param(flag).is_none() {
                let takes: Vec<&str> = declared.iter().map(|p| p.flag).collect();
                return Err(ModelError::NotTaken {
                    algorithm: self.name(),
                    flag,
                    takes: match takes.is_empty() {
                        true => match self.family() {
                            Family::Grid { .. } => {
                                "only the sides (and --source, --switching, --ports)".into()
                            }
                            _ => "only the dimension n (and --switching, --ports)".into(),
                        },
                        false => takes.join(", "),
                    },
                });
            }
        }
        let n = config.n;
        let in_range = |flag, value: u64| {
            let p = param(flag).expect("declared");
            let (lo, hi) = (p.range)(n);
            match (lo..=hi).contains(&value) {
                true => Ok(()),
                false => Err(ModelError::ParamRange {
                    algorithm: self.name(),
                    flag,
                    value,
                    n,
                    lo,
                    hi,
                    why: match (value < lo, p.below) {
                        (true, why) if !why.is_empty() => format!(" ({why})"),
                        _ => String::new(),
                    },
                }),
            }
        };
        for (flag, value) in [("--k", params.k), ("--ell", params.ell)] {
            if let Some(v) = value {
                in_range(flag, v)?;
            }
        }
        if let Some(nodes) = &params.broadcasters {
            let max = (1u64 << n) - 1;
            if let Some(&x) = nodes.iter().find(|&&x| x as u64 > max) {
                return Err(ModelError::Broadcasters {
                    why: format!("{x} is not a node of the {n}-cube: accepted 0..={max}"),
                });
            }
            let mut sorted = nodes.clone();
            sorted.sort_unstable();
            if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1] && !params.multiset) {
                return Err(ModelError::Broadcasters {
                    why: format!(
                        "node {} is listed twice (--multiset lets a node broadcast \
                         several packets, where the algorithm takes it)",
                        w[0]
                    ),
                });
            }
            let (lo, hi) = (param("--broadcasters").expect("declared").range)(n);
            if !(lo..=hi).contains(&(nodes.len() as u64)) {
                return Err(ModelError::Broadcasters {
                    why: format!(
                        "{} nodes listed; {} at n = {n} takes {lo}..={hi}",
                        nodes.len(),
                        self.name()
                    ),
                });
            }
            if let Some(k) = params.k.filter(|&k| k != nodes.len() as u64) {
                return Err(ModelError::Broadcasters {
                    why: format!("{} nodes listed, but --k {k}", nodes.len()),
                });
            }
        }
        // The one algorithm whose sides are narrower than its family's.
        if let (Algorithm::DilatedDiagonal, Some(sides)) = (self, &params.sides) {
            if let Some(why) = crate::lecture_notes::dilated_diagonal::check_sides(sides) {
                return Err(ModelError::Sides { why });
            }
        }
        config.params = params;
        Ok(config)
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
        for &a in Algorithm::ALL {
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
