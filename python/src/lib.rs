//! The Python module `dominofit._native`: the library's calls with their answers as the
//! JSON the command line prints, serialized by the same types, so that the package and
//! the CLI cannot disagree on a shape. `dominofit/__init__.py` turns the JSON into plain
//! dicts and gives the functions their Python signatures.
//!
//! Every call runs on a thread of its own while the calling thread waits without the
//! GIL and looks for Ctrl-C between waits: a `KeyboardInterrupt` stops the search (and
//! kills any solver program it started) instead of waiting for it to end. Each call has
//! a stop flag of its own ([`dominofit::interrupt::with_call_stop`]): Ctrl-C stops the
//! call it interrupts, and calls running in other Python threads go on.
//!
//! In-process solvers that cannot be stopped (varisat, microlp) run in worker processes
//! of this interpreter (`python -c … worker-solve`), killed at the deadline or on
//! Ctrl-C, as the command line runs them in processes of itself. Programs the library
//! starts are marked in their environment, and whatever they leave running when they
//! end, even outside their process group, is killed by that mark: never the host's
//! other children.

use std::sync::mpsc;
use std::time::Duration;

use pyo3::create_exception;
use pyo3::prelude::*;

use dominofit::action::{self, BoardKind, EmitError, EmitOptions, GenerateRequest};
use dominofit::backend::{self, BackendError, BackendOptions};
use dominofit::design::DesignOptions;
use dominofit::driver::{self, Request};
use dominofit::encode::Encoding;
use dominofit::model::Families;
use dominofit::puzzle::parse::{
    parse_given_instances, parse_given_solutions, read_instances, read_solutions,
};
use dominofit::puzzle::verify::verify;
use dominofit::puzzle::{Instance, Solution};

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

/// How often the waiting thread looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `job` on its own thread; the caller waits without the GIL and checks for signals
/// between waits. On a signal the job's stop flag is raised (which ends its search and
/// kills its programs), the job is waited for, and the signal's exception is raised.
fn interruptible<T: Send>(py: Python<'_>, job: impl FnOnce() -> T + Send) -> PyResult<T> {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel();
        // In a mutex so that a reference to it may cross into `detach`.
        let finished = std::sync::Mutex::new(finished);
        let flag = stop.clone();
        let worker = scope.spawn(move || {
            let out = dominofit::interrupt::with_call_stop(flag, job);
            let _ = done.send(());
            out
        });
        loop {
            let ended = py.detach(|| match finished.lock() {
                Ok(finished) => finished.recv_timeout(SIGNAL_POLL),
                Err(_) => Err(mpsc::RecvTimeoutError::Disconnected),
            });
            if !matches!(ended, Err(mpsc::RecvTimeoutError::Timeout)) {
                break;
            }
            if let Err(signal) = py.check_signals() {
                stop.store(true, std::sync::atomic::Ordering::SeqCst);
                let _ = py.detach(|| worker.join());
                return Err(signal);
            }
        }
        py.detach(|| worker.join())
            .map_err(|_| fail("internal error: the call panicked"))
    })
}

/// The boards of `source`: a path when `is_path`, else JSON text (one instance or JSON
/// Lines).
fn boards(source: &str, is_path: bool) -> PyResult<Vec<Instance>> {
    let read = if is_path {
        read_instances(source)
    } else {
        parse_given_instances(source, "<instance>", "instance")
    };
    read.map_err(fail)
}

fn tilings(source: &str, is_path: bool) -> PyResult<Vec<Solution>> {
    let read = if is_path {
        read_solutions(source)
    } else {
        parse_given_solutions(source, "<solution>")
    };
    read.map_err(fail)
}

fn parse_option<T: std::str::FromStr>(text: Option<&str>) -> PyResult<Option<T>>
where
    T::Err: std::fmt::Display,
{
    text.map(|t| t.parse::<T>().map_err(fail)).transpose()
}

fn seconds(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    timeout
        .map(|s| backend::time_limit(s).map_err(fail))
        .transpose()
}

/// What `solve` and `count` share: the backend, the boards and the request.
struct Job {
    backend: Box<dyn backend::Backend>,
    instances: Vec<Instance>,
    request: Request,
}

