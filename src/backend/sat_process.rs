//! varisat in a worker process, so that a deadline frees its core.
//!
//! varisat cannot be interrupted in the middle of `solve()`: in a thread, an abandoned
//! solve keeps a core busy after dominofit has answered (and skews the next run of a
//! benchmark). The `dominofit` binary therefore runs it as a child process of itself
//! (`dominofit worker-varisat FILE PLACEMENTS`, a hidden subcommand): the formula goes
//! through a temporary DIMACS file, and the child and the parent speak a line protocol:
//!
//! * child: `m ID ID ...` for a model (the chosen placements), then it waits for a line;
//! * parent: `more` to have that tiling blocked and the next one looked for; anything
//!   else, or closing the pipe, ends the child;
//! * child: `exhausted` when no further model exists, `failed MESSAGE` on an error.
//!
//! At the deadline, on a stop or on Ctrl-C the child's process group is killed. That
//! costs about 3 ms a call (starting the process, writing and reading the DIMACS file):
//! the median over the `game` boards went from 0.19 ms in a thread to 3.3 ms, `unsat`
//! from 3.7 to 6.1 ms (one race each, BENCHMARKS.md). In-process library users that did
//! not ask for it (tests, examples) keep the worker thread.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{OnceLock, mpsc};
use std::time::Instant;

use crate::backend::{BackendError, Budget, Control, Ending, Sink};
use crate::lower::cnf::LoweredCnf;
use crate::model::{Model, PlacementId};

/// The program that runs `worker-varisat`, once the binary has said it is one.
static WORKER: OnceLock<PathBuf> = OnceLock::new();

/// From now on, varisat runs as `PROGRAM worker-varisat ...` (the `dominofit` binary
/// passes itself), a process killed at the deadline, instead of in a thread.
pub fn run_varisat_in(program: PathBuf) {
    let _ = WORKER.set(program);
}

/// The worker program, when one was set.
pub fn worker() -> Option<&'static Path> {
    WORKER.get().map(PathBuf::as_path)
}

/// The child's side: reads the DIMACS file, then solves, reports and blocks until the
/// parent stops asking or the formula is exhausted. Only placement variables (the first
/// `placements`) are reported and blocked.
///
/// # Errors
/// The formula cannot be read, or the pipes fail.
pub fn worker_main(
    file: &Path,
    placements: usize,
    mut replies: impl BufRead,
    mut out: impl Write,
) -> std::io::Result<()> {
    use varisat::ExtendFormula;
    let mut solver = varisat::Solver::new();
    let input = std::fs::File::open(file)?;
    if let Err(e) = solver.add_dimacs_cnf(std::io::BufReader::new(input)) {
        writeln!(out, "failed {e}")?;
        return out.flush();
    }
    let mut reply = String::new();
    loop {
        match solver.solve() {
            Ok(true) => {
                let Some(model) = solver.model() else {
                    writeln!(out, "failed satisfiable but no model")?;
                    return out.flush();
                };
                let chosen: Vec<usize> = model
                    .iter()
                    .filter(|l| l.is_positive() && l.var().index() < placements)
                    .map(|l| l.var().index())
                    .collect();
                write!(out, "m")?;
                for p in &chosen {
                    write!(out, " {p}")?;
                }
                writeln!(out)?;
                out.flush()?;
                reply.clear();
                if replies.read_line(&mut reply)? == 0 || reply.trim() != "more" {
                    return Ok(());
                }
                let blocking: Vec<varisat::Lit> = chosen
                    .iter()
                    .map(|&p| varisat::Lit::from_index(p, false))
                    .collect();
                solver.add_clause(&blocking);
            }
            Ok(false) => {
                writeln!(out, "exhausted")?;
                return out.flush();
            }
            Err(e) => {
                writeln!(out, "failed {e}")?;
                return out.flush();
            }
        }
    }
}

