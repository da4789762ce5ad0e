//! A program spoken to line by line: dominofit's own worker processes, which receive a
//! task on standard input and answer one line at a time.

use std::io::{BufRead, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Duration;

use super::RunError;
use super::capture::{Captured, Keep};
use crate::interrupt::GroupGuard;

/// How much of a worker's standard error is kept: what it says when an allocation fails.
const KEPT: usize = 16 * 1024;

/// A running program, its standard input open to us and its standard output read line by
/// line on a thread of its own.
pub struct Conversation {
    child: Child,
    group: GroupGuard,
    input: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    stderr: Captured,
}

/// What [`Conversation::listen`] heard.
pub enum Heard {
    /// A line of standard output, without its end.
    Line(String),
    /// Nothing yet.
    Nothing,
    /// Standard output is closed: the program ended, or will say nothing more.
    Closed,
}

/// What a conversation left once the program is gone.
pub struct Ended {
    /// How it exited, when it was reaped (`None`: its status was lost).
    pub status: Option<ExitStatus>,
    /// The end of its standard error.
    pub stderr: String,
}

impl Ended {
    /// The memory-out its standard error reports, under the `--memory` limit.
    pub fn memout(&self) -> Option<RunError> {
        super::memout(false, &self.stderr)
    }
}

impl Conversation {
    /// Starts `command` in a group of its own with all three pipes.
    ///
    /// # Errors
    /// The program cannot be started, or the user interrupted.
    pub fn start(mut command: Command) -> Result<Conversation, RunError> {
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let (mut child, group) = super::start(&mut command)?;
        let input = child.stdin.take();
        let stderr = Captured::start(
            child.stderr.take(),
            Keep::Tail(KEPT),
            Arc::new(AtomicBool::new(false)),
        );
        let (tx, lines) = mpsc::channel::<String>();
        if let Some(stdout) = child.stdout.take() {
            std::thread::spawn(move || {
                for line in std::io::BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        Ok(Conversation {
            child,
            group,
            input,
            lines,
            stderr,
        })
    }

    /// Writes `line` (and its end) to the program's standard input and flushes it.
    ///
    /// # Errors
    /// The program stopped listening.
    pub fn say(&mut self, line: &[u8]) -> std::io::Result<()> {
        let input = self
            .input
            .as_mut()
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        input.write_all(line)?;
        input.write_all(b"\n")?;
        input.flush()
    }

    /// The next line of standard output, waiting at most `timeout` for it.
    pub fn listen(&self, timeout: Duration) -> Heard {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Heard::Line(line),
            Err(mpsc::RecvTimeoutError::Timeout) => Heard::Nothing,
            Err(mpsc::RecvTimeoutError::Disconnected) => Heard::Closed,
        }
    }

    /// Ends the conversation: the program's group is killed, whatever it was doing (its
    /// answer is in, or no longer wanted), and it is reaped by `wait4`, so that a race
    /// sees its peak memory.
    pub fn end(self) -> Ended {
        let Conversation {
            mut child,
            group,
            input,
            lines,
            stderr,
        } = self;
        drop(input);
        drop(group);
        drop(lines);
        let status = match crate::usage::wait_child(child.id() as i32) {
            Some((status, _)) => Some(status),
            None => child.wait().ok(),
        };
        Ended {
            status,
            stderr: stderr.take(),
        }
    }
}
