//! When work must stop, other than by its deadline: the process was asked to stop (the
//! command line's Ctrl-C or SIGTERM, raised by `dominofit::interrupt`), or the host that
//! made this call stopped it (the Python package's Ctrl-C stops the call it interrupts
//! while calls on other threads go on; a page's worker stops its call when a newer
//! request comes). The flags are atomics and thread-locals, so the same search stops the
//! same way natively and in a browser; who raises them is the host's business.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::time::Instant;

/// The process was asked to stop.
static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Whether the process was asked to stop (Ctrl-C, SIGTERM).
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Records that the process was asked to stop: every budget's look sees it. (The
/// command line's `interrupt::request` raises it and then kills the programs it runs.)
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Forgets a stop request once the call it stopped has returned, for a process that goes
/// on after it (the Python package: a `KeyboardInterrupt` ends one call, not the
/// session).
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
}

thread_local! {
    /// The stop flag of the call running on this thread, for a host that stops one call
    /// rather than the process (the Python package: Ctrl-C stops the call it
    /// interrupts, and calls in other threads go on).
    static CALL_STOP: std::cell::RefCell<Option<std::sync::Arc<AtomicBool>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `call` with `flag` as this thread's call stop flag: budgets made on this thread
/// meanwhile (`Budget::with_timeout`) stop when it is raised.
pub fn with_call_stop<T>(flag: std::sync::Arc<AtomicBool>, call: impl FnOnce() -> T) -> T {
    let previous = CALL_STOP.with(|slot| slot.replace(Some(flag)));
    let out = call();
    CALL_STOP.with(|slot| *slot.borrow_mut() = previous);
    out
}

/// The stop flag of the call running on this thread, if its host gave one.
pub fn call_stop() -> Option<std::sync::Arc<AtomicBool>> {
    CALL_STOP.with(|slot| slot.borrow().clone())
}

/// A host's own look for a stop, asked now and then by the work of its call.
struct HostPoll {
    flag: std::sync::Arc<AtomicBool>,
    every: Duration,
    next: Instant,
    poll: Box<dyn FnMut() -> bool>,
}

thread_local! {
    static HOST_POLL: std::cell::RefCell<Option<HostPoll>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `call` on this thread with `flag` as its call stop flag, and `poll` asked at
/// most every `every` while it runs (from [`poll_host`]); when `poll` says true, `flag`
/// is raised. A host that must look for its own signals on the thread of the call (the
/// Python package: only the main thread handles Ctrl-C) runs short calls in place
/// this way, rather than on a thread of their own while it waits.
pub fn with_host_poll<T>(
    flag: std::sync::Arc<AtomicBool>,
    every: Duration,
    poll: Box<dyn FnMut() -> bool>,
    call: impl FnOnce() -> T,
) -> T {
    let host = HostPoll {
        flag: flag.clone(),
        every,
        next: Instant::now() + every,
        poll,
    };
    with_call_stop(flag, || {
        let previous = HOST_POLL.with(|slot| slot.replace(Some(host)));
        let out = call();
        HOST_POLL.with(|slot| *slot.borrow_mut() = previous);
        out
    })
}

/// Asks this thread's host poll, when it has one and its time has come. Called where
/// the work looks at its budget (`Budget::expired`, [`stopped_here`]):
/// without a host poll, one thread-local look.
pub fn poll_host() {
    let due = HOST_POLL.with(|slot| {
        let mut slot = slot.try_borrow_mut().ok()?;
        let host = slot.as_mut()?;
        let now = Instant::now();
        if now < host.next {
            return None;
        }
        host.next = now + host.every;
        // Out of its slot while it runs: the host may call back into the library.
        slot.take()
    });
    if let Some(mut host) = due {
        if (host.poll)() {
            host.flag.store(true, Ordering::SeqCst);
        }
        HOST_POLL.with(|slot| {
            if let Ok(mut slot) = slot.try_borrow_mut() {
                slot.get_or_insert(host);
            }
        });
    }
}

/// Whether the host stopped the call running on this thread (its Ctrl-C): its answer is
/// no longer wanted, so what is left of it (verifying tilings found) need not be done.
pub fn call_stopped() -> bool {
    CALL_STOP.with(|slot| {
        slot.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    })
}

/// Whether the work on this thread should stop: an interrupt of the process, or its
/// call's stop flag.
pub fn stopped_here() -> bool {
    poll_host();
    requested() || call_stopped()
}
