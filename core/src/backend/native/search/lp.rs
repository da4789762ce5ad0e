//! The LP refutation (`farkas`) as the search uses it: started at the root on a
//! schedule, run beside the search, polled.

use super::state::Search;
use crate::backend::Budget;
use crate::backend::native::farkas;
use crate::backend::native::proof::Trace;

/// Boards with more open cells than this (60×60) are not given to the LP. On the planted
/// `huge` boards (satisfiable: nothing to refute) the LP beside the search slowed the
/// search by 40–80% (the two threads share the memory bus of a 2-core machine), and one
/// interior point iteration there takes long enough (up to half a second at 128×128)
/// that an abandoned LP holds a core for seconds.
pub(super) const FARKAS_MAX_CELLS: usize = 3600;

impl<'a, T: Trace> Search<'a, T> {
    /// The current (settled) node as the LP reads it.
    pub(super) fn farkas_node(&self) -> farkas::Node<'_> {
        farkas::Node {
            active: &self.active,
            covered: &self.covered,
            quota: &self.quota,
        }
    }

    /// The LP refutation of the current node, waited for (the tests' every-stall mode).
    pub(super) fn farkas_refutes_here(&mut self) -> bool {
        let (verdict, certificate) = farkas::refute_with_certificate(self.lay, &self.farkas_node());
        let refuted = verdict == farkas::LpVerdict::Refuted;
        if let Some(certificate) = &certificate {
            let covered = &self.covered;
            self.trace.justify(|| [certificate.recipe(covered, false)]);
        }
        self.farkas_refutations += u64::from(refuted);
        refuted
    }

    /// Marks the current (settled) node as the root the LP will refute, and schedules
    /// the LP's start. Nothing is copied yet: most boards never need the LP.
    pub(super) fn mark_root_for_farkas(&mut self) {
        self.lp_root_mark = Some(self.trail.len());
        self.lp_due_at = self.options.farkas_after_failures;
    }

    /// The root as it was when marked, rebuilt from the current node by undoing the trail
    /// above the mark on a copy: the search itself stays where it is.
    fn root_copy(&self, mark: usize) -> farkas::Root {
        let lay = self.lay;
        let mut active = self.active.clone();
        let mut covered = self.covered.clone();
        let mut quota = self.quota.clone();
        for &op in &self.trail[mark..] {
            let p = (op >> 1) as usize;
            active[p] = true;
            if op & 1 == 1 {
                for c in lay.place_cells[p] {
                    covered[c as usize] = false;
                }
                for &g in lay.groups_of(p as u32) {
                    quota[g as usize] += 1;
                }
            }
        }
        farkas::Root::new(active, covered, quota)
    }

    /// Starts the LP refutation of the saved root in the background, until the deadline,
    /// once the search has failed `farkas_after_failures` times without finding a tiling
    /// (a board with one has a fractional solution: nothing to refute). When another LP
    /// holds the budget's slot for work beside the search, it tries again after sixteen
    /// times as many failures. The search goes on and never waits for it.
    pub(super) fn start_farkas_when_due(&mut self, budget: &Budget) {
        if self.failures_total < self.lp_due_at
            || self.lp.is_some()
            || self.lp_settled
            || self.tilings_found > 0
        {
            return;
        }
        let Some(mark) = self.lp_root_mark else {
            return;
        };
        let beside = budget.beside.clone().unwrap_or_default();
        self.lp = farkas::start(self.lay, self.root_copy(mark), budget.deadline, &beside);
        self.lp_due_at = if self.lp.is_some() {
            u64::MAX
        } else {
            self.lp_due_at.saturating_mul(16)
        };
    }

    /// Whether the background LP has refuted the root; takes note of any other answer.
    pub(super) fn farkas_refuted(&mut self) -> bool {
        let Some((verdict, certificate)) = self.lp.as_ref().and_then(|lp| lp.poll(self.lay)) else {
            return false;
        };
        let lp = self.lp.take();
        if let (Some(certificate), Some(lp)) = (&certificate, &lp) {
            let covered = lp.root_covered();
            self.trace.justify(|| [certificate.recipe(covered, true)]);
        }
        match verdict {
            farkas::LpVerdict::Refuted => {
                self.farkas_refutations += 1;
                true
            }
            farkas::LpVerdict::Settled => {
                self.lp_settled = true;
                false
            }
            farkas::LpVerdict::Unfinished => false,
        }
    }
}
