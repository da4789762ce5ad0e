//! Régin's matching filter for the exact cover: the uncovered cells and the live
//! candidates form a bipartite graph (even cells against odd cells, one edge per
//! placement), and a tiling of the rest of the board is a perfect matching of it.
//!
//! If the maximum matching is not perfect the node is dead. Otherwise an unmatched edge
//! lies in some perfect matching exactly when it closes an alternating cycle, that is
//! when its even cell and the partner of its odd cell are in one strongly connected
//! component of the graph "even cell → even partner of an odd neighbour" (Berge). Every
//! other candidate is in no tiling and is deleted.
//!
//! Inside a search nobody rebuilds (the incremental filter of Régin 1995, and Mehlhorn
//! & Thiel 2000). The matching lives across nodes and follows the search's trail: a
//! commit keeps its placement as the mate of its two cells, so that undoing it hands
//! back a matched pair, and a deleted or displaced mate frees its cells. Only the cells
//! freed since the last call are re-matched, by augmenting paths ([`repair`]). The SCC
//! pass looks at a bounded region around what changed, with the rest of the board
//! contracted to one vertex ([`components`]): contraction only merges components, so
//! what it deletes is in no tiling, though it may miss what lies far from the change.
//! The from-scratch filter is the debug-build twin that checks both ([`twin`]).
//!
//! This subsumes the colour-balance check: an unbalanced component has no perfect
//! matching.

mod components;
mod explain;
mod filter;
mod pass;
mod repair;
#[cfg(debug_assertions)]
mod twin;

use super::layout::Layout;

const NONE: u32 = u32::MAX;

/// What the filter found.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Filtered {
    /// No perfect matching: no tiling of the uncovered cells.
    Dead,
    /// These candidates lie in no perfect matching.
    Delete(Vec<u32>),
    /// `stop` said so before the filter was done: nothing is known.
    Stopped,
}

/// Steps (edges looked at) between two looks at `stop`: a pass over a 1024×1024 board
/// takes seconds, and a time limit must hold inside it.
const STOP_EVERY: u32 = 1 << 16;

/// The search's state as the filter sees it: the live candidates and the covered cells
/// (at a settled node no live candidate touches a covered cell), and the trail that
/// led there (`p << 1` for a deletion, `p << 1 | 1` for a commit).
pub(in crate::backend::native) struct Graph<'g> {
    pub lay: &'g Layout<'g>,
    pub active: &'g [bool],
    pub covered: &'g [bool],
    pub trail: &'g [u32],
}

impl Graph<'_> {
    fn other(&self, p: u32, cell: u32) -> u32 {
        let [a, b] = self.lay.place_cells[p as usize];
        if a == cell { b } else { a }
    }

    fn even(&self, c: u32) -> bool {
        self.lay.colour(c) == 0
    }

    fn open(&self, c: u32) -> bool {
        !self.covered[c as usize]
    }
}

/// The kept matching and the scratch space of its algorithms.
#[derive(Default)]
pub(super) struct Matching {
    /// Placement matched at each uncovered cell, kept consistent on both of its cells;
    /// at a covered cell, the committed placement covering it (once the trail entry
    /// that committed it has been read).
    mate: Vec<u32>,
    /// Every uncovered cell without a mate is here (and maybe cells matched since).
    free: Vec<u32>,
    /// The trail as of the last call.
    synced: Vec<u32>,
    /// Cells whose candidates changed since the last call.
    dirty: Vec<u32>,
    /// The last call's free cell that no augmenting path reaches (a Hall violator's
    /// root when the filter says `Dead`).
    short: u32,
    /// Per-cell marks: a cell is marked when `mark[c] == epoch`.
    mark: Vec<u32>,
    epoch: u32,
    /// Breadth-first searches: the queue, and for each even cell reached, the
    /// unmatched candidate that reached it.
    queue: Vec<u32>,
    parent: Vec<u32>,
    // Hopcroft–Karp.
    dist: Vec<u32>,
    stack: Vec<(u32, u32)>,
    path: Vec<u32>,
    // Tarjan over the region's even cells and one vertex for the rest (index `cells`).
    region: Vec<u32>,
    /// Region cells entered from outside the region: the contracted vertex's edges.
    entered: Vec<u32>,
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    comp: Vec<u32>,
    tarjan_stack: Vec<u32>,
    call: Vec<(u32, u32)>,
    /// Steps since `stop` was last asked, and in all.
    steps: u32,
    total_steps: u64,
}

