//! What can keep an external program from answering, as a type: the library runs the
//! programs (`dominofit::process`), and the backend contract's errors carry this reason.

/// Why an external program could not give an answer.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The program is not installed, or not on the `PATH`.
    #[error(
        "program `{program}` not found; install it (scripts/install-solvers.sh installs the \
         solvers dominofit knows) or fix the command that names it"
    )]
    NotFound {
        /// The program, as given (escaped for the terminal).
        program: String,
    },
    /// The program could not be started: the system's reason.
    #[error("cannot start `{program}`: {reason}")]
    Start {
        /// The program, as given (escaped for the terminal).
        program: String,
        /// Why.
        reason: String,
    },
    /// The program printed more on standard output than any answer needs, and was
    /// killed.
    #[error(
        "printed more than {limit} bytes on standard output, more than any answer for this model \
         needs; it was stopped"
    )]
    Flood {
        /// The bytes of standard output allowed.
        limit: usize,
    },
    /// The program ran out of the `--memory` limit (an allocation failed under the
    /// address-space limit it was given, and it said so).
    #[error("ran out of memory under the limit of {limit_mib} MiB (--memory)")]
    Memout {
        /// The limit, in MiB.
        limit_mib: u64,
    },
    /// The user interrupted the run (Ctrl-C).
    #[error("interrupted")]
    Interrupted,
}
