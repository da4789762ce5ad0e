//! Worker processes of this interpreter: in-process solvers that cannot be stopped
//! (varisat, microlp) run there, killed at the deadline or on Ctrl-C.

use pyo3::prelude::*;

/// From now on, in-process solvers that cannot be stopped run as `COMMAND… worker-solve
/// BACKEND`: the package passes this interpreter and the code that calls [`worker`].
#[pyfunction]
pub fn register_worker(command: Vec<String>) {
    dominofit::backend::worker::register(command.into_iter().map(Into::into).collect());
}

/// A worker process's whole life: `worker-solve BACKEND`, the task on standard input,
/// tilings on standard output. Returns the exit status.
#[pyfunction]
pub fn worker(py: Python<'_>, args: Vec<String>) -> i32 {
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
