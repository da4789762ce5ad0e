//! Proofs of unsatisfiability of the rules CNF, from a proof-logging SAT solver.
//!
//! The prover is an external program whose descriptor says how it writes a proof
//! (`proof = ["--no-binary", "{proof}"]` for CaDiCaL and Kissat), or varisat (its own
//! DRAT output), run as a worker process of dominofit so that a deadline kills it; by
//! default the first installed of CaDiCaL and Kissat, else varisat. Either way it is
//! started through [`crate::process`]: process group, deadline with a grace period,
//! `--memory`, Ctrl-C.

use std::path::Path;

use crate::backend::external::{self, Descriptor};
use crate::process::{self, RunError};
use crate::time::Instant;

/// The provers `auto` tries, in order, before varisat.
pub const AUTO: [&str; 2] = ["cadical", "kissat"];

/// Who proves.
#[derive(Debug, Clone)]
pub enum Prover {
    /// The native engine, logging its reasoning as a cutting-planes proof of the rules
    /// as linear equalities ([`super::pb`], checked by VeriPB): the default.
    Native,
    /// varisat: in a worker process when the program registered a worker command
    /// ([`crate::backend::worker::register`]), else in this thread. DRAT.
    Varisat,
    /// An external program with a `proof` field in its descriptor. DRAT.
    External(Descriptor),
}

/// Why a prover cannot be used, or failed.
#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    /// No built-in prover and no descriptor of that name.
    #[error(
        "no prover `{0}`: use native (a VeriPB proof), varisat or auto (DRAT), or an external solver whose descriptor has a `proof` field (cadical, kissat)"
    )]
    Unknown(String),
    /// The descriptor does not say how the program writes a proof.
    #[error("`{0}` cannot write proofs: its descriptor has no `proof` field")]
    NoProofArguments(String),
    /// The program could not run or was interrupted.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The prover failed in some other way.
    #[error("{0}")]
    Failed(String),
}

/// What the prover said about the rules CNF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProverVerdict {
    /// Unsatisfiable, and the proof file holds its DRAT proof.
    Refuted,
    /// Satisfiable, with the variables the model sets true (empty when the prover printed
    /// no model): a claim of no (further) tiling is wrong, if the model is a tiling.
    Satisfiable(Vec<u64>),
    /// No answer: the deadline, or the program's own limits; the reason.
    Unknown(String),
}

impl Prover {
    /// `varisat`, or the external program of that name.
    ///
    /// # Errors
    /// No such program, or its descriptor has no `proof` arguments.
    pub fn named(name: &str) -> Result<Prover, ProveError> {
        if name == "native" {
            return Ok(Prover::Native);
        }
        if name == "varisat" {
            return Ok(Prover::Varisat);
        }
        if name == "auto" {
            return Ok(Prover::auto());
        }
        let mut all = crate::backend::registry::descriptors();
        let descriptor = all
            .found
            .remove(name)
            .ok_or_else(|| ProveError::Unknown(name.to_string()))?;
        if descriptor.proof.is_empty() {
            return Err(ProveError::NoProofArguments(name.to_string()));
        }
        Ok(Prover::External(descriptor))
    }

    /// The first of [`AUTO`] that is installed, else varisat. On the raw rules the
    /// external solvers are far ahead: unsat-32x32-s6604-2 took CaDiCaL 4.5 s and varisat
    /// more than 14 minutes (and a 3.4 GB proof).
    pub fn auto() -> Prover {
        let mut all = crate::backend::registry::descriptors();
        AUTO.iter()
            .filter_map(|name| all.found.remove(*name))
            .find(|d| !d.proof.is_empty() && external::probe(d).is_ok())
            .map_or(Prover::Varisat, Prover::External)
    }

    /// The name it goes by in certificates.
    pub fn name(&self) -> &str {
        match self {
            Prover::Native => "native",
            Prover::Varisat => "varisat",
            Prover::External(d) => &d.name,
        }
    }

