//! Grading a puzzle the way a designer needs it: by the weakest rung of the deduction
//! ladder (`backend::native::ladder`) that solves it without search, how many steps
//! of each rung that took, and a score.
//!
//! The uniqueness answer comes from the native search (`--limit 2`), not from the
//! ladder: a board the ladder cannot finish may still be unique (it then needs
//! search), and only a board that is unique can be finished by reasoning. The two are
//! held together: a board the ladder solves must be the search's unique one (the
//! tiling the ladder placed is checked by the verifier).

use std::time::Duration;

use serde::Serialize;

use crate::backend::native::ladder::{Climb, Rung};
use crate::backend::native::{self, Native};
use crate::backend::{BackendError, Budget, Status};
use crate::driver::{self, Request};
use crate::model::{self, Families};
use crate::puzzle::Instance;
use crate::puzzle::verify::verify;

/// A board's grade.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Grade {
    /// The board's name.
    pub name: String,
    /// What the native search found with `--limit 2`: `unique`, `multiple`, `unsat`, or
    /// `unknown` when it ran out of time.
    pub status: Status,
    /// The weakest rung that settles the board without search (`singles`, `colours`,
    /// `pairs`, `trial`), `search` when none does, or `null` for a board with several
    /// tilings (or undecided), which no reasoning can finish.
    pub level: Option<String>,
    /// The level as a number: 1 to 4 for the rungs, 5 for search.
    pub level_number: Option<u32>,
    /// Whether reasoning alone settles the board (its tiling placed, or its lack of one
    /// shown) with the rungs up to `trial`.
    pub reasoning_alone: bool,
    /// How many times each rung decided something, on the climb at the board's level
    /// (at `trial` for a board that needs search: how far reasoning gets).
    pub steps: RungSteps,
    /// The pieces each rung placed on that climb.
    pub placed: RungSteps,
    /// Σ steps × weight of the rung (singles 1, colours 2, pairs 5, trial 20), plus 100
    /// when the board needs search: higher is harder.
    pub score: u64,
    /// Pieces still undecided where reasoning stopped (0 when it settles the board).
    pub open_pieces: u32,
}

/// A number for each rung.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct RungSteps {
    /// Singles: one piece left for a cell, a count reached or needing all.
    pub singles: u32,
    /// Counts split by colour.
    pub colours: u32,
    /// Pairings of the open cells.
    pub pairs: u32,
    /// Trials.
    pub trial: u32,
}

impl RungSteps {
    fn add(&mut self, rung: Rung, n: u32) {
        let slot = match rung {
            Rung::Singles => &mut self.singles,
            Rung::Colours => &mut self.colours,
            Rung::Pairs => &mut self.pairs,
            Rung::Trial => &mut self.trial,
        };
        *slot += n;
    }
}

/// What the score adds for a board that needs search.
pub const SEARCH_PENALTY: u64 = 100;

/// Why a board could not be graded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GradeError {
    /// The uniqueness search failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// The ladder placed a tiling the verifier refuses: a bug, reported, never graded.
    #[error("the deduction ladder placed a tiling of `{name}` that breaks the rules: {why}")]
    WrongTiling {
        /// The board.
        name: String,
        /// The verifier's reason.
        why: String,
    },
    /// The ladder and the search disagree (a bug): reported, never graded.
    #[error(
        "the deduction ladder {} `{name}`, which the search found {status:?}",
        if *solved { "solved" } else { "refuted" }
    )]
    Disagrees {
        /// The board.
        name: String,
        /// The search's answer.
        status: Status,
        /// The ladder solved it (else it refuted it).
        solved: bool,
    },
}

/// Grades `instance`: its uniqueness by the native search, then one climb of the
/// ladder, the two within one `timeout` (a user who says ten seconds means ten seconds
/// for the whole grade). A climb stopped by it (or by Ctrl-C) leaves the board
/// `unknown`, with no level.
///
/// # Errors
/// The search failed, or (a bug) the ladder placed a tiling that breaks the rules.
pub fn grade(instance: &Instance, timeout: Option<Duration>) -> Result<Grade, GradeError> {
    // The search's model and state, then the ladder's two models beside a search.
    driver::plan(instance, &Native::default(), 2)?;
    let budget = Budget::with_timeout(timeout);
    let request = Request {
        limit: 2,
        timeout: budget.remaining(),
        families: None,
    };
    let mut status = driver::run(instance, &Native::default(), &request)?.status;
    let plain = model::compile(instance, Families::AllQuotas);
    let coloured = model::compile(instance, Families::ColourSplits);
    // One climb to the top rung is enough: it always applies the weakest rung that
    // decides anything, so a rung above the hardest one it used is never tried, and the
    // climb to that hardest rung alone takes exactly the same steps; a climb to any
    // weaker rung stalls where it first needed that one. The level is the hardest rung
    // used.
    let last = if plain.infeasible.is_some() {
        // Clue inversion refutes the board: the counts alone.
        Climb {
            contradiction: Some(Rung::Singles),
            ..Climb::default()
        }
    } else {
        native::climb(&plain, &coloured, Rung::Trial, &budget)
    };
    if last.stopped {
        status = Status::Unknown;
    }
    if last.solved {
        let tiling = plain.decode(&last.placed);
        if let Err(why) = verify(instance, &tiling) {
            return Err(GradeError::WrongTiling {
                name: instance.name.clone(),
                why: why.to_string(),
            });
        }
    }
    let contradicted = last.contradiction.is_some();
    let disagrees = (last.solved && matches!(status, Status::Unsat | Status::Multiple))
        || (contradicted && matches!(status, Status::Unique | Status::Multiple | Status::Sat));
    if disagrees {
        return Err(GradeError::Disagrees {
            name: instance.name.clone(),
            status,
            solved: last.solved,
        });
    }
    let settled = !last.stopped && (last.solved || contradicted);
    let decided = matches!(status, Status::Unique | Status::Unsat);
    let (level, level_number) = match (decided, settled) {
        (true, true) => {
            let rung = last.hardest().unwrap_or(Rung::Singles);
            (Some(rung.name().to_string()), Some(rung.level()))
        }
        (true, false) => (Some("search".to_string()), Some(Rung::ALL.len() as u32 + 1)),
        (false, _) => (None, None),
    };
    let mut steps = RungSteps::default();
    let mut placed = RungSteps::default();
    for step in &last.steps {
        steps.add(step.rung, 1);
        placed.add(step.rung, step.placed);
    }
    let mut score: u64 = last.steps.iter().map(|s| s.rung.weight()).sum::<u64>()
        + last.contradiction.map_or(0, Rung::weight);
    if decided && !settled {
        score += SEARCH_PENALTY;
    }
    let open_pieces = if settled {
        0
    } else {
        open_after(&plain, &last)
    };
    Ok(Grade {
        name: instance.name.clone(),
        status,
        level,
        level_number,
        reasoning_alone: decided && settled,
        steps,
        placed,
        score,
        open_pieces,
    })
}

/// Pieces neither placed nor ruled out after `climb`: those of the model less those
/// its steps decided.
fn open_after(model: &model::Model, climb: &Climb) -> u32 {
    let decided: u32 = climb.steps.iter().map(|s| s.placed + s.ruled_out).sum();
    (model.placements.len() as u32).saturating_sub(decided)
}
