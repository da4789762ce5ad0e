//! The reports `run` and `count` return, and their JSON (FORMAT.md): one [`Header`]
//! for what every answer says (which board, which backend, time, what was used and done,
//! how it ended), and the answer itself.

use std::time::Duration;

use num_bigint::BigUint;

use crate::backend::{Counters, Ending, Status};
use crate::puzzle::Solution;

/// What every report says besides its answer.
#[derive(Debug, Clone)]
pub struct Header {
    /// The instance's name.
    pub name: String,
    /// The backend that answered, by name.
    pub backend: String,
    /// From compilation to the answer, not verification (when counting by enumeration,
    /// the verification of each solution is included); in benchmark mode, the median of
    /// the timed calls.
    pub time: Duration,
    /// In benchmark mode (and in a race), the CPU time (user and system) of a call, of
    /// this process and of the programs it ran and waited for: above `time` when threads
    /// or programs ran side by side, below it when the call waited; the mean over the
    /// timed calls. `None` for a plain call, which does not read the CPU clock.
    pub cpu: Option<Duration>,
    /// In benchmark mode (and in a race), the peak resident memory in bytes over the
    /// timed calls, as the library's `usage::Used::peak` measures it; `None` otherwise.
    pub peak: Option<u64>,
    /// The work the backend reports having done.
    pub counters: Counters,
    /// Why the search (or the count) ended.
    pub ending: Ending,
    /// The words of the infeasibility proof when clue inversion alone decided.
    pub reason: Option<String>,
}

impl Header {
    /// The header of an answer of `backend` on the board `name`, found in `time` (no CPU
    /// time or peak yet: the timing protocol measures those).
    pub fn of(
        name: &str,
        backend: &str,
        time: Duration,
        outcome: crate::backend::Outcome,
        reason: Option<String>,
    ) -> Header {
        Header {
            name: name.to_string(),
            backend: backend.to_string(),
            time,
            cpu: None,
            peak: None,
            counters: outcome.counters,
            ending: outcome.ending,
            reason,
        }
    }
}

/// The answer for one instance, every solution verified.
#[derive(Debug, Clone)]
pub struct Report {
    /// Board, backend, time, work, ending.
    pub header: Header,
    /// The solution limit asked for (0: all).
    pub limit: usize,
    /// The FORMAT.md status, derived from the evidence by [`Status::from_evidence`].
    pub status: Status,
    /// Whether the search space was exhausted.
    pub complete: bool,
    /// The tilings found, each one passed by the verifier (empty when they were streamed).
    pub solutions: Vec<Solution>,
    /// How many tilings were found and verified: `solutions.len()`, or the number handed
    /// on by [`super::run_streaming`].
    pub found: u64,
}

/// The result of counting one instance.
#[derive(Debug, Clone)]
pub struct CountReport {
    /// Board, backend, time, work, ending.
    pub header: Header,
    /// Exact when `complete`, otherwise a lower bound.
    pub count: BigUint,
    /// Whether every solution was counted (the search ended `Exhausted`).
    pub complete: bool,
}

/// A report of either kind, as the timing protocol handles them.
pub trait Reported {
    /// Its header.
    fn header(&self) -> &Header;
    /// Its header, to write the measured time and use into.
    fn header_mut(&mut self) -> &mut Header;
}

impl Reported for Report {
    fn header(&self) -> &Header {
        &self.header
    }
    fn header_mut(&mut self) -> &mut Header {
        &mut self.header
    }
}

impl Reported for CountReport {
    fn header(&self) -> &Header {
        &self.header
    }
    fn header_mut(&mut self) -> &mut Header {
        &mut self.header
    }
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
    fn of(header: &'a Header) -> Self {
        // A tenth of a microsecond: enough to tell medians of game-size boards apart.
        let time_ms = (header.time.as_secs_f64() * 1e7).round() / 1e4;
        let ending = header.ending;
        Stats {
            time_ms,
            counters: &header.counters,
            stopped: matches!(ending, Ending::Timeout | Ending::Capped).then_some(ending),
            reason: header.reason.as_deref(),
        }
    }
}

