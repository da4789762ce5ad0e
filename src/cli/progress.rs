//! Progress on long workloads.

use dominofit::escape::terminal;

/// A one-line progress indicator on stderr for workloads, shown only on a terminal so
/// that logs and pipes stay clean.
pub(super) struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// A bar of `total` steps on standard error; hidden when that is not a terminal
    /// (indicatif's choice) or when there is only one step.
    pub(super) fn new(total: usize) -> Progress {
        if total > 1 {
            Progress::always(total)
        } else {
            Progress {
                bar: indicatif::ProgressBar::hidden(),
            }
        }
    }

    /// A bar of `total` steps, shown (on a terminal) even for one step: for work whose
    /// single step takes minutes.
    pub(super) fn always(total: usize) -> Progress {
        let bar = indicatif::ProgressBar::new(total as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template("[{pos}/{len}] {elapsed} {msg}")
        {
            bar.set_style(style);
        }
        Progress { bar }
    }

    /// Runs `f` (which writes a line to standard error) with the bar out of its way.
    pub(super) fn suspend(&self, f: impl FnOnce()) {
        self.bar.suspend(f);
    }

    /// `done` steps are done; `name` says what runs now (shown escaped).
    pub(super) fn show(&self, done: usize, name: &str) {
        self.bar.set_position(done as u64);
        self.bar.set_message(terminal(name));
    }

    pub(super) fn clear(&self) {
        self.bar.finish_and_clear();
    }
}
