//! Answers as Python values: the dicts, lists, strings and numbers their JSON would load
//! as, made by `pythonize` straight from the serde types the command line prints (a
//! cell is a sequence to serde, so a list here, as in JSON).

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde::Serialize;

use dominofit::driver::{CountReport, Report};
use dominofit::puzzle::Solution;

use crate::fail;

/// `value` as the Python value its JSON would load as.
pub fn to_python<T: Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    Ok(pythonize::pythonize(py, value)
        .map_err(|e| fail(format!("internal error: {e}")))?
        .unbind())
}

/// An answer as the caller gets it.
pub trait Answer: Serialize + Sized {
    fn into_python(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self)
    }
}

impl Answer for CountReport {}

/// A solve answer's tilings, most of it, are built directly (a list of two ints per
/// cell); the rest goes through serde as above, with the same keys in the same order.
impl Answer for Report {
    fn into_python(mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let tilings = std::mem::take(&mut self.solutions);
        let answer = to_python(py, &self)?;
        let tilings = (tilings.iter())
            .map(|tiling| tiling_dict(py, tiling))
            .collect::<PyResult<Vec<_>>>()?;
        answer
            .bind(py)
            .set_item(intern!(py, "solutions"), PyList::new(py, tilings)?)?;
        Ok(answer)
    }
}

/// `{"vertical": [[row, col], …], "horizontal": […]}`, one-based, as `Solution`
/// serializes.
fn tiling_dict<'py>(py: Python<'py>, tiling: &Solution) -> PyResult<Bound<'py, PyDict>> {
    let cells = |cells: &[(usize, usize)]| -> PyResult<Bound<'py, PyList>> {
        let pairs = (cells.iter())
            .map(|&(r, c)| PyList::new(py, [r + 1, c + 1]))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, pairs)
    };
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "vertical"), cells(&tiling.vertical)?)?;
    dict.set_item(intern!(py, "horizontal"), cells(&tiling.horizontal)?)?;
    Ok(dict)
}
