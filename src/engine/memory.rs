//! How much memory a check may take: the least of what the machine has
//! available, what the container's cgroup allows and what the process's
//! address-space limit (`ulimit -v`) leaves, minus a margin; or less where
//! `--max-memory` says so. The searches stop before they pass it and the
//! executor refuses a size that would not fit, so a check ends with a
//! report, never with an out-of-memory kill or an allocation abort.
//!
//! What the process itself takes ([`process_memory`]) is measured here
//! too, so that the searches (`super::search`) and the progress line
//! import from this module and it imports from neither.

/// Bytes a check may still add to the process, and whether the address
/// space is what is limited (then reserved, untouched memory counts too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Allowance {
    /// Bytes that may still be added.
    pub bytes: u64,
    /// True if the address-space limit is the binding one: then virtual
    /// growth counts against `bytes`, not only resident growth.
    pub address_space: bool,
    /// The process's resident and virtual size when the allowance was
    /// given: growth is counted from here, so what a check builds and
    /// lists before its search (a model, a million fault sets) counts.
    pub base: (u64, u64),
}

/// The process's resident and virtual size in bytes (Linux; 0 elsewhere).
pub fn process_memory() -> (u64, u64) {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let mut fields = statm
        .split_whitespace()
        .map(|f| f.parse::<u64>().unwrap_or(0));
    let (vm, rss) = (fields.next().unwrap_or(0), fields.next().unwrap_or(0));
    (rss * 4096, vm * 4096)
}

/// What the process grew by since `base` (its resident and virtual size
/// then): resident growth, or virtual where that is larger and the
/// address space is what is limited.
pub fn growth(base: (u64, u64), address_space: bool) -> u64 {
    let (rss, vm) = process_memory();
    let grown = rss.saturating_sub(base.0);
    match address_space {
        true => grown.max(vm.saturating_sub(base.1)),
        false => grown,
    }
}

/// The process's peak resident size in bytes so far (Linux's VmHWM; 0
/// elsewhere).
pub fn peak_resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// A number from the first line of a file, if it holds one.
fn read_number(path: &str) -> Option<u64> {
    std::fs::read_to_string(path)
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// MemAvailable of /proc/meminfo, in bytes.
fn available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

/// What the cgroup (v2, else v1) still allows, in bytes.
fn cgroup_free() -> Option<u64> {
    let v2 = (
        read_number("/sys/fs/cgroup/memory.max"),
        read_number("/sys/fs/cgroup/memory.current"),
    );
    let v1 = (
        read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
        read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes"),
    );
    match (v2, v1) {
        ((Some(max), Some(cur)), _) | (_, (Some(max), Some(cur))) => Some(max.saturating_sub(cur)),
        _ => None,
    }
}

/// The soft address-space limit (`ulimit -v`), in bytes, if set.
fn address_space_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// The allowance: `explicit` bytes of total resident memory if given,
/// never more than the machine, its cgroup and the address-space limit
/// leave, each less a margin of a tenth (at least 64 MB) for everything
/// the estimate does not see. None where nothing can be read.
pub fn allowance(explicit: Option<u64>) -> Option<Allowance> {
    let (rss, vm) = process_memory();
    let margin = |b: u64| b.saturating_sub((b / 10).max(64 << 20));
    let machine = [available(), cgroup_free()]
        .into_iter()
        .flatten()
        .min()
        .map(margin);
    let address = address_space_limit().map(|l| margin(l.saturating_sub(vm)));
    let asked = explicit.map(|e| e.saturating_sub(rss));
    let bytes = [machine, address, asked].into_iter().flatten().min()?;
    Some(Allowance {
        bytes,
        address_space: address.is_some_and(|a| a <= bytes),
        base: (rss, vm),
    })
}

/// Parses `--max-memory` (gigabytes, decimals allowed) into bytes.
pub fn parse_gb(text: &str) -> Option<u64> {
    let gb: f64 = text.parse().ok()?;
    (gb.is_finite() && gb > 0.0 && gb < 1e9).then_some((gb * 1e9) as u64)
}

/// Types whose all-zero bytes are a valid value (zero): [`huge`] hands
/// out fresh zeroed memory as them.
///
/// # Safety
/// All-zero bytes must be a valid value of the type.
pub unsafe trait Zeroed {}

// SAFETY: zero is a value of each, and the atomics have their integers'
// layout and bit validity.
unsafe impl Zeroed for u16 {}
unsafe impl Zeroed for u64 {}
unsafe impl Zeroed for std::sync::atomic::AtomicU16 {}
unsafe impl Zeroed for std::sync::atomic::AtomicU64 {}

/// `len` zeros, in fresh memory that the kernel zeroes as it is first
/// touched (nothing writes it here) and is asked to back with huge pages
/// (Linux's `madvise`, where transparent huge pages are on request): at
/// 2^28 nodes the executor spent a fifth of its time writing its arrays
/// before the first slot and faulting them in 4 KB pages (BENCHMARKS.md).
pub fn huge<T: Zeroed>(len: usize) -> Vec<T> {
    let layout = std::alloc::Layout::array::<T>(len).expect("an array that fits the address space");
    if layout.size() == 0 {
        return Vec::new();
    }
    // SAFETY: the layout is not empty; the memory is zeroed, a valid `T`
    // each (`Zeroed`), allocated by the global allocator with the layout
    // of `len` of them, which is what `Vec::from_raw_parts` needs.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<T>();
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        #[cfg(target_os = "linux")]
        if layout.size() >= 1 << 21 {
            // Advice only, on the whole pages inside the allocation.
            let start = ptr as usize;
            let first = start.next_multiple_of(4096);
            let end = (start + layout.size()) & !4095;
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
        Vec::from_raw_parts(ptr, len, len)
    }
}
