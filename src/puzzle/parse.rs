//! Reading instance, workload and solution files with strict validation.
//!
//! Files come from people and from other tools, so every mistake gets one message that
//! names the file, the line of a workload, the field and what was expected. Validation
//! walks a `serde_json::Value` by hand rather than deriving a struct, because serde's
//! messages for a negative clue or a wrong type do not name the field.

use std::fmt;
use std::io::Read;
use std::path::Path;

use serde_json::{Map, Value};

use super::{Instance, MAX_CELLS, MAX_SIDE, Solution};

/// Most cells all boards of one workload may have together: every board is held in
/// memory before the first is solved, so that bad input is refused before any output.
pub const MAX_WORKLOAD_CELLS: usize = 1 << 26;

/// Most bytes one input file (or standard input) may hold: room for a workload of a
/// million game boards, or several 1024×1024 boards with every cell listed as blocked.
/// It is read in chunks up to this size and refused past it, so that memory is bounded
/// before parsing starts (`dominofit solve /dev/zero` used to grow without end).
pub const MAX_INPUT_BYTES: usize = 256 << 20;

/// Where a piece of input came from: a file (or standard input) and, inside a
/// workload, a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The path as given, or `<stdin>` for standard input.
    pub file: String,
    /// One-based line of a workload; `None` for a single-document file.
    pub line: Option<usize>,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}: line {}", self.file, line),
            None => write!(f, "{}", self.file),
        }
    }
}

/// Everything that can be wrong with an input file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// The file cannot be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The path as given, or `<stdin>`.
        file: String,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// Malformed JSON, or an object that names a key twice.
    #[error("{origin}: malformed JSON: {message}")]
    Json {
        /// Where the malformed document is.
        origin: Origin,
        /// The JSON reader's description of the fault.
        message: String,
    },
    /// A document that is valid JSON but not an object.
    #[error("{origin}: expected a JSON object, found {found}")]
    NotObject {
        /// Where the document is.
        origin: Origin,
        /// What it is instead, such as `an array`.
        found: &'static str,
    },
    /// A required field is absent.
    #[error("{origin}: missing field `{field}`")]
    MissingField {
        /// Where the document is.
        origin: Origin,
        /// The missing field's name.
        field: &'static str,
    },
    /// A field the format does not define.
    #[error("{origin}: unknown field `{field}` (expected one of: {expected})")]
    UnknownField {
        /// Where the document is.
        origin: Origin,
        /// The first unknown field in key order.
        field: String,
        /// The fields the format defines, listed for the message.
        expected: &'static str,
    },
    /// A field whose value has the wrong type or length, is out of range, or lists a
    /// blocked cell outside the board or twice.
    #[error("{origin}: field `{field}`: {message}")]
    Field {
        /// Where the document is.
        origin: Origin,
        /// The offending field.
        field: &'static str,
        /// What is wrong with it, naming the entry of an array.
        message: String,
    },
    /// Well-formed fields that do not make an acceptable board or workload: an empty or
    /// oversized board, a name used twice, too many cells in one workload.
    #[error("{origin}: {message}")]
    Board {
        /// Where the document is.
        origin: Origin,
        /// What is wrong, in words.
        message: String,
    },
    /// The file holds no document.
    #[error("{file}: no instances (the file is empty)")]
    Empty {
        /// The path as given, or `<stdin>`.
        file: String,
    },
    /// The file is larger than any input may be; nothing was parsed.
    #[error(
        "{file}: larger than the {} MiB an input file may hold; split the workload into \
         smaller files",
        MAX_INPUT_BYTES >> 20
    )]
    TooLarge {
        /// The path as given, or `<stdin>`.
        file: String,
    },
    /// A byte that JSON text never holds (a control character, or no UTF-8): the file is
    /// not JSON, and reading stopped there.
    #[error("{origin}: malformed JSON: {what} at column {column}; this is not JSON text")]
    NotText {
        /// Where: the file and the line of the byte.
        origin: Origin,
        /// One-based byte column of the byte in its line.
        column: usize,
        /// What the byte is, in words.
        what: String,
    },
}

const INSTANCE_FIELDS: &str = "name, rows, cols, blocked, row_clues, col_clues";
const SOLUTION_FIELDS: &str = "vertical, horizontal";

/// Reads one file (or `-` for standard input) holding an instance or a workload.
///
/// # Errors
/// Any unreadable, malformed or invalid input, with its origin.
pub fn read_instances(path: &str) -> Result<Vec<Instance>, InputError> {
    let (text, file) = read_text(path)?;
    let stem = if path == "-" {
        "stdin".to_string()
    } else {
        Path::new(path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.to_string())
    };
    parse_instances(&text, &file, &stem, is_workload(path, &text))
}

/// Reads a solution file (or a JSON Lines file of solutions, one per instance).
///
/// # Errors
/// Any unreadable, malformed or invalid input, with its origin.
pub fn read_solutions(path: &str) -> Result<Vec<Solution>, InputError> {
    let (text, file) = read_text(path)?;
    let workload = is_workload(path, &text);
    parse_solutions(&text, &file, workload)
}

