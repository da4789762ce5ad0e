//! The model lowered for an engine that reads a formula (the SAT solvers, external
//! programs), within the memory budget and the deadline.

use super::{BackendError, Budget};
use crate::model::Model;

/// The model as CNF for a SAT backend, within the memory budget and the deadline:
/// `Ok(None)` when the deadline (or an interrupt) came first.
///
/// # Errors
/// The formula would not fit in memory (with the estimate), or an encoding refuses a
/// constraint.
pub(crate) fn lower_cnf(
    backend: &str,
    model: &Model,
    encoding: crate::encode::Encoding,
    budget: &Budget,
) -> Result<Option<crate::lower::cnf::LoweredCnf>, BackendError> {
    use crate::lower::cnf::{self, LowerError};
    match cnf::lower_within(model, encoding, crate::memory::budget(), &|| {
        budget.expired()
    }) {
        Ok(lowered) => Ok(Some(lowered)),
        Err(LowerError::Stopped) if crate::interrupt::requested() => Err(BackendError::Interrupted),
        Err(LowerError::Stopped) => Ok(None),
        Err(e @ LowerError::TooLarge { .. }) => Err(BackendError::TooLarge {
            backend: backend.to_string(),
            reason: e.to_string(),
        }),
        Err(e) => Err(BackendError::Unsupported {
            backend: backend.to_string(),
            reason: e.to_string(),
        }),
    }
}

/// The size of the model's CNF, refused when it would not fit in the memory budget, as
/// [`lower_cnf`] refuses it, but without building it: for a backend that lowers in a
/// worker process. The size is given when the estimate is exact (no raw sums, and the
/// pairwise, sequential or totalizer encoding), else `None`.
///
/// # Errors
/// The formula would not fit in memory (with the estimate).
pub(crate) fn cnf_size_within_memory(
    backend: &str,
    model: &Model,
    encoding: crate::encode::Encoding,
) -> Result<Option<crate::encode::size::Size>, BackendError> {
    use crate::lower::cnf;
    let (size, needed) = cnf::needed_memory(model, encoding);
    let budget = crate::memory::budget();
    if needed > budget {
        return Err(BackendError::TooLarge {
            backend: backend.to_string(),
            reason: cnf::LowerError::TooLarge {
                size,
                needed,
                budget,
                encoding: (!model.quotas.is_empty()).then_some(encoding),
            }
            .to_string(),
        });
    }
    let exact = model.clue_sums.is_empty() && encoding != crate::encode::Encoding::SortingNetwork;
    Ok(exact.then_some(size))
}
