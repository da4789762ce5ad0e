//! The driver: compile an instance, run a backend on it, decode and verify every tiling
//! against the raw rules, and derive the status from the evidence — once, here, for
//! every backend. Counting is in `count.rs` ([`count()`]), the reports and their JSON
//! shape (FORMAT.md) in `report.rs` ([`Report`], [`CountReport`]). The timing protocol
//! (`solve --repeat`, `race`), which measures CPU time and peak memory through the
//! operating system, is the library's (`dominofit::driver`).

mod count;
mod report;

use std::time::Duration;

pub use count::count;
pub use report::{CountReport, Header, Report, Reported, StatValue, StreamEnd, StreamedTiling};

use crate::backend::{
    Backend, BackendError, Budget, Compact, Control, Counters, Ending, FastPath, Outcome, Sink,
    Status, storage_full,
};
use crate::model::{self, Families, Model, PlacementId};
use crate::puzzle::verify::{Violation, verify};
use crate::puzzle::{Instance, Solution};
use crate::time::Instant;

/// What a user asks of one instance.
#[derive(Debug, Clone, Copy)]
pub struct Request {
    /// 1: first solution; 2: uniqueness; 0: all solutions.
    pub limit: usize,
    /// Time allowed for compilation and search; `None`: no limit.
    pub timeout: Option<Duration>,
    /// `None` takes the backend's default.
    pub families: Option<Families>,
}

/// What `run` and `count` do first: the clock, the budget, and the model in the
/// families asked for (or the backend's), refused here when the backend cannot read them.
fn prepare(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
    fast: bool,
) -> Result<(Instant, Budget<'static>, Compiled), BackendError> {
    // An LP a portfolio member abandoned in the previous call may still be running: let
    // it end first, so that every call starts on an idle machine and takes the same path.
    backend.settle();
    let start = Instant::now();
    let budget = Budget::with_timeout(request.timeout);
    if fast && let Some(path) = backend.fast_path(instance, request.families) {
        return Ok((start, budget, Compiled::Fast(path)));
    }
    let compiled = general(instance, backend, request, &budget)?;
    Ok((start, budget, compiled))
}

/// The general model, in the families asked for (or the backend's), refused here when
/// the backend cannot read them or the model and the backend's search would not fit in
/// the memory budget.
fn general(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
    budget: &Budget,
) -> Result<Compiled, BackendError> {
    let families = readable_families(backend, request)?;
    plan(instance, backend, 1)?;
    Ok(compile_within(instance, families, budget))
}

/// The families asked for (or the backend's), refused when the backend cannot read them.
fn readable_families(backend: &dyn Backend, request: &Request) -> Result<Families, BackendError> {
    let families = request
        .families
        .unwrap_or_else(|| backend.default_families());
    check_families(backend, families)?;
    Ok(families)
}

/// The model, or `OutOfTime` when the budget ran out while it was compiled.
fn compile_within(instance: &Instance, families: Families, budget: &Budget) -> Compiled {
    match model::compile_until(instance, families, &|| budget.expired()) {
        Some(model) => Compiled::Model(model),
        None => Compiled::OutOfTime,
    }
}

/// `models` compiled models and the backend's search held against the memory budget
/// before any is built: a board that would not fit is refused with the figures.
pub fn plan(instance: &Instance, backend: &dyn Backend, models: u64) -> Result<(), BackendError> {
    let (rows, cols) = (instance.rows, instance.cols);
    let model = model::footprint::planned_bytes(rows, cols);
    let parts = [
        ("the model", model.saturating_mul(models)),
        ("the solver", backend.footprint(rows, cols)),
    ];
    match crate::memory::plan(&parts) {
        Ok(_) => Ok(()),
        Err(over) => Err(BackendError::TooLarge {
            backend: backend.name().to_string(),
            reason: over.to_string(),
        }),
    }
}

/// What a backend searches: the general model, or the board on the backend's fast path.
// The model inline: one value made once per call, never moved in a loop.
#[allow(clippy::large_enum_variant)]
enum Compiled {
    Model(Model),
    Fast(Box<dyn FastPath>),
    /// The time limit (or a stop) came while the model was being compiled: nothing to
    /// search, the answer is `unknown`.
    OutOfTime,
}

