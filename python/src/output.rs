//! Answers as Python values: the dicts, lists, strings and numbers their JSON would load
//! as, with the keys in the order the command line prints them.
//!
//! A game-size answer is a few dozen small objects, and making them is most of what a
//! Python call costs beyond the solve. So the answers of `solve`, `count` and `verify`
//! are built directly: keys are interned strings made once per process (a serializer
//! makes and hashes a fresh string per key per answer), and the lists of a tiling are
//! filled in place. The `stats` entries come from the library
//! ([`dominofit::driver::Header::stats_entries`], held to the serde form by its tests),
//! and the Python tests compare every answer with the command line's JSON, key order
//! included. Anything else goes through `pythonize` from the same serde types.

use std::sync::Mutex;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString};
use pyo3::{IntoPyObjectExt, intern};
use serde::Serialize;

use dominofit::driver::{CountReport, Header, Report, StatValue};
use dominofit::puzzle::Solution;

use crate::fail;

/// `value` as the Python value its JSON would load as.
pub fn to_python<T: Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    Ok(pythonize::pythonize(py, value)
        .map_err(|e| fail(format!("internal error: {e}")))?
        .unbind())
}

/// An answer as the caller gets it.
pub trait Answer: Sized {
    fn into_python(self, py: Python<'_>) -> PyResult<Py<PyAny>>;
}

/// `{"name", "backend", "limit", "status", "complete", "solutions", "stats"}`.
impl Answer for Report {
    fn into_python(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let dict = PyDict::new(py);
        dict.set_item(intern!(py, "name"), &self.header.name)?;
        dict.set_item(intern!(py, "backend"), &self.header.backend)?;
        dict.set_item(intern!(py, "limit"), self.limit)?;
        dict.set_item(intern!(py, "status"), word(py, self.status.name()))?;
        dict.set_item(intern!(py, "complete"), self.complete)?;
        let tilings = filled_list(py, self.solutions.len(), |k| {
            tiling_dict(py, &self.solutions[k]).map(Bound::into_any)
        })?;
        dict.set_item(intern!(py, "solutions"), tilings)?;
        dict.set_item(intern!(py, "stats"), stats_dict(py, &self.header)?)?;
        Ok(dict.into_any().unbind())
    }
}

/// `{"name", "backend", "count", "complete", "stats"}`, the count as decimal text.
impl Answer for CountReport {
    fn into_python(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let dict = PyDict::new(py);
        dict.set_item(intern!(py, "name"), &self.header.name)?;
        dict.set_item(intern!(py, "backend"), &self.header.backend)?;
        dict.set_item(intern!(py, "count"), self.count.to_string())?;
        dict.set_item(intern!(py, "complete"), self.complete)?;
        dict.set_item(intern!(py, "stats"), stats_dict(py, &self.header)?)?;
        Ok(dict.into_any().unbind())
    }
}

/// What `verify` says of one tiling: `{"name", "valid", "violation"}`.
pub fn verdict_dict(py: Python<'_>, name: &str, violation: Option<&str>) -> PyResult<Py<PyAny>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "name"), name)?;
    dict.set_item(intern!(py, "valid"), violation.is_none())?;
    dict.set_item(intern!(py, "violation"), violation)?;
    Ok(dict.into_any().unbind())
}

/// The `stats` object, from the library's list of its entries.
fn stats_dict<'py>(py: Python<'py>, header: &Header) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, value) in header.stats_entries() {
        let key = word(py, key);
        match value {
            StatValue::Millis(ms) => dict.set_item(key, ms)?,
            StatValue::Count(n) => dict.set_item(key, n)?,
            StatValue::Word(w) => dict.set_item(key, word(py, w))?,
            StatValue::Text(text) => dict.set_item(key, text)?,
        }
    }
    Ok(dict)
}

/// A key or a status word, made once per process and shared, as Python shares the
/// keys of its own literals (strings are immutable, so sharing cannot be seen). The
/// words are the program's own constants, found by address: a few dozen in all.
fn word<'py>(py: Python<'py>, text: &'static str) -> Bound<'py, PyString> {
    /// Each word by the address and length of its text.
    type Words = Mutex<Vec<(usize, usize, Py<PyString>)>>;
    static WORDS: PyOnceLock<Words> = PyOnceLock::new();
    let words = WORDS.get_or_init(py, Default::default);
    let mut words = words
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let at = (text.as_ptr() as usize, text.len());
    if let Some((_, _, known)) = words.iter().find(|(p, n, _)| (*p, *n) == at) {
        return known.bind(py).clone();
    }
    let made = PyString::intern(py, text);
    words.push((at.0, at.1, made.clone().unbind()));
    made
}

/// A list of `len` items, item `k` made by `item(k)`, filled in place.
fn filled_list<'py>(
    py: Python<'py>,
    len: usize,
    mut item: impl FnMut(usize) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let size = isize::try_from(len).map_err(|_| fail("internal error: list too long"))?;
    // SAFETY: `PyList_New` returns a new reference (or null with an exception set), and
    // its slots are null until set; `Bound::from_owned_ptr_or_err` takes the reference.
    // Each slot is set once, with `PyList_SetItem`, which steals the item's reference;
    // a list dropped with slots still null is freed correctly by Python.
    unsafe {
        let list = Bound::from_owned_ptr_or_err(py, ffi::PyList_New(size))?;
        for k in 0..len {
            let value = item(k)?;
            if ffi::PyList_SetItem(list.as_ptr(), k as isize, value.into_ptr()) != 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(list.cast_into_unchecked::<PyList>())
    }
}

/// `{"vertical": [[row, col], …], "horizontal": […]}`, one-based, as `Solution`
/// serializes.
fn tiling_dict<'py>(py: Python<'py>, tiling: &Solution) -> PyResult<Bound<'py, PyDict>> {
    let cells = |cells: &[(usize, usize)]| {
        filled_list(py, cells.len(), |k| {
            let (r, c) = cells[k];
            filled_list(py, 2, |side| [r + 1, c + 1][side].into_bound_py_any(py))
                .map(Bound::into_any)
        })
    };
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "vertical"), cells(&tiling.vertical)?)?;
    dict.set_item(intern!(py, "horizontal"), cells(&tiling.horizontal)?)?;
    Ok(dict)
}
