//! Cutting-planes certificates, logged by the native engine as it reasons (VeriPB).
//!
//! The DRAT route re-solves the raw-rules CNF with a CDCL solver, whose resolution
//! proofs of counting arguments blow up: boards the engine decides in under a second
//! took CaDiCaL over a minute. Here the engine's own reasoning is the proof. The formula
//! is the raw rules as linear equalities ([`formula`]); the proof derives the quotas the
//! search propagates ([`inversion`]), then replays the search: every dead end a nogood
//! that reverse unit propagation confirms, every counting argument (colour balance,
//! Hall sets of the matching filter, line capacity, the LP's Farkas multipliers) one
//! linear combination ([`logger`]). VeriPB checks it.

pub mod formula;
pub mod inversion;
pub mod logger;
mod room;
pub mod writer;

use std::path::Path;
use std::time::Instant;

pub use formula::{Ids, rules_opb};
pub use logger::Counts;

use super::prove::{ProveError, ProverVerdict};
use crate::backend::native::{self, SearchOptions, small};
use crate::backend::{Budget, Control, Ending};
use crate::model::{self, Families};
use crate::puzzle::{Instance, Solution};
use inversion::Inverted;
use writer::ProofWriter;

/// What a proof run wrote.
#[derive(Debug, Clone)]
pub struct Proved {
    /// Refuted (the proof is whole), satisfiable (a tiling the claim rules out), or
    /// unknown (the time limit).
    pub verdict: ProverVerdict,
    /// Bytes of the proof.
    pub bytes: u64,
    /// Its steps, by kind.
    pub counts: Counts,
    /// Whether the small-board path decided (it logs only dead ends).
    pub small_path: bool,
}

fn failed(what: &str, e: &dyn std::fmt::Display) -> ProveError {
    ProveError::Failed(format!("{what}: {e}"))
}

/// Proves that `instance` has no tiling but `blocked` (none at all without it): writes
/// the VeriPB proof of its rules ([`rules_opb`] with `blocked`) to `proof`, by the
/// native search with `options`, until `deadline`.
///
/// # Errors
/// The proof file cannot be written.
pub fn prove(
    instance: &Instance,
    blocked: Option<&Solution>,
    options: SearchOptions,
    deadline: Option<Instant>,
    proof: &Path,
) -> Result<Proved, ProveError> {
    prove_by_any(instance, blocked, &[options], deadline, proof)
}

/// [`prove`] by a portfolio: each of `members` searches (and logs) on a thread of its
/// own, into a file of its own beside `proof`; the first to decide stops the others,
/// and its proof becomes `proof`.
///
/// # Errors
/// No member could write its proof.
pub fn prove_by_any(
    instance: &Instance,
    blocked: Option<&Solution>,
    members: &[SearchOptions],
    deadline: Option<Instant>,
    proof: &Path,
) -> Result<Proved, ProveError> {
    let (raw, ids) = formula::raw_model(instance, blocked.is_some());
    let ruled_out = blocked
        .map(|tiling| super::rules::tiling_placements(&raw, tiling))
        .transpose()
        .map_err(|e| failed("the tiling to rule out", &e))?;
    drop(raw);
    let model = model::compile(instance, Families::ColourSplits);
    let [only] = members else {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        // One LP beside the searches, as in a portfolio: they would solve the same one.
        let beside = crate::backend::Beside::default();
        let paths: Vec<std::path::PathBuf> = (0..members.len())
            .map(|k| proof.with_extension(format!("member-{k}")))
            .collect();
        let results: Vec<Result<Proved, ProveError>> = std::thread::scope(|scope| {
            let runs: Vec<_> = members
                .iter()
                .zip(&paths)
                .map(|(&options, path)| {
                    let (stop, model, ruled_out) = (stop.clone(), &model, &ruled_out);
                    let beside = beside.clone();
                    scope.spawn(move || {
                        let budget = Budget {
                            deadline,
                            stop: Some(stop.clone()),
                            beside: Some(beside),
                            ..Budget::default()
                        };
                        let proved = prove_member(
                            instance,
                            model,
                            ids,
                            ruled_out.as_deref(),
                            options,
                            &budget,
                            path,
                        );
                        if proved
                            .as_ref()
                            .is_ok_and(|p| !matches!(p.verdict, ProverVerdict::Unknown(_)))
                        {
                            stop.store(true, std::sync::atomic::Ordering::SeqCst);
                        }
                        proved
                    })
                })
                .collect();
            runs.into_iter()
                .map(|run| {
                    run.join()
                        .unwrap_or_else(|_| Err(ProveError::Failed("a member panicked".into())))
                })
                .collect()
        });
        // The first member that decided, in member order; else the first answer.
        let winner = results
            .iter()
            .position(|r| matches!(r, Ok(p) if !matches!(p.verdict, ProverVerdict::Unknown(_))))
            .or_else(|| results.iter().position(Result::is_ok));
        let mut kept = None;
        for (k, (result, path)) in results.into_iter().zip(&paths).enumerate() {
            if Some(k) == winner {
                std::fs::rename(path, proof).map_err(|e| failed("cannot keep the proof", &e))?;
                kept = Some(result);
            } else {
                let _ = std::fs::remove_file(path);
                if kept.is_none() && winner.is_none() {
                    kept = Some(result);
                }
            }
        }
        return kept.unwrap_or_else(|| Err(ProveError::Failed("no member ran".into())));
    };
    let budget = Budget {
        deadline,
        ..Budget::default()
    };
    prove_member(
        instance,
        &model,
        ids,
        ruled_out.as_deref(),
        *only,
        &budget,
        proof,
    )
}

