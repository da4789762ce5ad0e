//! A program's output pipes, read to their end on threads of their own so that a chatty
//! program never blocks on a full pipe.

use std::io::Read;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::fcntl::{FcntlArg, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

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
    /// The pipe's read end, duplicated, to ask whether anything is left to read.
    pipe: Option<OwnedFd>,
    /// Raised while the reader waits inside `read`, lowered while it handles what it read.
    waiting: Arc<AtomicBool>,
    /// Bytes read so far, kept or not.
    total: Arc<AtomicUsize>,
}

impl Captured {
    /// Starts reading `pipe`; `flood` is raised when it overflows [`Keep::All`].
    pub(super) fn start(
        pipe: Option<impl Read + AsFd + Send + 'static>,
        keep: Keep,
        flood: Arc<AtomicBool>,
    ) -> Captured {
        let (tx, done) = mpsc::channel();
        let kept = Arc::new(Mutex::new(Vec::new()));
        let waiting = Arc::new(AtomicBool::new(false));
        let total = Arc::new(AtomicUsize::new(0));
        let counted = total.clone();
        let duplicate = pipe
            .as_ref()
            .and_then(|p| p.as_fd().try_clone_to_owned().ok());
        let shared = kept.clone();
        let in_read = waiting.clone();
        std::thread::spawn(move || {
            if let Some(mut pipe) = pipe {
                let mut buffer = [0u8; 64 * 1024];
                loop {
                    in_read.store(true, Ordering::SeqCst);
                    let read = pipe.read(&mut buffer);
                    in_read.store(false, Ordering::SeqCst);
                    let n = match read {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    counted.fetch_add(n, Ordering::SeqCst);
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
        Captured {
            kept,
            done,
            pipe: duplicate,
            waiting,
            total,
        }
    }

    /// What was read, once the pipe reached its end; called once the program is gone.
    ///
    /// As long as the pipe has bytes left, or its end of file is still to be read, or the
    /// reader is busy with what it read, this waits, however long the reader takes to be
    /// scheduled: a starved thread must not lose an answer. Only a pipe that is empty and
    /// still open while the reader waits in `read` is given up on, after a quiet moment:
    /// a stray descendant that escaped every kill holds it open without writing, and
    /// what the program itself wrote is in already. Nor is a pipe waited for past what
    /// it could hold when the program ended: more than that comes from such a stray.
    pub(super) fn take(self) -> String {
        const QUIET: Duration = Duration::from_millis(100);
        let mut quiet_since: Option<Instant> = None;
        let at_exit = self.total.load(Ordering::SeqCst);
        // What was left in the pipe, and one read the reader may have had in hand.
        let left = self.capacity() + 64 * 1024;
        loop {
            match self.done.recv_timeout(Duration::from_millis(10)) {
                Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if self.total.load(Ordering::SeqCst) - at_exit > left {
                break;
            }
            let idle = self.waiting.load(Ordering::SeqCst) && !self.pipe_readable();
            if !idle {
                quiet_since = None;
                continue;
            }
            let since = *quiet_since.get_or_insert_with(Instant::now);
            if since.elapsed() >= QUIET {
                break;
            }
        }
        let kept = self.kept.lock().map(|k| k.clone()).unwrap_or_default();
        String::from_utf8_lossy(&kept).into_owned()
    }

    /// Whether a `read` of the pipe would return at once: bytes are waiting, or every
    /// writer has closed it (its end of file is due). A pipe that cannot be asked counts
    /// as readable, so that nothing is given up on by mistake; the reader's own end of
    /// file then ends the wait.
    fn pipe_readable(&self) -> bool {
        let Some(pipe) = &self.pipe else {
            return false;
        };
        let mut fds = [PollFd::new(pipe.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, PollTimeout::ZERO) {
            Ok(0) => false,
            Ok(_) | Err(Errno::EINTR) => true,
            Err(_) => false,
        }
    }

    /// How many bytes the pipe holds at most; when it cannot be asked, 1 MiB, the most an
    /// unprivileged program may set.
    fn capacity(&self) -> usize {
        self.pipe
            .as_ref()
            .and_then(|pipe| fcntl(pipe, FcntlArg::F_GETPIPE_SZ).ok())
            .and_then(|size| usize::try_from(size).ok())
            .unwrap_or(1 << 20)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A pipe's read end whose reader is descheduled for a long time before each read,
    /// as a starved thread in a busy VM is.
    struct Starved(std::io::PipeReader);

    impl Read for Starved {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            std::thread::sleep(Duration::from_millis(400));
            self.0.read(buffer)
        }
    }

    impl AsFd for Starved {
        fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
            self.0.as_fd()
        }
    }

    fn flood() -> Arc<AtomicBool> {
        Arc::new(AtomicBool::new(false))
    }

    #[test]
    fn a_starved_reader_still_reads_what_an_ended_program_wrote() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let captured = Captured::start(Some(Starved(reader)), Keep::All(1 << 20), flood());
        writer.write_all(b"s SATISFIABLE\nv 1 -2 0\n").unwrap();
        // The program ends: its end of the pipe closes.
        drop(writer);
        assert_eq!(captured.take(), "s SATISFIABLE\nv 1 -2 0\n");
    }

    #[test]
    fn a_pipe_held_open_by_a_silent_stray_is_given_up_on() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let captured = Captured::start(Some(reader), Keep::Tail(TAIL), flood());
        writer.write_all(b"said before exiting").unwrap();
        // `writer` stays open, as in a descendant that escaped the kill.
        let started = Instant::now();
        assert_eq!(captured.take(), "said before exiting");
        assert!(started.elapsed() < Duration::from_secs(30));
        drop(writer);
    }

    #[test]
    fn a_stray_that_never_stops_writing_is_given_up_on() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let captured = Captured::start(Some(reader), Keep::Tail(TAIL), flood());
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let stray = std::thread::spawn(move || {
            while !stopped.load(Ordering::SeqCst) {
                if writer.write_all(&[b'x'; 4096]).is_err() {
                    break;
                }
            }
        });
        let text = captured.take();
        stop.store(true, Ordering::SeqCst);
        assert!(text.len() <= TAIL && !text.is_empty());
        // The reader's thread still holds the read end; a write may block until it is
        // closed, which ends with the test process.
        drop(stray);
    }
}
