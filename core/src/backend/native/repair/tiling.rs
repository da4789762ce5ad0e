//! The tiling the repair holds: a perfect matching of the open cells, changed only along
//! alternating cycles, so that it is a tiling after every move.

/// No partner (a blocked cell), or no cell.
pub(super) use crate::puzzle::perfect_matching::NONE;

/// A perfect matching of a board's open cells.
#[derive(Debug, Clone)]
pub(super) struct Tiling {
    pub rows: usize,
    pub cols: usize,
    /// The cell each open cell is paired with; [`NONE`] for blocked cells.
    pub partner: Vec<u32>,
}

impl Tiling {
    /// The up to four neighbours of `cell` on the board.
    pub fn neighbours(&self, cell: usize) -> [Option<u32>; 4] {
        crate::puzzle::perfect_matching::neighbours(self.rows, self.cols, cell)
    }

    /// The piece pairing `a` and `b` (neighbours) as the cut it crosses: a vertical
    /// piece crosses the row cut below its top cell, a horizontal one the column cut
    /// right of its left cell.
    pub fn cut_of(&self, a: usize, b: usize) -> Cut {
        let first = a.min(b);
        // Side by side in one row (on a board one column wide, cells one apart are
        // above each other).
        if a.abs_diff(b) == 1 && a / self.cols == b / self.cols {
            Cut::Col(first % self.cols)
        } else {
            Cut::Row(first / self.cols)
        }
    }
}

/// A cut between two neighbouring rows (`Row(i)`: between rows `i` and `i + 1`) or
/// columns, zero-based: what a piece crosses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cut {
    Row(usize),
    Col(usize),
}
