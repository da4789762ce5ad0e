//! A program's output pipes, read to their end on threads of their own so that a chatty
//! program never blocks on a full pipe.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// How long the pipe readers are waited for once the program's group is gone.
const READER_GRACE: Duration = Duration::from_secs(2);

/// How much of standard error is kept: its end, for messages.
pub(super) const TAIL: usize = 64 * 1024;

/// What to keep of a pipe.
#[derive(Clone, Copy)]
pub(super) enum Keep {
    /// Everything, up to a limit: past it the pipe is a flood (standard output that holds
    /// an answer).
    All(usize),
    /// Its last bytes (standard error, or output that only feeds messages).
    Tail(usize),
}

/// What a pipe's reader has kept so far, shared with the thread reading it.
pub(super) struct Captured {
    kept: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Receiver<()>,
}

impl Captured {
    /// Starts reading `pipe`; `flood` is raised when it overflows [`Keep::All`].
    pub(super) fn start(
        pipe: Option<impl Read + Send + 'static>,
        keep: Keep,
        flood: Arc<AtomicBool>,
    ) -> Captured {
        let (tx, done) = mpsc::channel();
        let kept = Arc::new(Mutex::new(Vec::new()));
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
                    match keep {
                        Keep::All(limit) if kept.len() + n > limit => {
                            flood.store(true, Ordering::SeqCst);
                            kept.clear();
                            break;
                        }
                        Keep::All(_) => kept.extend_from_slice(&buffer[..n]),
                        Keep::Tail(limit) => {
                            kept.extend_from_slice(&buffer[..n]);
                            if kept.len() > limit {
                                let excess = kept.len() - limit;
                                kept.drain(..excess);
                            }
                        }
                    }
                }
            }
            let _ = tx.send(());
        });
        Captured { kept, done }
    }

    /// What was read, once the pipe reached its end, or once the program is gone and the
    /// pipe has been quiet for a moment: a stray descendant that escaped every kill may
    /// hold the pipe open without writing, and what the program itself wrote is in
    /// already (at most a pipe's buffer was left to read when it ended).
    pub(super) fn take(self) -> String {
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
