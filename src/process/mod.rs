//! Running other programs: the floor every solver program, worker process, prover and
//! proof checker stands on.
//!
//! A program is started in a process group of its own (registered with [`crate::interrupt`]
//! so that Ctrl-C and the parent's death take it down), under the `--memory` address-space
//! limit ([`crate::memory`]); its output is read on threads of its own, standard output in
//! full up to a cap when it holds the answer, else only its end, like standard error's; at
//! the deadline, or when its answer is no longer wanted, the group gets SIGTERM and, after
//! [`TERM_GRACE`], SIGKILL; it is reaped by `wait4`, which records its CPU time and peak
//! ([`crate::usage`]). Two ways to run one: [`run`] to the end and read what it left
//! (solver programs, provers, checkers), or a [`Conversation`] of lines with it (the
//! worker processes of dominofit itself).
//!
//! This floor knows nothing of descriptors or backends: callers build the
//! [`std::process::Command`] (placeholders are the descriptor's business) and read the
//! answer.

mod capture;
mod conversation;
mod run;

use std::time::Duration;

pub use conversation::{Conversation, Ended, Heard};
pub use run::{Limits, Run, probe, run};

/// How long a program told to stop (SIGTERM to its process group, at the deadline or
/// when its answer is no longer wanted) has to exit before it is killed (SIGKILL): time
/// to remove its files, as runsolver gives. Short, because an answer after the deadline
/// is not taken and a time limit must hold (`--timeout T` ends within T + 10% + 0.5 s);
/// a program's temporary files go to the run's own directory (`TMPDIR`), which is removed
/// whatever the program left.
pub const TERM_GRACE: Duration = Duration::from_millis(300);

/// How often a running program is checked for the deadline, an interrupt and a flood
/// of output.
pub const POLL: Duration = Duration::from_millis(20);

pub use dominofit_core::program::RunError;

/// Why a program did not say its version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// The program is not installed, or not on the `PATH`.
    #[error("not found")]
    NotFound,
    /// The program exists but could not be started: the system's error.
    #[error("{0}")]
    Start(String),
    /// The program did not exit within 5 s of being asked its version.
    #[error("did not answer --version within 5 s")]
    Silent,
}

/// Starts `command` in a group of its own, all three pipes as the command set them.
fn start(command: &mut std::process::Command) -> Result<Started, RunError> {
    let program = crate::escape::terminal(&command.get_program().to_string_lossy());
    crate::interrupt::spawn(command).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => RunError::NotFound { program },
        std::io::ErrorKind::Interrupted => RunError::Interrupted,
        _ => RunError::Start {
            program,
            reason: e.to_string(),
        },
    })
}

type Started = (std::process::Child, crate::interrupt::GroupGuard);

/// The memory-out a failed program's standard error reports, under the `--memory` limit.
fn memout(succeeded: bool, stderr: &str) -> Option<RunError> {
    let limit = crate::memory::limit()?;
    (!succeeded && crate::memory::says_out_of_memory(stderr)).then_some(RunError::Memout {
        limit_mib: limit >> 20,
    })
}
