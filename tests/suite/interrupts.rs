//! Ctrl-C and SIGTERM at work, with every shipped external solver: `solve` and
//! `race --jobs 2` are interrupted while a solver runs, and afterwards nothing they
//! started may be running and nothing may be left in their temporary directory. Each
//! run gets a `TMPDIR` of its own, and every process dominofit starts inherits it (or a
//! directory below it), so a process whose environment still names it is a leftover,
//! whatever group or session it ran off to.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;

use crate::hardening::{dominofit, leftovers, text};

const HUGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/huge.jsonl");

/// Every process (other than this test's) whose environment names `dir`: `(pid, its
/// command line)`.
pub(crate) fn processes_naming(dir: &Path) -> Vec<(i32, String)> {
    let needle = format!("TMPDIR={}", dir.display());
    let me = std::process::id() as i32;
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        let names = environ
            .split(|&b| b == 0)
            .any(|var| var.starts_with(needle.as_bytes()));
        if names {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            found.push((pid, text(&cmdline).replace('\0', " ")));
        }
    }
    found
}

/// Whether a solver program (not dominofit itself) runs under `dir`.
fn a_solver_runs(dir: &Path) -> bool {
    processes_naming(dir).iter().any(|(_, cmdline)| {
        let program = cmdline.split(' ').next().unwrap_or_default();
        !program.ends_with("dominofit")
    })
}

/// The shipped descriptors whose program is installed (all of them in CI), with the
/// program's name.
fn installed_solvers() -> Vec<String> {
    let all = dominofit::backend::registry::descriptors();
    all.found
        .values()
        .filter(|d| crate::common::program_available(&d.command[0], "--version"))
        .map(|d| d.name.clone())
        .collect()
}

/// Starts dominofit with `args` under a `TMPDIR` of its own, waits until one of the
/// solvers it started is running, sends `signal`, and checks that the process exits
/// with 130 and leaves no process and no file.
fn interrupted_leaves_nothing(args: &[&str], signal: Signal, what: &str) {
    let scratch = tempfile::tempdir().unwrap();
    let mut child = dominofit()
        .args(args)
        .env("TMPDIR", scratch.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !a_solver_runs(scratch.path()) {
        if child.try_wait().unwrap().is_some() || started.elapsed() > Duration::from_secs(60) {
            let out = child.wait_with_output().unwrap();
            panic!("{what}: no solver ever ran: {}", text(&out.stderr));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, signal).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{what}: {}",
        text(&out.stderr)
    );
    // Programs killed by their parent-death signal are gone within moments.
    let until = Instant::now() + Duration::from_secs(5);
    let mut left = processes_naming(scratch.path());
    while !left.is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
        left = processes_naming(scratch.path());
    }
    assert!(left.is_empty(), "{what}: still running: {left:?}");
    assert!(
        leftovers(scratch.path()).is_empty(),
        "{what}: files left: {:?}",
        leftovers(scratch.path())
    );
}

/// `solve` and `race --jobs 2`, each solver, SIGINT and SIGTERM: 20 and more interrupted
/// races among them, all clean.
#[test]
fn every_solver_interrupted_in_solve_and_race_jobs_leaves_nothing() {
    let solvers = installed_solvers();
    eprintln!("interrupting {}", solvers.join(", "));
    for solver in &solvers {
        for signal in [Signal::SIGINT, Signal::SIGTERM] {
            interrupted_leaves_nothing(
                &["solve", HUGE, "--backend", solver, "--timeout", "60"],
                signal,
                &format!("solve --backend {solver}, {signal}"),
            );
            interrupted_leaves_nothing(
                &[
                    "race",
                    HUGE,
                    "--backends",
                    solver,
                    "--jobs",
                    "2",
                    "--timeout",
                    "60",
                    "--repeat",
                    "1",
                ],
                signal,
                &format!("race --jobs 2 --backends {solver}, {signal}"),
            );
        }
    }
}

/// The probe above sees what it claims to: a process started with the directory in its
/// environment is found, and is not once it has ended.
#[test]
fn the_process_probe_finds_a_process_naming_the_directory() {
    let scratch = tempfile::tempdir().unwrap();
    let mut sleeper = Command::new("sleep")
        .arg("30")
        .env("TMPDIR", scratch.path())
        .spawn()
        .unwrap();
    // Until `exec`, the child shows its parent's environment.
    let started = Instant::now();
    while !a_solver_runs(scratch.path()) {
        assert!(started.elapsed() < Duration::from_secs(10), "never seen");
        std::thread::sleep(Duration::from_millis(5));
    }
    sleeper.kill().unwrap();
    sleeper.wait().unwrap();
    assert!(processes_naming(scratch.path()).is_empty());
}
