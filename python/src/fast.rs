//! Boards and tilings read straight from dicts of the exact expected shape, without a
//! JSON value in between: most of a small call's cost otherwise.
//!
//! Each reader accepts only what the validating reader (`dominofit::puzzle::parse`, on
//! the dict's JSON value) accepts, and gives the same board: exact `dict`, `list`,
//! `str` and `int` (a bool is not one), the known keys, and every value check the
//! validating reader makes. Anything else, valid or not, gives `None`, and the caller
//! reads the dict the validating way, which also words the error. The Python tests hold
//! the two readers to the same answers and messages.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyString};

use dominofit::puzzle::parse::quick::{Parts, TilingParts};
use dominofit::puzzle::{Instance, Solution};

/// A whole number of exact type `int` that fits in 64 bits.
fn whole(value: &Bound<'_, PyAny>) -> Option<u64> {
    if !value.is_exact_instance_of::<PyInt>() {
        return None;
    }
    value.extract::<u64>().ok()
}

/// A `[row, col]` list of two whole numbers, as given (the quick reader checks them).
fn pair(value: &Bound<'_, PyAny>) -> Option<[u64; 2]> {
    let pair = value.cast_exact::<PyList>().ok()?;
    if pair.len() != 2 {
        return None;
    }
    Some([
        whole(&pair.get_item(0).ok()?)?,
        whole(&pair.get_item(1).ok()?)?,
    ])
}

/// A list of whole numbers.
fn numbers(value: &Bound<'_, PyAny>) -> Option<Vec<u64>> {
    let list = value.cast_exact::<PyList>().ok()?;
    list.iter().map(|v| whole(&v)).collect()
}

/// The board of `dict`, named `default_name` unless it names itself; `None` for
/// anything the validating reader should look at. The value checks are the library's
/// quick reader's ([`Parts::board`]). Fields are looked up by interned keys, whose
/// hashes Python keeps, and a key count that is off (an unknown key) gives `None`.
pub fn instance<'py>(dict: &Bound<'py, PyDict>, default_name: &str) -> Option<Instance> {
    let py = dict.py();
    let field = |key: &Bound<'py, PyString>| dict.get_item(key).ok().flatten();
    let name = field(intern!(py, "name"));
    if dict.len() != 5 + usize::from(name.is_some()) {
        return None;
    }
    let name = match name {
        None => None,
        Some(name) => Some(
            name.cast_exact::<PyString>()
                .ok()?
                .to_cow()
                .ok()?
                .into_owned(),
        ),
    };
    let blocked = field(intern!(py, "blocked"))?;
    let blocked = (blocked.cast_exact::<PyList>().ok()?.iter())
        .map(|item| pair(&item))
        .collect::<Option<Vec<[u64; 2]>>>()?;
    let parts = Parts {
        name,
        rows: whole(&field(intern!(py, "rows"))?)?,
        cols: whole(&field(intern!(py, "cols"))?)?,
        blocked,
        row_clues: numbers(&field(intern!(py, "row_clues"))?)?,
        col_clues: numbers(&field(intern!(py, "col_clues"))?)?,
    };
    parts.board(default_name)
}

/// The tiling of `dict`, as [`instance`] reads a board (the checks are the quick
/// reader's, [`TilingParts::tiling`]).
pub fn solution(dict: &Bound<'_, PyDict>) -> Option<Solution> {
    if dict.len() != 2 {
        return None;
    }
    let read = |field: &Bound<'_, PyString>| -> Option<Vec<[u64; 2]>> {
        let list = dict.get_item(field).ok()??;
        (list.cast_exact::<PyList>().ok()?.iter())
            .map(|item| pair(&item))
            .collect()
    };
    let parts = TilingParts {
        vertical: read(intern!(dict.py(), "vertical"))?,
        horizontal: read(intern!(dict.py(), "horizontal"))?,
    };
    parts.tiling()
}
