//! The timing protocol of the paper, written once for `solve --repeat` and `race`
//! (solving and counting): a first call measured alone; then, for calls that decided quickly,
//! warm-up calls and timed calls whose median is the time, with the CPU time and the
//! peak memory measured around the timed calls together.

use std::time::Duration;

use crate::usage::Meter;
use dominofit_core::driver::Reported;

/// Calls taken before timing starts in [`repeated`], as in the paper's protocol.
pub const WARM_UP_CALLS: u32 = 3;

/// One call, with its CPU time and peak memory written into its report.
///
/// # Errors
/// The call's.
pub fn once<R: Reported, E>(call: impl FnOnce() -> Result<R, E>) -> Result<R, E> {
    let meter = Meter::start();
    let mut report = call()?;
    let used = meter.read();
    let header = report.header_mut();
    (header.cpu, header.peak) = (Some(used.cpu), used.peak);
    Ok(report)
}

/// `WARM_UP_CALLS` calls, then `times` timed ones (at least one); the last report with
/// its time replaced by the median of the timed calls, its CPU time by their mean and
/// its peak by their peak.
///
/// # Errors
/// The first call that fails.
pub fn repeated<R: Reported, E>(
    times: u32,
    mut call: impl FnMut() -> Result<R, E>,
) -> Result<R, E> {
    for _ in 0..WARM_UP_CALLS {
        call()?;
    }
    let times = times.max(1);
    let mut durations = Vec::with_capacity(times as usize);
    // One meter around the timed calls: the peak over them is the peak of the whole
    // loop, and the CPU time is their mean. Reading the clocks between calls (system
    // calls, /proc) cooled the caches of the next call: game boards measured 5-10% slower.
    let meter = Meter::start();
    let mut report = call()?;
    durations.push(report.header().time);
    for _ in 1..times {
        report = call()?;
        durations.push(report.header().time);
    }
    let used = meter.read();
    let header = report.header_mut();
    header.time = median(&mut durations);
    header.cpu = Some(used.cpu / times);
    header.peak = used.peak;
    header.counters.repeat = Some(u64::from(times));
    Ok(report)
}

/// The whole protocol, as a race runs it: one call measured alone; when it `decided`
/// within `repeat_below`, [`repeated`] with `repeat` timed calls (none when `repeat` is
/// 0). A call that did not decide, or took long, is not repeated: its time is its own.
///
/// # Errors
/// The first call that fails.
pub fn protocol<R: Reported, E>(
    repeat: u32,
    repeat_below: Duration,
    decided: impl Fn(&R) -> bool,
    mut call: impl FnMut() -> Result<R, E>,
) -> Result<R, E> {
    let first = once(&mut call)?;
    if repeat == 0 || !decided(&first) || first.header().time >= repeat_below {
        return Ok(first);
    }
    repeated(repeat, call)
}

/// The median; for an even count, the mean of the two middle values.
pub fn median(values: &mut [Duration]) -> Duration {
    values.sort_unstable();
    match values.len() {
        0 => Duration::ZERO,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_samples() {
        let ms = Duration::from_millis;
        assert_eq!(median(&mut [ms(3), ms(1), ms(2)]), ms(2));
        assert_eq!(
            median(&mut [ms(4), ms(1), ms(2), ms(3)]),
            Duration::from_micros(2500)
        );
        assert_eq!(median(&mut []), Duration::ZERO);
    }
}
