//! The Python module `dominofit._native`: the library's calls, taking Python values and
//! giving back dicts in the shapes the command line prints (built directly, key for key
//! in the command line's order, [`output`]; the tests compare them with its JSON).
//! `dominofit/__init__.py` gives the functions their Python signatures and docs.
//!
//! A call costs what its work costs: the backend is made once per process
//! ([`backends`]), boards are read from dicts without a trip through JSON text
//! ([`input`]), and a game-size call runs in place rather than on a thread ([`call`]).
//! Batches run on threads of their own with the GIL released ([`batch`]), and
//! `generate` makes its boards as they are asked for ([`stream`]).
//!
//! In-process solvers that cannot be stopped (varisat, microlp) run in worker processes
//! of this interpreter (`python -c … worker-solve`), killed at the deadline or on
//! Ctrl-C, as the command line runs them in processes of itself. Programs the library
//! starts are marked in their environment, and whatever they leave running when they
//! end, even outside their process group, is killed by that mark: never the host's
//! other children.

/// Rust's allocations of a small call are a large share of its cost, as in the command
/// line (src/main.rs), which uses the same allocator; Python's own objects are not
/// affected.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod backends;
mod baseline;
mod batch;
mod call;
mod design;
mod fast;
mod input;
mod output;
mod stream;
mod worker;

use std::time::Duration;

use pyo3::create_exception;
use pyo3::prelude::*;
use pyo3::types::PyList;

use dominofit::action::{self, EmitError, EmitOptions};
use dominofit::backend::{self, Backend, BackendError};
use dominofit::driver::{self, Request};
use dominofit::encode::Encoding;
use dominofit::model::Families;
use dominofit::puzzle::verify::verify;
use dominofit::puzzle::{Instance, Solution};

use backends::Choice;
use input::{Given, whole};
use output::{Answer, to_python};

create_exception!(
    _native,
    DominofitError,
    pyo3::exceptions::PyException,
    "Bad input, or a backend that failed: the message the command line prints after `error: `."
);

/// An error as the exception the package raises.
fn fail(message: impl std::fmt::Display) -> PyErr {
    DominofitError::new_err(message.to_string())
}

/// One answer for one board, a list for several (or for a list or a workload).
fn one_or_list(py: Python<'_>, answers: Vec<Py<PyAny>>, several: bool) -> PyResult<Py<PyAny>> {
    match <[Py<PyAny>; 1]>::try_from(answers) {
        Ok([one]) if !several => Ok(one),
        Ok(one) => Ok(PyList::new(py, one)?.into_any().unbind()),
        Err(many) => Ok(PyList::new(py, many)?.into_any().unbind()),
    }
}

/// The cells of the largest board: how a call is run ([`call::stoppable`]).
fn largest(instances: &[Instance]) -> usize {
    instances.iter().map(|i| i.rows * i.cols).max().unwrap_or(0)
}

/// A board's failure as the CLI's error line says it.
fn board_error(instance: &Instance, error: &BackendError) -> String {
    format!("instance `{}`: {error}", instance.name)
}

fn seconds(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    timeout
        .map(|s| backend::time_limit(s).map_err(fail))
        .transpose()
}

fn parse_option<T: std::str::FromStr>(text: Option<&str>) -> PyResult<Option<T>>
where
    T::Err: std::fmt::Display,
{
    text.map(|t| t.parse::<T>().map_err(fail)).transpose()
}

/// What `solve` and `count`, single or batched, are asked: the backend and the request.
struct Ask {
    choice: Choice,
    request: Request,
}

