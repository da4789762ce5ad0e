//! Instance and solution files opened by path (or `-` for standard input): the part of
//! reading a board that needs an operating system. What the bytes must be and how they
//! become boards is the core's (`puzzle::parse`), which a page calls on pasted text.

use std::path::Path;

use crate::puzzle::parse::{
    InputError, is_workload, parse_instances, parse_solutions, read_bounded,
};
use crate::puzzle::{Instance, Solution};

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

/// The text of `path` (standard input for `-`), read within the input bound, and the
/// name the messages give it.
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
