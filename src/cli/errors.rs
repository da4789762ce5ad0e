//! Errors as the terminal shows them, and their exit statuses: 2 for a usage error, 1
//! for everything else.

use anyhow::Result;

use dominofit::backend::{self, Backend, BackendOptions};
use dominofit::encode::Encoding;
use dominofit::escape::terminal;

/// A mistake in the command line found after clap's own checks: exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub(super) String);

/// An error as one line for the terminal: each cause once (an I/O error's text is often
/// part of the message that wraps it too), and no control characters from file names or
/// board names.
pub fn describe(error: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    terminal(&out)
}

/// The exit status for an error: 2 for usage errors, 1 for everything else.
pub fn exit_code(error: &anyhow::Error) -> u8 {
    if error.downcast_ref::<UsageError>().is_some() {
        2
    } else {
        1
    }
}

/// The choices `--encoding` and `--threads` make for a backend.
pub(super) fn backend_options(encoding: Encoding, threads: Option<u32>) -> BackendOptions {
    BackendOptions {
        encoding,
        threads: threads.map_or_else(backend::available_threads, |t| t as usize),
    }
}

pub(super) fn backend_named(
    name: &str,
    encoding: Encoding,
    threads: Option<u32>,
) -> Result<Box<dyn Backend>> {
    backend::registry::lookup(name, &backend_options(encoding, threads))
        .map_err(|message| UsageError(terminal(&message)).into())
}
