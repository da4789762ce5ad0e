//! The aggregates of a race (`summary.json`) and the tables of `summary.md`, in the
//! shape of the paper's Tables 1–3.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use super::{RunRow, stats};
use crate::backend::registry;
use crate::escape::markdown as cell;

/// Aggregates for one backend over a set of instances.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Aggregate {
    /// Runs, one per instance: capped and failed ones included.
    pub instances: usize,
    /// Runs that decided the instance (any status but `unknown`), the ones with a time.
    pub solved: usize,
    /// Capped runs: the time limit (or another cap) stopped them.
    pub unknown: usize,
    /// Runs where the backend itself failed or refused the model.
    pub errors: usize,
    /// Median of the per-instance median times over decided runs, in milliseconds.
    pub median_ms: Option<f64>,
    /// Nearest-rank 95th percentile of the same times, in milliseconds.
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
    let errors = rows.iter().filter(|r| r.error.is_some()).count();
    Aggregate {
        instances: rows.len(),
        solved: times.len(),
        unknown: rows.len() - times.len() - errors,
        errors,
        median_ms: stats::median(&times),
        p95_ms: stats::nearest_rank(&times, 95.0),
        median_nodes: stats::median(&nodes),
    }
}

/// `summary.json`: per backend overall, and per workload file.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Summary {
    /// Per backend, over every workload.
    pub backends: BTreeMap<String, Aggregate>,
    /// Per workload file, then per backend.
    pub workloads: BTreeMap<String, BTreeMap<String, Aggregate>>,
    /// The limits of the runs (one value unless shards of different races were merged).
    pub limits: Vec<usize>,
    /// Timed calls per instance; `None` when not known (merged shards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat: Option<u32>,
    /// The time limit of each call, in seconds; `None` for no limit, or when not known
    /// (merged shards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_s: Option<f64>,
    /// The `--memory` limit of the race in MiB; `None` for none, or when not known
    /// (merged shards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_mib: Option<u64>,
    /// The first call's time above which a run is timed once, in seconds; `None` when
    /// not known (merged shards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat_below_s: Option<f64>,
    /// The machine and the dominofit build that ran the race; `None` for merged shards,
    /// which may come from several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine: Option<super::Machine>,
}

/// Distinct values in first-seen order.
fn distinct<'a>(values: impl Iterator<Item = &'a String>) -> Vec<&'a String> {
    let mut seen: Vec<&String> = Vec::new();
    for v in values {
        if !seen.contains(&v) {
            seen.push(v);
        }
    }
    seen
}

/// Aggregates rows per backend, overall and per workload. `repeat` and `timeout` are
/// the race's settings, when known (a merge of shards does not know them).
pub fn summarize(rows: &[RunRow], repeat: Option<u32>, timeout: Option<f64>) -> Summary {
    let mut backends = BTreeMap::new();
    let mut workloads: BTreeMap<String, BTreeMap<String, Aggregate>> = BTreeMap::new();
    for name in distinct(rows.iter().map(|r| &r.backend)) {
        backends.insert(
            name.clone(),
            aggregate(rows.iter().filter(|r| &r.backend == name)),
        );
        for file in distinct(rows.iter().map(|r| &r.workload)) {
            workloads.entry(file.clone()).or_default().insert(
                name.clone(),
                aggregate(
                    rows.iter()
                        .filter(|r| &r.backend == name && &r.workload == file),
                ),
            );
        }
    }
    let mut limits: Vec<usize> = rows.iter().map(|r| r.limit).collect();
    limits.sort_unstable();
    limits.dedup();
    Summary {
        backends,
        workloads,
        limits,
        repeat,
        timeout_s: timeout,
        memory_mib: None,
        repeat_below_s: None,
        machine: None,
    }
}

fn ms(v: Option<f64>) -> String {
    v.map_or("–".to_string(), |v| format!("{v:.3}"))
}

fn count(v: Option<f64>) -> String {
    v.map_or("–".to_string(), |v| format!("{v}"))
}

/// Backend names as shown in tables: external programs carry a mark, because they are
/// timed as whole processes (writing files, starting up, solving, reading back).
fn shown(name: &str) -> String {
    let base = name.split_once(':').map_or(name, |(base, _)| base);
    if registry::builtin(base).is_some() {
        name.to_string()
    } else {
        format!("{name}†")
    }
}

