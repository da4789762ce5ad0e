//! The ILP backends: the model as a 0/1 program solved in-process through good_lp.
//!
//! The default solver is microlp, pure Rust, so it needs nothing installed; HiGHS and CBC
//! come behind the Cargo features `highs` and `coin-cbc`. good_lp consumes a problem
//! when solving it, so further solutions come from re-solving with a no-good cut per
//! solution found (`Σ_{x∈S} x ≤ |S| − 1`: for two exact covers of the same cells, the only
//! tiling it removes is S itself).
//!
//! The deadline is passed to the solver as its time limit. Only the solver's own
//! infeasibility proof, returned before the deadline, counts as exhaustion; a run that
//! reaches the deadline is `unknown` whatever the solver says, and a solution returned at
//! a limit is used only if it is a 0/1 point meeting every equality.
//!
//! The solvers look at their time limits only between phases: microlp answered a limit
//! of 1 s after 4–9 s on a 1024×1024 board, a limit of 5 s after 14.9 s on a planted
//! 96×96 board on a loaded machine (2.8 s for 2 s on an idle one), CBC after minutes. A
//! phase's length grows with the model, so where a worker command is registered
//! ([`super::worker`]), every model under a time limit but the smallest runs in a worker
//! process, killed at the deadline, and so does every model in a host process (the
//! Python package), where Ctrl-C must stop the call without ending the process. Models
//! of game size stay in-process: the worker costs about 6 ms a call, where microlp
//! answers a game board in 0.7 ms, and one of its phases on such a model takes
//! milliseconds.

use good_lp::{
    Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus, SolverModel, Variable,
    WithTimeLimit, constraint, variable,
};

use crate::backend::{
    Backend, BackendError, Budget, Control, Counters, Ending, Outcome, Sink, SolveResult,
};
use crate::lower::lp::{LinearEquality, equalities};
use crate::model::{Model, PlacementId};
use crate::time::Instant;

/// The in-process ILP solvers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IlpSolver {
    /// microlp, pure Rust: the default, with nothing to install.
    Microlp,
    /// HiGHS, in-process (feature `highs`).
    #[cfg(feature = "highs")]
    Highs,
    /// CBC, in-process (feature `coin-cbc`).
    #[cfg(feature = "coin-cbc")]
    CoinCbc,
}

/// An ILP backend.
#[derive(Debug, Clone, Copy)]
pub struct Ilp {
    /// The solver good_lp hands the program to.
    pub solver: IlpSolver,
}

impl Ilp {
    /// The `microlp` backend, on the default solver.
    pub const MICROLP: Ilp = Ilp {
        solver: IlpSolver::Microlp,
    };
}

/// Models with more placements than this run in a worker process under a time limit
/// (about 32×32 open cells). A limit of 0.05 s ended within 0.03–0.11 s of it in-process
/// from 16×16 to 64×64, so the phases here are far shorter than the 0.5 s a time limit
/// allows beyond 10%; at 96×96 one phase already took 0.8 s on an idle machine.
const IN_PROCESS_MAX_PLACEMENTS: usize = 2_000;

/// Bytes a cell of the board costs the in-process ILP (the program as good_lp holds it,
/// and the solver's own matrices), in this process or its worker: microlp held 1.8 KiB a
/// cell five seconds into a 512×512 board (480 MiB), so a 2048×2048 board is refused
/// within the default budget of at most 8 GiB.
const BYTES_PER_CELL: u64 = 2048;

/// What one solve returned, solver-independent.
enum Answer {
    Tiling(Vec<PlacementId>),
    Infeasible,
    Unknown,
}

impl Backend for Ilp {
    fn name(&self) -> &str {
        match self.solver {
            IlpSolver::Microlp => "microlp",
            #[cfg(feature = "highs")]
            IlpSolver::Highs => "highs",
            #[cfg(feature = "coin-cbc")]
            IlpSolver::CoinCbc => "coin-cbc",
        }
    }

    fn capabilities(&self) -> crate::backend::Capabilities {
        crate::backend::Capabilities::ILP
    }

    fn footprint(&self, rows: usize, cols: usize) -> u64 {
        crate::memory::per_cell(rows, cols, BYTES_PER_CELL)
    }

