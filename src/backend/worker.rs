//! In-process solvers that cannot be stopped, run in a worker process that can.
//!
//! varisat has no way to interrupt a running `solve()`, and microlp, HiGHS and CBC look
//! at their time limits only between phases (on a 1024×1024 board microlp answered a
//! time limit of 1 s after 4–9 s, CBC after more than two minutes). In a thread, an
//! abandoned solve keeps a core busy after dominofit has answered, and holds up the
//! answer itself. So a program that registered a worker command ([`register`]: the
//! `dominofit` binary passes itself, the Python package its interpreter) runs these
//! backends as a child process, killed with its process group at the deadline, on a stop
//! or on Ctrl-C. The child (`… worker-solve`, a hidden subcommand) and the parent speak
//! one JSON object a line:
//!
//! * parent, first: `{"backend", "encoding", "limit", "families", "instance"}`; the child
//!   compiles the instance itself, which gives the parent's model placement for
//!   placement (compilation is deterministic);
//! * child: `{"found": [ids]}` for a tiling, then it waits for a line: `more` to go on,
//!   anything else (`stop`, or a closed pipe) to stop, and then it sends its last line;
//! * child, last: `{"end": ENDING, "counters": {...}}`, or
//!   `{"error": {"kind": "unsupported" | "too-large" | "failed", "message": "..."}}`.
//!
//! Starting the process and compiling the board again cost a few milliseconds a call
//! (BENCHMARKS.md). Library users that register no command keep the in-process solve.

use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::backend::{
    Backend, BackendError, BackendOptions, Budget, Control, Counters, Ending, Outcome, SolveResult,
};
use crate::model::{Families, Model, PlacementId};
use crate::process::{Conversation, Heard, POLL, RunError};
use crate::time::Instant;

/// The command that starts a worker (program and leading arguments), once registered.
static COMMAND: OnceLock<Vec<OsString>> = OnceLock::new();

/// Set in a worker process itself: its backends solve in-process.
static INSIDE: AtomicBool = AtomicBool::new(false);

/// How long a worker told to stop has to send its counters before it is killed.
const STOP_GRACE: Duration = Duration::from_millis(200);

/// From now on, in-process solvers that cannot be stopped run as `COMMAND… worker-solve
/// BACKEND` (and proofs as `COMMAND… worker-prove …`): the `dominofit` binary passes
/// itself; a host such as the Python package passes an interpreter and the arguments
/// that make it call [`main`].
pub fn register(command: Vec<OsString>) {
    if !command.is_empty() {
        let _ = COMMAND.set(command);
    }
}

/// The worker command, when one was registered and this process is not a worker itself.
pub fn command() -> Option<&'static [OsString]> {
    if INSIDE.load(Ordering::Relaxed) {
        return None;
    }
    COMMAND.get().map(Vec::as_slice)
}

/// A [`Command`] for `COMMAND… ARGS…`.
pub fn start(command: &[OsString], args: &[&std::ffi::OsStr]) -> Command {
    let mut out = Command::new(&command[0]);
    out.args(&command[1..]).args(args);
    out
}

/// The first line the parent writes.
#[derive(Serialize, Deserialize)]
struct Task {
    backend: String,
    encoding: String,
    limit: usize,
    families: String,
    instance: serde_json::Value,
}

/// A line the child writes.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Said {
    Found(Vec<PlacementId>),
    End {
        end: Ending,
        counters: Box<Counters>,
    },
    Error {
        kind: ErrorKind,
        message: String,
    },
}

#[derive(Serialize, Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum ErrorKind {
    Unsupported,
    TooLarge,
    Failed,
}

/// Builds the built-in backend of a name (the registry's `build_builtin`): given by the
/// caller, since the registry sits above the engines that use workers.
pub type Builder = fn(&str, &BackendOptions) -> Option<Box<dyn Backend>>;

