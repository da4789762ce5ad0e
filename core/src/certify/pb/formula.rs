//! The raw rules of a board as a pseudo-Boolean formula (OPB): what a cutting-planes
//! proof refutes.
//!
//! Like the CNF of the DRAT route it says only what the game says, with no clue
//! inversion and no colour splits; but as linear equalities, so it needs no encoding:
//! each open cell covered exactly once, each row and column carrying exactly its clue
//! in dots (weight 1 for a vertical piece's top cell, 2 for a horizontal piece's right
//! cell). docs/CERTIFICATES.md fixes it line by line, and a test rebuilds it from that
//! page alone.

use std::fmt::Write as _;

use super::super::rules::RulesError;
use crate::model::{self, Families, Model};
use crate::puzzle::{Instance, Solution};

/// Where the formula's constraints are, by VeriPB's numbering: each equality is two
/// constraints, `≥` then `≤`, numbered from 1 in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ids {
    /// Open cells (cover equalities, row-major).
    pub cells: u64,
    /// Rows of the board.
    pub rows: u64,
    /// Columns of the board.
    pub cols: u64,
}

impl Ids {
    /// Where the rules of `instance` are, by `model` (any of its families: they share
    /// the cover equalities, one per open cell).
    pub fn of(instance: &Instance, model: &Model) -> Ids {
        Ids {
            cells: model.covers.len() as u64,
            rows: instance.rows as u64,
            cols: instance.cols as u64,
        }
    }

    /// `≥ 1` of the cover equality of cell `k` (the model's cover index).
    pub fn cover_at_least(&self, k: u32) -> u64 {
        2 * u64::from(k) + 1
    }

    /// `≤ 1` of the cover equality of cell `k`.
    pub fn cover_at_most(&self, k: u32) -> u64 {
        2 * u64::from(k) + 2
    }

    /// `≥ clue` of row `r` (zero-based).
    pub fn row_at_least(&self, r: usize) -> u64 {
        2 * self.cells + 2 * r as u64 + 1
    }

    /// `≤ clue` of row `r`.
    pub fn row_at_most(&self, r: usize) -> u64 {
        self.row_at_least(r) + 1
    }

    /// `≥ clue` of column `c` (zero-based).
    pub fn col_at_least(&self, c: usize) -> u64 {
        2 * self.cells + 2 * self.rows + 2 * c as u64 + 1
    }

    /// `≤ clue` of column `c`.
    pub fn col_at_most(&self, c: usize) -> u64 {
        self.col_at_least(c) + 1
    }

    /// Constraints the checker loads from the rules, before the one that blocks a
    /// tiling (if the formula has it, it is the next).
    pub fn rules(&self) -> u64 {
        2 * (self.cells + self.rows + self.cols)
    }
}

/// The raw model of the board (placements and covers in the formula's order, and the
/// clue sums), and where its constraints are.
pub fn raw_model(instance: &Instance) -> (Model, Ids) {
    let model = model::compile(instance, Families::RawSums);
    let ids = Ids::of(instance, &model);
    (model, ids)
}

/// The OPB text of the board's rules; with `blocked`, one more constraint, last, that
/// rules that tiling out (a uniqueness certificate refutes the rest).
///
/// # Errors
/// `blocked` is not a set of placements of this board.
pub fn rules_opb(instance: &Instance, blocked: Option<&Solution>) -> Result<String, RulesError> {
    let (model, ids) = raw_model(instance);
    let blocking = blocked
        .map(|tiling| super::super::rules::tiling_placements(&model, tiling))
        .transpose()?;
    let constraints = model.covers.len() + model.clue_sums.len() + usize::from(blocked.is_some());
    debug_assert_eq!(
        ids.rules(),
        2 * (model.covers.len() + model.clue_sums.len()) as u64
    );
    let mut out = String::with_capacity(32 * constraints + 64);
    let _ = writeln!(
        out,
        "* #variable= {} #constraint= {constraints}",
        model.placements.len()
    );
    let term = |out: &mut String, weight: u64, literal: &str, p: u32| {
        let _ = write!(out, "{weight} {literal}x{} ", p + 1);
    };
    for cover in &model.covers {
        for &p in &cover.placements {
            term(&mut out, 1, "", p);
        }
        out.push_str("= 1 ;\n");
    }
    for sum in &model.clue_sums {
        for &(weight, p) in &sum.terms {
            term(&mut out, u64::from(weight), "", p);
        }
        let _ = writeln!(out, "= {} ;", sum.target);
    }
    if let Some(pieces) = blocking {
        for p in pieces {
            term(&mut out, 1, "~", p);
        }
        out.push_str(">= 1 ;\n");
    }
    Ok(out)
}
