//! Counting one instance: by the backend's own counter when it has one, else by
//! enumeration with every tiling verified, in constant memory.

use num_bigint::BigUint;

use super::report::{CountReport, Header};
use super::{Compiled, Request, concluded, general, prepare};
use crate::backend::{Backend, BackendError, Control, Counters, Ending, Outcome};
use crate::puzzle::Instance;
use crate::puzzle::verify::{Violation, verify};

/// Counts the solutions of one instance by enumeration, verifying each one.
///
/// # Errors
/// The backend failed, or produced a tiling the verifier rejects.
pub fn count(
    instance: &Instance,
    backend: &dyn Backend,
    request: &Request,
) -> Result<CountReport, BackendError> {
    let (start, budget, mut compiled) = prepare(instance, backend, request, true)?;
    if let Compiled::Model(model) = &compiled
        && let Some(reason) = &model.infeasible
    {
        return Ok(CountReport {
            header: Header::of(
                &instance.name,
                backend.name(),
                start.elapsed(),
                Outcome {
                    ending: Ending::Exhausted,
                    counters: Counters::default(),
                },
                Some(reason.to_string()),
            ),
            count: BigUint::default(),
            complete: true,
        });
    }
    if let Compiled::Model(model) = &compiled
        && let Some(counted) = backend.count(model, &budget)
    {
        let counted = counted?;
        let outcome = Outcome {
            ending: counted.ending,
            counters: counted.counters,
        };
        return Ok(CountReport {
            header: Header::of(
                &instance.name,
                backend.name(),
                start.elapsed(),
                outcome,
                None,
            ),
            count: counted.count,
            complete: counted.ending == Ending::Exhausted,
        });
    }
    let mut total: u128 = 0;
    let mut wrong: Option<Violation> = None;
    let (mut outcome, mut reason) = (None, None);
    for _ in 0..2 {
        total = 0;
        let (searched, why) = compiled.search(backend, 0, &budget, &mut |tiling| {
            if let Err(v) = verify(instance, &compiled.decode(&tiling)) {
                wrong = Some(v);
                return Control::Stop;
            }
            total += 1;
            Control::Continue
        })?;
        if wrong.is_some() || !compiled.gave_up(&searched) {
            (outcome, reason) = (Some(searched), why);
            break;
        }
        compiled = general(instance, backend, request, &budget)?;
    }
    let (outcome, reason) = concluded(
        &compiled,
        outcome,
        reason,
        total == 0 && wrong.is_none(),
        (instance, backend, request),
    )?;
    if let Some(violation) = wrong {
        return Err(BackendError::WrongSolution {
            backend: backend.name().to_string(),
            violation,
        });
    }
    Ok(CountReport {
        complete: outcome.ending == Ending::Exhausted,
        header: Header::of(
            &instance.name,
            backend.name(),
            start.elapsed(),
            outcome,
            reason,
        ),
        count: BigUint::from(total),
    })
}
