//! Running a call so that Ctrl-C stops it, at the cost of the call itself.
//!
//! Python handles signals only on its main thread and only with the GIL, so a call that
//! runs without the GIL must come back for them. A board of game size is answered in
//! microseconds: such calls run in place ([`in_place`]), taking the GIL back for a
//! moment every [`SIGNAL_POLL`] of their work, from where the work looks at its budget.
//! Work that may go a long time without looking at a budget (building the model of a
//! board of millions of cells) runs on a thread of its own while the caller waits
//! ([`on_a_thread`]). Either way each call has a stop flag of its own
//! ([`dominofit::interrupt::with_call_stop`]): Ctrl-C stops the call it interrupts, and
//! calls in other Python threads go on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use pyo3::prelude::*;

use crate::fail;

/// How often a running call looks for Ctrl-C.
pub const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Calls whose largest board has at most this many cells run in place; above it, model
/// building alone takes long enough that a thread costs nothing by comparison.
pub const IN_PLACE_CELLS: usize = 128 * 128;

/// Runs `job` in place or on a thread, by the size of its largest board (`cells`).
pub fn stoppable<T: Send>(
    py: Python<'_>,
    cells: usize,
    job: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    if cells <= IN_PLACE_CELLS {
        in_place(py, job)
    } else {
        on_a_thread(py, job)
    }
}

/// Runs `job` on this thread without the GIL, looking for signals every [`SIGNAL_POLL`]
/// of its work: a signal's exception raises the call's stop flag, which ends the work,
/// and is raised here.
pub fn in_place<T: Send>(py: Python<'_>, job: impl FnOnce() -> T + Send) -> PyResult<T> {
    let caught: Arc<Mutex<Option<PyErr>>> = Arc::default();
    let seen = caught.clone();
    let out = py.detach(move || {
        let poll = Box::new(move || {
            Python::attach(|py| match py.check_signals() {
                Ok(()) => false,
                Err(signal) => {
                    if let Ok(mut slot) = seen.lock() {
                        *slot = Some(signal);
                    }
                    true
                }
            })
        });
        let stop = Arc::new(AtomicBool::new(false));
        dominofit::interrupt::with_host_poll(stop, SIGNAL_POLL, poll, job)
    });
    if let Some(signal) = caught.lock().ok().and_then(|mut slot| slot.take()) {
        return Err(signal);
    }
    // A signal that came after the work's last look is raised now, before its answer
    // is turned into Python values (which may take a while for a large one).
    py.check_signals()?;
    Ok(out)
}

/// Runs `job` on a thread of its own; the caller waits without the GIL and looks for
/// signals between waits. On a signal the job's stop flag is raised (which ends its
/// search and kills its programs), the job is waited for, and the signal's exception
/// is raised.
pub fn on_a_thread<T: Send>(py: Python<'_>, job: impl FnOnce() -> T + Send) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel();
        let flag = stop.clone();
        let worker = scope.spawn(move || {
            let out = dominofit::interrupt::with_call_stop(flag, job);
            let _ = done.send(());
            out
        });
        let waited = wait_for(py, &stop, move |timeout| {
            !matches!(
                finished.recv_timeout(timeout),
                Err(mpsc::RecvTimeoutError::Timeout)
            )
        });
        let joined = py.detach(|| worker.join());
        waited?;
        joined.map_err(|_| fail("internal error: the call panicked"))
    })
}

/// Waits without the GIL until `ended` (given how long it may wait) says so, looking for
/// signals between waits; on one, raises `stop` and returns its exception (the caller
/// still waits for its threads).
pub fn wait_for(
    py: Python<'_>,
    stop: &AtomicBool,
    mut ended: impl FnMut(Duration) -> bool + Send,
) -> PyResult<()> {
    loop {
        if py.detach(|| ended(SIGNAL_POLL)) {
            return Ok(());
        }
        if let Err(signal) = py.check_signals() {
            stop.store(true, Ordering::SeqCst);
            return Err(signal);
        }
    }
}
