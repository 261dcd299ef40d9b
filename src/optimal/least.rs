//! The least slots, slot count by slot count from the lower bound up,
//! each count answered by SAT or by the exhaustive search, or by both
//! racing on the machine's two cores (the first answer stops the other).
//! SAT finds witnesses fast and refutes where propagation and learning
//! reach; the search refutes the counting-type questions a CDCL solver
//! finds hard (the all-port wormhole 5-cube in 2 rounds), but only for a
//! broadcast on the network's own routes with at most 64 nodes.

use super::sat::{self, Attempt, Certificate, SatError, Sent};
use super::search::{self, Model};
use super::task::{Bound, Instance};
use super::Stop;
use models::topology::Topology;
use properties::NodeId;
use std::time::Instant;

/// Which method answers each slot count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Both racing, where the search applies; else SAT.
    Auto,
    /// SAT alone.
    Sat,
    /// The search alone.
    Search,
}

impl Method {
    /// Its name as `--method` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Sat => "sat",
            Method::Search => "search",
        }
    }
}

/// How a slot count was shown impossible.
#[derive(Clone, Debug, PartialEq)]
pub enum Refutation {
    /// The counting arguments' bound ([`Instance::lower_bound`]).
    Bound(Bound),
    /// A DRAT proof, checked.
    Drat(Certificate),
    /// The exhaustive search, to the end.
    Search {
        /// The rounds refuted.
        slots: u32,
        /// Informed sets expanded.
        states: u64,
        /// Its time.
        seconds: f64,
    },
}

impl Refutation {
    /// The slots refuted (and every count below).
    pub fn slots(&self) -> u32 {
        match self {
            Refutation::Bound(b) => b.slots.saturating_sub(1),
            Refutation::Drat(c) => c.slots,
            Refutation::Search { slots, .. } => *slots,
        }
    }

    /// The refutation in a few words, for a table's cell: `growth bound`,
    /// `DRAT, 1,223 lemmas`, `search, 1,025 sets`.
    pub fn brief(&self) -> String {
        match self {
            Refutation::Bound(b) => b.brief(),
            Refutation::Drat(c) => format!("DRAT, {} lemmas", c.lemmas),
            Refutation::Search { states, .. } => format!("search, {states} sets"),
        }
    }

    /// The refutation in words.
    pub fn text(&self) -> String {
        match self {
            Refutation::Bound(b) => format!("the lower bound: {}", b.why),
            Refutation::Drat(c) => {
                let what = match c.cap {
                    Some(cap) => format!("{} slots with at most {cap} transmissions", c.slots),
                    None => format!("{} slots", c.slots),
                };
                format!(
                    "DRAT refutation of {what} ({} variables, {} clauses), {} bytes, {} lemmas, \
                     checked by commcheck's own RUP checker in {:.2} s",
                    c.vars, c.clauses, c.proof_bytes, c.lemmas, c.check_seconds
                )
            }
            Refutation::Search {
                slots,
                states,
                seconds,
            } => format!(
                "exhaustive search over informed sets: no broadcast in {slots} rounds ({states} \
                 sets expanded in {seconds:.2} s, every maximal round, no symmetry used)"
            ),
        }
    }
}

/// What [`least`] found.
#[derive(Clone, Debug)]
pub struct Least {
    /// The least slots, if found within the most asked for.
    pub slots: Option<u32>,
    /// A schedule in that many.
    pub witness: Vec<Sent>,
    /// `sat` or `search`: which found the witness.
    pub found_by: &'static str,
    /// The lower bound the counts started from.
    pub bound: Bound,
    /// Why one slot fewer is impossible (where nothing was found: the
    /// highest count refuted).
    pub refuted: Option<Refutation>,
    /// Every SAT formula solved, in order.
    pub attempts: Vec<Attempt>,
    /// Whether `stop` ended the counting before an answer.
    pub stopped: bool,
}

impl Least {
    /// Nothing counted: `stop` ended the check before the bounds (while
    /// the instance's routes were listed).
    pub fn stopped_before_bounds() -> Least {
        Least {
            slots: None,
            witness: Vec::new(),
            found_by: "",
            bound: Bound {
                slots: u32::MAX,
                why: "none: stopped before the bounds".into(),
            },
            refuted: None,
            attempts: Vec::new(),
            stopped: true,
        }
    }
}