/// The child's side: reads the task, solves it in-process with the backend `build`
/// makes, and reports each tiling, until the parent stops asking or the search ends.
/// Nothing on standard output but the lines of the protocol.
///
/// # Errors
/// The pipes fail, or the task is not one the parent writes.
pub fn main(
    backend: &str,
    build: Builder,
    mut input: impl BufRead,
    mut out: impl Write,
) -> std::io::Result<()> {
    INSIDE.store(true, Ordering::SeqCst);
    let bad = |e: &dyn std::fmt::Display| std::io::Error::other(format!("worker task: {e}"));
    let mut line = String::new();
    input.read_line(&mut line)?;
    let task: Task = serde_json::from_str(&line).map_err(|e| bad(&e))?;
    if task.backend != backend {
        return Err(bad(&"the task names another backend"));
    }
    let encoding = task.encoding.parse().map_err(|e| bad(&e))?;
    let families: Families = task.families.parse().map_err(|e| bad(&e))?;
    let instances =
        crate::puzzle::parse::parse_given_instances(&task.instance.to_string(), "<task>", "task")
            .map_err(|e| bad(&e))?;
    let [instance] = <[_; 1]>::try_from(instances).map_err(|_| bad(&"not one instance"))?;
    let options = BackendOptions {
        encoding,
        ..BackendOptions::default()
    };
    let solver = build(backend, &options).ok_or_else(|| bad(&"unknown backend"))?;
    let model = crate::model::compile(&instance, families);
    let mut broken: Option<std::io::Error> = None;
    let say = |out: &mut dyn Write, said: &Said| -> std::io::Result<()> {
        serde_json::to_writer(&mut *out, said)?;
        out.write_all(b"\n")?;
        out.flush()
    };
    let solved = solver.solve(&model, task.limit, &Budget::unlimited(), &mut |ids| {
        if let Err(e) = say(&mut out, &Said::Found(ids.to_vec())) {
            broken = Some(e);
            return Control::Stop;
        }
        line.clear();
        match input.read_line(&mut line) {
            Ok(_) if line.trim() == "more" => Control::Continue,
            Ok(_) => Control::Stop,
            Err(e) => {
                broken = Some(e);
                Control::Stop
            }
        }
    });
    if let Some(e) = broken {
        return Err(e);
    }
    let said = match solved {
        Ok(outcome) => Said::End {
            end: outcome.ending,
            counters: Box::new(outcome.counters),
        },
        Err(error) => {
            let (kind, message) = match error {
                BackendError::Unsupported { reason, .. } => (ErrorKind::Unsupported, reason),
                BackendError::TooLarge { reason, .. } => (ErrorKind::TooLarge, reason),
                BackendError::Failed { message, .. } => (ErrorKind::Failed, message),
                other => (ErrorKind::Failed, other.to_string()),
            };
            Said::Error { kind, message }
        }
    };
    say(&mut out, &said)
}

/// What the parent asks a worker to solve.
pub(super) struct Job<'a> {
    /// The backend's name as the user chose it, for messages (`varisat:sequential`).
    pub name: &'a str,
    /// The built-in backend the worker runs.
    pub backend: &'a dyn Backend,
    /// Its cardinality encoding, for the SAT backends.
    pub encoding: crate::encode::Encoding,
    /// The model, compiled again in the worker from its board and families.
    pub model: &'a Model,
    /// The solution limit (0: all).
    pub limit: usize,
}

