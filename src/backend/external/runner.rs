//! Running an external program under a deadline.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use wait_timeout::ChildExt;

use super::descriptor::Descriptor;

/// Set when the user interrupts (Ctrl-C) while an external program runs.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Whether an external program is running now.
static RUNNING: AtomicBool = AtomicBool::new(false);

/// Called from the process's interrupt handler. An external program runs in its own
/// process group, out of reach of the terminal's Ctrl-C, so the runner must stop it and
/// let its temporary files be removed; returns `false` then (the caller should let the
/// run unwind), and `true` when nothing external is running and the process may exit.
pub fn interrupt() -> bool {
    INTERRUPTED.store(true, Ordering::SeqCst);
    !RUNNING.load(Ordering::SeqCst)
}

/// How often a running program is checked for the deadline and for an interrupt.
const POLL: Duration = Duration::from_millis(20);

/// What a run left behind.
pub struct Run {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    /// The deadline passed and the program was killed.
    pub timed_out: bool,
}

/// A `command` element that stands for the time-limit arguments, for programs that
/// take them only after some other argument; without it they follow the program name.
pub const TIME_LIMIT_SLOT: &str = "{time_limit}";

/// Replaces the placeholders in one argument.
fn expand(arg: &str, input: &Path, output: &Path, seconds: u64) -> String {
    arg.replace("{input}", &input.display().to_string())
        .replace("{output}", &output.display().to_string())
        .replace("{seconds}", &seconds.to_string())
}

/// Runs the program on `input`; kills its whole process group at `deadline`.
///
/// # Errors
/// The program cannot be started (with a hint when it is not installed).
pub fn run(
    descriptor: &Descriptor,
    input: &Path,
    output: &Path,
    deadline: Option<Instant>,
) -> Result<Run, String> {
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
    let mut child = Command::new(program)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, so a deadline kills whatever it started too.
        .process_group(0)
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => format!(
                "program `{program}` not found; install it (scripts/install-solvers.sh) or fix \
                 the descriptor's `command`"
            ),
            _ => format!("cannot start `{program}`: {e}"),
        })?;
    // Read both pipes on their own threads so a chatty program cannot block on a full pipe.
    let mut stdout_pipe = child.stdout.take();
    let mut stderr_pipe = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = stdout_pipe.as_mut() {
            let _ = p.read_to_string(&mut s);
        }
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = stderr_pipe.as_mut() {
            let _ = p.read_to_string(&mut s);
        }
        s
    });
    let pid = Pid::from_raw(child.id() as i32);
    RUNNING.store(true, Ordering::SeqCst);
    let mut interrupted = false;
    let (status, timed_out) = loop {
        let slice = match deadline {
            Some(d) => d.saturating_duration_since(Instant::now()).min(POLL),
            None => POLL,
        };
        match child.wait_timeout(slice.max(Duration::from_millis(1))) {
            Ok(Some(status)) => break (Some(status), false),
            Ok(None) => {}
            Err(_) => break (None, true),
        }
        interrupted = INTERRUPTED.load(Ordering::SeqCst);
        if interrupted || deadline.is_some_and(|d| Instant::now() >= d) {
            let _ = killpg(pid, Signal::SIGKILL);
            let _ = child.wait();
            break (None, true);
        }
    };
    RUNNING.store(false, Ordering::SeqCst);
    if interrupted {
        return Err("interrupted".to_string());
    }
    // The pipes close when the group is gone; a grandchild that escaped the group could
    // keep them open, so the readers are not waited for after a kill.
    let (stdout, stderr) = if timed_out {
        (String::new(), String::new())
    } else {
        (
            out_reader.join().unwrap_or_default(),
            err_reader.join().unwrap_or_default(),
        )
    };
    Ok(Run {
        status,
        stdout,
        stderr,
        timed_out,
    })
}

/// Runs the version command (or the program with `--version`) with a short time limit.
///
/// # Errors
/// The program cannot be started, or does not answer in time.
pub fn probe(descriptor: &Descriptor) -> Result<String, String> {
    let command: Vec<String> = if descriptor.version.is_empty() {
        vec![descriptor.command[0].clone(), "--version".to_string()]
    } else {
        descriptor.version.clone()
    };
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => "not found".to_string(),
            _ => e.to_string(),
        })?;
    let pid = Pid::from_raw(child.id() as i32);
    match child.wait_timeout(Duration::from_secs(5)) {
        Ok(Some(_)) => {}
        _ => {
            let _ = killpg(pid, Signal::SIGKILL);
            let _ = child.wait();
            return Err("did not answer --version within 5 s".to_string());
        }
    }
    let mut text = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = out.read_to_string(&mut text);
    }
    if text.trim().is_empty()
        && let Some(mut err) = child.stderr.take()
    {
        let _ = err.read_to_string(&mut text);
    }
    let line = text
        .lines()
        .map(|l| l.trim_start_matches("c ").trim())
        .find(|l| !l.is_empty())
        .unwrap_or("")
        .to_string();
    Ok(line)
}
