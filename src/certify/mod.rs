//! Certificates: answers a third party can check without trusting dominofit.
//!
//! A tiling is its own certificate (the raw-rules verifier checks it). `unsat` and
//! `unique` are claims about all tilings, so their certificate is a formula of the raw
//! game rules — with the one tiling ruled out, for `unique` — and a proof that it has no
//! solution, in one of two proof systems ([`ProofSystem`]): by default a cutting-planes
//! proof of the rules as linear equalities, logged by the native engine as it reasons
//! ([`pb`], checked by VeriPB); or a DRAT proof of the rules as CNF ([`rules`]) from a
//! proof-logging SAT solver ([`prove`], checked by `rate` or `drat-trim`). [`check`]
//! trusts none of it. The bundle is one directory per board:
//!
//! | file | holds |
//! |---|---|
//! | `certificate.json` | what is claimed ([`Manifest`]) |
//! | `instance.json` | the board |
//! | `solutions.jsonl` | the tilings (`sat`: one, `unique`: one, `multiple`: two) |
//! | `rules.opb`, `proof.pbp` | the rules and their VeriPB refutation (`unique`, `unsat`) |
//! | `rules.cnf`, `proof.drat` | or the rules and their DRAT refutation |

mod bundle;
pub mod check;
mod checker;
pub mod pb;
pub mod prove;

pub use dominofit_core::certify::rules;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::backend::Status;
use crate::interrupt::TempGuard;
use crate::puzzle::{Instance, Solution};
use crate::time::Instant;
pub use bundle::{KIND, Manifest, ProofSystem, VERSION, files};
pub use prove::{ProveError, Prover, ProverVerdict};
pub use rules::{RulesError, rules_cnf};

/// Why no certificate was written.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The answer was `unknown`: there is nothing to certify.
    #[error("the answer is unknown; there is nothing to certify")]
    Undecided,
    /// The answer is `unsat` or `unique`, but the prover found a model of the rules:
    /// one of the two is wrong.
    #[error(
        "the answer was {status}, but {prover} found a tiling the answer rules out; one of them \
         is wrong (no certificate written)"
    )]
    Disagreement {
        /// The answer certified.
        status: &'static str,
        /// The prover.
        prover: String,
    },
    /// The prover said the rules have a model, but its model is not a tiling the answer
    /// rules out: the prover is wrong, not the answer.
    #[error(
        "{prover} answered SATISFIABLE, but its model is not a tiling the answer rules out \
         ({reason}); the prover is wrong (no certificate written)"
    )]
    WrongModel {
        /// The prover.
        prover: String,
        /// What is wrong with the model.
        reason: String,
    },
    /// The prover gave no answer.
    #[error("{prover} did not prove the answer: {reason}")]
    NotProved {
        /// The prover.
        prover: String,
        /// Why: the time limit, or what it said.
        reason: String,
    },
    /// The answer has fewer tilings than its status needs.
    #[error("a {status} answer needs {needed} tilings, and it has {found}")]
    MissingTilings {
        /// The answer.
        status: &'static str,
        /// Tilings needed.
        needed: usize,
        /// Tilings there.
        found: usize,
    },
    /// The rules CNF could not be written.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The prover failed.
    #[error(transparent)]
    Prove(#[from] ProveError),
    /// A file of the bundle could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The file, as shown to the user.
        path: String,
        /// The system's error.
        source: std::io::Error,
    },
}

/// A bundle written.
#[derive(Debug, Clone)]
pub struct Written {
    /// Its directory.
    pub dir: PathBuf,
    /// Bytes of the rules (0 without a proof).
    pub rules_bytes: u64,
    /// Bytes of the proof (0 without one).
    pub proof_bytes: u64,
    /// Time to write the rules CNF and prove it.
    pub time: Duration,
    /// Whether the proof is the one the answer's own search logged (no second search).
    pub logged: bool,
}

/// What a certificate is written for: an answer, the backend that gave it, and the
/// proof its own search logged, if it did ([`pb::answer`]).
pub struct Claim<'a> {
    /// The answer.
    pub status: Status,
    /// Its tilings.
    pub solutions: &'a [Solution],
    /// The backend that answered.
    pub backend: &'a str,
    /// The proof logged while answering.
    pub logged: Option<pb::answer::LoggedProof>,
}

/// Whether a model of the rules CNF (its true variables) is a tiling the answer ruled
/// out: a tiling of the board by the raw-rules verifier, other than `blocked`. The
/// placements are the CNF's first variables, in model order (docs/CERTIFICATES.md).
///
/// # Errors
/// What is wrong with the model, in words.
fn ruled_out_tiling(
    instance: &Instance,
    blocked: Option<&Solution>,
    model: &[u64],
) -> Result<(), String> {
    if model.is_empty() {
        return Err("no model was printed".to_string());
    }
    let raw = crate::model::compile(instance, crate::model::Families::RawSums);
    let pieces = model
        .iter()
        .filter(|&&v| v >= 1 && v <= raw.placements.len() as u64)
        .map(|&v| raw.placements[v as usize - 1]);
    let tiling = Solution::from_pieces(pieces);
    crate::puzzle::verify::verify(instance, &tiling).map_err(|v| v.to_string())?;
    if blocked == Some(&tiling) {
        return Err("it is the tiling the rules block".to_string());
    }
    Ok(())
}

