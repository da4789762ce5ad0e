//! The native backend: the paper's Section 4 search, made incremental.
//!
//! Instead of recomputing bitset intersections at every step, the search keeps counters
//! (active placements per cell, active members and residual quota per group) that every
//! deletion updates in constant time, and a trail to undo them. On game-size boards the
//! whole uniqueness proof is a few hundred counter updates; on large boards the cost
//! per step does not grow with the board.

pub mod argument;
mod farkas;
mod flow;
pub mod footprint;
pub mod ladder;
mod layout;
mod matching;
pub mod proof;
pub mod recipe;
pub mod repair;
pub mod retile;
mod search;
pub mod small;

use crate::backend::{
    Backend, BackendError, Beside, Budget, Capabilities, Counters, Ending, FastPath, Outcome, Sink,
    SolveResult,
};
use crate::model::{Families, Model};
use crate::puzzle::Instance;

#[cfg(any(test, feature = "test-hooks"))]
pub use search::examples;
pub use search::{SearchOptions, WallsDraw};

/// The general search on `model` for `limit` tilings (0: to exhaustion), as
/// [`Backend::solve`] runs it (restarts too, when the limit is bounded), telling `proof`
/// its reasoning: every check the options switch on gives its reasons. A tiling it
/// reaches goes to `sink` and, if the search goes on, is a dead end of the proof.
pub fn search_with_proof(
    model: &Model,
    options: SearchOptions,
    limit: usize,
    budget: &crate::backend::Budget,
    proof: &mut dyn proof::Justify,
    sink: &mut Sink,
) -> crate::backend::Outcome {
    let layout = layout::Layout::new(model, options.transport);
    search::Search::traced(&layout, options, proof::Logged(proof)).run(limit, budget, sink)
}

/// Climbs the deduction ladder up to `top` on a board compiled twice: `plain` without
/// the colour splits (`Families::AllQuotas`) and `coloured` with them
/// (`Families::ColourSplits`), within `budget`.
pub fn climb(plain: &Model, coloured: &Model, top: ladder::Rung, budget: &Budget) -> ladder::Climb {
    search::climb(plain, coloured, top, budget)
}

/// The open pieces the ladder's trial rung rules out from `known` (over `coloured`'s
/// placements: `Some(true)` placed, `Some(false)` ruled out), within `budget`.
pub fn trial_refutes(coloured: &Model, known: &[Option<bool>], budget: &Budget) -> ladder::Trial {
    search::trial_refutes(coloured, known, budget)
}

/// The native search backend.
#[derive(Debug, Clone, Default)]
pub struct Native {
    /// Which optional parts of the search run, and their limits.
    pub options: SearchOptions,
    /// The slot its LP refutation runs in beside the search, unless the caller's budget
    /// brings one (a portfolio's, shared by its members).
    pub beside: Beside,
}

impl Native {
    /// The search with these options, and a slot of its own for its LP refutation.
    pub fn new(options: SearchOptions) -> Native {
        Native {
            options,
            beside: Beside::default(),
        }
    }
}

impl Backend for Native {
    fn name(&self) -> &str {
        if self.options.matching {
            "native-matching"
        } else if !self.options.small_boards {
            "native-general"
        } else {
            "native"
        }
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::SEARCH
    }

    fn footprint(&self, rows: usize, cols: usize) -> u64 {
        footprint::planned_bytes(&self.options, rows, cols)
    }

    /// The colour splits too: they cost about a fifth more at game size (more groups to
    /// compile and maintain) and cut the search by orders of magnitude on large and
    /// adversarial boards, where row-by-row search with the line and cut quotas alone
    /// runs into column parities it cannot see until the last rows (BENCHMARKS.md).
    fn default_families(&self) -> Families {
        Families::ColourSplits
    }

    /// The small-board path, for the default options and families only: the answer is
    /// the same, and an explicit choice of families or options asks for the general
    /// engine.
    fn fast_path(
        &self,
        instance: &Instance,
        families: Option<Families>,
    ) -> Option<Box<dyn FastPath>> {
        let general_asked = families.is_some_and(|f| f != Families::ColourSplits)
            || !self.options.takes_small_path();
        if general_asked {
            return None;
        }
        let board =
            small::Board::compile(instance)?.with_failure_cap(self.options.small_failure_cap);
        Some(Box::new(board))
    }

    fn solve(&self, model: &Model, limit: usize, budget: &Budget, sink: &mut Sink) -> SolveResult {
        if model.families == Families::RawSums {
            // `backend::run` refuses this first; a caller of `solve` may not have.
            return Err(BackendError::Unsupported {
                backend: self.name().to_string(),
                reason: "the native search works on quota families".to_string(),
            });
        }
        // Building the layout and the search's state touches as much memory as the
        // model again: the time limit is looked at after each, as compiling does.
        let out_of_time = || Outcome {
            ending: Ending::Timeout,
            counters: Counters::default(),
        };
        let Some(layout) =
            layout::Layout::until(model, self.options.transport, &|| budget.expired())
        else {
            return Ok(out_of_time());
        };
        let budget = Budget {
            beside: Some(budget.beside.clone().unwrap_or_else(|| self.beside.clone())),
            ..budget.clone()
        };
        let options = SearchOptions {
            cache_words: footprint::cache_words(&self.options),
            ..self.options
        };
        if limit >= 2 && model.covers.len() >= options.repair_min_cells {
            // Large enough for the repair to find the first tiling: the rest may be a
            // window's re-tiling away.
            let mut search = |sink: &mut Sink| {
                let search = search::Search::new(&layout, options).handing_on_repairs();
                search.run(limit, &budget, sink)
            };
            return Ok(retile::with_retilings(
                model,
                limit,
                &budget,
                sink,
                &mut search,
            ));
        }
        let search = search::Search::new(&layout, options);
        if budget.expired() {
            return Ok(out_of_time());
        }
        Ok(search.run(limit, &budget, sink))
    }

    fn settle(&self) {
        self.beside.wait_until_free();
    }
}