/// Parses solution text: one document, or with `workload` one per line.
///
/// # Errors
/// The first problem found, with its origin.
pub fn parse_solutions(
    text: &str,
    file: &str,
    workload: bool,
) -> Result<Vec<Solution>, InputError> {
    let mut solutions = Vec::new();
    each_document(text, file, workload, &mut |origin, value| {
        solutions.push(solution_from_value(&value, &origin)?);
        Ok(())
    })?;
    Ok(solutions)
}

/// Parses instance text. `workload` selects JSON Lines; otherwise the text is one
/// JSON document named `stem` unless it names itself.
///
/// # Errors
/// The first problem found, with its origin.
pub fn parse_instances(
    text: &str,
    file: &str,
    stem: &str,
    workload: bool,
) -> Result<Vec<Instance>, InputError> {
    let mut instances = Vec::new();
    let mut cells = 0usize;
    // Names key the rows of runs.csv and the files of `emit -o DIR`: one workload may
    // not use a name twice.
    let mut lines_by_name: std::collections::HashMap<String, Option<usize>> =
        std::collections::HashMap::new();
    each_document(text, file, workload, &mut |origin, value| {
        let default_name = match origin.line {
            Some(line) => format!("line-{line}"),
            None => stem.to_string(),
        };
        let instance = instance_from_value(&value, &origin, &default_name)?;
        if let Some(first) = lines_by_name.insert(instance.name.clone(), origin.line) {
            return Err(InputError::Board {
                message: format!(
                    "the name `{}` is already used by the board on line {}; names in a \
                     workload must differ",
                    crate::escape::terminal(&instance.name),
                    first.map_or("?".to_string(), |l| l.to_string())
                ),
                origin,
            });
        }
        cells += instance.rows * instance.cols;
        if cells > MAX_WORKLOAD_CELLS {
            return Err(InputError::Board {
                origin,
                message: format!(
                    "the workload's boards add up to more than {MAX_WORKLOAD_CELLS} cells; \
                     split it into smaller files"
                ),
            });
        }
        instances.push(instance);
        Ok(())
    })?;
    Ok(instances)
}

/// Instances from text that came from no file (the Python package's strings): one
/// document when the whole text is one JSON value, a workload otherwise, as standard
/// input is read. `file` names the text in messages; unnamed boards are named `stem`.
///
/// # Errors
/// As [`parse_instances`].
pub fn parse_given_instances(
    text: &str,
    file: &str,
    stem: &str,
) -> Result<Vec<Instance>, InputError> {
    let text = given_text(text, file)?;
    parse_instances(text, file, stem, is_workload("-", text))
}

/// Solutions from text that came from no file, read as [`parse_given_instances`] reads
/// instances.
///
/// # Errors
/// As [`parse_solutions`].
pub fn parse_given_solutions(text: &str, file: &str) -> Result<Vec<Solution>, InputError> {
    let text = given_text(text, file)?;
    parse_solutions(text, file, is_workload("-", text))
}

fn read_text(path: &str) -> Result<(String, String), InputError> {
    let file = if path == "-" { "<stdin>" } else { path }.to_string();
    let io = |source| InputError::Io {
        file: file.clone(),
        source,
    };
    let text = if path == "-" {
        read_bounded(&mut std::io::stdin().lock(), &file)
    } else {
        let mut opened = std::fs::File::open(path).map_err(io)?;
        read_bounded(&mut opened, &file)
    }?;
    Ok((text, file))
}

/// Reads `input` in chunks, at most [`MAX_INPUT_BYTES`], and stops at the first byte
/// JSON text never holds (checked as each chunk arrives), so that a binary file or a
/// device such as `/dev/zero` fails at once. A UTF-8 byte order mark at the start is
/// dropped (RFC 8259 lets a reader ignore it).
fn read_bounded(input: &mut dyn Read, file: &str) -> Result<String, InputError> {
    let mut bytes: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    // Bytes before `checked` were looked at, and are UTF-8 up to `valid` (a character may
    // be cut at a chunk's end); `line` and `line_start` say where `checked` is.
    let (mut checked, mut valid, mut line, mut line_start) = (0usize, 0usize, 1usize, 0usize);
    let position = |bytes: &[u8], at: usize| {
        let line_start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |k| k + 1);
        let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
        (line, at - line_start)
    };
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(source) => {
                return Err(InputError::Io {
                    file: file.to_string(),
                    source,
                });
            }
        };
        if bytes.len() + n > MAX_INPUT_BYTES {
            return Err(InputError::TooLarge {
                file: file.to_string(),
            });
        }
        bytes.extend_from_slice(&chunk[..n]);
        // Control bytes other than tab and line ends are never JSON text, in a string
        // or out of one.
        for (k, &b) in bytes.iter().enumerate().skip(checked) {
            if b == b'\n' {
                line += 1;
                line_start = k + 1;
            } else if b < 0x20 && b != b'\t' && b != b'\r' {
                return Err(not_text(
                    file,
                    line,
                    k - line_start,
                    format!("the byte 0x{b:02X}"),
                ));
            }
        }
        checked = bytes.len();
        match std::str::from_utf8(&bytes[valid..]) {
            Ok(_) => valid = bytes.len(),
            Err(e) if e.error_len().is_none() => valid += e.valid_up_to(),
            Err(e) => {
                let bad = valid + e.valid_up_to();
                let (line, offset) = position(&bytes, bad);
                let what = format!("a byte that is not UTF-8 (0x{:02X})", bytes[bad]);
                return Err(not_text(file, line, offset, what));
            }
        }
    }
    if valid < bytes.len() {
        let (line, offset) = position(&bytes, valid);
        let what = "a UTF-8 character cut off at the end".to_string();
        return Err(not_text(file, line, offset, what));
    }
    if bytes.starts_with(BOM.as_bytes()) {
        bytes.drain(..BOM.len());
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let (line, offset) = position(e.as_bytes(), at);
        not_text(file, line, offset, "a byte that is not UTF-8".to_string())
    })
}

