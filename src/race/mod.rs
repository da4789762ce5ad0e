//! The race harness: every backend on every instance under one timing protocol, every
//! solution through the shared verifier (`driver::run`), and a stop with the instance
//! named when two backends give contradictory decisive answers.
//!
//! Protocol (the paper's, Section 6.2): a first call with the time limit decides
//! whether the instance is capped (`unknown`, left out of time aggregates); otherwise
//! three warm-up calls and `repeat` timed calls give the per-instance median. Across
//! instances, the median and the nearest-rank P95 of those medians. In-process backends
//! are timed in-process; external ones as whole processes (files, start-up, solve).
//! One departure: a first call slower than `repeat_below` is timed once, since a
//! second-long run gains little from repetition and a campaign would take hours.
//!
//! A backend that fails or refuses a model gets an `error` row and the race goes on;
//! a backend whose tiling breaks the rules stops it, like a contradiction. An interrupt
//! (Ctrl-C) stops it too, keeping the rows measured so far.

mod jobs;
mod machine;
mod page;
mod plot;
mod run;
mod runs;
mod serial;
mod shard;
pub mod stats;
mod summary;

use std::time::Duration;

use serde::Serialize;

use crate::backend::{BackendError, End, Status};

pub use jobs::{WorkerFailure, race_in_processes};
pub use machine::Machine;
pub use page::{PageInfo, race_page};
pub use plot::{cactus_svg, size_svg};
pub use run::measure;
pub use runs::{read_runs_csv, row_to_json, write_runs_csv};
pub use serial::race;
pub use shard::Shard;
pub use summary::{Aggregate, Summary, markdown, set_name, summarize};

/// How a race is run.
#[derive(Debug, Clone)]
pub struct RaceOptions {
    /// The solution limit asked of every backend (1: first solution; 2: uniqueness;
    /// 0: all).
    pub limit: usize,
    /// Timed calls per instance after the warm-ups.
    pub repeat: u32,
    /// Time limit of each call (compilation and search); a run that reaches it is
    /// capped. `None`: no limit.
    pub timeout: Option<Duration>,
    /// First calls at least this long are not repeated.
    pub repeat_below: Duration,
}

impl RaceOptions {
    /// The defaults of `dominofit race`: five timed calls, repeated below one second.
    pub fn new(limit: usize) -> RaceOptions {
        RaceOptions {
            limit,
            repeat: 5,
            timeout: None,
            repeat_below: Duration::from_secs(1),
        }
    }
}

/// One instance on one backend.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunRow {
    /// The workload file the instance came from, as given to the race.
    pub workload: String,
    /// The instance's name.
    pub instance: String,
    /// The backend, by the name it reports under.
    pub backend: String,
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// The solution limit asked for (1: first solution; 2: uniqueness; 0: all).
    pub limit: usize,
    /// `Unknown` for a capped run and for an error.
    pub status: Status,
    /// Whether the search space was exhausted; `false` for an error.
    pub complete: bool,
    /// Per-instance median; `None` for a capped or failed run.
    pub time_ms: Option<f64>,
    /// CPU time (user and system) of dominofit and the programs it ran, per call, in the
    /// same protocol as `time_ms` (the median of the timed calls); kept for capped runs
    /// too, and for a failed run, over its one call.
    pub cpu_ms: Option<f64>,
    /// Peak resident memory in MiB over the calls of the run: the larger of dominofit's
    /// (threads included; it holds a few MiB before any run) and the largest program's
    /// it ran (`wait4`). `None` where the kernel does not say.
    pub peak_mib: Option<f64>,
    /// Search nodes, for backends that count them.
    pub nodes: Option<u64>,
    /// Placements forced by propagation before the first branch, for backends that
    /// count them.
    pub forced: Option<u64>,
    /// Tilings found, each passed by the verifier; 0 for an error. In a counting race,
    /// the count, saturated at `usize::MAX`.
    pub solutions: usize,
    /// In a counting race (`limit` 0), the count in decimal: exact when `complete`,
    /// otherwise a lower bound.
    pub count: Option<String>,
    /// How the run ended: `done` (decided, or the search exhausted), `timeout`,
    /// `capped` (another resource cap), `memout` (a program ran out of the `--memory`
    /// limit), `crash` (the program died of a signal) or `error` (any other failure).
    pub end: End,
    /// The backend's failure, for a run that ended in one.
    pub error: Option<String>,
    /// The first tiling the run found (verified, as every one is), for the race page;
    /// a race keeps it only on the first run of an instance that found one. Not a column
    /// of runs.csv: rows read back from one (merged shards, the workers of `race --jobs`)
    /// have none.
    #[serde(skip)]
    pub tiling: Option<crate::puzzle::Solution>,
}