/// A tiling as the search reported it: borrowed from the search while it is handed on,
/// owned where it is kept to be decoded after the clock stops.
enum Found<'a> {
    Placements(std::borrow::Cow<'a, [PlacementId]>),
    Compact(Compact),
}

impl Found<'_> {
    /// How many pieces the tiling has: what it costs to keep, decode and verify, so that
    /// every path that keeps tilings counts them against one cap.
    fn pieces(&self) -> usize {
        match self {
            Found::Placements(ids) => ids.len(),
            Found::Compact(Compact(v, h)) => (v.count_ones() + h.count_ones()) as usize,
        }
    }

    fn into_owned(self) -> Found<'static> {
        match self {
            Found::Placements(ids) => Found::Placements(std::borrow::Cow::Owned(ids.into_owned())),
            Found::Compact(tiling) => Found::Compact(tiling),
        }
    }
}

/// The outcome of the search that answered (the fast path, or the general model after
/// the fast path gave up). After a fast path found no tiling (`none_found`): when the
/// general model's clue inversion (with its colour splits, which the small-board path
/// does not compute) refutes the board, the answer is the general path's — the
/// refutation in words, no search counters — so that both paths say the same. The
/// model is compiled only for such answers.
fn concluded(
    compiled: &Compiled,
    outcome: Option<Outcome>,
    mut reason: Option<String>,
    none_found: bool,
    (instance, backend, request): (&Instance, &dyn Backend, &Request),
) -> Result<(Outcome, Option<String>), BackendError> {
    let mut outcome = outcome.expect("the general engine does not give up");
    if !none_found || !matches!(compiled, Compiled::Fast(_)) || outcome.ending != Ending::Exhausted
    {
        return Ok((outcome, reason));
    }
    // Not planned again: the board is one the fast path took, of at most 128 cells, and
    // a plan refused now would turn a decided answer into an error.
    let families = readable_families(backend, request)?;
    if let Compiled::Model(model) = compile_within(instance, families, &Budget::with_timeout(None))
        && let Some(refutation) = &model.infeasible
    {
        reason = Some(refutation.to_string());
        outcome.counters = Counters::default();
    }
    Ok((outcome, reason))
}

impl Compiled {
    /// Whether a fast path gave up on the board (the small-board path's node cap), so that the general
    /// engine must answer instead.
    fn gave_up(&self, outcome: &Outcome) -> bool {
        matches!(self, Compiled::Fast(_)) && outcome.ending == Ending::Capped
    }

