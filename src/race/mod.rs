//! The race harness: every backend on every instance under one timing protocol, every
//! solution through the shared verifier (`backend::run`), and a stop with the instance
//! named when two backends give contradictory decisive answers.
//!
//! Protocol (the paper's, Section 6.2): a first call with the time limit decides
//! whether the instance is capped (`unknown`, left out of time aggregates); otherwise
//! three warm-up calls and `repeat` timed calls give the per-instance median. Across
//! instances, the median and the nearest-rank P95 of those medians. In-process backends
//! are timed in-process; external ones as whole processes (files, start-up, solve).

pub mod stats;

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;

use crate::backend::{self, Backend, BackendError, Request, Status};
use crate::puzzle::Instance;

/// How a race is run.
#[derive(Debug, Clone)]
pub struct RaceOptions {
    pub limit: usize,
    /// Timed calls per instance after the warm-ups.
    pub repeat: u32,
    pub timeout: Option<Duration>,
}

/// One instance on one backend.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunRow {
    pub workload: String,
    pub instance: String,
    pub backend: String,
    pub status: Status,
    pub complete: bool,
    /// Per-instance median; `None` for a capped run.
    pub time_ms: Option<f64>,
    pub nodes: Option<u64>,
    pub solutions: usize,
}

/// Two backends that cannot both be right about one instance.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "contradictory answers on `{instance}` ({workload}): {first_backend} says {first}, \
     {second_backend} says {second}"
)]
pub struct Contradiction {
    pub workload: String,
    pub instance: String,
    pub first_backend: String,
    pub first: &'static str,
    pub second_backend: String,
    pub second: &'static str,
}

/// Why a race stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RaceError {
    #[error(transparent)]
    Contradiction(Box<Contradiction>),
    #[error("instance `{instance}` ({workload}): {source}")]
    Backend {
        workload: String,
        instance: String,
        #[source]
        source: Box<BackendError>,
    },
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

/// Runs every backend on every instance of every workload, calling `progress` with
/// (runs done, runs in all) after each.
///
/// # Errors
/// A backend failure (with the instance named), or contradictory decisive answers.
pub fn race(
    workloads: &[(String, Vec<Instance>)],
    backends: &[Box<dyn Backend>],
    options: &RaceOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<RunRow>, RaceError> {
    let total: usize = workloads.iter().map(|(_, w)| w.len()).sum::<usize>() * backends.len();
    let mut done = 0;
    let mut rows = Vec::with_capacity(total);
    let request = Request {
        limit: options.limit,
        timeout: options.timeout,
        families: None,
    };
    for (workload, instances) in workloads {
        for instance in instances {
            let mut decisive: Vec<(String, Status)> = Vec::new();
            for backend in backends {
                let failed = |source| RaceError::Backend {
                    workload: workload.clone(),
                    instance: instance.name.clone(),
                    source: Box::new(source),
                };
                let first = backend::run(instance, backend.as_ref(), &request).map_err(failed)?;
                let report = if first.status == Status::Unknown || options.repeat == 0 {
                    first
                } else {
                    backend::run_repeated(instance, backend.as_ref(), &request, options.repeat)
                        .map_err(failed)?
                };
                if report.status != Status::Unknown {
                    for (other, status) in &decisive {
                        if contradicts(*status, report.status) {
                            return Err(RaceError::Contradiction(Box::new(Contradiction {
                                workload: workload.clone(),
                                instance: instance.name.clone(),
                                first_backend: other.clone(),
                                first: status.name(),
                                second_backend: report.backend.clone(),
                                second: report.status.name(),
                            })));
                        }
                    }
                    decisive.push((report.backend.clone(), report.status));
                }
                rows.push(RunRow {
                    workload: workload.clone(),
                    instance: instance.name.clone(),
                    backend: report.backend.clone(),
                    status: report.status,
                    complete: report.complete,
                    time_ms: (report.status != Status::Unknown)
                        .then_some(report.time.as_secs_f64() * 1e3),
                    nodes: report.counters.nodes,
                    solutions: report.solutions.len(),
                });
                done += 1;
                progress(done, total);
            }
        }
    }
    Ok(rows)
}

/// Aggregates for one backend over a set of instances.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Aggregate {
    pub instances: usize,
    pub solved: usize,
    pub unknown: usize,
    pub median_ms: Option<f64>,
    pub p95_ms: Option<f64>,
    /// Median node count over solved instances, for backends that count nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub median_nodes: Option<f64>,
}

fn aggregate<'a>(rows: impl Iterator<Item = &'a RunRow>) -> Aggregate {
    let rows: Vec<&RunRow> = rows.collect();
    let times: Vec<f64> = rows.iter().filter_map(|r| r.time_ms).collect();
    let nodes: Vec<f64> = rows
        .iter()
        .filter(|r| r.time_ms.is_some())
        .filter_map(|r| r.nodes.map(|n| n as f64))
        .collect();
    Aggregate {
        instances: rows.len(),
        solved: times.len(),
        unknown: rows.len() - times.len(),
        median_ms: stats::median(&times),
        p95_ms: stats::nearest_rank(&times, 95.0),
        median_nodes: stats::median(&nodes),
    }
}

