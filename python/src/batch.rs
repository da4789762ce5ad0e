//! Batch calls: many boards solved on several threads, the GIL released while they
//! work, answers in input order.
//!
//! The calling thread reads the boards from the caller's iterable (it needs the GIL for
//! that), hands them to the workers in chunks through a bounded queue, turns their answers into
//! dicts as they arrive, and looks for Ctrl-C between waits. The workers each build a
//! backend of their own and never touch Python. A board that cannot be read or solved
//! gives an error in its place; the others' answers are kept. Ctrl-C raises the batch's
//! stop flag, which every worker's budget reads, and is raised once they have stopped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use pyo3::prelude::*;

use crate::call::wait_for;
use crate::{DominofitError, fail};

/// Chunks in the queue per worker: enough that no worker waits while the calling
/// thread turns answers into dicts, few enough that a generator of boards is read as it
/// goes.
const QUEUED_PER_WORKER: usize = 4;

/// Most boards in a chunk. Boards go to the workers, and answers come back, a chunk at
/// a time: a game-size board is solved in microseconds, about what waking a sleeping
/// thread costs, so handing them over one by one left the workers and the calling
/// thread waiting on each other.
const CHUNK_MOST: usize = 64;

/// Boards per chunk for a batch of `len` boards (when its length is known) on
/// `threads` workers: small batches are cut finer, so that a few hard boards are not
/// left to one worker while the others idle.
fn chunk_size(len: Option<usize>, threads: usize) -> usize {
    match len {
        Some(len) => (len / (threads * 8)).clamp(1, CHUNK_MOST),
        None => CHUNK_MOST / 4,
    }
}

/// One board's place in the answers: its answer, or the error in its words.
pub type Settled = Result<Py<PyAny>, String>;

/// Reads item `index` (with the GIL): the job, or the message why it cannot be one.
pub type Read<'a, J> = &'a mut dyn FnMut(&Bound<'_, PyAny>, usize) -> Result<J, String>;

/// What a batch does with each item.
pub struct Work<'a, J, S, R> {
    /// Reads each item.
    pub read: Read<'a, J>,
    /// A worker's own state (its backend), made on its thread.
    pub state: &'a (dyn Fn() -> Result<S, String> + Sync),
    /// Does one job (without the GIL).
    pub run: &'a (dyn Fn(&mut S, J) -> Result<R, String> + Sync),
    /// Turns an answer into what the caller gets (with the GIL).
    pub answer: &'a mut dyn FnMut(Python<'_>, R) -> PyResult<Py<PyAny>>,
}

