//! The driver: compile an instance, run a backend on it, decode and verify every tiling
//! against the raw rules, and derive the status from the evidence — once, here, for
//! every backend. Also the reports it returns, with their JSON shape (FORMAT.md).

use std::time::{Duration, Instant};

use num_bigint::BigUint;

use super::{
    Backend, BackendError, Budget, Compact, Control, Counters, Ending, FastPath, Outcome, Sink,
    Status, native, storage_full,
};
use crate::model::{self, Families, Model, PlacementId};
use crate::puzzle::verify::{Violation, verify};
use crate::puzzle::{Instance, Solution};

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

/// The answer for one instance, every solution verified.
#[derive(Debug, Clone)]
pub struct Report {
    /// The instance's name.
    pub name: String,
    /// The backend that answered, by name.
    pub backend: String,
    /// The solution limit asked for (0: all).
    pub limit: usize,
    /// The FORMAT.md status, derived from the evidence by [`Status::from_evidence`].
    pub status: Status,
    /// Whether the search space was exhausted.
    pub complete: bool,
    /// The tilings found, each one passed by the verifier (empty when they were streamed).
    pub solutions: Vec<Solution>,
    /// How many tilings were found and verified: `solutions.len()`, or the number handed
    /// on by [`run_streaming`].
    pub found: u64,
    /// Compilation and search, not verification; in benchmark mode, the median of the
    /// timed calls.
    pub time: Duration,
    /// In benchmark mode (and in a race), the CPU time (user and system) of a call, of
    /// this process and of the programs it ran and waited for: above `time` when threads
    /// or programs ran side by side, below it when the call waited; the mean over the
    /// timed calls. `None` for a plain call, which does not read the CPU clock.
    pub cpu: Option<Duration>,
    /// In benchmark mode (and in a race), the peak resident memory in bytes over the
    /// timed calls, as [`crate::usage::Used::peak`] measures it; `None` otherwise.
    pub peak: Option<u64>,
    /// The work the backend reports having done.
    pub counters: Counters,
    /// Why the search ended.
    pub ending: Ending,
    /// The words of the infeasibility proof when clue inversion alone decided.
    pub reason: Option<String>,
}

/// Decodes placement ids into a tiling.
pub fn decode(model: &Model, ids: &[PlacementId]) -> Solution {
    Solution::from_pieces(ids.iter().map(|&id| model.placements[id as usize]))
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
    native::wait_for_abandoned_lp();
    let start = Instant::now();
    let budget = Budget::with_timeout(request.timeout);
    if fast && let Some(path) = backend.fast_path(instance, request.families) {
        return Ok((start, budget, Compiled::Fast(path)));
    }
    Ok((start, budget, general(instance, backend, request)?))
}

/// The general model, in the families asked for (or the backend's), refused here when
/// the backend cannot read them.
fn general(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
) -> Result<Compiled, BackendError> {
    let families = request
        .families
        .unwrap_or_else(|| backend.default_families());
    let model = model::compile(instance, families);
    check_families(backend, &model)?;
    Ok(Compiled::Model(model))
}

/// What a backend searches: the general model, or the board on the backend's fast path.
// The model inline: one value made once per call, never moved in a loop.
#[allow(clippy::large_enum_variant)]
enum Compiled {
    Model(Model),
    Fast(Box<dyn FastPath>),
}

/// A tiling as the search reported it: borrowed from the search while it is handed on,
/// owned where it is kept to be decoded after the clock stops.
enum Found<'a> {
    Placements(std::borrow::Cow<'a, [PlacementId]>),
    Compact(Compact),
}

impl Found<'_> {
    fn into_owned(self) -> Found<'static> {
        match self {
            Found::Placements(ids) => Found::Placements(std::borrow::Cow::Owned(ids.into_owned())),
            Found::Compact(tiling) => Found::Compact(tiling),
        }
    }
}

