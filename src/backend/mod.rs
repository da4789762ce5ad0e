//! Everything that solves a model, and the one place where answers become statuses.
//!
//! A backend only enumerates assignments of the placement variables and says whether
//! its search was exhausted. Decoding, verification against the raw rules, and the
//! FORMAT.md status table live here, once, so that no backend can report a status its
//! evidence does not support.

pub mod dp;
mod driver;
pub mod external;
pub mod ilp;
pub mod native;
pub mod portfolio;
pub mod registry;
pub mod sat;
pub mod worker;

pub use driver::{
    CountReport, Report, Request, StreamEnd, StreamedTiling, WARM_UP_CALLS, count, decode, median,
    run, run_repeated, run_streaming,
};
pub use registry::{Capabilities, DEFAULT_PORTFOLIO, LookupError, by_name};

use std::time::{Duration, Instant};

use num_bigint::BigUint;
use serde::Serialize;

use crate::model::{Families, Model, PlacementId};
use crate::puzzle::verify::Violation;

/// Most solutions `run` keeps for printing; a larger enumeration ends `Capped` (use
/// `count` to count beyond it).
pub const MAX_STORED_SOLUTIONS: usize = 1_000_000;

/// Most pieces, over all the solutions `run` keeps, of boards beyond the small-board
/// path: the memory they take is bounded before the search starts (a 128×128 tiling
/// has 8,192 pieces, and a million of them did not fit), and so is the time to decode
/// and verify them after the search stops.
pub const MAX_STORED_PIECES: usize = 8_000_000;

/// Whether `solutions` tilings of `pieces` pieces in all fill what `run` keeps.
pub fn storage_full(solutions: usize, pieces: usize) -> bool {
    solutions >= MAX_STORED_SOLUTIONS || pieces >= MAX_STORED_PIECES
}

/// What the sink tells a backend after each solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Go on: the sink takes more solutions.
    Continue,
    /// End the search now: the sink wants no more solutions.
    Stop,
}

/// Why a backend's search ended.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Ending {
    /// Every solution was reported: the search space is exhausted.
    Exhausted,
    /// The sink asked to stop (the solution limit was reached).
    Stopped,
    /// The deadline passed.
    Timeout,
    /// Another resource cap (memory, a node budget) stopped it.
    Capped,
}

/// Resources a query may use.
#[derive(Clone, Default)]
pub struct Budget<'a> {
    /// When the query must end; `None`: no time limit.
    pub deadline: Option<Instant>,
    /// Raised when the answer is no longer wanted: a portfolio member stops when another
    /// member has decided.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Called at every look at the budget. The portfolio's first member runs in the
    /// caller's thread and starts the other members from here once its head start is
    /// over, so that the head start is not work thrown away.
    pub on_check: Option<&'a (dyn Fn() + Sync)>,
}

impl std::fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("deadline", &self.deadline)
            .field("stop", &self.stop)
            .field("on_check", &self.on_check.is_some())
            .finish()
    }
}

impl Budget<'_> {
    /// A budget whose deadline is `timeout` from now, stopped also by the stop flag of
    /// the call running on this thread, if its host set one
    /// ([`crate::interrupt::with_call_stop`]); a timeout too long to represent means no
    /// deadline.
    pub fn with_timeout(timeout: Option<Duration>) -> Budget<'static> {
        Budget {
            // A deadline too far to represent is no deadline.
            deadline: timeout.and_then(|t| Instant::now().checked_add(t)),
            stop: crate::interrupt::call_stop(),
            on_check: None,
        }
    }

    /// Whether the query must stop now: an interrupt, a stop request, or the deadline.
    pub fn expired(&self) -> bool {
        self.stopped() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether an interrupt or a stop request came: two atomic loads, cheap enough for
    /// every node of a search (reading the clock is not), so that a portfolio member
    /// whose nodes are expensive stops within one node of being asked.
    pub fn stopped(&self) -> bool {
        if let Some(on_check) = &self.on_check {
            on_check();
        }
        crate::interrupt::requested()
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// A year: longer time limits are surely typing mistakes.
pub const MAX_TIMEOUT_SECONDS: f64 = 31_536_000.0;

/// A time limit in seconds as a duration, or why it is not one: it must be positive and
/// at most [`MAX_TIMEOUT_SECONDS`]. The command line and the Python package say the same.
///
/// # Errors
/// The message for a person.
pub fn time_limit(seconds: f64) -> Result<Duration, String> {
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(format!(
            "the time limit must be a positive number of seconds, not {seconds}"
        ));
    }
    if seconds > MAX_TIMEOUT_SECONDS {
        return Err(format!(
            "the time limit is at most {MAX_TIMEOUT_SECONDS} seconds; leave it out for none"
        ));
    }
    Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())
}

