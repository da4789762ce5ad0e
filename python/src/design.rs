//! The designer's calls beside `grade`: `hint` and `explain` (a walkthrough of one board,
//! from the start or a player's moves) and `shared` (what a board's tilings share), each
//! giving back the dicts their command lines print as JSON.

use pyo3::prelude::*;

use dominofit::backend::Budget;
use dominofit::design::{self, explain::page};
use dominofit::puzzle::{Instance, Solution};

use crate::{call, fail, input, largest, one_or_list, output, seconds};

/// The one board of `source`, and the pieces of `partial` (none when `None`).
fn board_and_moves(
    source: &Bound<'_, PyAny>,
    partial: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Instance, Solution)> {
    let mut instances = input::instances(source)?;
    if instances.items.len() != 1 {
        return Err(fail(format!(
            "{} holds {} boards; a walkthrough takes one",
            instances.label,
            instances.items.len()
        )));
    }
    let board = instances.items.remove(0);
    let moves = match partial {
        None => Solution::default(),
        Some(p) if p.is_none() => Solution::default(),
        Some(p) => {
            let mut given = input::solutions(p)?;
            if given.items.len() != 1 {
                return Err(fail(format!(
                    "{} holds {} solutions; give the pieces placed so far as one",
                    given.label,
                    given.items.len()
                )));
            }
            given.items.remove(0)
        }
    };
    Ok((board, moves))
}

/// The `hint --format json` object: at most one step from the pieces in `partial`.
#[pyfunction]
#[pyo3(signature = (source, partial, timeout))]
pub fn hint(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    partial: Option<&Bound<'_, PyAny>>,
    timeout: Option<f64>,
) -> PyResult<Py<PyAny>> {
    let (board, moves) = board_and_moves(source, partial)?;
    let timeout = seconds(timeout)?;
    let cells = board.rows * board.cols;
    // The budget is made inside the call, where it takes the call's stop flag.
    let walk = call::stoppable(py, cells, || {
        design::hint(&board, &moves, &Budget::with_timeout(timeout))
    })?
    .map_err(fail)?;
    output::to_python(py, &walk)
}

/// The `explain --format json` object, or with `html` the page as text.
#[pyfunction]
#[pyo3(signature = (source, partial, timeout, html))]
pub fn explain(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    partial: Option<&Bound<'_, PyAny>>,
    timeout: Option<f64>,
    html: bool,
) -> PyResult<Py<PyAny>> {
    let (board, moves) = board_and_moves(source, partial)?;
    let timeout = seconds(timeout)?;
    let cells = board.rows * board.cols;
    // The budget is made inside the call, where it takes the call's stop flag.
    let walk = call::stoppable(py, cells, || {
        design::explain(&board, &moves, usize::MAX, &Budget::with_timeout(timeout))
    })?
    .map_err(fail)?;
    if html {
        let text = page(&board, &walk).map_err(fail)?;
        return Ok(text.into_pyobject(py)?.into_any().unbind());
    }
    output::to_python(py, &walk)
}

/// The `shared --format json` object for each board.
#[pyfunction]
#[pyo3(signature = (source, max_tilings, tries, timeout))]
pub fn shared(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    max_tilings: usize,
    tries: usize,
    timeout: Option<f64>,
) -> PyResult<Py<PyAny>> {
    let timeout = seconds(timeout)?;
    let instances = input::instances(source)?;
    let found = call::stoppable(py, largest(&instances.items), || {
        (instances.items.iter())
            .map(|i| design::shared(i, max_tilings, tries, timeout))
            .collect::<Result<Vec<_>, _>>()
    })?
    .map_err(fail)?;
    let dicts = (found.iter())
        .map(|s| output::to_python(py, s))
        .collect::<PyResult<Vec<_>>>()?;
    one_or_list(py, dicts, instances.several)
}
