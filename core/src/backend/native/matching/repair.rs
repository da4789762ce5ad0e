//! Keeping the matching maximum from node to node: reading the trail since the last
//! call, and re-matching the cells it freed by augmenting paths.

use super::{Graph, Matching, NONE};

/// With more free even cells than this, one Hopcroft–Karp run (phases of many
/// disjoint shortest paths, each phase a pass over the board) beats a search per cell.
/// That happens at the first call and after long backtracks.
const HOPCROFT_KARP_FROM: usize = 64;

const INFINITE: u32 = u32::MAX;

impl Matching {
    /// Brings the matching up to date with the trail; returns whether this is the first
    /// call (everything is new). Entries below `unchanged_below` are as the last call
    /// saw them.
    ///
    /// Undone entries need nothing: an undone deletion only adds a candidate, and an
    /// undone commit uncovers two cells that are still matched to it (a commit is made
    /// the mate of its cells below). New entries are read in trail order: a deleted mate
    /// frees its cells, a commit displaces the mates of its cells and frees their other
    /// cells. The cells of every entry read or undone are the change, for the SCC pass.
    pub(super) fn sync(&mut self, g: &Graph, unchanged_below: usize) -> bool {
        let cells = g.lay.cells;
        let fresh = self.mate.len() != cells;
        if fresh {
            self.mate = vec![NONE; cells];
            self.parent = vec![NONE; cells];
            self.dist = vec![INFINITE; cells];
            self.index = vec![NONE; cells + 1];
            self.low = vec![0; cells + 1];
            self.on_stack = vec![false; cells + 1];
            self.comp = vec![NONE; cells + 1];
            self.synced.clear();
            self.free = (0..cells as u32).filter(|&c| g.open(c)).collect();
        }
        let low = unchanged_below.min(self.synced.len()).min(g.trail.len());
        self.dirty.clear();
        for &op in &self.synced[low..] {
            let cells = g.lay.place_cells[(op >> 1) as usize];
            debug_assert!(
                op & 1 == 0 || cells.iter().all(|&c| self.mate[c as usize] == op >> 1),
                "an undone commit is still the mate of its cells"
            );
            self.dirty.extend(cells);
        }
        for &op in &g.trail[low..] {
            let p = op >> 1;
            let cells = g.lay.place_cells[p as usize];
            if op & 1 == 0 {
                for c in cells {
                    if self.mate[c as usize] == p {
                        self.mate[c as usize] = NONE;
                        self.free.push(c);
                    }
                }
            } else {
                for c in cells {
                    let q = self.mate[c as usize];
                    if q != NONE && q != p {
                        let d = g.other(q, c);
                        if self.mate[d as usize] == q {
                            self.mate[d as usize] = NONE;
                            self.free.push(d);
                        }
                    }
                }
                for c in cells {
                    self.mate[c as usize] = p;
                }
            }
            self.dirty.extend(cells);
        }
        self.synced.truncate(low);
        self.synced.extend_from_slice(&g.trail[low..]);
        fresh
    }

    /// Re-matches the free cells: `Some(false)` when some cell stays free in a maximum
    /// matching (it is then `short`), `None` when `stop` said so first.
    pub(super) fn rematch(&mut self, g: &Graph, stop: &dyn Fn() -> bool) -> Option<bool> {
        let epoch = self.next_epoch(g.lay.cells);
        let mut free = std::mem::take(&mut self.free);
        free.retain(|&c| {
            let keep = g.open(c) && self.mate[c as usize] == NONE && self.mark[c as usize] != epoch;
            self.mark[c as usize] = epoch;
            keep
        });
        if free.iter().filter(|&&c| g.even(c)).count() > HOPCROFT_KARP_FROM {
            return self.hopcroft_karp(g, stop);
        }
        for k in 0..free.len() {
            let x = free[k];
            if !g.even(x) {
                continue;
            }
            match self.augment_from_cell(g, x, stop) {
                Some(true) => {}
                Some(false) => {
                    self.short = x;
                    self.free = free;
                    return Some(false);
                }
                None => {
                    self.free = free;
                    return None;
                }
            }
        }
        free.retain(|&c| self.mate[c as usize] == NONE);
        self.short = free.first().copied().unwrap_or(NONE);
        let perfect = free.is_empty();
        self.free = free;
        Some(perfect)
    }

