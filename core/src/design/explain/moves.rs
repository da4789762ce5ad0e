//! Whether a player's moves still lead to a tiling, and which move to take back when
//! they do not.
//!
//! Every step of a walkthrough follows from what is known, the moves included; from
//! moves no tiling extends, the steps are sound and still useless: they build on a
//! wrong piece, and the contradiction may come a hundred steps later. So a hint first
//! asks the complete search whether the moves extend, on the board the moves leave:
//! their cells blocked and each clue lowered by the moves' dots in its line. That board
//! has a tiling exactly when the moves extend to a tiling of the original one (a tiling
//! of the rest plus the moves covers every open cell once and meets every clue).
//!
//! A move to take back is one without which the others do extend: no tiling with the
//! others has it. Moves are tried from the last given, the one a player most likely
//! just placed.

use crate::backend::native::Native;
use crate::backend::{BackendError, Budget, Status};
use crate::driver::{self, Request};
use crate::puzzle::{Instance, Piece};

/// What the complete search said of some moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Extends {
    /// Some tiling has every move.
    Yes,
    /// No tiling has them all.
    No,
    /// The search did not finish within the time it was given.
    Undecided,
}

/// The board that `moves` leave of `instance`: their cells blocked, the clues lowered by
/// their dots. `None` when a move's dots exceed what its line's clue has left: then no
/// tiling has them all.
fn rest(instance: &Instance, moves: &[Piece]) -> Option<Instance> {
    let mut blocked = instance.blocked.clone();
    let mut row_clues = instance.row_clues.clone();
    let mut col_clues = instance.col_clues.clone();
    for piece in moves {
        let (r2, c2) = piece.other_cell();
        let (d1, d2) = piece.dots();
        for (r, c, d) in [(piece.row, piece.col, d1), (r2, c2, d2)] {
            blocked[r * instance.cols + c] = true;
            row_clues[r] = row_clues[r].checked_sub(d)?;
            col_clues[c] = col_clues[c].checked_sub(d)?;
        }
    }
    Instance::new(
        instance.name.clone(),
        (instance.rows, instance.cols),
        blocked,
        row_clues,
        col_clues,
    )
    .ok()
}

/// Whether `moves` (pieces on open cells, none overlapping) extend to a tiling of
/// `instance`, asked of the native search within `budget`.
///
/// # Errors
/// The search failed.
pub(super) fn extends(
    instance: &Instance,
    moves: &[Piece],
    budget: &Budget,
) -> Result<Extends, BackendError> {
    let Some(board) = rest(instance, moves) else {
        return Ok(Extends::No);
    };
    if budget.expired() {
        return Ok(Extends::Undecided);
    }
    let request = Request {
        limit: 1,
        timeout: budget.remaining(),
        families: None,
    };
    let report = driver::run(&board, &Native::default(), &request)?;
    Ok(match report.status {
        Status::Sat | Status::Unique | Status::Multiple => Extends::Yes,
        Status::Unsat => Extends::No,
        Status::Unknown => Extends::Undecided,
    })
}

/// A move of `moves` (which extend to no tiling) that no tiling with the others has,
/// trying the last given first; `None` when no single move is to blame (two moves that
/// exclude each other, or a board with no tiling at all) or the budget ran out first.
///
/// # Errors
/// The search failed.
pub(super) fn to_take_back(
    instance: &Instance,
    moves: &[Piece],
    budget: &Budget,
) -> Result<Option<Piece>, BackendError> {
    for k in (0..moves.len()).rev() {
        let mut others = moves.to_vec();
        let piece = others.remove(k);
        match extends(instance, &others, budget)? {
            Extends::Yes => return Ok(Some(piece)),
            Extends::No => {}
            Extends::Undecided => return Ok(None),
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Orientation;

    fn board() -> Instance {
        // The unique tiling: H(1,1) H(2,1) V(1,3) V(1,4).
        Instance::new(
            "w".into(),
            (2, 4),
            vec![false; 8],
            vec![4, 2],
            vec![0, 4, 1, 1],
        )
        .unwrap()
    }

    fn piece(row: usize, col: usize, orientation: Orientation) -> Piece {
        Piece {
            row,
            col,
            orientation,
        }
    }

    #[test]
    fn moves_of_the_tiling_extend_and_others_do_not() {
        let b = board();
        let budget = Budget::unlimited();
        let good = [piece(0, 2, Orientation::Vertical)];
        assert_eq!(extends(&b, &good, &budget).unwrap(), Extends::Yes);
        assert_eq!(extends(&b, &[], &budget).unwrap(), Extends::Yes);
        let wrong = [piece(0, 1, Orientation::Vertical)];
        assert_eq!(extends(&b, &wrong, &budget).unwrap(), Extends::No);
        // Too many dots for column 1's clue of 0: refused before any search.
        let over = [piece(0, 0, Orientation::Vertical)];
        assert!(rest(&b, &over).is_none());
        assert_eq!(extends(&b, &over, &budget).unwrap(), Extends::No);
    }

    #[test]
    fn the_move_to_take_back_is_the_one_the_others_do_without() {
        let b = board();
        let budget = Budget::unlimited();
        let wrong = piece(0, 1, Orientation::Vertical);
        let moves = [piece(0, 3, Orientation::Vertical), wrong];
        assert_eq!(to_take_back(&b, &moves, &budget).unwrap(), Some(wrong));
        let moves = [wrong, piece(0, 3, Orientation::Vertical)];
        assert_eq!(to_take_back(&b, &moves, &budget).unwrap(), Some(wrong));
    }
}
