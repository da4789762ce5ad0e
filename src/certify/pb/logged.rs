//! One logged search, from the proof's first line to its last: what a proof run for
//! another backend's answer ([`super::prove`]) and an answer that logs its own proof
//! ([`super::answer`]) share.
//!
//! The proof is begun before anyone knows whether it will prove `unsat` or `unique`:
//! the writer numbers constraints as if the formula ended with a blocked tiling
//! ([`ProofWriter::new`]), and [`conclude`] settles which. A tiling the search reaches
//! and goes on from is a dead end of the proof, whose nogood the blocking constraint
//! confirms; so one search, told nothing in advance, proves either answer.

use std::path::Path;

pub(super) use super::file::ProofFile;
use super::formula::Ids;
use super::inversion::{self, Inverted};
use super::logger::{Counts, Logger};
use super::writer::{Id, ProofWriter};
use crate::backend::native::{self, SearchOptions, small};
use crate::backend::{Budget, Control, Ending, Outcome};
use crate::certify::prove::{ProveError, ProverVerdict};
use crate::model::Model;
use crate::puzzle::Instance;

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

pub(super) fn failed(what: &str, e: &dyn std::fmt::Display) -> ProveError {
    ProveError::Failed(format!("{what}: {e}"))
}

/// A proof begun: the quotas the search propagates derived from the rules, or the
/// rules refuted on the way.
pub(super) enum Begun {
    /// The clues admit no tiling: the contradiction, before any search.
    Refuted(ProofWriter<ProofFile>, Id),
    /// The logger the search tells its reasoning.
    Searching(Logger<ProofFile>),
}

/// Creates `proof` and derives the quotas of `model` in it.
///
/// # Errors
/// The file cannot be created.
pub(super) fn begin_at(
    instance: &Instance,
    model: &Model,
    proof: &Path,
) -> Result<Begun, ProveError> {
    let file = std::fs::File::create(proof).map_err(|e| failed("cannot create the proof", &e))?;
    Ok(begin(instance, model, file))
}

/// Derives the quotas of `model` in the proof file `file`, empty.
pub(super) fn begin(instance: &Instance, model: &Model, file: std::fs::File) -> Begun {
    let ids = Ids::of(instance, model);
    let mut out = ProofWriter::new(ProofFile::new(file), ids.rules());
    match inversion::derive(model, instance, &ids, &mut out) {
        Inverted::Refuted(contradiction) => Begun::Refuted(out, contradiction),
        Inverted::Quotas(quotas) => Begun::Searching(Logger::new(out, ids, quotas)),
    }
}

/// What a logged search did.
pub(super) struct Searched {
    /// How it ended, with its counters.
    pub outcome: Outcome,
    /// Whether the small-board path decided (it logs only dead ends).
    pub small_path: bool,
}

/// Searches `model` with `options` for `limit` tilings (0: all; a bounded search
/// restarts, as the answer's does), telling `logger` why: the small-board path first
/// where the options take it, then (if it gave up) the general search from the same
/// proof, whose nogoods stay true. Each tiling reached goes to `sink` as its placement
/// ids, sorted; one the sink goes on from is a dead end of the proof.
pub(super) fn search(
    logger: &mut Logger<ProofFile>,
    instance: &Instance,
    model: &Model,
    options: SearchOptions,
    limit: usize,
    budget: &Budget,
    sink: &mut dyn FnMut(&[u32]) -> Control,
) -> Searched {
    if options.takes_small_path()
        && let Some(board) = small::Board::compile(instance)
    {
        let board = board.with_failure_cap(options.small_failure_cap);
        let pieces = piece_ids(instance, model);
        let outcome = board.search_with_proof(budget, logger, &pieces, &mut |v, h| {
            let mut ids: Vec<u32> = board
                .decode(v, h)
                .pieces()
                .filter_map(|p| model.placements.binary_search(&p).ok())
                .map(|id| id as u32)
                .collect();
            ids.sort_unstable();
            sink(&ids)
        });
        if outcome.ending != Ending::Capped {
            return Searched {
                outcome,
                small_path: true,
            };
        }
    }
    let outcome = native::search_with_proof(model, options, limit, budget, logger, &mut |ids| {
        let mut ids = ids.to_vec();
        ids.sort_unstable();
        sink(&ids)
    });
    Searched {
        outcome,
        small_path: false,
    }
}

/// Ends a proof the search refuted (`contradiction`) or `Unknown` when it did not;
/// `blocked` says whether the formula ends with a blocked tiling (the search's one
/// tiling, for `unique`).
///
/// # Errors
/// The proof could not be written.
pub(super) fn conclude(
    mut out: ProofWriter<ProofFile>,
    contradiction: Option<Id>,
    blocked: bool,
    counts: Counts,
    small_path: bool,
) -> Result<Proved, ProveError> {
    let verdict = match contradiction {
        Some(contradiction) => {
            out.conclude_unsat(contradiction);
            ProverVerdict::Refuted
        }
        None => ProverVerdict::Unknown("the time limit ran out".to_string()),
    };
    let bytes = out.bytes();
    out.finish(blocked)
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
fn piece_ids(instance: &Instance, model: &Model) -> Vec<u32> {
    let cells = instance.rows * instance.cols;
    let mut ids = vec![u32::MAX; 2 * cells];
    for (id, p) in model.placements.iter().enumerate() {
        let cell = p.row * instance.cols + p.col;
        let slot = 2 * cell + usize::from(p.orientation == crate::puzzle::Orientation::Horizontal);
        ids[slot] = id as u32;
    }
    ids
}
