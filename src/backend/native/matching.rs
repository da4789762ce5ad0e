//! Régin's matching filter for the exact cover: the uncovered cells and the live
//! candidates form a bipartite graph (even cells against odd cells, one edge per
//! placement), and a tiling of the rest of the board is a perfect matching of it.
//!
//! A maximum matching is kept from node to node and repaired with Hopcroft–Karp
//! phases; if it is not perfect the node is dead. Otherwise an unmatched edge lies in
//! some perfect matching exactly when it closes an alternating cycle, that is when its
//! even cell and the partner of its odd cell are in one strongly connected component
//! of the graph "even cell → even partner of an odd neighbour" (Tarjan, iteratively).
//! Every other candidate is in no tiling and is deleted.
//!
//! This subsumes the colour-balance check: an unbalanced component has no perfect
//! matching.

use super::layout::Layout;

const NONE: u32 = u32::MAX;
const INFINITE: u32 = u32::MAX;

/// What the filter found.
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

/// The kept matching and the scratch space of both algorithms.
#[derive(Default)]
pub(super) struct Matching {
    /// Placement matched at each cell, kept consistent on both of its cells.
    mate: Vec<u32>,
    dist: Vec<u32>,
    queue: Vec<u32>,
    /// Iterative DFS: (even cell, next candidate index).
    stack: Vec<(u32, u32)>,
    path: Vec<u32>,
    // Tarjan.
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    comp: Vec<u32>,
    tarjan_stack: Vec<u32>,
    call: Vec<(u32, u32)>,
    /// Steps since `stop` was last asked.
    steps: u32,
}

impl Matching {
    fn other(lay: &Layout, p: u32, cell: u32) -> u32 {
        let [a, b] = lay.place_cells[p as usize];
        if a == cell { b } else { a }
    }

    /// The even partner of odd cell `y` under the current matching.
    fn partner(&self, lay: &Layout, y: u32) -> u32 {
        match self.mate[y as usize] {
            NONE => NONE,
            p => Self::other(lay, p, y),
        }
    }

    /// Counts `work` steps and asks `stop` once `STOP_EVERY` have passed since it was
    /// last asked.
    fn should_stop(&mut self, work: u32, stop: &dyn Fn() -> bool) -> bool {
        self.steps += work;
        if self.steps < STOP_EVERY {
            return false;
        }
        self.steps = 0;
        stop()
    }

    /// Runs the filter on the state given by `active` and `covered`; `stop` is asked
    /// every few tens of thousands of steps, and `Stopped` returned when it says so.
    pub fn filter(
        &mut self,
        lay: &Layout,
        active: &[bool],
        covered: &[bool],
        stop: &dyn Fn() -> bool,
    ) -> Filtered {
        let cells = lay.cells;
        if self.mate.len() != cells {
            self.mate = vec![NONE; cells];
            self.dist = vec![INFINITE; cells];
            self.index = vec![NONE; cells];
            self.low = vec![0; cells];
            self.on_stack = vec![false; cells];
            self.comp = vec![NONE; cells];
        }
        // Keep the matched pairs that are still live candidates.
        for c in 0..cells as u32 {
            let p = self.mate[c as usize];
            if p == NONE {
                continue;
            }
            let other = Self::other(lay, p, c);
            if covered[c as usize] || !active[p as usize] || self.mate[other as usize] != p {
                self.mate[c as usize] = NONE;
                if self.mate[other as usize] == p {
                    self.mate[other as usize] = NONE;
                }
            }
        }
        match self.augment(lay, active, covered, stop) {
            Some(true) => {}
            Some(false) => return Filtered::Dead,
            None => return Filtered::Stopped,
        }
        if !self.components(lay, active, covered, stop) {
            return Filtered::Stopped;
        }
        let mut doomed = Vec::new();
        for x in (0..cells as u32).filter(|&x| lay.colour(x) == 0 && !covered[x as usize]) {
            for &p in lay.places_at(x) {
                if !active[p as usize] || self.mate[x as usize] == p {
                    continue;
                }
                let y = Self::other(lay, p, x);
                if self.comp[x as usize] != self.comp[self.partner(lay, y) as usize] {
                    doomed.push(p);
                }
            }
        }
        Filtered::Delete(doomed)
    }

    /// After [`Matching::filter`] found no perfect matching: a set of cells of one colour,
    /// reached from a cell the maximum matching leaves free along alternating paths, and
    /// their neighbours along live candidates, which are fewer (each is matched to a
    /// cell of the set, and the free one is not matched at all). Hall's argument, for a
    /// proof: `(set, neighbours)`.
    pub fn hall_violator(
        &self,
        lay: &Layout,
        active: &[bool],
        covered: &[bool],
    ) -> (Vec<u32>, Vec<u32>) {
        let cells = lay.cells as u32;
        let Some(free) =
            (0..cells).find(|&c| !covered[c as usize] && self.mate[c as usize] == NONE)
        else {
            return (Vec::new(), Vec::new());
        };
        self.alternating_reach(lay, active, free)
    }

