//! Ctrl-C at any moment leaves no process and no temporary file behind.
//!
//! Everything that outlives a careless exit is registered here while it exists: the
//! process groups of running external programs and the paths of temporary files and
//! directories. Registration and the interrupt path take one lock, so the handler sees
//! either nothing or a complete registration, and [`exit`] removes and kills what is
//! registered while holding the lock, so nothing new can appear behind it.
//!
//! Two more mechanisms cover what a registry cannot see:
//! * every external program is started with a parent-death signal (SIGKILL when
//!   dominofit dies, even by SIGKILL);
//! * dominofit makes itself a child subreaper, so a grandchild that left the program's
//!   process group (`setsid`) is re-parented to dominofit when its parent dies, and
//!   `reap_strays` kills it.
//!
//! Library code never exits: it only looks at [`requested`] (through
//! `Budget::expired`) and stops early. The command line decides whether an interrupt
//! exits at once ([`exit`]) or lets the current command wind down and keep what it has
//! (`race`), by [`set_graceful`].

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

mod term;

pub use dominofit_core::stop::{
    call_stop, call_stopped, clear, poll_host, requested, stopped_here, with_call_stop,
    with_host_poll,
};
use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;

use crate::time::Instant;
pub use term::terminate_cleanly_on_sigterm;

static GRACEFUL: AtomicBool = AtomicBool::new(false);
/// Set once dominofit has made itself a child subreaper (at its first program).
static SUBREAPER: AtomicBool = AtomicBool::new(false);
/// Whether dominofit adopts and kills strays: the process is its own. A host that
/// embeds the library (the Python package) has children of its own, which are not
/// dominofit's to reap.
static ADOPT_STRAYS: AtomicBool = AtomicBool::new(true);

#[derive(Default)]
struct Live {
    groups: Vec<i32>,
    paths: Vec<PathBuf>,
    /// Children dominofit had before it became a subreaper (inherited through `exec`,
    /// say a shell's background job): not ours to reap.
    inherited: Vec<i32>,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    groups: Vec::new(),
    paths: Vec::new(),
    inherited: Vec::new(),
});

fn live() -> MutexGuard<'static, Live> {
    // A panic while the lock was held leaves the lists as they were; keep using them.
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Records an interrupt and kills every running external program, so that whatever waits
/// on one returns at once. Called from the signal-handling thread.
pub fn request() {
    dominofit_core::stop::request();
    let live = live();
    for &group in &live.groups {
        let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
    }
}

/// For a host process that embeds the library: never become a child subreaper and never
/// reap children outside dominofit's registered process groups, which may be the host's
/// own. Programs dominofit starts are still killed at their deadline, with their group,
/// and by the parent-death signal.
pub fn leave_strays_alone() {
    ADOPT_STRAYS.store(false, Ordering::SeqCst);
}

/// Whether dominofit runs inside a host process (the Python package), which goes on after
/// an interrupt: work that cannot be stopped in-process must then run where it can be
/// killed, since no exit will end it.
pub fn embedded() -> bool {
    !ADOPT_STRAYS.load(Ordering::SeqCst)
}

/// Whether the current command stops by itself on an interrupt (true), or the interrupt
/// should [`exit`] at once (false, the default).
pub fn graceful() -> bool {
    GRACEFUL.load(Ordering::SeqCst)
}

/// Sets whether the current command winds down by itself on an interrupt.
pub fn set_graceful(on: bool) {
    GRACEFUL.store(on, Ordering::SeqCst);
}

/// Points standard output at `/dev/null`, for an interrupt that ends the process: a
/// search that sees the interrupt stops at once and its command goes on to print what
/// it has (an undecided count, an `unknown`), racing the exit; silenced first, nothing
/// more is written, so Ctrl-C always means exit 130 and no answer after it.
pub fn silence_stdout() {
    if let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null") {
        let _ = nix::unistd::dup2_stdout(&null);
    }
}

/// Kills every registered process group, removes every registered temporary path, kills
/// strays, and exits with `code`. The lock is held to the end, so nothing new is
/// started or created after the clean-up.
pub fn exit(code: i32) -> ! {
    let _live = clean_up_locked();
    std::process::exit(code)
}

