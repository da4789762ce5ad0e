//! One call of the filter: the matching reads the trail, re-matches what was freed, and
//! the SCC pass runs on the region around the change; debug builds check every call
//! against the filter from scratch ([`super::twin`]).

#[cfg(debug_assertions)]
use super::twin;
use super::{Filtered, Graph, Matching};

impl Matching {
    /// Runs the filter on `graph`. Trail entries below `unchanged_below` are those the
    /// last call saw and the search has not undone since. The SCC pass looks at
    /// `region` cells around the change (0: the whole board). `stop` is asked every
    /// few tens of thousands of steps, and `Stopped` returned when it says so. Also
    /// returns the edges looked at: the filter's cost, in the unit of trail entries.
    pub fn filter(
        &mut self,
        graph: &Graph,
        unchanged_below: usize,
        region: usize,
        stop: &dyn Fn() -> bool,
    ) -> (Filtered, u64) {
        let before = self.total_steps;
        let first = self.sync(graph, unchanged_below);
        let (outcome, whole) = self.filter_synced(graph, first || region == 0, region, stop);
        #[cfg(debug_assertions)]
        if !matches!(outcome, Filtered::Stopped) {
            twin::check(self, graph, &outcome, whole);
        }
        #[cfg(not(debug_assertions))]
        let _ = whole;
        (outcome, self.total_steps - before)
    }
}
