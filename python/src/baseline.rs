//! The Rust side of the benchmark's side-by-side timings (scripts/python_bench.py).

use std::sync::Arc;
use std::time::Instant;

use pyo3::prelude::*;

use dominofit::backend::Backend;
use dominofit::driver::{self, Request};
use dominofit::puzzle::Instance;

use crate::backends::{self, Choice};
use crate::{board_error, fail, input, violation};

/// Seconds per call of the same work done by a Rust caller in this process, the backend
/// made once: the baseline the benchmark measures the Python calls against, side by
/// side. `solve`, `count` and `verify` start from the board already read and end with
/// the answer's Rust value; `solve-json` reads the board from JSON text and writes the
/// answer as JSON text.
#[pyfunction]
#[pyo3(signature = (action, source, backend, limit, calls))]
pub fn rust_seconds_per_call(
    py: Python<'_>,
    action: &str,
    source: &Bound<'_, PyAny>,
    backend: &str,
    limit: usize,
    calls: u32,
) -> PyResult<f64> {
    let [instance] = <[Instance; 1]>::try_from(input::instances(source)?.items)
        .map_err(|_| fail("one board, please"))?;
    let backend: Arc<dyn Backend> = backends::cached(&Choice {
        name: backend.to_string(),
        encoding: None,
        threads: None,
    })?;
    let request = Request {
        limit,
        timeout: None,
        families: None,
    };
    let tiling = driver::run(&instance, backend.as_ref(), &request)
        .map_err(|e| fail(board_error(&instance, &e)))?
        .solutions
        .into_iter()
        .next();
    let action = action.to_string();
    let text = instance.to_json();
    Ok(py.detach(move || {
        let start = Instant::now();
        for _ in 0..calls {
            let ok = match (action.as_str(), &tiling) {
                ("solve", _) => driver::run(&instance, backend.as_ref(), &request).is_ok(),
                // From JSON text to JSON text, as a Rust program reading and writing
                // boards as files does.
                ("solve-json", _) => {
                    dominofit::puzzle::parse::parse_given_instances(&text, "<instance>", "instance")
                        .ok()
                        .and_then(|boards| driver::run(&boards[0], backend.as_ref(), &request).ok())
                        .and_then(|report| serde_json::to_string(&report).ok())
                        .is_some()
                }
                ("count", _) => driver::count(&instance, backend.as_ref(), &request).is_ok(),
                ("verify", Some(tiling)) => violation(&instance, tiling).is_none(),
                _ => false,
            };
            std::hint::black_box(ok);
        }
        start.elapsed().as_secs_f64() / f64::from(calls.max(1))
    }))
}