    /// After [`Matching::filter`] deleted `doomed`: for each, a tight set that rules it
    /// out, `(set, neighbours)` with as many neighbours as cells. For a doomed candidate
    /// on even cell `x` and odd cell `y`, the even cells reached from `y`'s partner along
    /// alternating paths are matched exactly onto their neighbours, `y` among them and
    /// `x` not: a tiling covering them all uses every neighbour, so no piece joins a
    /// neighbour to a cell outside the set. Candidates whose partner lies in one
    /// strongly connected component share the set.
    pub fn tight_sets(
        &self,
        lay: &Layout,
        active: &[bool],
        covered: &[bool],
        doomed: &[u32],
    ) -> Vec<(Vec<u32>, Vec<u32>)> {
        let _ = covered;
        let mut done_components: Vec<u32> = Vec::new();
        let mut sets = Vec::new();
        for &p in doomed {
            let [a, b] = lay.place_cells[p as usize];
            let y = if lay.colour(a) == 0 { b } else { a };
            let w = self.partner(lay, y);
            if w == NONE || done_components.contains(&self.comp[w as usize]) {
                continue;
            }
            done_components.push(self.comp[w as usize]);
            sets.push(self.alternating_reach(lay, active, w));
        }
        sets
    }

    /// The cells of `start`'s colour reached from it by alternating paths (out along a
    /// live candidate, back along the neighbour's matched one), and all their neighbours
    /// along live candidates.
    fn alternating_reach(&self, lay: &Layout, active: &[bool], start: u32) -> (Vec<u32>, Vec<u32>) {
        let mut seen = vec![false; lay.cells];
        let mut set = vec![start];
        let mut neighbours = Vec::new();
        seen[start as usize] = true;
        let mut head = 0;
        while head < set.len() {
            let x = set[head];
            head += 1;
            for &p in lay.places_at(x) {
                if !active[p as usize] {
                    continue;
                }
                let y = Self::other(lay, p, x);
                if !seen[y as usize] {
                    seen[y as usize] = true;
                    neighbours.push(y);
                }
                let w = self.partner(lay, y);
                if w != NONE && !seen[w as usize] {
                    seen[w as usize] = true;
                    set.push(w);
                }
            }
        }
        (set, neighbours)
    }

    /// Hopcroft–Karp phases from the free even cells; false when the maximum matching
    /// leaves a cell free, `None` when `stop` said so first.
    fn augment(
        &mut self,
        lay: &Layout,
        active: &[bool],
        covered: &[bool],
        stop: &dyn Fn() -> bool,
    ) -> Option<bool> {
        let cells = lay.cells as u32;
        let even = |x: u32| lay.colour(x) == 0 && !covered[x as usize];
        loop {
            // BFS layers from the free even cells along alternating paths.
            self.queue.clear();
            for x in 0..cells {
                if even(x) && self.mate[x as usize] == NONE {
                    self.dist[x as usize] = 0;
                    self.queue.push(x);
                } else {
                    self.dist[x as usize] = INFINITE;
                }
            }
            if self.queue.is_empty() {
                break;
            }
            let mut found = false;
            let mut head = 0;
            while head < self.queue.len() {
                let x = self.queue[head];
                head += 1;
                if self.should_stop(4, stop) {
                    return None;
                }
                for &p in lay.places_at(x) {
                    if !active[p as usize] {
                        continue;
                    }
                    let y = Self::other(lay, p, x);
                    let next = self.partner(lay, y);
                    if next == NONE {
                        found = true;
                    } else if self.dist[next as usize] == INFINITE {
                        self.dist[next as usize] = self.dist[x as usize] + 1;
                        self.queue.push(next);
                    }
                }
            }
            if !found {
                break;
            }
            // Vertex-disjoint shortest augmenting paths along the layers.
            let free: Vec<u32> = (0..cells)
                .filter(|&x| even(x) && self.mate[x as usize] == NONE)
                .collect();
            for root in free {
                if self.should_stop(4, stop) {
                    return None;
                }
                self.augment_from(lay, active, root);
            }
        }
        Some((0..cells).all(|c| covered[c as usize] || self.mate[c as usize] != NONE))
    }

    /// One augmenting path from free even cell `root` along increasing layers, applied
    /// if found; cells of a dead end get an infinite layer so no later path tries them.
    fn augment_from(&mut self, lay: &Layout, active: &[bool], root: u32) {
        self.stack.clear();
        self.path.clear();
        self.stack.push((root, 0));
        while let Some(&(x, start)) = self.stack.last() {
            let places = lay.places_at(x);
            let mut next = start as usize;
            let mut advanced = false;
            while next < places.len() {
                let p = places[next];
                next += 1;
                if !active[p as usize] {
                    continue;
                }
                let y = Self::other(lay, p, x);
                let partner = self.partner(lay, y);
                if partner == NONE {
                    // A free odd cell: flip the path.
                    self.path.push(p);
                    for &q in &self.path {
                        let [a, b] = lay.place_cells[q as usize];
                        self.mate[a as usize] = q;
                        self.mate[b as usize] = q;
                    }
                    for &(x, _) in &self.stack {
                        self.dist[x as usize] = INFINITE;
                    }
                    return;
                }
                if self.dist[partner as usize] == self.dist[x as usize].wrapping_add(1) {
                    if let Some(top) = self.stack.last_mut() {
                        top.1 = next as u32;
                    }
                    self.path.push(p);
                    self.stack.push((partner, 0));
                    advanced = true;
                    break;
                }
            }
            if !advanced {
                self.dist[x as usize] = INFINITE;
                self.stack.pop();
                self.path.pop();
            }
        }
    }

