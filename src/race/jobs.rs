//! `race --jobs N`: several runs at once, each in a worker process of dominofit pinned to
//! a core of its own.
//!
//! A process per run, not a thread: CPU time, peak memory and a memory limit are the
//! kernel's per-process figures, and a run's abandoned threads (an LP left to finish its
//! iteration) die with its process instead of slowing the next run. Each worker
//! (`dominofit worker-run`, a hidden subcommand) reads one instance as JSON on standard
//! input, runs it with [`super::measure`] under the race's options, and prints its row as
//! one JSON line. Runs side by side share caches and memory bandwidth, so times are
//! noisier than with `--jobs 1`; statuses and counts are the same.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;

use super::{RaceError, RunRow, check_agreement, check_counts};
use crate::puzzle::Instance;

/// A worker that did not give its row.
#[derive(Debug, thiserror::Error)]
#[error("the worker for `{instance}` ({workload}) on `{backend}` failed: {message}")]
pub struct WorkerFailure {
    /// The workload file of the instance.
    pub workload: String,
    /// The instance the worker ran.
    pub instance: String,
    /// The backend it ran.
    pub backend: String,
    /// What it said on standard error, or why it could not be started.
    pub message: String,
}

/// What a finished worker left: its task, standard output and error, and whether it
/// exited successfully.
type Finished = (usize, String, String, bool);

