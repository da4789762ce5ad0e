//! Boards made to order: unique puzzles for designers, and adversarial unsatisfiable
//! boards for benchmarks.
//!
//! Both start from a planted board and change it until an exhaustive native run
//! certifies the property, so every board this module returns carries a proof, not a
//! hope: `unique` is a limit-2 search that ended with one solution, `unsat` one that
//! ended with none.
//!
//! Unsatisfiable boards are only interesting when the cheap necessary conditions do
//! not already refute them; clue inversion ([`invert`]) checks equal totals, integral
//! non-negative margins, `t_n = 0`, cut and path capacities and colour splits in
//! linear time, and a board it refutes is no test of a solver. So crossing pieces of a
//! planted board are moved between its cuts and the clues rewritten to match (which
//! keeps totals and integrality), candidates that inversion refutes are thrown away,
//! and among the first few that survive it and are proven unsatisfiable the one that
//! needed the largest search is kept.

use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::backend::native::Native;
use crate::backend::{self, BackendError, Request, Status};
use crate::model::{Families, Margins, invert};
use crate::puzzle::generate::{GenerateError, below, planted, with_clues_of};
use crate::puzzle::{Instance, Piece, Solution};

/// Why no board could be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DesignError {
    #[error(transparent)]
    Generate(#[from] GenerateError),
    #[error(transparent)]
    Backend(#[from] BackendError),
    #[error(
        "the uniqueness check of `{name}` did not finish within {timeout:?}; \
         give it a longer --timeout"
    )]
    Undecided { name: String, timeout: Duration },
    #[error(
        "no {what} {rows}x{cols} board found in {attempts} attempts (seed {seed}, board {index}); \
         try another seed or a longer --timeout"
    )]
    NotFound {
        what: &'static str,
        rows: usize,
        cols: usize,
        seed: u64,
        index: u64,
        attempts: u32,
    },
}

/// Limits on the work behind one board.
#[derive(Debug, Clone, Copy)]
pub struct DesignOptions {
    /// Time limit of each exhaustive proof; a candidate that reaches it is dropped.
    pub timeout: Duration,
    /// Candidates tried before giving up.
    pub attempts: u32,
    /// Unsatisfiable candidates proven before the hardest of them is kept.
    pub pool: u32,
}

impl Default for DesignOptions {
    fn default() -> Self {
        DesignOptions {
            timeout: Duration::from_secs(60),
            attempts: 20_000,
            pool: 4,
        }
    }
}

/// A board with its certificate: the exhaustive run's status and search size.
#[derive(Debug, Clone)]
pub struct Certified {
    pub instance: Instance,
    pub status: Status,
    pub nodes: u64,
    /// The unique solution, for `unique` boards.
    pub solution: Option<Solution>,
}

/// The certifying run. Its families are fixed rather than the backend's default: the
/// hardest-candidate choice reads its node counts, so a change of default would
/// otherwise change the boards a seed gives.
fn prove(
    instance: &Instance,
    limit: usize,
    timeout: Duration,
) -> Result<backend::Report, BackendError> {
    let request = Request {
        limit,
        timeout: Some(timeout),
        families: Some(Families::All),
    };
    backend::run(instance, &Native::default(), &request)
}

/// The random stream of board `index` under `seed` for the design moves; distinct
/// from the planted stream of the same numbers.
fn design_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6465_7369_676e_0000);
    rng.set_stream(index);
    rng
}

/// A board with exactly one solution: planted board `index` of `seed`, with pieces of
/// its planted tiling turned into holes until no other tiling meets the clues. Each
/// round removes a piece where the planted tiling and another solution differ, so the
/// other solution loses its clues' support; removing every piece ends at the empty
/// board, so the loop always ends.
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
    let (mut instance, mut tiling) = planted(rows, cols, seed, index)?;
    let mut rng = design_rng(seed, index);
    instance.name = format!("unique-{rows}x{cols}-s{seed}-{}", index + 1);
    loop {
        let report = prove(&instance, 2, options.timeout)?;
        match report.status {
            Status::Unique => {
                return Ok(Certified {
                    nodes: report.counters.nodes.unwrap_or(0),
                    instance,
                    status: Status::Unique,
                    solution: Some(tiling),
                });
            }
            Status::Multiple => {
                let Some(other) = report.solutions.iter().find(|s| **s != tiling) else {
                    return Err(BackendError::Failed {
                        backend: report.backend,
                        message: "reported two solutions that are the same tiling".into(),
                    }
                    .into());
                };
                let differing: Vec<Piece> =
                    tiling.pieces().filter(|p| !other.contains(p)).collect();
                let hole = differing[below(&mut rng, differing.len() as u64) as usize];
                let mut blocked = instance.blocked.clone();
                let (r2, c2) = hole.other_cell();
                blocked[hole.row * cols + hole.col] = true;
                blocked[r2 * cols + c2] = true;
                tiling = Solution::from_pieces(tiling.pieces().filter(|p| *p != hole));
                instance = with_clues_of(instance.name, rows, cols, blocked, &tiling);
            }
            _ => {
                return Err(DesignError::Undecided {
                    name: instance.name,
                    timeout: options.timeout,
                });
            }
        }
    }
}