/// Work counters a backend reports; every field is optional so each backend fills
/// in what it has.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Counters {
    /// Nodes of the search tree visited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Placements forced by propagation before the first branch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced: Option<u64>,
    /// Propagation stalls cut off because the failure cache held them as proved empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_hits: Option<u64>,
    /// Restarts of the search (Luby schedule, bounded limits only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restarts: Option<u64>,
    /// Variables of the lowered model: CNF variables, or the 0/1 variables of an integer
    /// program.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vars: Option<u64>,
    /// Timed calls behind a median time (benchmark mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat: Option<u64>,
    /// Clauses of the CNF formula.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clauses: Option<u64>,
    /// Linear constraints of an integer program.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constraints: Option<u64>,
    /// Conflicts met by a CDCL SAT solver.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<u64>,
    /// Candidates deleted by the matching filter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filtered: Option<u64>,
    /// Largest layer of a dynamic program.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub states: Option<u64>,
    /// Native: nodes refuted by the LP relaxation with an exact Farkas certificate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refuted: Option<u64>,
    /// Portfolio: the member whose answer this is (only for a decisive answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// Portfolio: the members set aside while the others went on (one crashed, gave an
    /// answer that could not be read, or returned a tiling that breaks the rules), each
    /// as `` `NAME`: why ``. For standard error, not the JSON report.
    #[serde(skip)]
    #[schemars(skip)]
    pub set_aside: Vec<String>,
}

/// The end of one backend run.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Why the search ended; only `Exhausted` supports `unsat` or `unique`.
    pub ending: Ending,
    /// The work the backend reports having done.
    pub counters: Counters,
}

/// Failures of a backend itself, as opposed to answers about the puzzle.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BackendError {
    /// The backend refuses this model: it cannot read its families or a constraint, or the
    /// board is beyond what it handles (too wide, too many states).
    #[error("backend `{backend}` cannot take this model: {reason}")]
    Unsupported {
        /// The backend that refused.
        backend: String,
        /// Why, in words.
        reason: String,
    },
    /// A tiling the backend reported failed the independent verifier: a bug in the
    /// backend, never an answer about the puzzle.
    #[error("backend `{backend}` returned a tiling that breaks the rules: {violation}")]
    WrongSolution {
        /// The backend that reported it.
        backend: String,
        /// The rule the tiling breaks.
        violation: Violation,
    },
    /// The backend broke down for a reason of its own (a solver error, a worker thread
    /// that died).
    #[error("backend `{backend}` failed: {message}")]
    Failed {
        /// The backend that failed.
        backend: String,
        /// What went wrong, in words.
        message: String,
    },
    /// The model's lowering would not fit in memory; refused before it was built.
    #[error("backend `{backend}` cannot take this board: {reason}")]
    TooLarge {
        /// The backend that refused.
        backend: String,
        /// Why it would not fit, with the estimate.
        reason: String,
    },
    /// An external program could not be run to an answer.
    #[error("backend `{backend}` failed: {source}")]
    Run {
        /// The external backend whose program it was.
        backend: String,
        /// What kept the program from answering.
        #[source]
        source: crate::process::RunError,
    },
    /// An external program's answer was not taken (a crash, no verdict, a malformed
    /// model).
    #[error("backend `{backend}` failed: {source}")]
    Answer {
        /// The external backend whose program it was.
        backend: String,
        /// Why its answer was not taken.
        #[source]
        source: external::AnswerError,
    },
    /// The user interrupted the run (Ctrl-C): matched by type, never by message.
    #[error("interrupted")]
    Interrupted,
}

