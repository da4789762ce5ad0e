//! Memory in figures: the sizes a plan is made of, and the refusal of a board whose
//! plan does not fit. What the budget is on this machine (a `--memory` limit, the memory
//! the system has available) is the operating system's side, in `dominofit::memory`.

const GIB: u64 = 1 << 30;

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
