//! SAT backends: the CNF lowering solved in-process, more solutions by blocking clauses
//! over the placement variables only (so auxiliary variables of an encoding can never
//! multiply the count), all in one incremental solver.
//!
//! varisat, the pure-Rust default, has no way to interrupt a running `solve()` (no
//! terminate callback, no conflict limit; upstream issue jix/varisat#111). The
//! `dominofit` binary and the Python package therefore run it in a worker process
//! ([`super::worker`]), killed at the deadline. Library users that did not ask for that
//! keep a worker thread: at the deadline dominofit stops waiting and reports `unknown`,
//! and the abandoned thread stops at the end of its current `solve()` call, which may
//! keep one core busy for a while after the answer is printed.

use std::sync::mpsc;
use std::time::Duration;

use crate::backend::{
    Backend, BackendError, Budget, Capabilities, Control, Counters, Ending, Outcome, Sink,
    SolveResult,
};
use crate::encode::{Encoding, Lit};
use crate::lower::cnf::LoweredCnf;
use crate::model::{Model, PlacementId};
use crate::time::Instant;

/// The in-process SAT solvers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// varisat, pure Rust: the default; it cannot be interrupted, so it runs in a worker
    /// thread.
    Varisat,
    /// CaDiCaL through rustsat (Cargo feature `cadical-lib`): interruptible, so the deadline
    /// stops the solver itself.
    #[cfg(feature = "cadical-lib")]
    Cadical,
}

impl Engine {
    /// The backend name the engine is chosen by and reported under.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Varisat => "varisat",
            #[cfg(feature = "cadical-lib")]
            Engine::Cadical => "cadical-lib",
        }
    }
}

/// A SAT backend: an engine and the cardinality encoding of quota groups.
#[derive(Debug, Clone, Copy)]
pub struct Sat {
    /// The solver that runs the CNF.
    pub engine: Engine,
    /// The cardinality encoding of quota groups in the CNF.
    pub encoding: Encoding,
}

impl Sat {
    /// varisat with the given encoding: the `varisat` and `varisat:ENCODING` backends.
    pub fn varisat(encoding: Encoding) -> Sat {
        Sat {
            engine: Engine::Varisat,
            encoding,
        }
    }

    /// CaDiCaL in-process (feature `cadical-lib`), with the given cardinality encoding.
    #[cfg(feature = "cadical-lib")]
    pub fn cadical(encoding: Encoding) -> Sat {
        Sat {
            engine: Engine::Cadical,
            encoding,
        }
    }
}

/// How often the waiting side looks at the deadline and for an interrupt.
pub(super) const POLL: Duration = Duration::from_millis(20);

/// What the worker tells the waiting side.
enum Report {
    Found(Vec<PlacementId>),
    Exhausted,
    Failed(String),
}

impl Backend for Sat {
    fn name(&self) -> &str {
        self.engine.name()
    }

    fn capabilities(&self) -> Capabilities {
        match self.engine {
            Engine::Varisat => Capabilities::SAT,
            // CaDiCaL asks its terminator between steps: it stops when told.
            #[cfg(feature = "cadical-lib")]
            Engine::Cadical => Capabilities {
                interruptible: true,
                ..Capabilities::SAT
            },
        }
    }

    fn solve(&self, model: &Model, limit: usize, budget: &Budget, sink: &mut Sink) -> SolveResult {
        if self.engine == Engine::Varisat
            && let Some(command) = super::worker::command()
        {
            // Refused here, from the formula's size alone, before a worker is started.
            let size = super::lowering::cnf_size_within_memory(self.name(), model, self.encoding)?;
            let counters = Counters {
                vars: size.map(|s| s.vars),
                clauses: size.map(|s| s.clauses),
                ..Counters::default()
            };
            let job = super::worker::Job {
                name: self.name(),
                backend: self,
                encoding: self.encoding,
                model,
                limit,
            };
            return super::worker::solve(command, job, budget, counters, sink);
        }
        let Some(lowered) = super::lowering::lower_cnf(self.name(), model, self.encoding, budget)?
        else {
            return Ok(Outcome {
                ending: Ending::Timeout,
                counters: Counters::default(),
            });
        };
        let counters = Counters {
            vars: Some(lowered.vars as u64),
            clauses: Some(lowered.cnf.len() as u64),
            ..Counters::default()
        };
        #[cfg(feature = "cadical-lib")]
        if self.engine == Engine::Cadical {
            let ending =
                cadical::solve(&lowered, budget, sink).map_err(|message| BackendError::Failed {
                    backend: self.name().to_string(),
                    message,
                })?;
            return Ok(Outcome { ending, counters });
        }
        let (report_tx, report_rx) = mpsc::channel::<Report>();
        let (reply_tx, reply_rx) = mpsc::channel::<Control>();
        let spawned = std::thread::Builder::new()
            .name("varisat".to_string())
            .spawn(move || varisat_worker(lowered, report_tx, reply_rx));
        if let Err(e) = spawned {
            return Err(BackendError::Failed {
                backend: self.name().to_string(),
                message: format!("cannot start the solver thread: {e}"),
            });
        }
        let ending = loop {
            // Waits in short slices, so that an interrupt is seen as soon as a deadline.
            let report = loop {
                if budget.expired() {
                    break Err(Some(()));
                }
                let slice = budget.deadline.map_or(POLL, |d| {
                    d.saturating_duration_since(Instant::now()).min(POLL)
                });
                match report_rx.recv_timeout(slice) {
                    Ok(report) => break Ok(report),
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => break Err(None),
                }
            };
            match report {
                Ok(Report::Found(ids)) => {
                    let control = sink(&ids);
                    // A worker that is gone has nothing more to say; the next receive
                    // reports it.
                    let _ = reply_tx.send(control);
                    if control == Control::Stop {
                        break Ending::Stopped;
                    }
                }
                Ok(Report::Exhausted) => break Ending::Exhausted,
                Ok(Report::Failed(message)) => {
                    return Err(BackendError::Failed {
                        backend: self.name().to_string(),
                        message,
                    });
                }
                Err(Some(())) => break Ending::Timeout,
                Err(None) => {
                    return Err(BackendError::Failed {
                        backend: self.name().to_string(),
                        message: "the solver thread stopped without an answer".to_string(),
                    });
                }
            }
        };
        Ok(Outcome { ending, counters })
    }
}

