//! The independent verifier: the raw game rules, checked directly on the board.
//!
//! It never consults clue inversion or the compiled model. Every solution any backend
//! returns passes through here before it is printed, so a bug in a lowering or a
//! solver shows up as an error instead of a wrong answer.

use super::{Instance, Orientation, Solution};

/// The first rule a tiling breaks, with one-based coordinates in its message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Violation {
    /// A piece reaches past the board's edge.
    #[error("{piece} at [{row}, {col}] reaches off the {rows}x{cols} board")]
    OffBoard {
        /// `vertical piece` or `horizontal piece`.
        piece: &'static str,
        /// One-based row of the piece's start cell.
        row: usize,
        /// One-based column of the piece's start cell.
        col: usize,
        /// Board height.
        rows: usize,
        /// Board width.
        cols: usize,
    },
    /// A piece covers a blocked cell.
    #[error("{piece} at [{row}, {col}] covers blocked cell [{cell_row}, {cell_col}]")]
    Blocked {
        /// `vertical piece` or `horizontal piece`.
        piece: &'static str,
        /// One-based row of the piece's start cell.
        row: usize,
        /// One-based column of the piece's start cell.
        col: usize,
        /// One-based row of the blocked cell.
        cell_row: usize,
        /// One-based column of the blocked cell.
        cell_col: usize,
    },
    /// Two pieces cover the same cell.
    #[error("cell [{row}, {col}] is covered twice")]
    Overlap {
        /// One-based row of the cell.
        row: usize,
        /// One-based column of the cell.
        col: usize,
    },
    /// An open cell that no piece covers.
    #[error("open cell [{row}, {col}] is not covered")]
    Uncovered {
        /// One-based row of the cell.
        row: usize,
        /// One-based column of the cell.
        col: usize,
    },
    /// A row's dots differ from its clue.
    #[error("row {row} carries {dots} dots but its clue is {clue}")]
    RowClue {
        /// One-based row.
        row: usize,
        /// Dots the tiling puts in the row.
        dots: u64,
        /// The row's clue.
        clue: u64,
    },
    /// A column's dots differ from its clue.
    #[error("column {col} carries {dots} dots but its clue is {clue}")]
    ColumnClue {
        /// One-based column.
        col: usize,
        /// Dots the tiling puts in the column.
        dots: u64,
        /// The column's clue.
        clue: u64,
    },
}

fn piece_word(o: Orientation) -> &'static str {
    match o {
        Orientation::Vertical => "vertical piece",
        Orientation::Horizontal => "horizontal piece",
    }
}

/// The line `verify` says of a tiling (the board's name escaped for a terminal), and
/// whether the tiling is valid: the command line and a page say the same words.
pub fn verdict_line(instance: &Instance, solution: &Solution) -> (bool, String) {
    let name = crate::escape::terminal(&instance.name);
    match verify(instance, solution) {
        Ok(()) => (
            true,
            format!(
                "{name}: valid: {} vertical and {} horizontal pieces cover all {} open cells and meet every clue",
                solution.vertical.len(),
                solution.horizontal.len(),
                instance.open_cells()
            ),
        ),
        Err(violation) => (false, format!("{name}: invalid: {violation}")),
    }
}

/// Checks a tiling against the game rules: pieces on the board and on open cells,
/// every open cell covered exactly once, and every row and column clue met.
///
/// # Errors
/// The first violated rule, in the order listed above.
pub fn verify(instance: &Instance, solution: &Solution) -> Result<(), Violation> {
    let (rows, cols) = (instance.rows, instance.cols);
    let mut covered = vec![false; rows * cols];
    let mut row_dots = vec![0u64; rows];
    let mut col_dots = vec![0u64; cols];
    for piece in solution.pieces() {
        let (r2, c2) = piece.other_cell();
        let word = piece_word(piece.orientation);
        if r2 >= rows || c2 >= cols {
            return Err(Violation::OffBoard {
                piece: word,
                row: piece.row + 1,
                col: piece.col + 1,
                rows,
                cols,
            });
        }
        let (d1, d2) = piece.dots();
        for (r, c, dots) in [(piece.row, piece.col, d1), (r2, c2, d2)] {
            if !instance.is_open(r, c) {
                return Err(Violation::Blocked {
                    piece: word,
                    row: piece.row + 1,
                    col: piece.col + 1,
                    cell_row: r + 1,
                    cell_col: c + 1,
                });
            }
            let cell = &mut covered[r * cols + c];
            if *cell {
                return Err(Violation::Overlap {
                    row: r + 1,
                    col: c + 1,
                });
            }
            *cell = true;
            row_dots[r] += dots;
            col_dots[c] += dots;
        }
    }
    for r in 0..rows {
        for c in 0..cols {
            if instance.is_open(r, c) && !covered[r * cols + c] {
                return Err(Violation::Uncovered {
                    row: r + 1,
                    col: c + 1,
                });
            }
        }
    }
    if let Some((row, dots, clue)) = first_miss(&row_dots, &instance.row_clues) {
        return Err(Violation::RowClue { row, dots, clue });
    }
    if let Some((col, dots, clue)) = first_miss(&col_dots, &instance.col_clues) {
        return Err(Violation::ColumnClue { col, dots, clue });
    }
    Ok(())
}

/// The first line, one-based, whose dots differ from its clue, with both.
fn first_miss(dots: &[u64], clues: &[u64]) -> Option<(usize, u64, u64)> {
    (dots.iter().zip(clues).enumerate())
        .find(|(_, (dots, clue))| dots != clue)
        .map(|(i, (&dots, &clue))| (i + 1, dots, clue))
}
