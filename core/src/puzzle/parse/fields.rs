//! From a JSON document to a board or a tiling, field by field: every field known,
//! present, of its type and within its bounds, each mistake named.

use serde_json::{Map, Value};

use super::error::{InputError, Origin};
use crate::puzzle::{Instance, MAX_CELLS, MAX_SIDE, Solution};

const INSTANCE_FIELDS: &str = "name, rows, cols, blocked, row_clues, col_clues";
const SOLUTION_FIELDS: &str = "vertical, horizontal";

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn as_object<'v>(value: &'v Value, origin: &Origin) -> Result<&'v Map<String, Value>, InputError> {
    value.as_object().ok_or_else(|| InputError::NotObject {
        origin: origin.clone(),
        found: kind_of(value),
    })
}

fn check_known_fields(
    object: &Map<String, Value>,
    known: &[&str],
    expected: &'static str,
    origin: &Origin,
) -> Result<(), InputError> {
    // serde_json's map iterates in key order, so the first unknown field reported is
    // deterministic.
    match object.keys().find(|k| !known.contains(&k.as_str())) {
        Some(field) => Err(InputError::UnknownField {
            origin: origin.clone(),
            field: field.clone(),
            expected,
        }),
        None => Ok(()),
    }
}

fn field_error(origin: &Origin, field: &'static str, message: String) -> InputError {
    InputError::Field {
        origin: origin.clone(),
        field,
        message,
    }
}

fn required<'v>(
    object: &'v Map<String, Value>,
    field: &'static str,
    origin: &Origin,
) -> Result<&'v Value, InputError> {
    object.get(field).ok_or_else(|| InputError::MissingField {
        origin: origin.clone(),
        field,
    })
}

/// A required field that must be an array, `what` saying of what (written only for
/// the message).
fn required_array<'v>(
    object: &'v Map<String, Value>,
    field: &'static str,
    what: impl FnOnce() -> String,
    origin: &Origin,
) -> Result<&'v Vec<Value>, InputError> {
    let value = required(object, field, origin)?;
    value.as_array().ok_or_else(|| {
        let (what, found) = (what(), kind_of(value));
        field_error(
            origin,
            field,
            format!("expected an array of {what}, found {found}"),
        )
    })
}

/// A non-negative integer, or a message saying what the value is instead.
fn non_negative(value: &Value) -> Result<u64, String> {
    match value {
        Value::Number(n) => {
            if let Some(v) = n.as_u64() {
                Ok(v)
            } else if n.as_i64().is_some() {
                Err(format!("{n} is negative; expected a non-negative integer"))
            } else if n.as_f64().is_some_and(|f| f.fract() != 0.0) {
                Err(format!("{n} is not an integer"))
            } else if n.as_f64().is_some_and(|f| f < 0.0) {
                // Below i64: read as a float, shown as one would be misread.
                Err("a number below zero is negative; expected a non-negative integer".into())
            } else {
                // At least 2^64: JSON numbers past u64 are read as floats, whose digits
                // would be a misleading picture of what was written.
                Err(format!(
                    "a number above {} is out of range; expected a non-negative integer",
                    u64::MAX
                ))
            }
        }
        other => Err(format!(
            "expected a non-negative integer, found {}",
            kind_of(other)
        )),
    }
}

fn size_field(
    object: &Map<String, Value>,
    field: &'static str,
    origin: &Origin,
) -> Result<usize, InputError> {
    let v = non_negative(required(object, field, origin)?)
        .map_err(|m| field_error(origin, field, m))?;
    if v == 0 {
        return Err(InputError::Board {
            origin: origin.clone(),
            message: format!(
                "empty board: `{field}` is 0; a board has at least one row and one column"
            ),
        });
    }
    if v > MAX_SIDE as u64 {
        return Err(field_error(
            origin,
            field,
            format!("{v} is larger than the supported maximum of {MAX_SIDE}"),
        ));
    }
    Ok(v as usize)
}

