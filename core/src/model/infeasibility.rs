//! Why clue inversion proves a board has no solution, in a player's words.

use std::fmt;

/// Why clue inversion proves a board has no solution. Coordinates are one-based.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Infeasibility {
    /// An odd number of open cells, which dominoes cannot cover.
    OddArea {
        /// Open cells on the board, `N` in the paper.
        open: usize,
    },
    /// The row clues and the column clues count different numbers of dots (Eq. 5).
    UnequalTotals {
        /// Sum of the row clues.
        row_total: u128,
        /// Sum of the column clues.
        col_total: u128,
    },
    /// The clue total lies outside `N/2..=N`: the `N/2` pieces carry one or two dots each.
    TotalOutOfRange {
        /// Open cells on the board, `N` in the paper.
        open: usize,
        /// Sum of the clues, the same for rows and for columns.
        total: u128,
    },
    /// Row 1's clue is not its number of open cells: nothing crosses into row 1 from above,
    /// so every piece there puts one dot per cell it covers in the row.
    TopRow {
        /// Open cells in row 1.
        open: usize,
        /// Row 1's clue.
        clue: u64,
    },
    /// `u_i` for the cut between `row` and `row + 1`.
    VerticalCut {
        /// One-based row above the cut.
        row: usize,
        /// Crossing pieces the clues imply (Eq. 6); negative when row `row + 1` has fewer
        /// open cells than its clue.
        need: i128,
        /// Columns where both cells beside the cut are open.
        room: usize,
    },
    /// `p_i`, in halves so that a fractional count can be shown.
    RowHorizontal {
        /// One-based row.
        row: usize,
        /// The dots the clue leaves for horizontal pieces once vertical top cells are
        /// counted: twice the pieces needed, so odd or negative has no whole count.
        need_halves: i128,
        /// Most disjoint horizontal pieces that fit in the row.
        room: usize,
    },
    /// `t_j` for the cut between `col` and `col + 1`; `col == cols` is the right edge.
    HorizontalCut {
        /// One-based column left of the cut.
        col: usize,
        /// Columns on the board, to tell the right edge from an inner cut.
        cols: usize,
        /// Crossing pieces the column clues imply (Eq. 8); may be negative.
        need: i128,
        /// Rows where both cells beside the cut are open; none at the right edge.
        room: usize,
    },
    /// `q_j`.
    ColumnVertical {
        /// One-based column.
        col: usize,
        /// Vertical pieces the clues imply for the column (Eq. 9); may be negative.
        need: i128,
        /// Most disjoint vertical pieces that fit in the column.
        room: usize,
    },
    /// A colour split of `u_i` (Eq. 10), in halves.
    VerticalColour {
        /// One-based row above the cut.
        row: usize,
        /// The colour split: top cells with even `row + col` if true, odd if false.
        even: bool,
        /// Twice the pieces of that colour needed; odd or negative is no whole count.
        need_halves: i128,
        /// Columns at the cut with both cells open and the top cell of that colour.
        room: usize,
    },
    /// A colour split of `t_j` (Eq. 10), in halves.
    HorizontalColour {
        /// One-based column left of the cut.
        col: usize,
        /// The colour split: left cells with even `row + col` if true, odd if false.
        even: bool,
        /// Twice the pieces of that colour needed; odd or negative is no whole count.
        need_halves: i128,
        /// Rows at the cut with both cells open and the left cell of that colour.
        room: usize,
    },
}

fn halves(h: i128) -> String {
    if h % 2 == 0 {
        format!("{}", h / 2)
    } else {
        format!("{}{}.5", if h < 0 { "-" } else { "" }, (h / 2).abs())
    }
}

fn colour_word(even: bool) -> &'static str {
    if even { "even" } else { "odd" }
}