fn varisat_lit(lit: Lit) -> varisat::Lit {
    varisat::Lit::from_dimacs(lit as isize)
}

/// Runs in its own thread: solve, report, block, repeat, until told to stop, the
/// formula is exhausted, or the waiting side has gone away.
fn varisat_worker(
    lowered: LoweredCnf,
    report: mpsc::Sender<Report>,
    reply: mpsc::Receiver<Control>,
) {
    use varisat::ExtendFormula;
    let mut solver = varisat::Solver::new();
    let mut clause: Vec<varisat::Lit> = Vec::new();
    for c in lowered.cnf.clauses() {
        clause.clear();
        clause.extend(c.iter().map(|&l| varisat_lit(l)));
        solver.add_clause(&clause);
    }
    loop {
        match solver.solve() {
            Ok(true) => {
                let Some(model) = solver.model() else {
                    let _ = report.send(Report::Failed("satisfiable but no model".to_string()));
                    return;
                };
                let chosen: Vec<PlacementId> = model
                    .iter()
                    .filter(|l| l.is_positive() && l.var().index() < lowered.placements as usize)
                    .map(|l| l.var().index() as PlacementId)
                    .collect();
                let blocking: Vec<varisat::Lit> = chosen
                    .iter()
                    .map(|&p| varisat_lit(-(p as Lit + 1)))
                    .collect();
                if report.send(Report::Found(chosen)).is_err() {
                    return;
                }
                match reply.recv() {
                    Ok(Control::Continue) => solver.add_clause(&blocking),
                    _ => return,
                }
            }
            Ok(false) => {
                let _ = report.send(Report::Exhausted);
                return;
            }
            Err(e) => {
                let _ = report.send(Report::Failed(e.to_string()));
                return;
            }
        }
    }
}

#[cfg(feature = "cadical-lib")]
mod cadical {
    //! CaDiCaL in the calling thread, stopped by a terminator at the deadline.

    use rustsat::solvers::{ControlSignal, Solve, SolverResult, Terminate};
    use rustsat::types::{Lit, TernaryVal};

    use crate::backend::{Budget, Control, Ending, Sink};
    use crate::lower::cnf::LoweredCnf;
    use crate::model::PlacementId;

    pub fn solve(lowered: &LoweredCnf, budget: &Budget, sink: &mut Sink) -> Result<Ending, String> {
        let mut solver = rustsat_cadical::CaDiCaL::default();
        let mut clause: Vec<Lit> = Vec::new();
        for c in lowered.cnf.clauses() {
            clause.clear();
            for &l in c {
                clause.push(Lit::from_ipasir(l).map_err(|e| e.to_string())?);
            }
            solver.add_clause_ref(&clause).map_err(|e| e.to_string())?;
        }
        // The terminator must own what it reads: the deadline and the stop flag, not a
        // portfolio's start hook (a first member started the others from it).
        let budget = budget.detached();
        solver.attach_terminator(move || {
            if budget.expired() {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
        loop {
            match solver.solve().map_err(|e| e.to_string())? {
                SolverResult::Sat => {
                    let mut chosen: Vec<PlacementId> = Vec::new();
                    for p in 0..lowered.placements {
                        let value = solver
                            .lit_val(Lit::positive(p))
                            .map_err(|e| e.to_string())?;
                        if value == TernaryVal::True {
                            chosen.push(p);
                        }
                    }
                    if sink(&chosen) == Control::Stop {
                        return Ok(Ending::Stopped);
                    }
                    let blocking: Vec<Lit> = chosen.iter().map(|&p| Lit::negative(p)).collect();
                    solver
                        .add_clause_ref(&blocking)
                        .map_err(|e| e.to_string())?;
                }
                SolverResult::Unsat => return Ok(Ending::Exhausted),
                SolverResult::Interrupted => return Ok(Ending::Timeout),
            }
        }
    }
}
