//! From bytes to JSON documents: a reader (a file or standard input, opened by the
//! caller) read within a bound, text that
//! is UTF-8 without control characters, and a workload's lines one document each.

use std::io::Read;

use serde_json::Value;

use super::error::{InputError, Origin};
use super::limits::MAX_INPUT_BYTES;

/// Reads `input` in chunks, at most [`MAX_INPUT_BYTES`], and stops at the first byte
/// JSON text never holds (checked as each chunk arrives), so that a binary file or a
/// device such as `/dev/zero` fails at once. A UTF-8 byte order mark at the start is
/// dropped (RFC 8259 lets a reader ignore it).
pub fn read_bounded(input: &mut dyn Read, file: &str) -> Result<String, InputError> {
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
pub(super) fn given_text<'t>(text: &'t str, file: &str) -> Result<&'t str, InputError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(InputError::TooLarge {
            file: file.to_string(),
        });
    }
    Ok(text.strip_prefix(BOM).unwrap_or(text))
}

pub(super) fn not_text(file: &str, line: usize, offset: usize, what: String) -> InputError {
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
pub fn is_workload(path: &str, text: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".jsonl") || lower.ends_with(".ndjson") {
        return true;
    }
    // Checked without building the tree: the text is parsed for real next.
    path == "-" && serde_json::from_str::<serde::de::IgnoredAny>(text).is_err()
}

/// One JSON document of a file: its text, parsed when asked.
pub(super) struct Document<'t> {
    pub text: &'t str,
    pub origin: Origin,
}

impl Document<'_> {
    /// The document's tree; a key named twice is refused.
    pub fn value(&self) -> Result<Value, InputError> {
        crate::puzzle::strict_json::from_str(self.text).map_err(|e| InputError::Json {
            origin: self.origin.clone(),
            message: self.fault(&e),
        })
    }

    /// The JSON reader's message, placed once: a workload's document is one line, which
    /// the origin names already, so only the column stays (not "line 3: … at line 1").
    fn fault(&self, e: &serde_json::Error) -> String {
        let message = e.to_string();
        if self.origin.line.is_none() || e.line() != 1 {
            return message;
        }
        let at = format!(" at line 1 column {}", e.column());
        match message.strip_suffix(&at) {
            Some(bare) => format!("{bare} at column {}", e.column()),
            None => message,
        }
    }
}

/// Hands each JSON document of `text` to `each`: one, or with `workload` one per
/// non-blank line, so that only one document's tree is held at a time.
pub(super) fn each_document(
    text: &str,
    file: &str,
    what: &'static str,
    workload: bool,
    each: &mut dyn FnMut(Document<'_>) -> Result<(), InputError>,
) -> Result<(), InputError> {
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
            any = true;
            each(Document { text: line, origin })?;
        }
    } else if !text.trim().is_empty() {
        let origin = Origin {
            file: file.to_string(),
            line: None,
        };
        any = true;
        each(Document { text, origin })?;
    }
    if any {
        Ok(())
    } else {
        Err(InputError::Empty {
            file: file.to_string(),
            what,
        })
    }
}
