//! What runs when propagation stalls, in order: the propagators behind the seam
//! (`propagator.rs`: line capacity, colour balance, transport), the failure cache, the
//! LP in the tests' every-stall mode; and the matching filter (behind the same seam,
//! `matching.rs`) on its schedule.

use super::cache::FailureCache;
use super::propagator::{Propagator, Verdict};
use super::state::Search;
use crate::backend::Budget;
use crate::backend::native::proof::Trace;

/// What the checks at a stall found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stall {
    /// The node has no tiling.
    Dead,
    /// A check removed candidates, which were deleted and settled: look at the node
    /// again (it may even be covered now).
    Changed,
    /// Every check passes.
    Holds,
}

/// What the matching filter did at a node.
pub(super) enum Filter {
    Dead,
    /// Candidates were deleted and propagated: look at the node again.
    Changed,
    Unchanged,
    /// The budget ran out (or a stop came) inside the filter: the search must end.
    Stopped,
}

/// The matching filter's work per cell of the board, in candidate updates, when it
/// passes over every cell and candidate (its first call: Hopcroft–Karp, Tarjan): a few
/// times what one trail entry costs. Later calls are priced at the mean so far.
pub(super) const MATCHING_COST_PER_CELL: u64 = 4;

impl<'a, T: Trace> Search<'a, T> {
    /// The checks run when propagation stalls, before branching, on what changed since
    /// trail position `since` (`None` at the root: everything): the propagators
    /// ([`super::checks::Propagators::check`]), then the failure cache (a hit counts as a
    /// failed check: the subtree was already proved empty), then the LP in the tests'
    /// every-stall mode. Candidates a propagator removes are deleted and settled, and
    /// the caller looks at the node again with the same `since` ([`Stall::Changed`]), as
    /// after the matching filter: the propagators after the one that removed have not
    /// yet seen what changed.
    pub(super) fn stall_checks(&mut self, since: Option<usize>, matching_follows: bool) -> Stall {
        #[cfg(debug_assertions)]
        self.counting_twin();
        let node = node!(self);
        match self
            .propagators
            .check(&node, since, matching_follows, &mut self.trace)
        {
            Err(_) => return Stall::Dead,
            Ok(Verdict::Holds | Verdict::Stopped) => {}
            Ok(Verdict::Removes(removed)) => {
                return if self.delete_all(&removed) {
                    Stall::Changed
                } else {
                    Stall::Dead
                };
            }
        }
        if self.options.failure_cache && self.cached_failure() {
            self.cache_hits += 1;
            return Stall::Dead;
        }
        if self.options.farkas_every_stall && self.farkas_refutes_here() {
            return Stall::Dead;
        }
        Stall::Holds
    }

    /// Whether the matching filter runs at a stall with `depth` open frames above it:
    /// at every stall (`matching`), or on the work schedule of `matching_share`.
    pub(super) fn matching_due(&self, depth: usize) -> bool {
        if self.options.matching || self.failures_total >= self.options.matching_after_failures {
            return depth <= self.options.matching_depth;
        }
        if self.options.matching_share == 0 {
            return false;
        }
        let search_work = self.undone + self.trail.len() as u64;
        let cost = match self.matching.calls {
            0 => MATCHING_COST_PER_CELL * self.lay.cells as u64,
            calls => self.matching.work / calls,
        };
        (self.matching.work + cost).saturating_mul(100)
            <= u64::from(self.options.matching_share).saturating_mul(search_work)
    }

    /// Régin's filter now: deletes the candidates in no perfect matching of the
    /// uncovered cells and settles the consequences.
    pub(super) fn apply_matching(&mut self, budget: &Budget) -> Filter {
        let stop = || budget.expired();
        let node = node!(self);
        match self.matching.checked(&node, None, &stop, &mut self.trace) {
            Err(_) => Filter::Dead,
            Ok(Verdict::Stopped) => Filter::Stopped,
            Ok(Verdict::Holds) => Filter::Unchanged,
            Ok(Verdict::Removes(removed)) => {
                if self.delete_all(&removed) {
                    Filter::Changed
                } else {
                    Filter::Dead
                }
            }
        }
    }

    /// Debug builds: a settled node is a fixed point of the catalogue's counting
    /// arguments (`argument/single.rs`, `argument/count.rs`), found from scratch on the
    /// node as a player's board: what the cover and quota rules of `state.rs` make
    /// incrementally. On boards of at most 1,024 cells, sampled as the reasons' checks
    /// are, since building the board reads every placement.
    #[cfg(debug_assertions)]
    fn counting_twin(&self) {
        use crate::backend::native::argument::{Board, count, single};
        use std::sync::atomic::{AtomicU64, Ordering};
        // A count of its own, so as not to use up the reasons' checks: every one of the
        // first stalls, then one in 64.
        static STALLS: AtomicU64 = AtomicU64::new(0);
        let seen = STALLS.fetch_add(1, Ordering::Relaxed);
        if self.lay.cells > 1024 || (seen >= 4096 && !seen.is_multiple_of(64)) {
            return;
        }
        let board = Board::of_node(self.lay.model, &self.active, &self.trail);
        let found = single::find(&board)
            .or_else(|| count::find(&board, false))
            .or_else(|| count::find(&board, true));
        assert!(
            found.is_none(),
            "propagation settled a node the catalogue still decides: {found:?}"
        );
    }

    /// Deletes `removed` (the candidates a propagator found in no tiling) and settles:
    /// whether the node survives.
    pub(super) fn delete_all(&mut self, removed: &[u32]) -> bool {
        for &p in removed {
            if self.active[p as usize] && self.delete(p).is_err() {
                self.queue.clear();
                return false;
            }
        }
        self.settle()
    }

    /// Whether the current node's subproblem was proved empty before, where the trace
    /// lets the refutation count here.
    fn cached_failure(&self) -> bool {
        let key = FailureCache::<T>::key(&self.covered_bits, &self.quota);
        self.cache.hit(&key, &self.chosen)
    }

    /// Remembers that the current node's subproblem has no tiling, proved below
    /// `decisions`.
    pub(super) fn remember_failure(&mut self, decisions: impl FnOnce() -> Vec<u32>) {
        let key = FailureCache::<T>::key(&self.covered_bits, &self.quota);
        let nogood = self.trace.nogood(decisions);
        self.cache.remember(key, nogood);
    }
}
