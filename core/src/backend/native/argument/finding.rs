//! What an argument finds: what it decides (placement ids), by which rule, why in
//! words, on which cells, and what a proof of it derives; and what a stall argument is
//! and finds.

use serde::Serialize;

use super::Position;
use super::board::{Board, Clash};
use crate::backend::native::ladder::Rung;
use crate::backend::native::recipe::Recipe;
use crate::puzzle::CellJson;

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

/// What an argument found, in placement ids (a walkthrough's step before it is written
/// out as pieces).
#[derive(Debug, Clone)]
pub struct Deduction {
    /// The rung of the ladder the argument belongs to.
    pub rung: Rung,
    /// The rule.
    pub rule: Rule,
    /// The pieces it places.
    pub place: Vec<u32>,
    /// The pieces it rules out.
    pub rule_out: Vec<u32>,
    /// It shows that what is known has no tiling.
    pub contradiction: bool,
    /// Why, in words.
    pub reason: String,
    /// The cells the reason rests on, one-based.
    pub cells: Vec<CellJson>,
    /// The Hall sets a proof of it derives first.
    pub hall_sets: Vec<HallSet>,
    /// The recipes a proof of it derives after its Hall sets.
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
}

/// A stall argument of the catalogue.
#[derive(Debug, Clone, Copy)]
pub struct StallArgument {
    /// Its name, for messages and tests.
    pub name: &'static str,
    /// Its detection from scratch: the failure on a position, with its recipe and words;
    /// `None` where it passes.
    pub find: fn(&dyn Position) -> Option<StallFailure>,
    /// Whether the search makes it with a propagator of its own (held to `find` in debug
    /// builds) rather than by `find` at every stall.
    pub incremental: bool,
}

/// A stall argument's failure on a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StallFailure {
    /// The argument's name.
    pub argument: &'static str,
    /// Its justification over the model's covers and quotas, for a proof.
    pub recipe: Recipe,
    /// What it found, in words (a clause that continues a sentence).
    pub words: String,
    /// The cells the words rest on, one-based, in row-major order.
    pub cells: Vec<CellJson>,
}
