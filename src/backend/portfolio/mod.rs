//! A portfolio: several backends on the same model in parallel threads; the first to
//! give a decisive answer wins and the others are stopped. The first member runs in the
//! caller's thread and starts the others from its first look at its budget after a head
//! start of 10 ms: boards it decides at once cost no threads, and the head start is not
//! work thrown away. The members run in scoped threads, so none outlives the call.
//! When the members fill the cores, the others also wait while the first member's LP
//! refutation runs beside its search (it answers within one LP solve, and three busy
//! threads on two cores slowed every one of them).
//!
//! Each member searches with its own sink and keeps what it finds; a member is decisive
//! when it reached the solution limit or exhausted its search. Then the stop flag of the
//! shared [`Budget`] is raised, the others return at their next look at the budget, and
//! the winner's tilings go to the caller's sink, so `backend::run` verifies them and
//! derives the status as for any backend. The status cannot depend on which member won:
//! every member is exact, so an exhausted search and a full set of solutions mean the
//! same from any of them.
//!
//! A member is trusted with nothing the verifier can check: its tilings are verified
//! against the raw rules before it may win, and a member that returns one that breaks
//! them, crashes, or gives an answer that cannot be read is set aside (named in
//! [`Counters::set_aside`]) while the others go on.
//!
//! Members must stop when asked. In-process solvers that cannot be interrupted
//! (varisat, the good_lp solvers) are refused as members: their external counterparts
//! (`cadical`, `kissat`, `cbc`, `glpsol`) run as processes that are killed.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{
    Backend, BackendError, Beside, Budget, Control, Counters, Ending, FastPath, Outcome, Sink,
    SolveResult,
};
use crate::model::{Families, Model, PlacementId};

/// The cores this process may use, read once: the system call reads cgroup files,
/// and it is asked at budget checks.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(crate::backend::available_threads)
}

/// The portfolio backend.
pub struct Portfolio {
    name: String,
    members: Arc<Vec<Box<dyn Backend>>>,
    head_start: std::time::Duration,
    /// The one slot for work beside a search, shared by the members: they would only
    /// solve the same root LP twice.
    beside: Beside,
}

impl std::fmt::Debug for Portfolio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Portfolio")
            .field("name", &self.name)
            .finish()
    }
}

/// What one member did.
struct Finish {
    member: usize,
    result: SolveResult,
    found: Vec<Vec<PlacementId>>,
    /// The member panicked: its result is an error, and the others are stopped (a
    /// member thread that never reported would keep the portfolio waiting).
    panicked: bool,
}

/// Runs a member, turning a panic into an error finish, so that every member reports.
fn guarded(member: usize, backend: &dyn Backend, run: impl FnOnce() -> Finish) -> Finish {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|_| Finish {
        member,
        result: Err(BackendError::Failed {
            backend: backend.name().to_string(),
            message: "the member panicked".to_string(),
        }),
        found: Vec::new(),
        panicked: true,
    })
}

impl Portfolio {
    /// A portfolio of `members`, named `name` in reports.
    pub fn new(name: String, members: Vec<Box<dyn Backend>>) -> Portfolio {
        Portfolio {
            name,
            members: Arc::new(members),
            head_start: HEAD_START,
            beside: Beside::default(),
        }
    }

    /// How long the first member runs alone before the race (zero: no head start, every
    /// member from the outset).
    pub fn with_head_start(mut self, head_start: std::time::Duration) -> Portfolio {
        self.head_start = head_start;
        self
    }

    /// The members' names.
    pub fn member_names(&self) -> Vec<&str> {
        self.members.iter().map(|m| m.name()).collect()
    }
}

/// How long the first member runs alone before the others are started.
const HEAD_START: std::time::Duration = std::time::Duration::from_millis(10);

/// One member's search with a sink of its own, keeping what it finds up to the limit.
/// A tiling that breaks the rules makes the member's result that error: it cannot win.
fn run_member(
    member: usize,
    backend: &dyn Backend,
    model: &Model,
    limit: usize,
    budget: &Budget,
) -> Finish {
    let mut found: Vec<Vec<PlacementId>> = Vec::new();
    let mut pieces = 0;
    let mut wrong = None;
    let mut result = backend.solve(model, limit, budget, &mut |ids| {
        let tiling = model.decode(ids);
        if let Err(violation) = crate::puzzle::verify::verify(&model.instance, &tiling) {
            wrong = Some(violation);
            return Control::Stop;
        }
        found.push(ids.to_vec());
        pieces += ids.len();
        if (limit != 0 && found.len() >= limit) || super::storage_full(found.len(), pieces) {
            Control::Stop
        } else {
            Control::Continue
        }
    });
    if let Some(violation) = wrong {
        result = Err(BackendError::WrongSolution {
            backend: backend.name().to_string(),
            violation,
        });
    }
    Finish {
        member,
        result,
        found,
        panicked: false,
    }
}