/// Two backends that cannot both be right about one instance.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "contradictory answers on `{instance}` ({workload}): {first_backend} says {first}, \
     {second_backend} says {second}"
)]
pub struct Contradiction {
    /// The workload file of the instance.
    pub workload: String,
    /// The instance the answers are about.
    pub instance: String,
    /// The backend whose answer came first (in row order).
    pub first_backend: String,
    /// Its status, by name ([`Status::name`]).
    pub first: &'static str,
    /// The backend whose answer contradicts it.
    pub second_backend: String,
    /// Its status, by name.
    pub second: &'static str,
}

/// Why a race stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RaceError {
    /// Two backends gave contradictory decisive answers on one instance.
    #[error(transparent)]
    Contradiction(Box<Contradiction>),
    /// A tiling that breaks the rules: the backend is wrong, so its times mean nothing.
    #[error("instance `{instance}` ({workload}): {source}")]
    WrongSolution {
        /// The workload file of the instance.
        workload: String,
        /// The instance the tiling was for.
        instance: String,
        /// The verifier's finding ([`BackendError::WrongSolution`]).
        #[source]
        source: Box<BackendError>,
    },
    /// Merged runs.csv files that hold the same run twice.
    #[error(
        "`{instance}` ({workload}) on `{backend}` appears in more than one row: the runs.csv \
         files overlap (the same shard twice, or a merged report among its shards?)"
    )]
    Overlap {
        /// The workload file of the repeated run.
        workload: String,
        /// The instance run twice.
        instance: String,
        /// The backend it was run on.
        backend: String,
    },
    /// Two counts of one instance that cannot both be right: two different complete
    /// counts, or a lower bound above a complete count.
    #[error(transparent)]
    CountMismatch(Box<CountMismatch>),
    /// A worker process of `race --jobs` gave no row.
    #[error(transparent)]
    Worker(Box<WorkerFailure>),
    /// The temporary directory of `race --jobs`'s workers could not be made.
    #[error("cannot create a temporary directory for the workers: {0}")]
    Scratch(std::io::Error),
}

/// Two counts of one instance that cannot both be right.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "instance `{instance}` ({workload}): `{first_backend}` counts {first} and \
     `{second_backend}` counts {second}; at least one of them is wrong"
)]
pub struct CountMismatch {
    /// The workload the instance came from.
    pub workload: String,
    /// The instance's name.
    pub instance: String,
    /// The backend that counted first.
    pub first_backend: String,
    /// Its count (`at least N` for a lower bound).
    pub first: String,
    /// The backend that disagrees.
    pub second_backend: String,
    /// Its count.
    pub second: String,
}

/// Whether two decisive answers cannot both be right.
pub fn contradicts(a: Status, b: Status) -> bool {
    use Status::*;
    matches!(
        (a, b),
        (Unsat, Sat | Unique | Multiple)
            | (Sat | Unique | Multiple, Unsat)
            | (Unique, Multiple)
            | (Multiple, Unique)
    )
}

/// Checks that rows from separate races (merged shards) do not overlap: an instance
/// run twice on one backend would count twice in every aggregate.
///
/// # Errors
/// The first repeated (workload, instance, backend), in words.
pub fn check_disjoint(rows: &[RunRow]) -> Result<(), RaceError> {
    let mut seen = std::collections::HashSet::new();
    for r in rows {
        if !seen.insert((&r.workload, &r.instance, &r.backend)) {
            return Err(RaceError::Overlap {
                workload: r.workload.clone(),
                instance: r.instance.clone(),
                backend: r.backend.clone(),
            });
        }
    }
    Ok(())
}

/// Checks rows from separate races (merged shards) for contradictory decisive
/// answers on one instance, as a single race would have.
///
/// # Errors
/// The first contradiction, in row order.
pub fn check_agreement(rows: &[RunRow]) -> Result<(), Box<Contradiction>> {
    let mut decisive: std::collections::HashMap<(&str, &str), Vec<(&str, Status)>> =
        std::collections::HashMap::new();
    for r in rows
        .iter()
        .filter(|r| r.error.is_none() && r.status != Status::Unknown)
    {
        let seen = decisive
            .entry((r.workload.as_str(), r.instance.as_str()))
            .or_default();
        if let Some(&(other, status)) = seen.iter().find(|(_, s)| contradicts(*s, r.status)) {
            return Err(Box::new(Contradiction {
                workload: r.workload.clone(),
                instance: r.instance.clone(),
                first_backend: other.to_string(),
                first: status.name(),
                second_backend: r.backend.clone(),
                second: r.status.name(),
            }));
        }
        seen.push((&r.backend, r.status));
    }
    Ok(())
}

