//! A board of the small path as bit masks: cell `r·cols + c` is bit `r·cols + c`, a
//! vertical piece is named by the bit of its top cell and a horizontal one by the bit of
//! its left cell. What the path's other files (clue inversion, the search) read.

use crate::puzzle::Solution;

/// Most cells the path takes: one 128-bit word.
pub const MAX_CELLS: usize = 128;

/// A board compiled for the small path: masks and quotas, all on the stack.
#[derive(Debug, Clone)]
pub struct Board {
    pub(super) rows: usize,
    pub(super) cols: usize,
    /// Open cells.
    pub(super) open: u128,
    /// The cells of the top row; row `r` is this shifted by `r·cols`.
    pub(super) first_row: u128,
    /// The cells of the left column; column `c` is this shifted by `c`.
    pub(super) first_col: u128,
    /// Orientation quotas from clue inversion.
    pub(super) quotas: Quotas,
    /// Dead ends before the path gives up: [`super::search::FAILURE_CAP`] unless set.
    pub(super) failure_cap: u64,
}

/// The orientation quotas of a board: how many pieces of each kind each group holds in
/// every tiling.
#[derive(Debug, Clone)]
pub struct Quotas {
    /// Vertical pieces whose top cell is in row `r`.
    pub u: [u8; MAX_CELLS],
    /// Horizontal pieces in row `r`.
    pub p: [u8; MAX_CELLS],
    /// Vertical pieces in column `c`.
    pub q: [u8; MAX_CELLS],
    /// Horizontal pieces whose left cell is in column `c`.
    pub t: [u8; MAX_CELLS],
}

impl Default for Quotas {
    fn default() -> Quotas {
        Quotas {
            u: [0; MAX_CELLS],
            p: [0; MAX_CELLS],
            q: [0; MAX_CELLS],
            t: [0; MAX_CELLS],
        }
    }
}

impl Board {
    /// The same board with another dead-end cap (tests give up at once with 0).
    pub fn with_failure_cap(mut self, cap: u64) -> Board {
        self.failure_cap = cap;
        self
    }

    /// The open cells of row `r`.
    pub(super) fn row(&self, r: usize) -> u128 {
        (self.first_row << (r * self.cols)) & self.open
    }

    /// The open cells of column `c`.
    pub(super) fn col(&self, c: usize) -> u128 {
        (self.first_col << c) & self.open
    }

    /// The tiling of two start-cell masks, zero-based and sorted row-major.
    pub fn decode(&self, vertical: u128, horizontal: u128) -> Solution {
        let cells = |mut mask: u128| {
            let mut out = Vec::with_capacity(mask.count_ones() as usize);
            while mask != 0 {
                let k = mask.trailing_zeros() as usize;
                out.push((k / self.cols, k % self.cols));
                mask &= mask - 1;
            }
            out
        };
        // Bits ascend in row-major order: the lists come out sorted.
        Solution {
            vertical: cells(vertical),
            horizontal: cells(horizontal),
        }
    }
}