#[allow(clippy::too_many_arguments)]
fn job(
    source: &str,
    is_path: bool,
    backend: &str,
    limit: usize,
    timeout: Option<f64>,
    families: Option<&str>,
    encoding: Option<&str>,
    threads: Option<usize>,
) -> PyResult<Job> {
    let options = BackendOptions {
        encoding: parse_option::<Encoding>(encoding)?.unwrap_or(Encoding::Totalizer),
        threads: threads.unwrap_or_else(backend::available_threads),
    };
    Ok(Job {
        backend: backend::registry::lookup(backend, &options).map_err(fail)?,
        instances: boards(source, is_path)?,
        request: Request {
            limit,
            timeout: seconds(timeout)?,
            families: parse_option::<Families>(families)?,
        },
    })
}

impl Job {
    /// `answer` for each board in turn, off the GIL and stoppable by Ctrl-C; the first
    /// board that fails ends the call with its error.
    fn each_board(
        &self,
        py: Python<'_>,
        answer: impl Fn(&Instance, &dyn backend::Backend, &Request) -> Result<String, BackendError>
        + Sync,
    ) -> PyResult<Vec<String>> {
        interruptible(py, || {
            self.instances
                .iter()
                .map(|instance| {
                    answer(instance, self.backend.as_ref(), &self.request)
                        .map_err(|e| (instance, e))
                })
                .collect::<Result<Vec<String>, _>>()
        })?
        .map_err(|(instance, e)| board_error(instance, e))
    }
}

/// A board's failure as the CLI's error line says it.
fn board_error(instance: &Instance, error: BackendError) -> PyErr {
    match error {
        BackendError::Interrupted => pyo3::exceptions::PyKeyboardInterrupt::new_err(()),
        other => fail(format!("instance `{}`: {other}", instance.name)),
    }
}

/// One `solve --format json` line per board.
#[pyfunction]
#[pyo3(signature = (source, is_path, backend, limit, timeout, families, encoding, threads))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    source: &str,
    is_path: bool,
    backend: &str,
    limit: usize,
    timeout: Option<f64>,
    families: Option<&str>,
    encoding: Option<&str>,
    threads: Option<usize>,
) -> PyResult<Vec<String>> {
    let job = job(
        source, is_path, backend, limit, timeout, families, encoding, threads,
    )?;
    job.each_board(py, |instance, backend, request| {
        driver::run(instance, backend, request)
            .map(|report| serde_json::to_string(&report).expect("reports serialize"))
    })
}

/// One `count --format json` line per board.
#[pyfunction]
#[pyo3(signature = (source, is_path, backend, timeout, families, encoding, threads))]
#[allow(clippy::too_many_arguments)]
fn count(
    py: Python<'_>,
    source: &str,
    is_path: bool,
    backend: &str,
    timeout: Option<f64>,
    families: Option<&str>,
    encoding: Option<&str>,
    threads: Option<usize>,
) -> PyResult<Vec<String>> {
    let job = job(
        source, is_path, backend, 0, timeout, families, encoding, threads,
    )?;
    job.each_board(py, |instance, backend, request| {
        driver::count(instance, backend, request)
            .map(|report| serde_json::to_string(&report).expect("reports serialize"))
    })
}

/// Per board pair: its name, and the first rule the tiling breaks (`None`: valid).
#[pyfunction]
fn verify_tilings(
    instance: &str,
    instance_is_path: bool,
    solution: &str,
    solution_is_path: bool,
) -> PyResult<Vec<(String, Option<String>)>> {
    let instances = boards(instance, instance_is_path)?;
    let solutions = tilings(solution, solution_is_path)?;
    if instances.len() != solutions.len() {
        let label = |text: &str, is_path: bool, given: &str| {
            if is_path {
                text.to_string()
            } else {
                given.to_string()
            }
        };
        return Err(fail(format!(
            "{} holds {} instances but {} holds {} solutions; they are paired one to one",
            label(instance, instance_is_path, "<instance>"),
            instances.len(),
            label(solution, solution_is_path, "<solution>"),
            solutions.len()
        )));
    }
    Ok(instances
        .iter()
        .zip(&solutions)
        .map(|(i, s)| (i.name.clone(), verify(i, s).err().map(|v| v.to_string())))
        .collect())
}

