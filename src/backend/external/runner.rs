//! Running an external program under a deadline.

use std::io::Read;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use wait_timeout::ChildExt;

use super::descriptor::Descriptor;
use crate::interrupt;

/// How often a running program is checked for the deadline, an interrupt and a flood
/// of output.
const POLL: Duration = Duration::from_millis(20);

/// How much of standard error is kept: its end, for messages.
const STDERR_TAIL: usize = 64 * 1024;

/// How long the pipe readers are waited for once the program's group is gone.
const READER_GRACE: Duration = Duration::from_secs(2);

/// How long a program told to stop (SIGTERM to its process group, at the deadline or
/// when its answer is no longer wanted) has to exit before it is killed (SIGKILL): time
/// to remove its files, as runsolver gives. Short, because an answer after the deadline
/// is not taken and a time limit must hold (`--timeout T` ends within T + 10% + 0.5 s);
/// a program's temporary files go to the run's own directory (`TMPDIR`), which is removed
/// whatever the program left.
pub const TERM_GRACE: Duration = Duration::from_millis(300);

/// How a program is run, besides its descriptor and files.
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
    pub scratch: Option<&'a Path>,
}

/// What a run left behind.
pub struct Run {
    /// How the program exited; `None` when it was killed at the deadline.
    pub status: Option<ExitStatus>,
    /// Its standard output (all of it when that holds the answer, else its end).
    pub stdout: String,
    /// The end of its standard error.
    pub stderr: String,
    /// The deadline passed and the program was killed.
    pub timed_out: bool,
}

/// Why a program could not give an answer.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The program could not be started (with a hint when it is not installed).
    #[error("{0}")]
    Start(String),
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

/// Why `backends` lists a program as missing.
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

/// A `command` element that stands for the time-limit arguments, for programs that
/// take them only after some other argument; without it they follow the program name.
pub const TIME_LIMIT_SLOT: &str = "{time_limit}";