/// After a fast path found no tiling: when the general model's clue inversion
/// (with its colour splits, which the path does not compute) refutes the board, the
/// answer is the general path's — the refutation in words, no search counters — so that
/// both paths say the same. The model is compiled only for such answers.
fn refute_in_words(
    compiled: &Compiled,
    none_found: bool,
    outcome: &mut Outcome,
    reason: &mut Option<String>,
    (instance, backend, request): (&Instance, &dyn Backend, &Request),
) -> Result<(), BackendError> {
    if !none_found || !matches!(compiled, Compiled::Fast(_)) || outcome.ending != Ending::Exhausted
    {
        return Ok(());
    }
    if let Compiled::Model(model) = general(instance, backend, request)?
        && let Some(refutation) = &model.infeasible
    {
        *reason = Some(refutation.to_string());
        outcome.counters = Counters::default();
    }
    Ok(())
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
        }
    }

    fn decode(&self, found: &Found) -> Solution {
        match (self, found) {
            (Compiled::Model(model), Found::Placements(ids)) => decode(model, ids),
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
            if let Found::Placements(ids) = &tiling {
                pieces += ids.len();
            }
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
        compiled = general(instance, backend, request)?;
    }
    let mut outcome = outcome.expect("the general engine does not give up");
    let none_found = found.is_empty();
    refute_in_words(
        &compiled,
        none_found,
        &mut outcome,
        &mut reason,
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
        name: instance.name.clone(),
        backend: backend.name().to_string(),
        limit: request.limit,
        status: Status::from_evidence(solutions.len() as u64, exhausted, request.limit),
        complete: exhausted,
        found: solutions.len() as u64,
        solutions,
        time,
        cpu: None,
        peak: None,
        counters: outcome.counters,
        ending: outcome.ending,
        reason,
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
        name: instance.name.clone(),
        backend: backend.name().to_string(),
        limit,
        status: Status::from_evidence(found, exhausted, limit),
        complete: exhausted,
        solutions: Vec::new(),
        found,
        time: start.elapsed(),
        cpu: None,
        peak: None,
        counters: outcome.counters,
        ending: outcome.ending,
        reason,
    })
}

/// The last line of `solve --format jsonl`: the report without its tilings (they were
/// streamed), with how many there were.
pub struct StreamEnd<'a>(pub &'a Report);

impl serde::Serialize for StreamEnd<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.json(true).serialize(serializer)
    }
}

/// One tiling line of `solve --format jsonl`.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct StreamedTiling<'a> {
    /// The board's name.
    pub name: &'a str,
    /// The tiling, verified.
    pub solution: &'a Solution,
}

/// Calls taken before timing starts in [`run_repeated`], as in the paper's protocol.
pub const WARM_UP_CALLS: u32 = 3;

/// Solves one instance `WARM_UP_CALLS + times` times and returns the last report with
/// its time replaced by the median of the `times` timed calls. Every call is verified.
///
/// # Errors
/// As [`run`].
pub fn run_repeated(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
    times: u32,
) -> Result<Report, BackendError> {
    for _ in 0..WARM_UP_CALLS {
        run(instance, backend, request)?;
    }
    let mut durations = Vec::with_capacity(times as usize);
    let mut last = None;
    // One meter around the timed calls: the peak over them is the peak of the whole
    // loop, and the CPU time is their mean. Reading the clocks between calls (system
    // calls, /proc) cooled the caches of the next call: game boards measured 5-10% slower.
    let meter = crate::usage::Meter::start();
    for _ in 0..times.max(1) {
        let report = run(instance, backend, request)?;
        durations.push(report.time);
        last = Some(report);
    }
    let used = meter.read();
    let mut report = last.expect("at least one timed call");
    report.time = median(&mut durations);
    report.cpu = Some(used.cpu / times.max(1));
    let peak = used.peak;
    report.peak = peak;
    report.counters.repeat = Some(times.max(1) as u64);
    Ok(report)
}

/// The median; for an even count, the mean of the two middle values.
pub fn median(values: &mut [Duration]) -> Duration {
    values.sort_unstable();
    match values.len() {
        0 => Duration::ZERO,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2,
    }
}

