//! Time in nanoseconds beside the slots: named cost models that time a
//! schedule (docs/cost.md). The slot count stays the checked quantity; a
//! cost model says how long the same schedule takes on a machine it
//! describes by a few parameters.
//!
//! * [`loggops`]: LogGOPS, as LogGOPSim times a GOAL schedule (its own
//!   event order: sends, arrivals and computations wait for a host's CPU
//!   and network interface, not for slots).
//! * [`links`]: alpha-beta per link, and ASTRA-sim's analytical model,
//!   over the slot run on the network's links (their bandwidths and
//!   latencies).

pub mod bounds;
pub mod links;
pub mod loggops;

use models::schedule::{Data, Kind, OpId, Schedule};
use serde::Serialize;

/// A cost model and its parameters, as `--cost` names it.
#[derive(Clone, Debug, PartialEq)]
pub enum Model {
    /// `loggops[:L=..,o=..,g=..,G=..,O=..,S=..]`.
    LogGops(loggops::LogGops),
    /// `alpha-beta[:latency=..,bandwidth=..]` or `astra[:...]`.
    Links(links::LinkModel),
}

impl std::str::FromStr for Model {
    type Err = String;

    fn from_str(text: &str) -> Result<Model, String> {
        let (name, params) = text.split_once(':').unwrap_or((text, ""));
        match name {
            "loggops" => loggops::LogGops::parse(params)
                .map(Model::LogGops)
                .map_err(|why| format!("--cost {text}: {why}")),
            "alpha-beta" | "astra" => links::LinkModel::parse(params, name == "astra")
                .map(Model::Links)
                .map_err(|why| format!("--cost {text}: {why}")),
            _ => Err(format!(
                "--cost {text}: expected loggops[:L=2500,o=1500,g=1000,G=6,O=0,S=65535], \
                 alpha-beta[:latency=500,bandwidth=50] or astra[:latency=500,bandwidth=50]"
            )),
        }
    }
}

/// The model as `--cost` takes it, every parameter written.
impl std::fmt::Display for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Model::LogGops(p) => write!(
                f,
                "loggops:L={},o={},g={},G={},O={},S={}",
                p.l, p.o, p.g, p.big_g, p.big_o, p.s
            ),
            Model::Links(m) => write!(
                f,
                "{}:latency={},bandwidth={}",
                m.name(),
                m.latency,
                m.bandwidth
            ),
        }
    }
}

/// The `NAME=VALUE` pairs of a model's parameters (`L=2500,o=1500`),
/// each name at most once; `example` is a pair to show in the message.
pub fn pairs<'a>(text: &'a str, example: &str) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for pair in text.split(',').filter(|t| !t.is_empty()) {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("{pair}: expected NAME=VALUE, such as {example}"))?;
        if pairs.iter().any(|&(n, _)| n == name) {
            return Err(format!("{name} is given twice"));
        }
        pairs.push((name, value));
    }
    Ok(pairs)
}

/// What a cost model says of a schedule: the report's `time: about T us`
/// and JSON's `cost`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cost {
    /// The model's name.
    pub model: &'static str,
    /// Its parameters in words.
    pub parameters: String,
    /// When the last rank finishes, in microseconds.
    pub time_us: f64,
    /// When each rank finishes, in microseconds.
    pub per_rank_us: Vec<f64>,
    /// The bounds no run of the collective on the machine beats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<bounds::Bounds>,
    /// The time over the larger bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratio: Option<f64>,
}

/// Why a schedule cannot be timed, in one line.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum CostError {
    /// A send whose size neither the file nor `--bytes` gives.
    #[error(
        "{op} has no size in bytes: the file gives none, so --bytes B gives a chunk's (a send \
         of k chunks is k x B bytes)"
    )]
    NoSize {
        /// The operation.
        op: String,
    },
    /// A one-sided access that reads one peer and writes another, which
    /// LogGOPS does not time (MSCCL++'s ops read or write their own GPU).
    #[error(
        "{op}: --cost loggops times a put (from its rank to a peer) and a get (from a peer to \
         its rank); this access reads one peer and writes another"
    )]
    OneSided {
        /// The operation.
        op: String,
    },
}

