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
    let name = || crate::escape::terminal(&instance.name);
    let planned = model::footprint::planned_bytes(instance.rows, instance.cols);
    crate::memory::plan_within(&[("the model", planned)], budget).map_err(|source| {
        EmitError::Memory {
            name: name(),
            source,
        }
    })?;
    let model = model::compile(instance, options.families);
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