    /// Breadth-first search for a shortest augmenting path from free even cell `root`
    /// (out along an unmatched candidate, back along the odd cell's mate), flipped if
    /// found. `Some(false)`: none exists, so `root` is free in every maximum matching.
    fn augment_from_cell(&mut self, g: &Graph, root: u32, stop: &dyn Fn() -> bool) -> Option<bool> {
        let epoch = self.next_epoch(g.lay.cells);
        self.queue.clear();
        self.queue.push(root);
        self.mark[root as usize] = epoch;
        self.alternating_walk(g, stop, |m, _, p, w| {
            if w == NONE {
                m.flip(g, root, p);
                return true;
            }
            if m.mark[w as usize] != epoch {
                m.mark[w as usize] = epoch;
                m.parent[w as usize] = p;
                m.queue.push(w);
            }
            false
        })
    }

    /// Walks the queue breadth first along alternating paths: from each even cell `x`
    /// out along an active unmatched candidate `p`, then to `w`, the even cell matched to
    /// `p`'s other cell (`NONE` when that cell is free). `visit` may push onto the queue;
    /// when it returns `true` the walk ends with `Some(true)`. `None`: stopped.
    fn alternating_walk(
        &mut self,
        g: &Graph,
        stop: &dyn Fn() -> bool,
        mut visit: impl FnMut(&mut Self, u32, u32, u32) -> bool,
    ) -> Option<bool> {
        let mut head = 0;
        while head < self.queue.len() {
            let x = self.queue[head];
            head += 1;
            if self.should_stop(4, stop) {
                return None;
            }
            for &p in g.lay.places_at(x) {
                if !g.active[p as usize] || self.mate[x as usize] == p {
                    continue;
                }
                let w = self.partner(g, g.other(p, x));
                if visit(self, x, p, w) {
                    return Some(true);
                }
            }
        }
        Some(false)
    }

    /// Matches the path that ends with candidate `last` and leads back to `root`
    /// through `parent`: each even cell takes the candidate that reached its successor.
    fn flip(&mut self, g: &Graph, root: u32, last: u32) {
        let mut p = last;
        loop {
            let [a, b] = g.lay.place_cells[p as usize];
            let x = if g.even(a) { a } else { b };
            self.mate[a as usize] = p;
            self.mate[b as usize] = p;
            if x == root {
                return;
            }
            p = self.parent[x as usize];
        }
    }

    /// Hopcroft–Karp phases from every free even cell; then the free list is rebuilt.
    fn hopcroft_karp(&mut self, g: &Graph, stop: &dyn Fn() -> bool) -> Option<bool> {
        let cells = g.lay.cells as u32;
        let free_even = |m: &Matching, x: u32| g.even(x) && g.open(x) && m.mate[x as usize] == NONE;
        loop {
            // BFS layers from the free even cells along alternating paths.
            self.queue.clear();
            for x in 0..cells {
                if free_even(self, x) {
                    self.dist[x as usize] = 0;
                    self.queue.push(x);
                } else {
                    self.dist[x as usize] = INFINITE;
                }
            }
            if self.queue.is_empty() {
                break;
            }
            // The matched candidate of a reached cell leads back to that cell, already
            // layered, so the walk skipping it changes nothing here.
            let mut found = false;
            self.alternating_walk(g, stop, |m, x, _, next| {
                if next == NONE {
                    found = true;
                } else if m.dist[next as usize] == INFINITE {
                    m.dist[next as usize] = m.dist[x as usize] + 1;
                    m.queue.push(next);
                }
                false
            })?;
            if !found {
                break;
            }
            // Vertex-disjoint shortest augmenting paths along the layers.
            let roots: Vec<u32> = (0..cells).filter(|&x| free_even(self, x)).collect();
            for root in roots {
                if self.should_stop(4, stop) {
                    return None;
                }
                self.layered_path_from(g, root);
            }
        }
        self.free = (0..cells)
            .filter(|&c| g.open(c) && self.mate[c as usize] == NONE)
            .collect();
        self.short = self.free.first().copied().unwrap_or(NONE);
        Some(self.free.is_empty())
    }

    /// One augmenting path from free even cell `root` along increasing layers, applied
    /// if found; cells of a dead end get an infinite layer so no later path tries them.
    fn layered_path_from(&mut self, g: &Graph, root: u32) {
        self.stack.clear();
        self.path.clear();
        self.stack.push((root, 0));
        while let Some(&(x, start)) = self.stack.last() {
            let places = g.lay.places_at(x);
            let mut next = start as usize;
            let mut advanced = false;
            while next < places.len() {
                let p = places[next];
                next += 1;
                if !g.active[p as usize] {
                    continue;
                }
                let partner = self.partner(g, g.other(p, x));
                if partner == NONE {
                    // A free odd cell: flip the path.
                    self.path.push(p);
                    for &q in &self.path {
                        let [a, b] = g.lay.place_cells[q as usize];
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
}
