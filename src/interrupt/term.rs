//! SIGTERM in a host process that embeds the library (the Python package).
//!
//! The command line handles SIGTERM as it handles Ctrl-C. A host process has no such
//! handler unless its own code installs one: by default SIGTERM ends it on the spot, and
//! whatever a running call had made (a solver's process group, a `dominofit-…`
//! directory holding a formula of many megabytes) outlived it. Where the host leaves
//! SIGTERM at its default, [`terminate_cleanly_on_sigterm`] puts a handler in its place
//! that does what the default does, dying by SIGTERM, after the clean-up of
//! [`super::exit`]. A host that handles SIGTERM itself keeps its handler.

use std::io::Read;
use std::os::fd::{AsRawFd, IntoRawFd};
use std::sync::Once;
use std::sync::atomic::{AtomicI32, Ordering};

use nix::sys::signal::{SaFlags, SigAction, SigHandler, SigSet, Signal, sigaction};

/// The writing end of the pipe the handler wakes the clean-up thread through; -1 before
/// the handler is installed.
static WAKE: AtomicI32 = AtomicI32::new(-1);

/// The process that installed the handler. A child forked from it (Python's
/// `multiprocessing` forks by default) inherits the handler and the pipe but not the
/// thread that reads it: its byte would wake the parent's thread and end the parent.
static OWNER: AtomicI32 = AtomicI32::new(0);

/// The handler: one byte down the pipe (`write` is async-signal-safe; nothing else
/// here may be done in a handler). In a forked child it restores the default action
/// and raises the signal again, as if no handler had been installed.
extern "C" fn on_sigterm(_: nix::libc::c_int) {
    // SAFETY: getpid, signal and raise are async-signal-safe.
    unsafe {
        if nix::libc::getpid() != OWNER.load(Ordering::SeqCst) {
            nix::libc::signal(nix::libc::SIGTERM, nix::libc::SIG_DFL);
            nix::libc::raise(nix::libc::SIGTERM);
            return;
        }
    }
    let fd = WAKE.load(Ordering::SeqCst);
    if fd >= 0 {
        let byte = 1u8;
        // SAFETY: `write` of one byte from a live stack variable to a descriptor that
        // stays open for the life of the process.
        unsafe {
            nix::libc::write(fd, std::ptr::from_ref(&byte).cast(), 1);
        }
    }
}

/// Installs the clean SIGTERM (once per process) where SIGTERM has its default action;
/// leaves a handler the host installed alone. Returns whether it was installed.
pub fn terminate_cleanly_on_sigterm() -> bool {
    static ONCE: Once = Once::new();
    let mut installed = false;
    ONCE.call_once(|| installed = install().is_ok_and(|done| done));
    installed
}

/// Whether SIGTERM has its default action now, asked without changing it.
fn sigterm_is_default() -> bool {
    let mut current = std::mem::MaybeUninit::<nix::libc::sigaction>::zeroed();
    // SAFETY: a null new action only reads the current one into `current`.
    let asked =
        unsafe { nix::libc::sigaction(nix::libc::SIGTERM, std::ptr::null(), current.as_mut_ptr()) };
    // SAFETY: filled by the successful call above (zeroed otherwise).
    asked == 0 && unsafe { current.assume_init() }.sa_sigaction == nix::libc::SIG_DFL
}

fn install() -> std::io::Result<bool> {
    if !sigterm_is_default() {
        return Ok(false);
    }
    let (mut reader, writer) = std::io::pipe()?;
    let handler = SigAction::new(
        SigHandler::Handler(on_sigterm),
        SaFlags::SA_RESTART,
        SigSet::empty(),
    );
    WAKE.store(writer.as_raw_fd(), Ordering::SeqCst);
    OWNER.store(std::process::id() as i32, Ordering::SeqCst);
    // SAFETY: the handler only writes to a pipe.
    let previous = unsafe { sigaction(Signal::SIGTERM, &handler) }.map_err(std::io::Error::from)?;
    if !matches!(previous.handler(), SigHandler::SigDfl) {
        // The host handles SIGTERM itself: its handler goes back.
        // SAFETY: the handler that was there before.
        unsafe { sigaction(Signal::SIGTERM, &previous) }.map_err(std::io::Error::from)?;
        WAKE.store(-1, Ordering::SeqCst);
        return Ok(false);
    }
    // The writing end lives as long as the process.
    let _ = writer.into_raw_fd();
    let spawned = std::thread::Builder::new()
        .name("dominofit-sigterm".to_string())
        .spawn(move || {
            let mut byte = [0u8; 1];
            loop {
                match reader.read(&mut byte) {
                    Ok(1) => super::terminate(Signal::SIGTERM),
                    Ok(_) => return,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => return,
                }
            }
        });
    if spawned.is_err() {
        // No thread to clean up: the default action is better than a SIGTERM ignored.
        // SAFETY: restoring the default action.
        let _ = unsafe { sigaction(Signal::SIGTERM, &previous) };
        WAKE.store(-1, Ordering::SeqCst);
        return Ok(false);
    }
    Ok(true)
}
