//! A program's output pipes, read to their end on threads of their own so that a chatty
//! program never blocks on a full pipe.

use std::io::Read;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use crate::time::Instant;

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
                        // A signal handled on this thread (a host's handlers are
                        // installed without SA_RESTART) is no end of the pipe.
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
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
        Captured {
            kept,
            done,
            pipe: duplicate,
            waiting,
        }
    }

    /// What was read, once the pipe reached its end; called once the program is gone.
    ///
    /// While every writer has closed the pipe, this waits for the reader to reach its
    /// end of file, however long the reader takes to be scheduled: what is left is at most
    /// a pipe's buffer, and a starved thread must not lose an answer. A pipe still held
    /// open by a stray descendant that escaped every kill is given up on once the reader
    /// has been idle for a quiet moment, or after [`STRAY_GRACE`] whatever the stray
    /// writes: what the program itself wrote is in by then.
    pub(super) fn take(self) -> String {
        const QUIET: Duration = Duration::from_millis(100);
        let started = Instant::now();
        let mut quiet_since: Option<Instant> = None;
        loop {
            match self.done.recv_timeout(Duration::from_millis(10)) {
                Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            let held_open = match self.pipe_state() {
                Pipe::Closed => {
                    quiet_since = None;
                    continue;
                }
                Pipe::Holding => false,
                Pipe::Open | Pipe::Unknown => true,
            };
            if started.elapsed() >= STRAY_GRACE {
                break;
            }
            let idle = held_open && self.waiting.load(Ordering::SeqCst);
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

    /// What the pipe holds and who still holds it.
    fn pipe_state(&self) -> Pipe {
        let Some(pipe) = &self.pipe else {
            return Pipe::Unknown;
        };
        let mut fds = [PollFd::new(pipe.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, PollTimeout::ZERO) {
            Ok(0) => Pipe::Open,
            Ok(_) => match fds[0].revents() {
                Some(events) if events.contains(PollFlags::POLLHUP) => Pipe::Closed,
                _ => Pipe::Holding,
            },
            Err(Errno::EINTR) => Pipe::Holding,
            Err(_) => Pipe::Unknown,
        }
    }
}

/// How long a pipe that a stray descendant still holds open is waited for.
const STRAY_GRACE: Duration = Duration::from_secs(2);

/// A pipe as `poll` sees it once the program is gone.
enum Pipe {
    /// Every writer closed it: its end of file is due (after what is left in it).
    Closed,
    /// Bytes are waiting and a writer still holds it.
    Holding,
    /// Empty, and a writer still holds it.
    Open,
    /// It could not be asked.
    Unknown,
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

    /// A pipe whose first read is interrupted by a signal, as on a thread of a host
    /// whose handlers are installed without SA_RESTART.
    struct Interrupted(std::io::PipeReader, bool);

    impl Read for Interrupted {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            if !self.1 {
                self.1 = true;
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            self.0.read(buffer)
        }
    }

    impl AsFd for Interrupted {
        fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
            self.0.as_fd()
        }
    }

    #[test]
    fn a_read_interrupted_by_a_signal_goes_on() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        writer.write_all(b"s UNSATISFIABLE\n").unwrap();
        drop(writer);
        let captured = Captured::start(
            Some(Interrupted(reader, false)),
            Keep::All(1 << 20),
            flood(),
        );
        assert_eq!(captured.take(), "s UNSATISFIABLE\n");
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
        let started = Instant::now();
        let text = captured.take();
        assert!(started.elapsed() < Duration::from_secs(10));
        stop.store(true, Ordering::SeqCst);
        assert!(text.len() <= TAIL && !text.is_empty());
        // The reader's thread still holds the read end; a write may block until it is
        // closed, which ends with the test process.
        drop(stray);
    }
}
