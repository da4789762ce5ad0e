//! Worker processes of this interpreter: in-process solvers that cannot be stopped
//! (varisat, microlp) run there, killed at the deadline or on Ctrl-C.

use std::io::Write;

use pyo3::prelude::*;

/// A line on standard error, dropped when standard error is closed (`eprintln!` would
/// panic there, inside the interpreter).
fn say(message: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
}

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
        say(format_args!("worker: expected `worker-solve BACKEND`"));
        return 2;
    };
    if command != "worker-solve" {
        say(format_args!("worker: unknown command `{command}`"));
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
            say(format_args!("worker: {e}"));
            1
        }
    }
}
