//! The compiled model's memory, planned from the board's size before it is compiled,
//! so that a board too large for the machine is refused with a figure instead of being
//! killed half way (`crate::memory` holds the budget it is held against).

/// Bytes a cell of the board costs the compiled model at most, in its largest families
/// (the colour splits): its placements, its cover, its places in the quota groups.
/// Measured 146 from 128×128 to 512×512, blocked cells or not (`tests/footprint.rs`
/// checks the bound on every run).
const BYTES_PER_CELL: u64 = 160;

/// What does not grow with the board: the group headers of a thin board, the name.
const BYTES_FIXED: u64 = 1 << 20;

/// The most memory compiling a `rows` × `cols` board can take.
pub fn planned_bytes(rows: usize, cols: usize) -> u64 {
    crate::memory::per_cell(rows, cols, BYTES_PER_CELL).saturating_add(BYTES_FIXED)
}
