//! How much memory a run may take: one budget for every backend that can tell its size
//! before it starts (the frontier DP's states, a lowering's clauses), so that a board
//! too large for this machine is refused with an estimate instead of being killed by the
//! kernel half way.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::time::Instant;
pub use dominofit_core::memory::{OverBudget, count_in_words, human, per_cell};

const GIB: u64 = 1 << 30;

/// The `--memory` limit in bytes; 0: none.
static LIMIT: AtomicU64 = AtomicU64::new(0);

/// Sets (or with `None` clears) the memory limit of this process's runs (`--memory`):
/// the budget of the backends that size their work before starting, and the hard
/// limit of the address space of every program dominofit starts (external solvers and
/// the varisat worker). A process-wide setting, because the limit is the machine's
/// share given to the whole run, not to one call.
pub fn set_limit(bytes: Option<u64>) {
    LIMIT.store(bytes.unwrap_or(0), Ordering::SeqCst);
}

/// The `--memory` limit in bytes, when one is set.
pub fn limit() -> Option<u64> {
    match LIMIT.load(Ordering::SeqCst) {
        0 => None,
        bytes => Some(bytes),
    }
}

/// The memory a run may plan for: the `--memory` limit when one is set; otherwise half
/// the memory available now (from `/proc/meminfo` where there is one, read at most once
/// a second), at most 8 GiB, or 2 GiB when it cannot be read.
pub fn budget() -> u64 {
    limit().unwrap_or_else(|| available().map_or(2 * GIB, |bytes| (bytes / 2).min(8 * GIB)))
}

/// `MemAvailable` as last read, and when.
static AVAILABLE: Mutex<Option<(Instant, u64)>> = Mutex::new(None);

/// How long a reading of `MemAvailable` stands: every board on the general path is
/// planned against the budget, and reading `/proc/meminfo` takes about 20 µs, as long
/// as solving a small board.
const AVAILABLE_FRESH_FOR: Duration = Duration::from_secs(1);

/// `MemAvailable` in bytes, read at most once a second.
fn available() -> Option<u64> {
    let mut last = AVAILABLE.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((at, bytes)) = *last
        && at.elapsed() < AVAILABLE_FRESH_FOR
    {
        return Some(bytes);
    }
    let bytes = meminfo("MemAvailable")?;
    *last = Some((Instant::now(), bytes));
    Some(bytes)
}

/// Whether the message a program left on standard error says it ran out of memory:
/// under an address-space limit an allocation fails, and each runtime says so in its
/// own words before it exits or aborts.
pub fn says_out_of_memory(stderr: &str) -> bool {
    const PHRASES: [&str; 8] = [
        "out of memory",
        "memoryerror",
        "cannot allocate memory",
        "bad_alloc",
        "memory allocation of",
        "failed to allocate",
        "memory exhausted",
        "insufficient memory",
    ];
    let lower = stderr.to_ascii_lowercase();
    PHRASES.iter().any(|p| lower.contains(p))
}

/// A field of `/proc/meminfo` (`MemTotal`, `MemAvailable`, ...) in bytes, where there
/// is one.
pub fn meminfo(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let rest = text
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))?;
    let kib: u64 = rest.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

/// Holds the planned memory of a run's parts (each named for the message) against
/// [`budget`] before any of them is built: their sum, or why it does not fit.
///
/// # Errors
/// The parts together need more than the budget.
pub fn plan(parts: &[(&'static str, u64)]) -> Result<u64, OverBudget> {
    dominofit_core::memory::plan_within(parts, budget())
}