/// Replaces the placeholders in one argument, in one pass: text put in for one (a path)
/// is never read as another placeholder.
fn expand(arg: &str, input: &Path, output: &Path, seconds: u64) -> String {
    let slots = [
        ("{input}", input.display().to_string()),
        ("{output}", output.display().to_string()),
        ("{seconds}", seconds.to_string()),
    ];
    let mut out = String::with_capacity(arg.len());
    let mut rest = arg;
    'scan: while !rest.is_empty() {
        for (slot, value) in &slots {
            if let Some(after) = rest.strip_prefix(slot) {
                out.push_str(value);
                rest = after;
                continue 'scan;
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

/// What a pipe's reader has kept so far, shared with the thread reading it.
struct Captured {
    kept: Arc<std::sync::Mutex<Vec<u8>>>,
    done: mpsc::Receiver<()>,
}

impl Captured {
    /// What was read, once the pipe reached its end, or once the program is gone and the
    /// pipe has been quiet for a moment: a stray descendant that escaped every kill may
    /// hold the pipe open without writing, and what the program itself wrote is in
    /// already (at most a pipe's buffer was left to read when it ended).
    fn take(self) -> String {
        const QUIET: Duration = Duration::from_millis(100);
        let started = Instant::now();
        let mut seen = usize::MAX;
        let mut quiet_since = Instant::now();
        loop {
            match self.done.recv_timeout(Duration::from_millis(10)) {
                Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            let len = self.kept.lock().map_or(0, |k| k.len());
            if len != seen {
                seen = len;
                quiet_since = Instant::now();
            }
            if quiet_since.elapsed() >= QUIET || started.elapsed() >= READER_GRACE {
                break;
            }
        }
        let kept = self.kept.lock().map(|k| k.clone()).unwrap_or_default();
        String::from_utf8_lossy(&kept).into_owned()
    }
}

/// Reads a pipe to its end on its own thread (so that a chatty program never blocks on
/// a full pipe), keeping at most `limit` bytes: all of them for standard output, which
/// holds the answer (`flood` is raised past the limit), or the last ones for standard
/// error, which only feeds messages.
fn reader(
    pipe: Option<impl Read + Send + 'static>,
    limit: usize,
    keep_tail: bool,
    flood: Arc<AtomicBool>,
) -> Captured {
    let (tx, done) = mpsc::channel();
    let kept = Arc::new(std::sync::Mutex::new(Vec::new()));
    let shared = kept.clone();
    std::thread::spawn(move || {
        if let Some(mut pipe) = pipe {
            let mut buffer = [0u8; 64 * 1024];
            loop {
                let n = match pipe.read(&mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                let Ok(mut kept) = shared.lock() else { break };
                if !keep_tail && kept.len() + n > limit {
                    flood.store(true, Ordering::SeqCst);
                    kept.clear();
                    break;
                }
                kept.extend_from_slice(&buffer[..n]);
                if keep_tail && kept.len() > limit {
                    let excess = kept.len() - limit;
                    kept.drain(..excess);
                }
            }
        }
        let _ = tx.send(());
    });
    Captured { kept, done }
}

/// Runs the program on `input`; kills its whole process group at the deadline, on an
/// interrupt, when `stop` says so (the answer is no longer wanted), or when it floods
/// standard output where that holds its answer (see [`Limits`]).
///
/// # Errors
/// The program cannot be started (with a hint when it is not installed), floods its
/// output, or the user interrupted.
pub fn run(
    descriptor: &Descriptor,
    input: &Path,
    output: &Path,
    limits: Limits,
) -> Result<Run, RunError> {
    let Limits {
        deadline,
        stop,
        max_stdout,
        stdout_is_answer,
        scratch,
    } = limits;
    let seconds = deadline.map(|d| d.saturating_duration_since(Instant::now()).as_secs() + 1);
    let limit: Vec<String> = match seconds {
        Some(seconds) => descriptor
            .time_limit
            .iter()
            .map(|a| expand(a, input, output, seconds))
            .collect(),
        None => Vec::new(),
    };
    let mut args: Vec<String> = Vec::new();
    let placed = descriptor.command.iter().any(|a| a == TIME_LIMIT_SLOT);
    if !placed {
        args.extend(limit.iter().cloned());
    }
    for a in &descriptor.command[1..] {
        if a == TIME_LIMIT_SLOT {
            args.extend(limit.iter().cloned());
        } else {
            args.push(expand(a, input, output, seconds.unwrap_or(0)));
        }
    }
    let program = &descriptor.command[0];
    let mut command = Command::new(program);
    command
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(scratch) = scratch {
        command.env("TMPDIR", scratch);
    }
    let (mut child, group) = interrupt::spawn(&mut command).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => RunError::Start(format!(
            "program `{}` not found; install it (scripts/install-solvers.sh) or fix \
             the descriptor's `command`",
            crate::escape::terminal(program)
        )),
        std::io::ErrorKind::Interrupted => RunError::Interrupted,
        _ => RunError::Start(format!(
            "cannot start `{}`: {e}",
            crate::escape::terminal(program)
        )),
    })?;
    let flood = Arc::new(AtomicBool::new(false));
    let stdout_rx = if stdout_is_answer {
        reader(child.stdout.take(), max_stdout, false, flood.clone())
    } else {
        reader(child.stdout.take(), STDERR_TAIL, true, flood.clone())
    };
    let stderr_rx = reader(child.stderr.take(), STDERR_TAIL, true, flood.clone());
    // The program is reaped by `wait4` on a thread of its own, which has what it used
    // and wakes this one as soon as it ends.
    let pid = child.id() as i32;
    let (exit_tx, exit_rx) = mpsc::channel();
    let waiter = std::thread::Builder::new()
        .name("wait4".to_string())
        .spawn(move || {
            let _ = exit_tx.send(crate::usage::wait_child(pid));
        });
    if waiter.is_err() {
        let _ = killpg(group.pid(), Signal::SIGKILL);
        let _ = child.wait();
        return Err(RunError::Start(
            "cannot start a thread to wait for it".into(),
        ));
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
        if interrupt::requested() || flood.load(Ordering::SeqCst) {
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
    if interrupt::requested() {
        return Err(RunError::Interrupted);
    }
    if flood.load(Ordering::SeqCst) {
        return Err(RunError::Flood { limit: max_stdout });
    }
    let stdout = stdout_rx.take();
    let stderr = stderr_rx.take();
    if flood.load(Ordering::SeqCst) {
        return Err(RunError::Flood { limit: max_stdout });
    }
    // What it used went to `usage`'s record of peaks when it was reaped.
    let status = reaped.map(|(status, _)| status);
    if let Some(limit) = crate::memory::limit()
        && !timed_out
        && status.is_some_and(|s| !s.success())
        && crate::memory::says_out_of_memory(&stderr)
    {
        return Err(RunError::Memout {
            limit_mib: limit >> 20,
        });
    }
    Ok(Run {
        status: if timed_out { None } else { status },
        stdout,
        stderr,
        timed_out,
    })
}

/// Runs the version command (or the program with `--version`) with a short time limit.
///
/// # Errors
/// The program cannot be started, or does not answer in time.
pub fn probe(descriptor: &Descriptor) -> Result<String, ProbeError> {
    let command: Vec<String> = if descriptor.version.is_empty() {
        vec![descriptor.command[0].clone(), "--version".to_string()]
    } else {
        descriptor.version.clone()
    };
    let (mut child, group) = interrupt::spawn(
        Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => ProbeError::NotFound,
        _ => ProbeError::Start(e.to_string()),
    })?;
    let flood = Arc::new(AtomicBool::new(false));
    let stdout_rx = reader(child.stdout.take(), 64 * 1024, true, flood.clone());
    let stderr_rx = reader(child.stderr.take(), 64 * 1024, true, flood);
    let answered = matches!(child.wait_timeout(Duration::from_secs(5)), Ok(Some(_)));
    if !answered {
        let _ = killpg(group.pid(), Signal::SIGKILL);
        let _ = child.wait();
        return Err(ProbeError::Silent);
    }
    drop(group);
    let mut text = stdout_rx.take();
    if text.trim().is_empty() {
        text = stderr_rx.take();
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

#[cfg(test)]
mod tests {
    use super::expand;
    use std::path::Path;

    /// A path is data: one that contains a placeholder's text is put in as it is.
    #[test]
    fn placeholders_are_expanded_in_one_pass() {
        let input = Path::new("/runs/{output}/in.cnf");
        let output = Path::new("/runs/{input}/out");
        assert_eq!(expand("{input}", input, output, 7), "/runs/{output}/in.cnf");
        assert_eq!(
            expand("--out={output}:{seconds}s", input, output, 7),
            "--out=/runs/{input}/out:7s"
        );
        assert_eq!(expand("{input", input, output, 7), "{input");
        assert_eq!(expand("é{seconds}é", input, output, 12), "é12é");
    }
}
