//! A portfolio: several backends on the same model in parallel threads; the first to
//! give a decisive answer wins and the others are stopped. The first member runs alone
//! for a moment first, so that boards it decides at once cost no threads.
//!
//! Each member searches with its own sink and keeps what it finds; a member is decisive
//! when it reached the solution limit or exhausted its search. Then the stop flag of the
//! shared [`Budget`] is raised, the others return at their next look at the budget, and
//! the winner's tilings go to the caller's sink, so `backend::run` verifies them and
//! derives the status as for any backend. The status cannot depend on which member won:
//! every member is exact, so an exhausted search and a full set of solutions mean the
//! same from any of them.
//!
//! Members must stop when asked. In-process solvers that cannot be interrupted
//! (varisat, the good_lp solvers) are refused as members: their external counterparts
//! (`cadical`, `kissat`, `cbc`, `glpsol`) run as processes that are killed.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Backend, BackendError, Budget, Control, Counters, Ending, Outcome};
use crate::model::{Families, Model, PlacementId};

/// The portfolio backend.
pub struct Portfolio {
    name: String,
    members: Arc<Vec<Box<dyn Backend>>>,
    head_start: std::time::Duration,
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
    result: Result<Outcome, BackendError>,
    found: Vec<Vec<PlacementId>>,
}

impl Portfolio {
    /// A portfolio of `members`, named `name` in reports.
    pub fn new(name: String, members: Vec<Box<dyn Backend>>) -> Portfolio {
        Portfolio {
            name,
            members: Arc::new(members),
            head_start: HEAD_START,
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
const HEAD_START: std::time::Duration = std::time::Duration::from_millis(2);

impl Portfolio {
    /// The first member alone for its head start: its outcome when it decided (its
    /// tilings passed on to `sink`), `None` when the race must run.
    fn head_start(
        &self,
        model: &Model,
        limit: usize,
        budget: &Budget,
        sink: &mut dyn FnMut(&[PlacementId]) -> Control,
    ) -> Result<Option<Outcome>, BackendError> {
        let Some(first) = self.members.first() else {
            return Ok(None);
        };
        if self.head_start.is_zero() {
            return Ok(None);
        }
        let short = Budget {
            deadline: Some(
                budget
                    .deadline
                    .map_or(std::time::Instant::now() + self.head_start, |d| {
                        d.min(std::time::Instant::now() + self.head_start)
                    }),
            ),
            stop: budget.stop.clone(),
        };
        let finish = run_member(0, first.as_ref(), model, limit, &short);
        if !decisive(&finish) {
            return Ok(None);
        }
        let Ok(outcome) = finish.result else {
            return Ok(None);
        };
        let ending = pass_on(&finish.found, outcome.ending, sink);
        let mut counters = outcome.counters;
        counters.winner = Some(first.name().to_string());
        Ok(Some(Outcome { ending, counters }))
    }
}

/// One member's search with a sink of its own, keeping what it finds up to the limit.
fn run_member(
    member: usize,
    backend: &dyn Backend,
    model: &Model,
    limit: usize,
    budget: &Budget,
) -> Finish {
    let mut found: Vec<Vec<PlacementId>> = Vec::new();
    let result = backend.solve(model, limit, budget, &mut |ids| {
        found.push(ids.to_vec());
        if (limit != 0 && found.len() >= limit) || found.len() >= super::MAX_STORED_SOLUTIONS {
            Control::Stop
        } else {
            Control::Continue
        }
    });
    Finish {
        member,
        result,
        found,
    }
}

/// Hands the winner's tilings to the caller's sink; an exhausted search the sink
/// stopped early ends `Stopped`, as any backend's would.
fn pass_on(
    found: &[Vec<PlacementId>],
    ending: Ending,
    sink: &mut dyn FnMut(&[PlacementId]) -> Control,
) -> Ending {
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

    /// The richest families: every member reads the quota groups it knows from them.
    fn default_families(&self) -> Families {
        Families::Colour
    }

    fn solve(
        &self,
        model: &Model,
        limit: usize,
        budget: &Budget,
        sink: &mut dyn FnMut(&[PlacementId]) -> Control,
    ) -> Result<Outcome, BackendError> {
        // Most boards are decided by the first member in well under the cost of
        // starting threads: give it a head start alone, and race only what it leaves.
        if let Some(outcome) = self.head_start(model, limit, budget, sink)? {
            return Ok(outcome);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let member_budget = Budget {
            deadline: budget.deadline,
            stop: Some(stop.clone()),
        };
        let outer = budget.clone();
        let (tx, rx) = std::sync::mpsc::channel::<Finish>();
        // Members run on threads of their own with a copy of the model, so that the
        // answer is returned as soon as one member decides: a member that is inside a
        // step it cannot leave at once (an LP solve, bounded by its own time limit)
        // finishes in the background instead of holding the answer back.
        let shared = Arc::new(model.clone());
        for member in 0..self.members.len() {
            let tx = tx.clone();
            let budget = member_budget.clone();
            let members = self.members.clone();
            let model = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("portfolio-{member}"))
                .spawn(move || {
                    let _ = tx.send(run_member(
                        member,
                        members[member].as_ref(),
                        &model,
                        limit,
                        &budget,
                    ));
                });
            if let Err(e) = spawned {
                stop.store(true, Ordering::SeqCst);
                return Err(BackendError::Failed {
                    backend: self.name.clone(),
                    message: format!("cannot start a member thread: {e}"),
                });
            }
        }
        drop(tx);
        let mut finishes: Vec<Finish> = Vec::new();
        // The first decisive finish stops the others and ends the wait; a caller's own
        // stop (an outer deadline, an interrupt) is passed on.
        while finishes.len() < self.members.len() {
            match rx.recv_timeout(std::time::Duration::from_millis(20)) {
                Ok(finish) => {
                    let done = decisive(&finish);
                    finishes.push(finish);
                    if done {
                        stop.store(true, Ordering::SeqCst);
                        break;
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if outer.expired() {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
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
            // Every member failed: report the first failure, naming its member.
            let first = finishes
                .into_iter()
                .min_by_key(|f| f.member)
                .map(|f| f.result);
            return match first {
                Some(Err(e)) => Err(BackendError::Failed {
                    backend: self.name.clone(),
                    message: e.to_string(),
                }),
                _ => Err(BackendError::Failed {
                    backend: self.name.clone(),
                    message: "no member ran".to_string(),
                }),
            };
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
        counters.winner = Some(self.members[finish.member].name().to_string());
        Ok(Outcome { ending, counters })
    }
}
