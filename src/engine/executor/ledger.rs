//! The executor's resource ledger: one bit per resource, so that judging
//! contention costs a bit per arc rather than a map entry.

use super::Watch;
use crate::engine::Ledger;
use properties::{ResourceId, Route, Slot};

/// One bit per resource, cleared every slot; optionally watching one
/// (slot, resource) to name its first holder.
pub(super) struct BitLedger {
    /// The resources taken this slot, a bit each.
    pub(super) bits: Vec<u64>,
    /// The words set this slot, so that clearing costs what was used;
    /// past one word in 64 the list stops (`all`) and every word is
    /// cleared, so that the list costs at most a bit per 8 resources.
    taken: Vec<usize>,
    /// True if more words were set than `taken` lists.
    all: bool,
    /// The slot being judged (compared with the watch).
    slot: Slot,
    /// The (slot, resource) whose first holder a replay names.
    watch: Watch,
    /// The watched resource's first holder, once taken.
    pub(super) holder: Option<Route>,
}

impl BitLedger {
    /// No resource taken, of `resources`; watching `watch` if given.
    pub(super) fn new(resources: ResourceId, watch: Watch) -> Self {
        BitLedger {
            bits: vec![0; resources.div_ceil(64) as usize],
            taken: Vec::new(),
            all: false,
            slot: 0,
            watch,
            holder: None,
        }
    }

    /// The words that may have bits set this slot.
    pub(super) fn words_set(&self) -> Box<dyn Iterator<Item = usize> + '_> {
        match self.all {
            true => Box::new(0..self.bits.len()),
            false => Box::new(self.taken.iter().copied()),
        }
    }

    /// Frees what the last slot took (only the words it set).
    pub(super) fn begin(&mut self, slot: Slot) {
        self.slot = slot;
        if std::mem::take(&mut self.all) {
            self.bits.fill(0);
        }
        for w in self.taken.drain(..) {
            self.bits[w] = 0;
        }
    }

    /// Takes resource `r`; false if it was taken this slot already.
    pub(super) fn claim(&mut self, r: ResourceId) -> bool {
        let (w, m) = ((r / 64) as usize, 1u64 << (r % 64));
        if self.bits[w] & m != 0 {
            return false;
        }
        if self.bits[w] == 0 && !self.all {
            match self.taken.len() < self.bits.len() / 64 {
                true => self.taken.push(w),
                false => {
                    self.all = true;
                    self.taken.clear();
                }
            }
        }
        self.bits[w] |= m;
        true
    }
}

impl Ledger for BitLedger {
    fn take(&mut self, r: ResourceId, route: Route) -> Result<(), Option<Route>> {
        if self.watch == Some((self.slot, r)) && self.holder.is_none() {
            self.holder = Some(route);
        }
        match self.claim(r) {
            true => Ok(()),
            false => Err(None),
        }
    }
}
