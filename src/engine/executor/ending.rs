//! The slot loop and the end of a run, for both drives: slots run until
//! the run is quiet with nobody left to step, reaches the horizon, or a
//! budget stops it; then the results, completeness and the counts are
//! judged once.

use crate::engine::horizon;
use crate::engine::search::{Cut, Progress};
use crate::engine::{end_run, judge_results, numbered};
use models::Protocol;
use properties::{Claims, Holdings, Record, Slot, Task};
use std::sync::atomic::Ordering::Relaxed;

/// What ending a run needs besides its state: the protocol, its input and
/// task, and the horizon.
pub(super) struct Ending<'a, P: Protocol> {
    /// The algorithm, which judges its nodes' results.
    protocol: &'a P,
    /// The run's input (the results depend on it).
    input: &'a P::Input,
    /// What the run must achieve (completeness).
    task: &'a Task,
    /// The last slot run before the run counts as not terminating.
    horizon: Slot,
}

impl<'a, P: Protocol> Ending<'a, P> {
    /// The end of a run of `protocol` from `input`, which must achieve
    /// `task` under `claims`; `progress` is told how many slots to expect
    /// (the claimed bound, else the horizon).
    pub(super) fn new(
        protocol: &'a P,
        input: &'a P::Input,
        task: &'a Task,
        claims: &Claims,
        progress: &Progress,
    ) -> Self {
        let horizon = horizon(protocol, claims);
        let expected = claims.bound.unwrap_or(horizon);
        progress.slots.store(expected as usize, Relaxed);
        Ending {
            protocol,
            input,
            task,
            horizon,
        }
    }

    /// Ends the run after `slot` if it is over: quiet with nobody left to
    /// step, or at the horizon (judging the results by `judge`, then
    /// completeness and the counts).
    pub(super) fn ended(
        &self,
        judge: impl FnOnce(&mut Record),
        record: &mut Record,
        holdings: &Holdings,
        slot: Slot,
        idle: bool,
    ) -> bool {
        let over = idle || slot >= self.horizon;
        if over {
            judge(record);
            let (p, input, task) = (self.protocol, self.input, self.task);
            end_run(p, input, task, slot, holdings, record, !idle);
        }
        over
    }

    /// [`judge_results`] of every node's state in `states`.
    pub(super) fn judge<'s>(&self, states: &'s [P::State]) -> impl FnOnce(&mut Record) + 's
    where
        Self: 's,
    {
        let (p, input) = (self.protocol, self.input);
        move |record| judge_results(p, input, numbered(states), record)
    }
}

/// Runs slot 1, 2, ... by `one(slot)`, which says whether the run is over
/// after it (or `None`: the drive gives the run up), until it is over or a
/// budget stops it. Returns the last slot run and the budget's cut, if
/// any.
pub(super) fn run_slots(
    progress: &Progress,
    mut one: impl FnMut(Slot) -> Option<bool>,
) -> Option<(Slot, Option<Cut>)> {
    let mut slot = 0;
    loop {
        if let Some(why) = progress.stop() {
            return Some((slot, Some(why)));
        }
        slot += 1;
        progress.depth.store(slot as usize, Relaxed);
        if one(slot)? {
            return Some((slot, None));
        }
    }
}
