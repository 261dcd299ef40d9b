//! The visited set of a search: 64-bit fingerprints in one open-addressing
//! table with linear probing, shared by every worker without a lock.
//!
//! A lookup is one atomic load in the common case (the fingerprints are
//! uniform, so their low bits index the table), an insertion one
//! compare-and-swap. A lock per shard was measured to cost more than the
//! lookup itself with two workers: each acquisition moved the lock's cache
//! line between the cores (BENCHMARKS.md). The table grows, past `LOAD` percent,
//! while no worker is inside it: every worker raises its own flag (its own
//! cache line) before an access, and the one that grows the table raises
//! `resizing` and waits for every flag to fall (Dekker's handshake, with
//! sequentially consistent operations on both sides). A worker's flag stays
//! up from one insertion to the next, each only reading `resizing`: the
//! store and fence of raising it were a fifth of an insertion's time
//! (BENCHMARKS.md). So a worker lowers it ([`Visited::leave`]) before it
//! waits for anything a growing worker may hold (the search's pool lock),
//! and whenever it sees `resizing` up.

use super::memory::huge;
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering::*};

/// A flag on a cache line of its own.
#[repr(align(128))]
struct Flag(AtomicBool);

/// Why the set could not take a fingerprint.
#[derive(Debug, PartialEq, Eq)]
pub struct Full;

/// The set of visited states' fingerprints, shared by the search's workers.
pub struct Visited {
    /// Replaced only while `resizing` is up and every flag is down.
    table: UnsafeCell<Vec<AtomicU64>>,
    resizing: AtomicBool,
    inside: Vec<Flag>,
    /// The table's first slot and mask, for prefetching without the
    /// flags (a stale pointer only wastes the hint).
    base: AtomicPtr<AtomicU64>,
    mask: AtomicUsize,
    /// Insertions published by the workers (each publishes every
    /// [`PUBLISH`] of its own).
    len: AtomicUsize,
}

// SAFETY: `table` is read only by a worker whose flag is up while
// `resizing` is down, and replaced only by the one worker that raised
// `resizing` and saw every other flag down (see the module header).
unsafe impl Sync for Visited {}

/// Insertions a worker counts before adding them to the shared length.
pub const PUBLISH: usize = 1024;

/// A fresh table's slots (it doubles as it fills).
pub const INITIAL: usize = 1 << 16;

/// The load (percent) past which the table doubles: linear probing stays
/// within a cache line or two up to here, and the table stays small
/// (sbt 5's 3.26 M states fit in 4 M slots, 32 MB).
const LOAD: usize = 85;

impl Visited {
    /// An empty set for `workers` workers (ids 0..workers).
    pub fn new(workers: usize) -> Visited {
        let table = huge(INITIAL);
        Visited {
            base: AtomicPtr::new(table.as_ptr() as *mut AtomicU64),
            mask: AtomicUsize::new(INITIAL - 1),
            table: UnsafeCell::new(table),
            resizing: AtomicBool::new(false),
            inside: (0..workers).map(|_| Flag(AtomicBool::new(false))).collect(),
            len: AtomicUsize::new(0),
        }
    }

    /// Inserts `fp` for worker `w`; true if it was not there. Worker `w`'s
    /// flag stays up: it must [`Visited::leave`] before it waits for
    /// another worker.
    pub fn insert(&self, w: usize, fp: u64) -> bool {
        let fp = fp.max(1);
        let flag = &self.inside[w].0;
        // Only this worker writes its flag, so a relaxed read is its own
        // last write.
        if !flag.load(Relaxed) {
            flag.store(true, SeqCst);
        }
        while self.resizing.load(SeqCst) {
            flag.store(false, Release);
            while self.resizing.load(Acquire) {
                std::thread::yield_now();
            }
            flag.store(true, SeqCst);
        }
        // SAFETY: our flag is up and no resize is under way.
        let table = unsafe { &*self.table.get() };
        probe(table, fp)
    }

    /// Lowers worker `w`'s flag: it will not touch the table until its
    /// next insertion, so a resize need not wait for it.
    pub fn leave(&self, w: usize) {
        self.inside[w].0.store(false, Release);
    }