/// Moves crossing pieces between cuts of a planted board and rewrites its clues to
/// match. Clue inversion ties the clues to the cut margins: `r_0 = a_0`,
/// `r_i = a_i - u_{i-1}` and `c_j = (b_j - t_j + 3 t_{j-1}) / 2`, where `a`, `b` count
/// open cells. Moving two crossings at a time keeps every parity, and taking from one
/// cut what another gains keeps `sum u + sum t` (half the open cells), so the totals
/// and the integrality of the new clues hold by construction; inversion then checks
/// the rest. `None` when a cut would go negative.
fn perturb(
    base: &Instance,
    margins: &Margins,
    moves: u64,
    rng: &mut ChaCha8Rng,
) -> Option<Instance> {
    let (m, n) = (base.rows, base.cols);
    // Cuts that may change: all but the last of each family, which is zero by rule.
    let cuts = (m - 1) + (n - 1);
    if cuts < 2 {
        return None;
    }
    let mut crossing: Vec<i64> = margins.u[..m - 1]
        .iter()
        .chain(&margins.t[..n - 1])
        .map(|&x| i64::from(x))
        .collect();
    for _ in 0..moves {
        let gain = below(rng, cuts as u64) as usize;
        let lose = (gain + 1 + below(rng, cuts as u64 - 1) as usize) % cuts;
        crossing[gain] += 2;
        crossing[lose] -= 2;
    }
    if crossing.iter().any(|&x| x < 0) {
        return None;
    }
    let (u, t) = crossing.split_at(m - 1);
    let mut instance = base.clone();
    for r in 0..m {
        let open = (0..n).filter(|&c| base.is_open(r, c)).count() as i64;
        let clue = open - if r == 0 { 0 } else { u[r - 1] };
        instance.row_clues[r] = u64::try_from(clue).ok()?;
    }
    for c in 0..n {
        let open = (0..m).filter(|&r| base.is_open(r, c)).count() as i64;
        let right = t.get(c).copied().unwrap_or(0);
        let left = if c == 0 { 0 } else { t[c - 1] };
        let twice = open - right + 3 * left;
        instance.col_clues[c] = u64::try_from(twice / 2).ok().filter(|_| twice >= 0)?;
    }
    Some(instance)
}

/// An unsatisfiable board that clue inversion does not refute: see the module notes.
///
/// # Errors
/// Bad sizes, a backend failure, or no such board within `options.attempts`.
pub fn unsat(
    rows: usize,
    cols: usize,
    seed: u64,
    index: u64,
    options: &DesignOptions,
) -> Result<Certified, DesignError> {
    let (base, _) = planted(rows, cols, seed, index)?;
    let margins = invert(&base).map_err(|why| BackendError::Failed {
        backend: "generate".into(),
        message: format!("a planted board failed clue inversion: {why}"),
    })?;
    let mut rng = design_rng(seed, index);
    let mut best: Option<Certified> = None;
    let mut proven = 0;
    for attempt in 0..options.attempts {
        let moves = 1 + below(&mut rng, 3) + u64::from(attempt / 16);
        let Some(mut candidate) = perturb(&base, &margins, moves, &mut rng) else {
            continue;
        };
        if candidate.row_clues == base.row_clues && candidate.col_clues == base.col_clues {
            continue;
        }
        if invert(&candidate).is_err() {
            continue;
        }
        let report = prove(&candidate, 1, options.timeout)?;
        if report.status != Status::Unsat {
            continue;
        }
        let nodes = report.counters.nodes.unwrap_or(0);
        proven += 1;
        if best.as_ref().is_none_or(|b| nodes > b.nodes) {
            candidate.name = format!("unsat-{rows}x{cols}-s{seed}-{}", index + 1);
            best = Some(Certified {
                instance: candidate,
                status: Status::Unsat,
                nodes,
                solution: None,
            });
        }
        if proven >= options.pool {
            break;
        }
    }
    best.ok_or(DesignError::NotFound {
        what: "unsatisfiable",
        rows,
        cols,
        seed,
        index,
        attempts: options.attempts,
    })
}
