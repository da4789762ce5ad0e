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

use std::collections::BTreeMap;
use std::path::PathBuf;

pub use descriptor::{AnswerFormat, Descriptor, DescriptorError, PROOF_SLOT, TIME_LIMIT_SLOT};

use crate::backend::{
    Backend, BackendError, Budget, Control, Counters, Ending, Outcome, Sink, SolveResult,
};
use crate::encode::Encoding;
use crate::lower::{cnf, lp};
use crate::model::{Model, PlacementId};
use crate::process::{self, ProbeError, RunError};
use answer::ProgramAnswer;

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
    (
        "minisat-plus.toml",
        include_str!("../../../backends/minisat-plus.toml"),
    ),
    (
        "minizinc-gecode.toml",
        include_str!("../../../backends/minizinc-gecode.toml"),
    ),
    ("cbc.toml", include_str!("../../../backends/cbc.toml")),
    ("glpsol.toml", include_str!("../../../backends/glpsol.toml")),
    (
        "cbc-mps.toml",
        include_str!("../../../backends/cbc-mps.toml"),
    ),
    (
        "glpsol-mps.toml",
        include_str!("../../../backends/glpsol-mps.toml"),
    ),
];

/// The environment variable naming a directory of user descriptors (`*.toml`).
pub const USER_DIR_VAR: &str = "DOMINOFIT_BACKENDS";

/// The descriptors that could be read, and what was wrong with the others.
#[derive(Debug, Default)]
pub struct Descriptors {
    /// By name: the shipped ones, replaced by user ones of the same name.
    pub found: BTreeMap<String, Descriptor>,
    /// Where each of `found` was read from, as shown to the user.
    pub origins: BTreeMap<String, String>,
    /// User descriptors (or the user directory) that could not be read; one broken file
    /// does not take the others away.
    pub broken: Vec<DescriptorError>,
}

/// Every descriptor file as read: the shipped ones, then those of the user directory
/// (which replace shipped ones of the same name). An empty `DOMINOFIT_BACKENDS` is no
/// directory. The names built-in backends hold are taken out where descriptors join the
/// registry ([`crate::backend::registry::descriptors`]), which is what everyone else reads.
pub fn read_descriptors() -> Descriptors {
    let mut all = Descriptors::default();
    for (file, text) in SHIPPED {
        let shown = format!("backends/{file}");
        match Descriptor::parse(text, &shown) {
            Ok(d) => {
                all.origins.insert(d.name.clone(), shown);
                all.found.insert(d.name.clone(), d);
            }
            Err(e) => all.broken.push(e),
        }
    }
    let Some(dir) = user_dir() else {
        return all;
    };
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) => {
            all.broken.push(DescriptorError::Io {
                path: crate::escape::terminal(&dir.display().to_string()),
                message: e.to_string(),
            });
            return all;
        }
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for path in files {
        let shown = crate::escape::terminal(&path.display().to_string());
        let parsed = std::fs::read_to_string(&path)
            .map_err(|e| DescriptorError::Io {
                path: shown.clone(),
                message: e.to_string(),
            })
            .and_then(|text| Descriptor::parse(&text, &shown));
        match parsed {
            Ok(d) => {
                all.origins.insert(d.name.clone(), shown);
                all.found.insert(d.name.clone(), d);
            }
            Err(e) => all.broken.push(e),
        }
    }
    all
}

/// An external program as a backend.
#[derive(Debug, Clone)]
pub struct External {
    /// The program to run, what it reads and how to read its answer.
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

    /// Writes the model file for this program, with the tilings found so far excluded.
    /// `Ok(false)` when `budget` ran out while writing.
    fn write_model(
        &self,
        path: &std::path::Path,
        model: &Model,
        lowered: Option<&cnf::LoweredCnf>,
        blocked: &[Vec<PlacementId>],
        budget: &Budget,
    ) -> Result<bool, BackendError> {
        use std::io::Write;
        let cannot =
            |e: std::io::Error| self.error(format!("cannot write {}: {e}", path.display()));
        let file = std::fs::File::create(path).map_err(cannot)?;
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        let written = self
            .descriptor
            .reads
            .write(&mut out, model, lowered, blocked, &|| budget.expired())
            .map_err(|e| match e {
                crate::lower::WriteError::Io(e) => e,
                other => std::io::Error::other(other),
            });
        match written.and_then(|()| out.flush()) {
            Ok(()) => Ok(!budget.expired()),
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => Ok(false),
            Err(e) => Err(cannot(e)),
        }
    }
}

