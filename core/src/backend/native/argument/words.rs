//! The words arguments name pieces, cells and counts with, the way a player reads them.

use super::Position;
use crate::model::{Family, QuotaGroup};
use crate::puzzle::{CellJson, Orientation, Piece};

/// A piece in words, one-based.
pub fn piece_words(piece: &Piece) -> String {
    let (r, c) = (piece.row + 1, piece.col + 1);
    match piece.orientation {
        Orientation::Vertical => format!("the vertical piece on ({r},{c})–({},{c})", r + 1),
        Orientation::Horizontal => format!("the horizontal piece on ({r},{c})–({r},{})", c + 1),
    }
}

/// A few cells in words: the first four, then how many more.
pub fn cells_words(cells: &[CellJson]) -> String {
    let shown: Vec<String> = cells
        .iter()
        .take(4)
        .map(|c| format!("({},{})", c.0[0], c.0[1]))
        .collect();
    let mut words = shown.join(", ");
    if cells.len() > 4 {
        words.push_str(&format!(" and {} more", cells.len() - 4));
    }
    words
}

/// Whether a group is one of the colour splits (the `colours` rung) rather than a
/// count of a whole line or cut (`singles`).
pub fn is_colour_split(group: &QuotaGroup) -> bool {
    matches!(
        group.family,
        Family::UEven | Family::UOdd | Family::TEven | Family::TOdd
    )
}

/// What a group counts, in words a player reads: "the vertical pieces crossing from
/// row 3 to row 4".
pub fn group_words(group: &QuotaGroup) -> String {
    let i = group.index;
    let colour = |even: bool, cell: &str| {
        format!(
            " whose {cell} cell is on a square with {} row + column",
            if even { "even" } else { "odd" }
        )
    };
    match group.family {
        Family::U => format!("the vertical pieces crossing from row {i} to row {}", i + 1),
        Family::P => format!("the horizontal pieces in row {i}"),
        Family::Q => format!("the vertical pieces in column {i}"),
        Family::T => format!(
            "the horizontal pieces crossing from column {i} to column {}",
            i + 1
        ),
        Family::UEven | Family::UOdd => format!(
            "the vertical pieces crossing from row {i} to row {}{}",
            i + 1,
            colour(group.family == Family::UEven, "top")
        ),
        Family::TEven | Family::TOdd => format!(
            "the horizontal pieces crossing from column {i} to column {}{}",
            i + 1,
            colour(group.family == Family::TEven, "left")
        ),
    }
}

/// Cover `k`'s cell, one-based.
pub fn cell<P: Position + ?Sized>(pos: &P, k: u32) -> CellJson {
    let cover = &pos.model().covers[k as usize];
    CellJson([cover.row, cover.col])
}

/// The words for a few cells, for reasons that name a set of them, and the cells.
pub fn listed<P: Position + ?Sized>(pos: &P, ks: &[u32]) -> (String, Vec<CellJson>) {
    let cells: Vec<CellJson> = ks.iter().map(|&k| cell(pos, k)).collect();
    (cells_words(&cells), cells)
}

/// The verb for a count of pieces.
pub fn be(n: u32) -> &'static str {
    if n == 1 { "is" } else { "are" }
}
