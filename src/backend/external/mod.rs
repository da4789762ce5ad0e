//! External solvers described by data: one descriptor file per program (in `backends/`,
//! compiled into the binary, plus any directory named by `DOMINOFIT_BACKENDS`), so that
//! adding a solver that reads DIMACS or LP is adding a file, not code.
//!
//! The runner writes the lowered model to a temporary directory (removed when the run
//! ends, with or without an error), runs the program in its own process group, kills the
//! whole group at the deadline, and reads the answer the way the descriptor says. More
//! solutions come from running again with blocking clauses (DIMACS) or no-good cuts
//! (LP) appended. A missing program, a crash, an exit status that is not a verdict or an
//! answer that does not parse is an error naming the backend; the deadline is
//! `unknown`; `unsat` only when the program says so.

mod answer;
mod descriptor;
mod runner;

use std::collections::BTreeMap;
use std::path::PathBuf;

pub use descriptor::{AnswerFormat, Descriptor, DescriptorError, InputFormat};

use crate::backend::{Backend, BackendError, Budget, Control, Counters, Ending, Outcome};
use crate::encode::Encoding;
use crate::lower::{cnf, dimacs, lp};
use crate::model::{Model, PlacementId};
use answer::Verdict;

/// The descriptors shipped in `backends/`, compiled in so the binary works anywhere.
const SHIPPED: &[(&str, &str)] = &[
    (
        "cadical.toml",
        include_str!("../../../backends/cadical.toml"),
    ),
    (
        "minisat.toml",
        include_str!("../../../backends/minisat.toml"),
    ),
    (
        "cryptominisat5.toml",
        include_str!("../../../backends/cryptominisat5.toml"),
    ),
    (
        "picosat.toml",
        include_str!("../../../backends/picosat.toml"),
    ),
    ("kissat.toml", include_str!("../../../backends/kissat.toml")),
    ("cbc.toml", include_str!("../../../backends/cbc.toml")),
    ("glpsol.toml", include_str!("../../../backends/glpsol.toml")),
];

/// The environment variable naming a directory of user descriptors (`*.toml`).
pub const USER_DIR_VAR: &str = "DOMINOFIT_BACKENDS";

/// Every descriptor: the shipped ones, then those of the user directory (which replace
/// shipped ones of the same name), by name.
///
/// # Errors
/// A descriptor that does not parse or validate, or an unreadable user directory.
pub fn descriptors() -> Result<BTreeMap<String, Descriptor>, DescriptorError> {
    let mut all = BTreeMap::new();
    for (file, text) in SHIPPED {
        let d = Descriptor::parse(text, &format!("backends/{file}"))?;
        all.insert(d.name.clone(), d);
    }
    if let Some(dir) = std::env::var_os(USER_DIR_VAR) {
        let dir = PathBuf::from(dir);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|e| DescriptorError::Io {
                path: dir.display().to_string(),
                message: e.to_string(),
            })?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).map_err(|e| DescriptorError::Io {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
            let d = Descriptor::parse(&text, &path.display().to_string())?;
            all.insert(d.name.clone(), d);
        }
    }
    Ok(all)
}

/// An external program as a backend.
#[derive(Debug, Clone)]
pub struct External {
    pub descriptor: Descriptor,
    /// Cardinality encoding for programs that read DIMACS.
    pub encoding: Encoding,
}

impl External {
    fn error(&self, message: impl Into<String>) -> BackendError {
        BackendError::Failed {
            backend: self.descriptor.name.clone(),
            message: message.into(),
        }
    }

    /// The model file for this program, with the tilings found so far excluded.
    fn render(
        &self,
        model: &Model,
        lowered: Option<&cnf::LoweredCnf>,
        blocked: &[Vec<PlacementId>],
    ) -> String {
        match (self.descriptor.reads, lowered) {
            (InputFormat::Dimacs, Some(lowered)) => dimacs::write_blocking(model, lowered, blocked),
            _ => lp::write_cuts(model, blocked),
        }
    }
}

impl Backend for External {
    fn name(&self) -> &str {
        &self.descriptor.name
    }

    fn solve(
        &self,
        model: &Model,
        _limit: usize,
        budget: &Budget,
        sink: &mut dyn FnMut(&[PlacementId]) -> Control,
    ) -> Result<Outcome, BackendError> {
        let lowered =
            match self.descriptor.reads {
                InputFormat::Dimacs => Some(cnf::lower(model, self.encoding).map_err(|e| {
                    BackendError::Unsupported {
                        backend: self.name().to_string(),
                        reason: e.to_string(),
                    }
                })?),
                InputFormat::Lp => None,
            };
        let counters = Counters {
            vars: lowered.as_ref().map(|l| l.vars as u64),
            clauses: lowered.as_ref().map(|l| l.cnf.len() as u64),
            ..Counters::default()
        };
        let outcome = |ending| Outcome {
            ending,
            counters: counters.clone(),
        };
        let dir = tempfile::Builder::new()
            .prefix("dominofit-")
            .tempdir()
            .map_err(|e| self.error(format!("cannot create a temporary directory: {e}")))?;
        let input = dir
            .path()
            .join(format!("model.{}", self.descriptor.reads.extension()));
        let output = dir.path().join("answer.txt");
        let names: BTreeMap<String, PlacementId> = (0..model.placements.len() as PlacementId)
            .map(|id| (lp::variable_name(model, id), id))
            .collect();
        let mut blocked: Vec<Vec<PlacementId>> = Vec::new();
        loop {
            if budget.expired() {
                return Ok(outcome(Ending::Timeout));
            }
            std::fs::write(&input, self.render(model, lowered.as_ref(), &blocked))
                .map_err(|e| self.error(format!("cannot write {}: {e}", input.display())))?;
            let _ = std::fs::remove_file(&output);
            let run = runner::run(&self.descriptor, &input, &output, budget.deadline)
                .map_err(|message| self.error(message))?;
            if run.timed_out {
                return Ok(outcome(Ending::Timeout));
            }
            let verdict = answer::read(
                &self.descriptor,
                &run,
                &output,
                model.placements.len(),
                &names,
            )
            .map_err(|message| self.error(message))?;
            match verdict {
                Verdict::Solution(chosen) => {
                    if sink(&chosen) == Control::Stop {
                        return Ok(outcome(Ending::Stopped));
                    }
                    blocked.push(chosen);
                }
                // A refutation that arrives after the deadline may be a program stopped
                // by its own time limit reporting loosely; count only timely ones.
                Verdict::Unsatisfiable if !budget.expired() => {
                    return Ok(outcome(Ending::Exhausted));
                }
                Verdict::Unsatisfiable | Verdict::Unknown => return Ok(outcome(Ending::Timeout)),
            }
        }
    }
}

pub use runner::interrupt;

/// Whether a program can be run here, and what it says its version is.
pub fn probe(descriptor: &Descriptor) -> Result<String, String> {
    runner::probe(descriptor)
}

/// The file a descriptor came from is not needed after parsing; this only names the
/// user directory for messages.
pub fn user_dir() -> Option<PathBuf> {
    std::env::var_os(USER_DIR_VAR).map(PathBuf::from)
}
