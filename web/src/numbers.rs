//! Numbers as a page hands them over. A JavaScript number is a double: bound straight to
//! a `u32` it wraps (`-1` becomes 4294967295, `NaN` becomes 0, `1.5` becomes 1) and the
//! call runs on something nobody asked for. Here each is written as a person would
//! have typed it and read by the same parser the command line's flag uses, so that a
//! page refuses what the command line refuses, in its words.

use std::fmt::Display;
use std::str::FromStr;
use std::time::Duration;

use dominofit_core::backend::MAX_TIMEOUT_SECONDS;

/// `value` as JavaScript prints it: what a person typed for it.
fn typed(value: f64) -> String {
    if value.is_nan() {
        "NaN".to_string()
    } else if value.is_infinite() {
        if value > 0.0 { "Infinity" } else { "-Infinity" }.to_string()
    } else if value == 0.0 {
        // Negative zero prints as 0 in JavaScript.
        "0".to_string()
    } else {
        format!("{value}")
    }
}

/// The message for a value a parameter does not take, in the command line's words for
/// a flag (`invalid value '1.5' for '--limit <LIMIT>': invalid digit found in string`).
fn invalid(text: &str, name: &str, why: impl Display) -> String {
    format!("invalid value '{text}' for '{name}': {why}")
}

/// A whole number of type `T` from the page's `value` for the parameter `name`: negative,
/// fractional, `NaN`, infinite and out-of-range values are refused as the command line's
/// parser refuses their text.
///
/// # Errors
/// The message for a person.
pub fn whole<T>(name: &str, value: f64) -> Result<T, String>
where
    T: FromStr,
    T::Err: Display,
{
    let text = typed(value);
    text.parse::<T>().map_err(|why| invalid(&text, name, why))
}

/// [`whole`], held to `range` as the command line holds its flag (`1 is not in 2..=1000000`).
///
/// # Errors
/// The message for a person.
pub fn whole_in(
    name: &str,
    value: f64,
    range: std::ops::RangeInclusive<u64>,
) -> Result<u64, String> {
    let n: u64 = whole(name, value)?;
    if !range.contains(&n) {
        let why = format!("{n} is not in {}..={}", range.start(), range.end());
        return Err(invalid(&typed(value), name, why));
    }
    Ok(n)
}

/// A seed from a `BigInt` (taken wide, so that a negative or too large one is seen
/// rather than wrapped): the command line's `--seed` is a `u64`.
///
/// # Errors
/// The message for a person.
pub fn seed(value: i128) -> Result<u64, String> {
    let text = value.to_string();
    text.parse::<u64>()
        .map_err(|why| invalid(&text, "seed", why))
}

/// A page's time limit in milliseconds (0: none), at most the command line's longest.
///
/// # Errors
/// Negative, `NaN` or infinite, or longer than a year.
pub fn millis(timeout_ms: f64) -> Result<Option<Duration>, String> {
    if timeout_ms == 0.0 {
        return Ok(None);
    }
    if !(timeout_ms.is_finite() && timeout_ms > 0.0 && timeout_ms <= MAX_TIMEOUT_SECONDS * 1e3) {
        return Err(invalid(
            &typed(timeout_ms),
            "timeout_ms",
            format!(
                "the time limit must be a positive number of milliseconds, at most a year \
                 (0: none), not {}",
                typed(timeout_ms)
            ),
        ));
    }
    Ok(Some(Duration::from_secs_f64(timeout_ms / 1e3)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_command_line_refuses_is_refused_in_its_words() {
        // `dominofit solve --limit 1.5` says: invalid value '1.5' for '--limit <LIMIT>':
        // invalid digit found in string.
        for (value, why) in [
            (
                -1.0,
                "invalid value '-1' for 'limit': invalid digit found in string",
            ),
            (
                1.5,
                "invalid value '1.5' for 'limit': invalid digit found in string",
            ),
            (
                f64::NAN,
                "invalid value 'NaN' for 'limit': invalid digit found in string",
            ),
            (
                f64::INFINITY,
                "invalid value 'Infinity' for 'limit': invalid digit found in string",
            ),
            (
                4294967296.0,
                "invalid value '4294967296' for 'limit': number too large to fit in target type",
            ),
        ] {
            assert_eq!(whole::<u32>("limit", value).unwrap_err(), why);
        }
        assert_eq!(whole::<u32>("limit", 2.0), Ok(2));
        assert_eq!(whole::<u32>("limit", -0.0), Ok(0));
        assert_eq!(
            whole_in("max_tilings", 1.0, 2..=1_000_000).unwrap_err(),
            "invalid value '1' for 'max_tilings': 1 is not in 2..=1000000"
        );
        assert_eq!(
            seed(-1).unwrap_err(),
            "invalid value '-1' for 'seed': invalid digit found in string"
        );
        assert_eq!(seed(i128::from(u64::MAX)), Ok(u64::MAX));
        assert!(
            seed(i128::from(u64::MAX) + 1)
                .unwrap_err()
                .contains("too large")
        );
    }

    #[test]
    fn time_limits_are_positive_and_at_most_a_year() {
        assert_eq!(millis(0.0), Ok(None));
        assert_eq!(millis(250.0), Ok(Some(Duration::from_millis(250))));
        for bad in [-1.0, f64::NAN, f64::INFINITY, 1e12] {
            assert!(millis(bad).unwrap_err().contains("timeout_ms"), "{bad}");
        }
    }
}
