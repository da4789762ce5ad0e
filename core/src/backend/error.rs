//! Failures of a backend itself, as opposed to answers about the puzzle.

use super::outcome::End;
pub use crate::program::RunError;
use crate::puzzle::verify::Violation;

/// Failures of a backend itself, as opposed to answers about the puzzle.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BackendError {
    /// The backend refuses this model: it cannot read its families or a constraint, or the
    /// board is beyond what it handles (too wide, too many states).
    #[error("backend `{backend}` cannot take this model: {reason}")]
    Unsupported {
        /// The backend that refused.
        backend: String,
        /// Why, in words.
        reason: String,
    },
    /// A tiling the backend reported failed the independent verifier: a bug in the
    /// backend, never an answer about the puzzle.
    #[error("backend `{backend}` returned a tiling that breaks the rules: {violation}")]
    WrongSolution {
        /// The backend that reported it.
        backend: String,
        /// The rule the tiling breaks.
        violation: Violation,
    },
    /// The backend broke down for a reason of its own (a solver error, a worker thread
    /// that died).
    #[error("backend `{backend}` failed: {message}")]
    Failed {
        /// The backend that failed.
        backend: String,
        /// What went wrong, in words.
        message: String,
    },
    /// The model's lowering would not fit in memory; refused before it was built.
    #[error("backend `{backend}` cannot take this board: {reason}")]
    TooLarge {
        /// The backend that refused.
        backend: String,
        /// Why it would not fit, with the estimate.
        reason: String,
    },
    /// An external program could not be run to an answer.
    #[error("backend `{backend}` failed: {source}")]
    Run {
        /// The external backend whose program it was.
        backend: String,
        /// What kept the program from answering.
        #[source]
        source: RunError,
    },
    /// An external program's answer was not taken (a crash, no verdict, a malformed
    /// model).
    #[error("backend `{backend}` failed: {source}")]
    Answer {
        /// The external backend whose program it was.
        backend: String,
        /// Why its answer was not taken.
        #[source]
        source: AnswerError,
    },
    /// The user interrupted the run (Ctrl-C): matched by type, never by message.
    #[error("interrupted")]
    Interrupted,
}

impl BackendError {
    /// How a run that failed so is recorded: a program killed by a signal crashed, one
    /// that ran out of `--memory` is a memout, anything else an error.
    pub fn end(&self) -> End {
        match self {
            BackendError::Answer {
                source: AnswerError::Killed { .. } | AnswerError::ShellSignal { .. },
                ..
            } => End::Crash,
            BackendError::Run {
                source: RunError::Memout { .. },
                ..
            } => End::Memout,
            _ => End::Error,
        }
    }
}

/// Why a program's answer is not taken. Messages quote the end of what it printed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnswerError {
    /// Killed by a signal: whatever it printed may be half-written.
    #[error(
        "was killed by {signal}; an answer from a program that crashed is not trusted; it \
         printed: {printed}"
    )]
    Killed {
        /// The signal's name (e.g. `SIGSEGV`), or `signal N` when it has none.
        signal: String,
        /// The end of what it printed: its standard error, or its output when that is empty.
        printed: String,
    },
    /// A shell wrapper's report of its program's death by a signal (128 + signal).
    #[error(
        "exited with status {code} (a program killed by signal {signal}, by the shell's \
         convention); an answer from a program that crashed is not trusted; it printed: \
         {printed}"
    )]
    ShellSignal {
        /// The exit status, above 128.
        code: i32,
        /// The signal it stands for: `code - 128`.
        signal: i32,
        /// The end of what it printed: its standard error, or its output when that is empty.
        printed: String,
    },
    /// Ended without a verdict.
    #[error("exited with {status} and no verdict; it printed: {printed}")]
    NoVerdict {
        /// The exit status in words (`status N`, or `no status`).
        status: String,
        /// The end of what it printed: its standard error, or its output when that is empty.
        printed: String,
    },
    /// An answer file larger than any answer for the model.
    #[error(
        "wrote an answer file of {size} bytes, more than any answer for this model needs ({max})"
    )]
    TooLarge {
        /// The answer file's size in bytes.
        size: u64,
        /// The most bytes an answer for this model can take.
        max: usize,
    },
    /// A verdict contradicted by the exit status.
    #[error("said {said} but exited with {code}, not the status that goes with it")]
    StatusMismatch {
        /// The verdict printed: `SATISFIABLE` or `UNSATISFIABLE`.
        said: &'static str,
        /// The exit status in words: `status N`, or `no status`.
        code: String,
    },
    /// The answer does not parse.
    #[error("{0}")]
    Unreadable(String),
}
