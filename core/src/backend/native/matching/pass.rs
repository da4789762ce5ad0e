//! The filter's pass once the matching has read the trail: re-match the freed cells,
//! then delete the candidates outside every alternating cycle of the region. Both the
//! incremental call ([`super::filter`]) and the from-scratch twin run it.

use super::{Filtered, Graph, Matching};

impl Matching {
    /// The filter once the matching has read the trail; also says whether the SCC
    /// pass covered the whole board.
    pub(super) fn filter_synced(
        &mut self,
        graph: &Graph,
        whole: bool,
        region: usize,
        stop: &dyn Fn() -> bool,
    ) -> (Filtered, bool) {
        match self.rematch(graph, stop) {
            Some(true) => {}
            Some(false) => return (Filtered::Dead, true),
            None => return (Filtered::Stopped, whole),
        }
        if whole {
            self.whole_region(graph);
        } else {
            self.region_around_changes(graph, region);
        }
        match self.doomed(graph, stop) {
            Some(doomed) => (Filtered::Delete(doomed), whole),
            None => (Filtered::Stopped, whole),
        }
    }
}
