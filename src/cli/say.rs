//! The one way the command line writes to standard error.
//!
//! `eprintln!` panics when standard error is closed (`dominofit solve x 2>&1 | true`, or
//! `| head` after an error), which turns an ordinary error into exit status 101 and a
//! message nobody reads. A message to a reader that went away is simply dropped: the exit
//! status still says what happened. The crate denies `eprintln!` (clippy's
//! `print_stderr`), so every message comes through [`line`].

use std::io::Write;

/// Writes one line to standard error, dropping it when standard error is gone.
pub fn line(message: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
}

/// `say!("…", args)`: [`line`] with `format!` arguments.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::say::line(format_args!($($arg)*))
    };
}
pub(crate) use say;
