//! Adversarial unsatisfiable boards: candidates made from a planted board, ranked by
//! the native search, and the hardest one an independent prover refutes kept (see the
//! module above for why the native search only ranks).

use std::time::Duration;

use crate::time::Instant;

use rand_chacha::ChaCha8Rng;

use super::{Certified, DesignError, DesignOptions, Step, design_rng};
use crate::backend::native::{Native, SearchOptions};
use crate::backend::{Backend, BackendError, Status, ilp, sat};
use crate::driver::{self, Request};
use crate::encode::Encoding;
use crate::model::{Families, Quotas, invert};
use crate::puzzle::Instance;
use crate::puzzle::generate::{below, planted};

/// Moves crossing pieces between cuts of a planted board and rewrites its clues to
/// match. Clue inversion ties the clues to the cut quotas: `r_0 = a_0`,
/// `r_i = a_i - u_{i-1}` and `c_j = (b_j - t_j + 3 t_{j-1}) / 2`, where `a`, `b` count
/// open cells. Moving two crossings at a time keeps every parity, and taking from one
/// cut what another gains keeps `sum u + sum t` (half the open cells), so the totals
/// and the integrality of the new clues hold by construction; inversion then checks
/// the rest. `None` when a cut would go negative.
fn perturb(base: &Instance, quotas: &Quotas, moves: u64, rng: &mut ChaCha8Rng) -> Option<Instance> {
    let (m, n) = (base.rows, base.cols);
    // Cuts that may change: all but the last of each family, which is zero by rule.
    let cuts = (m - 1) + (n - 1);
    if cuts < 2 {
        return None;
    }
    let mut crossing: Vec<i64> = quotas.u[..m - 1]
        .iter()
        .chain(&quotas.t[..n - 1])
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

/// Moves one or two dots between two rows, or between two columns: the totals stay
/// equal, and inversion decides whether the quotas still make sense. `None` when a
/// clue would go negative.
fn move_dots(base: &Instance, rng: &mut ChaCha8Rng) -> Option<Instance> {
    let mut instance = base.clone();
    let moves = 1 + below(rng, 2);
    for _ in 0..moves {
        let clues = if below(rng, 2) == 0 {
            &mut instance.row_clues
        } else {
            &mut instance.col_clues
        };
        let n = clues.len() as u64;
        if n < 2 {
            return None;
        }
        let from = below(rng, n) as usize;
        let to = (from + 1 + below(rng, n - 1) as usize) % clues.len();
        let delta = 1 + below(rng, 2);
        clues[from] = clues[from].checked_sub(delta)?;
        clues[to] += delta;
    }
    Some(instance)
}

/// How hard the native search finds a board: its nodes up to `node_cap`, or `None` when
/// it found a solution (the candidate is satisfiable, and not wanted). The options are
/// fixed, not the default's: those of the default before the matching filter and the
/// LP refutation were scheduled into it, the search this generator was made to
/// challenge, so that a later change of default does not change the boards a seed gives.
fn native_hardness(
    instance: &Instance,
    node_cap: u64,
    deadline: Instant,
) -> Result<Option<u64>, BackendError> {
    let native = Native {
        options: SearchOptions {
            matching: false,
            matching_root: false,
            matching_share: 0,
            matching_after_failures: u64::MAX,
            farkas_after_failures: u64::MAX,
            node_limit: node_cap,
            ..SearchOptions::default()
        },
        ..Native::default()
    };
    let request = Request {
        limit: 1,
        timeout: Some(left(deadline)),
        families: None,
    };
    let report = driver::run(instance, &native, &request)?;
    Ok(match report.status {
        Status::Sat | Status::Unique | Status::Multiple => None,
        Status::Unsat | Status::Unknown => {
            Some(report.header.counters.nodes.unwrap_or(0).min(node_cap))
        }
    })
}

/// An exhaustive refutation by a prover that is not the native search: microlp on the
/// raw clue sums (the dot sums themselves: no clue inversion, no quota families), then
/// varisat on the CNF of the quota families. The name of the prover, or `None` when
/// neither finished within `timeout` (or one found a tiling).
fn refute_independently(
    instance: &Instance,
    deadline: Instant,
) -> Result<Option<String>, BackendError> {
    let provers: [(Box<dyn Backend>, Families); 2] = [
        (Box::new(ilp::Ilp::MICROLP), Families::RawSums),
        (
            Box::new(sat::Sat::varisat(Encoding::Totalizer)),
            Families::AllQuotas,
        ),
    ];
    for (prover, families) in provers {
        if Instant::now() >= deadline {
            break;
        }
        let request = Request {
            limit: 1,
            timeout: Some(left(deadline)),
            families: Some(families),
        };
        // A prover that fails (microlp can meet a singular basis) certifies nothing;
        // the next one may. A wrong tiling is still an error.
        let report = match driver::run(instance, prover.as_ref(), &request) {
            Ok(report) => report,
            Err(e @ BackendError::WrongSolution { .. }) => return Err(e),
            Err(BackendError::Interrupted) => return Err(BackendError::Interrupted),
            Err(_) => continue,
        };
        match report.status {
            Status::Unsat => {
                return Ok(Some(format!(
                    "{} ({})",
                    report.header.backend,
                    families.name()
                )));
            }
            Status::Unknown => continue,
            _ => return Ok(None),
        }
    }
    Ok(None)
}

/// The time left until `deadline` (zero once it passed: a run given none stops at once).
fn left(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}

/// Adds to `ranked` the candidates made from `base` that pass inversion and that the
/// native search does not solve, with its node counts, until the pool is full or
/// `attempts` candidates were tried. `(native nodes, attempt, candidate)`: the attempt
/// breaks ties in a fixed way. `Ok(false)` when the deadline came first: a ranking cut
/// short by the clock would make the board depend on the machine, so it makes none.
fn rank_candidates(
    base: &Instance,
    quotas: &Quotas,
    rng: &mut ChaCha8Rng,
    options: &DesignOptions,
    (attempts, deadline): (u32, Instant),
    ranked: &mut Vec<(u64, u32, Instance)>,
    watch: &mut dyn FnMut(Step),
) -> Result<bool, BackendError> {
    let mut seen = std::collections::HashSet::new();
    for attempt in 0..attempts {
        if crate::interrupt::stopped_here() {
            break;
        }
        if Instant::now() >= deadline {
            return Ok(false);
        }
        watch(Step::Ranking {
            ranked: ranked.len(),
            tried: attempt,
        });
        let candidate = if attempt % 2 == 0 {
            let moves = 1 + below(rng, 3) + u64::from(attempt / 32);
            perturb(base, quotas, moves, rng)
        } else {
            move_dots(base, rng)
        };
        let Some(candidate) = candidate else {
            continue;
        };
        if candidate.row_clues == base.row_clues && candidate.col_clues == base.col_clues {
            continue;
        }
        if !seen.insert((candidate.row_clues.clone(), candidate.col_clues.clone())) {
            continue;
        }
        if invert(&candidate).is_err() {
            continue;
        }
        let Some(nodes) = native_hardness(&candidate, options.node_cap, deadline)? else {
            continue;
        };
        if Instant::now() >= deadline {
            // Its count may be the clock's, not the node cap's.
            return Ok(false);
        }
        ranked.push((nodes, attempt, candidate));
        if ranked.len() as u32 >= options.pool {
            break;
        }
    }
    Ok(true)
}

/// An unsatisfiable board that clue inversion does not refute, as hard as could be found
/// for the default native search and refuted by an independent prover: see the module
/// notes.
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
    unsat_watched(rows, cols, seed, index, options, &mut |_| {})
}