/// The parent's side: writes the formula, starts the worker and hands each model to
/// `sink`, until the worker is done, the sink stops, or the budget runs out.
pub(super) fn solve(
    program: &Path,
    name: &str,
    model: &Model,
    lowered: &LoweredCnf,
    budget: &Budget,
    sink: &mut Sink,
) -> Result<Ending, BackendError> {
    let failed = |message: String| BackendError::Failed {
        backend: name.to_string(),
        message,
    };
    let dir = crate::interrupt::TempGuard::directory()
        .map_err(|e| failed(format!("cannot create a temporary directory: {e}")))?;
    let cnf = dir.path().join("model.cnf");
    let written = std::fs::File::create(&cnf).and_then(|file| {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        crate::lower::dimacs::write_to(&mut out, model, lowered, &[], &|| budget.expired())?;
        out.flush()
    });
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
            if crate::interrupt::requested() {
                return Err(BackendError::Interrupted);
            }
            return Ok(Ending::Timeout);
        }
        Err(e) => return Err(failed(format!("cannot write {}: {e}", cnf.display()))),
    }
    let started = crate::interrupt::spawn(
        Command::new(program)
            .arg("worker-varisat")
            .arg(&cnf)
            .arg(lowered.placements.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    let (mut child, group) = match started {
        Ok(started) => started,
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
            return Err(BackendError::Interrupted);
        }
        Err(e) => return Err(failed(format!("cannot start the varisat worker: {e}"))),
    };
    let mut replies = child.stdin.take();
    // The end of standard error: what the worker says when an allocation fails.
    let (stderr_tx, stderr_rx) = mpsc::channel::<String>();
    if let Some(mut stderr) = child.stderr.take() {
        std::thread::spawn(move || {
            use std::io::Read;
            let mut tail = Vec::new();
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut buffer) {
                tail.extend_from_slice(&buffer[..n]);
                if tail.len() > 16 * 1024 {
                    tail.drain(..tail.len() - 16 * 1024);
                }
            }
            let _ = stderr_tx.send(String::from_utf8_lossy(&tail).into_owned());
        });
    }
    let (tx, rx) = mpsc::channel::<String>();
    if let Some(stdout) = child.stdout.take() {
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
    }
    let ending = loop {
        if budget.expired() {
            break Ok(Ending::Timeout);
        }
        let slice = budget.deadline.map_or(super::sat::POLL, |d| {
            d.saturating_duration_since(Instant::now())
                .min(super::sat::POLL)
        });
        let line = match rx.recv_timeout(slice) {
            Ok(line) => line,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                break Err(failed(
                    "the varisat worker stopped without an answer".into(),
                ));
            }
        };
        if line == "exhausted" {
            break Ok(Ending::Exhausted);
        }
        if let Some(message) = line.strip_prefix("failed ") {
            break Err(failed(message.to_string()));
        }
        let Some(ids) = line.strip_prefix('m') else {
            break Err(failed(format!("the varisat worker said `{line}`")));
        };
        let chosen: Result<Vec<PlacementId>, _> = ids
            .split_whitespace()
            .map(str::parse::<PlacementId>)
            .collect();
        let Ok(chosen) = chosen else {
            break Err(failed(format!("the varisat worker said `{line}`")));
        };
        if sink(&chosen) == Control::Stop {
            break Ok(Ending::Stopped);
        }
        let asked = replies
            .as_mut()
            .map(|r| r.write_all(b"more\n").and_then(|()| r.flush()));
        if !matches!(asked, Some(Ok(()))) {
            break Err(failed("the varisat worker stopped listening".into()));
        }
    };
    // Killing the group (the guard's drop) frees the core whatever the worker was doing.
    drop(replies);
    drop(group);
    // Reaped by `wait4`, so that a race sees the worker's peak memory.
    if crate::usage::wait_child(child.id() as i32).is_none() {
        let _ = child.wait();
    }
    let stderr = stderr_rx
        .recv_timeout(std::time::Duration::from_secs(2))
        .unwrap_or_default();
    let ending = match ending {
        Err(BackendError::Failed { .. })
            if crate::memory::limit().is_some() && crate::memory::says_out_of_memory(&stderr) =>
        {
            Err(BackendError::Run {
                backend: name.to_string(),
                source: crate::backend::external::RunError::Memout {
                    limit_mib: crate::memory::limit().unwrap_or(0) >> 20,
                },
            })
        }
        ending => ending,
    };
    if crate::interrupt::requested() && !matches!(ending, Ok(Ending::Exhausted | Ending::Stopped)) {
        return Err(BackendError::Interrupted);
    }
    ending
}
