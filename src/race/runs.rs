//! `runs.csv`: one row per instance and backend, written by a race and read back to
//! merge the shards of a campaign.

use super::RunRow;
use crate::backend::Status;

/// The columns, in order.
const HEADER: [&str; 16] = [
    "workload",
    "instance",
    "backend",
    "rows",
    "cols",
    "limit",
    "status",
    "complete",
    "time_ms",
    "cpu_ms",
    "nodes",
    "forced",
    "solutions",
    "count",
    "end",
    "error",
];

/// Reads the rows of a `runs.csv` written by [`write_runs_csv`] (to merge shards).
///
/// # Errors
/// A file that is not such a table, with the line named.
pub fn read_runs_csv(input: impl std::io::Read, origin: &str) -> Result<Vec<RunRow>, String> {
    let mut reader = csv::Reader::from_reader(input);
    let header = reader
        .headers()
        .map_err(|e| format!("{origin}: {e}"))?
        .clone();
    if header.iter().ne(HEADER) {
        return Err(format!(
            "{origin}: not a runs.csv of this version: expected the columns {} (files \
             without `cpu_ms`, `count` and `end` come from an earlier dominofit; run the race again)",
            HEADER.join(",")
        ));
    }
    let mut rows = Vec::new();
    for (k, record) in reader.records().enumerate() {
        let line = k + 2;
        let r = record.map_err(|e| format!("{origin}: line {line}: {e}"))?;
        let bad = |what: &str, field: &str| format!("{origin}: line {line}: bad {what} `{field}`");
        let float = |i: usize, what: &str| -> Result<Option<f64>, String> {
            match &r[i] {
                "" => Ok(None),
                f => f
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .map(Some)
                    .ok_or_else(|| bad(what, f)),
            }
        };
        let integer = |i: usize, what: &str| -> Result<Option<u64>, String> {
            match &r[i] {
                "" => Ok(None),
                f => f.parse().map(Some).map_err(|_| bad(what, f)),
            }
        };
        let size = |i: usize, what: &str| -> Result<usize, String> {
            r[i].parse().map_err(|_| bad(what, &r[i]))
        };
        let (status, error) = match &r[6] {
            "error" => (Status::Unknown, Some(r[15].to_string())),
            name => (
                Status::from_name(name).ok_or_else(|| bad("status", name))?,
                None,
            ),
        };
        rows.push(RunRow {
            workload: r[0].to_string(),
            instance: r[1].to_string(),
            backend: r[2].to_string(),
            rows: size(3, "row count")?,
            cols: size(4, "column count")?,
            limit: size(5, "limit")?,
            status,
            complete: match &r[7] {
                "true" => true,
                "false" => false,
                f => return Err(bad("completeness", f)),
            },
            time_ms: float(8, "time")?,
            cpu_ms: float(9, "CPU time")?,
            nodes: integer(10, "node count")?,
            forced: integer(11, "forced count")?,
            solutions: size(12, "solution count")?,
            count: match &r[13] {
                "" => None,
                f if f.bytes().all(|b| b.is_ascii_digit()) => Some(f.to_string()),
                f => return Err(bad("count", f)),
            },
            end: match &r[14] {
                f @ ("done" | "timeout" | "capped" | "crash" | "error") => f.to_string(),
                f => return Err(bad("end", f)),
            },
            error,
        });
    }
    Ok(rows)
}

/// Writes `runs.csv`; times in milliseconds with four decimals, empty for capped runs.
///
/// # Errors
/// The writer fails.
pub fn write_runs_csv(rows: &[RunRow], out: impl std::io::Write) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(HEADER)?;
    let optional = |v: Option<u64>| v.map(|n| n.to_string()).unwrap_or_default();
    for r in rows {
        let status = if r.error.is_some() {
            "error"
        } else {
            r.status.name()
        };
        w.write_record([
            r.workload.as_str(),
            &r.instance,
            &r.backend,
            &r.rows.to_string(),
            &r.cols.to_string(),
            &r.limit.to_string(),
            status,
            &r.complete.to_string(),
            &r.time_ms.map(|t| format!("{t:.4}")).unwrap_or_default(),
            &r.cpu_ms.map(|t| format!("{t:.4}")).unwrap_or_default(),
            &optional(r.nodes),
            &optional(r.forced),
            &r.solutions.to_string(),
            r.count.as_deref().unwrap_or(""),
            &r.end,
            r.error.as_deref().unwrap_or(""),
        ])?;
    }
    w.flush()?;
    Ok(())
}
