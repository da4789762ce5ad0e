//! A board's model written in a solver's format: compiled, lowered to CNF when the
//! format needs one, and written, each step held to a memory budget the caller gives.

use std::io::Write;

use super::cnf::{LowerError, lower_within};
use super::{Format, WriteError};
use crate::encode::Encoding;
use crate::model::{self, Families};
use crate::puzzle::Instance;

/// What `emit` writes.
#[derive(Debug, Clone, Copy)]
pub struct EmitOptions {
    /// The format.
    pub to: Format,
    /// The cardinality encoding, for the formats that need a CNF.
    pub encoding: Encoding,
    /// The constraint families of the model.
    pub families: Families,
}

impl Default for EmitOptions {
    fn default() -> Self {
        EmitOptions {
            to: Format::Dimacs,
            encoding: Encoding::Totalizer,
            families: Families::default(),
        }
    }
}

/// Why a board's model could not be written; names the board (escaped for the terminal).
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    /// The CNF would not fit in memory, an encoding refused a constraint, or `stop` said
    /// so.
    #[error("instance `{name}`: {source}")]
    Lower {
        /// The board.
        name: String,
        /// Why.
        #[source]
        source: LowerError,
    },
    /// The model would not fit in memory; refused before it was compiled.
    #[error("instance `{name}`: {source}")]
    Memory {
        /// The board.
        name: String,
        /// The plan that did not fit.
        #[source]
        source: crate::memory::OverBudget,
    },
    /// The text would be longer than the caller can hold (a page's string): refused
    /// before writing when the estimate says so, else when the text reached it.
    #[error(
        "instance `{name}`: the {format} text would be {size}, more than the {max} this \
         host can hold as one text",
        size = match estimated {
            Some(bytes) => format!("about {}", crate::memory::human(*bytes)),
            None => format!("longer than {}", crate::memory::human(*max)),
        },
        max = crate::memory::human(*max)
    )]
    TooLong {
        /// The board.
        name: String,
        /// The format's title.
        format: &'static str,
        /// The estimated size, when the refusal came before writing.
        estimated: Option<u64>,
        /// The most the caller can hold.
        max: u64,
    },
    /// Writing failed, or `stop` said so.
    #[error("instance `{name}`: {source}")]
    Write {
        /// The board.
        name: String,
        /// Why.
        #[source]
        source: WriteError,
    },
}

/// Writes the model of `instance` to `out` as `options` say, deterministically, within
/// `budget` bytes of memory (the model's planned size is held to it before it is
/// compiled, and the CNF's before it is built); `stop` is asked while the CNF is built
/// and while it is written. The command line's `emit` and a page's call are this one
/// function, so they write the same bytes.
///
/// # Errors
/// See [`EmitError`].
pub fn emit_within(
    instance: &Instance,
    options: &EmitOptions,
    budget: u64,
    out: &mut dyn Write,
    stop: &dyn Fn() -> bool,
) -> Result<(), EmitError> {
    emit_checked(instance, options, budget, None, out, stop)
}

/// [`emit_within`], refusing first a text estimated past `max` bytes when one is given.
fn emit_checked(
    instance: &Instance,
    options: &EmitOptions,
    budget: u64,
    max: Option<u64>,
    out: &mut dyn Write,
    stop: &dyn Fn() -> bool,
) -> Result<(), EmitError> {
    let name = || crate::escape::terminal(&instance.name);
    let planned = model::footprint::planned_bytes(instance.rows, instance.cols);
    crate::memory::plan_within(&[("the model", planned)], budget).map_err(|source| {
        EmitError::Memory {
            name: name(),
            source,
        }
    })?;
    let model = model::compile(instance, options.families);
    if let Some(max) = max {
        let estimated = options.to.least_bytes(&model);
        if estimated > max {
            return Err(EmitError::TooLong {
                name: name(),
                format: options.to.title(),
                estimated: Some(estimated),
                max,
            });
        }
    }
    let lowered = if options.to.needs_cnf() {
        let lowered = lower_within(&model, options.encoding, budget, stop).map_err(|source| {
            EmitError::Lower {
                name: name(),
                source,
            }
        })?;
        Some(lowered)
    } else {
        None
    };
    options
        .to
        .write(out, &model, lowered.as_ref(), &[], stop)
        .map_err(|source| EmitError::Write {
            name: name(),
            source,
        })
}