/// The result of counting one instance.
#[derive(Debug, Clone)]
pub struct CountReport {
    /// The instance's name.
    pub name: String,
    /// The backend that counted, by name.
    pub backend: String,
    /// Exact when `complete`, otherwise a lower bound.
    pub count: BigUint,
    /// Whether every solution was counted (the search ended `Exhausted`).
    pub complete: bool,
    /// From compilation to the end of counting; when counting by enumeration, the
    /// verification of each solution is included.
    pub time: Duration,
    /// CPU time of the call in a race, as in [`Report::cpu`]; `None` otherwise.
    pub cpu: Option<Duration>,
    /// Peak resident memory of the call in a race, as in [`Report::peak`].
    pub peak: Option<u64>,
    /// The work the backend reports having done.
    pub counters: Counters,
    /// Why counting ended.
    pub ending: Ending,
    /// The words of the infeasibility proof when clue inversion alone decided (the count
    /// is then 0).
    pub reason: Option<String>,
}

/// Counts the solutions of one instance by enumeration, verifying each one.
///
/// # Errors
/// The backend failed, or produced a tiling the verifier rejects.
pub fn count(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
) -> Result<CountReport, BackendError> {
    let (start, budget, mut compiled) = prepare(instance, backend, request, true)?;
    if let Compiled::Model(model) = &compiled
        && let Some(reason) = &model.infeasible
    {
        return Ok(CountReport {
            name: instance.name.clone(),
            backend: backend.name().to_string(),
            count: BigUint::default(),
            complete: true,
            time: start.elapsed(),
            cpu: None,
            peak: None,
            counters: Counters::default(),
            ending: Ending::Exhausted,
            reason: Some(reason.to_string()),
        });
    }
    if let Compiled::Model(model) = &compiled
        && let Some(counted) = backend.count(model, &budget)
    {
        let counted = counted?;
        return Ok(CountReport {
            name: instance.name.clone(),
            backend: backend.name().to_string(),
            count: counted.count,
            complete: counted.ending == Ending::Exhausted,
            time: start.elapsed(),
            cpu: None,
            peak: None,
            counters: counted.counters,
            ending: counted.ending,
            reason: None,
        });
    }
    let mut total: u128 = 0;
    let mut wrong: Option<Violation> = None;
    let (mut outcome, mut reason) = (None, None);
    for _ in 0..2 {
        total = 0;
        let (searched, why) = compiled.search(backend, 0, &budget, &mut |tiling| {
            if let Err(v) = verify(instance, &compiled.decode(&tiling)) {
                wrong = Some(v);
                return Control::Stop;
            }
            total += 1;
            Control::Continue
        })?;
        if wrong.is_some() || !compiled.gave_up(&searched) {
            (outcome, reason) = (Some(searched), why);
            break;
        }
        compiled = general(instance, backend, request)?;
    }
    let mut outcome = outcome.expect("the general engine does not give up");
    let none_found = total == 0 && wrong.is_none();
    refute_in_words(
        &compiled,
        none_found,
        &mut outcome,
        &mut reason,
        (instance, backend, request),
    )?;
    if let Some(violation) = wrong {
        return Err(BackendError::WrongSolution {
            backend: backend.name().to_string(),
            violation,
        });
    }
    Ok(CountReport {
        name: instance.name.clone(),
        backend: backend.name().to_string(),
        count: BigUint::from(total),
        complete: outcome.ending == Ending::Exhausted,
        time: start.elapsed(),
        cpu: None,
        peak: None,
        counters: outcome.counters,
        ending: outcome.ending,
        reason,
    })
}

/// Refuses `--families raw` for a backend that cannot read the raw dot sums, before
/// it runs.
fn check_families(backend: &dyn Backend, model: &Model) -> Result<(), BackendError> {
    if model.families == Families::Raw && !backend.capabilities().takes_raw_sums {
        return Err(BackendError::Unsupported {
            backend: backend.name().to_string(),
            reason: "it works on the quota families; `--families raw` is for the SAT and ILP \
                     lowerings"
                .to_string(),
        });
    }
    Ok(())
}

/// The `stats` object of the JSON reports.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct Stats<'a> {
    /// Wall-clock time from compilation to the answer, in milliseconds (to 0.1 µs);
    /// in benchmark mode the median of the timed calls.
    time_ms: f64,
    #[serde(flatten)]
    counters: &'a Counters,
    /// Why the search ended early, when it did (`timeout`, `capped`).
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<Ending>,
    /// Why there is no solution, in a player's words, when the clues alone decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
}

