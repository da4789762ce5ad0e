//! What a player knows of a board: each piece placed, ruled out or open, with the
//! cells each piece covers so that placing one rules out the pieces it overlaps (every
//! cell is covered once), and the words a reason names pieces and cells with.

use crate::model::{Family, Model, QuotaGroup};
use crate::puzzle::{CellJson, Orientation, Piece, Solution};

/// Placing a piece met one already placed on one of its cells, or ruling out a piece
/// met it placed: what is known has no tiling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Clash;

/// The budget (a time limit, Ctrl-C) ran out before a rule finished: nothing is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stopped;

/// The board as known at one moment.
#[derive(Debug, Clone)]
pub(super) struct Board<'m> {
    /// The model with colour splits: every family's groups, placements in the order of
    /// every other model of the board.
    pub model: &'m Model,
    /// For each placement: placed, ruled out, or open.
    pub known: Vec<Option<bool>>,
    /// For each placement, the indices in `model.covers` of its two cells.
    cells_of: Vec<[u32; 2]>,
}

impl<'m> Board<'m> {
    /// Nothing known yet.
    pub fn new(model: &'m Model) -> Board<'m> {
        let mut cells_of = vec![[u32::MAX; 2]; model.placements.len()];
        for (k, cover) in model.covers.iter().enumerate() {
            for &p in &cover.placements {
                let slot = &mut cells_of[p as usize];
                let i = usize::from(slot[0] != u32::MAX);
                slot[i] = k as u32;
            }
        }
        Board {
            model,
            known: vec![None; model.placements.len()],
            cells_of,
        }
    }

    /// Places `p`, ruling out every piece sharing a cell with it.
    pub fn place(&mut self, p: u32) -> Result<(), Clash> {
        match self.known[p as usize] {
            Some(true) => return Ok(()),
            Some(false) => return Err(Clash),
            None => {}
        }
        for k in self.cells_of[p as usize] {
            for &q in &self.model.covers[k as usize].placements {
                if q != p {
                    if self.known[q as usize] == Some(true) {
                        return Err(Clash);
                    }
                    self.known[q as usize] = Some(false);
                }
            }
        }
        self.known[p as usize] = Some(true);
        Ok(())
    }

    /// Rules out `p`.
    pub fn rule_out(&mut self, p: u32) -> Result<(), Clash> {
        if self.known[p as usize] == Some(true) {
            return Err(Clash);
        }
        self.known[p as usize] = Some(false);
        Ok(())
    }

    /// Whether `p` is still open.
    pub fn open(&self, p: u32) -> bool {
        self.known[p as usize].is_none()
    }

    /// The cover indices of `p`'s two cells.
    pub fn cells(&self, p: u32) -> [u32; 2] {
        self.cells_of[p as usize]
    }

    /// Whether cover `k`'s cell has a piece placed on it.
    pub fn covered(&self, k: u32) -> bool {
        self.model.covers[k as usize]
            .placements
            .iter()
            .any(|&p| self.known[p as usize] == Some(true))
    }

    /// The open pieces on cover `k`'s cell.
    pub fn open_at(&self, k: u32) -> impl Iterator<Item = u32> + '_ {
        (self.model.covers[k as usize].placements.iter().copied()).filter(|&p| self.open(p))
    }

    /// The pieces placed, as a tiling (partial until every cell is covered).
    pub fn placed(&self) -> Solution {
        self.model.decode(&self.with(Some(true)))
    }

    /// The placements with this value.
    pub fn with(&self, value: Option<bool>) -> Vec<u32> {
        (0..self.known.len() as u32)
            .filter(|&p| self.known[p as usize] == value)
            .collect()
    }

    /// A cover's cell, one-based.
    pub fn cell(&self, k: u32) -> CellJson {
        let cover = &self.model.covers[k as usize];
        CellJson([cover.row, cover.col])
    }

    /// `p`'s two cells, one-based.
    pub fn piece_cells(&self, p: u32) -> [CellJson; 2] {
        self.cells_of[p as usize].map(|k| self.cell(k))
    }

    /// The piece `p` in words: "the vertical piece on (3,4)–(4,4)".
    pub fn piece(&self, p: u32) -> String {
        piece_words(&self.model.placements[p as usize])
    }
}

/// A piece in words, one-based.
pub fn piece_words(piece: &Piece) -> String {
    let (r, c) = (piece.row + 1, piece.col + 1);
    match piece.orientation {
        Orientation::Vertical => format!("the vertical piece on ({r},{c})–({},{c})", r + 1),
        Orientation::Horizontal => format!("the horizontal piece on ({r},{c})–({r},{})", c + 1),
    }
}

/// A few cells in words: the first four, then how many more.
pub(super) fn cells_words(cells: &[CellJson]) -> String {
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
pub(super) fn is_colour_split(group: &QuotaGroup) -> bool {
    matches!(
        group.family,
        Family::UEven | Family::UOdd | Family::TEven | Family::TOdd
    )
}

/// What a group counts, in words a player reads: "the vertical pieces crossing from
/// row 3 to row 4".
pub(super) fn group_words(group: &QuotaGroup) -> String {
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