/// The parent's side: starts the worker for `backend` (a built-in name) on `model`, hands
/// each tiling to `sink`, and kills the worker at the deadline, on a stop or on Ctrl-C.
/// `counters` are what the parent knows before the worker answers (a formula's size),
/// kept when the worker is killed.
///
/// # Errors
/// The worker cannot be started, breaks the protocol, or reports a failure.
pub(super) fn solve(
    command: &[OsString],
    job: Job,
    budget: &Budget,
    counters: Counters,
    sink: &mut crate::backend::Sink,
) -> SolveResult {
    let Job {
        name,
        backend,
        encoding,
        model,
        limit,
    } = job;
    let failed = |message: String| BackendError::Failed {
        backend: name.to_string(),
        message,
    };
    let task = Task {
        backend: backend.name().to_string(),
        encoding: encoding.name().to_string(),
        limit,
        families: model.families.name().to_string(),
        instance: serde_json::from_str(&model.instance.to_json())
            .map_err(|e| failed(format!("cannot describe the board to the worker: {e}")))?,
    };
    let started = Conversation::start(start(
        command,
        &["worker-solve".as_ref(), backend.name().as_ref()],
    ));
    let mut worker = match started {
        Ok(worker) => worker,
        Err(RunError::Interrupted) => return Err(BackendError::Interrupted),
        Err(e) => return Err(failed(format!("cannot start the worker process: {e}"))),
    };
    let sent = serde_json::to_vec(&task)
        .map_err(std::io::Error::from)
        .and_then(|task| worker.say(&task));
    let mut ended = match sent {
        Ok(()) => None,
        Err(_) => Some(Err(failed("the worker process stopped listening".into()))),
    };
    // Set once the sink took its last tiling: the worker is told to stop, and its last
    // line (its counters) is waited for only briefly, since the answer is already known.
    let mut stopping: Option<Instant> = None;
    while ended.is_none() {
        let stopped_long_ago = stopping.is_some_and(|at| at.elapsed() >= STOP_GRACE);
        if budget.expired() || stopped_long_ago {
            let ending = if stopping.is_some() {
                Ending::Stopped
            } else {
                Ending::Timeout
            };
            ended = Some(Ok(Outcome {
                ending,
                counters: counters.clone(),
            }));
            break;
        }
        let slice = budget.deadline.map_or(POLL, |d| {
            d.saturating_duration_since(Instant::now()).min(POLL)
        });
        let line = match worker.listen(slice) {
            Heard::Line(line) => line,
            Heard::Nothing => continue,
            Heard::Closed => {
                ended = Some(Err(failed(
                    "the worker process stopped without an answer".into(),
                )));
                break;
            }
        };
        let said: Said = match serde_json::from_str(&line) {
            Ok(said) => said,
            Err(_) => {
                let shown = crate::escape::terminal(&line.chars().take(200).collect::<String>());
                ended = Some(Err(failed(format!("the worker process said `{shown}`"))));
                break;
            }
        };
        ended = match said {
            Said::Found(_) if stopping.is_some() => Some(Err(failed(
                "the worker process went on after it was stopped".into(),
            ))),
            Said::Found(ids) => {
                let wanted = sink(&ids);
                if wanted == Control::Stop {
                    stopping = Some(Instant::now());
                }
                let reply: &[u8] = match wanted {
                    Control::Continue => b"more",
                    Control::Stop => b"stop",
                };
                match (worker.say(reply), wanted) {
                    (Ok(()), _) => None,
                    (_, Control::Stop) => Some(Ok(Outcome {
                        ending: Ending::Stopped,
                        counters: counters.clone(),
                    })),
                    _ => Some(Err(failed("the worker process stopped listening".into()))),
                }
            }
            Said::End {
                end,
                counters: told,
            } => Some(Ok(Outcome {
                // After a stop the worker's search ended because the sink said so.
                ending: if stopping.is_some() {
                    Ending::Stopped
                } else {
                    end
                },
                counters: merged(counters.clone(), *told),
            })),
            Said::Error { kind, message } => Some(Err(match kind {
                ErrorKind::Unsupported => BackendError::Unsupported {
                    backend: name.to_string(),
                    reason: message,
                },
                ErrorKind::TooLarge => BackendError::TooLarge {
                    backend: name.to_string(),
                    reason: message,
                },
                ErrorKind::Failed => failed(message),
            })),
        };
    }
    // Killing the group frees the core whatever the worker was doing.
    let gone = worker.end();
    let stderr = gone.stderr.as_str();
    let ended = match ended {
        Some(ended) => ended,
        None => Err(failed("the worker process ended without an answer".into())),
    };
    let ended = match (ended, gone.memout()) {
        (Err(BackendError::Failed { .. }), Some(memout)) => Err(BackendError::Run {
            backend: name.to_string(),
            source: memout,
        }),
        (Err(BackendError::Failed { message, .. }), None) if !stderr.trim().is_empty() => {
            let said = stderr.trim().lines().last().unwrap_or_default();
            Err(failed(format!(
                "{message} ({})",
                crate::escape::terminal(said)
            )))
        }
        (ended, _) => ended,
    };
    let decisive =
        matches!(&ended, Ok(o) if matches!(o.ending, Ending::Exhausted | Ending::Stopped));
    if crate::interrupt::requested() && !decisive {
        return Err(BackendError::Interrupted);
    }
    ended
}

/// What the parent knew, overwritten by what the worker counted. The destructuring
/// names every field, so a new counter cannot be forgotten here.
fn merged(mut known: Counters, told: Counters) -> Counters {
    macro_rules! overlay {
        ($($field:ident),*) => {{
            let Counters { $($field,)* set_aside } = told;
            $(known.$field = $field.or(known.$field);)*
            known.set_aside.extend(set_aside);
        }};
    }
    overlay!(
        nodes,
        forced,
        cache_hits,
        restarts,
        vars,
        repeat,
        clauses,
        constraints,
        conflicts,
        moves,
        filtered,
        states,
        refuted,
        proof_steps,
        winner
    );
    known
}
