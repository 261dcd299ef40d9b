//! What to check, validated once: a [`Request`] is built by
//! [`Request::new`] (the size and the modes), [`Request::with_params`]
//! (the flags beyond the size) and [`Request::with_source`] (a source of
//! the network), each refusing in one line; nothing downstream checks
//! them again.

use super::error::CheckError;
use crate::engine::Engine;
use models::catalog::{check_source, Algorithm, Config, ModelError, Params, Ports, Switching};
use models::{Family, Grid, Topology};
use std::time::Duration;

/// A catalogued algorithm at one configuration, and how to check it.
#[derive(Clone, Debug)]
pub struct Request {
    /// The algorithm, by its paper's name.
    pub algorithm: Algorithm,
    /// Its size, modes and parameters, checked against what it declares.
    pub config: Config,
    /// How to check it.
    pub options: Options,
}

/// How to check: engine, inputs, budgets and what to show on the way.
#[derive(Clone, Debug)]
pub struct Options {
    /// The one source to check (a node id), else one per symmetry orbit.
    pub source: Option<u32>,
    /// Check every source, not one per symmetry orbit.
    pub all_sources: bool,
    /// None: exhaustive within the algorithm's reach, else the executor.
    pub engine: Option<Engine>,
    /// Search workers and the executor's threads.
    pub threads: usize,
    /// `--max-states`: generated states a search may make.
    pub max_states: Option<u64>,
    /// `--timeout`: time a search or an executor run may take.
    pub timeout: Option<Duration>,
    /// The time a search may take where no budget is given (the command
    /// line's [`DEFAULT_TIMEOUT`]), named in the report when it binds;
    /// None (a library's default): such a search runs to its end.
    pub default_timeout: Option<Duration>,
    /// Bytes of memory the check may use in all (`--max-memory`).
    pub max_memory: Option<u64>,
    /// Show progress on stderr.
    pub progress: bool,
    /// Where progress goes instead of stderr, where a program embedding
    /// commcheck shows it itself (the Python package, in a notebook).
    pub progress_to: Option<super::progress::Sink>,
    /// Say on stderr, before a search past its reach starts, what it will do.
    pub announce: bool,
    /// Report the distribution over random draws (`--distribution`).
    pub distribution: bool,
    /// Search on for the observed properties once every claimed one has
    /// its verdict (`--observe-all`; by default the search stops there).
    pub observe_all: bool,
    /// Faults, late deliveries and skew (default: the papers' perfect
    /// machine).
    pub machine: super::machine::Machine,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            source: None,
            all_sources: false,
            engine: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_states: None,
            timeout: None,
            default_timeout: None,
            max_memory: None,
            progress: false,
            progress_to: None,
            announce: false,
            distribution: false,
            observe_all: false,
            machine: Default::default(),
        }
    }
}

/// The time budget of a search started from the command line without one:
/// a check that has not ended in a minute is cut with its report so far
/// (`--timeout none` lifts it).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

impl Options {
    /// True if a budget beyond memory was given.
    pub fn budgeted(&self) -> bool {
        self.max_states.is_some() || self.timeout.is_some()
    }

    /// The default time budget a search under `engine` runs under where
    /// no budget was given (an executor run has none: it ends).
    pub fn defaulted_timeout(&self, engine: Engine) -> Option<Duration> {
        self.default_timeout
            .filter(|_| engine != Engine::Executor && !self.budgeted())
    }

    /// The time a search under `engine` may take: `--timeout`, else the
    /// default where no budget was given.
    pub fn search_timeout(&self, engine: Engine) -> Option<Duration> {
        self.timeout.or(self.defaulted_timeout(engine))
    }

    /// The budget in words (`--max-states 1000 or --timeout 60 s`).
    pub fn budget_words(&self) -> String {
        let mut parts = Vec::new();
        if let Some(m) = self.max_states {
            parts.push(format!("{m} generated states (--max-states)"));
        }
        match self.timeout.map(|t| t.as_secs()) {
            Some(u64::MAX) | None => {}
            Some(t) => parts.push(format!("{t} s (--timeout)")),
        }
        parts.push("the memory allowance".into());
        parts.join(" or ")
    }
}