    /// Tarjan's strongly connected components of the even cells, with an edge from `x`
    /// to the partner of each odd neighbour reached by an unmatched candidate; false
    /// when `stop` said so first.
    fn components(
        &mut self,
        lay: &Layout,
        active: &[bool],
        covered: &[bool],
        stop: &dyn Fn() -> bool,
    ) -> bool {
        let cells = lay.cells as u32;
        self.index.fill(NONE);
        self.on_stack.fill(false);
        let mut counter = 0u32;
        let mut comps = 0u32;
        for root in 0..cells {
            if lay.colour(root) != 0 || covered[root as usize] || self.index[root as usize] != NONE
            {
                continue;
            }
            self.call.clear();
            self.call.push((root, 0));
            self.index[root as usize] = counter;
            self.low[root as usize] = counter;
            counter += 1;
            self.tarjan_stack.push(root);
            self.on_stack[root as usize] = true;
            while let Some(&(x, next)) = self.call.last() {
                if self.should_stop(1, stop) {
                    self.tarjan_stack.clear();
                    return false;
                }
                let places = lay.places_at(x);
                if (next as usize) < places.len() {
                    if let Some(frame) = self.call.last_mut() {
                        frame.1 += 1;
                    }
                    let p = places[next as usize];
                    if !active[p as usize] || self.mate[x as usize] == p {
                        continue;
                    }
                    let w = self.partner(lay, Self::other(lay, p, x));
                    if self.index[w as usize] == NONE {
                        self.index[w as usize] = counter;
                        self.low[w as usize] = counter;
                        counter += 1;
                        self.tarjan_stack.push(w);
                        self.on_stack[w as usize] = true;
                        self.call.push((w, 0));
                    } else if self.on_stack[w as usize] {
                        self.low[x as usize] = self.low[x as usize].min(self.index[w as usize]);
                    }
                    continue;
                }
                self.call.pop();
                if let Some(&(parent, _)) = self.call.last() {
                    self.low[parent as usize] = self.low[parent as usize].min(self.low[x as usize]);
                }
                if self.low[x as usize] == self.index[x as usize] {
                    while let Some(w) = self.tarjan_stack.pop() {
                        self.on_stack[w as usize] = false;
                        self.comp[w as usize] = comps;
                        if w == x {
                            break;
                        }
                    }
                    comps += 1;
                }
            }
        }
        true
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

    #[test]
    fn an_edge_in_no_perfect_matching_is_deleted() {
        // Open cells (1,1) (1,2) (2,2) (2,3) form a path a-b-c-d: its only tiling is
        // {ab, cd}, so the vertical piece b-c lies in no perfect matching.
        let model = compile(&board(2, 3, &[(0, 2), (1, 0)]), Families::Raw);
        let lay = Layout::new(&model, false);
        let active = vec![true; model.placements.len()];
        let covered = vec![false; lay.cells];
        let Filtered::Delete(doomed) =
            Matching::default().filter(&lay, &active, &covered, &|| false)
        else {
            panic!("the path has a perfect matching");
        };
        let doomed: Vec<_> = doomed
            .iter()
            .map(|&p| model.placements[p as usize])
            .collect();
        assert_eq!(doomed.len(), 1, "{doomed:?}");
        assert_eq!((doomed[0].row, doomed[0].col), (0, 1));
    }

    #[test]
    fn no_perfect_matching_is_dead() {
        // Three open cells: the pair (1,1)-(1,2) and the isolated (3,2).
        let model = compile(
            &board(3, 3, &[(0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 2)]),
            Families::Raw,
        );
        let lay = Layout::new(&model, false);
        let active = vec![true; model.placements.len()];
        let covered = vec![false; lay.cells];
        assert!(matches!(
            Matching::default().filter(&lay, &active, &covered, &|| false),
            Filtered::Dead
        ));
    }

    #[test]
    fn every_edge_of_a_cycle_survives() {
        // The open 2x2 square: two tilings, every piece in one of them.
        let model = compile(&board(2, 2, &[]), Families::Raw);
        let lay = Layout::new(&model, false);
        let active = vec![true; model.placements.len()];
        let covered = vec![false; lay.cells];
        let Filtered::Delete(doomed) =
            Matching::default().filter(&lay, &active, &covered, &|| false)
        else {
            panic!("the square has a perfect matching");
        };
        assert!(doomed.is_empty());
    }
}
