//! The driver: the core's (`dominofit_core::driver`: compile, run a backend, decode and
//! verify every tiling, derive the status once for every backend), with this machine's
//! memory reading given to the budget before each run, and the timing protocol of the
//! paper in `timing.rs` ([`protocol`]), which measures CPU time and peak memory through
//! the operating system.

mod timing;

use dominofit_core::driver as core;
pub use dominofit_core::driver::{
    CountReport, Header, Report, Reported, Request, StatValue, StreamEnd, StreamedTiling,
};
pub use timing::{WARM_UP_CALLS, median, once, protocol, repeated};

use crate::backend::{Backend, BackendError, Control};
use crate::puzzle::{Instance, Solution};

/// Solves one instance ([`dominofit_core::driver::run`]), the budget planned against
/// this machine's memory.
///
/// # Errors
/// The backend failed, or returned a tiling the verifier rejects.
pub fn run(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
) -> Result<Report, BackendError> {
    crate::memory::install();
    core::run(instance, backend, request)
}

/// Solves one instance handing each tiling to `each` as it is found
/// ([`dominofit_core::driver::run_streaming`]).
///
/// # Errors
/// As [`run`].
pub fn run_streaming(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
    each: &mut dyn FnMut(&Solution) -> Control,
) -> Result<Report, BackendError> {
    crate::memory::install();
    core::run_streaming(instance, backend, request, each)
}

/// Counts the solutions of one instance ([`dominofit_core::driver::count`]).
///
/// # Errors
/// As [`run`].
pub fn count(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
) -> Result<CountReport, BackendError> {
    crate::memory::install();
    core::count(instance, backend, request)
}

/// `models` compiled models and the backend's search held against the memory budget
/// before any is built ([`dominofit_core::driver::plan`]).
///
/// # Errors
/// The board would not fit.
pub fn plan(instance: &Instance, backend: &dyn Backend, models: u64) -> Result<(), BackendError> {
    crate::memory::install();
    core::plan(instance, backend, models)
}

/// Solves one instance under the timing protocol ([`timing::repeated`]): warm-up calls,
/// then `times` timed calls, every one verified; the last report with the median time.
///
/// # Errors
/// As [`run`].
pub fn run_repeated(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
    times: u32,
) -> Result<Report, BackendError> {
    repeated(times, || run(instance, backend, request))
}