impl Ask {
    fn new(
        backend: &str,
        limit: usize,
        timeout: Option<f64>,
        families: Option<&str>,
        encoding: Option<&str>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Ask> {
        let threads = threads
            .map(|t| whole("threads", t, 1, 256).map(|t| t as usize))
            .transpose()?;
        Ok(Ask {
            choice: Choice {
                name: backend.to_string(),
                encoding: encoding.map(str::to_string),
                threads,
            },
            request: Request {
                limit,
                timeout: seconds(timeout)?,
                families: parse_option::<Families>(families)?,
            },
        })
    }

    /// `answer` for every board given, stoppable by Ctrl-C; the first board that fails
    /// raises its error.
    fn each<R: Answer + Send>(
        &self,
        py: Python<'_>,
        source: &Bound<'_, PyAny>,
        answer: impl Fn(&Instance, &dyn Backend, &Request) -> Result<R, BackendError> + Send + Sync,
    ) -> PyResult<Py<PyAny>> {
        let backend = backends::cached(&self.choice)?;
        let Given {
            items: instances,
            several,
            ..
        } = input::instances(source)?;
        let answered = call::stoppable(py, largest(&instances), || {
            instances
                .iter()
                .map(|i| answer(i, backend.as_ref(), &self.request).map_err(|e| (i, e)))
                .collect::<Result<Vec<R>, _>>()
        })?;
        let answers = match answered {
            Ok(answers) => answers,
            Err((_, BackendError::Interrupted)) => {
                return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(()));
            }
            Err((instance, error)) => return Err(fail(board_error(instance, &error))),
        };
        let answers = (answers.into_iter())
            .map(|a| a.into_python(py))
            .collect::<PyResult<Vec<_>>>()?;
        one_or_list(py, answers, several)
    }

    /// `answer` for every item of `items` on `threads` threads; a board that fails gives
    /// a `DominofitError` in its place.
    fn many<R: Answer + Send>(
        &self,
        py: Python<'_>,
        items: &Bound<'_, PyAny>,
        threads: &Bound<'_, PyAny>,
        answer: impl Fn(&Instance, &dyn Backend, &Request) -> Result<R, BackendError> + Sync,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let threads = whole("threads", threads, 1, 256)? as usize;
        // Refused before any board is read, as a single call refuses it.
        backends::cached(&self.choice)?;
        let settled = batch::run(
            py,
            items,
            threads,
            batch::Work {
                // Only what needs the GIL is done on the calling thread: the board is
                // validated, as it is solved, on a worker.
                read: &mut |item, index| Ok((index, stream::RawBoard::of(item, index)?)),
                state: &|| self.choice.build().map_err(|e| e.to_string()),
                run: &|backend: &mut Box<dyn Backend>, (index, raw): (usize, stream::RawBoard)| {
                    let instance = raw.board(index)?;
                    answer(&instance, backend.as_ref(), &self.request)
                        .map_err(|e| board_error(&instance, &e))
                },
                answer: &mut |py, r| r.into_python(py),
            },
        )?;
        Ok(batch::to_python(py, settled))
    }
}

/// The `solve --format json` answer for each board.
#[pyfunction]
#[pyo3(signature = (source, backend, limit, timeout, families, encoding, threads))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    backend: &str,
    limit: &Bound<'_, PyAny>,
    timeout: Option<f64>,
    families: Option<&str>,
    encoding: Option<&str>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let limit = whole("limit", limit, 0, u64::MAX)? as usize;
    let ask = Ask::new(backend, limit, timeout, families, encoding, threads)?;
    ask.each(py, source, driver::run)
}

/// The `count --format json` answer for each board.
#[pyfunction]
#[pyo3(signature = (source, backend, timeout, families, encoding, threads))]
fn count(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    backend: &str,
    timeout: Option<f64>,
    families: Option<&str>,
    encoding: Option<&str>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let ask = Ask::new(backend, 0, timeout, families, encoding, threads)?;
    ask.each(py, source, driver::count)
}

/// `solve` for every board of an iterable, on `threads` threads, in input order.
#[pyfunction]
#[pyo3(signature = (items, backend, limit, timeout, families, encoding, threads))]
#[allow(clippy::too_many_arguments)]
fn solve_many(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    backend: &str,
    limit: &Bound<'_, PyAny>,
    timeout: Option<f64>,
    families: Option<&str>,
    encoding: Option<&str>,
    threads: &Bound<'_, PyAny>,
) -> PyResult<Vec<Py<PyAny>>> {
    let limit = whole("limit", limit, 0, u64::MAX)? as usize;
    let ask = Ask::new(backend, limit, timeout, families, encoding, None)?;
    ask.many(py, items, threads, driver::run)
}

