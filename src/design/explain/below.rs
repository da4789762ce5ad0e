//! The rungs below trial, weakest first: what a walkthrough tries before a trial, and
//! what a trial follows to its contradiction.

use super::board::Board;
use super::deduction::Deduction;
use super::{counts, pairing};

/// The first deduction of the rungs below trial, weakest first.
pub(super) fn below_trial(board: &Board) -> Option<Deduction> {
    counts::cells(board)
        .or_else(|| counts::counts(board, false))
        .or_else(|| counts::counts(board, true))
        .or_else(|| pairing::pairs(board))
}