/// [`emit_within`] into one text of at most `max` bytes, for a host that must hold it
/// whole (a page: a JavaScript string is at most about 512 MiB). A model whose text is
/// estimated past `max` ([`Format::least_bytes`], a lower bound of the text's size) is
/// refused before it is written; one that passes the estimate and still
/// reaches `max` is refused when it does, so the host is never handed more.
///
/// # Errors
/// As [`emit_within`], and [`EmitError::TooLong`].
pub fn emit_text_within(
    instance: &Instance,
    options: &EmitOptions,
    budget: u64,
    max: u64,
    stop: &dyn Fn() -> bool,
) -> Result<String, EmitError> {
    let too_long = || EmitError::TooLong {
        name: crate::escape::terminal(&instance.name),
        format: options.to.title(),
        estimated: None,
        max,
    };
    let mut out = Capped {
        text: Vec::new(),
        max,
    };
    match emit_checked(instance, options, budget, Some(max), &mut out, stop) {
        Err(EmitError::Write {
            source: WriteError::Io(e),
            ..
        }) if e.kind() == std::io::ErrorKind::FileTooLarge => return Err(too_long()),
        other => other?,
    }
    String::from_utf8(out.text).map_err(|e| EmitError::Write {
        name: crate::escape::terminal(&instance.name),
        source: WriteError::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)),
    })
}

/// Bytes kept up to `max`; one more is an error.
struct Capped {
    text: Vec<u8>,
    max: u64,
}

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.text.len() as u64 + buf.len() as u64 > self.max {
            return Err(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                "the text is longer than the caller can hold",
            ));
        }
        self.text.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::generate::{Tiling, planted_by};

    /// The estimate a page refuses by is never more than the text: on planted boards of
    /// every shape, every format and every family, the text is at least the estimate, so
    /// no text that fits is refused by it.
    #[test]
    fn the_estimate_is_at_most_the_text() {
        let mut compared = 0;
        for (rows, cols, seed) in [
            (2, 2, 1),
            (1, 9, 2),
            (9, 1, 3),
            (6, 7, 4),
            (24, 24, 5),
            (40, 33, 6),
        ] {
            let (board, _) = planted_by(rows, cols, seed, 0, true, Tiling::Flips).unwrap();
            for to in Format::ALL {
                for families in Families::ALL {
                    let options = EmitOptions {
                        to,
                        families,
                        ..EmitOptions::default()
                    };
                    let mut text = Vec::new();
                    if emit_within(&board, &options, u64::MAX, &mut text, &|| false).is_err() {
                        continue; // MCC refuses raw sums
                    }
                    // Just the estimate is held: refused when the text is one byte shorter
                    // than the estimate would be.
                    let held =
                        emit_text_within(&board, &options, u64::MAX, text.len() as u64, &|| false);
                    assert_eq!(
                        held.map(String::into_bytes).ok(),
                        Some(text.clone()),
                        "{} {rows}x{cols} {families:?}: the estimate refused a text that fits",
                        to.name()
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 100, "{compared}");
    }

    /// Past the most the caller can hold: refused before writing when the estimate says
    /// so, and when the text reaches it otherwise; never a text longer than that.
    #[test]
    fn a_text_past_the_most_is_refused() {
        let (board, _) = planted_by(24, 24, 5, 0, true, Tiling::Flips).unwrap();
        let options = EmitOptions {
            to: Format::Lp,
            ..EmitOptions::default()
        };
        let early = emit_text_within(&board, &options, u64::MAX, 100, &|| false).unwrap_err();
        assert!(
            matches!(
                early,
                EmitError::TooLong {
                    estimated: Some(_),
                    ..
                }
            ),
            "{early}"
        );
        assert!(
            early.to_string().contains("CPLEX LP text would be about"),
            "{early}"
        );
        let full = emit_text_within(&board, &options, u64::MAX, u64::MAX, &|| false).unwrap();
        let late = emit_text_within(&board, &options, u64::MAX, full.len() as u64 - 1, &|| false)
            .unwrap_err();
        assert!(
            matches!(
                late,
                EmitError::TooLong {
                    estimated: None,
                    ..
                }
            ),
            "{late}"
        );
        assert!(late.to_string().contains("longer than"), "{late}");
    }
}
