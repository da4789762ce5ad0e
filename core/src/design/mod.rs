//! Boards made to order: unique puzzles for designers, and adversarial unsatisfiable
//! boards for benchmarks.
//!
//! Both start from a planted board and change it until an exhaustive run certifies the
//! property, so every board this module returns carries a proof, not a hope: `unique`
//! is a native limit-2 search that ended with one solution; `unsat` is a refutation by
//! a prover that is **not** the native search (which is why `unsat` is the library's,
//! `dominofit::design::unsat`: its provers, microlp and varisat, run in worker processes
//! there; what it shares with `unique` is here).
//!
//! Unsatisfiable boards are only interesting when the cheap necessary conditions do
//! not already refute them; clue inversion ([`crate::model::invert`]) checks equal totals, integral
//! non-negative quotas, `t_n = 0`, cut and path capacities and colour splits in
//! linear time, and a board it refutes is no test of a solver. Candidates come from two
//! constructions on a planted board: crossing pieces moved between its cuts with the
//! clues rewritten to match (which keeps totals and integrality), and dots moved between
//! two rows or two columns (which keeps the totals; inversion judges the rest).
//! Candidates inversion refutes are thrown away.
//!
//! A workload chosen by the engine it measures cannot measure it: a generator that
//! kept only what the native search proves quickly made boards the native search finds
//! easy. So the native search only *ranks* the candidates — by the nodes the default
//! search needs, up to a node cap (deterministic, unlike a time limit) — and the
//! hardest one that an independent prover refutes is kept: the 0/1 program of the raw
//! clue sums (no clue inversion, no quota families) under microlp, or failing that
//! varisat on the CNF of the quota families.

use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::backend::Budget;
use crate::backend::native::Native;
use crate::backend::{BackendError, Status};
use crate::driver::{self, Request};
use crate::model::Families;
use crate::puzzle::generate::{GenerateError, Tiling, planted_by, with_holes};
use crate::puzzle::{Instance, Solution};

pub mod explain;
mod grade;
mod level;
pub mod local_holes;
mod shared;

pub use explain::{ExplainError, Walkthrough, explain, hint};
pub use grade::{Grade, GradeError, RungSteps, SEARCH_PENALTY, grade};
pub use level::{LevelError, unique_at_level};
use local_holes::{cycle_holes, local_holes};
pub use shared::{Change, Shared, SharedError, shared};

/// Why no board could be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DesignError {
    /// The planted board could not be made, for example for bad sizes.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// A backend failed while ranking or certifying a board.
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// A uniqueness check reached the time limit: no certificate either way.
    #[error(
        "the uniqueness check of `{name}` did not finish within {timeout:?}; \
         give it a longer --timeout"
    )]
    Undecided {
        /// The board being checked.
        name: String,
        /// The time limit it reached ([`DesignOptions::timeout`]).
        timeout: Duration,
    },
    /// A board's whole time limit ran out before it was made (`generate --unsat`: its
    /// candidates' ranking and refutations share one limit).
    #[error(
        "board {index} of {rows}x{cols} (seed {seed}) was not made within {timeout:?}: the \
         time ran out while {during}; give it a longer --timeout (or a smaller --pool)"
    )]
    OutOfTime {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// The seed asked for.
        seed: u64,
        /// The board's one-based number.
        index: u64,
        /// What it was doing when the time ran out, in words.
        during: &'static str,
        /// The time limit ([`DesignOptions::timeout`]).
        timeout: Duration,
    },
    /// No candidate within the attempts passed clue inversion and was refuted by an
    /// independent prover.
    #[error(
        "no {what} {rows}x{cols} board found in {attempts} attempts (seed {seed}, board {index}); \
         try another seed or a longer --timeout"
    )]
    NotFound {
        /// The kind of board looked for, in words (`unsatisfiable`).
        what: &'static str,
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// The seed asked for.
        seed: u64,
        /// The index of the planted board under `seed`.
        index: u64,
        /// The candidate budget ([`DesignOptions::attempts`]).
        attempts: u32,
    },
}

/// Limits on the work behind one board.
#[derive(Debug, Clone, Copy)]
pub struct DesignOptions {
    /// `unique`: the time limit of each uniqueness check (a board not decided within it
    /// is not made). `unsat`: the time limit of the whole board, its candidates' ranking
    /// and their refutations together (a candidate whose refutation reaches it is
    /// dropped, and when it runs out the board is not made).
    pub timeout: Duration,
    /// Candidates tried before giving up.
    pub attempts: u32,
    /// `unsat`: candidates that pass clue inversion and that the native search does not
    /// solve, ranked before the hardest certified one is kept.
    pub pool: u32,
    /// `unsat`: the native ranking run stops after this many nodes (a candidate that
    /// reaches it ranks as hard as any).
    pub node_cap: u64,
}

impl Default for DesignOptions {
    fn default() -> Self {
        DesignOptions {
            timeout: Duration::from_secs(60),
            attempts: 20_000,
            pool: 16,
            node_cap: 100_000,
        }
    }
}

/// A board with its certificate: the exhaustive run's status and search size.
#[derive(Debug, Clone)]
pub struct Certified {
    /// The board, named after its size, seed and index.
    pub instance: Instance,
    /// `Unique` or `Unsat`: the property the exhaustive run proved.
    pub status: Status,
    /// `unique`: the nodes of the certifying native search; `unsat`: the nodes the
    /// default native search needed (or the node cap, when it did not finish).
    pub nodes: u64,
    /// The unique solution, for `unique` boards.
    pub solution: Option<Solution>,
    /// The backend whose exhaustive run certified the board.
    pub prover: String,
}

