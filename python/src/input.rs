//! What a Python caller gives, read into the library's types: boards and tilings from
//! dicts, JSON text, lists of dicts or paths, and whole numbers in range.
//!
//! Dicts are read into `serde_json` values directly (`pythonize`) and validated by the
//! same code as files, so a dict and its JSON text give the same board or the same
//! message, without a round trip through text.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Number, Value};

use dominofit::files::{read_instances, read_solutions};
use dominofit::puzzle::parse::{
    Origin, Workload, instance_from_json, is_workload, parse_given_instances,
    parse_given_solutions, solution_from_json,
};
use dominofit::puzzle::{Instance, Solution};

use crate::fail;

/// What a caller gave, read: the items, and whether they answer as a list.
pub struct Given<T> {
    pub items: Vec<T>,
    /// How messages name what was given: its path, or `<instance>`/`<solution>`.
    pub label: String,
    /// A list, a tuple or a workload (JSON Lines): answered with a list even when it
    /// holds one item.
    pub several: bool,
}

/// The file name messages give to what came from no file.
pub const GIVEN_INSTANCE: &str = "<instance>";
pub const GIVEN_SOLUTION: &str = "<solution>";

/// Where item `index` (zero-based) of a given list is said to be.
pub fn item_origin(file: &str, index: usize) -> Origin {
    Origin {
        file: file.to_string(),
        line: Some(index + 1),
    }
}

/// A dict (or any value made of dicts, lists, strings, numbers, bools and `None`) as the
/// JSON value `json.dumps` would write for it, read by the same validation as files.
pub fn json_value(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    json_of(value, 0).map_err(|e| fail(format!("{GIVEN_INSTANCE}: {e}")))
}

/// How deep dicts and lists may nest: far more than any board, few enough that no
/// stack runs out.
const MAX_DEPTH: u32 = 64;

fn json_of(value: &Bound<'_, PyAny>, depth: u32) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("nested more than {MAX_DEPTH} deep"));
    }
    let text = |e: PyErr| e.to_string();
    // The types of a board first, most frequent first: this walk is most of a small
    // call's cost. A bool is an int to Python, so it is asked for before int.
    if value.is_exact_instance_of::<PyInt>() {
        return int_of(value);
    }
    if let Ok(list) = value.cast::<PyList>() {
        return (list.iter())
            .map(|item| json_of(&item, depth + 1))
            .collect();
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(Value::String(s.to_cow().map_err(text)?.into_owned()));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut object = serde_json::Map::new();
        for (key, item) in dict.iter() {
            let Ok(key) = key.cast::<PyString>() else {
                return Err(format!("a key is {}, not a string", type_name(&key)));
            };
            let key = key.to_cow().map_err(text)?.into_owned();
            object.insert(key, json_of(&item, depth + 1)?);
        }
        return Ok(Value::Object(object));
    }
    if value.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        return int_of(value);
    }
    if let Ok(f) = value.cast::<PyFloat>() {
        let v = f.value();
        return Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| format!("{v} is not a JSON number"));
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return (tuple.iter())
            .map(|item| json_of(&item, depth + 1))
            .collect();
    }
    Err(format!("a {} is not JSON", type_name(value)))
}

/// An int as JSON text would hold it: exact to 64 bits, a float beyond.
fn int_of(value: &Bound<'_, PyAny>) -> Result<Value, String> {
    if let Ok(v) = value.extract::<i64>() {
        return Ok(Value::from(v));
    }
    if let Ok(v) = value.extract::<u64>() {
        return Ok(Value::from(v));
    }
    let v: f64 = value.extract().map_err(|e: PyErr| e.to_string())?;
    Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
}

/// The name of a value's type, for messages.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string())
}

/// The path of an `os.PathLike`, if `value` is one.
fn path_of(value: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if value.is_instance_of::<PyString>() || !value.hasattr("__fspath__")? {
        return Ok(None);
    }
    let path = value.call_method0("__fspath__")?;
    Ok(Some(path.extract::<String>()?))
}

fn wrong_type(what: &str, value: &Bound<'_, PyAny>) -> PyErr {
    let kind = type_name(value);
    PyTypeError::new_err(format!(
        "{what} must be a dict, JSON text, a list of dicts or a path, not {kind}"
    ))
}