impl Matching {
    /// The filter from nothing, over the whole board: the twin of the kept one.
    pub(in crate::backend::native) fn from_scratch(g: &Graph) -> Filtered {
        let mut scratch = Matching::default();
        scratch.sync(g, 0);
        scratch.filter_synced(g, true, 0, &|| false).0
    }

    /// The even partner of odd cell `y` under the current matching.
    fn partner(&self, g: &Graph, y: u32) -> u32 {
        match self.mate[y as usize] {
            NONE => NONE,
            p => g.other(p, y),
        }
    }

    /// Counts `work` steps and asks `stop` once `STOP_EVERY` have passed since it was
    /// last asked.
    fn should_stop(&mut self, work: u32, stop: &dyn Fn() -> bool) -> bool {
        self.steps += work;
        self.total_steps += u64::from(work);
        if self.steps < STOP_EVERY {
            return false;
        }
        self.steps = 0;
        stop()
    }

    /// A fresh mark value, so marks need no clearing.
    fn next_epoch(&mut self, cells: usize) -> u32 {
        if self.mark.len() != cells || self.epoch == u32::MAX {
            self.mark = vec![0; cells];
            self.epoch = 0;
        }
        self.epoch += 1;
        self.epoch
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Families, compile};
    use crate::puzzle::Instance;

    fn board(rows: usize, cols: usize, blocked: &[(usize, usize)]) -> Instance {
        let mut cells = vec![false; rows * cols];
        for &(r, c) in blocked {
            cells[r * cols + c] = true;
        }
        Instance {
            name: "t".into(),
            rows,
            cols,
            blocked: cells,
            row_clues: vec![0; rows],
            col_clues: vec![0; cols],
        }
    }

    fn filter_once(instance: &Instance) -> (Filtered, Vec<(usize, usize)>) {
        let model = compile(instance, Families::RawSums);
        let lay = Layout::new(&model, false);
        let active = vec![true; model.placements.len()];
        let covered = vec![false; lay.cells];
        let graph = Graph {
            lay: &lay,
            active: &active,
            covered: &covered,
            trail: &[],
        };
        let (outcome, _) = Matching::default().filter(&graph, 0, 0, &|| false);
        let places = match &outcome {
            Filtered::Delete(doomed) => doomed
                .iter()
                .map(|&p| {
                    let p = model.placements[p as usize];
                    (p.row, p.col)
                })
                .collect(),
            _ => Vec::new(),
        };
        (outcome, places)
    }

    #[test]
    fn an_edge_in_no_perfect_matching_is_deleted() {
        // Open cells (1,1) (1,2) (2,2) (2,3) form a path a-b-c-d: its only tiling is
        // {ab, cd}, so the vertical piece b-c lies in no perfect matching.
        let (outcome, doomed) = filter_once(&board(2, 3, &[(0, 2), (1, 0)]));
        assert!(matches!(outcome, Filtered::Delete(_)), "{outcome:?}");
        assert_eq!(doomed, vec![(0, 1)]);
    }

    #[test]
    fn no_perfect_matching_is_dead() {
        // Three open cells: the pair (1,1)-(1,2) and the isolated (3,2).
        let (outcome, _) = filter_once(&board(
            3,
            3,
            &[(0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 2)],
        ));
        assert_eq!(outcome, Filtered::Dead);
    }

    #[test]
    fn every_edge_of_a_cycle_survives() {
        // The open 2x2 square: two tilings, every piece in one of them.
        let (outcome, _) = filter_once(&board(2, 2, &[]));
        assert_eq!(outcome, Filtered::Delete(Vec::new()));
    }
}