/// The certifying run. Its path is fixed rather than the backend's default: `unique`
/// turns into holes pieces of whichever other tiling it finds, so a change of default
/// would otherwise change the boards a seed gives. The families are the colour splits
/// at every size (the small-board path takes what it can, the general engine the rest):
/// with the families `all` alone, a 64×64 candidate with 619 holes had no answer in
/// 60 s where the colour splits find its second tiling in 5 ms.
fn prove(
    instance: &Instance,
    limit: usize,
    timeout: Duration,
) -> Result<driver::Report, BackendError> {
    let request = Request {
        limit,
        timeout: Some(timeout),
        families: Some(Families::ColourSplits),
    };
    driver::run(instance, &Native::default(), &request)
}

/// The random stream of board `index` under `seed` for the design moves; distinct
/// from the planted stream of the same numbers.
pub fn design_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6465_7369_676e_0000);
    rng.set_stream(index);
    rng
}

/// A board with exactly one solution: planted board `index` of `seed` (its tiling by
/// the flip chain), with pieces of its planted tiling turned into holes until no other
/// tiling meets the clues. Each round removes a piece where the planted tiling and
/// another solution differ, so the other solution loses its clues' support; removing
/// every piece ends at the empty board, so the loop always ends. The other solutions
/// inside a window are removed first, without a complete search (`local_holes`);
/// each complete search after them removes one that crosses windows.
///
/// # Errors
/// Bad sizes, a backend failure, or a uniqueness check that reached the time limit.
pub fn unique(
    rows: usize,
    cols: usize,
    seed: u64,
    index: u64,
    options: &DesignOptions,
) -> Result<Certified, DesignError> {
    unique_watched(rows, cols, seed, index, Tiling::Flips, options, &mut |_| {})
}

/// [`unique`] from the planted tiling made by `planting`, telling `watch` each step as
/// it starts: a large board takes a while.
///
/// # Errors
/// As [`unique`].
pub fn unique_watched(
    rows: usize,
    cols: usize,
    seed: u64,
    index: u64,
    planting: Tiling,
    options: &DesignOptions,
    watch: &mut dyn FnMut(Step),
) -> Result<Certified, DesignError> {
    let (mut instance, mut tiling) = planted_by(rows, cols, seed, index, true, planting)?;
    let mut rng = design_rng(seed, index);
    instance.name = format!("unique-{rows}x{cols}-s{seed}-{}", index + 1);
    let undecided = |instance: Instance| DesignError::Undecided {
        name: instance.name,
        timeout: options.timeout,
    };
    // The windows first (`local_holes`), each complete search after them.
    watch(Step::Windows);
    let budget = Budget::with_timeout(Some(options.timeout));
    // The larger windows' searches share the sweep's one time limit.
    let mut decide = |board: &Instance| {
        let left = budget.remaining().unwrap_or(options.timeout);
        let report = prove(board, 2, left).ok()?;
        (report.complete || report.solutions.len() >= 2).then_some(report.solutions)
    };
    let Some(local) = local_holes(&instance, &tiling, &mut rng, &budget, &mut decide) else {
        return Err(undecided(instance));
    };
    let mut holes = local.len();
    (instance, tiling) = with_holes(instance.name.clone(), &instance, &tiling, &local)?;
    let mut check = 0u32;
    loop {
        check = check.saturating_add(1);
        watch(Step::UniqueCheck { check, holes });
        let report = prove(&instance, 2, options.timeout)?;
        match report.status {
            Status::Unique => {
                return Ok(Certified {
                    nodes: report.header.counters.nodes.unwrap_or(0),
                    instance,
                    status: Status::Unique,
                    solution: Some(tiling),
                    prover: report.header.backend,
                });
            }
            Status::Multiple => {
                let Some(other) = report.solutions.iter().find(|s| **s != tiling) else {
                    return Err(BackendError::Failed {
                        backend: report.header.backend,
                        message: "reported two solutions that are the same tiling".into(),
                    }
                    .into());
                };
                let punched = cycle_holes(rows, cols, &tiling, other, &mut rng);
                (instance, tiling) =
                    with_holes(instance.name.clone(), &instance, &tiling, &punched)?;
                holes += punched.len();
            }
            _ => return Err(undecided(instance)),
        }
    }
}

/// Where a long design run has got to, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `unique`: the planted tiling's windows are being made locally unique.
    Windows,
    /// `unique`: uniqueness check number `check`, after `holes` pieces of the planted
    /// tiling were made holes.
    UniqueCheck {
        /// One-based.
        check: u32,
        /// Pieces made holes so far.
        holes: usize,
    },
    /// `unsat`: candidates are being made and ranked by the native search: `ranked` of
    /// the pool so far, after `tried` attempts.
    Ranking {
        /// Candidates in the pool so far.
        ranked: usize,
        /// Attempts so far.
        tried: u32,
    },
    /// `unsat`: the independent refutation of ranked candidate `candidate` of `of`.
    Refuting {
        /// One-based.
        candidate: usize,
        /// Candidates ranked.
        of: usize,
    },
}