/// Writes the certificate of `status` for `instance` into `out/<name>` (the name made
/// safe for a file, [`crate::escape::file_stem`]), replacing an earlier bundle there.
/// The bundle is built in a hidden directory beside it and renamed into place, so it
/// is whole or absent, also after Ctrl-C.
///
/// # Errors
/// See [`CertifyError`]; nothing is left behind.
pub fn write_certificate(
    instance: &Instance,
    claim: Claim,
    prover: &Prover,
    deadline: Option<Instant>,
    out: &Path,
) -> Result<Written, CertifyError> {
    let Claim {
        status,
        solutions,
        backend,
        logged,
    } = claim;
    let needed = match status {
        Status::Unknown => return Err(CertifyError::Undecided),
        Status::Unsat => 0,
        Status::Sat | Status::Unique => 1,
        Status::Multiple => 2,
    };
    if solutions.len() < needed {
        return Err(CertifyError::MissingTilings {
            status: status.name(),
            needed,
            found: solutions.len(),
        });
    }
    let io = |path: &Path| {
        let shown = crate::escape::terminal(&path.display().to_string());
        move |source| CertifyError::Io {
            path: shown,
            source,
        }
    };
    std::fs::create_dir_all(out).map_err(io(out))?;
    let (_, staging) = TempGuard::create(|| {
        let dir = tempfile::Builder::new()
            .prefix(".partial-")
            .tempdir_in(out)?;
        Ok(((), dir.keep()))
    })
    .map_err(io(out))?;
    let at = |file: &str| staging.path().join(file);
    let write = |file: &str, bytes: &[u8]| std::fs::write(at(file), bytes).map_err(io(&at(file)));

    let started = Instant::now();
    let mut written = Written {
        dir: out.join(crate::escape::file_stem(&instance.name)),
        rules_bytes: 0,
        proof_bytes: 0,
        time: Duration::ZERO,
        logged: false,
    };
    write(
        files::INSTANCE,
        format!("{}\n", instance.to_json()).as_bytes(),
    )?;
    if needed > 0 {
        let mut lines = String::new();
        for tiling in &solutions[..needed] {
            lines.push_str(&serde_json::to_string(tiling).unwrap_or_default());
            lines.push('\n');
        }
        write(files::SOLUTIONS, lines.as_bytes())?;
    }
    let proved = matches!(status, Status::Unsat | Status::Unique);
    let system = prover.proof_system();
    if proved {
        let blocked = (status == Status::Unique).then(|| &solutions[0]);
        let rules = system.rules(instance, blocked)?;
        write(system.rules_file(), rules.as_bytes())?;
        written.rules_bytes = rules.len() as u64;
        let verdict = match system {
            ProofSystem::Veripb if let Some(logged) = logged => {
                drop(rules);
                let verdict = logged.proved.verdict.clone();
                logged
                    .move_to(&at(system.proof_file()))
                    .map_err(io(&at(system.proof_file())))?;
                written.logged = true;
                verdict
            }
            ProofSystem::Veripb => {
                drop(rules);
                // The answering backend's own native search (a portfolio's native
                // members, racing; the default search for any other backend).
                let members = crate::backend::registry::proof_searches(
                    backend,
                    &crate::backend::BackendOptions::default(),
                );
                pb::prove_by_any(
                    instance,
                    blocked,
                    &members,
                    deadline,
                    &at(system.proof_file()),
                )?
                .verdict
            }
            ProofSystem::Drat => {
                let vars = rules
                    .split_whitespace()
                    .nth(2)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0);
                drop(rules);
                prover.prove(
                    &at(system.rules_file()),
                    vars,
                    &at(system.proof_file()),
                    deadline,
                )?
            }
        };
        match verdict {
            ProverVerdict::Refuted => {}
            ProverVerdict::Satisfiable(model) => {
                let blocked = (status == Status::Unique).then(|| &solutions[0]);
                return Err(match ruled_out_tiling(instance, blocked, &model) {
                    Ok(()) => CertifyError::Disagreement {
                        status: status.name(),
                        prover: prover.name().to_string(),
                    },
                    Err(reason) => CertifyError::WrongModel {
                        prover: prover.name().to_string(),
                        reason,
                    },
                });
            }
            ProverVerdict::Unknown(reason) => {
                return Err(CertifyError::NotProved {
                    prover: prover.name().to_string(),
                    reason,
                });
            }
        }
        written.proof_bytes = std::fs::metadata(at(system.proof_file()))
            .map_err(io(&at(system.proof_file())))?
            .len();
    }
    written.time = started.elapsed();
    let manifest = Manifest {
        certificate: KIND.to_string(),
        version: VERSION,
        name: instance.name.clone(),
        status: status.name().to_string(),
        backend: backend.to_string(),
        prover: proved.then(|| prover.name().to_string()),
        proof_system: proved.then(|| system.name().to_string()),
    };
    let text = serde_json::to_string_pretty(&manifest).unwrap_or_default() + "\n";
    write(files::MANIFEST, text.as_bytes())?;
    // An earlier bundle of the same board gives way; anything else in the way stays,
    // and the rename fails naming it.
    if written.dir.join(files::MANIFEST).is_file() {
        std::fs::remove_dir_all(&written.dir).map_err(io(&written.dir))?;
    }
    std::fs::rename(staging.path(), &written.dir).map_err(io(&written.dir))?;
    staging.keep();
    Ok(written)
}