    fn solve(&self, model: &Model, limit: usize, budget: &Budget, sink: &mut Sink) -> SolveResult {
        let large = model.placements.len() > IN_PROCESS_MAX_PLACEMENTS;
        let killable = crate::interrupt::embedded() || (budget.deadline.is_some() && large);
        if let Some(command) = super::worker::command().filter(|_| killable) {
            // What `equalities` gives the solver, counted without building it.
            let rows = model.covers.len() + model.quotas.len() + model.clue_sums.len();
            let counters = Counters {
                vars: Some(model.placements.len() as u64),
                constraints: Some(rows as u64),
                ..Counters::default()
            };
            let job = super::worker::Job {
                name: self.name(),
                backend: self,
                encoding: crate::encode::Encoding::Totalizer,
                model,
                limit,
            };
            return super::worker::solve(command, job, budget, counters, sink);
        }
        let rows = equalities(model);
        let counters = Counters {
            vars: Some(model.placements.len() as u64),
            constraints: Some(rows.len() as u64),
            ..Counters::default()
        };
        let outcome = |ending| Outcome {
            ending,
            counters: counters.clone(),
        };
        let mut cuts: Vec<Vec<PlacementId>> = Vec::new();
        loop {
            let time_left = match budget.deadline {
                None => None,
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Ok(outcome(Ending::Timeout));
                    }
                    Some(left.as_secs_f64())
                }
            };
            let answer = if model.placements.is_empty() {
                // Nothing to choose: feasible exactly when every row is 0 = 0. Some
                // solvers refuse an empty model, so decide it here.
                if rows.iter().all(|(_, _, rhs)| *rhs == 0) && cuts.is_empty() {
                    Answer::Tiling(Vec::new())
                } else {
                    Answer::Infeasible
                }
            } else {
                let solved = match self.solver {
                    IlpSolver::Microlp => {
                        solve_once(good_lp::microlp, model, &rows, &cuts, time_left)
                    }
                    #[cfg(feature = "highs")]
                    IlpSolver::Highs => solve_once(good_lp::highs, model, &rows, &cuts, time_left),
                    #[cfg(feature = "coin-cbc")]
                    IlpSolver::CoinCbc => {
                        solve_once(good_lp::coin_cbc, model, &rows, &cuts, time_left)
                    }
                };
                match solved {
                    Ok(answer) => answer,
                    // A solver error at the deadline is the deadline (microlp reports a
                    // time limit hit before any solution this way).
                    Err(_) if budget.expired() => Answer::Unknown,
                    Err(e) => {
                        return Err(BackendError::Failed {
                            backend: self.name().to_string(),
                            message: e.to_string(),
                        });
                    }
                }
            };
            match answer {
                Answer::Tiling(chosen) => {
                    if sink(&chosen) == Control::Stop {
                        return Ok(outcome(Ending::Stopped));
                    }
                    cuts.push(chosen);
                }
                Answer::Infeasible if !budget.expired() => return Ok(outcome(Ending::Exhausted)),
                Answer::Infeasible | Answer::Unknown => return Ok(outcome(Ending::Timeout)),
            }
        }
    }
}

/// Builds and solves the program once with `solver`.
fn solve_once<S>(
    solver: S,
    model: &Model,
    rows: &[LinearEquality],
    cuts: &[Vec<PlacementId>],
    time_left: Option<f64>,
) -> Result<Answer, ResolutionError>
where
    S: good_lp::Solver,
    S::Model: SolverModel<Error = ResolutionError> + WithTimeLimit,
{
    let mut vars = ProblemVariables::new();
    let x: Vec<Variable> = (0..model.placements.len())
        .map(|_| vars.add(variable().binary()))
        .collect();
    let mut problem = vars.minimise(Expression::from(0)).using(solver);
    if let Some(seconds) = time_left {
        problem = problem.with_time_limit(seconds);
    }
    for (_, terms, rhs) in rows {
        let lhs: Expression = terms.iter().map(|&(c, p)| c as f64 * x[p as usize]).sum();
        problem = problem.with(constraint!(lhs == *rhs as f64));
    }
    for cut in cuts {
        let lhs: Expression = cut.iter().map(|&p| x[p as usize]).sum();
        problem = problem.with(constraint!(lhs <= cut.len() as f64 - 1.0));
    }
    match problem.solve() {
        Ok(solution) => {
            let values: Vec<f64> = x.iter().map(|&v| solution.value(v)).collect();
            let chosen: Vec<PlacementId> = (0..values.len())
                .filter(|&p| values[p] > 0.5)
                .map(|p| p as PlacementId)
                .collect();
            let optimal = matches!(solution.status(), SolutionStatus::Optimal);
            if optimal || is_integral_point(&values, rows, cuts) {
                Ok(Answer::Tiling(chosen))
            } else {
                Ok(Answer::Unknown)
            }
        }
        Err(ResolutionError::Infeasible) => Ok(Answer::Infeasible),
        Err(e) => Err(e),
    }
}

/// Whether values returned at a limit are a 0/1 point meeting every row and cut.
fn is_integral_point(values: &[f64], rows: &[LinearEquality], cuts: &[Vec<PlacementId>]) -> bool {
    const EPS: f64 = 1e-6;
    if values
        .iter()
        .any(|v| v.abs() > EPS && (v - 1.0).abs() > EPS)
    {
        return false;
    }
    let one = |p: u32| values[p as usize] > 0.5;
    rows.iter().all(|(_, terms, rhs)| {
        terms
            .iter()
            .filter(|&&(_, p)| one(p))
            .map(|&(c, _)| c)
            .sum::<u64>()
            == *rhs
    }) && cuts
        .iter()
        .all(|cut| cut.iter().filter(|&&p| one(p)).count() < cut.len())
}
