//! `emit`: the model of a board in a solver's format, within this machine's memory
//! budget (the writing itself is the core's `lower::emit`).

use std::io::Write;

pub use crate::lower::emit::{EmitError, EmitOptions};
use crate::puzzle::Instance;

/// Writes the model of `instance` to `out` as `options` say, deterministically, within
/// the memory budget (`--memory`, else half the memory available); `stop` is asked while
/// the CNF is built and while it is written.
///
/// # Errors
/// See [`EmitError`].
pub fn emit(
    instance: &Instance,
    options: &EmitOptions,
    out: &mut dyn Write,
    stop: &dyn Fn() -> bool,
) -> Result<(), EmitError> {
    crate::lower::emit::emit_within(instance, options, crate::memory::budget(), out, stop)
}
