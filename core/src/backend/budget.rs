//! What a query may use: its deadline, the stop flag of whoever asked, and the choices
//! some backends take.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::time::Instant;

/// Resources a query may use.
///
/// Made only by [`Budget::until`] (or [`Budget::with_timeout`]), which takes the stop
/// flag of the call running on this thread, so that no budget made inside a call can
/// forget the Ctrl-C of the host that made the call (the Python package stops one call,
/// not the process). Flags of its own (a portfolio's "another member decided") are added
/// beside it with [`Budget::stopped_also_by`], never instead of it.
#[derive(Clone)]
pub struct Budget<'a> {
    /// When the query must end; `None`: no time limit.
    pub deadline: Option<Instant>,
    /// Raised when the answer is no longer wanted: the caller's Ctrl-C in a host that
    /// stops calls one at a time, or a portfolio member's "another member decided".
    pub(crate) stops: smallvec::SmallVec<[Arc<AtomicBool>; 2]>,
    /// Called at every look at the budget. The portfolio's first member runs in the
    /// caller's thread and starts the other members from here once its head start is
    /// over, so that the head start is not work thrown away.
    pub on_check: Option<&'a (dyn Fn() + Sync)>,
    /// The one slot for work beside the search (the native search's LP refutation), when
    /// the caller shares one among searches: a portfolio's members share theirs, since
    /// they would only solve the same LP twice. `None`: the backend's own.
    pub beside: Option<Beside>,
}

/// A slot for one piece of work that runs on a thread beside a search, taking a core of
/// its own, and may outlive the call that started it (it ends at the end of its current
/// iteration once abandoned). Owned by the backend that starts such work (and shared by
/// a portfolio's members): the driver lets the last call's work end before the next
/// call's clock starts ([`super::Backend::settle`]), so every call starts on an idle
/// machine, and a portfolio holds its other members back while the slot is taken.
#[derive(Debug, Clone, Default)]
pub struct Beside {
    taken: Arc<AtomicBool>,
}

/// The slot, taken: freed when dropped, however the work ends.
#[derive(Debug)]
pub struct Taken {
    taken: Arc<AtomicBool>,
}

impl Beside {
    /// The slot, when it is free.
    pub fn take(&self) -> Option<Taken> {
        self.taken
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .ok()?;
        Some(Taken {
            taken: self.taken.clone(),
        })
    }

    /// Whether work runs in the slot now.
    pub fn busy(&self) -> bool {
        self.taken.load(Ordering::SeqCst)
    }

    /// Waits until the slot is free (or the user interrupts, or the host stops the call).
    pub fn wait_until_free(&self) {
        while self.busy() && !crate::stop::stopped_here() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Drop for Taken {
    fn drop(&mut self) {
        self.taken.store(false, Ordering::SeqCst);
    }
}

impl std::fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("deadline", &self.deadline)
            .field("stops", &self.stops)
            .field("on_check", &self.on_check.is_some())
            .field("beside", &self.beside)
            .finish()
    }
}