/// A workload's name in tables: its file name without directory and extension.
pub fn set_name(workload: &str) -> &str {
    let file = workload.rsplit('/').next().unwrap_or(workload);
    file.split_once('.').map_or(file, |(stem, _)| stem)
}

/// Workloads at most this large also get a per-instance table (Table 1's shape).
const PER_INSTANCE_UP_TO: usize = 6;

/// `summary.md`: per workload and backend, the median and P95 of per-instance medians,
/// median nodes, capped and failed runs (Tables 2–3); per instance for small workloads
/// (Table 1).
pub fn markdown(rows: &[RunRow], summary: &Summary) -> String {
    let mut out = String::new();
    let what = match summary.limits.as_slice() {
        [1] => "first solution (`--limit 1`)",
        [2] => "uniqueness check (`--limit 2`)",
        [0] => "counting (`--limit 0`)",
        _ => "mixed limits",
    };
    let _ = writeln!(out, "# Race: {what}\n");
    let mut protocol = String::from(
        "Times are per-instance medians in milliseconds, aggregated across the instances a \
         backend decided; capped runs (time limit) are counted apart and left out of the \
         times.",
    );
    if let Some(repeat) = summary.repeat {
        let _ = write!(
            protocol,
            " Each instance: a first call, then 3 warm-ups and timed calls ({repeat}) \
             whose median counts; a first call over one second is timed alone."
        );
    }
    if let Some(t) = summary.timeout_s {
        let _ = write!(protocol, " Time limit {t} s per call.");
    }
    if let Some(m) = summary.memory_mib {
        let _ = write!(protocol, " Memory limit {m} MiB.");
    }
    let _ = writeln!(
        out,
        "{protocol} Backends marked † are external programs, timed as whole processes.\n"
    );
    if let Some(m) = &summary.machine {
        let _ = writeln!(
            out,
            "Machine: {}, {} cores, {} MiB, {}; dominofit {} ({}).\n",
            crate::escape::markdown(&m.cpu),
            m.cores,
            m.memory_mib,
            crate::escape::markdown(&m.os),
            m.dominofit,
            m.commit
        );
    }
    let _ = writeln!(
        out,
        "| Set | Backend | Solved | Median ms | P95 ms | Nodes | Capped | Errors |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|");
    let files = distinct(rows.iter().map(|r| &r.workload));
    for (file, per_backend) in files
        .iter()
        .filter_map(|f| Some((f, summary.workloads.get(*f)?)))
    {
        for (name, a) in per_backend {
            let _ = writeln!(
                out,
                "| {} {} | {} | {}/{} | {} | {} | {} | {} | {} |",
                a.instances,
                cell(set_name(file)),
                cell(&shown(name)),
                a.solved,
                a.instances,
                ms(a.median_ms),
                ms(a.p95_ms),
                count(a.median_nodes),
                a.unknown,
                a.errors
            );
        }
    }
    for file in files {
        let of_file: Vec<&RunRow> = rows.iter().filter(|r| &r.workload == file).collect();
        let instances = distinct(of_file.iter().map(|r| &r.instance)).len();
        if instances > PER_INSTANCE_UP_TO {
            continue;
        }
        let _ = writeln!(out, "\n## {} per instance\n", cell(set_name(file)));
        let _ = writeln!(out, "| Board | Backend | Status | ms | Nodes | Forced |");
        let _ = writeln!(out, "|---|---|---|---:|---:|---:|");
        for r in of_file {
            let status = if r.error.is_some() {
                "error"
            } else {
                r.status.name()
            };
            let _ = writeln!(
                out,
                "| {} | {} | {status} | {} | {} | {} |",
                cell(&r.instance),
                cell(&shown(&r.backend)),
                ms(r.time_ms),
                count(r.nodes.map(|n| n as f64)),
                count(r.forced.map(|n| n as f64)),
            );
        }
    }
    let failed: Vec<&RunRow> = rows.iter().filter(|r| r.error.is_some()).collect();
    if !failed.is_empty() {
        let _ = writeln!(out, "\n## Errors\n");
        for name in distinct(failed.iter().map(|r| &r.backend)) {
            let of_backend: Vec<&&RunRow> = failed.iter().filter(|r| &r.backend == name).collect();
            let first = of_backend[0];
            let _ = writeln!(
                out,
                "- {}: {} run(s); the first, on {}: {}",
                cell(name),
                of_backend.len(),
                cell(&first.instance),
                cell(first.error.as_deref().unwrap_or_default())
            );
        }
    }
    out
}