    /// The search, each tiling handed to `each` undecoded.
    fn search(
        &self,
        backend: &dyn Backend,
        limit: usize,
        budget: &Budget,
        each: &mut dyn FnMut(Found<'_>) -> Control,
    ) -> Result<(Outcome, Option<String>), BackendError> {
        match self {
            Compiled::Model(model) => search(model, backend, limit, budget, &mut |ids| {
                each(Found::Placements(std::borrow::Cow::Borrowed(ids)))
            }),
            Compiled::Fast(path) => {
                let outcome =
                    path.search(limit, budget, &mut |tiling| each(Found::Compact(tiling)));
                Ok((outcome, None))
            }
            Compiled::OutOfTime => Ok((
                Outcome {
                    ending: Ending::Timeout,
                    counters: Counters::default(),
                },
                None,
            )),
        }
    }

    fn decode(&self, found: &Found) -> Solution {
        match (self, found) {
            (Compiled::Model(model), Found::Placements(ids)) => model.decode(ids),
            (Compiled::Fast(path), &Found::Compact(tiling)) => path.decode(tiling),
            _ => unreachable!("a tiling is decoded by the form that found it"),
        }
    }
}

/// The backend's search of `model`, or, when clue inversion already refuted the board,
/// an exhausted search with the refutation in words and no backend run at all.
fn search(
    model: &Model,
    backend: &dyn Backend,
    limit: usize,
    budget: &Budget,
    sink: &mut Sink,
) -> Result<(Outcome, Option<String>), BackendError> {
    if let Some(reason) = &model.infeasible {
        let refuted = Outcome {
            ending: Ending::Exhausted,
            counters: Counters::default(),
        };
        return Ok((refuted, Some(reason.to_string())));
    }
    Ok((backend.solve(model, limit, budget, sink)?, None))
}

/// Compiles, solves and verifies one instance. Time covers compilation and search
/// (board construction included, as in the paper's protocol), not verification.
///
/// # Errors
/// The backend failed, or returned a tiling the verifier rejects.
pub fn run(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
) -> Result<Report, BackendError> {
    let (start, budget, mut compiled) = prepare(instance, backend, request, true)?;
    let limit = request.limit;
    let (mut found, mut capped) = (Vec::new(), false);
    let (mut outcome, mut reason) = (None, None);
    for _ in 0..2 {
        found.clear();
        let mut pieces = 0;
        let (searched, why) = compiled.search(backend, limit, &budget, &mut |tiling| {
            pieces += tiling.pieces();
            found.push(tiling.into_owned());
            if limit != 0 && found.len() >= limit {
                Control::Stop
            } else if storage_full(found.len(), pieces) {
                capped = true;
                Control::Stop
            } else {
                Control::Continue
            }
        })?;
        if !compiled.gave_up(&searched) {
            (outcome, reason) = (Some(searched), why);
            break;
        }
        compiled = general(instance, backend, request, &budget)?;
    }
    if crate::stop::call_stopped() {
        return Err(BackendError::Interrupted);
    }
    let (mut outcome, reason) = concluded(
        &compiled,
        outcome,
        reason,
        found.is_empty(),
        (instance, backend, request),
    )?;
    if capped {
        outcome.ending = Ending::Capped;
    }
    let time = start.elapsed();
    let mut solutions = Vec::with_capacity(found.len());
    for tiling in &found {
        let solution = compiled.decode(tiling);
        verify(instance, &solution).map_err(|violation| BackendError::WrongSolution {
            backend: backend.name().to_string(),
            violation,
        })?;
        solutions.push(solution);
    }
    let exhausted = outcome.ending == Ending::Exhausted;
    Ok(Report {
        header: Header::of(&instance.name, backend.name(), time, outcome, reason),
        limit: request.limit,
        status: Status::from_evidence(solutions.len() as u64, exhausted, request.limit),
        complete: exhausted,
        found: solutions.len() as u64,
        solutions,
    })
}

/// Like [`run`], but hands each tiling to `each` as soon as it is found, decoded and
/// verified, instead of keeping it: memory stays flat however many tilings a board has
/// (`solve --format jsonl --limit 0`). The report's `solutions` is empty and `found`
/// counts them; its time includes decoding and verification, which run inside the
/// search here. `each` returning `Stop` ends the search (`Ending::Stopped`).
///
/// # Errors
/// As [`run`].
pub fn run_streaming(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
    each: &mut dyn FnMut(&Solution) -> Control,
) -> Result<Report, BackendError> {
    // Not a fast path: a tiling streamed before it gave up could not be taken
    // back. Streaming is for long enumerations, where compiling costs nothing.
    let (start, budget, compiled) = prepare(instance, backend, request, false)?;
    let limit = request.limit;
    let mut found: u64 = 0;
    let mut wrong: Option<Violation> = None;
    let (outcome, reason) = compiled.search(backend, limit, &budget, &mut |tiling| {
        let solution = compiled.decode(&tiling);
        if let Err(violation) = verify(instance, &solution) {
            wrong = Some(violation);
            return Control::Stop;
        }
        found += 1;
        let wanted = each(&solution);
        if wanted == Control::Stop || (limit != 0 && found >= limit as u64) {
            Control::Stop
        } else {
            Control::Continue
        }
    })?;
    if let Some(violation) = wrong {
        return Err(BackendError::WrongSolution {
            backend: backend.name().to_string(),
            violation,
        });
    }
    let exhausted = outcome.ending == Ending::Exhausted;
    Ok(Report {
        header: Header::of(
            &instance.name,
            backend.name(),
            start.elapsed(),
            outcome,
            reason,
        ),
        limit,
        status: Status::from_evidence(found, exhausted, limit),
        complete: exhausted,
        solutions: Vec::new(),
        found,
    })
}

/// Refuses `--families raw` for a backend that cannot read the raw dot sums, before
/// it runs.
fn check_families(backend: &dyn Backend, families: Families) -> Result<(), BackendError> {
    if families == Families::RawSums && !backend.capabilities().takes_raw_sums {
        return Err(BackendError::Unsupported {
            backend: backend.name().to_string(),
            reason: "it works on the quota families; `--families raw` is for the SAT and ILP \
                     lowerings"
                .to_string(),
        });
    }
    Ok(())
}