/// Hands the winner's tilings to the caller's sink; an exhausted search the sink
/// stopped early ends `Stopped`, as any backend's would.
fn pass_on(found: &[Vec<PlacementId>], ending: Ending, sink: &mut Sink) -> Ending {
    for ids in found {
        if sink(ids) == Control::Stop {
            return match ending {
                Ending::Exhausted => Ending::Stopped,
                other => other,
            };
        }
    }
    ending
}

fn decisive(finish: &Finish) -> bool {
    matches!(
        &finish.result,
        Ok(Outcome {
            ending: Ending::Exhausted | Ending::Stopped,
            ..
        })
    )
}

impl Backend for Portfolio {
    fn name(&self) -> &str {
        &self.name
    }

    /// Raw sums only when every member reads them; a portfolio always stops when asked.
    fn capabilities(&self) -> super::Capabilities {
        super::Capabilities {
            counts_directly: false,
            takes_raw_sums: self.members.iter().all(|m| m.capabilities().takes_raw_sums),
            takes_encoding: false,
            interruptible: true,
        }
    }

    /// The richest families: every member reads the quota groups it knows from them.
    fn default_families(&self) -> Families {
        Families::ColourSplits
    }

    /// Each member asked in turn: the portfolio of the members logging, which races as
    /// this one does and whose winner's proof is the answer's; `None` when some member
    /// cannot log.
    fn with_proof_logging(&self, log: &mut super::ProofLogging) -> Option<Box<dyn super::Backend>> {
        let logging = (self.members.iter())
            .map(|member| member.with_proof_logging(log))
            .collect::<Option<Vec<_>>>()?;
        Some(Box::new(Portfolio::new(self.name.clone(), logging)))
    }

    /// The members run at once, each with its own state beside the one model.
    fn footprint(&self, rows: usize, cols: usize) -> u64 {
        self.members
            .iter()
            .fold(0u64, |sum, m| sum.saturating_add(m.footprint(rows, cols)))
    }

    /// The first member's fast path, when it has one for this board: a game board is
    /// decided in microseconds, before a thread could start, and compiling the general
    /// model for the race took five times as long as the answer. A board the path gives
    /// up on comes back to [`Portfolio::solve`], where the members race.
    fn fast_path(
        &self,
        instance: &crate::puzzle::Instance,
        families: Option<Families>,
    ) -> Option<Box<dyn FastPath>> {
        let first = self.members.first()?;
        let path = first.fast_path(instance, families)?;
        Some(Box::new(MembersPath {
            path,
            member: first.name().to_string(),
        }))
    }

    fn settle(&self) {
        self.beside.wait_until_free();
        for member in self.members.iter() {
            member.settle();
        }
    }