fn clue_field(
    object: &Map<String, Value>,
    field: &'static str,
    expected_len: usize,
    what: &str,
    origin: &Origin,
) -> Result<Vec<u64>, InputError> {
    let items = required_array(object, field, || format!("{expected_len} clues"), origin)?;
    if items.len() != expected_len {
        return Err(field_error(
            origin,
            field,
            format!(
                "has {} entries but the board has {expected_len} {what}",
                items.len()
            ),
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(k, item)| {
            non_negative(item)
                .map_err(|m| field_error(origin, field, format!("entry {}: {m}", k + 1)))
        })
        .collect()
}

/// A one-based `[row, col]` pair, returned zero-based.
fn cell_pair(value: &Value) -> Result<(u64, u64), String> {
    let pair = value
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(|| format!("expected a [row, col] pair, found {value}"))?;
    let row = non_negative(&pair[0]).map_err(|m| format!("row {m}"))?;
    let col = non_negative(&pair[1]).map_err(|m| format!("column {m}"))?;
    if row == 0 || col == 0 {
        return Err(format!(
            "[{row}, {col}] is not a cell: coordinates are one-based"
        ));
    }
    Ok((row - 1, col - 1))
}

pub(super) fn instance_from_value(
    value: &Value,
    origin: &Origin,
    default_name: &str,
) -> Result<Instance, InputError> {
    let object = as_object(value, origin)?;
    check_known_fields(
        object,
        &["name", "rows", "cols", "blocked", "row_clues", "col_clues"],
        INSTANCE_FIELDS,
        origin,
    )?;
    let name = match object.get("name") {
        None => default_name.to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            return Err(field_error(
                origin,
                "name",
                format!("expected a string, found {}", kind_of(other)),
            ));
        }
    };
    let rows = size_field(object, "rows", origin)?;
    let cols = size_field(object, "cols", origin)?;
    if rows * cols > MAX_CELLS {
        return Err(InputError::Board {
            origin: origin.clone(),
            message: format!(
                "a {rows}x{cols} board has {} cells, more than the supported maximum of {MAX_CELLS}",
                rows * cols
            ),
        });
    }
    let mut blocked = vec![false; rows * cols];
    let list = required_array(object, "blocked", || "[row, col] pairs".into(), origin)?;
    for (k, item) in list.iter().enumerate() {
        let (r, c) = cell_pair(item)
            .map_err(|m| field_error(origin, "blocked", format!("entry {}: {m}", k + 1)))?;
        if r >= rows as u64 || c >= cols as u64 {
            return Err(field_error(
                origin,
                "blocked",
                format!(
                    "entry {}: [{}, {}] is outside the {rows}x{cols} board",
                    k + 1,
                    r + 1,
                    c + 1
                ),
            ));
        }
        let index = r as usize * cols + c as usize;
        if blocked[index] {
            return Err(field_error(
                origin,
                "blocked",
                format!("entry {}: [{}, {}] is listed twice", k + 1, r + 1, c + 1),
            ));
        }
        blocked[index] = true;
    }
    let row_clues = clue_field(object, "row_clues", rows, "rows", origin)?;
    let col_clues = clue_field(object, "col_clues", cols, "columns", origin)?;
    Instance::new(name, (rows, cols), blocked, row_clues, col_clues).map_err(|e| {
        InputError::Board {
            origin: origin.clone(),
            message: e.to_string(),
        }
    })
}

pub(super) fn solution_from_value(value: &Value, origin: &Origin) -> Result<Solution, InputError> {
    let object = as_object(value, origin)?;
    check_known_fields(object, &["vertical", "horizontal"], SOLUTION_FIELDS, origin)?;
    let read = |field: &'static str| -> Result<Vec<(usize, usize)>, InputError> {
        let list = required_array(object, field, || "[row, col] pairs".into(), origin)?;
        let mut cells = Vec::with_capacity(list.len());
        for (k, item) in list.iter().enumerate() {
            let (r, c) = cell_pair(item)
                .map_err(|m| field_error(origin, field, format!("entry {}: {m}", k + 1)))?;
            let in_range = |v: u64| usize::try_from(v).ok().filter(|v| *v < MAX_SIDE);
            match (in_range(r), in_range(c)) {
                (Some(r), Some(c)) => cells.push((r, c)),
                _ => {
                    return Err(field_error(
                        origin,
                        field,
                        format!(
                            "entry {}: [{}, {}] is off any supported board",
                            k + 1,
                            r + 1,
                            c + 1
                        ),
                    ));
                }
            }
        }
        Ok(cells)
    };
    let mut vertical = read("vertical")?;
    let mut horizontal = read("horizontal")?;
    // Order in the file is not part of the meaning; keep duplicates so the verifier
    // can report them as overlaps.
    vertical.sort_unstable();
    horizontal.sort_unstable();
    Ok(Solution {
        vertical,
        horizontal,
    })
}
