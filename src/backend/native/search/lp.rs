//! The LP refutation (`farkas`) as the search uses it: started at the root on a
//! schedule, run beside the search, polled.

use super::Search;
use crate::backend::Budget;
use crate::backend::native::farkas;

/// Boards larger than this (60×60) are not given to the LP: on the planted `huge`
/// boards microlp did not finish before the search (BENCHMARKS.md), and each of its
/// pivots there is slow enough that an abandoned LP would hold a core for long.
pub(super) const FARKAS_MAX_CELLS: usize = 3600;

impl<'a> Search<'a> {
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
        let refuted = farkas::refute(self.lay, &self.farkas_node()) == farkas::Verdict::Refuted;
        self.farkas_refutations += u64::from(refuted);
        refuted
    }

    /// Starts the LP refutation of the root (the search is back at the root) in the
    /// background, until the deadline; it runs beside the search from then on.
    pub(super) fn start_farkas(&mut self, budget: &Budget) {
        self.lp = farkas::start(self.lay, &self.farkas_node(), budget.deadline);
    }

    /// Whether the background LP has refuted the root; takes note of any other answer.
    pub(super) fn farkas_refuted(&mut self) -> bool {
        let Some(verdict) = self.lp.as_ref().and_then(|lp| lp.poll(self.lay)) else {
            return false;
        };
        self.lp = None;
        match verdict {
            farkas::Verdict::Refuted => {
                self.farkas_refutations += 1;
                true
            }
            farkas::Verdict::Settled => {
                self.lp_settled = true;
                false
            }
            farkas::Verdict::Unfinished => false,
        }
    }
}