impl Budget<'_> {
    /// A budget that ends at `deadline` (`None`: never), stopped also by the stop flag of
    /// the call running on this thread, if its host set one
    /// ([`crate::stop::with_call_stop`]). Make it on the thread of the call, before
    /// handing it to other threads: they do not see the call's flag themselves.
    pub fn until(deadline: Option<Instant>) -> Budget<'static> {
        Budget {
            deadline,
            stops: crate::stop::call_stop().into_iter().collect(),
            on_check: None,
            beside: None,
        }
    }

    /// A budget whose deadline is `timeout` from now ([`Budget::until`]); a timeout too
    /// long to represent means no deadline.
    pub fn with_timeout(timeout: Option<Duration>) -> Budget<'static> {
        Budget::until(timeout.and_then(|t| Instant::now().checked_add(t)))
    }

    /// No deadline, stopped only by Ctrl-C (and the call's stop flag).
    pub fn unlimited() -> Budget<'static> {
        Budget::until(None)
    }

    /// This budget with `beside` as its slot for work beside the search (a portfolio's
    /// members share one).
    #[must_use]
    pub fn with_beside(mut self, beside: Beside) -> Self {
        self.beside = Some(beside);
        self
    }

    /// This budget calling `on_check` at every look at it (`None`: nothing).
    #[must_use]
    pub fn with_on_check<'b>(self, on_check: Option<&'b (dyn Fn() + Sync)>) -> Budget<'b> {
        Budget {
            deadline: self.deadline,
            stops: self.stops,
            on_check,
            beside: self.beside,
        }
    }

    /// This budget's deadline and stop flags alone, without the start hook or the slot
    /// beside the search: what a callback that must own what it reads may hold (a SAT
    /// solver's terminator).
    pub fn detached(&self) -> Budget<'static> {
        Budget {
            deadline: self.deadline,
            stops: self.stops.clone(),
            on_check: None,
            beside: None,
        }
    }

    /// This budget, stopped also when `flag` is raised.
    #[must_use]
    pub fn stopped_also_by(mut self, flag: Arc<AtomicBool>) -> Self {
        self.stops.push(flag);
        self
    }

    /// This budget with its deadline at `deadline` if that comes sooner.
    #[must_use]
    pub fn ending_by(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = match (self.deadline, deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self
    }

    /// The time left before the deadline (`None`: no deadline; zero once it passed).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Whether the query must stop now: an interrupt, a stop request, or the deadline.
    pub fn expired(&self) -> bool {
        crate::stop::poll_host();
        self.stopped() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether an interrupt or a stop request came: two atomic loads, cheap enough for
    /// every node of a search (reading the clock is not), so that a portfolio member
    /// whose nodes are expensive stops within one node of being asked.
    pub fn stopped(&self) -> bool {
        if let Some(on_check) = &self.on_check {
            on_check();
        }
        crate::stop::requested() || self.stops.iter().any(|s| s.load(Ordering::Relaxed))
    }
}

/// A year: longer time limits are surely typing mistakes.
pub const MAX_TIMEOUT_SECONDS: f64 = 31_536_000.0;

/// A time limit in seconds as a duration, or why it is not one: it must be positive and
/// at most [`MAX_TIMEOUT_SECONDS`]. The command line and the Python package say the same.
///
/// # Errors
/// The message for a person.
pub fn time_limit(seconds: f64) -> Result<Duration, String> {
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(format!(
            "the time limit must be a positive number of seconds, not {seconds}"
        ));
    }
    if seconds > MAX_TIMEOUT_SECONDS {
        return Err(format!(
            "the time limit is at most {MAX_TIMEOUT_SECONDS} seconds; leave it out for none"
        ));
    }
    Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())
}

/// Choices that some backends take.
#[derive(Debug, Clone, Copy)]
pub struct BackendOptions {
    /// Cardinality encoding of quota groups for the SAT backends.
    pub encoding: crate::encode::Encoding,
    /// Most members a portfolio runs at once: the first this many of its list.
    pub threads: usize,
}

impl Default for BackendOptions {
    fn default() -> Self {
        BackendOptions {
            encoding: crate::encode::Encoding::Totalizer,
            threads: available_threads(),
        }
    }
}

/// The cores this process may use (1 when that cannot be told).
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One piece of work at a time per slot, clones share it, and the slot is free again
    /// when the work's claim is dropped, however it ends.
    #[test]
    fn a_slot_beside_the_search_holds_one_piece_of_work() {
        let slot = Beside::default();
        let shared = slot.clone();
        assert!(!slot.busy());
        let taken = slot.take().expect("a fresh slot is free");
        assert!(slot.busy() && shared.busy());
        assert!(shared.take().is_none(), "a clone shares the slot");
        assert!(
            Beside::default().take().is_some(),
            "another slot is another"
        );
        let worker = std::thread::spawn(move || drop(taken));
        worker.join().unwrap();
        slot.wait_until_free();
        assert!(!shared.busy());
        assert!(shared.take().is_some());
    }

    /// A budget made inside a call carries the call's stop flag, and a flag added beside
    /// it does not replace it.
    #[test]
    fn every_budget_made_in_a_call_stops_with_it() {
        let call = Arc::new(AtomicBool::new(false));
        let own = Arc::new(AtomicBool::new(false));
        let budget = crate::stop::with_call_stop(call.clone(), || {
            Budget::until(None).stopped_also_by(own.clone())
        });
        assert!(!budget.stopped());
        call.store(true, Ordering::SeqCst);
        assert!(budget.stopped(), "the call's flag stops it");
        call.store(false, Ordering::SeqCst);
        own.store(true, Ordering::SeqCst);
        assert!(budget.stopped(), "its own flag stops it too");
        assert!(
            !Budget::unlimited().stopped(),
            "outside a call, only Ctrl-C stops a budget"
        );
    }

    #[test]
    fn the_sooner_deadline_wins() {
        let now = Instant::now();
        let later = now + Duration::from_secs(60);
        let budget = Budget::until(Some(later)).ending_by(Some(now));
        assert_eq!(budget.deadline, Some(now));
        assert_eq!(
            Budget::until(None).ending_by(Some(later)).deadline,
            Some(later)
        );
        assert_eq!(Budget::until(Some(now)).ending_by(None).deadline, Some(now));
    }

    #[test]
    fn huge_timeouts_mean_no_deadline() {
        let budget = Budget::with_timeout(Some(Duration::from_secs(u64::MAX)));
        assert!(!budget.expired());
    }
}
