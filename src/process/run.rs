//! A program run to its end: started, watched until it exits, the deadline passes, its
//! answer is no longer wanted or the user interrupts, then read.

use std::process::{Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use wait_timeout::ChildExt;

use super::capture::{Captured, Keep, TAIL};
use super::{POLL, ProbeError, RunError, TERM_GRACE};

use crate::time::Instant;

/// How a program is run, besides its command line.
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    /// When it is stopped: SIGTERM, then SIGKILL after [`TERM_GRACE`].
    pub deadline: Option<Instant>,
    /// Asked while it runs: true stops it as the deadline does (its answer is no longer
    /// wanted).
    pub stop: &'a dyn Fn() -> bool,
    /// The most bytes of standard output kept (all of them when they are the answer).
    pub max_stdout: usize,
    /// Whether standard output holds the answer: past `max_stdout` it is a flood and the
    /// program is stopped; otherwise only its end is kept, like standard error's.
    pub stdout_is_answer: bool,
    /// The program's `TMPDIR`: a directory removed after the run, so that what a killed
    /// program leaves goes with it. `None`: the caller's.
    pub scratch: Option<&'a std::path::Path>,
}

/// What a run left behind.
pub struct Run {
    /// How the program exited; `None` when it was stopped (deadline, or not wanted).
    pub status: Option<ExitStatus>,
    /// Its standard output (all of it when that holds the answer, else its end).
    pub stdout: String,
    /// The end of its standard error.
    pub stderr: String,
    /// The program was stopped before it exited by itself.
    pub timed_out: bool,
}

/// Runs `command` (standard input closed); kills its whole process group at the
/// deadline, on an interrupt, when `stop` says so, or when it floods standard output
/// where that holds its answer (see [`Limits`]).
///
/// # Errors
/// The program cannot be started, floods its output, runs out of `--memory`, or the
/// user interrupted.
pub fn run(mut command: Command, limits: Limits) -> Result<Run, RunError> {
    let Limits {
        deadline,
        stop,
        max_stdout,
        stdout_is_answer,
        scratch,
    } = limits;
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(scratch) = scratch {
        command.env("TMPDIR", scratch);
    }
    let (mut child, group) = super::start(&mut command)?;
    let flood = Arc::new(AtomicBool::new(false));
    let keep = if stdout_is_answer {
        Keep::All(max_stdout)
    } else {
        Keep::Tail(TAIL)
    };
    let stdout = Captured::start(child.stdout.take(), keep, flood.clone());
    let stderr = Captured::start(child.stderr.take(), Keep::Tail(TAIL), flood.clone());
    // The program is reaped by `wait4` on a thread of its own, which has what it used
    // and wakes this one as soon as it ends.
    let pid = child.id() as i32;
    let (exit_tx, exit_rx) = mpsc::channel();
    let waiter = std::thread::Builder::new()
        .name("wait4".to_string())
        .spawn(move || {
            let _ = exit_tx.send(crate::usage::wait_child(pid));
        });
    if let Err(e) = waiter {
        let _ = killpg(group.pid(), Signal::SIGKILL);
        let _ = child.wait();
        return Err(RunError::Start {
            program: crate::escape::terminal(&command.get_program().to_string_lossy()),
            reason: format!("cannot start a thread to wait for it: {e}"),
        });
    }
    let ended = |timeout: Duration| match exit_rx.recv_timeout(timeout) {
        Ok(reaped) => Some(reaped),
        Err(mpsc::RecvTimeoutError::Timeout) => None,
        Err(mpsc::RecvTimeoutError::Disconnected) => Some(None),
    };
    let (reaped, timed_out) = loop {
        let slice = match deadline {
            Some(d) => d.saturating_duration_since(Instant::now()).min(POLL),
            None => POLL,
        };
        if let Some(reaped) = ended(slice.max(Duration::from_millis(1))) {
            break (reaped, false);
        }
        if crate::interrupt::requested() || flood.load(Ordering::SeqCst) {
            let _ = killpg(group.pid(), Signal::SIGKILL);
            break (ended(Duration::MAX).flatten(), true);
        }
        if stop() || deadline.is_some_and(|d| Instant::now() >= d) {
            // Asked first; killed after the grace period.
            let _ = killpg(group.pid(), Signal::SIGTERM);
            let reaped = match ended(TERM_GRACE) {
                Some(reaped) => reaped,
                None => {
                    let _ = killpg(group.pid(), Signal::SIGKILL);
                    ended(Duration::MAX).flatten()
                }
            };
            break (reaped, true);
        }
    };
    // Whatever the program left running in its group, and whatever escaped it, goes now:
    // it could hold the pipes open, or live on after dominofit.
    drop(group);
    if crate::interrupt::requested() {
        return Err(RunError::Interrupted);
    }
    if flood.load(Ordering::SeqCst) {
        return Err(RunError::Flood { limit: max_stdout });
    }
    let stdout = stdout.take();
    let stderr = stderr.take();
    if flood.load(Ordering::SeqCst) {
        return Err(RunError::Flood { limit: max_stdout });
    }
    // What it used went to `usage`'s record of peaks when it was reaped.
    let status = reaped.map(|(status, _)| status);
    if !timed_out
        && let Some(status) = status
        && let Some(memout) = super::memout(status.success(), &stderr)
    {
        return Err(memout);
    }
    Ok(Run {
        status: if timed_out { None } else { status },
        stdout,
        stderr,
        timed_out,
    })
}

/// Runs a version command with a short time limit and returns the first line that says
/// something (on standard output, else standard error).
///
/// # Errors
/// The program cannot be started, or does not answer in time.
pub fn probe(command: &[String]) -> Result<String, ProbeError> {
    let Some((program, args)) = command.split_first() else {
        return Err(ProbeError::NotFound);
    };
    let (mut child, group) = crate::interrupt::spawn(
        Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => ProbeError::NotFound,
        _ => ProbeError::Start(e.to_string()),
    })?;
    let flood = Arc::new(AtomicBool::new(false));
    let stdout = Captured::start(child.stdout.take(), Keep::Tail(TAIL), flood.clone());
    let stderr = Captured::start(child.stderr.take(), Keep::Tail(TAIL), flood);
    let answered = matches!(child.wait_timeout(Duration::from_secs(5)), Ok(Some(_)));
    if !answered {
        let _ = killpg(group.pid(), Signal::SIGKILL);
        let _ = child.wait();
        return Err(ProbeError::Silent);
    }
    drop(group);
    let mut text = stdout.take();
    if text.trim().is_empty() {
        text = stderr.take();
    }
    let line = text
        .lines()
        .map(|l| l.trim_start_matches("c ").trim())
        // Banners rule themselves off with lines of `~` or `-`.
        .find(|l| l.chars().any(char::is_alphanumeric))
        .unwrap_or("")
        .to_string();
    Ok(line)
}
