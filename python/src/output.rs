//! Answers as Python values: the dicts, lists, strings and numbers their JSON would load
//! as, made by `pythonize` straight from the serde types the command line prints (a
//! cell is a sequence to serde, so a list here, as in JSON).

use pyo3::prelude::*;
use serde::Serialize;

use crate::fail;

/// `value` as the Python value its JSON would load as.
pub fn to_python<T: Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    Ok(pythonize::pythonize(py, value)
        .map_err(|e| fail(format!("internal error: {e}")))?
        .unbind())
}