impl Cost {
    /// The cost of a run whose ranks finish at `ns` nanoseconds.
    pub fn of(model: &Model, ns: impl IntoIterator<Item = f64>) -> Cost {
        let (name, parameters) = match model {
            Model::LogGops(p) => ("loggops", p.describe()),
            Model::Links(m) => (m.name(), m.describe()),
        };
        let per_rank_us: Vec<f64> = ns.into_iter().map(|t| t / 1000.0).collect();
        Cost {
            model: name,
            parameters,
            time_us: per_rank_us.iter().copied().fold(0.0, f64::max),
            per_rank_us,
            bounds: None,
            ratio: None,
        }
    }

    /// The same with its bounds, and the time's ratio to the larger.
    pub fn bound(&mut self, bounds: bounds::Bounds) {
        let larger = bounds.bandwidth_us.unwrap_or(0.0).max(bounds.latency_us);
        self.ratio = (larger > 0.0).then(|| self.time_us / larger);
        self.bounds = Some(bounds);
    }
}

/// Each rank's finishing time (ns) when `schedule` runs under LogGOPS,
/// its messages of the sizes the file gives or, where it gives none,
/// `chunk_bytes` a chunk.
pub fn loggops_time(
    schedule: &Schedule,
    p: &loggops::LogGops,
    chunk_bytes: Option<u64>,
) -> Result<Vec<f64>, CostError> {
    let between_peers = |op: &models::schedule::Op| matches!(op.kind, Kind::Move { from, to, .. } if from.0 != op.rank && to.0 != op.rank);
    if let Some(i) = schedule.ops.iter().position(between_peers) {
        return Err(CostError::OneSided {
            op: schedule.where_is(i as OpId),
        });
    }
    let sizes = sizes(schedule, chunk_bytes)?;
    let ns = loggops::finish_times(schedule, p, |op| sizes[op as usize]);
    Ok(ns.into_iter().map(|t| t as f64).collect())
}

/// True for an access of a peer's positions (a put, a get, a remote
/// reduction).
pub fn one_sided(op: &models::schedule::Op) -> bool {
    matches!(op.kind, Kind::Move { from, to, .. } if from.0 != op.rank || to.0 != op.rank)
}

/// Each operation's size: its own, else its chunks times `chunk_bytes`
/// for a send, a receive or a one-sided access of a peer (one position;
/// a computation without a length takes none), a position a piece of a
/// chunk where the file cuts chunks ([`models::schedule::Chunks::pieces`]).
pub fn sizes(schedule: &Schedule, chunk_bytes: Option<u64>) -> Result<Vec<u64>, CostError> {
    let mut sizes = Vec::with_capacity(schedule.ops.len());
    let one = Data::At(vec![0]);
    for (i, op) in schedule.ops.iter().enumerate() {
        let data = match &op.kind {
            Kind::Send { data, .. } | Kind::Recv { data, .. } => data,
            Kind::Move { .. } if one_sided(op) => &one,
            _ => {
                sizes.push(op.bytes);
                continue;
            }
        };
        let size = match (op.bytes, chunk_bytes) {
            (0, Some(b)) => {
                let chunks = match data {
                    Data::At(at) => at.len() as u64,
                    Data::Everything | Data::Nothing => 1,
                };
                chunks
                    .saturating_mul(b)
                    .div_ceil(schedule.chunks.pieces.max(1) as u64)
            }
            (0, None) => {
                return Err(CostError::NoSize {
                    op: schedule.where_is(i as OpId),
                })
            }
            (b, _) => b,
        };
        sizes.push(size);
    }
    Ok(sizes)
}
