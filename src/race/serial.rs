//! The race in this process: one measured run after another, stopped at the first
//! contradiction (`--jobs N` runs them in worker processes instead: [`super::jobs`]).

use super::{RaceError, RaceOptions, RunRow, check_agreement, check_counts, run};
use crate::backend::Backend;
use crate::driver::Request;
use crate::puzzle::Instance;

/// Runs every backend on every instance of every workload, calling `progress` with
/// (runs done, runs in all, the instance about to run) before each run and after the
/// last.
///
/// # Errors
/// A backend failure (with the instance named), or contradictory decisive answers.
pub fn race(
    workloads: &[(String, Vec<Instance>)],
    backends: &[Box<dyn Backend>],
    options: &RaceOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
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
            let first_row = rows.len();
            for backend in backends {
                progress(done, total, &instance.name);
                // Work another backend's last run left beside its search (an abandoned
                // LP) ends first: every run starts on an idle machine, as the driver
                // makes sure for the backend's own calls.
                for other in backends {
                    other.settle();
                }
                let mut row =
                    run::measure(workload, instance, backend.as_ref(), &request, options)?;
                // The page draws one tiling per instance: the others are not kept, so
                // that what the race holds (and the peak memory it measures) does not
                // grow with it.
                if rows[first_row..]
                    .iter()
                    .any(|r: &RunRow| r.tiling.is_some())
                {
                    row.tiling = None;
                }
                // An interrupt ends the race with what it has measured; the run it cut
                // short is not a measurement.
                if crate::interrupt::requested() {
                    return Ok(rows);
                }
                rows.push(row);
                // The same check as for merged shards, on this instance's rows so far,
                // so the race stops at the first contradicting answer.
                check_agreement(&rows[first_row..]).map_err(RaceError::Contradiction)?;
                check_counts(&rows[first_row..])?;
                done += 1;
                progress(done, total, "");
            }
        }
    }
    Ok(rows)
}