/// The UTF-8 byte order mark.
const BOM: &str = "\u{feff}";

/// Text handed over in memory (the Python package's strings) as a file's text would be
/// read: within [`MAX_INPUT_BYTES`], without a byte order mark.
fn given_text<'t>(text: &'t str, file: &str) -> Result<&'t str, InputError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(InputError::TooLarge {
            file: file.to_string(),
        });
    }
    Ok(text.strip_prefix(BOM).unwrap_or(text))
}

fn not_text(file: &str, line: usize, offset: usize, what: String) -> InputError {
    InputError::NotText {
        origin: Origin {
            file: file.to_string(),
            line: Some(line),
        },
        column: offset + 1,
        what,
    }
}

/// `.jsonl`/`.ndjson` files are workloads and other files single documents. Standard
/// input is a single document when the whole text parses as one JSON value, and a
/// workload otherwise (so a malformed line is reported with its line number).
fn is_workload(path: &str, text: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".jsonl") || lower.ends_with(".ndjson") {
        return true;
    }
    path == "-" && serde_json::from_str::<Value>(text).is_err()
}

/// Hands each JSON document of `text` to `each` as it is parsed: one, or with
/// `workload` one per non-blank line, so that only one document's tree is held at a
/// time.
fn each_document(
    text: &str,
    file: &str,
    workload: bool,
    each: &mut dyn FnMut(Origin, Value) -> Result<(), InputError>,
) -> Result<(), InputError> {
    let parse = |text: &str, origin: &Origin| {
        super::strict_json::from_str(text).map_err(|e| InputError::Json {
            origin: origin.clone(),
            message: format!("{e}"),
        })
    };
    let mut any = false;
    if workload {
        for (k, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let origin = Origin {
                file: file.to_string(),
                line: Some(k + 1),
            };
            let value = parse(line, &origin)?;
            any = true;
            each(origin, value)?;
        }
    } else if !text.trim().is_empty() {
        let origin = Origin {
            file: file.to_string(),
            line: None,
        };
        let value = parse(text, &origin)?;
        any = true;
        each(origin, value)?;
    }
    if any {
        Ok(())
    } else {
        Err(InputError::Empty {
            file: file.to_string(),
        })
    }
}

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

/// A non-negative integer, or a message saying what the value is instead.
fn non_negative(value: &Value) -> Result<u64, String> {
    match value {
        Value::Number(n) => {
            if let Some(v) = n.as_u64() {
                Ok(v)
            } else if n.as_i64().is_some() {
                Err(format!("{n} is negative; expected a non-negative integer"))
            } else if n.is_f64() && n.as_f64().is_some_and(|f| f.fract() != 0.0) {
                Err(format!("{n} is not an integer"))
            } else {
                Err(format!("{n} is not an integer in range"))
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
    let value = required(object, field, origin)?;
    let items = value.as_array().ok_or_else(|| {
        field_error(
            origin,
            field,
            format!(
                "expected an array of {expected_len} clues, found {}",
                kind_of(value)
            ),
        )
    })?;
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

fn instance_from_value(
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
    let blocked_value = required(object, "blocked", origin)?;
    let list = blocked_value.as_array().ok_or_else(|| {
        field_error(
            origin,
            "blocked",
            format!(
                "expected an array of [row, col] pairs, found {}",
                kind_of(blocked_value)
            ),
        )
    })?;
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

fn solution_from_value(value: &Value, origin: &Origin) -> Result<Solution, InputError> {
    let object = as_object(value, origin)?;
    check_known_fields(object, &["vertical", "horizontal"], SOLUTION_FIELDS, origin)?;
    let read = |field: &'static str| -> Result<Vec<(usize, usize)>, InputError> {
        let list_value = required(object, field, origin)?;
        let list = list_value.as_array().ok_or_else(|| {
            field_error(
                origin,
                field,
                format!(
                    "expected an array of [row, col] pairs, found {}",
                    kind_of(list_value)
                ),
            )
        })?;
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