impl fmt::Display for Infeasibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Infeasibility::*;
        match *self {
            OddArea { open } => write!(
                f,
                "the board has {open} open cells, an odd number, so dominoes cannot cover it"
            ),
            UnequalTotals {
                row_total,
                col_total,
            } => write!(
                f,
                "the row clues add up to {row_total} dots but the column clues to {col_total}"
            ),
            TotalOutOfRange { open, total } => write!(
                f,
                "the clues add up to {total} dots, but {} pieces on {open} open cells carry \
                 between {} and {open} dots",
                open / 2,
                open / 2
            ),
            TopRow { open, clue } => write!(
                f,
                "row 1 has {open} open cells and every piece puts one dot per cell it covers \
                 there, so its clue must be {open}, not {clue}"
            ),
            VerticalCut { row, need, .. } if need < 0 => write!(
                f,
                "rows {row} and {} would need {need} vertical pieces crossing between them \
                 (row {} has fewer open cells than its clue)",
                row + 1,
                row + 1
            ),
            VerticalCut { row, need, room } => write!(
                f,
                "rows {row} and {} would need {need} vertical pieces crossing between them, \
                 but only {room} columns have both cells open",
                row + 1
            ),
            RowHorizontal {
                row, need_halves, ..
            } if need_halves < 0 || need_halves % 2 != 0 => {
                write!(
                    f,
                    "row {row} would need {} horizontal pieces",
                    halves(need_halves)
                )
            }
            RowHorizontal {
                row,
                need_halves,
                room,
            } => write!(
                f,
                "row {row} would need {} horizontal pieces but has room for at most {room}",
                halves(need_halves)
            ),
            HorizontalCut {
                col, cols, need, ..
            } if col == cols => write!(
                f,
                "the column clues would need {need} horizontal pieces crossing the right \
                 edge of the board, where there is no room for any"
            ),
            HorizontalCut { col, need, .. } if need < 0 => write!(
                f,
                "columns {col} and {} would need {need} horizontal pieces crossing between them",
                col + 1
            ),
            HorizontalCut {
                col, need, room, ..
            } => write!(
                f,
                "columns {col} and {} would need {need} horizontal pieces crossing between \
                 them, but only {room} rows have both cells open",
                col + 1
            ),
            ColumnVertical { col, need, .. } if need < 0 => {
                write!(f, "column {col} would need {need} vertical pieces")
            }
            ColumnVertical { col, need, room } => write!(
                f,
                "column {col} would need {need} vertical pieces but has room for at most {room}"
            ),
            VerticalColour {
                row,
                even,
                need_halves,
                room,
            } => colour_split(
                f,
                ("vertical", "rows", "columns"),
                row,
                even,
                need_halves,
                room,
            ),
            HorizontalColour {
                col,
                even,
                need_halves,
                room,
            } => colour_split(
                f,
                ("horizontal", "columns", "rows"),
                col,
                even,
                need_halves,
                room,
            ),
        }
    }
}

/// Eq. 10's failure, said the same way for both cut directions: the three words name the
/// pieces, the lines the cut lies between, and the lines that cross it.
fn colour_split(
    f: &mut std::fmt::Formatter<'_>,
    (pieces, lines, crossing): (&str, &str, &str),
    at: usize,
    even: bool,
    need_halves: i128,
    room: usize,
) -> std::fmt::Result {
    let colour = colour_word(even);
    write!(
        f,
        "{} of the {pieces} pieces crossing between {lines} {at} and {} would have to \
         start on {colour} cells (row + column {colour})",
        halves(need_halves),
        at + 1,
    )?;
    if need_halves >= 0 && need_halves % 2 == 0 {
        write!(f, ", but only {room} such {crossing} are open")?;
    }
    Ok(())
}

impl std::error::Error for Infeasibility {}

#[cfg(test)]
mod tests {
    use super::halves;

    #[test]
    fn halves_render_signs() {
        assert_eq!(halves(5), "2.5");
        assert_eq!(halves(-1), "-0.5");
        assert_eq!(halves(-4), "-2");
    }
}
