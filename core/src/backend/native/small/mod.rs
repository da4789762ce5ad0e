//! The small-board path: boards of at most 128 cells, decided without compiling the
//! general model.
//!
//! At game size (6×6 to 10×10) the general engine spends most of a call building
//! structures — quota groups, colour families, incidence arrays — for a board that
//! propagation then settles at the root (BENCHMARKS.md, "Where a game board's time
//! goes"). Here the whole board lives in a few 128-bit words: cell `r·cols + c` is bit
//! `r·cols + c`, a vertical piece is named by the bit of its top cell and a horizontal
//! one by the bit of its left cell, so the candidates are two words and every
//! propagation rule is a handful of shifts, masks and popcounts. Clue inversion is
//! integer arithmetic over the line counts (`quotas`), and nothing is allocated until a
//! tiling is handed out.
//!
//! The path is an optimisation of the default `native` backend only; it gives the same
//! answers (statuses and solution sets) as the general engine, which the exhaustive
//! tests check, and it declines every board it does not fit — and every board clue
//! inversion refutes, so that the general path states the refutation in words.

mod board;
mod quotas;
pub mod search;

use crate::backend::{Budget, Compact, Control, FastPath, Outcome};
use crate::puzzle::{Instance, Solution};

pub use board::{Board, MAX_CELLS, Quotas};

impl Board {
    /// The board in bitsets, or `None` when it has more than [`MAX_CELLS`] cells or clue
    /// inversion refutes it (the general path then gives the reason).
    pub fn compile(instance: &Instance) -> Option<Board> {
        let (rows, cols) = (instance.rows, instance.cols);
        let cells = rows.checked_mul(cols)?;
        // A vertical piece is a shift by `cols`, which must stay below the word's width:
        // a single row of 128 cells goes to the general engine.
        if cells == 0 || cells > MAX_CELLS || cols >= MAX_CELLS {
            return None;
        }
        let mut open = 0u128;
        for (k, &blocked) in instance.blocked.iter().enumerate() {
            if !blocked {
                open |= 1 << k;
            }
        }
        let first_row = u128::MAX >> (128 - cols);
        let mut first_col = 0u128;
        for r in 0..rows {
            first_col |= 1 << (r * cols);
        }
        let mut board = Board {
            rows,
            cols,
            open,
            first_row,
            first_col,
            quotas: Quotas::default(),
            failure_cap: search::FAILURE_CAP,
        };
        board.quotas = Quotas::invert(instance, &board)?;
        Some(board)
    }

    /// Enumerates tilings as `(vertical, horizontal)` start-cell masks, handing each to
    /// `each` until it says stop, the search is exhausted or the budget runs out. After
    /// [`search::FAILURE_CAP`] dead ends it ends `Capped`: the board is one for the general
    /// engine, and the tilings handed out so far are to be forgotten.
    pub fn search(
        &self,
        limit: usize,
        budget: &Budget,
        each: &mut dyn FnMut(u128, u128) -> Control,
    ) -> Outcome {
        search::Search::new(self).run(limit, budget, each)
    }

    /// [`Board::search`] for every tiling (`limit` 0), telling `proof` each dead end; `ids`
    /// names the pieces as placements of the general model (`2·cell` for the vertical
    /// piece with its top on the cell, `2·cell + 1` for the horizontal one with its left
    /// cell there). A tiling the search reaches is handed to `each` and counts as a dead
    /// end: the proof's formula rules out the one tiling it may have.
    pub fn search_with_proof(
        &self,
        budget: &Budget,
        proof: &mut dyn crate::backend::native::proof::Justify,
        ids: &[u32],
        each: &mut dyn FnMut(u128, u128) -> Control,
    ) -> Outcome {
        let proof = search::Proof {
            log: proof,
            ids,
            path: Vec::new(),
        };
        search::Search::traced(self, proof).run(0, budget, each)
    }
}

/// The path as the driver runs it, before compiling the general model.
impl FastPath for Board {
    fn search(
        &self,
        limit: usize,
        budget: &Budget,
        each: &mut dyn FnMut(Compact) -> Control,
    ) -> Outcome {
        Board::search(self, limit, budget, &mut |v, h| each(Compact(v, h)))
    }

    fn decode(&self, tiling: Compact) -> Solution {
        Board::decode(self, tiling.0, tiling.1)
    }
}
