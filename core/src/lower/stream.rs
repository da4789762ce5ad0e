//! What every writer shares: stopping on time while it writes, and writing into a
//! string.

use std::io::Write;

/// The error a writer stops with when `stop` says so.
pub(crate) fn stopped() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        "stopped while writing the model",
    )
}

/// Output that asks `stop` once per mebibyte written and fails with [`stopped`] when
/// it says so: the LP file of a 1024×1024 board is 140 MB and took 2.4 s to write, and
/// a time limit covers writing too.
pub(crate) struct Checked<'a> {
    out: &'a mut dyn Write,
    stop: &'a dyn Fn() -> bool,
    unchecked: usize,
}

impl<'a> Checked<'a> {
    /// Bytes written between two looks at `stop`.
    const BYTES_PER_CHECK: usize = 1 << 20;

    pub(crate) fn new(out: &'a mut dyn Write, stop: &'a dyn Fn() -> bool) -> Checked<'a> {
        Checked {
            out,
            stop,
            unchecked: 0,
        }
    }
}

impl Write for Checked<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.unchecked += buf.len();
        if self.unchecked >= Self::BYTES_PER_CHECK {
            self.unchecked = 0;
            if (self.stop)() {
                return Err(stopped());
            }
        }
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Rows (or placements) a writer prepares between two looks at `stop`, where it builds
/// something before writing it.
pub(crate) const ROWS_PER_CHECK: usize = 1 << 14;
