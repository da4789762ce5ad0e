//! One run of a race: an instance on a backend under the protocol, measured, as the row
//! runs.csv writes. The sequential race and the worker processes of `race --jobs` both
//! make their rows here, so a row means the same whichever ran it.

use std::time::Duration;

use super::{RaceError, RaceOptions, RunRow};
use crate::backend::{Backend, BackendError, Status};
use crate::driver::{self, Request};
use crate::puzzle::{Instance, Solution};
use crate::usage::Meter;

/// Runs `instance` on `backend` and measures it: wall time, CPU time and peak memory,
/// and how the run ended. A backend failure is a row (`error`, with its `end`); only a
/// tiling the verifier rejects stops the race.
///
/// # Errors
/// [`RaceError::WrongSolution`].
pub fn measure(
    workload: &str,
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
    options: &RaceOptions,
) -> Result<RunRow, RaceError> {
    let meter = Meter::start();
    let result = timed(instance, backend, request, options);
    let used = meter.read();
    Ok(match result {
        Ok(measured) => RunRow {
            workload: workload.to_string(),
            instance: instance.name.clone(),
            backend: measured.header.backend,
            rows: instance.rows,
            cols: instance.cols,
            limit: options.limit,
            status: measured.status,
            complete: measured.complete,
            time_ms: (measured.status != Status::Unknown)
                .then_some(measured.header.time.as_secs_f64() * 1e3),
            cpu_ms: Some(rounded_ms(measured.header.cpu.unwrap_or_default())),
            peak_mib: measured.header.peak.map(mib),
            nodes: measured.header.counters.nodes,
            forced: measured.header.counters.forced,
            solutions: measured.solutions,
            count: measured.count,
            end: measured.header.ending.end(),
            error: None,
            tiling: measured.tiling,
        },
        Err(source @ BackendError::WrongSolution { .. }) => {
            return Err(RaceError::WrongSolution {
                workload: workload.to_string(),
                instance: instance.name.clone(),
                source: Box::new(source),
            });
        }
        Err(failure) => RunRow {
            workload: workload.to_string(),
            instance: instance.name.clone(),
            backend: backend.name().to_string(),
            rows: instance.rows,
            cols: instance.cols,
            limit: options.limit,
            status: Status::Unknown,
            complete: false,
            time_ms: None,
            cpu_ms: Some(rounded_ms(used.cpu)),
            peak_mib: used.peak.map(mib),
            nodes: None,
            forced: None,
            solutions: 0,
            count: None,
            end: failure.end(),
            error: Some(failure.to_string()),
            tiling: None,
        },
    })
}

/// Milliseconds rounded as runs.csv writes them (four decimals), so a row reads back
/// equal.
fn rounded_ms(time: Duration) -> f64 {
    (time.as_secs_f64() * 1e7).round() / 1e4
}

/// Bytes in MiB, rounded as runs.csv writes them (one decimal).
fn mib(bytes: u64) -> f64 {
    (bytes as f64 / f64::from(1 << 20) * 10.0).round() / 10.0
}

/// What one instance on one backend gave, solved or counted.
struct Measured {
    /// Backend, time, CPU and peak (measured), work, ending.
    header: driver::Header,
    status: Status,
    complete: bool,
    solutions: usize,
    count: Option<String>,
    /// The first tiling found.
    tiling: Option<Solution>,
}

/// One instance on one backend under the protocol: a first call, then (if it decided
/// quickly) warm-ups and timed calls. A counting race (`limit` 0) counts instead, by the
/// backend's own counter or by enumeration (`driver::count`), in constant memory.
fn timed(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
    options: &RaceOptions,
) -> Result<Measured, BackendError> {
    if request.limit == 0 {
        return timed_count(instance, backend, request, options);
    }
    let report = driver::protocol(
        options.repeat,
        options.repeat_below,
        |first: &driver::Report| first.status != Status::Unknown,
        || driver::run(instance, backend, request),
    )?;
    Ok(Measured {
        status: report.status,
        complete: report.complete,
        solutions: report.solutions.len(),
        count: None,
        tiling: report.solutions.into_iter().next(),
        header: report.header,
    })
}

/// [`timed`] for a counting race: what is timed is a complete count, so an incomplete
/// one is `unknown` (capped) whatever it found; a complete count's status says what it
/// proves (`unsat`, `unique`, `multiple`). Lower bounds still take part in
/// [`check_counts`].
fn timed_count(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
    options: &RaceOptions,
) -> Result<Measured, BackendError> {
    let report = driver::protocol(
        options.repeat,
        options.repeat_below,
        |first: &driver::CountReport| first.complete,
        || driver::count(instance, backend, request),
    )?;
    let found = u64::try_from(&report.count).unwrap_or(u64::MAX);
    Ok(Measured {
        status: if report.complete {
            Status::from_evidence(found, true, 0)
        } else {
            Status::Unknown
        },
        complete: report.complete,
        solutions: usize::try_from(found).unwrap_or(usize::MAX),
        count: Some(report.count.to_string()),
        tiling: None,
        header: report.header,
    })
}
