//! How much memory a run may take: one budget for every backend that can tell its size
//! before it starts (the frontier DP's states, a lowering's clauses), so that a board
//! too large for this machine is refused with an estimate instead of being killed by the
//! kernel half way.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::time::Instant;
pub use dominofit_core::memory::{
    OverBudget, Words, count_in_words, human, limit, per_cell, set_words,
};

/// Sets (or with `None` clears) the memory limit of this process's runs (`--memory`):
/// the budget of the backends that size their work before starting, and the hard
/// limit of the address space of every program dominofit starts (external solvers and
/// the varisat worker). A process-wide setting, because the limit is the machine's
/// share given to the whole run, not to one call.
pub fn set_limit(bytes: Option<u64>) {
    install();
    dominofit_core::memory::set_limit(bytes);
}

/// The memory a run may plan for: the `--memory` limit when one is set; otherwise half
/// the memory available now (from `/proc/meminfo` where there is one, read at most once
/// a second), at most 8 GiB, or 2 GiB when it cannot be read. The core's budget, with
/// this reader of the available memory given to it first.
pub fn budget() -> u64 {
    install();
    dominofit_core::memory::budget()
}

/// Holds the planned memory of a run's parts (each named for the message) against
/// [`budget`] before any of them is built: their sum, or why it does not fit.
///
/// # Errors
/// The parts together need more than the budget.
pub fn plan(parts: &[(&'static str, u64)]) -> Result<u64, OverBudget> {
    install();
    dominofit_core::memory::plan(parts)
}

/// Gives the core's budget this reader of the memory available, so that the engines
/// in the core (which read no file) plan by the machine's memory too. Every way into a
/// run here (the driver plans before it solves) passes by one of the calls above.
pub fn install() {
    dominofit_core::memory::set_words(dominofit_core::memory::Words {
        budget: "--memory where the command takes it, else half the memory available, at most 8 GiB",
        more: Some("give it more with --memory, on a machine that has it"),
        other_backends: true,
    });
    dominofit_core::memory::set_available_source(available);
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
