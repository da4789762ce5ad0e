//! The tiling the repair holds: a perfect matching of the open cells, changed only along
//! alternating cycles, so that it is a tiling after every move.

/// No partner (a blocked cell), or no cell.
pub(super) const NONE: u32 = u32::MAX;

/// A perfect matching of a board's open cells.
#[derive(Debug, Clone)]
pub(super) struct Tiling {
    pub rows: usize,
    pub cols: usize,
    /// The cell each open cell is paired with; [`NONE`] for blocked cells.
    pub partner: Vec<u32>,
}

impl Tiling {
    /// Some perfect matching of the open cells (`open[cell]`): greedy pairs row by row,
    /// then an augmenting path for each cell left; `None` when there is none.
    pub fn any(rows: usize, cols: usize, open: &[bool]) -> Option<Tiling> {
        let cells = rows * cols;
        let mut t = Tiling {
            rows,
            cols,
            partner: vec![NONE; cells],
        };
        for cell in 0..cells {
            if !open[cell] || t.partner[cell] != NONE {
                continue;
            }
            let free = |n: usize| open[n] && t.partner[n] == NONE;
            let next = [
                (cell % cols + 1 < cols).then(|| cell + 1),
                (cell / cols + 1 < rows).then(|| cell + cols),
            ]
            .into_iter()
            .flatten()
            .find(|&n| free(n));
            if let Some(n) = next {
                t.partner[cell] = n as u32;
                t.partner[n] = cell as u32;
            }
        }
        let mut search = super::path::PathSearch::new(cells);
        for cell in 0..cells {
            if open[cell] && t.partner[cell] == NONE {
                let found = search.augment(&mut t, open, cell as u32, usize::MAX);
                if !found {
                    return None;
                }
            }
        }
        Some(t)
    }

    /// The up to four neighbours of `cell` on the board.
    pub fn neighbours(&self, cell: usize) -> [Option<u32>; 4] {
        let (r, c) = (cell / self.cols, cell % self.cols);
        [
            (c + 1 < self.cols).then(|| (cell + 1) as u32),
            (r + 1 < self.rows).then(|| (cell + self.cols) as u32),
            (c > 0).then(|| (cell - 1) as u32),
            (r > 0).then(|| (cell - self.cols) as u32),
        ]
    }

    /// The piece pairing `a` and `b` (neighbours) as the cut it crosses: a vertical
    /// piece crosses the row cut below its top cell, a horizontal one the column cut
    /// right of its left cell.
    pub fn cut_of(&self, a: usize, b: usize) -> Cut {
        let first = a.min(b);
        if a.abs_diff(b) == 1 {
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
