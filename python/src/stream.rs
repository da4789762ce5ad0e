//! Boards one at a time: `generate` as an iterator that makes each board when it is
//! asked for, and the items of a batch read as they come.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyString, PyTuple};

use dominofit::action::{BoardKind, GenerateRequest};
use dominofit::design::DesignOptions;
use dominofit::puzzle::parse::{instance_from_json, parse_given_instances, solution_from_json};
use dominofit::puzzle::{Instance, Solution};

use crate::input::{GIVEN_INSTANCE, GIVEN_SOLUTION, item_origin, json_value, type_name};
use crate::{call, fail, to_python};

/// The boards of `generate`, made one by one as they are asked for: the same boards as
/// `dominofit generate` with the same request, in the same order, without holding them.
#[pyclass(module = "dominofit._native")]
pub struct Boards {
    request: GenerateRequest,
    next: u64,
}

#[pymethods]
impl Boards {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        if slf.next >= slf.request.count {
            return Ok(None);
        }
        let index = slf.next;
        slf.next += 1;
        let request = &slf.request;
        // Making a board looks at its stop flag: a long certifying run stops on Ctrl-C.
        let made = call::in_place(py, || request.board(index))?.map_err(fail)?;
        to_python(py, &made.instance.json()).map(Some)
    }

    /// Boards not made yet.
    fn __length_hint__(&self) -> u64 {
        self.request.count - self.next
    }
}

/// `generate`: the stream of boards, checked before any is made.
#[pyfunction]
#[pyo3(signature = (rows, cols, count, seed, kind, timeout, pool, node_cap, level))]
#[allow(clippy::too_many_arguments)]
pub fn generate(
    rows: usize,
    cols: usize,
    count: u64,
    seed: u64,
    kind: &str,
    timeout: f64,
    pool: u32,
    node_cap: u64,
    level: Option<&str>,
) -> PyResult<Boards> {
    let level = level
        .map(|name| {
            dominofit::backend::native::ladder::level_number(name).ok_or_else(|| {
                fail(format!(
                    "unknown level `{name}`: one of singles, colours, pairs, trial, search"
                ))
            })
        })
        .transpose()?;
    let timeout = dominofit::backend::time_limit(timeout).map_err(fail)?;
    let request = GenerateRequest {
        rows,
        cols,
        count,
        seed,
        kind: kind.parse::<BoardKind>().map_err(fail)?,
        design: DesignOptions {
            timeout,
            pool,
            node_cap,
            ..DesignOptions::default()
        },
        tiling: dominofit::puzzle::generate::Tiling::Flips,
        level,
    };
    Ok(Boards { request, next: 0 })
}

/// Item `index` of a batch, taken from Python (with the GIL): a dict as its JSON
/// value, or JSON text. It is read as a board on a worker ([`RawBoard::board`]).
pub enum RawBoard {
    /// Read already, by [`crate::fast::instance`].
    Board(Instance),
    Json(serde_json::Value),
    Text(String),
}

impl RawBoard {
    pub fn of(item: &Bound<'_, PyAny>, index: usize) -> Result<RawBoard, String> {
        if let Ok(dict) = item.cast::<PyDict>() {
            if let Some(board) = crate::fast::instance(dict, &format!("line-{}", index + 1)) {
                return Ok(RawBoard::Board(board));
            }
            return json_value(item)
                .map(RawBoard::Json)
                .map_err(|e| e.to_string());
        }
        let Ok(text) = item.cast::<PyString>() else {
            let place = item_origin(GIVEN_INSTANCE, index);
            let kind = type_name(item);
            return Err(format!(
                "{place}: a board is a dict or JSON text, not {kind}"
            ));
        };
        let text = text.to_cow().map_err(|e| e.to_string())?;
        Ok(RawBoard::Text(text.into_owned()))
    }

    /// The board, validated as a file's board is; unnamed, it is named after its place.
    pub fn board(&self, index: usize) -> Result<Instance, String> {
        let default_name = format!("line-{}", index + 1);
        let origin = item_origin(GIVEN_INSTANCE, index);
        let text = match self {
            RawBoard::Board(board) => return Ok(board.clone()),
            RawBoard::Json(value) => {
                return instance_from_json(value, &origin, &default_name)
                    .map_err(|e| e.to_string());
            }
            RawBoard::Text(text) => text,
        };
        let place = origin.to_string();
        let boards =
            parse_given_instances(text, &place, &default_name).map_err(|e| e.to_string())?;
        <[Instance; 1]>::try_from(boards)
            .map(|[one]| one)
            .map_err(|many| format!("{place}: holds {} boards; an item is one", many.len()))
    }
}

/// Item `index` of a batch as one board: a dict, or JSON text of one board.
pub fn board_of_batch(item: &Bound<'_, PyAny>, index: usize) -> Result<Instance, String> {
    RawBoard::of(item, index)?.board(index)
}

/// Item `index` of a batch of pairs: a board and a tiling (a dict, or JSON text).
pub fn pair_of_batch(
    item: &Bound<'_, PyAny>,
    index: usize,
) -> Result<(Instance, Solution), String> {
    let pair = item.cast::<PyTuple>().map_err(|e| e.to_string())?;
    let (board, tiling) = (
        pair.get_item(0).map_err(|e| e.to_string())?,
        pair.get_item(1).map_err(|e| e.to_string())?,
    );
    let instance = board_of_batch(&board, index)?;
    let origin = item_origin(GIVEN_SOLUTION, index);
    let value = if let Ok(text) = tiling.cast::<PyString>() {
        let text = text.to_cow().map_err(|e| e.to_string())?;
        let text: &str = &text;
        serde_json::from_str(text).map_err(|e| format!("{origin}: not JSON: {e}"))?
    } else {
        json_value(&tiling).map_err(|e| e.to_string())?
    };
    let solution = solution_from_json(&value, &origin).map_err(|e| e.to_string())?;
    Ok((instance, solution))
}

/// Two iterables walked side by side, as `(board, tiling)` tuples; one that ends before
/// the other is an error.
#[pyclass(module = "dominofit._native")]
pub struct Pairs {
    instances: Py<PyIterator>,
    solutions: Py<PyIterator>,
}

impl Pairs {
    pub fn new(instances: &Bound<'_, PyAny>, solutions: &Bound<'_, PyAny>) -> PyResult<Pairs> {
        Ok(Pairs {
            instances: instances.try_iter()?.unbind(),
            solutions: solutions.try_iter()?.unbind(),
        })
    }
}

#[pymethods]
impl Pairs {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let board = self.instances.bind(py).clone().next().transpose()?;
        let tiling = self.solutions.bind(py).clone().next().transpose()?;
        match (board, tiling) {
            (None, None) => Ok(None),
            (Some(board), Some(tiling)) => {
                Ok(Some(PyTuple::new(py, [board, tiling])?.into_any().unbind()))
            }
            (Some(_), None) => Err(fail(
                "there are more instances than solutions; they are paired one to one",
            )),
            (None, Some(_)) => Err(fail(
                "there are more solutions than instances; they are paired one to one",
            )),
        }
    }
}
