//! A deduction: what one step of a walkthrough decides, why, and on which cells; as
//! the rules find it (placement ids) and as it is written out (pieces).

use serde::Serialize;

use super::board::{Board, Clash};
use crate::backend::native::ladder::Rung;
use crate::backend::native::recipe::Recipe;
use crate::puzzle::{CellJson, Solution};

/// The rule a step used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// The clues cannot be met at all (clue inversion: totals, parities, capacities).
    Clues,
    /// A cell with one piece left takes it.
    LastPiece,
    /// A cell with no piece left: no tiling.
    NoPiece,
    /// A count the clues fix is reached: the rest of its pieces are out.
    CountReached,
    /// A count needs every piece it has left: they are placed.
    CountNeedsAll,
    /// A count can no longer be met: no tiling.
    CountBroken,
    /// Some cells can be paired only with as many neighbours: the pieces joining those
    /// neighbours to other cells are out.
    Pairing,
    /// Some cells can be paired only with fewer neighbours: no tiling.
    NoPairing,
    /// A piece placed for argument's sake leads to a contradiction: it is out.
    Trial,
}

/// One deduction of a walkthrough.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Step {
    /// The rung of the ladder the rule belongs to: `singles`, `colours`, `pairs`,
    /// `trial`.
    pub rung: String,
    /// The rule.
    pub rule: Rule,
    /// The pieces the step places (the pieces they overlap are out with them).
    pub placed: Solution,
    /// The pieces the step rules out.
    pub ruled_out: Solution,
    /// The step shows that what is known has no tiling.
    pub contradiction: bool,
    /// Why, in words.
    pub reason: String,
    /// The cells the reason rests on, one-based, in row-major order.
    #[schemars(schema_with = "crate::puzzle::one_based_cells")]
    pub cells: Vec<CellJson>,
    /// The counting arguments the step needs beyond unit propagation over the covers and
    /// the quotas: the Hall sets of its pairing arguments (for a trial, of the pairing
    /// arguments on the way to its contradiction). A proof of the step derives these,
    /// then its conclusion by unit propagation (`certify::pb::hint`). Not written out.
    #[serde(skip)]
    #[schemars(skip)]
    pub hall_sets: Vec<HallSet>,
    /// The arguments a proof of the step derives after its Hall sets, as recipes: the
    /// stall check a trial's contradiction rests on (a line's room, a region's colour
    /// balance) when the rules below the trial find none. Not written out.
    #[serde(skip)]
    #[schemars(skip)]
    pub recipes: Vec<Recipe>,
}

/// A set of open cells of one colour and all the cells they can be paired with: as
/// many (the neighbours are all needed by the set) or fewer (the set cannot be covered).
/// Cover indices of the board's model (its open cells in row-major order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HallSet {
    /// The cells of the set.
    pub cells: Vec<u32>,
    /// Their neighbours along the pieces still open.
    pub neighbours: Vec<u32>,
}

/// A step before it is written out: placement ids.
#[derive(Debug, Clone)]
pub(super) struct Deduction {
    pub rung: Rung,
    pub rule: Rule,
    pub place: Vec<u32>,
    pub rule_out: Vec<u32>,
    pub contradiction: bool,
    pub reason: String,
    pub cells: Vec<CellJson>,
    pub hall_sets: Vec<HallSet>,
    pub recipes: Vec<Recipe>,
}

impl Deduction {
    /// A step showing there is no tiling.
    pub fn contradiction(
        rung: Rung,
        rule: Rule,
        reason: String,
        cells: Vec<CellJson>,
    ) -> Deduction {
        Deduction {
            rung,
            rule,
            place: Vec::new(),
            rule_out: Vec::new(),
            contradiction: true,
            reason,
            cells,
            hall_sets: Vec::new(),
            recipes: Vec::new(),
        }
    }

    /// What the step decides, applied to `board`.
    pub fn apply(&self, board: &mut Board) -> Result<(), Clash> {
        for &p in &self.place {
            board.place(p)?;
        }
        for &p in &self.rule_out {
            board.rule_out(p)?;
        }
        Ok(())
    }

    pub fn written(self, board: &Board) -> Step {
        Step {
            rung: self.rung.name().to_string(),
            rule: self.rule,
            placed: board.model.decode(&self.place),
            ruled_out: board.model.decode(&self.rule_out),
            contradiction: self.contradiction,
            reason: self.reason,
            cells: self.cells,
            hall_sets: self.hall_sets,
            recipes: self.recipes,
        }
    }
}
