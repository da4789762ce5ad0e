//! A time limit in seconds, as every `--timeout` takes it.

use std::time::Duration;

/// Positive seconds (fractions allowed), at most what `time_limit` allows.
pub(super) fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    dominofit::backend::time_limit(seconds)
}