/// The most a program may print on standard output (when that is where its answer
/// goes), or write as its answer file: 16 MiB of chatter and room for every variable's
/// line, 256 bytes each (a model line takes under 12; glpsol's report about 115). More
/// is not an answer but a flood, and is stopped before it fills dominofit's memory.
fn answer_limit(vars: u64) -> usize {
    let bytes = (16u64 << 20).saturating_add(vars.saturating_mul(256));
    usize::try_from(bytes).unwrap_or(usize::MAX)
}

impl Backend for External {
    fn name(&self) -> &str {
        &self.descriptor.name
    }

    /// A process, killed when told to stop; a CNF reader takes the chosen encoding.
    fn capabilities(&self) -> crate::backend::Capabilities {
        crate::backend::Capabilities {
            counts_directly: false,
            takes_raw_sums: true,
            takes_encoding: self.descriptor.reads.needs_cnf(),
            interruptible: true,
        }
    }

    fn solve(&self, model: &Model, _limit: usize, budget: &Budget, sink: &mut Sink) -> SolveResult {
        let timeout = |counters: &Counters| -> SolveResult {
            if crate::interrupt::requested() {
                return Err(BackendError::Interrupted);
            }
            Ok(Outcome {
                ending: Ending::Timeout,
                counters: counters.clone(),
            })
        };
        let lowered = if self.descriptor.reads.needs_cnf() {
            match crate::backend::lowering::lower_cnf(self.name(), model, self.encoding, budget)? {
                Some(lowered) => Some(lowered),
                None => return timeout(&Counters::default()),
            }
        } else {
            None
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
        let max_answer = answer_limit(
            lowered
                .as_ref()
                .map_or(model.placements.len() as u64, |l| u64::from(l.vars)),
        );
        // The directory is registered with the interrupt handler, which removes it on
        // Ctrl-C whatever the run is doing (writing the model included).
        let dir = crate::interrupt::TempGuard::directory()
            .map_err(|e| self.error(format!("cannot create a temporary directory: {e}")))?;
        let input = dir
            .path()
            .join(format!("model.{}", self.descriptor.reads.extension()));
        let output = dir.path().join("answer.txt");
        let names = |name: &str| lp::placement_named(model, name);
        let mut blocked: Vec<Vec<PlacementId>> = Vec::new();
        loop {
            if budget.expired() {
                return timeout(&counters);
            }
            if !self.write_model(&input, model, lowered.as_ref(), &blocked, budget)? {
                return timeout(&counters);
            }
            let _ = std::fs::remove_file(&output);
            let limits = process::Limits {
                deadline: budget.deadline,
                stop: &|| budget.expired(),
                max_stdout: max_answer,
                stdout_is_answer: matches!(
                    self.descriptor.answer,
                    AnswerFormat::Competition | AnswerFormat::Pb | AnswerFormat::Minizinc
                ),
                scratch: Some(dir.path()),
            };
            let command = self
                .descriptor
                .command_line(&input, &output, budget.deadline);
            let run = process::run(command, limits).map_err(|e| match e {
                RunError::Interrupted => BackendError::Interrupted,
                source => BackendError::Run {
                    backend: self.descriptor.name.clone(),
                    source,
                },
            })?;
            if run.timed_out {
                return timeout(&counters);
            }
            let verdict = answer::read(
                &self.descriptor,
                &run,
                &output,
                model.placements.len(),
                &names,
                max_answer,
            )
            .map_err(|source| BackendError::Answer {
                backend: self.descriptor.name.clone(),
                source,
            })?;
            match verdict {
                ProgramAnswer::Solution(chosen) => {
                    if sink(&chosen) == Control::Stop {
                        return Ok(outcome(Ending::Stopped));
                    }
                    blocked.push(chosen);
                }
                // A refutation that arrives after the deadline may be a program stopped
                // by its own time limit reporting loosely; count only timely ones.
                ProgramAnswer::Unsatisfiable if !budget.expired() => {
                    return Ok(outcome(Ending::Exhausted));
                }
                // Giving up before the deadline is the program's own limit, not ours.
                ProgramAnswer::Unknown if !budget.expired() => return Ok(outcome(Ending::Capped)),
                ProgramAnswer::Unsatisfiable | ProgramAnswer::Unknown => return timeout(&counters),
            }
        }
    }
}

/// Whether a program can be run here, and what it says its version is.
///
/// # Errors
/// The program is missing, cannot start, or does not answer in time.
pub fn probe(descriptor: &Descriptor) -> Result<String, ProbeError> {
    process::probe(&descriptor.version_command())
}

/// The user directory named by `DOMINOFIT_BACKENDS`, unless it is unset or empty.
pub fn user_dir() -> Option<PathBuf> {
    std::env::var_os(USER_DIR_VAR)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}