/// The model as CNF for a SAT backend, within the memory budget and the deadline:
/// `Ok(None)` when the deadline (or an interrupt) came first.
///
/// # Errors
/// The formula would not fit in memory (with the estimate), or an encoding refuses a
/// constraint.
pub(crate) fn lower_cnf(
    backend: &str,
    model: &Model,
    encoding: crate::encode::Encoding,
    budget: &Budget,
) -> Result<Option<crate::lower::cnf::LoweredCnf>, BackendError> {
    use crate::lower::cnf::{self, LowerError};
    match cnf::lower_within(model, encoding, crate::memory::budget(), &|| {
        budget.expired()
    }) {
        Ok(lowered) => Ok(Some(lowered)),
        Err(LowerError::Stopped) if crate::interrupt::requested() => Err(BackendError::Interrupted),
        Err(LowerError::Stopped) => Ok(None),
        Err(e @ LowerError::TooLarge { .. }) => Err(BackendError::TooLarge {
            backend: backend.to_string(),
            reason: e.to_string(),
        }),
        Err(e) => Err(BackendError::Unsupported {
            backend: backend.to_string(),
            reason: e.to_string(),
        }),
    }
}

/// The size of the model's CNF, refused when it would not fit in the memory budget, as
/// [`lower_cnf`] refuses it, but without building it: for a backend that lowers in a
/// worker process. The size is given when the estimate is exact (no raw sums, and the
/// pairwise, sequential or totalizer encoding), else `None`.
///
/// # Errors
/// The formula would not fit in memory (with the estimate).
pub(crate) fn cnf_size_within_memory(
    backend: &str,
    model: &Model,
    encoding: crate::encode::Encoding,
) -> Result<Option<crate::encode::size::Size>, BackendError> {
    use crate::lower::cnf;
    let (size, needed) = cnf::needed_memory(model, encoding);
    let budget = crate::memory::budget();
    if needed > budget {
        return Err(BackendError::TooLarge {
            backend: backend.to_string(),
            reason: cnf::LowerError::TooLarge {
                size,
                needed,
                budget,
                encoding: (!model.quotas.is_empty()).then_some(encoding),
            }
            .to_string(),
        });
    }
    let exact = model.clue_sums.is_empty() && encoding != crate::encode::Encoding::SortingNetwork;
    Ok(exact.then_some(size))
}

/// Where a backend hands each tiling it finds, as placement ids; the answer says whether
/// to go on.
pub type Sink<'s> = dyn FnMut(&[PlacementId]) -> Control + 's;

/// What [`Backend::solve`] returns.
pub type SolveResult = Result<Outcome, BackendError>;

/// Something that solves a compiled model.
pub trait Backend: Send + Sync {
    /// The name it is chosen by (`--backend NAME`) and reported under.
    fn name(&self) -> &str;

    /// What it can do, for the checks made before it runs: a built-in backend's entry in
    /// [`registry::BUILTINS`]; backends the registry does not know by name (external
    /// programs, portfolios, renamings) say it themselves.
    fn capabilities(&self) -> Capabilities {
        registry::builtin(self.name()).map_or(registry::UNKNOWN, |b| b.capabilities)
    }

    /// The constraint families this backend wants when the user does not choose.
    fn default_families(&self) -> Families {
        Families::All
    }

    /// Enumerates solutions, handing each (as placement ids) to `sink` until the sink
    /// says stop, the search is exhausted or the budget runs out. `limit` says how many
    /// solutions the sink will take (0: all), so a backend can choose its strategy;
    /// each solution must be reported once.
    ///
    /// # Errors
    /// The backend cannot take the model or failed; never for an unsatisfiable model.
    fn solve(&self, model: &Model, limit: usize, budget: &Budget, sink: &mut Sink) -> SolveResult;

    /// A board compiled for the native search's small-board path, which answers without
    /// the general model, when this backend takes that path for this board and these
    /// families; `None`: compile the model and [`Backend::solve`].
    fn small_board(
        &self,
        _instance: &crate::puzzle::Instance,
        _families: Option<Families>,
    ) -> Option<native::small::Board> {
        None
    }

    /// Who answers when [`Backend::small_board`] gave a board and its search decided:
    /// named as a portfolio's winner (`None`: the backend itself).
    fn small_board_winner(&self) -> Option<&str> {
        None
    }

    /// Counts solutions without enumerating them, for backends that can (the frontier
    /// DP); `None` means count by enumeration through [`Backend::solve`].
    fn count(&self, _model: &Model, _budget: &Budget) -> Option<Result<ExactCount, BackendError>> {
        None
    }
}

/// A count from a backend that counts directly.
#[derive(Debug, Clone)]
pub struct ExactCount {
    /// Exact when `ending` is `Exhausted`, otherwise a lower bound.
    pub count: BigUint,
    /// Why counting ended; the count is exact only when it is `Exhausted`.
    pub ending: Ending,
    /// The work the backend reports having done.
    pub counters: Counters,
}

