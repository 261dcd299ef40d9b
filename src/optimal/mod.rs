//! What is the best possible? The least number of slots a task needs on a
//! network, with a witness schedule and a certificate that one slot fewer
//! is impossible (docs/optimal.md).
//!
//! * [`task`]: the tasks (broadcast, allgather, scatter, gather,
//!   alltoall) and the transmissions a slot may carry on a network, from
//!   the topology's own run semantics;
//! * [`sat`]: the question "in T slots?" as a SAT formula, solved by
//!   varisat, the refutation of T - 1 written as a DRAT proof;
//! * [`drat`]: commcheck's own checker of that proof;
//! * [`search`]: the exhaustive search over informed sets for a
//!   broadcast (up to 64 nodes), whose certificate is the search itself;
//! * [`least`]: the two side by side, slot count by slot count, each
//!   able to stop the other;
//! * [`witness`]: a witness as a schedule file, checked by the ordinary
//!   checker (`check schedule`) with every property.

pub mod drat;
pub mod least;
pub mod sat;
pub mod search;
pub mod task;
pub mod witness;

pub use search::{least_rounds, Model, Optimum, Round, SEARCH_STATES};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What a search says when a [`Stop`] ended it.
pub const STOPPED: &str = "stopped";

/// Ends a search early: when any of its flags is set (by the other side
/// of a race, or by the caller), its deadline has passed, or (a stop made
/// by [`Stop::at`]) the process was interrupted (Ctrl-C, SIGTERM, SIGHUP).
/// The default stop never ends.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    flags: Vec<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    interruptible: bool,
}

impl Stop {
    /// A stop at `deadline`, if any, or at an interrupt.
    pub fn at(deadline: Option<Instant>) -> Stop {
        Stop {
            flags: vec![Arc::new(AtomicBool::new(false))],
            deadline,
            interruptible: true,
        }
    }

    /// A stop that also ends when this one does.
    pub fn child(&self) -> Stop {
        let mut flags = self.flags.clone();
        flags.push(Arc::new(AtomicBool::new(false)));
        Stop {
            flags,
            deadline: self.deadline,
            interruptible: self.interruptible,
        }
    }

    /// Ends this stop's searches and its children's.
    pub fn set(&self) {
        if let Some(f) = self.flags.last() {
            f.store(true, Ordering::Relaxed);
        }
    }

    /// Whether to end now.
    pub fn stopped(&self) -> bool {
        self.flags.iter().any(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || (self.interruptible && crate::engine::search::INTERRUPTED.load(Ordering::Relaxed))
    }
}
