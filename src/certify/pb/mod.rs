//! Cutting-planes certificates (VeriPB), logged to files by the native engine as it
//! reasons.
//!
//! The proofs' text is the core's (`dominofit_core::certify::pb`, re-exported here
//! under the same names): the formula of the raw rules as linear equalities
//! ([`formula`]), the derivation of the quotas ([`inversion`]) and the recipes of the
//! counting arguments printed as linear combinations ([`logger`]). What is here runs a
//! search that writes them into a proof file as it goes ([`prove`] for another backend's
//! answer, [`answer`] for the answer's own search), on threads for a portfolio; VeriPB
//! checks the result.

pub mod answer;
#[cfg(test)]
mod catalogue;
mod file;
mod logged;
#[cfg(test)]
mod single;

// The proofs' text is the core's: a page writes a hint's proof with the same code.
pub use dominofit_core::certify::pb::{formula, hint, inversion, logger, writer};

use std::path::Path;

pub use formula::{Ids, rules_opb};
pub use logged::Proved;
pub use logger::Counts;

use super::prove::{ProveError, ProverVerdict};
use crate::backend::native::SearchOptions;
use crate::backend::{Budget, Control, Ending};
use crate::model::{self, Families};
use crate::puzzle::{Instance, Solution};
use crate::time::Instant;
use logged::{Begun, failed};

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
    let (raw, _) = formula::raw_model(instance);
    let ruled_out = blocked
        .map(|tiling| super::rules::tiling_placements(&raw, tiling))
        .transpose()
        .map_err(|e| failed("the tiling to rule out", &e))?;
    drop(raw);
    let model = model::compile(instance, Families::ColourSplits);
    let [only] = members else {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        // Made on the caller's thread, so that every member stops with the call.
        let call = Budget::until(deadline);
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
                    let call = &call;
                    let beside = beside.clone();
                    scope.spawn(move || {
                        let budget = call
                            .clone()
                            .stopped_also_by(stop.clone())
                            .with_beside(beside);
                        let proved = prove_member(
                            instance,
                            model,
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
    let budget = Budget::until(deadline);
    prove_member(
        instance,
        &model,
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
    ruled_out: Option<&[u32]>,
    options: SearchOptions,
    budget: &Budget,
    proof: &Path,
) -> Result<Proved, ProveError> {
    let blocked = ruled_out.is_some();
    let mut logger = match logged::begin_at(instance, model, proof)? {
        Begun::Refuted(out, contradiction) => {
            return logged::conclude(out, Some(contradiction), blocked, Counts::default(), false);
        }
        Begun::Searching(logger) => logger,
    };
    // A tiling other than the one ruled out contradicts the claim: its placements.
    let mut other: Option<Vec<u32>> = None;
    let searched = logged::search(
        &mut logger,
        instance,
        model,
        options,
        0,
        budget,
        &mut |ids| judge(ruled_out, ids, &mut other),
    );
    if let Some(ids) = other {
        return Ok(Proved {
            verdict: ProverVerdict::Satisfiable(
                ids.into_iter().map(|p| u64::from(p) + 1).collect(),
            ),
            bytes: logger.out.bytes(),
            counts: logger.counts,
            small_path: searched.small_path,
        });
    }
    let contradiction = match searched.outcome.ending {
        Ending::Exhausted if logger.contradiction.is_none() => {
            return Err(ProveError::Failed(
                "the search ended without refuting the root (a bug: no certificate)".to_string(),
            ));
        }
        Ending::Exhausted => logger.contradiction,
        _ => None,
    };
    logged::conclude(
        logger.out,
        contradiction,
        blocked,
        logger.counts,
        searched.small_path,
    )
}

/// What a search that logs a proof does with a tiling it reaches (its placements,
/// sorted): the one tiling the formula rules out goes on; any other is kept as
/// `other`, since it contradicts the claim, and ends the search.
fn judge(ruled_out: Option<&[u32]>, ids: &[u32], other: &mut Option<Vec<u32>>) -> Control {
    if ruled_out == Some(ids) {
        Control::Continue
    } else {
        *other = Some(ids.to_vec());
        Control::Stop
    }
}