    /// Adds `count` insertions of a worker to the shared length; returns
    /// the bytes the table would take after growing if it should grow now.
    pub fn publish(&self, count: usize, workers: usize) -> Option<u64> {
        let len = self.len.fetch_add(count, Relaxed) + count;
        // Unpublished insertions stay below this slack.
        let slack = workers * PUBLISH;
        // SAFETY: reading the length of the table races only with a
        // resize, which the caller's next `grow` re-checks under the flags.
        let capacity = unsafe { (*self.table.get()).len() };
        ((len + slack) * 100 > capacity * LOAD).then_some(capacity as u64 * 2 * 8)
    }

    /// Doubles the table (worker `w`, outside any insertion); false if
    /// another worker is growing it already.
    pub fn grow(&self, w: usize, workers: usize) -> bool {
        if self
            .resizing
            .compare_exchange(false, true, SeqCst, SeqCst)
            .is_err()
        {
            return false;
        }
        for (i, flag) in self.inside.iter().enumerate() {
            while i != w && flag.0.load(SeqCst) {
                std::hint::spin_loop();
            }
        }
        // SAFETY: `resizing` is ours and every other worker is outside.
        let table = unsafe { &mut *self.table.get() };
        let len = self.len.load(Relaxed) + workers * PUBLISH;
        if len * 100 > table.len() * LOAD {
            let bigger = huge(table.len() * 2);
            // Chunk by chunk, handing each rehashed chunk of the old table
            // back to the kernel: the peak is the new table, not both.
            const CHUNK: usize = 1 << 18;
            for chunk in table.chunks(CHUNK) {
                for slot in chunk {
                    let fp = slot.load(Relaxed);
                    if fp != 0 {
                        probe(&bigger, fp);
                    }
                }
                release(chunk);
            }
            *table = bigger;
            self.base.store(table.as_ptr() as *mut AtomicU64, Relaxed);
            self.mask.store(table.len() - 1, Relaxed);
        }
        self.resizing.store(false, SeqCst);
        true
    }

    /// Asks the processor to fetch the slot where `fp` would be.
    pub fn prefetch(&self, fp: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let i = fp.max(1) as usize & self.mask.load(Relaxed);
            let at = self.base.load(Relaxed).wrapping_add(i);
            // SAFETY: a prefetch is a hint: it neither faults nor reads in
            // the program's sense, whatever the address.
            unsafe {
                std::arch::x86_64::_mm_prefetch(at as *const i8, std::arch::x86_64::_MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = fp;
    }

    /// Bytes the table takes now.
    pub fn bytes(&self) -> u64 {
        // SAFETY: as in `publish`, a racy read of a length.
        unsafe { (*self.table.get()).len() as u64 * 8 }
    }
}

/// Finds `fp` or claims a free slot for it; true if it was not there.
fn probe(table: &[AtomicU64], fp: u64) -> bool {
    let mask = table.len() - 1;
    let mut i = fp as usize & mask;
    for _ in 0..table.len() {
        let slot = &table[i];
        match slot.load(Acquire) {
            x if x == fp => return false,
            0 => match slot.compare_exchange(0, fp, AcqRel, Acquire) {
                Ok(_) => return true,
                Err(x) if x == fp => return false,
                Err(_) => i = (i + 1) & mask,
            },
            _ => i = (i + 1) & mask,
        }
    }
    panic!("the visited table is full: it grows before it is {LOAD}% full")
}

/// Gives the pages wholly inside `chunk` back to the kernel (their
/// contents are not read again).
fn release(chunk: &[AtomicU64]) {
    #[cfg(target_os = "linux")]
    {
        let page = 4096;
        let start = (chunk.as_ptr() as usize).next_multiple_of(page);
        let end = (chunk.as_ptr() as usize + std::mem::size_of_val(chunk)) / page * page;
        if end > start {
            // SAFETY: the pages lie inside the table's allocation, which
            // is dropped right after without being read.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_DONTNEED);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = chunk;
}
