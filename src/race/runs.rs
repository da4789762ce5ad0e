//! `runs.csv`: one row per instance and backend, written by a race and read back to
//! merge the shards of a campaign. The columns are the fields of [`Record`], written
//! and read through its serde derives; the header names them, so a file from another
//! version is recognised by its header and refused with the version it needs.
//!
//! Text cells (workload, instance, backend, error) are written so that a spreadsheet
//! reads them as text, never as a formula (CSV injection): a cell that starts with `=`,
//! `+`, `-`, `@`, a tab or a carriage return — or with `'`, the mark itself — gets a `'`
//! in front, as OWASP advises; reading takes the mark off again, so a merge reads back
//! exactly what the race measured. Cells are quoted where CSV needs it (a separator, a
//! quote or a line break inside), not everywhere, so that lines stay easy to grep.

use serde::{Deserialize, Serialize};

use super::RunRow;
use crate::backend::{End, Status};

/// The version of the columns: raised whenever a column is added, removed or changes
/// meaning, and named in the error for files of another version.
pub const RUNS_CSV_VERSION: u32 = 3;

/// One line of `runs.csv`, as written: the status of a failed run is `error`, times are
/// rounded, a count is its decimal digits.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    workload: String,
    instance: String,
    backend: String,
    rows: usize,
    cols: usize,
    limit: usize,
    status: String,
    complete: bool,
    time_ms: Option<f64>,
    cpu_ms: Option<f64>,
    peak_mib: Option<f64>,
    nodes: Option<u64>,
    forced: Option<u64>,
    solutions: usize,
    count: Option<String>,
    end: String,
    error: Option<String>,
}

/// A text cell as written: formula-looking text behind a `'`.
fn to_cell(text: &str) -> String {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r' | '\'') => format!("'{text}"),
        _ => text.to_string(),
    }
}

/// A text cell as read: the mark [`to_cell`] added taken off.
fn from_cell(cell: String) -> String {
    match cell.strip_prefix('\'') {
        Some(text) => text.to_string(),
        None => cell,
    }
}

/// The header a file of this version has: [`Record`]'s fields in order.
const HEADER: [&str; 17] = [
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
    "peak_mib",
    "nodes",
    "forced",
    "solutions",
    "count",
    "end",
    "error",
];

impl Record {
    fn of(r: &RunRow) -> Record {
        Record {
            workload: r.workload.clone(),
            instance: r.instance.clone(),
            backend: r.backend.clone(),
            rows: r.rows,
            cols: r.cols,
            limit: r.limit,
            status: if r.error.is_some() {
                "error".to_string()
            } else {
                r.status.name().to_string()
            },
            complete: r.complete,
            time_ms: r.time_ms.map(|t| (t * 1e4).round() / 1e4),
            cpu_ms: r.cpu_ms,
            peak_mib: r.peak_mib,
            nodes: r.nodes,
            forced: r.forced,
            solutions: r.solutions,
            count: r.count.clone(),
            end: r.end.name().to_string(),
            error: r.error.clone(),
        }
    }

    /// The record as a spreadsheet must read it: text cells through [`to_cell`].
    fn for_spreadsheet(mut self) -> Record {
        self.workload = to_cell(&self.workload);
        self.instance = to_cell(&self.instance);
        self.backend = to_cell(&self.backend);
        self.error = self.error.as_deref().map(to_cell);
        self
    }

    /// The record as the race made it, from [`Record::for_spreadsheet`]'s cells.
    fn read_from_spreadsheet(mut self) -> Record {
        self.workload = from_cell(self.workload);
        self.instance = from_cell(self.instance);
        self.backend = from_cell(self.backend);
        self.error = self.error.map(from_cell);
        self
    }