    fn solve(&self, model: &Model, limit: usize, budget: &Budget, sink: &mut Sink) -> SolveResult {
        if self.members.is_empty() {
            return Err(BackendError::Failed {
                backend: self.name.clone(),
                message: "no member ran".to_string(),
            });
        }
        let decided = Arc::new(AtomicBool::new(false));
        let member_budget = (budget.clone().stopped_also_by(decided.clone()))
            .with_on_check(None)
            .with_beside(budget.beside.clone().unwrap_or_else(|| self.beside.clone()));
        let stop_all = || decided.store(true, Ordering::SeqCst);
        let (tx, rx) = std::sync::mpsc::channel::<Finish>();
        let started = AtomicBool::new(false);
        let spawned = std::sync::atomic::AtomicUsize::new(0);
        let spawn_error: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
        let start_at = crate::time::Instant::now() + self.head_start;
        let members = &self.members;
        let name = &self.name;
        let mut finishes: Vec<Finish> = Vec::new();
        std::thread::scope(|scope| {
            // Starts members 1.. on threads of their own, once: from the first member's
            // looks at its budget after the head start, or when it ended undecided.
            let start_others = |now: bool| {
                if budget.stopped() {
                    stop_all();
                }
                // While the first member's LP refutation runs beside its search, the two
                // may fill the cores; another busy thread would slow all of them.
                if !now
                    && (crate::time::Instant::now() < start_at
                        || (member_budget.beside.as_ref().is_some_and(Beside::busy)
                            && members.len() >= cores()))
                {
                    return;
                }
                if started.swap(true, Ordering::SeqCst) {
                    return;
                }
                for member in 1..members.len() {
                    let tx = tx.clone();
                    let budget = member_budget.clone();
                    let stop_all = &stop_all;
                    let thread = std::thread::Builder::new()
                        .name(format!("portfolio-{member}"))
                        .spawn_scoped(scope, move || {
                            let finish = guarded(member, members[member].as_ref(), || {
                                run_member(member, members[member].as_ref(), model, limit, &budget)
                            });
                            if decisive(&finish) {
                                stop_all();
                            }
                            let _ = tx.send(finish);
                        });
                    match thread {
                        Ok(_) => {
                            spawned.fetch_add(1, Ordering::SeqCst);
                        }
                        Err(e) => {
                            // The members that did start race on; the error is reported
                            // only if none of them decides.
                            if let Ok(mut slot) = spawn_error.lock() {
                                *slot = Some(format!("cannot start a member thread: {e}"));
                            }
                            return;
                        }
                    }
                }
            };
            let on_check = || start_others(false);
            let first_budget = member_budget.clone().with_on_check(Some(&on_check));
            // The first member in this thread: boards it decides within its head start
            // cost no threads, and what it did before the others started is not lost.
            let first = guarded(0, members[0].as_ref(), || {
                run_member(0, members[0].as_ref(), model, limit, &first_budget)
            });
            if decisive(&first) || member_budget.expired() || first.panicked {
                stop_all();
            } else {
                start_others(true);
            }
            finishes.push(first);
            // The others: the first decisive one stops the rest; a caller's own stop (an
            // outer deadline, an interrupt) is passed on. Leaving the scope joins every
            // thread, and each member looks at the stop flag at every node, so none
            // outlives the call.
            let mut waiting = spawned.load(Ordering::SeqCst);
            while waiting > 0 {
                match rx.recv_timeout(std::time::Duration::from_millis(20)) {
                    Ok(finish) => {
                        waiting -= 1;
                        if decisive(&finish) {
                            stop_all();
                        }
                        finishes.push(finish);
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                        if budget.expired() {
                            stop_all();
                        }
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
        });
        if let Ok(mut slot) = spawn_error.lock()
            && let Some(message) = slot.take()
            && !finishes.iter().any(decisive)
        {
            return Err(BackendError::Failed {
                backend: name.clone(),
                message,
            });
        }
        let winner = finishes
            .iter()
            .position(decisive)
            // Nobody decided: the member that found the most, so a partial answer is
            // as good as the best one seen.
            .or_else(|| {
                finishes
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| f.result.is_ok())
                    .max_by_key(|(_, f)| f.found.len())
                    .map(|(k, _)| k)
            });
        let Some(winner) = winner else {
            // Every member failed: each failure, in member order.
            finishes.sort_by_key(|f| f.member);
            let mut failures = Vec::new();
            for finish in finishes {
                match finish.result {
                    Err(BackendError::Interrupted) => return Err(BackendError::Interrupted),
                    Err(e) => failures.push(e.to_string()),
                    Ok(_) => {}
                }
            }
            let message = if failures.is_empty() {
                "no member ran".to_string()
            } else {
                format!("every member failed: {}", failures.join("; "))
            };
            return Err(BackendError::Failed {
                backend: name.clone(),
                message,
            });
        };
        let finish = &finishes[winner];
        let Ok(outcome) = &finish.result else {
            unreachable!("the winner finished without an error");
        };
        let ending = pass_on(&finish.found, outcome.ending, sink);
        if crate::interrupt::requested() && !decisive(finish) {
            return Err(BackendError::Interrupted);
        }
        let mut counters: Counters = outcome.counters.clone();
        // A member "wins" only a decisive answer; an undecided portfolio has no winner.
        counters.winner = decisive(finish).then(|| self.members[finish.member].name().to_string());
        let mut set_aside: Vec<&Finish> = finishes
            .iter()
            .filter(|f| matches!(&f.result, Err(e) if !matches!(e, BackendError::Interrupted)))
            .collect();
        set_aside.sort_by_key(|f| f.member);
        counters.set_aside = set_aside
            .into_iter()
            .filter_map(|f| f.result.as_ref().err())
            .map(|e| e.to_string())
            .collect();
        Ok(Outcome { ending, counters })
    }
}

/// A member's fast path, its decisive answers named as the portfolio's winner.
struct MembersPath {
    path: Box<dyn FastPath>,
    member: String,
}

impl FastPath for MembersPath {
    fn search(
        &self,
        limit: usize,
        budget: &Budget,
        each: &mut dyn FnMut(crate::backend::Compact) -> Control,
    ) -> Outcome {
        let mut outcome = self.path.search(limit, budget, each);
        if matches!(outcome.ending, Ending::Exhausted | Ending::Stopped) {
            outcome.counters.winner = Some(self.member.clone());
        }
        outcome
    }

    fn decode(&self, tiling: crate::backend::Compact) -> crate::puzzle::Solution {
        self.path.decode(tiling)
    }
}
