//! A hint's proof: that its conclusion follows from the board's rules and what is known
//! (the pieces placed so far, and any ruled out), as a VeriPB derivation.
//!
//! The formula is the raw rules ([`rules_opb`]), what is known as unit constraints, and
//! last the step's conclusion denied: one clause saying some piece it places is out or
//! some piece it rules out is placed (for a step that finds no tiling, a tautology in
//! that place). The proof derives the quotas (clue inversion, as every proof does), the
//! Hall sets the step's pairing arguments name, and then the contradiction by reverse
//! unit propagation: the counting rules are unit propagation over the covers and the
//! quotas, a Hall set's sum propagates what the pairing argument concludes, and a trial
//! is the denied conclusion (its piece placed) propagated to the contradiction. VeriPB
//! accepting it means the hint is right.

use std::fmt::Write as _;

use super::formula::{Ids, rules_opb};
use super::inversion::{self, Inverted};
use super::logger::Logger;
use super::writer::ProofWriter;
use crate::backend::native::argument::hall;
use crate::backend::native::proof::Justify;
use crate::design::explain::Step;
use crate::model::{Families, compile};
use crate::puzzle::{Instance, Piece, Solution};

/// A hint's formula and proof, as files hold them (`hint --proof DIR` writes
/// `hint.opb` and `hint.pbp`; a page gets both as one JSON object).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HintProof {
    /// The OPB formula: the rules, what is known, the conclusion denied.
    pub formula: String,
    /// The VeriPB proof that the formula has no solution.
    pub proof: String,
}

/// Why a hint could not be written as a proof.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HintProofError {
    /// A piece said known does not lie on two open cells.
    #[error("a piece at ({row},{col}) given as known does not lie on two open cells")]
    NotAPiece {
        /// One-based row of its first cell.
        row: usize,
        /// One-based column of its first cell.
        col: usize,
    },
    /// The rules could not be written.
    #[error(transparent)]
    Rules(#[from] crate::certify::rules::RulesError),
    /// Writing the proof failed.
    #[error("writing the proof: {0}")]
    Write(#[from] std::io::Error),
}

/// The proof that `step` follows from the rules of `instance` with the pieces of
/// `placed` placed and those of `ruled_out` out.
///
/// # Errors
/// A known piece is not a piece of the board, or the rules cannot be written.
pub fn hint_proof(
    instance: &Instance,
    placed: &Solution,
    ruled_out: &Solution,
    step: &Step,
) -> Result<HintProof, HintProofError> {
    let model = compile(instance, Families::ColourSplits);
    let ids = Ids::of(instance, &model);
    let id = |piece: Piece| {
        model
            .placements
            .binary_search(&piece)
            .map(|p| p as u32 + 1)
            .map_err(|_| HintProofError::NotAPiece {
                row: piece.row + 1,
                col: piece.col + 1,
            })
    };
    let mut known = String::new();
    let mut count = 0u64;
    for (pieces, sign) in [(placed, ""), (ruled_out, "~")] {
        for piece in pieces.pieces() {
            let _ = writeln!(known, "1 {sign}x{} >= 1 ;", id(piece)?);
            count += 1;
        }
    }
    let mut denied = String::new();
    for (pieces, sign) in [(&step.placed, "~"), (&step.ruled_out, "")] {
        for piece in pieces.pieces() {
            let _ = write!(denied, "1 {sign}x{} ", id(piece)?);
        }
    }
    if step.contradiction || denied.is_empty() {
        denied = "1 x1 1 ~x1 ".to_string();
    }
    let _ = writeln!(known, "{denied}>= 1 ;");
    count += 1;
    let rules = rules_opb(instance, None)?;
    let (header, body) = rules.split_once('\n').unwrap_or((&rules, ""));
    let (vars, constraints) = header.split_once("#constraint= ").unwrap_or((header, "0"));
    let rules_count: u64 = constraints.trim().parse().unwrap_or(0);
    let formula = format!("{vars}#constraint= {}\n{body}{known}", rules_count + count);

    // VeriPB loads each equality of the rules as two constraints, then the units; the
    // denied conclusion takes the place the writer keeps for a last constraint.
    let mut out = ProofWriter::new(Vec::new(), ids.rules() + count - 1);
    let contradiction = match inversion::derive(&model, instance, &ids, &mut out) {
        Inverted::Refuted(id) => id,
        Inverted::Quotas(quotas) => {
            let mut logger = Logger::new(out, ids, quotas);
            for set in &step.hall_sets {
                logger.derive(&hall::recipe(&set.cells, &set.neighbours));
            }
            for recipe in &step.recipes {
                logger.derive(recipe);
            }
            logger.dead_end(&[]);
            let contradiction = logger.contradiction.unwrap_or_default();
            out = logger.out;
            contradiction
        }
    };
    out.conclude_unsat(contradiction);
    let proof = String::from_utf8_lossy(&out.finish(true)?).into_owned();
    Ok(HintProof { formula, proof })
}