/// `summary.json`: per backend overall, and per workload file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub backends: BTreeMap<String, Aggregate>,
    pub workloads: BTreeMap<String, BTreeMap<String, Aggregate>>,
    pub limit: usize,
    pub repeat: u32,
    pub timeout_s: Option<f64>,
}

/// Aggregates rows per backend, overall and per workload.
pub fn summarize(rows: &[RunRow], options: &RaceOptions) -> Summary {
    let mut backends = BTreeMap::new();
    let mut workloads: BTreeMap<String, BTreeMap<String, Aggregate>> = BTreeMap::new();
    let names: Vec<&String> = {
        let mut v: Vec<&String> = rows.iter().map(|r| &r.backend).collect();
        v.sort();
        v.dedup();
        v
    };
    let files: Vec<&String> = {
        let mut v: Vec<&String> = rows.iter().map(|r| &r.workload).collect();
        v.sort();
        v.dedup();
        v
    };
    for name in &names {
        backends.insert(
            name.to_string(),
            aggregate(rows.iter().filter(|r| &&r.backend == name)),
        );
        for file in &files {
            workloads.entry(file.to_string()).or_default().insert(
                name.to_string(),
                aggregate(
                    rows.iter()
                        .filter(|r| &&r.backend == name && &&r.workload == file),
                ),
            );
        }
    }
    Summary {
        backends,
        workloads,
        limit: options.limit,
        repeat: options.repeat,
        timeout_s: options.timeout.map(|t| t.as_secs_f64()),
    }
}

/// A slice of a campaign: shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Parses `i/n` with 1 <= i <= n.
    ///
    /// # Errors
    /// Anything else, with a message saying what was expected.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not a shard: expected i/n with 1 <= i <= n, e.g. 2/8");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Keeps this shard's instances: the k-th instance of the whole campaign (all
    /// workloads in order) belongs to shard `k mod n + 1`, so shards are balanced across
    /// workloads and together cover every instance exactly once.
    pub fn select(&self, workloads: Vec<(String, Vec<Instance>)>) -> Vec<(String, Vec<Instance>)> {
        let mut k = 0usize;
        workloads
            .into_iter()
            .map(|(file, instances)| {
                let kept = instances
                    .into_iter()
                    .filter(|_| {
                        let mine = k % self.count == self.index - 1;
                        k += 1;
                        mine
                    })
                    .collect();
                (file, kept)
            })
            .collect()
    }
}

/// Reads the rows of a `runs.csv` written by [`write_runs_csv`] (to merge shards).
///
/// # Errors
/// A file that is not such a table.
pub fn read_runs_csv(input: impl std::io::Read, origin: &str) -> Result<Vec<RunRow>, String> {
    let mut reader = csv::Reader::from_reader(input);
    let mut rows = Vec::new();
    for (k, record) in reader.records().enumerate() {
        let line = k + 2;
        let r = record.map_err(|e| format!("{origin}: line {line}: {e}"))?;
        if r.len() != 8 {
            return Err(format!(
                "{origin}: line {line}: expected 8 fields, found {}",
                r.len()
            ));
        }
        let status = match &r[3] {
            "sat" => Status::Sat,
            "unique" => Status::Unique,
            "multiple" => Status::Multiple,
            "unsat" => Status::Unsat,
            "unknown" => Status::Unknown,
            other => return Err(format!("{origin}: line {line}: unknown status `{other}`")),
        };
        let number = |field: &str, what: &str| -> Result<Option<f64>, String> {
            if field.is_empty() {
                Ok(None)
            } else {
                field
                    .parse()
                    .map(Some)
                    .map_err(|_| format!("{origin}: line {line}: bad {what} `{field}`"))
            }
        };
        rows.push(RunRow {
            workload: r[0].to_string(),
            instance: r[1].to_string(),
            backend: r[2].to_string(),
            status,
            complete: &r[4] == "true",
            time_ms: number(&r[5], "time")?,
            nodes: number(&r[6], "node count")?.map(|n| n as u64),
            solutions: number(&r[7], "solution count")?.map_or(0, |n| n as usize),
        });
    }
    Ok(rows)
}

/// `runs.csv`, one row per instance and backend.
///
/// # Errors
/// The writer fails.
pub fn write_runs_csv(rows: &[RunRow], out: impl std::io::Write) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "workload",
        "instance",
        "backend",
        "status",
        "complete",
        "time_ms",
        "nodes",
        "solutions",
    ])?;
    for r in rows {
        w.write_record([
            r.workload.clone(),
            r.instance.clone(),
            r.backend.clone(),
            r.status.name().to_string(),
            r.complete.to_string(),
            r.time_ms.map(|t| format!("{t:.4}")).unwrap_or_default(),
            r.nodes.map(|n| n.to_string()).unwrap_or_default(),
            r.solutions.to_string(),
        ])?;
    }
    w.flush()?;
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
            status,
            complete: true,
            time_ms: time,
            nodes: Some(1),
            solutions: 1,
        }
    }

    #[test]
    fn capped_runs_are_counted_apart() {
        let rows = vec![
            row("a", Status::Sat, Some(1.0)),
            row("a", Status::Unknown, None),
            row("a", Status::Sat, Some(3.0)),
        ];
        let options = RaceOptions {
            limit: 1,
            repeat: 1,
            timeout: None,
        };
        let s = summarize(&rows, &options);
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
