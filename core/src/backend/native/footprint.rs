//! The native search's memory beside the model, planned from the board's size before
//! anything is built: the layout, the search's counters and trail, the matching filter,
//! the repair's tiling and counts, and the failure cache up to its cap.
//!
//! The failure cache is the one part that grows with time rather than with the board:
//! it gets at most a quarter of the memory budget, so that a small `--memory` shrinks
//! the cache instead of refusing a board that fits.

use super::SearchOptions;

/// Bytes a cell of the board costs the search at most, repair and matching included.
/// Measured up to 257 (a 512×512 paper-protocol board searched by descents for three
/// seconds, the repair taking turns); `tests/footprint.rs` checks the bound.
const BYTES_PER_CELL: u64 = 288;

/// What does not grow with the board.
const BYTES_FIXED: u64 = 8 << 20;

/// The most memory the search with `options` can take on a `rows` × `cols` board,
/// beside the model.
pub fn planned_bytes(options: &SearchOptions, rows: usize, cols: usize) -> u64 {
    let cache = (cache_words(options) as u64).saturating_mul(8);
    crate::memory::per_cell(rows, cols, BYTES_PER_CELL)
        .saturating_add(cache)
        .saturating_add(BYTES_FIXED)
}

/// The failure cache's cap in words: the options' own, within a quarter of the memory
/// budget.
pub fn cache_words(options: &SearchOptions) -> usize {
    let room = crate::memory::budget() / 4 / 8;
    options
        .cache_words
        .min(usize::try_from(room).unwrap_or(usize::MAX))
}
