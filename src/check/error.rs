//! Why a check cannot run, worded for the person who asked.

use models::catalog::ModelError;
use properties::Slot;

/// A check that cannot run, worded for the user.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The catalogue refused the configuration.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// A schedule, network or mapping file that cannot be read.
    #[error(transparent)]
    Import(#[from] crate::import::ImportError),
    /// Bad input that only the check can judge (a source of the network).
    #[error("{0}")]
    Usage(String),
    /// An exhaustive engine asked for past its reach without a budget.
    #[error(
        "n = {n} is past the reach of the {engine} engine for {algorithm} (n <= {reach} \
         finishes without a budget); use --engine executor, or give a budget with \
         --max-states or --timeout"
    )]
    PastReach {
        /// The algorithm.
        algorithm: String,
        /// Its size.
        n: u32,
        /// The engine asked for.
        engine: &'static str,
        /// The engine's reach for the algorithm.
        reach: u32,
    },
    /// `--distribution` where nothing is drawn.
    #[error(
        "--distribution is over random draws, checked exhaustively: {algorithm} with this \
         engine has none (kbcast-random has; the executor makes one run)"
    )]
    NoDistribution {
        /// The algorithm.
        algorithm: String,
    },
    /// The executor's cost model passes the memory allowance.
    #[error(
        "the executor needs about {need_gb:.1} GB for n = {n}, more than the {have_gb:.1} GB \
         this check may use here; {fits}"
    )]
    Memory {
        /// The size asked for.
        n: u32,
        /// What the cost model says it needs.
        need_gb: f64,
        /// What the check may use.
        have_gb: f64,
        /// The largest size that fits, in words.
        fits: String,
    },
    /// The Explorer asked for past its reach.
    #[error(
        "the Explorer serves the {model}: n = {n} is past its reach for {algorithm} \
         (n <= {reach})"
    )]
    ExplorerReach {
        /// The model served.
        model: &'static str,
        /// The algorithm.
        algorithm: String,
        /// Its size.
        n: u32,
        /// The Explorer's reach for it.
        reach: u32,
    },
    /// A picture of a network too big to read.
    #[error("{option} draws up to {max} nodes; this network has {nodes}")]
    TooBigToDraw {
        /// The flag.
        option: &'static str,
        /// The network's nodes.
        nodes: u32,
        /// The most drawn.
        max: u32,
    },
    /// `--svg-load` of too many resources.
    #[error("--svg-load draws up to {max} resources; this network has {resources}")]
    TooManyResources {
        /// The network's resources.
        resources: u64,
        /// The most drawn.
        max: u64,
    },
    /// `--svg-load` of a run too long.
    #[error("--svg-load draws up to {max} slots; the run is longer")]
    TooLongToDraw {
        /// The most slots drawn.
        max: Slot,
    },
    /// `--trace` of a network too big.
    #[error("--trace follows networks of up to {max} nodes; this one has {nodes}")]
    TooBigToTrace {
        /// The network's nodes.
        nodes: u32,
        /// The most traced.
        max: u32,
    },
    /// `--trace` of a run too long.
    #[error("--trace writes up to {max} transmissions; {}", match least {
        Some(l) => format!("this run makes at least {l}"),
        None => "the run makes more".to_string(),
    })]
    TraceTooLong {
        /// The least the task needs, where known before the run.
        least: Option<u64>,
        /// The most written.
        max: u64,
    },
    /// The budget ran out, or an interrupt came, while the model was
    /// being built: nothing was judged.
    #[error("{what}: {why} while its model was being built; nothing was judged")]
    Unbuilt {
        /// The algorithm and size.
        what: String,
        /// The budget that ran out, or the interrupt.
        why: String,
    },
    /// Ctrl-C during `--trace`.
    #[error("--trace interrupted (Ctrl-C or SIGTERM); the partial trace is removed")]
    TraceInterrupted,
    /// Writing a file or stdout failed.
    #[error("writing the output: {0}")]
    Write(String),
    /// `--engine actor` of a protocol that is not event-driven.
    #[error("{algorithm} is not event-driven, so it has no actor model; use --engine lockstep")]
    NotEventDriven {
        /// The algorithm.
        algorithm: String,
    },
    /// `--all-sources` with the executor.
    #[error("--all-sources is for the exhaustive engines; the executor makes one run (--source picks it)")]
    AllSourcesExecutor,
    /// `--all-sources` past the sources a check lists.
    #[error("--all-sources lists every source up to n = {reach}; n = {n} has 2^{n} of them")]
    AllSourcesReach {
        /// The size.
        n: u32,
        /// The largest size listed.
        reach: u32,
    },
    /// A source given to an algorithm without one.
    #[error("{algorithm} has no single source: --source and --all-sources do not apply")]
    NoSource {
        /// The algorithm.
        algorithm: String,
    },
    /// The Explorer cannot listen.
    #[error("cannot serve the Explorer on {addr}: {why}")]
    Explorer {
        /// The address asked for.
        addr: String,
        /// Why not.
        why: String,
    },
}
