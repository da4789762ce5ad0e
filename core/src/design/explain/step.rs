//! A step of a walkthrough as it is written out: pieces, not placement ids.

use serde::Serialize;

use crate::backend::native::argument::{Board, Deduction, HallSet, Rule};
use crate::backend::native::recipe::Recipe;
use crate::puzzle::{CellJson, Solution};

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

/// `found` as a step, its pieces read off `board`'s model.
pub(super) fn written(found: Deduction, board: &Board) -> Step {
    Step {
        rung: found.rung.name().to_string(),
        rule: found.rule,
        placed: board.model.decode(&found.place),
        ruled_out: board.model.decode(&found.rule_out),
        contradiction: found.contradiction,
        reason: found.reason,
        cells: found.cells,
        hall_sets: found.hall_sets,
        recipes: found.recipes,
    }
}
