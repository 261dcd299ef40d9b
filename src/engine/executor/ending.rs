//! When a run is over, for both drives: quiet with nobody left to step,
//! or at the horizon; then the results, completeness and the counts are
//! judged once.

use crate::engine::judge_results;
use models::Protocol;
use properties::{Holdings, Record, Slot, Task};

/// What ending a run needs besides its state: the protocol, its input and
/// task, and the horizon.
pub(super) struct Ending<'a, P: Protocol> {
    /// The algorithm, which judges its nodes' results.
    pub(super) protocol: &'a P,
    /// The run's input (the results depend on it).
    pub(super) input: &'a P::Input,
    /// What the run must achieve (completeness).
    pub(super) task: &'a Task,
    /// The last slot run before the run counts as not terminating.
    pub(super) horizon: Slot,
}

impl<P: Protocol> Ending<'_, P> {
    /// Ends the run after `slot` if it is over: quiet with nobody left to
    /// step, or at the horizon (judging the results, completeness and the
    /// counts).
    pub(super) fn ended(
        &self,
        states: &[P::State],
        record: &mut Record,
        holdings: &Holdings,
        slot: Slot,
        idle: bool,
    ) -> bool {
        let over = idle || slot >= self.horizon;
        if over {
            judge_results(self.protocol, self.input, states, record);
            record.end(self.task, holdings, (!idle).then_some(slot));
        }
        over
    }
}
