//! The slot loop and the end of a run, for every drive: slots run until
//! the run is quiet with nobody left to step, reaches the horizon, or a
//! budget stops it; then the results, completeness and the counts are
//! judged once.
//!
//! A budget binds inside a slot too ([`Budget`]): at 2^25 nodes one pass
//! over them (their initial states, a slot's steps or deliveries, the
//! results) takes seconds. A slot a budget cut is left unfinished and is
//! the run's last; what it found stands (each judged step and delivery is
//! one of the run's), and nothing is judged of what it did not reach.

use super::Run;
use crate::engine::horizon;
use crate::engine::search::{Cut, Progress};
use crate::engine::{end_run, judge_results, numbered};
use models::Protocol;
use properties::{Claims, Holdings, NodeId, Record, Slot, Task};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::OnceLock;

/// Nodes (or deliveries) a loop handles between two looks at the budget:
/// a look reads the clock (tens of nanoseconds), and 2^14 nodes take
/// well under a millisecond.
const LOOK_EVERY: usize = 1 << 14;

/// The budget (Ctrl-C, a signal, `--timeout`) as a run's loops see it,
/// on every thread of the run: once one loop has seen it spent, every
/// later look says so, and the drive leaves the slot unfinished.
pub(super) struct Budget<'a> {
    progress: &'a Progress,
    /// Why the run stops, once a look has seen it.
    cut: OnceLock<Cut>,
}

impl<'a> Budget<'a> {
    /// The budget of `progress`, not yet looked at.
    pub(super) fn new(progress: &'a Progress) -> Self {
        Budget {
            progress,
            cut: OnceLock::new(),
        }
    }

    /// Whether the budget is spent, looking at it only at every
    /// [`LOOK_EVERY`]-th `item` (a loop's count, from 0) and else
    /// answering what was last seen.
    #[inline]
    pub(super) fn spent_at(&self, item: usize) -> bool {
        self.spent_at_by(item, 1)
    }

    /// [`Budget::spent_at`] of a loop whose items are `weight` nodes
    /// each, `at` nodes in: it looks where `at` crosses a multiple of
    /// [`LOOK_EVERY`].
    #[inline]
    fn spent_at_by(&self, at: usize, weight: usize) -> bool {
        match at % LOOK_EVERY < weight {
            true => self.look(),
            false => self.spent(),
        }
    }

    /// Whether the budget is spent, looking at it now.
    pub(super) fn look(&self) -> bool {
        if let Some(why) = self.progress.stop() {
            let _ = self.cut.set(why);
        }
        self.spent()
    }

    /// Whether some look has seen the budget spent.
    #[inline]
    pub(super) fn spent(&self) -> bool {
        self.cut.get().is_some()
    }

    /// The items of `items` until the budget is spent.
    pub(super) fn until_spent<'s, I: Iterator + 's>(
        &'s self,
        items: I,
    ) -> impl Iterator<Item = I::Item> + 's {
        self.until_spent_by(items, 1)
    }

    /// The items of `items`, each of `weight` nodes (64 for a word of
    /// node bits), until the budget is spent.
    pub(super) fn until_spent_by<'s, I: Iterator + 's>(
        &'s self,
        items: I,
        weight: usize,
    ) -> impl Iterator<Item = I::Item> + 's {
        let mut k = 0;
        items.take_while(move |_| {
            k += weight;
            !self.spent_at_by(k - weight, weight)
        })
    }

    /// `0..nodes`, until the budget is spent: the nodes whose initial
    /// states a drive sets up.
    pub(super) fn nodes(&self, nodes: usize) -> impl Iterator<Item = NodeId> + '_ {
        self.until_spent(0..nodes as NodeId)
    }

    /// Why the run stops, once a look has seen it.
    pub(super) fn cut(&self) -> Option<Cut> {
        self.cut.get().copied()
    }
}

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
    /// What stops the run before its end.
    pub(super) budget: Budget<'a>,
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
        progress: &'a Progress,
    ) -> Self {
        let horizon = horizon(protocol, claims);
        let expected = claims.bound.unwrap_or(horizon);
        progress.slots.store(expected as usize, Relaxed);
        Ending {
            protocol,
            input,
            task,
            horizon,
            budget: Budget::new(progress),
        }
    }

    /// Ends the run after `slot` if it is over: quiet with nobody left to
    /// step, or at the horizon (judging the results by `judge`, then
    /// completeness and the counts). Not if the budget stopped the
    /// judging of the results: the run then ends cut, before this slot.
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
            if self.budget.spent() {
                return false;
            }
            let (p, input, task) = (self.protocol, self.input, self.task);
            end_run(p, input, task, slot, holdings, record, !idle);
        }
        over
    }

    /// [`judge_results`] of every node's state in `states`, until the
    /// budget is spent.
    pub(super) fn judge<'s>(&'s self, states: &'s [P::State]) -> impl FnOnce(&mut Record) + 's {
        let (p, input) = (self.protocol, self.input);
        move |record| judge_results(p, input, self.budget.until_spent(numbered(states)), record)
    }

    /// The run, if the budget ran out while its nodes were set up:
    /// nothing stepped, nothing judged (and nothing more allocated).
    pub(super) fn unstarted(&self, claims: &Claims) -> Option<Run> {
        self.budget.cut().map(|cut| Run {
            record: Record::new(claims),
            slots: 0,
            cut: Some(cut),
        })
    }

    /// Runs slot 1, 2, ... by `one(slot)`, which says whether the run is
    /// over after it (or `None`: the drive gives the run up), until it is
    /// over or the budget stops it. Returns the last slot run whole and
    /// the budget's cut, if any: a slot the budget cut is not counted.
    pub(super) fn run_slots(
        &self,
        mut one: impl FnMut(Slot) -> Option<bool>,
    ) -> Option<(Slot, Option<Cut>)> {
        let budget = &self.budget;
        let mut slot = 0;
        loop {
            if budget.look() {
                return Some((slot, budget.cut()));
            }
            slot += 1;
            budget.progress.depth.store(slot as usize, Relaxed);
            let over = one(slot)?;
            if budget.spent() {
                return Some((slot - 1, budget.cut()));
            }
            if over {
                return Some((slot, None));
            }
        }
    }
}