/// Why [`least`] gave no answer.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum LeastError {
    /// `--method search` where the search does not apply.
    #[error(
        "--method search takes a broadcast on the network's own routes with at most 64 nodes \
         (use --method sat)"
    )]
    NotSearchable,
    /// The SAT side failed.
    #[error(transparent)]
    Sat(#[from] SatError),
    /// A search's send that the instance has no transmission for.
    #[error("the search sent {from} -> {to}, which no transmission is")]
    NotATransmission {
        /// The sender.
        from: NodeId,
        /// The receiver.
        to: NodeId,
    },
    /// A racing thread panicked.
    #[error("a racer panicked")]
    Panicked,
}

/// One slot count's answer.
enum Answer {
    Found(Vec<Sent>, &'static str),
    Refuted(Refutation),
    Stopped,
}

/// The least slots for `inst` on `t`, counting from the lower bound to
/// `max_slots`. `root` is the broadcast's source where the task is one
/// (the search takes only those).
pub fn least<T: Topology>(
    t: &T,
    inst: &Instance,
    root: Option<NodeId>,
    method: Method,
    max_slots: u32,
    stop: &Stop,
) -> Result<Least, LeastError> {
    let bound = inst.lower_bound();
    let searchable = root.is_some()
        && inst.nodes <= 64
        && inst.per_message == 1
        && inst.flows.is_none()
        && inst.hops.iter().all(|h| h.own && h.to.len() == 1);
    if method == Method::Search && !searchable {
        return Err(LeastError::NotSearchable);
    }
    let mut least = Least {
        slots: None,
        witness: Vec::new(),
        found_by: "",
        bound: bound.clone(),
        refuted: None,
        attempts: Vec::new(),
        stopped: false,
    };
    if bound.slots == 0 {
        least.slots = Some(0);
        return Ok(least);
    }
    if bound.slots > 1 {
        least.refuted = Some(Refutation::Bound(bound.clone()));
    }
    let model = Model {
        wormhole: inst.wormhole,
        max_sends: None,
        bounds: true,
    };
    for slots in bound.slots..=max_slots {
        let by_search = |stop: &Stop| -> Result<Answer, LeastError> {
            let start = Instant::now();
            let root = root.expect("the search is for broadcasts");
            match search::within(t, model, root, slots, search::SEARCH_STATES, stop) {
                Ok((Some(rounds), _)) => Ok(Answer::Found(witness(inst, &rounds)?, "search")),
                Ok((None, states)) => Ok(Answer::Refuted(Refutation::Search {
                    slots,
                    states,
                    seconds: start.elapsed().as_secs_f64(),
                })),
                // Out of budget or stopped: the other method answers.
                Err(_) => Ok(Answer::Stopped),
            }
        };
        let by_sat = |stop: &Stop, attempts: &mut Vec<Attempt>| -> Result<Answer, LeastError> {
            let Some(formula) = sat::encode_within(inst, slots, None, stop) else {
                return Ok(Answer::Stopped);
            };
            Ok(
                match sat::attempt(inst, &formula, slots, None, attempts, stop)? {
                    None => Answer::Stopped,
                    Some(Ok(w)) => Answer::Found(w, "sat"),
                    Some(Err(proof)) => match sat::certify(&formula, &proof, slots, None, stop)? {
                        Some(c) => Answer::Refuted(Refutation::Drat(c)),
                        None => Answer::Stopped,
                    },
                },
            )
        };
        let by_short = |stop: &Stop, attempts: &mut Vec<Attempt>| -> Result<Answer, LeastError> {
            let Some((shortest, longest)) = short_worms(inst, slots) else {
                return Ok(Answer::Stopped);
            };
            for arcs in shortest..longest {
                let short = inst.shorter(arcs);
                let Some(formula) = sat::encode_within(&short, slots, None, stop) else {
                    return Ok(Answer::Stopped);
                };
                let solved = sat::attempt(&short, &formula, slots, None, attempts, stop)?;
                if let Some(a) = attempts.last_mut().filter(|_| solved.is_some()) {
                    a.worms = Some(arcs);
                }
                match solved {
                    None => return Ok(Answer::Stopped),
                    Some(Ok(w)) => return Ok(Answer::Found(w, "sat")),
                    Some(Err(_)) => continue,
                }
            }
            Ok(Answer::Stopped)
        };
        let (answer, attempts) = match (method, searchable) {
            (Method::Sat, _) => {
                let mut attempts = Vec::new();
                (by_sat(stop, &mut attempts)?, attempts)
            }
            (Method::Search, _) => (by_search(stop)?, Vec::new()),
            (Method::Auto, true) => race(stop, |s, _| by_search(s), by_sat)?,
            (Method::Auto, false) => race(stop, by_short, by_sat)?,
        };
        least.attempts.extend(attempts);
        match answer {
            Answer::Stopped => {
                least.stopped = true;
                return Ok(least);
            }
            Answer::Refuted(r) => least.refuted = Some(r),
            Answer::Found(witness, by) => {
                least.slots = Some(slots);
                least.witness = witness;
                least.found_by = by;
                return Ok(least);
            }
        }
    }
    Ok(least)
}

/// Runs `first` on a thread of its own beside `second`, one on each core;
/// the first to find a schedule or refute the count stops the other.
/// `first`'s answer stands where both gave one. The attempts of both, in
/// that order.
fn race<A, B>(stop: &Stop, first: A, second: B) -> Result<(Answer, Vec<Attempt>), LeastError>
where
    A: FnOnce(&Stop, &mut Vec<Attempt>) -> Result<Answer, LeastError> + Send,
    B: FnOnce(&Stop, &mut Vec<Attempt>) -> Result<Answer, LeastError>,
{
    let decisive =
        |a: &Result<Answer, LeastError>| matches!(a, Ok(Answer::Found(..) | Answer::Refuted(_)));
    let (left, right) = (stop.child(), stop.child());
    let ((a, mut attempts), (b, more)) = std::thread::scope(|s| {
        let racing = s.spawn(|| {
            let mut attempts = Vec::new();
            let a = first(&left, &mut attempts);
            if decisive(&a) {
                right.set();
            }
            (a, attempts)
        });
        let mut attempts = Vec::new();
        let b = second(&right, &mut attempts);
        if decisive(&b) {
            left.set();
        }
        let a = racing
            .join()
            .unwrap_or_else(|_| (Err(LeastError::Panicked), Vec::new()));
        (a, (b, attempts))
    });
    attempts.extend(more);
    Ok(match (a?, b?) {
        (Answer::Stopped, b) => (b, attempts),
        (a, _) => (a, attempts),
    })
}

/// For a witness hunt on worms of bounded length: the fewest arcs to try
/// first (two more than the farthest origin's eccentricity spread over the
/// slots) and the longest worm's arcs, which is the whole instance; `None`
/// where that leaves nothing shorter to try (store-and-forward, flows, a
/// bus, or slots enough for the short worms to be all of them).
fn short_worms(inst: &Instance, slots: u32) -> Option<(usize, usize)> {
    if !inst.wormhole || inst.flows.is_some() || slots == 0 {
        return None;
    }
    let longest = inst
        .hops
        .iter()
        .map(|h| h.path.len().saturating_sub(1))
        .max()?;
    let ecc = inst
        .packets
        .iter()
        .filter_map(|p| {
            inst.dist[p.origin as usize]
                .iter()
                .filter(|&&d| d != u32::MAX)
                .max()
        })
        .max()?;
    let shortest = ecc.div_ceil(slots) as usize + 2;
    (shortest < longest).then_some((shortest, longest))
}

/// The search's rounds as transmissions of `inst`.
fn witness(inst: &Instance, rounds: &[search::Round]) -> Result<Vec<Sent>, LeastError> {
    let mut sends = Vec::new();
    for (r, round) in rounds.iter().enumerate() {
        for &(u, v) in round {
            let hop = inst
                .hops
                .iter()
                .find(|h| h.from == u && h.to == [v])
                .ok_or(LeastError::NotATransmission { from: u, to: v })?;
            sends.push(Sent {
                slot: r as u32 + 1,
                packet: 0,
                hop: hop.clone(),
            });
        }
    }
    Ok(sends)
}