/// Runs every backend on every instance like [`super::race`], `jobs` at a time, each run
/// as `program worker-run WORKER_ARGS --workload W --backend B` with the instance on its
/// standard input. `progress` gets (runs done, runs in all, the instance just started).
/// The rows come back in the order the sequential race has.
///
/// # Errors
/// A worker that fails (a wrong tiling is such a failure: the worker names it), or
/// contradictory answers, as [`super::race`].
pub fn race_in_processes(
    program: &Path,
    worker_args: &[String],
    workloads: &[(String, Vec<Instance>)],
    backends: &[String],
    jobs: usize,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<Vec<RunRow>, RaceError> {
    let mut tasks: Vec<(&str, &Instance, &str)> = Vec::new();
    for (workload, instances) in workloads {
        for instance in instances {
            for backend in backends {
                tasks.push((workload, instance, backend));
            }
        }
    }
    // The workers' temporary files (models written for external programs) go into one
    // directory of this process's: a worker killed on Ctrl-C cannot remove its own, and
    // this one is removed whatever happens to them.
    let scratch = crate::interrupt::TempGuard::directory().map_err(RaceError::Scratch)?;
    let cores = cores();
    let mut waiting: VecDeque<usize> = (0..tasks.len()).collect();
    let mut rows: Vec<Option<RunRow>> = vec![None; tasks.len()];
    let mut free_cores: Vec<usize> = (0..jobs.max(1))
        .rev()
        .map(|k| cores[k % cores.len()])
        .collect();
    let mut running: Vec<(usize, usize, crate::interrupt::GroupGuard)> = Vec::new();
    let (tx, rx) = mpsc::channel::<Finished>();
    let mut done = 0;
    let fail = |task: usize, message: String| {
        let (workload, instance, backend) = tasks[task];
        RaceError::Worker(Box::new(WorkerFailure {
            workload: workload.to_string(),
            instance: instance.name.clone(),
            backend: backend.to_string(),
            message,
        }))
    };
    while done < tasks.len() {
        if crate::interrupt::requested() {
            break;
        }
        while let (Some(&core), Some(&task)) = (free_cores.last(), waiting.front()) {
            let (workload, instance, backend) = tasks[task];
            let group = start(
                program,
                worker_args,
                (workload, instance, backend),
                (core, scratch.path()),
                task,
                &tx,
            )
            .map_err(|e| fail(task, e))?;
            free_cores.pop();
            waiting.pop_front();
            running.push((task, core, group));
            progress(done, tasks.len(), &instance.name);
        }
        let Ok((task, stdout, stderr, success)) =
            rx.recv_timeout(std::time::Duration::from_millis(50))
        else {
            continue;
        };
        if let Some(k) = running.iter().position(|r| r.0 == task) {
            let (_, core, group) = running.swap_remove(k);
            drop(group);
            free_cores.push(core);
        }
        if crate::interrupt::requested() {
            break;
        }
        if !success {
            let message = stderr
                .trim()
                .lines()
                .last()
                .unwrap_or("no message")
                .to_string();
            return Err(fail(task, crate::escape::terminal(&message)));
        }
        let row = super::runs::row_from_json(stdout.trim()).map_err(|e| fail(task, e))?;
        rows[task] = Some(row);
        done += 1;
        progress(done, tasks.len(), "");
        // Once every backend has run an instance, its answers must agree.
        let per_instance = backends.len().max(1);
        let first = task / per_instance * per_instance;
        let instance_rows: Option<Vec<RunRow>> =
            rows[first..first + per_instance].iter().cloned().collect();
        if let Some(instance_rows) = instance_rows {
            check_agreement(&instance_rows).map_err(RaceError::Contradiction)?;
            check_counts(&instance_rows)?;
        }
    }
    // Workers still running (after an interrupt) are killed by their guards, and what
    // they left goes with the directory.
    drop(running);
    drop(scratch);
    Ok(rows.into_iter().flatten().collect())
}

/// The cores this process may run on.
fn cores() -> Vec<usize> {
    use nix::sched::{CpuSet, sched_getaffinity};
    use nix::unistd::Pid;
    let allowed = sched_getaffinity(Pid::from_raw(0)).ok();
    let cores: Vec<usize> = allowed
        .map(|set| {
            (0..CpuSet::count())
                .filter(|&c| set.is_set(c).unwrap_or(false))
                .collect()
        })
        .unwrap_or_default();
    if cores.is_empty() { vec![0] } else { cores }
}

/// Starts the worker for one task pinned to `core`, with `scratch` as its temporary
/// directory; a thread hands its output to `tx` once it has exited.
fn start(
    program: &Path,
    worker_args: &[String],
    (workload, instance, backend): (&str, &Instance, &str),
    (core, scratch): (usize, &Path),
    task: usize,
    tx: &mpsc::Sender<Finished>,
) -> Result<crate::interrupt::GroupGuard, String> {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(program);
    command
        .arg("worker-run")
        .args(worker_args)
        .arg("--workload")
        .arg(workload)
        .arg("--backend")
        .arg(backend)
        .env("TMPDIR", scratch)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut set = nix::sched::CpuSet::new();
    set.set(core)
        .map_err(|e| format!("cannot pin to core {core}: {e}"))?;
    // SAFETY: the closure runs in the child between fork and exec and makes one
    // async-signal-safe system call.
    unsafe {
        command.pre_exec(move || {
            nix::sched::sched_setaffinity(nix::unistd::Pid::from_raw(0), &set)?;
            Ok(())
        });
    }
    let (mut child, group) =
        crate::interrupt::spawn(&mut command).map_err(|e| format!("cannot start a worker: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A worker that dies before reading its instance says why on standard error.
        let _ = stdin.write_all(instance.to_json().as_bytes());
    }
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let tx = tx.clone();
    std::thread::spawn(move || {
        let read = |pipe: Option<Box<dyn Read>>| {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        };
        let errors = std::thread::spawn(move || read(stderr.map(|p| Box::new(p) as Box<dyn Read>)));
        let out = read(stdout.map(|p| Box::new(p) as Box<dyn Read>));
        let err = errors.join().unwrap_or_default();
        let success = match crate::usage::wait_child(child.id() as i32) {
            Some((status, _)) => status.success(),
            None => child.wait().is_ok_and(|s| s.success()),
        };
        let _ = tx.send((task, out, err, success));
    });
    Ok(group)
}
