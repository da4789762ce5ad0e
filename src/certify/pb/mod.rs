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
pub mod writer;

use std::path::Path;
use std::time::Instant;

pub use formula::{Ids, rules_opb};
pub use logger::Counts;

use super::prove::{ProveError, Verdict};
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
    pub verdict: Verdict,
    /// Bytes of the proof.
    pub bytes: u64,
    /// Its steps, by kind.
    pub counts: Counts,
    /// Whether the small-board path decided (it logs only dead ends).
    pub small_path: bool,
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
    let failed = |what: &str, e: &dyn std::fmt::Display| ProveError::Failed(format!("{what}: {e}"));
    let (raw, ids) = formula::raw_model(instance, blocked.is_some());
    let ruled_out = blocked
        .map(|tiling| super::rules::tiling_placements(&raw, tiling))
        .transpose()
        .map_err(|e| failed("the tiling to rule out", &e))?;
    drop(raw);
    let file = std::fs::File::create(proof).map_err(|e| failed("cannot create the proof", &e))?;
    let mut out = ProofWriter::new(
        std::io::BufWriter::with_capacity(1 << 16, file),
        ids.loaded(),
    );
    let model = model::compile(instance, Families::Colour);
    let quotas = match inversion::derive(&model, instance, &ids, &mut out) {
        Inverted::Refuted(contradiction) => {
            out.conclude_unsat(contradiction);
            let bytes = out.bytes();
            out.finish()
                .map_err(|e| failed("cannot write the proof", &e))?;
            return Ok(Proved {
                verdict: Verdict::Refuted,
                bytes,
                counts: Counts::default(),
                small_path: false,
            });
        }
        Inverted::Quotas(quotas) => quotas,
    };
    let mut logger = logger::Logger::new(out, ids, &model, quotas);
    let budget = Budget {
        deadline,
        ..Budget::default()
    };
    // A tiling other than the one ruled out contradicts the claim: its placements.
    let mut other: Option<Vec<u32>> = None;
    let mut ending = None;
    let mut small_path = false;
    if options == SearchOptions::default()
        && let Some(board) = small::Board::compile(instance)
    {
        let pieces = piece_ids(instance, &model);
        let outcome = board.search_with_proof(&budget, &mut logger, &pieces, &mut |v, h| {
            let mut ids: Vec<u32> = board
                .decode(v, h)
                .pieces()
                .filter_map(|p| model.placements.binary_search(&p).ok())
                .map(|id| id as u32)
                .collect();
            ids.sort_unstable();
            if ruled_out.as_ref() == Some(&ids) {
                Control::Continue
            } else {
                other = Some(ids);
                Control::Stop
            }
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
                native::search_with_proof(&model, options, &budget, &mut logger, &mut |ids| {
                    let mut ids = ids.to_vec();
                    ids.sort_unstable();
                    if ruled_out.as_ref() == Some(&ids) {
                        Control::Continue
                    } else {
                        other = Some(ids);
                        Control::Stop
                    }
                });
            outcome.ending
        }
    };
    let contradiction = logger.contradiction;
    let counts = logger.counts;
    let mut out = logger.out;
    let verdict = match (other, ending, contradiction) {
        (Some(ids), _, _) => {
            Verdict::Satisfiable(ids.into_iter().map(|p| u64::from(p) + 1).collect())
        }
        (None, Ending::Exhausted, Some(contradiction)) => {
            out.conclude_unsat(contradiction);
            Verdict::Refuted
        }
        (None, Ending::Exhausted, None) => {
            return Err(ProveError::Failed(
                "the search ended without refuting the root (a bug: no certificate)".to_string(),
            ));
        }
        (None, _, _) => Verdict::Unknown("the time limit ran out".to_string()),
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