/// Checks the counts of a counting race (rows with a `count`) for two that cannot both be
/// right about one instance: different complete counts, or a lower bound (an incomplete
/// count) above a complete one.
///
/// # Errors
/// The first disagreement, in row order.
pub fn check_counts(rows: &[RunRow]) -> Result<(), RaceError> {
    use num_bigint::BigUint;
    let mut seen: std::collections::HashMap<(&str, &str), Vec<(&RunRow, BigUint)>> =
        std::collections::HashMap::new();
    let shown = |r: &RunRow| {
        let count = r.count.clone().unwrap_or_default();
        if r.complete {
            count
        } else {
            format!("at least {count}")
        }
    };
    for r in rows.iter().filter(|r| r.error.is_none()) {
        let Some(count) = r.count.as_deref().and_then(|c| c.parse::<BigUint>().ok()) else {
            continue;
        };
        let earlier = seen
            .entry((r.workload.as_str(), r.instance.as_str()))
            .or_default();
        for (other, other_count) in earlier.iter() {
            let clash = match (other.complete, r.complete) {
                (true, true) => *other_count != count,
                (true, false) => count > *other_count,
                (false, true) => *other_count > count,
                (false, false) => false,
            };
            if clash {
                return Err(RaceError::CountMismatch(Box::new(CountMismatch {
                    workload: r.workload.clone(),
                    instance: r.instance.clone(),
                    first_backend: other.backend.clone(),
                    first: shown(other),
                    second_backend: r.backend.clone(),
                    second: shown(r),
                })));
            }
        }
        earlier.push((r, count));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(backend: &str, status: Status, time: Option<f64>) -> RunRow {
        RunRow {
            workload: "w".into(),
            instance: "i".into(),
            backend: backend.into(),
            rows: 6,
            cols: 6,
            limit: 1,
            status,
            complete: true,
            time_ms: time,
            cpu_ms: time,
            peak_mib: Some(5.0),
            nodes: Some(1),
            forced: None,
            solutions: 1,
            count: None,
            end: End::Done,
            error: None,
            tiling: None,
        }
    }

    fn counted(backend: &str, count: &str, complete: bool) -> RunRow {
        RunRow {
            limit: 0,
            complete,
            count: Some(count.to_string()),
            ..row(backend, Status::Multiple, Some(1.0))
        }
    }

    #[test]
    fn counts_that_cannot_both_be_right_are_a_mismatch() {
        // Equal complete counts, and a lower bound below them, agree.
        let agreeing = [
            counted("a", "12", true),
            counted("b", "12", true),
            counted("c", "7", false),
        ];
        assert!(check_counts(&agreeing).is_ok());
        for (second, complete) in [("13", true), ("20", false)] {
            let rows = [counted("a", "12", true), counted("b", second, complete)];
            let err = check_counts(&rows).unwrap_err();
            assert!(matches!(err, RaceError::CountMismatch(_)), "{err}");
            assert!(err.to_string().contains("instance `i`"), "{err}");
        }
        // A lower bound first, then a complete count below it.
        let rows = [counted("a", "20", false), counted("b", "12", true)];
        assert!(check_counts(&rows).is_err());
        // Two lower bounds never clash.
        let rows = [counted("a", "20", false), counted("b", "3", false)];
        assert!(check_counts(&rows).is_ok());
    }

    #[test]
    fn capped_runs_are_counted_apart() {
        let rows = vec![
            row("a", Status::Sat, Some(1.0)),
            row("a", Status::Unknown, None),
            row("a", Status::Sat, Some(3.0)),
        ];
        let s = summarize(&rows, Some(1), None);
        let a = &s.backends["a"];
        assert_eq!((a.instances, a.solved, a.unknown), (3, 2, 1));
        assert_eq!(a.median_ms, Some(2.0));
        assert_eq!(a.p95_ms, Some(3.0));
    }

    #[test]
    fn contradictions() {
        use Status::*;
        assert!(contradicts(Unsat, Sat));
        assert!(contradicts(Unique, Multiple));
        assert!(!contradicts(Sat, Unique));
        assert!(!contradicts(Sat, Multiple));
        assert!(!contradicts(Unknown, Unsat));
    }
}