/// The dicts of a list or tuple, or the error saying it holds something else.
fn dicts<'py>(value: &Bound<'py, PyAny>, what: &str) -> PyResult<Option<Vec<Bound<'py, PyAny>>>> {
    let items: Vec<Bound<'py, PyAny>> = if let Ok(list) = value.cast::<PyList>() {
        list.iter().collect()
    } else if let Ok(tuple) = value.cast::<PyTuple>() {
        tuple.iter().collect()
    } else {
        return Ok(None);
    };
    if !items.iter().all(|item| item.is_instance_of::<PyDict>()) {
        return Err(PyTypeError::new_err(format!(
            "a list of {what}s holds dicts"
        )));
    }
    Ok(Some(items))
}

/// The boards of `value`: a dict, JSON text (one board, or JSON Lines), a list of dicts
/// (read as a workload: names differ), or a path.
pub fn instances(value: &Bound<'_, PyAny>) -> PyResult<Given<Instance>> {
    if let Ok(dict) = value.cast::<PyDict>() {
        let board = match crate::fast::instance(dict, "instance") {
            Some(board) => board,
            None => {
                let origin = Origin {
                    file: GIVEN_INSTANCE.to_string(),
                    line: None,
                };
                instance_from_json(&json_value(value)?, &origin, "instance").map_err(fail)?
            }
        };
        return Ok(Given {
            items: vec![board],
            label: GIVEN_INSTANCE.to_string(),
            several: false,
        });
    }
    if let Ok(text) = value.cast::<PyString>() {
        let text = text.to_cow()?;
        let text: &str = &text;
        return Ok(Given {
            items: parse_given_instances(text, GIVEN_INSTANCE, "instance").map_err(fail)?,
            label: GIVEN_INSTANCE.to_string(),
            several: is_workload("-", text),
        });
    }
    if let Some(items) = dicts(value, "instance")? {
        let mut workload = Workload::default();
        for (k, item) in items.iter().enumerate() {
            let origin = item_origin(GIVEN_INSTANCE, k);
            workload
                .push(&json_value(item)?, origin, "instance")
                .map_err(fail)?;
        }
        return Ok(Given {
            items: workload.instances,
            label: GIVEN_INSTANCE.to_string(),
            several: true,
        });
    }
    if let Some(path) = path_of(value)? {
        return Ok(Given {
            items: read_instances(&path).map_err(fail)?,
            several: is_workload(&path, ""),
            label: path,
        });
    }
    Err(wrong_type("instance", value))
}

/// The tilings of `value`, read as [`instances`] reads boards.
pub fn solutions(value: &Bound<'_, PyAny>) -> PyResult<Given<Solution>> {
    if let Ok(dict) = value.cast::<PyDict>() {
        let tiling = match crate::fast::solution(dict) {
            Some(tiling) => tiling,
            None => {
                let origin = Origin {
                    file: GIVEN_SOLUTION.to_string(),
                    line: None,
                };
                solution_from_json(&json_value(value)?, &origin).map_err(fail)?
            }
        };
        return Ok(Given {
            items: vec![tiling],
            label: GIVEN_SOLUTION.to_string(),
            several: false,
        });
    }
    if let Ok(text) = value.cast::<PyString>() {
        let text = text.to_cow()?;
        let text: &str = &text;
        return Ok(Given {
            items: parse_given_solutions(text, GIVEN_SOLUTION).map_err(fail)?,
            label: GIVEN_SOLUTION.to_string(),
            several: is_workload("-", text),
        });
    }
    if let Some(items) = dicts(value, "solution")? {
        let tilings = (items.iter().enumerate())
            .map(|(k, item)| {
                solution_from_json(&json_value(item)?, &item_origin(GIVEN_SOLUTION, k))
                    .map_err(fail)
            })
            .collect::<PyResult<Vec<Solution>>>()?;
        return Ok(Given {
            items: tilings,
            label: GIVEN_SOLUTION.to_string(),
            several: true,
        });
    }
    if let Some(path) = path_of(value)? {
        return Ok(Given {
            items: read_solutions(&path).map_err(fail)?,
            several: is_workload(&path, ""),
            label: path,
        });
    }
    Err(wrong_type("solution", value))
}

/// `value` as a whole number from `low` to `high`: a `TypeError` for anything but an
/// int (a bool is not one), and the error saying the range for one outside it.
pub fn whole(name: &str, value: &Bound<'_, PyAny>, low: u64, high: u64) -> PyResult<u64> {
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        let kind = type_name(value);
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, not {kind}"
        )));
    }
    match value.extract::<u64>() {
        Ok(v) if (low..=high).contains(&v) => Ok(v),
        _ => Err(fail(format!(
            "{name} must be between {low} and {high}, not {}",
            value.str()?
        ))),
    }
}
