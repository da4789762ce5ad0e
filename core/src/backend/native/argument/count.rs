//! A count the clues fix, of a line, a cut or one of their colour splits: reached, it
//! loses the rest of its pieces; needing every piece it has left, it takes them; out of
//! reach, what is known has no tiling. Unit propagation over a group's "exactly its
//! quota": a proof needs no recipe for it, and the search makes it in `delete` and
//! `commit` (`search/state.rs`). Taken one at a time in any order, with
//! [`super::single`], the counts reach the search's fixed point, which the ladder's
//! first two rungs run.

use super::board::Board;
use super::finding::{Deduction, Rule};
use super::words::{be, group_words, is_colour_split};
use crate::backend::native::ladder::Rung;
use crate::puzzle::CellJson;

/// The first count, in the model's order, of whole lines and cuts (`colour_splits`
/// false) or of their colour splits (true), that decides a piece or is out of reach.
pub fn find(board: &Board, colour_splits: bool) -> Option<Deduction> {
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
