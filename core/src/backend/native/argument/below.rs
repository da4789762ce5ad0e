//! The arguments below trial, weakest first: what a walkthrough tries before a trial,
//! and what a trial follows to its contradiction.

use super::board::{Board, Stopped};
use super::finding::Deduction;
use super::{count, hall, single};
use crate::backend::Budget;

/// The first deduction of the rungs below trial, weakest first; the pairing rule, the
/// only one whose work grows faster than the board, looks at `budget` as it goes.
pub fn below_trial(board: &Board, budget: &Budget) -> Result<Option<Deduction>, Stopped> {
    match single::find(board)
        .or_else(|| count::find(board, false))
        .or_else(|| count::find(board, true))
    {
        Some(found) => Ok(Some(found)),
        None => hall::find(board, budget),
    }
}