/// The FORMAT.md statuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// At least one solution found; the search stopped at the limit without being
    /// exhausted.
    Sat,
    /// Exactly one solution, and the search was exhausted.
    Unique,
    /// Two or more solutions found.
    Multiple,
    /// No solution, and the search was exhausted: a proof, never a guess.
    Unsat,
    /// The time limit or another cap stopped the search before it answered its question.
    Unknown,
}

impl Status {
    /// How the status is written in reports (FORMAT.md): `sat`, `unique`, `multiple`,
    /// `unsat` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
        }
    }

    /// The inverse of [`Status::name`].
    pub fn from_name(name: &str) -> Option<Status> {
        [
            Status::Sat,
            Status::Unique,
            Status::Multiple,
            Status::Unsat,
            Status::Unknown,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }

    /// Derives the status from the evidence: how many solutions were found, whether
    /// the search was exhausted, and the limit asked for (0: all).
    ///
    /// Zero solutions is `unsat` only when exhausted. One solution without exhaustion
    /// is `sat` only when one was all that was asked; a uniqueness check (or a full
    /// enumeration) cut short after one solution has not answered its question, so it
    /// is `unknown`, its solution still shown.
    pub fn from_evidence(found: u64, exhausted: bool, limit: usize) -> Status {
        match (found, exhausted) {
            (0, true) => Status::Unsat,
            (1, true) => Status::Unique,
            (1, false) if limit == 1 => Status::Sat,
            (0 | 1, false) => Status::Unknown,
            _ => Status::Multiple,
        }
    }
}

/// Choices that some backends take.
#[derive(Debug, Clone, Copy)]
pub struct BackendOptions {
    /// Cardinality encoding of quota groups for the SAT backends.
    pub encoding: crate::encode::Encoding,
    /// Most members a portfolio runs at once: the first this many of its list.
    pub threads: usize,
}

impl Default for BackendOptions {
    fn default() -> Self {
        BackendOptions {
            encoding: crate::encode::Encoding::Totalizer,
            threads: available_threads(),
        }
    }
}

/// The cores this process may use (1 when that cannot be told).
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// A backend shown under another name: `varisat:sequential` is varisat with the
/// sequential counter, so that one race can put several encodings side by side. Every
/// method is forwarded.
struct Renamed {
    name: String,
    inner: Box<dyn Backend>,
}

impl Backend for Renamed {
    fn name(&self) -> &str {
        &self.name
    }

    fn capabilities(&self) -> Capabilities {
        self.inner.capabilities()
    }

    fn default_families(&self) -> Families {
        self.inner.default_families()
    }

    fn solve(&self, model: &Model, limit: usize, budget: &Budget, sink: &mut Sink) -> SolveResult {
        self.inner.solve(model, limit, budget, sink)
    }

    fn count(&self, model: &Model, budget: &Budget) -> Option<Result<ExactCount, BackendError>> {
        self.inner.count(model, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_table() {
        use Status::*;
        // (found, exhausted, limit) -> status
        let table = [
            (0, true, 1, Unsat),
            (0, true, 0, Unsat),
            (0, false, 1, Unknown),
            (0, false, 2, Unknown),
            (1, false, 1, Sat),
            (1, false, 2, Unknown),
            (1, false, 0, Unknown),
            (1, true, 2, Unique),
            (1, true, 0, Unique),
            (2, false, 2, Multiple),
            (2, true, 0, Multiple),
            (5, false, 0, Multiple),
        ];
        for (found, exhausted, limit, status) in table {
            assert_eq!(
                Status::from_evidence(found, exhausted, limit),
                status,
                "{found} {exhausted} {limit}"
            );
        }
    }

    #[test]
    fn median_of_odd_and_even_samples() {
        let ms = Duration::from_millis;
        assert_eq!(median(&mut [ms(3), ms(1), ms(2)]), ms(2));
        assert_eq!(
            median(&mut [ms(4), ms(1), ms(2), ms(3)]),
            Duration::from_micros(2500)
        );
        assert_eq!(median(&mut []), Duration::ZERO);
    }

    #[test]
    fn huge_timeouts_mean_no_deadline() {
        let budget = Budget::with_timeout(Some(Duration::from_secs(u64::MAX)));
        assert!(!budget.expired());
    }
}
