//! The counting rules, one deduction at a time: a cell with one piece left takes it
//! (`singles`), and a count the clues fix that is reached loses the rest of its
//! pieces, or that needs every piece left takes them (`singles` for whole lines and
//! cuts, `colours` for their checkerboard splits). A cell with no piece left, or a count
//! out of reach, shows that what is known has no tiling.
//!
//! Each rule is unit propagation over one constraint of the model (a cover's "exactly
//! one", a group's "exactly its quota"), so taking them one at a time in any order
//! reaches the same fixed point as the search's propagation, which the ladder's first
//! two rungs run.

use super::board::{Board, cells_words, group_words, is_colour_split};
use super::deduction::{Deduction, Rule};
use crate::backend::native::ladder::Rung;
use crate::puzzle::CellJson;

/// The first cell with one piece left or none, in row-major order.
pub(super) fn cells(board: &Board) -> Option<Deduction> {
    for k in 0..board.model.covers.len() as u32 {
        if board.covered(k) {
            continue;
        }
        let open: Vec<u32> = board.open_at(k).collect();
        let cell = board.cell(k);
        let at = format!("({},{})", cell.0[0], cell.0[1]);
        match open.as_slice() {
            [] => {
                return Some(Deduction::contradiction(
                    Rung::Singles,
                    Rule::NoPiece,
                    format!("No piece is left that could cover the cell {at}."),
                    vec![cell],
                ));
            }
            [p] => {
                return Some(Deduction {
                    rung: Rung::Singles,
                    rule: Rule::LastPiece,
                    place: vec![*p],
                    rule_out: Vec::new(),
                    contradiction: false,
                    reason: format!("The cell {at} can only be covered by {}.", board.piece(*p)),
                    cells: vec![cell],
                    hall_sets: Vec::new(),
                    recipes: Vec::new(),
                });
            }
            _ => {}
        }
    }
    None
}

/// The first count, in the model's order, of whole lines and cuts (`colour_splits`
/// false) or of their colour splits (true), that decides a piece or is out of reach.
pub(super) fn counts(board: &Board, colour_splits: bool) -> Option<Deduction> {
    let rung = if colour_splits {
        Rung::Colours
    } else {
        Rung::Singles
    };
    for group in &board.model.quotas {
        if is_colour_split(group) != colour_splits {
            continue;
        }
        let members = board.model.members(group);
        let placed = members
            .iter()
            .filter(|&&p| board.known[p as usize] == Some(true))
            .count() as u32;
        let open: Vec<u32> = members.iter().copied().filter(|&p| board.open(p)).collect();
        let left = open.len() as u32;
        let quota = group.quota;
        let what = group_words(group);
        let fixed = match quota {
            0 => format!("The clues call for none of {what}"),
            _ => format!("The clues call for exactly {quota} of {what}"),
        };
        let cells = || group_cells(board, members);
        if placed > quota || placed + left < quota {
            return Some(Deduction::contradiction(
                rung,
                Rule::CountBroken,
                format!(
                    "{fixed}, but {placed} {} placed and only {left} more could be.",
                    be(placed)
                ),
                cells(),
            ));
        }
        if left == 0 {
            continue;
        }
        if placed == quota {
            return Some(Deduction {
                rung,
                rule: Rule::CountReached,
                place: Vec::new(),
                rule_out: open,
                contradiction: false,
                hall_sets: Vec::new(),
                recipes: Vec::new(),
                reason: if placed == 0 {
                    format!("{fixed}: the {left} left {} out.", be(left))
                } else {
                    format!(
                        "{fixed}, and {placed} {} placed: the {left} left {} out.",
                        be(placed),
                        be(left)
                    )
                },
                cells: cells(),
            });
        }
        if placed + left == quota {
            if let Some((a, b)) = overlapping(board, &open) {
                return Some(Deduction::contradiction(
                    rung,
                    Rule::CountBroken,
                    format!(
                        "{fixed}, and {placed} {} placed: all {left} left are needed, but {} and {} overlap.",
                        be(placed),
                        board.piece(a),
                        board.piece(b)
                    ),
                    cells(),
                ));
            }
            return Some(Deduction {
                rung,
                rule: Rule::CountNeedsAll,
                hall_sets: Vec::new(),
                recipes: Vec::new(),
                place: open,
                rule_out: Vec::new(),
                contradiction: false,
                reason: format!(
                    "{fixed}, and {placed} {} placed: {} needed.",
                    be(placed),
                    if left == 1 {
                        "the 1 left is".to_string()
                    } else {
                        format!("the {left} left are all")
                    }
                ),
                cells: cells(),
            });
        }
    }
    None
}

/// The verb for a count of pieces.
fn be(n: u32) -> &'static str {
    if n == 1 { "is" } else { "are" }
}

/// Two of `pieces` sharing a cell, if any.
fn overlapping(board: &Board, pieces: &[u32]) -> Option<(u32, u32)> {
    for (i, &a) in pieces.iter().enumerate() {
        for &b in &pieces[i + 1..] {
            if board.cells(a).iter().any(|k| board.cells(b).contains(k)) {
                return Some((a, b));
            }
        }
    }
    None
}

/// The cells of a group's pieces, in row-major order.
fn group_cells(board: &Board, members: &[u32]) -> Vec<CellJson> {
    let mut ks: Vec<u32> = members.iter().flat_map(|&p| board.cells(p)).collect();
    ks.sort_unstable();
    ks.dedup();
    ks.into_iter().map(|k| board.cell(k)).collect()
}

/// The words for a few cells, for reasons that name a set of them.
pub(super) fn listed(board: &Board, ks: &[u32]) -> (String, Vec<CellJson>) {
    let cells: Vec<CellJson> = ks.iter().map(|&k| board.cell(k)).collect();
    (cells_words(&cells), cells)
}