/// One search's proof into `proof`: the quotas derived, then the search logged.
fn prove_member(
    instance: &Instance,
    model: &model::Model,
    ids: Ids,
    ruled_out: Option<&[u32]>,
    options: SearchOptions,
    budget: &Budget,
    proof: &Path,
) -> Result<Proved, ProveError> {
    let file = std::fs::File::create(proof).map_err(|e| failed("cannot create the proof", &e))?;
    let mut out = ProofWriter::new(
        std::io::BufWriter::with_capacity(1 << 16, file),
        ids.loaded(),
    );
    let quotas = match inversion::derive(model, instance, &ids, &mut out) {
        Inverted::Refuted(contradiction) => {
            out.conclude_unsat(contradiction);
            let bytes = out.bytes();
            out.finish()
                .map_err(|e| failed("cannot write the proof", &e))?;
            return Ok(Proved {
                verdict: ProverVerdict::Refuted,
                bytes,
                counts: Counts::default(),
                small_path: false,
            });
        }
        Inverted::Quotas(quotas) => quotas,
    };
    let mut logger = logger::Logger::new(out, ids, model, quotas);
    // A tiling other than the one ruled out contradicts the claim: its placements.
    let mut other: Option<Vec<u32>> = None;
    let mut ending = None;
    let mut small_path = false;
    if options.takes_small_path()
        && let Some(board) = small::Board::compile(instance)
    {
        let board = board.with_failure_cap(options.small_failure_cap);
        let pieces = piece_ids(instance, model);
        let outcome = board.search_with_proof(budget, &mut logger, &pieces, &mut |v, h| {
            let ids: Vec<u32> = board
                .decode(v, h)
                .pieces()
                .filter_map(|p| model.placements.binary_search(&p).ok())
                .map(|id| id as u32)
                .collect();
            judge(ruled_out, ids, &mut other)
        });
        // The path gives up on boards it finds hard: the general search goes on from
        // the same proof (its nogoods stay true).
        if outcome.ending != Ending::Capped {
            ending = Some(outcome.ending);
            small_path = true;
        }
    }
    let ending = match ending {
        Some(ending) => ending,
        None => {
            let outcome =
                native::search_with_proof(model, options, budget, &mut logger, &mut |ids| {
                    judge(ruled_out, ids.to_vec(), &mut other)
                });
            outcome.ending
        }
    };
    let contradiction = logger.contradiction;
    let counts = logger.counts;
    let mut out = logger.out;
    let verdict = match (other, ending, contradiction) {
        (Some(ids), _, _) => {
            ProverVerdict::Satisfiable(ids.into_iter().map(|p| u64::from(p) + 1).collect())
        }
        (None, Ending::Exhausted, Some(contradiction)) => {
            out.conclude_unsat(contradiction);
            ProverVerdict::Refuted
        }
        (None, Ending::Exhausted, None) => {
            return Err(ProveError::Failed(
                "the search ended without refuting the root (a bug: no certificate)".to_string(),
            ));
        }
        (None, _, _) => ProverVerdict::Unknown("the time limit ran out".to_string()),
    };
    let bytes = out.bytes();
    out.finish()
        .map_err(|e| failed("cannot write the proof", &e))?;
    Ok(Proved {
        verdict,
        bytes,
        counts,
        small_path,
    })
}

/// The placement id of every piece by start cell, as the small-board path names them:
/// `2·cell` for the vertical piece with its top on the cell, `2·cell + 1` for the
/// horizontal one with its left cell there (`u32::MAX` where there is none).
fn piece_ids(instance: &Instance, model: &model::Model) -> Vec<u32> {
    let cells = instance.rows * instance.cols;
    let mut ids = vec![u32::MAX; 2 * cells];
    for (id, p) in model.placements.iter().enumerate() {
        let cell = p.row * instance.cols + p.col;
        let slot = 2 * cell + usize::from(p.orientation == crate::puzzle::Orientation::Horizontal);
        ids[slot] = id as u32;
    }
    ids
}

/// What a search that logs a proof does with a tiling it reaches: the one tiling the
/// formula rules out goes on; any other is kept as `other`, since it contradicts the
/// claim, and ends the search.
fn judge(ruled_out: Option<&[u32]>, mut ids: Vec<u32>, other: &mut Option<Vec<u32>>) -> Control {
    ids.sort_unstable();
    if ruled_out == Some(ids.as_slice()) {
        Control::Continue
    } else {
        *other = Some(ids);
        Control::Stop
    }
}
