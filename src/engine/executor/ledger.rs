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
    /// The words set this slot, so that clearing costs what was used.
    pub(super) taken: Vec<usize>,
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
            slot: 0,
            watch,
            holder: None,
        }
    }

    /// Frees what the last slot took (only the words it set).
    pub(super) fn begin(&mut self, slot: Slot) {
        self.slot = slot;
        for w in self.taken.drain(..) {
            self.bits[w] = 0;
        }
    }
}

impl Ledger for BitLedger {
    fn take(&mut self, r: ResourceId, route: Route) -> Result<(), Option<Route>> {
        let (w, m) = ((r / 64) as usize, 1u64 << (r % 64));
        if self.watch == Some((self.slot, r)) && self.holder.is_none() {
            self.holder = Some(route);
        }
        if self.bits[w] & m != 0 {
            return Err(None);
        }
        if self.bits[w] == 0 {
            self.taken.push(w);
        }
        self.bits[w] |= m;
        Ok(())
    }
}