impl<'a> Stats<'a> {
    fn of(
        time: Duration,
        counters: &'a Counters,
        ending: Ending,
        reason: &'a Option<String>,
    ) -> Self {
        // A tenth of a microsecond: enough to tell medians of game-size boards apart.
        let time_ms = (time.as_secs_f64() * 1e7).round() / 1e4;
        Stats {
            time_ms,
            counters,
            stopped: matches!(ending, Ending::Timeout | Ending::Capped).then_some(ending),
            reason: reason.as_deref(),
        }
    }
}

/// The JSON object of a report: `solve --format json`'s line (FORMAT.md), with the
/// tilings; or, streamed, the last line of `--format jsonl`, with their number instead.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ReportJson<'a> {
    /// The board's name.
    name: &'a str,
    /// The backend that answered, by name.
    backend: &'a str,
    /// The solution limit asked for: 1 first solution, 2 uniqueness, 0 all.
    limit: usize,
    /// The answer.
    status: Status,
    /// Whether the search was exhausted.
    complete: bool,
    /// The tilings found, each passed by the raw-rules verifier (not in streamed output,
    /// whose tilings came on lines of their own).
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<&'a [Solution]>,
    /// Streamed output only: how many tilings were streamed.
    #[serde(skip_serializing_if = "Option::is_none")]
    found: Option<u64>,
    /// Time and the work the backend reports.
    stats: Stats<'a>,
}

impl Report {
    fn json(&self, streamed: bool) -> ReportJson<'_> {
        ReportJson {
            name: &self.name,
            backend: &self.backend,
            limit: self.limit,
            status: self.status,
            complete: self.complete,
            solutions: (!streamed).then_some(self.solutions.as_slice()),
            found: streamed.then_some(self.found),
            stats: Stats::of(self.time, &self.counters, self.ending, &self.reason),
        }
    }
}

/// One line of `solve --format json` (FORMAT.md).
impl serde::Serialize for Report {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json(false).serialize(serializer)
    }
}

/// The JSON object of a count.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct CountJson<'a> {
    /// The board's name.
    name: &'a str,
    /// The backend that counted, by name.
    backend: &'a str,
    /// Decimal digits: exact when `complete`, otherwise a lower bound.
    #[schemars(regex(pattern = r"^(0|[1-9][0-9]*)$"))]
    count: String,
    /// Whether every solution was counted.
    complete: bool,
    /// Time and the work the backend reports.
    stats: Stats<'a>,
}

/// One line of `count --format json` (FORMAT.md): the count as a decimal string, since
/// counts outgrow every JSON number type.
impl serde::Serialize for CountReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        CountJson {
            name: &self.name,
            backend: &self.backend,
            count: self.count.to_string(),
            complete: self.complete,
            stats: Stats::of(self.time, &self.counters, self.ending, &self.reason),
        }
        .serialize(serializer)
    }
}

/// The schema of `solve --format json`'s lines, from the struct that writes them.
impl schemars::JsonSchema for Report {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Report".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        report_schema(generator, "solutions", "found")
    }
}

/// The schema of the last line of `solve --format jsonl`.
impl schemars::JsonSchema for StreamEnd<'_> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "StreamEnd".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        report_schema(generator, "found", "solutions")
    }
}

/// [`ReportJson`]'s schema for one of its two uses: `with` always written, `without`
/// never.
fn report_schema(
    generator: &mut schemars::SchemaGenerator,
    with: &str,
    without: &str,
) -> schemars::Schema {
    let mut schema = <ReportJson as schemars::JsonSchema>::json_schema(generator);
    let object = schema.ensure_object();
    if let Some(serde_json::Value::Object(properties)) = object.get_mut("properties") {
        properties.remove(without);
        // Written, and never as null.
        if let Some(kind) = properties.get_mut(with).and_then(|p| p.get_mut("type"))
            && let serde_json::Value::Array(types) = kind
        {
            types.retain(|t| t != "null");
            if let [only] = types.as_slice() {
                *kind = only.clone();
            }
        }
    }
    if let Some(serde_json::Value::Array(required)) = object.get_mut("required") {
        required.push(with.into());
    }
    schema
}

/// The schema of `count --format json`'s lines.
impl schemars::JsonSchema for CountReport {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CountReport".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        CountJson::json_schema(generator)
    }
}
