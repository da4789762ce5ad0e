//! The rungs below trial, weakest first: what a walkthrough tries before a trial, and
//! what a trial follows to its contradiction.

use super::board::{Board, Stopped};
use super::deduction::Deduction;
use super::{counts, pairing};
use crate::backend::Budget;

/// The first deduction of the rungs below trial, weakest first; the pairing rule, the
/// only one whose work grows faster than the board, looks at `budget` as it goes.
pub(super) fn below_trial(board: &Board, budget: &Budget) -> Result<Option<Deduction>, Stopped> {
    match counts::cells(board)
        .or_else(|| counts::counts(board, false))
        .or_else(|| counts::counts(board, true))
    {
        Some(found) => Ok(Some(found)),
        None => pairing::pairs(board, budget),
    }
}