/// Ends the process by `signal`, as the signal's default action would, after the
/// clean-up of [`exit`]; the leaders of the killed groups are reaped first (for up to a
/// second: a leader stuck in the kernel must not hold the exit), so that none is left a
/// zombie under a parent that does not reap.
pub fn terminate(signal: Signal) -> ! {
    use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
    let live = clean_up_locked();
    let until = Instant::now() + Duration::from_secs(1);
    for &group in &live.groups {
        while Instant::now() < until {
            match waitpid(Pid::from_raw(group), Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => std::thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
    }
    // SAFETY: restoring the default action of the signal about to be raised.
    unsafe {
        let _ = nix::sys::signal::signal(signal, nix::sys::signal::SigHandler::SigDfl);
    }
    let _ = nix::sys::signal::raise(signal);
    std::process::exit(128 + signal as i32)
}

/// What [`exit`] does before exiting, for a process that is about to end normally while
/// threads it no longer waits for (a portfolio's losing members) may still hold a
/// program or a temporary directory.
pub fn clean_up() {
    drop(clean_up_locked());
}

fn clean_up_locked() -> MutexGuard<'static, Live> {
    let mut live = live();
    for &group in &live.groups {
        let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
    }
    for path in std::mem::take(&mut live.paths) {
        remove(&path);
    }
    // Strays can only exist once a program was started (and dominofit became a
    // subreaper): a command that ran none does not read /proc.
    if SUBREAPER.load(Ordering::SeqCst) {
        let inherited = live.inherited.clone();
        reap_strays_locked(&[], &inherited);
    }
    live
}

/// Removes a file or a directory tree; retried for a moment, since another thread may
/// be creating a file in the directory while it is removed.
fn remove(path: &Path) {
    for _ in 0..50 {
        let result = if path.is_dir() {
            std::fs::remove_dir_all(path)
        } else {
            std::fs::remove_file(path)
        };
        match result {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                std::thread::sleep(Duration::from_millis(2));
            }
            _ => return,
        }
    }
}

/// A temporary path that is removed when the guard drops, or by [`exit`].
#[derive(Debug)]
pub struct TempGuard {
    path: PathBuf,
}

impl TempGuard {
    /// Runs `create` (which makes the file or directory at the path it returns) with the
    /// registry locked, and registers the path. `create` must be quick.
    ///
    /// # Errors
    /// Whatever `create` returns.
    pub fn create<T>(
        create: impl FnOnce() -> std::io::Result<(T, PathBuf)>,
    ) -> std::io::Result<(T, TempGuard)> {
        let mut live = live();
        let (made, path) = create()?;
        live.paths.push(path.clone());
        Ok((made, TempGuard { path }))
    }

    /// A new temporary directory (`dominofit-…` in the system's temporary directory),
    /// registered, so that Ctrl-C removes it whatever the run is doing.
    ///
    /// # Errors
    /// The directory cannot be created.
    pub fn directory() -> std::io::Result<TempGuard> {
        let (_, dir) = TempGuard::create(|| {
            let dir = tempfile::Builder::new().prefix("dominofit-").tempdir()?;
            Ok(((), dir.keep()))
        })?;
        Ok(dir)
    }

    /// The registered path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Stops tracking the path without removing it: it has been renamed into place.
    pub fn keep(self) {
        let mut live = live();
        if let Some(k) = live.paths.iter().position(|p| *p == self.path) {
            live.paths.swap_remove(k);
        }
        std::mem::forget(self);
    }
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        let mut live = live();
        remove(&self.path);
        if let Some(k) = live.paths.iter().position(|p| *p == self.path) {
            live.paths.swap_remove(k);
        }
    }
}

/// A running program's process group; unregistered (and the group killed) on drop.
#[derive(Debug)]
pub struct GroupGuard {
    group: i32,
    /// The value of [`SPAWN_MARK`] in the program's environment, which its descendants
    /// inherit.
    mark: String,
}

/// An environment variable every program dominofit starts gets, with a value of its
/// own: a descendant that left the program's process group (`setsid`) still carries it,
/// so a host process that may not adopt strays (the Python package) finds and kills
/// exactly what this program started, and nothing of the host's.
pub const SPAWN_MARK: &str = "DOMINOFIT_SPAWN";

impl GroupGuard {
    /// The process group id (the program's pid).
    pub fn pid(&self) -> Pid {
        Pid::from_raw(self.group)
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        let mut live = live();
        let _ = killpg(Pid::from_raw(self.group), Signal::SIGKILL);
        if let Some(k) = live.groups.iter().position(|&g| g == self.group) {
            live.groups.swap_remove(k);
        }
        if ADOPT_STRAYS.load(Ordering::SeqCst) {
            // Under the lock: a program another thread starts meanwhile is registered
            // before the scan sees it.
            reap_strays_locked(&live.groups, &live.inherited);
        } else {
            kill_marked(&self.mark);
        }
    }
}