    /// Runs the prover on `cnf`, which has `vars` variables, writing a DRAT proof to
    /// `proof`.
    ///
    /// # Errors
    /// The prover could not run, crashed, or was interrupted.
    pub fn prove(
        &self,
        cnf: &Path,
        vars: u32,
        proof: &Path,
        deadline: Option<Instant>,
    ) -> Result<ProverVerdict, ProveError> {
        let (name, command) = match self {
            Prover::Native => {
                return Err(ProveError::Failed(
                    "the native engine proves the board, not a CNF".to_string(),
                ));
            }
            Prover::Varisat => match crate::backend::worker::command() {
                Some(command) => {
                    let mut command = crate::backend::worker::start(command, &[]);
                    command.arg("worker-prove").arg(cnf).arg(proof);
                    ("varisat", command)
                }
                None => return prove_in_process(cnf, proof),
            },
            Prover::External(d) => (
                d.name.as_str(),
                d.proving().command_line(cnf, proof, deadline),
            ),
        };
        // A model line may list every variable.
        let max_stdout = 16 * vars as usize + (1 << 20);
        let limits = process::Limits {
            deadline,
            stop: &|| false,
            max_stdout,
            stdout_is_answer: true,
            scratch: None,
        };
        let run = process::run(command, limits)?;
        if run.timed_out {
            return Ok(ProverVerdict::Unknown("the time limit ran out".to_string()));
        }
        let said = |line: &str| run.stdout.lines().any(|l| l.trim_end() == line);
        // A verdict counts only with the exit status that goes with it: a prover that
        // crashed after printing one may have left its proof half-written.
        let code = run.status.and_then(|s| s.code());
        if said("s UNSATISFIABLE") && code == Some(20) {
            return Ok(ProverVerdict::Refuted);
        }
        if said("s SATISFIABLE") && code == Some(10) {
            return Ok(ProverVerdict::Satisfiable(true_variables(&run.stdout)));
        }
        let tail: String = run.stderr.lines().last().unwrap_or_default().to_string();
        match run.status {
            Some(status) if status.code().is_some() && said("s UNKNOWN") => {
                Ok(ProverVerdict::Unknown(format!("{name} answered UNKNOWN")))
            }
            status => Err(ProveError::Failed(format!(
                "{name} gave no answer ({}){}",
                status.map_or_else(|| "no exit status".to_string(), |s| s.to_string()),
                if tail.is_empty() {
                    String::new()
                } else {
                    format!(": {}", crate::escape::terminal(&tail))
                }
            ))),
        }
    }
}

/// varisat on `cnf` in this thread, writing its DRAT proof to `proof`; what
/// `worker-prove` runs.
///
/// # Errors
/// The files cannot be read or written, or varisat fails.
pub fn prove_in_process(cnf: &Path, proof: &Path) -> Result<ProverVerdict, ProveError> {
    let failed = |what: &str, e: &dyn std::fmt::Display| ProveError::Failed(format!("{what}: {e}"));
    let out =
        std::fs::File::create(proof).map_err(|e| failed("cannot create the proof file", &e))?;
    let input = std::fs::File::open(cnf).map_err(|e| failed("cannot read the formula", &e))?;
    let mut solver = varisat::Solver::new();
    solver.write_proof(std::io::BufWriter::new(out), varisat::ProofFormat::Drat);
    solver
        .add_dimacs_cnf(std::io::BufReader::new(input))
        .map_err(|e| failed("cannot read the formula", &e))?;
    let answer = solver.solve().map_err(|e| failed("varisat failed", &e))?;
    solver
        .close_proof()
        .map_err(|e| failed("cannot write the proof", &e))?;
    Ok(if answer {
        let model = solver.model().unwrap_or_default();
        ProverVerdict::Satisfiable(
            model
                .iter()
                .filter(|l| l.is_positive())
                .map(|l| l.var().index() as u64 + 1)
                .collect(),
        )
    } else {
        ProverVerdict::Refuted
    })
}

/// The variables a SAT solver's `v` lines set true (the competition's model lines);
/// whatever is not a positive number is passed over: the model is checked as a tiling
/// by the caller, and a garbled one fails that check.
pub fn true_variables(stdout: &str) -> Vec<u64> {
    let mut vars: Vec<u64> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(str::split_whitespace)
        .filter_map(|t| t.parse::<u64>().ok())
        .filter(|&v| v > 0)
        .collect();
    vars.sort_unstable();
    vars.dedup();
    vars
}