/// [`unsat`], telling `watch` each step as it starts.
///
/// # Errors
/// As [`unsat`].
pub fn unsat_watched(
    rows: usize,
    cols: usize,
    seed: u64,
    index: u64,
    options: &DesignOptions,
    watch: &mut dyn FnMut(Step),
) -> Result<Certified, DesignError> {
    // One limit for the whole board: the ranking and the refutations share it.
    let deadline = Instant::now() + options.timeout;
    let out_of_time = |during| DesignError::OutOfTime {
        rows,
        cols,
        seed,
        index: index + 1,
        during,
        timeout: options.timeout,
    };
    // Some planted boards have no unsatisfiable neighbour that inversion lets through;
    // then the next planted board of a stream of its own is tried.
    let rounds = 4u32;
    let mut ranked: Vec<(u64, u32, Instance)> = Vec::new();
    for round in 0..rounds {
        let stream_seed = if round == 0 {
            seed
        } else {
            seed ^ (0x7573_6174_0000_0000 | u64::from(round))
        };
        let (base, _) = planted(rows, cols, stream_seed, index)?;
        let quotas = invert(&base).map_err(|why| BackendError::Failed {
            backend: "generate".into(),
            message: format!("a planted board failed clue inversion: {why}"),
        })?;
        let mut rng = design_rng(stream_seed, index);
        let ranked_all = rank_candidates(
            &base,
            &quotas,
            &mut rng,
            options,
            (options.attempts / rounds, deadline),
            &mut ranked,
            watch,
        )?;
        if !ranked_all {
            return Err(out_of_time("its candidates were ranked"));
        }
        if !ranked.is_empty() {
            break;
        }
    }
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let of = ranked.len();
    for (k, (nodes, _, mut candidate)) in ranked.into_iter().enumerate() {
        watch(Step::Refuting {
            candidate: k + 1,
            of,
        });
        if Instant::now() >= deadline {
            return Err(out_of_time("its candidates were refuted"));
        }
        if let Some(prover) = refute_independently(&candidate, deadline)? {
            candidate.name = format!("unsat-{rows}x{cols}-s{seed}-{}", index + 1);
            return Ok(Certified {
                instance: candidate,
                status: Status::Unsat,
                nodes,
                solution: None,
                prover,
            });
        }
    }
    Err(DesignError::NotFound {
        what: "unsatisfiable",
        rows,
        cols,
        seed,
        index,
        attempts: options.attempts,
    })
}