/// `count` for every board of an iterable, on `threads` threads, in input order.
#[pyfunction]
#[pyo3(signature = (items, backend, timeout, families, encoding, threads))]
fn count_many(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    backend: &str,
    timeout: Option<f64>,
    families: Option<&str>,
    encoding: Option<&str>,
    threads: &Bound<'_, PyAny>,
) -> PyResult<Vec<Py<PyAny>>> {
    let ask = Ask::new(backend, 0, timeout, families, encoding, None)?;
    ask.many(py, items, threads, driver::count)
}

/// What `verify` says of one tiling: the first rule it breaks, if any.
fn violation(instance: &Instance, tiling: &Solution) -> Option<String> {
    verify(instance, tiling).err().map(|v| v.to_string())
}

/// Per board and tiling, paired in order: `{"name", "valid", "violation"}`.
#[pyfunction]
fn verify_tilings(
    py: Python<'_>,
    instance: &Bound<'_, PyAny>,
    solution: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let instances = input::instances(instance)?;
    let tilings = input::solutions(solution)?;
    if instances.items.len() != tilings.items.len() {
        return Err(fail(format!(
            "{} holds {} instances but {} holds {} solutions; they are paired one to one",
            instances.label,
            instances.items.len(),
            tilings.label,
            tilings.items.len()
        )));
    }
    let verdicts = (instances.items.iter().zip(&tilings.items))
        .map(|(i, s)| output::verdict_dict(py, &i.name, violation(i, s).as_deref()))
        .collect::<PyResult<Vec<_>>>()?;
    one_or_list(py, verdicts, instances.several)
}

/// `verify` for every pair of two iterables, on `threads` threads, in input order.
#[pyfunction]
fn verify_many(
    py: Python<'_>,
    instances: &Bound<'_, PyAny>,
    solutions: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
) -> PyResult<Vec<Py<PyAny>>> {
    let threads = whole("threads", threads, 1, 256)? as usize;
    let pairs = stream::Pairs::new(instances, solutions)?;
    let pairs = Bound::new(py, pairs)?;
    let settled = batch::run(
        py,
        pairs.as_any(),
        threads,
        batch::Work {
            read: &mut |item, index| stream::pair_of_batch(item, index),
            state: &|| Ok(()),
            run: &|_: &mut (), (instance, tiling): (Instance, Solution)| {
                let violation = violation(&instance, &tiling);
                Ok((instance.name, violation))
            },
            answer: &mut |py, (name, violation): (String, Option<String>)| {
                output::verdict_dict(py, &name, violation.as_deref())
            },
        },
    )?;
    Ok(batch::to_python(py, settled))
}

/// The emitted form of every board, one after another, as `emit` writes it.
#[pyfunction]
#[pyo3(signature = (source, to, encoding, families))]
fn emit(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    to: &str,
    encoding: Option<&str>,
    families: Option<&str>,
) -> PyResult<String> {
    let defaults = EmitOptions::default();
    let options = EmitOptions {
        to: to.parse().map_err(fail)?,
        encoding: parse_option::<Encoding>(encoding)?.unwrap_or(defaults.encoding),
        families: parse_option::<Families>(families)?.unwrap_or(defaults.families),
    };
    let instances = input::instances(source)?.items;
    let stop = dominofit::interrupt::stopped_here;
    let written = call::stoppable(py, largest(&instances), || -> Result<Vec<u8>, EmitError> {
        let mut out = Vec::new();
        for instance in &instances {
            action::emit(instance, &options, &mut out, &stop)?;
        }
        Ok(out)
    })?
    .map_err(fail)?;
    String::from_utf8(written).map_err(fail)
}

