//! An answer that logs its own proof: `solve --certify` with a native engine, or a
//! portfolio of them, searches once.
//!
//! Each native search is wrapped in a backend (`Logging`) that compiles nothing of
//! its own: it takes the model the driver compiled, writes the proof's first lines
//! (the quotas derived) and runs the same search the engine would, traced, under the
//! call's own budget and stop flag, into a proof file of its own. A portfolio of
//! wrapped members races as any portfolio does; the member whose search decided gives
//! the proof. The proof is begun numbered for a formula that may end with a blocked
//! tiling (`certify::pb::logged`), so that whether it proves `unsat` or `unique` is
//! settled only when the answer is known.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::logged::Proved;
use super::logged::{self, Begun, ProofFile};
use super::logger::Counts;
use super::writer::{Id, ProofWriter};
use crate::backend::native::Native;
use crate::backend::{
    Backend, BackendError, Budget, Capabilities, Ending, FastPath, Sink, SolveResult, Status,
};
use crate::driver::{self, Report, Request};
use crate::interrupt::TempGuard;
use crate::model::{Families, Model};
use crate::puzzle::{Instance, Solution};

/// An answer, and the proof its search logged when it needs one.
pub struct Answer {
    /// The answer, as `driver::run` gives it.
    pub report: Report,
    /// The proof of an `unsat` or `unique` answer (else `None`, as when the member that
    /// decided could not log one).
    pub proof: Option<LoggedProof>,
}

/// A proof logged by an answer's search, in a temporary file that Ctrl-C removes.
pub struct LoggedProof {
    file: TempGuard,
    /// What was written.
    pub proved: Proved,
}

impl LoggedProof {
    /// Moves the proof to `to` (on the same file system).
    ///
    /// # Errors
    /// The rename failed; the temporary file is then removed.
    pub fn move_to(self, to: &Path) -> std::io::Result<()> {
        std::fs::rename(self.file.path(), to)?;
        self.file.keep();
        Ok(())
    }
}

/// Answers `instance` with `backend` as `driver::run` would, its native searches
/// logging their proofs into temporary files in `dir`: the backend is asked for proof
/// logging ([`Backend::with_proof_logging`]) and hands its searches, of which this logs
/// the native ones. `None` when some search of the backend is not native, or the
/// request asks for other families than the ones the proof derives: the caller answers
/// the usual way.
///
/// # Errors
/// As `driver::run`; and a temporary file that cannot be made in `dir`.
pub fn answer(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
    dir: &Path,
) -> Result<Option<Answer>, BackendError> {
    if request
        .families
        .is_some_and(|f| f != Families::ColourSplits)
    {
        return Ok(None);
    }
    let mut runs: Vec<Arc<Logging>> = Vec::new();
    let mut made: Result<(), std::io::Error> = Ok(());
    let logging = backend.with_proof_logging(&mut |search| {
        let native = search.downcast_ref::<Native>()?;
        let file = TempGuard::create(|| {
            // Hidden, and named by process and count: no two runs or members share one.
            static MADE: AtomicU64 = AtomicU64::new(0);
            let k = MADE.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!(".proof-{}-{k}.pbp", std::process::id()));
            Ok((std::fs::File::create_new(&path)?, path))
        });
        let (opened, file) = match file {
            Ok((opened, file)) => (Some(opened), Some(file)),
            Err(e) => {
                made = Err(e);
                (None, None)
            }
        };
        let run = Arc::new(Logging {
            native: Native::new(native.options),
            instance: instance.clone(),
            file: Mutex::new(file),
            opened: Mutex::new(opened),
            ran: Mutex::new(None),
        });
        runs.push(run.clone());
        Some(Box::new(Shared(run)))
    });
    let Some(logging) = logging else {
        return Ok(None);
    };
    made.map_err(|e| BackendError::Failed {
        backend: backend.name().to_string(),
        message: format!("cannot make a proof file in {}: {e}", dir.display()),
    })?;
    let report = driver::run(instance, logging.as_ref(), request)?;
    drop(logging);
    let proof = match report.status {
        Status::Unsat | Status::Unique => {
            let tiling = report.solutions.first();
            let mut proof = None;
            for run in runs {
                if let Some(logged) = run.proof(report.status, tiling)? {
                    proof = Some(logged);
                    break;
                }
            }
            proof
        }
        _ => None,
    };
    Ok(Some(Answer { report, proof }))
}

