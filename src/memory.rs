//! How much memory a run may take: one budget for every backend that can tell its size
//! before it starts (the frontier DP's states, a lowering's clauses), so that a board
//! too large for this machine is refused with an estimate instead of being killed by the
//! kernel half way.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::time::Instant;

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

/// Bytes as people read them: `1.5 GiB`, `312 MiB`, `40 KiB`.
pub fn human(bytes: u64) -> String {
    if bytes >= 1 << 60 {
        return "more than an exbibyte".to_string();
    }
    const MIB: u64 = 1 << 20;
    if bytes >= GIB {
        format!("{:.1} GiB", bytes as f64 / GIB as f64)
    } else if bytes >= MIB {
        format!("{} MiB", bytes.div_ceil(MIB))
    } else {
        format!("{} KiB", bytes.div_ceil(1024))
    }
}

/// An estimated count for a message: "about N", or "more than 10^18" for the saturated
/// figures of an estimate (a pairwise encoding of a long line has more clauses than a
/// `u64` holds).
pub fn count_in_words(n: u64) -> String {
    if n >= 1_000_000_000_000_000_000 {
        "more than 10^18".to_string()
    } else {
        format!("about {n}")
    }
}

/// `bytes` for each cell of a `rows` × `cols` board, saturating: how every part of a
/// plan grows with the board.
pub fn per_cell(rows: usize, cols: usize, bytes: u64) -> u64 {
    (rows as u64)
        .saturating_mul(cols as u64)
        .saturating_mul(bytes)
}

/// A board refused before any work: the memory its work is planned to take is more
/// than [`budget`] allows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the board would need about {needed} of memory ({parts}), more than the {budget} \
     allowed (--memory where the command takes it, else half the memory available, at \
     most 8 GiB)",
    needed = human(*needed),
    budget = human(*budget),
    parts = parts
        .iter()
        .map(|(what, bytes)| format!("{what} {}", human(*bytes)))
        .collect::<Vec<_>>()
        .join(", ")
)]
pub struct OverBudget {
    /// Bytes planned in all.
    pub needed: u64,
    /// The budget they were held against.
    pub budget: u64,
    /// Each part's planned bytes, named.
    pub parts: Vec<(&'static str, u64)>,
}

/// Holds the planned memory of a run's parts (each named for the message) against
/// [`budget`] before any of them is built: their sum, or why it does not fit.
///
/// # Errors
/// The parts together need more than the budget.
pub fn plan(parts: &[(&'static str, u64)]) -> Result<u64, OverBudget> {
    let needed = parts
        .iter()
        .fold(0u64, |sum, (_, bytes)| sum.saturating_add(*bytes));
    let budget = budget();
    if needed > budget {
        return Err(OverBudget {
            needed,
            budget,
            parts: parts.to_vec(),
        });
    }
    Ok(needed)
}
