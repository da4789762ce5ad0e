//! Régin's matching filter behind the seam (`propagator.rs`): the one propagator that
//! removes candidates, each with its reason (a Hall set the catalogue's `hall.rs`
//! justifies), and whose failure's reason is a Hall set too. It runs on a schedule of
//! its own (`stall.rs` asks [`super::state::Search::matching_due`]), not with the checks
//! of every stall, and keeps its matching along the search's trail (`matching/`).

use super::propagator::{Dead, Node, Propagator, Verdict};
use crate::backend::native::matching::{Filtered, Graph, Matching};
use crate::backend::native::recipe::Recipe;

/// Boards up to this many cells have a failure held to the filter from scratch.
const TWIN_MAX_CELLS: usize = 1024;

/// The filter and its kept matching, with what the search's schedule and stats read.
#[derive(Default)]
pub(super) struct MatchingFilter {
    matcher: Matching,
    /// Trail entries below this are as the filter last saw them.
    since: usize,
    /// Cells the SCC pass looks at around a change (0: the whole board).
    region: usize,
    /// Calls so far.
    pub(super) calls: u64,
    /// Candidates removed so far.
    pub(super) removed: u64,
    /// Its work so far, in the unit of trail entries (edges looked at).
    pub(super) work: u64,
}

impl MatchingFilter {
    pub(super) fn new(region: usize) -> MatchingFilter {
        MatchingFilter {
            region,
            ..MatchingFilter::default()
        }
    }

    /// The search undid its trail to `mark`: what lies above was not seen as it is now.
    pub(super) fn rewind(&mut self, mark: usize) {
        self.since = self.since.min(mark);
    }
}

/// The node as the filter's graph.
fn graph<'n>(node: &'n Node<'n>) -> Graph<'n> {
    Graph {
        lay: node.lay,
        active: node.active,
        covered: node.covered,
        trail: node.trail,
    }
}

impl Propagator for MatchingFilter {
    /// The cell no augmenting path reaches: the Hall set's root.
    type Reason = u32;

    /// The trail since the last call re-matched, then the SCC pass around the change;
    /// `stop` is asked inside, and a stopped call removes nothing. `since` is the
    /// filter's own (the search's stall point is not what its matching last saw).
    fn check(
        &mut self,
        node: &Node,
        _since: Option<usize>,
        stop: &dyn Fn() -> bool,
    ) -> Result<Verdict, Dead<u32>> {
        self.calls += 1;
        let (outcome, work) = self
            .matcher
            .filter(&graph(node), self.since, self.region, stop);
        self.since = node.trail.len();
        self.work += work;
        match outcome {
            Filtered::Stopped => Ok(Verdict::Stopped),
            Filtered::Dead => Err(Dead(self.matcher.unreached())),
            Filtered::Delete(doomed) if doomed.is_empty() => Ok(Verdict::Holds),
            Filtered::Delete(doomed) => {
                self.removed += doomed.len() as u64;
                Ok(Verdict::Removes(doomed))
            }
        }
    }

    /// A Hall set: the cells of one colour the unmatched `root` reaches, with fewer
    /// neighbours than themselves.
    fn explain(&self, node: &Node, &root: &u32) -> Recipe {
        self.matcher.hall_violator(&graph(node), root)
    }

    /// Tight Hall sets, one serving each removed candidate.
    fn explain_removals(&self, node: &Node, removed: &[u32]) -> Vec<Recipe> {
        self.matcher.tight_sets(&graph(node), removed)
    }

    /// The filter from nothing; boards of more than [`TWIN_MAX_CELLS`] cells are taken
    /// as rejected unchecked, as the filter's own twin (`matching/twin.rs`) leaves them,
    /// so that the tests' large boards stay quick.
    fn holds_from_scratch(&mut self, node: &Node) -> bool {
        node.lay.cells <= TWIN_MAX_CELLS && Matching::from_scratch(&graph(node)) != Filtered::Dead
    }
}
