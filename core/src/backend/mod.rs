//! The backend contract, and the engines that are pure computation: the native search
//! and the frontier DP.
//!
//! A backend only enumerates assignments of the placement variables and says whether
//! its search was exhausted. The status table lives here, once ([`Status`]), so that no
//! backend can report a status its evidence does not support. The engines that run
//! other programs or threads of their own (SAT, ILP, external solvers, the portfolio)
//! and the registry are the library's (`dominofit::backend`, which re-exports all of
//! this).

mod budget;
mod capabilities;
pub mod dp;
mod error;
pub mod native;
mod outcome;
mod status;

pub use budget::{
    BackendOptions, Beside, Budget, MAX_TIMEOUT_SECONDS, Taken, available_threads, time_limit,
};
pub use capabilities::Capabilities;
pub use error::{AnswerError, BackendError, RunError};
pub use outcome::{
    Control, Counters, End, Ending, ExactCount, MAX_STORED_PIECES, MAX_STORED_SOLUTIONS, Outcome,
    storage_full,
};
pub use status::Status;

use crate::model::{Families, Model, PlacementId};
use crate::puzzle::{Instance, Solution};

/// Where a backend hands each tiling it finds, as placement ids; the answer says whether
/// to go on.
pub type Sink<'s> = dyn FnMut(&[PlacementId]) -> Control + 's;

/// What [`Backend::solve`] returns.
pub type SolveResult = Result<Outcome, BackendError>;

/// What proof logging does with each search an engine hands it ([`Backend::with_proof_logging`]):
/// given the search (as `Any`, since only the logger knows which engines it can log), the
/// search logging its proof as it answers, or `None` when it cannot log that one.
pub type ProofLogging<'l> = dyn FnMut(&dyn std::any::Any) -> Option<Box<dyn Backend>> + 'l;

/// Any backend as `Any`: what [`Backend::with_proof_logging`] hands a proof logger.
pub trait AsAny {
    /// `self`, as `Any`.
    fn as_any(&self) -> &dyn std::any::Any;
}

impl<T: std::any::Any> AsAny for T {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Something that solves a compiled model.
pub trait Backend: Send + Sync + AsAny {
    /// The name it is chosen by (`--backend NAME`) and reported under.
    fn name(&self) -> &str;

    /// What it can do, for the checks made before it runs (may it read raw sums, take
    /// an encoding, be a portfolio member).
    fn capabilities(&self) -> Capabilities;

    /// The constraint families this backend wants when the user does not choose.
    fn default_families(&self) -> Families {
        Families::AllQuotas
    }

    /// Enumerates solutions, handing each (as placement ids) to `sink` until the sink
    /// says stop, the search is exhausted or the budget runs out. `limit` says how many
    /// solutions the sink will take (0: all), so a backend can choose its strategy;
    /// each solution must be reported once.
    ///
    /// # Errors
    /// The backend cannot take the model or failed; never for an unsatisfiable model.
    fn solve(&self, model: &Model, limit: usize, budget: &Budget, sink: &mut Sink) -> SolveResult;

    /// A faster way to this board's answer than the general model, when this backend
    /// has one for it and these families (the native engine's small-board path); `None`:
    /// compile the model and [`Backend::solve`].
    fn fast_path(
        &self,
        _instance: &Instance,
        _families: Option<Families>,
    ) -> Option<Box<dyn FastPath>> {
        None
    }

    /// Proof logging, asked of the engine (`solve --certify` with VeriPB): this engine
    /// with each of its searches handed to `log`, which gives back the search logging
    /// its proof as it answers; `None` when `log` cannot log some search of it. An
    /// engine hands itself; a portfolio hands each member and races what comes back.
    fn with_proof_logging(&self, log: &mut ProofLogging) -> Option<Box<dyn Backend>> {
        log(self.as_any())
    }

    /// Waits for work an earlier call left running beside its search (an abandoned LP
    /// refutation ends at the end of its iteration), so that the next call starts on an
    /// idle machine; the driver calls it before the clock starts.
    fn settle(&self) {}

    /// The memory its search takes beside the model on a `rows` × `cols` board, planned
    /// before the model is compiled and held with it against the memory budget
    /// ([`crate::memory::plan`]). 0 for the backends that size their own formula or
    /// states once the model is there and refuse it then (the SAT lowering, the frontier
    /// DP) or that run in another process.
    fn footprint(&self, _rows: usize, _cols: usize) -> u64 {
        0
    }

    /// Counts solutions without enumerating them, for backends that can (the frontier
    /// DP); `None` means count by enumeration through [`Backend::solve`].
    fn count(&self, _model: &Model, _budget: &Budget) -> Option<Result<ExactCount, BackendError>> {
        None
    }
}

/// A tiling as a fast path reports it, in the path's own compact form (two bit masks
/// for the native small-board path): decoded by [`FastPath::decode`] once the clock has
/// stopped, so that a game-size call allocates nothing while it searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compact(pub u128, pub u128);

/// An engine's own way to a board's answer without the general model. The driver runs
/// it before compiling; an answer it gives up on ([`Ending::Capped`]) goes to the
/// general model, and one that finds no tiling is checked against the general model's
/// clue inversion, so that both ways say the same.
pub trait FastPath {
    /// Searches, handing each tiling to `each` until it says stop, the search is
    /// exhausted, the budget runs out, or the path gives up (`Capped`).
    fn search(
        &self,
        limit: usize,
        budget: &Budget,
        each: &mut dyn FnMut(Compact) -> Control,
    ) -> Outcome;

    /// The tiling `search` reported as `tiling`.
    fn decode(&self, tiling: Compact) -> Solution;
}
