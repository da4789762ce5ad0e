//! How much memory a run may take: one budget for every backend that can tell its size
//! before it starts (the frontier DP's states, a lowering's clauses, the native search's
//! failure cache), so that a board too large for this machine is refused with an
//! estimate instead of being killed half way. The budget is the limit the host set
//! (`--memory`), else half of what the host says is available (`dominofit::memory` reads
//! `/proc/meminfo`; a page has no such reading), at most 8 GiB, else 2 GiB.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

const GIB: u64 = 1 << 30;

/// The `--memory` limit in bytes; 0: none.
static LIMIT: AtomicU64 = AtomicU64::new(0);

/// Where the memory available now is read, when the host can tell.
static AVAILABLE: OnceLock<fn() -> Option<u64>> = OnceLock::new();

/// The words of the host's refusals, when it gave them.
static WORDS: OnceLock<Words> = OnceLock::new();

/// What a refusal tells its reader they can change, in the words of the host that made
/// the call: the command line has `--memory` and other backends, a page has a fixed
/// budget and the native search alone. The core says no flag of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    /// Where the budget comes from ("--memory where the command takes it, else half the
    /// memory available, at most 8 GiB").
    pub budget: &'static str,
    /// How a user gives a run more memory, when they can ("give it more with --memory,
    /// on a machine that has it").
    pub more: Option<&'static str>,
    /// Whether the host has backends beside the native search (ILP, SAT) a refusal may
    /// suggest.
    pub other_backends: bool,
}

impl Words {
    /// A host that said nothing: the rule as the core applies it.
    pub const DEFAULT: Words = Words {
        budget: "the host's limit, else half the memory available, at most 8 GiB",
        more: None,
        other_backends: false,
    };
}

/// Gives the words of this host's refusals (the first given stay: one host a process).
pub fn set_words(words: Words) {
    let _ = WORDS.set(words);
}

/// The words of this host's refusals.
pub fn words() -> Words {
    WORDS.get().copied().unwrap_or(Words::DEFAULT)
}

/// Sets (or with `None` clears) the memory limit of this process's runs (`--memory`).
/// A process-wide setting, because the limit is the machine's share given to the whole
/// run, not to one call.
pub fn set_limit(bytes: Option<u64>) {
    LIMIT.store(bytes.unwrap_or(0), Ordering::SeqCst);
}

/// The memory limit in bytes, when one is set.
pub fn limit() -> Option<u64> {
    match LIMIT.load(Ordering::SeqCst) {
        0 => None,
        bytes => Some(bytes),
    }
}

/// Tells the budget where the memory available now is read (the first source given
/// stays): the library gives its reader of `/proc/meminfo` before any budget is taken.
pub fn set_available_source(source: fn() -> Option<u64>) {
    let _ = AVAILABLE.set(source);
}

/// The memory a run may plan for: the limit when one is set; otherwise half the memory
/// available (from the host's source), at most 8 GiB, or 2 GiB when there is no reading.
pub fn budget() -> u64 {
    limit().unwrap_or_else(|| {
        let available = AVAILABLE.get().and_then(|read| read());
        available.map_or(2 * GIB, |bytes| (bytes / 2).min(8 * GIB))
    })
}

/// Holds the planned memory of a run's parts (each named for the message) against
/// [`budget`] before any of them is built: their sum, or why it does not fit.
///
/// # Errors
/// The parts together need more than the budget.
pub fn plan(parts: &[(&'static str, u64)]) -> Result<u64, OverBudget> {
    plan_within(parts, budget())
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
/// than the budget allows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the board would need about {needed} of memory ({parts}), more than the {budget} \
     allowed ({rule})",
    rule = words().budget,
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
/// `budget` before any of them is built: their sum, or why it does not fit.
///
/// # Errors
/// The parts together need more than the budget.
pub fn plan_within(parts: &[(&'static str, u64)], budget: u64) -> Result<u64, OverBudget> {
    let needed = parts
        .iter()
        .fold(0u64, |sum, (_, bytes)| sum.saturating_add(*bytes));
    if needed > budget {
        return Err(OverBudget {
            needed,
            budget,
            parts: parts.to_vec(),
        });
    }
    Ok(needed)
}
