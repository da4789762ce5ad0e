//! Reading instance, workload and solution files with strict validation.
//!
//! Files come from people and from other tools, so every mistake gets one message that
//! names the file, the line of a workload, the field and what was expected. Validation
//! walks a `serde_json::Value` by hand rather than deriving a struct, because serde's
//! messages for a negative clue or a wrong type do not name the field.

mod error;
mod fields;
mod limits;
pub mod quick;
mod text;

pub use error::{InputError, Origin};
use fields::{instance_from_value, solution_from_value};
pub use limits::{MAX_INPUT_BYTES, MAX_WORKLOAD_CELLS};
use text::{each_document, given_text};
pub use text::{is_workload, read_bounded};

use super::{Instance, Solution};

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
    each_document(text, file, "solutions", workload, &mut |document| {
        let tiling = match quick::tiling_from_text(document.text) {
            Some(tiling) => tiling,
            None => solution_from_value(&document.value()?, &document.origin)?,
        };
        solutions.push(tiling);
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
    workload_lines: bool,
) -> Result<Vec<Instance>, InputError> {
    let mut workload = Workload::default();
    each_document(text, file, "instances", workload_lines, &mut |document| {
        let name = default_name(&document.origin, stem);
        match quick::board_from_text(document.text, &name) {
            Some(board) => workload.push_board(board, document.origin),
            None => workload.push(&document.value()?, document.origin, stem),
        }
    })?;
    Ok(workload.instances)
}

/// Boards read one by one that obey a workload's rules together: each board valid, no
/// name used twice (names key the rows of runs.csv and the files of `emit -o DIR`), and
/// at most [`MAX_WORKLOAD_CELLS`] cells in all. Files are read into one; the Python
/// package reads its lists of dicts into one.
#[derive(Debug, Default)]
pub struct Workload {
    /// The boards so far, in order.
    pub instances: Vec<Instance>,
    cells: usize,
    lines_by_name: std::collections::HashMap<String, Option<usize>>,
}

impl Workload {
    /// Adds the board `value`, found at `origin`. A board with no name is named after its
    /// line in a workload (`line-N`), else `stem`.
    ///
    /// # Errors
    /// The board is invalid, its name is taken, or the boards get too large together.
    pub fn push(
        &mut self,
        value: &serde_json::Value,
        origin: Origin,
        stem: &str,
    ) -> Result<(), InputError> {
        let instance = instance_from_value(value, &origin, &default_name(&origin, stem))?;
        self.push_board(instance, origin)
    }

    /// Adds a board read already (by [`quick`]), checked against the others.
    ///
    /// # Errors
    /// Its name is taken, or the boards get too large together.
    pub fn push_board(&mut self, instance: Instance, origin: Origin) -> Result<(), InputError> {
        if let Some(first) = self
            .lines_by_name
            .insert(instance.name.clone(), origin.line)
        {
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
        self.cells += instance.rows * instance.cols;
        if self.cells > MAX_WORKLOAD_CELLS {
            return Err(InputError::Board {
                origin,
                message: format!(
                    "the workload's boards add up to more than {MAX_WORKLOAD_CELLS} cells; \
                     split it into smaller files"
                ),
            });
        }
        self.instances.push(instance);
        Ok(())
    }
}

/// The name of an unnamed board: after its line in a workload (`line-N`), else `stem`.
fn default_name(origin: &Origin, stem: &str) -> String {
    match origin.line {
        Some(line) => format!("line-{line}"),
        None => stem.to_string(),
    }
}

/// One board from a JSON value that came from no file (the Python package's dicts):
/// validated as a board of a file is, and said to come from `origin`; named `name`
/// unless it names itself.
///
/// # Errors
/// What is wrong with the board.
pub fn instance_from_json(
    value: &serde_json::Value,
    origin: &Origin,
    name: &str,
) -> Result<Instance, InputError> {
    instance_from_value(value, origin, name)
}

/// One tiling from a JSON value that came from no file, as [`instance_from_json`].
///
/// # Errors
/// What is wrong with the tiling.
pub fn solution_from_json(
    value: &serde_json::Value,
    origin: &Origin,
) -> Result<Solution, InputError> {
    solution_from_value(value, origin)
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
    if let Some(board) = quick::board_from_text(text, stem) {
        return Ok(vec![board]);
    }
    parse_instances(text, file, stem, is_workload("-", text))
}

/// Solutions from text that came from no file, read as [`parse_given_instances`] reads
/// instances.
///
/// # Errors
/// As [`parse_solutions`].
pub fn parse_given_solutions(text: &str, file: &str) -> Result<Vec<Solution>, InputError> {
    let text = given_text(text, file)?;
    if let Some(tiling) = quick::tiling_from_text(text) {
        return Ok(vec![tiling]);
    }
    parse_solutions(text, file, is_workload("-", text))
}