/// Runs `work` over every item of `items` on `threads` workers.
pub fn run<J: Send, S, R: Send>(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    threads: usize,
    work: Work<'_, J, S, R>,
) -> PyResult<Vec<Settled>> {
    let Work {
        read,
        state,
        run,
        answer,
    } = work;
    let chunk = chunk_size(items.len().ok(), threads);
    let mut items = items.try_iter()?;
    let stop = Arc::new(AtomicBool::new(false));
    let capacity = threads * QUEUED_PER_WORKER;
    let (job_tx, job_rx) = mpsc::sync_channel::<Vec<(usize, J)>>(capacity);
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel::<Vec<(usize, Result<R, String>)>>();
    // In a mutex so that waits without the GIL may borrow it.
    let done_rx = Mutex::new(done_rx);
    let mut settled: Vec<Option<Settled>> = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (job_rx, done_tx, flag) = (&job_rx, done_tx.clone(), stop.clone());
            scope.spawn(move || {
                dominofit::interrupt::with_call_stop(flag, || worker(job_rx, &done_tx, state, run))
            });
        }
        drop(done_tx);
        let mut job_tx = Some(job_tx);
        // Chunks sent and not yet answered.
        let mut in_flight = 0usize;
        let outcome = (|| -> PyResult<()> {
            loop {
                // Read boards while the queue has room, a chunk at a time.
                while let Some(tx) = &job_tx {
                    if in_flight >= capacity {
                        break;
                    }
                    let mut jobs = Vec::with_capacity(chunk);
                    let mut ended = false;
                    while jobs.len() < chunk {
                        let Some(item) = items.next() else {
                            ended = true;
                            break;
                        };
                        let index = settled.len();
                        settled.push(None);
                        match read(&item?, index) {
                            Ok(job) => jobs.push((index, job)),
                            Err(message) => settled[index] = Some(Err(message)),
                        }
                    }
                    if !jobs.is_empty() {
                        // The workers hold the receiver until the queue is dropped.
                        if tx.send(jobs).is_err() {
                            return Err(fail("internal error: the batch's workers ended"));
                        }
                        in_flight += 1;
                    }
                    if ended {
                        job_tx = None;
                    }
                }
                if in_flight == 0 && job_tx.is_none() {
                    return Ok(());
                }
                let mut arrived = Vec::new();
                let gather = |timeout: Duration, arrived: &mut Vec<_>| {
                    let Ok(done_rx) = done_rx.lock() else {
                        return true;
                    };
                    match done_rx.recv_timeout(timeout) {
                        Ok(first) => {
                            arrived.push(first);
                            arrived.extend(done_rx.try_iter());
                            true
                        }
                        Err(mpsc::RecvTimeoutError::Timeout) => false,
                        Err(mpsc::RecvTimeoutError::Disconnected) => true,
                    }
                };
                wait_for(py, &stop, |timeout| gather(timeout, &mut arrived))?;
                if arrived.is_empty() {
                    return Err(fail("internal error: the batch's workers ended early"));
                }
                for answers in arrived {
                    in_flight -= 1;
                    for (index, result) in answers {
                        settled[index] = Some(match result {
                            Ok(r) => Ok(answer(py, r)?),
                            Err(message) => Err(message),
                        });
                        // A large answer takes a while to turn into dicts: look for
                        // Ctrl-C between answers, not only between waits.
                        py.check_signals()
                            .inspect_err(|_| stop.store(true, Ordering::SeqCst))?;
                    }
                }
            }
        })();
        if outcome.is_err() {
            stop.store(true, Ordering::SeqCst);
        }
        // Closing the queue ends the workers; they are joined as the scope ends.
        drop(job_tx);
        py.detach(|| {
            if let Ok(done_rx) = done_rx.lock() {
                while done_rx.recv().is_ok() {}
            }
        });
        outcome
    })?;
    Ok(settled
        .into_iter()
        .map(|s| s.unwrap_or_else(|| Err("internal error: no answer".to_string())))
        .collect())
}

/// A worker's life: its own state, then chunks of jobs until the queue closes; a
/// chunk's answers go back together. A stopped batch's remaining jobs still get an
/// answer each (the stopped search's), so that the calling thread's count holds.
fn worker<J, S, R>(
    jobs: &Mutex<mpsc::Receiver<Vec<(usize, J)>>>,
    done: &mpsc::Sender<Vec<(usize, Result<R, String>)>>,
    state: &(dyn Fn() -> Result<S, String> + Sync),
    run: &(dyn Fn(&mut S, J) -> Result<R, String> + Sync),
) {
    let mut state = state();
    loop {
        let next = match jobs.lock() {
            Ok(jobs) => jobs.recv(),
            Err(_) => return,
        };
        let Ok(chunk) = next else {
            return;
        };
        let answers = (chunk.into_iter())
            .map(|(index, job)| {
                let result = match &mut state {
                    Ok(state) => run(state, job),
                    Err(message) => Err(message.clone()),
                };
                (index, result)
            })
            .collect();
        if done.send(answers).is_err() {
            return;
        }
    }
}

/// The answers as Python gets them: each answer, or a `DominofitError` in place of a
/// board that failed.
pub fn to_python(py: Python<'_>, settled: Vec<Settled>) -> Vec<Py<PyAny>> {
    settled
        .into_iter()
        .map(|s| match s {
            Ok(answer) => answer,
            Err(message) => DominofitError::new_err(message).into_value(py).into_any(),
        })
        .collect()
}