/// The emitted form of every board, one after another, as `emit` writes it.
#[pyfunction]
#[pyo3(signature = (source, is_path, to, encoding, families))]
fn emit(
    py: Python<'_>,
    source: &str,
    is_path: bool,
    to: &str,
    encoding: Option<&str>,
    families: Option<&str>,
) -> PyResult<String> {
    let instances = boards(source, is_path)?;
    let defaults = EmitOptions::default();
    let options = EmitOptions {
        to: to.parse().map_err(fail)?,
        encoding: parse_option::<Encoding>(encoding)?.unwrap_or(defaults.encoding),
        families: parse_option::<Families>(families)?.unwrap_or(defaults.families),
    };
    let stop = dominofit::interrupt::stopped_here;
    let written = interruptible(py, || -> Result<Vec<u8>, EmitError> {
        let mut out = Vec::new();
        for instance in &instances {
            action::emit(instance, &options, &mut out, &stop)?;
        }
        Ok(out)
    })?
    .map_err(fail)?;
    String::from_utf8(written).map_err(fail)
}

/// `generate`: one instance JSON line per board.
#[pyfunction]
#[pyo3(signature = (rows, cols, count, seed, kind, timeout, pool, node_cap))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    count: u64,
    seed: u64,
    kind: &str,
    timeout: f64,
    pool: u32,
    node_cap: u64,
) -> PyResult<Vec<String>> {
    let request = GenerateRequest {
        rows,
        cols,
        count,
        seed,
        kind: kind.parse::<BoardKind>().map_err(fail)?,
        design: DesignOptions {
            timeout: seconds(Some(timeout))?.unwrap_or_default(),
            pool,
            node_cap,
            ..DesignOptions::default()
        },
    }
    .checked()
    .map_err(fail)?;
    interruptible(py, || {
        request
            .boards()
            .map(|made| made.map(|made| made.instance.to_json()))
            .collect::<Result<Vec<String>, _>>()
    })?
    .map_err(fail)
}

/// Whether `source` (a path, or JSON text) holds a workload rather than one document,
/// as the command line decides it: `.jsonl`/`.ndjson` paths, and text that is not one
/// JSON value.
#[pyfunction]
fn is_workload(source: &str, is_path: bool) -> bool {
    if is_path {
        dominofit::puzzle::parse::is_workload(source, "")
    } else {
        dominofit::puzzle::parse::is_workload("-", source)
    }
}

/// A board, and a tiling over it, drawn as `show` draws it: text, or an SVG picture.
#[pyfunction]
#[pyo3(signature = (source, is_path, solution, solution_is_path, svg))]
fn show(
    source: &str,
    is_path: bool,
    solution: Option<&str>,
    solution_is_path: bool,
    svg: bool,
) -> PyResult<String> {
    let instances = boards(source, is_path)?;
    let [instance] = <[Instance; 1]>::try_from(instances)
        .map_err(|many| fail(format!("{} boards given; show draws one", many.len())))?;
    let tiling = match solution {
        None => None,
        Some(text) => {
            let solutions = tilings(text, solution_is_path)?;
            let [tiling] = <[Solution; 1]>::try_from(solutions)
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

/// The dominofit version the module was built from.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// From now on, in-process solvers that cannot be stopped run as `COMMAND… worker-solve
/// BACKEND`: the package passes this interpreter and the code that calls [`worker`].
#[pyfunction]
fn register_worker(command: Vec<String>) {
    dominofit::backend::worker::register(command.into_iter().map(Into::into).collect());
}

/// A worker process's whole life: `worker-solve BACKEND`, the task on standard input,
/// tilings on standard output. Returns the exit status.
#[pyfunction]
fn worker(py: Python<'_>, args: Vec<String>) -> i32 {
    let [command, backend] = args.as_slice() else {
        eprintln!("worker: expected `worker-solve BACKEND`");
        return 2;
    };
    if command != "worker-solve" {
        eprintln!("worker: unknown command `{command}`");
        return 2;
    }
    let solved = py.detach(|| {
        let stdin = std::io::stdin().lock();
        let stdout = std::io::stdout().lock();
        dominofit::backend::worker::main(
            backend,
            dominofit::backend::registry::build_builtin,
            stdin,
            stdout,
        )
    });
    match solved {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("worker: {e}");
            1
        }
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The Python process is the host's: its other children are not dominofit's to reap.
    dominofit::interrupt::leave_strays_alone();
    m.add("DominofitError", m.py().get_type::<DominofitError>())?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(verify_tilings, m)?)?;
    m.add_function(wrap_pyfunction!(emit, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(show, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(is_workload, m)?)?;
    m.add("DEFAULT_SEED", dominofit::action::generate::DEFAULT_SEED)?;
    m.add_function(wrap_pyfunction!(register_worker, m)?)?;
    m.add_function(wrap_pyfunction!(worker, m)?)?;
    Ok(())
}
