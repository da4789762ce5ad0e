//! The raw-rules CNF of a board: the formula a certificate's proof refutes.
//!
//! It says only what the game says — every open cell covered once, every row and
//! column reaching its dot clue — with no clue inversion and no colour splits, so that
//! trusting a refutation of it needs no theorem, only the encoding, which
//! docs/CERTIFICATES.md fixes clause by clause so that anyone can rebuild it. It is the
//! `raw` lowering of the model (covers pairwise, each clue sum as a decision diagram),
//! written without comments.

use std::fmt::Write as _;

use crate::encode::Encoding;
use crate::lower::cnf::{self, LowerError};
use crate::model::{self, Families, Model};
use crate::puzzle::{Instance, Solution};

/// Why the rules CNF was not written.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// The formula would not fit in memory, or an encoding refused.
    #[error(transparent)]
    Lower(#[from] LowerError),
    /// The tiling to block places a piece the board has no room for.
    #[error("the tiling places a piece on a blocked or missing cell at row {row}, column {col}")]
    NotAPlacement {
        /// One-based row of the piece's start cell.
        row: usize,
        /// One-based column of the piece's start cell.
        col: usize,
    },
}

/// The DIMACS text of the board's rules; with `blocked`, one more clause, last, that
/// rules that tiling out (a uniqueness certificate refutes the rest).
///
/// # Errors
/// The formula would not fit in the memory budget, or `blocked` is not a set of
/// placements of this board.
pub fn rules_cnf(instance: &Instance, blocked: Option<&Solution>) -> Result<String, RulesError> {
    let model = model::compile(instance, Families::RawSums);
    let lowered = cnf::lower_within(
        &model,
        Encoding::Pairwise,
        crate::memory::budget(),
        &crate::stop::requested,
    )?;
    let blocking = blocked
        .map(|tiling| blocking_clause(&model, tiling))
        .transpose()?;
    let clauses = lowered.cnf.len() + usize::from(blocking.is_some());
    let mut out = String::with_capacity(lowered.cnf.len() * 12 + 32);
    let _ = writeln!(out, "p cnf {} {clauses}", lowered.vars);
    for clause in lowered.cnf.clauses().chain(blocking.as_deref()) {
        for lit in clause {
            let _ = write!(out, "{lit} ");
        }
        out.push_str("0\n");
    }
    Ok(out)
}

/// The placements of a tiling, in increasing order.
///
/// # Errors
/// A piece of the tiling is no placement of the board.
pub fn tiling_placements(model: &Model, tiling: &Solution) -> Result<Vec<u32>, RulesError> {
    let mut ids = Vec::new();
    for piece in tiling.pieces() {
        let id = model
            .placements
            .binary_search(&piece)
            .map_err(|_| RulesError::NotAPlacement {
                row: piece.row + 1,
                col: piece.col + 1,
            })?;
        ids.push(id as u32);
    }
    ids.sort_unstable();
    Ok(ids)
}

/// `¬x₁ ∨ … ∨ ¬xₖ` over the tiling's placement variables, in increasing order: with the
/// exact cover, the tiling is the only assignment it rules out.
fn blocking_clause(model: &Model, tiling: &Solution) -> Result<Vec<i32>, RulesError> {
    Ok(tiling_placements(model, tiling)?
        .into_iter()
        .map(|id| -(id as i32 + 1))
        .collect())
}