/// A board, and a tiling over it, drawn as `show` draws it: text, or an SVG picture.
#[pyfunction]
#[pyo3(signature = (source, solution, svg))]
fn show(
    source: &Bound<'_, PyAny>,
    solution: Option<&Bound<'_, PyAny>>,
    svg: bool,
) -> PyResult<String> {
    let instances = input::instances(source)?.items;
    let [instance] = <[Instance; 1]>::try_from(instances)
        .map_err(|many| fail(format!("{} boards given; show draws one", many.len())))?;
    let tiling = match solution {
        None => None,
        Some(given) => {
            let tilings = input::solutions(given)?.items;
            let [tiling] = <[Solution; 1]>::try_from(tilings)
                .map_err(|many| fail(format!("{} solutions given; show draws one", many.len())))?;
            if let Err(violation) = verify(&instance, &tiling) {
                return Err(fail(format!(
                    "not a solution of `{}`: {violation}",
                    instance.name
                )));
            }
            Some(tiling)
        }
    };
    Ok(if svg {
        dominofit::puzzle::svg::board_svg(&instance, tiling.as_ref())
    } else {
        dominofit::puzzle::draw::draw(&instance, tiling.as_ref())
    })
}

/// The `grade --format json` object for each board: its level on the deduction ladder,
/// steps per rung and score (with the native search's uniqueness answer).
#[pyfunction]
#[pyo3(signature = (source, timeout))]
fn grade(py: Python<'_>, source: &Bound<'_, PyAny>, timeout: Option<f64>) -> PyResult<Py<PyAny>> {
    let timeout = seconds(timeout)?;
    let instances = input::instances(source)?;
    let cells = instances
        .items
        .iter()
        .map(|i| i.rows * i.cols)
        .max()
        .unwrap_or(0);
    let graded = call::stoppable(py, cells, || {
        instances
            .items
            .iter()
            .map(|i| dominofit::design::grade(i, timeout))
            .collect::<Result<Vec<_>, _>>()
    })?
    .map_err(fail)?;
    let dicts = graded
        .iter()
        .map(|g| output::to_python(py, g))
        .collect::<PyResult<Vec<_>>>()?;
    one_or_list(py, dicts, instances.several)
}

/// The dominofit version the module was built from.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The Python process is the host's: its other children are not dominofit's to reap.
    dominofit::interrupt::leave_strays_alone();
    // SIGTERM left at its default would end the interpreter with a solver running and
    // its files in place; it still ends the interpreter, after the clean-up.
    dominofit::interrupt::terminate_cleanly_on_sigterm();
    // A refusal for memory in this module's words (it has no --memory), given before
    // the command line's words could be; then the core's memory budget reads the memory
    // available here (/proc/meminfo).
    dominofit::memory::set_words(dominofit::memory::Words {
        budget: "half the memory available, at most 8 GiB",
        more: None,
        other_backends: true,
    });
    dominofit::memory::install();
    m.add("DominofitError", m.py().get_type::<DominofitError>())?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(count_many, m)?)?;
    m.add_function(wrap_pyfunction!(verify_tilings, m)?)?;
    m.add_function(wrap_pyfunction!(verify_many, m)?)?;
    m.add_function(wrap_pyfunction!(emit, m)?)?;
    m.add_function(wrap_pyfunction!(stream::generate, m)?)?;
    m.add_class::<stream::Boards>()?;
    m.add_function(wrap_pyfunction!(show, m)?)?;
    m.add_function(wrap_pyfunction!(grade, m)?)?;
    m.add_function(wrap_pyfunction!(design::hint, m)?)?;
    m.add_function(wrap_pyfunction!(design::explain, m)?)?;
    m.add_function(wrap_pyfunction!(design::shared, m)?)?;
    m.add_function(wrap_pyfunction!(baseline::rust_seconds_per_call, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add("DEFAULT_SEED", dominofit::action::generate::DEFAULT_SEED)?;
    m.add_function(wrap_pyfunction!(worker::register_worker, m)?)?;
    m.add_function(wrap_pyfunction!(worker::worker, m)?)?;
    Ok(())
}