/// Kills every process whose environment carries `SPAWN_MARK=mark`: what one program
/// started, wherever it went. Repeats while any is found, for at most a second.
fn kill_marked(mark: &str) {
    let wanted = format!("{SPAWN_MARK}={mark}");
    let until = Instant::now() + Duration::from_secs(1);
    loop {
        let marked = processes_with(&wanted);
        if marked.is_empty() || Instant::now() >= until {
            return;
        }
        for pid in marked {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Every process (readable to us) whose environment holds the variable `entry`
/// (`NAME=value`) exactly, from `/proc`.
fn processes_with(entry: &str) -> Vec<i32> {
    let me = std::process::id() as i32;
    processes()
        .filter(|&(pid, _)| pid != me)
        .filter_map(|(pid, dir)| {
            let environ = std::fs::read(dir.join("environ")).ok()?;
            let holds = environ
                .split(|&b| b == 0)
                .any(|var| var == entry.as_bytes());
            holds.then_some(pid)
        })
        .collect()
}

/// `(pid, its folder)` of every process listed in `/proc`; none where it cannot be read.
fn processes() -> impl Iterator<Item = (i32, std::path::PathBuf)> {
    let entries = std::fs::read_dir("/proc").into_iter().flatten().flatten();
    entries.filter_map(|entry| {
        let pid = entry.file_name().to_str()?.parse::<i32>().ok()?;
        Some((pid, entry.path()))
    })
}

/// Starts `command` in a process group of its own, with SIGKILL as its parent-death
/// signal, and registers the group. No program is started after an interrupt. Under a
/// `--memory` limit ([`crate::memory::limit`]) its address space is limited to it.
///
/// # Errors
/// The program cannot be started, or an interrupt came first (`Interrupted`).
pub fn spawn(command: &mut Command) -> std::io::Result<(Child, GroupGuard)> {
    use std::os::unix::process::CommandExt;
    static SPAWNED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let parent = std::process::id() as i32;
    let mark = format!(
        "{parent}-{}",
        SPAWNED.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    command.env(SPAWN_MARK, &mark);
    let memory = crate::memory::limit();
    command.process_group(0);
    // SAFETY: the closure runs in the child between fork and exec and only makes
    // async-signal-safe system calls (no allocation, no locks).
    unsafe {
        command.pre_exec(move || {
            nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
            // The parent may have died before the signal was armed.
            if nix::unistd::getppid().as_raw() != parent {
                return Err(std::io::Error::other("dominofit exited"));
            }
            // `--memory`: a hard limit on the address space, as `ulimit -v` and
            // runsolver's `-M` set it; per process, inherited by the program's children.
            if let Some(bytes) = memory {
                use nix::sys::resource::{Resource, setrlimit};
                setrlimit(Resource::RLIMIT_AS, bytes, bytes)?;
            }
            Ok(())
        });
    }
    let mut live = live();
    become_subreaper(&mut live);
    if requested() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "interrupted",
        ));
    }
    let child = command.spawn()?;
    let group = child.id() as i32;
    live.groups.push(group);
    Ok((child, GroupGuard { group, mark }))
}

/// Makes dominofit a child subreaper, once, noting the children it already has.
fn become_subreaper(live: &mut Live) {
    if !ADOPT_STRAYS.load(Ordering::SeqCst) || SUBREAPER.swap(true, Ordering::SeqCst) {
        return;
    }
    live.inherited = children_of(std::process::id() as i32)
        .into_iter()
        .map(|(pid, _)| pid)
        .collect();
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// Kills and reaps every child process of dominofit that is neither in a registered
/// group, nor in dominofit's own group, nor inherited: descendants of finished or killed
/// programs that escaped their group and were re-parented here. Repeats while killing
/// one re-parents more, for at most a second. Called with the registry locked.
fn reap_strays_locked(registered: &[i32], inherited: &[i32]) {
    if !ADOPT_STRAYS.load(Ordering::SeqCst) {
        return;
    }
    let me = std::process::id() as i32;
    // Children in dominofit's own group were started by other code (a test harness, a
    // caller of the library) and are theirs to manage; an escaped program has a group
    // of its own.
    let own_group = nix::unistd::getpgrp().as_raw();
    let until = Instant::now() + Duration::from_secs(1);
    loop {
        let strays: Vec<i32> = children_of(me)
            .into_iter()
            .filter(|&(pid, group)| {
                group != own_group && !registered.contains(&group) && !inherited.contains(&pid)
            })
            .map(|(pid, _)| pid)
            .collect();
        if strays.is_empty() || Instant::now() >= until {
            return;
        }
        for &pid in &strays {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            let _ = nix::sys::wait::waitpid(Pid::from_raw(pid), None);
        }
    }
}

/// `(pid, process group)` of every process whose parent is `parent`, from `/proc`.
fn children_of(parent: i32) -> Vec<(i32, i32)> {
    processes()
        .filter_map(|(pid, dir)| {
            let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
            // `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses.
            let rest = &stat[stat.rfind(')')? + 1..];
            let fields: Vec<&str> = rest.split_whitespace().collect();
            match fields.as_slice() {
                [_state, ppid, pgrp, ..] if ppid.parse() == Ok(parent) => {
                    Some((pid, pgrp.parse().ok()?))
                }
                _ => None,
            }
        })
        .collect()
}