/// A native search that logs its proof as it answers.
struct Logging {
    native: Native,
    instance: Instance,
    /// The proof file (taken by the proof it ends up holding).
    file: Mutex<Option<TempGuard>>,
    /// The same file, open for the search to write (taken when it begins).
    opened: Mutex<Option<std::fs::File>>,
    ran: Mutex<Option<Ran>>,
}

/// A search that logged, its proof not yet ended.
struct Ran {
    out: ProofWriter<ProofFile>,
    /// The contradiction, if the search refuted the root.
    contradiction: Option<Id>,
    counts: Counts,
    small_path: bool,
    /// Tilings it reached, and the first.
    tilings: usize,
    first: Option<Solution>,
}

impl Logging {
    /// The proof of `status` this search logged (`tiling` the answer's one tiling, for
    /// `unique`), ended; `None` if it did not decide that answer.
    fn proof(
        &self,
        status: Status,
        tiling: Option<&Solution>,
    ) -> Result<Option<LoggedProof>, BackendError> {
        let ran = self
            .ran
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let file = self
            .file
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let (Some(ran), Some(file)) = (ran, file) else {
            return Ok(None);
        };
        let blocked = status == Status::Unique;
        let decided = ran.contradiction.is_some()
            && ran.tilings == usize::from(blocked)
            && ran.first.as_ref() == tiling.filter(|_| blocked);
        if !decided {
            return Ok(None);
        }
        let proved = logged::conclude(
            ran.out,
            ran.contradiction,
            blocked,
            ran.counts,
            ran.small_path,
        )
        .map_err(|e| BackendError::Failed {
            backend: self.native.name().to_string(),
            message: e.to_string(),
        })?;
        Ok(Some(LoggedProof { file, proved }))
    }

    /// The proof file to write, once.
    fn take_opened(&self) -> Option<std::fs::File> {
        self.opened
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

/// A [`Logging`] as a backend the driver and a portfolio run; shared, so that its
/// proof can be taken after the run.
struct Shared(Arc<Logging>);

impl Backend for Shared {
    fn name(&self) -> &str {
        self.0.native.name()
    }

    fn capabilities(&self) -> Capabilities {
        self.0.native.capabilities()
    }

    fn default_families(&self) -> Families {
        self.0.native.default_families()
    }

    fn footprint(&self, rows: usize, cols: usize) -> u64 {
        self.0.native.footprint(rows, cols)
    }

    /// None: the proof needs the model, and the small-board path runs inside
    /// [`Backend::solve`], logged, as the proof search always ran it.
    fn fast_path(&self, _: &Instance, _: Option<Families>) -> Option<Box<dyn FastPath>> {
        None
    }

    fn solve(&self, model: &Model, limit: usize, budget: &Budget, sink: &mut Sink) -> SolveResult {
        let run = &self.0;
        let Some(opened) = run.take_opened() else {
            return run.native.solve(model, limit, budget, sink);
        };
        let mut logger = match logged::begin(&run.instance, model, opened) {
            // The rules are refuted before any search: the proof is whole, and the
            // search only gives the answer.
            Begun::Refuted(out, contradiction) => {
                let outcome = run.native.solve(model, limit, budget, sink)?;
                *run.ran.lock().unwrap_or_else(PoisonError::into_inner) = Some(Ran {
                    out,
                    contradiction: Some(contradiction),
                    counts: Counts::default(),
                    small_path: false,
                    tilings: 0,
                    first: None,
                });
                return Ok(outcome);
            }
            Begun::Searching(logger) => logger,
        };
        let beside = (budget.beside.clone()).unwrap_or_else(|| run.native.beside.clone());
        let budget = budget.clone().with_beside(beside);
        let (mut tilings, mut first) = (0, None);
        let searched = logged::search(
            &mut logger,
            &run.instance,
            model,
            run.native.options,
            limit,
            &budget,
            &mut |ids| {
                tilings += 1;
                if first.is_none() {
                    first = Some(model.decode(ids));
                }
                sink(ids)
            },
        );
        let mut outcome = searched.outcome;
        outcome.counters.proof_steps = Some(logger.counts.total());
        let exhausted = outcome.ending == Ending::Exhausted;
        *run.ran.lock().unwrap_or_else(PoisonError::into_inner) = Some(Ran {
            contradiction: logger.contradiction.filter(|_| exhausted),
            counts: logger.counts,
            out: logger.out,
            small_path: searched.small_path,
            tilings,
            first,
        });
        Ok(outcome)
    }

    fn settle(&self) {
        self.0.native.settle();
    }
}
