//! What is wrong with an input, and where it is.

use std::fmt;

use super::limits::MAX_INPUT_BYTES;

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
    #[error("{file}: no {what} (the file is empty)")]
    Empty {
        /// The path as given, or `<stdin>`.
        file: String,
        /// What the file was to hold: `instances` or `solutions`.
        what: &'static str,
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