/// A value of the `stats` object.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StatValue<'a> {
    /// `time_ms`.
    Millis(f64),
    /// A counter.
    Count(u64),
    /// One of a few fixed words: why the search stopped.
    Word(&'static str),
    /// Text: the portfolio's winner, the reason for `unsat`.
    Text(&'a str),
}

impl Header {
    /// The `stats` object's entries, in the order the JSON reports write them: for
    /// writers that build it without serde (the Python module, where a serializer's
    /// fresh key strings cost more than the solve). A test holds it to the serde form.
    pub fn stats_entries(&self) -> Vec<(&'static str, StatValue<'_>)> {
        let stats = Stats::of(self);
        let c = stats.counters;
        let numbers = [
            ("nodes", c.nodes),
            ("forced", c.forced),
            ("cache_hits", c.cache_hits),
            ("restarts", c.restarts),
            ("vars", c.vars),
            ("repeat", c.repeat),
            ("clauses", c.clauses),
            ("constraints", c.constraints),
            ("conflicts", c.conflicts),
            ("moves", c.moves),
            ("filtered", c.filtered),
            ("states", c.states),
            ("refuted", c.refuted),
            ("proof_steps", c.proof_steps),
        ];
        let mut entries = Vec::with_capacity(8);
        entries.push(("time_ms", StatValue::Millis(stats.time_ms)));
        for (key, value) in numbers {
            if let Some(value) = value {
                entries.push((key, StatValue::Count(value)));
            }
        }
        if let Some(winner) = &c.winner {
            entries.push(("winner", StatValue::Text(winner)));
        }
        if let Some(stopped) = stats.stopped {
            entries.push(("stopped", StatValue::Word(stopped.name())));
        }
        if let Some(reason) = stats.reason {
            entries.push(("reason", StatValue::Text(reason)));
        }
        entries
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
            name: &self.header.name,
            backend: &self.header.backend,
            limit: self.limit,
            status: self.status,
            complete: self.complete,
            solutions: (!streamed).then_some(self.solutions.as_slice()),
            found: streamed.then_some(self.found),
            stats: Stats::of(&self.header),
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
            name: &self.header.name,
            backend: &self.header.backend,
            count: self.count.to_string(),
            complete: self.complete,
            stats: Stats::of(&self.header),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `stats_entries` written as JSON by hand, to compare with serde's text.
    fn entries_json(header: &Header) -> String {
        let fields = (header.stats_entries().into_iter())
            .map(|(key, value)| {
                let value = match value {
                    StatValue::Millis(ms) => serde_json::to_string(&ms),
                    StatValue::Count(n) => serde_json::to_string(&n),
                    StatValue::Word(word) => serde_json::to_string(word),
                    StatValue::Text(text) => serde_json::to_string(text),
                };
                format!("\"{key}\":{}", value.expect("a number or a string"))
            })
            .collect::<Vec<_>>();
        format!("{{{}}}", fields.join(","))
    }

    fn header(counters: Counters, ending: Ending, reason: Option<&str>) -> Header {
        Header {
            name: "b".into(),
            backend: "native".into(),
            time: Duration::from_nanos(1_234_567),
            cpu: None,
            peak: None,
            counters,
            ending,
            reason: reason.map(str::to_string),
        }
    }

    #[test]
    fn stats_entries_are_the_serde_stats_key_for_key_in_order() {
        let every = Counters {
            nodes: Some(1),
            forced: Some(2),
            cache_hits: Some(3),
            restarts: Some(4),
            vars: Some(5),
            repeat: Some(6),
            clauses: Some(7),
            constraints: Some(8),
            conflicts: Some(9),
            moves: Some(14),
            filtered: Some(10),
            states: Some(11),
            refuted: Some(12),
            proof_steps: Some(13),
            winner: Some("cadical".into()),
            set_aside: vec!["`x`: crashed".into()],
        };
        let some = Counters {
            nodes: Some(40),
            conflicts: Some(0),
            ..Counters::default()
        };
        let cases = [
            header(every.clone(), Ending::Exhausted, Some("row 3 needs 9 dots")),
            header(every, Ending::Timeout, None),
            header(some.clone(), Ending::Capped, None),
            header(some, Ending::Stopped, None),
            header(Counters::default(), Ending::Exhausted, None),
        ];
        for case in &cases {
            let serde = serde_json::to_string(&Stats::of(case)).expect("stats serialize");
            assert_eq!(entries_json(case), serde);
        }
    }
}
