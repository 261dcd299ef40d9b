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
//! * [`witness`]: a witness as a schedule file, checked by the ordinary
//!   checker (`check schedule`) with every property.

pub mod drat;
pub mod sat;
pub mod search;
pub mod task;
pub mod witness;

pub use search::{least_rounds, Model, Optimum, Round};