impl Request {
    /// The request for `algorithm` at size `n` in the given (or default)
    /// switching and port models, other options at their defaults.
    pub fn new(
        algorithm: Algorithm,
        n: u64,
        switching: Option<Switching>,
        ports: Option<Ports>,
    ) -> Result<Request, ModelError> {
        Ok(Request {
            algorithm,
            config: algorithm.config(n, switching, ports)?,
            options: Options::default(),
        })
    }

    /// The same request with the parameters beyond the size, checked
    /// against what the algorithm declares.
    pub fn with_params(mut self, params: Params) -> Result<Request, ModelError> {
        self.config = self.algorithm.with_params(self.config, params)?;
        Ok(self)
    }

    /// The network of the request, where it is a mesh or torus.
    pub fn grid(&self) -> Option<Grid> {
        let Family::Grid { torus } = self.algorithm.family() else {
            return None;
        };
        let params = &self.config.params;
        let n = self.config.n;
        let sides = params.sides.clone().unwrap_or(vec![n; 2]);
        Some(Grid::new(
            &sides,
            torus || params.torus,
            self.config.switching,
            self.config.ports,
        ))
    }

    /// The same request from the one source `source`, a node of its
    /// network; a mesh's claimed time is its source's, so the source
    /// travels in the parameters too.
    pub fn with_source(mut self, source: u64) -> Result<Request, CheckError> {
        let source = match (self.algorithm.family(), self.grid()) {
            (Family::Cube, _) => check_source(source, self.config.n)?,
            (_, Some(grid)) if source < grid.nodes() as u64 => source as u32,
            (_, Some(grid)) => {
                return Err(CheckError::Usage(format!(
                    "source {source} is not a node of {}: ids 0..={}",
                    grid.name(),
                    grid.nodes() - 1
                )))
            }
            (_, None) => {
                return Err(CheckError::Usage(format!(
                    "{} gossips from every node: it has no single source, so --source does \
                     not apply",
                    self.algorithm.name()
                )))
            }
        };
        if self.options.all_sources {
            return Err(CheckError::Usage(
                "--all-sources and --source exclude each other".into(),
            ));
        }
        if self.grid().is_some() {
            self.config.params.source = Some(source);
        }
        self.options.source = Some(source);
        Ok(self)
    }

    /// The command line that runs this request from `source` (else its
    /// own), for `reproduce with`: the same network (a mesh's sides and
    /// `--torus`), input, modes, engine and parameters.
    pub fn command(&self, source: Option<u32>) -> String {
        let params = &self.config.params;
        // A grid made without sides (by a table) is n x n; the command line
        // reads a bare n as the line M(n), so the sides are written out.
        let size = match (&params.sides, self.grid()) {
            (Some(sides), _) => sides
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join("x"),
            (None, Some(_)) => format!("{0}x{0}", self.config.n),
            (None, None) => self.config.n.to_string(),
        };
        let mut s = format!("check {} {size}", self.algorithm.name());
        if params.torus {
            s += " --torus";
        }
        if let Some(src) = source.or(self.options.source) {
            match self.grid() {
                Some(grid) => {
                    let coords: Vec<String> = grid.coords(src).iter().map(u32::to_string).collect();
                    s += &format!(" --source {}", coords.join(","));
                }
                None => s += &format!(" --source {src}"),
            }
        }
        let (ds, dp) = self.algorithm.modes()[0];
        if self.config.switching != ds {
            s += &format!(" --switching {}", self.config.switching);
        }
        if self.config.ports != dp {
            s += &format!(" --ports {}", self.config.ports);
        }
        if let Some(e) = self.options.engine {
            s += &format!(" --engine {}", e.name());
        }
        if let Some(k) = params.k {
            s += &format!(" --k {k}");
        }
        if let Some(l) = params.ell {
            s += &format!(" --ell {l}");
        }
        if let Some(b) = &params.broadcasters {
            let list: Vec<String> = b.iter().map(u32::to_string).collect();
            s += &format!(" --broadcasters {}", list.join(","));
        }
        if params.multiset {
            s += " --multiset";
        }
        s
    }
}