    /// The row, with every field checked the way the race writes it.
    fn into_row(self) -> Result<RunRow, String> {
        let measure = |v: Option<f64>, what: &str| match v {
            Some(x) if !(x.is_finite() && x >= 0.0) => Err(format!("bad {what} `{x}`")),
            v => Ok(v),
        };
        let (status, error) = match self.status.as_str() {
            "error" => (Status::Unknown, Some(self.error.unwrap_or_default())),
            name => (
                Status::from_name(name).ok_or_else(|| format!("bad status `{name}`"))?,
                None,
            ),
        };
        if let Some(count) = &self.count
            && !count.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(format!("bad count `{count}`"));
        }
        let end = End::from_name(&self.end).ok_or_else(|| format!("bad end `{}`", self.end))?;
        Ok(RunRow {
            workload: self.workload,
            instance: self.instance,
            backend: self.backend,
            rows: self.rows,
            cols: self.cols,
            limit: self.limit,
            status,
            complete: self.complete,
            time_ms: measure(self.time_ms, "time")?,
            cpu_ms: measure(self.cpu_ms, "CPU time")?,
            peak_mib: measure(self.peak_mib, "peak memory")?,
            nodes: self.nodes,
            forced: self.forced,
            solutions: self.solutions,
            count: self.count,
            end,
            error,
            tiling: None,
        })
    }
}

/// A row as one JSON line with the fields of runs.csv: what a `race --jobs` worker prints.
///
/// # Errors
/// Serialisation fails (it does not for rows a race makes).
pub fn row_to_json(row: &RunRow) -> Result<String, serde_json::Error> {
    serde_json::to_string(&Record::of(row))
}

/// The row a worker printed, checked as a runs.csv line is.
pub(super) fn row_from_json(line: &str) -> Result<RunRow, String> {
    serde_json::from_str::<Record>(line)
        .map_err(|e| format!("not a row: {e}"))?
        .into_row()
}

/// Reads the rows of a `runs.csv` written by [`write_runs_csv`] (to merge shards).
///
/// # Errors
/// A file that is not such a table (with the line named), or one of another version
/// (with the version it needs).
pub fn read_runs_csv(input: impl std::io::Read, origin: &str) -> Result<Vec<RunRow>, String> {
    let mut reader = csv::Reader::from_reader(input);
    let header = reader
        .headers()
        .map_err(|e| format!("{origin}: {e}"))?
        .clone();
    if header.iter().ne(HEADER) {
        return Err(format!(
            "{origin}: not a runs.csv of version {RUNS_CSV_VERSION} (dominofit {}), which has \
             the columns {}; files without `peak_mib` come from an earlier dominofit: run the \
             race again with this one",
            env!("CARGO_PKG_VERSION"),
            HEADER.join(",")
        ));
    }
    let mut rows = Vec::new();
    for (k, record) in reader.deserialize::<Record>().enumerate() {
        let line = k + 2;
        let row = record
            .map_err(|e| format!("{origin}: line {line}: {e}"))?
            .read_from_spreadsheet()
            .into_row()
            .map_err(|e| format!("{origin}: line {line}: {e}"))?;
        rows.push(row);
    }
    Ok(rows)
}

/// Writes `runs.csv`; times in milliseconds with four decimals, empty for capped runs.
///
/// # Errors
/// The writer fails.
pub fn write_runs_csv(rows: &[RunRow], out: impl std::io::Write) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_writer(out);
    if rows.is_empty() {
        w.write_record(HEADER)?;
    }
    for r in rows {
        w.serialize(Record::of(r).for_spreadsheet())?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{HEADER, Record};

    /// The header constant (checked when reading) is the one serde writes.
    #[test]
    fn header_is_the_records_fields() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(Record {
            workload: String::new(),
            instance: String::new(),
            backend: String::new(),
            rows: 0,
            cols: 0,
            limit: 0,
            status: String::new(),
            complete: false,
            time_ms: None,
            cpu_ms: None,
            peak_mib: None,
            nodes: None,
            forced: None,
            solutions: 0,
            count: None,
            end: String::new(),
            error: None,
        })
        .unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next().unwrap(), HEADER.join(","));
    }
}
