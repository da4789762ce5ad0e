//! Berge's rule by Tarjan's strongly connected components, over the whole board or
//! over a region around the last changes with the rest contracted to one vertex.
//!
//! The directed graph has the uncovered even cells as vertices and an edge from `x` to
//! the partner of each odd neighbour reached by an unmatched candidate. Contracting the
//! cells outside the region into one vertex maps every cycle to a closed walk, so two
//! cells in different components of the contracted graph are in different components of
//! the whole one: a candidate it condemns is in no perfect matching. The converse fails
//! only for cycles that leave the region, that is for consequences far from the change.

use super::{Graph, Matching, NONE};

impl Matching {
    /// Every uncovered even cell is in the region; nothing is contracted.
    pub(super) fn whole_region(&mut self, g: &Graph) {
        let epoch = self.next_epoch(g.lay.cells);
        self.region.clear();
        self.entered.clear();
        for c in 0..g.lay.cells as u32 {
            if g.even(c) && g.open(c) {
                self.mark[c as usize] = epoch;
                self.region.push(c);
            }
        }
    }

    /// The region: the uncovered cells the trail changed since the last call (or the
    /// uncovered neighbours of those it covered), and about `limit` more nearest to
    /// them, breadth first along live candidates. Its size is that of the change plus a
    /// constant: the search paid for the change already.
    pub(super) fn region_around_changes(&mut self, g: &Graph, limit: usize) {
        let epoch = self.next_epoch(g.lay.cells);
        self.queue.clear();
        for k in 0..self.dirty.len() {
            let c = self.dirty[k];
            // A covered cell's uncovered neighbours are where its change shows.
            let seeds = if g.open(c) {
                std::slice::from_ref(&c)
            } else {
                g.lay.places_at(c)
            };
            for &s in seeds {
                let s = if g.open(c) { s } else { g.other(s, c) };
                if g.open(s) && self.mark[s as usize] != epoch {
                    self.mark[s as usize] = epoch;
                    self.queue.push(s);
                }
            }
        }
        let size = self.queue.len() + limit;
        let mut head = 0;
        while head < self.queue.len() && self.queue.len() < size {
            let x = self.queue[head];
            head += 1;
            for &p in g.lay.places_at(x) {
                if !g.active[p as usize] {
                    continue;
                }
                let y = g.other(p, x);
                if self.mark[y as usize] != epoch {
                    self.mark[y as usize] = epoch;
                    self.queue.push(y);
                }
            }
        }
        self.region.clear();
        self.region
            .extend(self.queue.iter().copied().filter(|&c| g.even(c)));
        // The contracted vertex's edges: into region cells whose odd mate has an
        // unmatched candidate to an even cell outside.
        self.entered.clear();
        for k in 0..self.region.len() {
            let w = self.region[k];
            let m = self.mate[w as usize];
            let y = g.other(m, w);
            let from_outside = g.lay.places_at(y).iter().any(|&q| {
                q != m && g.active[q as usize] && self.mark[g.other(q, y) as usize] != epoch
            });
            if from_outside {
                self.entered.push(w);
            }
        }
    }

    /// Whether even cell `c` is in the region (else it is the contracted vertex).
    fn vertex(&self, g: &Graph, c: u32) -> u32 {
        if self.mark[c as usize] == self.epoch {
            c
        } else {
            g.lay.cells as u32
        }
    }

    /// The `i`-th edge out of vertex `v`: `Some(None)` for a slot that is no edge,
    /// `None` past the last.
    fn edge(&self, g: &Graph, v: u32, i: usize) -> Option<Option<u32>> {
        if v as usize == g.lay.cells {
            return self.entered.get(i).map(|&w| Some(w));
        }
        let &p = g.lay.places_at(v).get(i)?;
        if !g.active[p as usize] || self.mate[v as usize] == p {
            return Some(None);
        }
        Some(Some(self.vertex(g, self.partner(g, g.other(p, v)))))
    }

    /// Tarjan's components of the region and the contracted vertex (iteratively);
    /// false when `stop` said so first.
    fn tarjan(&mut self, g: &Graph, stop: &dyn Fn() -> bool) -> bool {
        let outside = g.lay.cells as u32;
        for k in 0..self.region.len() {
            let v = self.region[k] as usize;
            self.index[v] = NONE;
            self.on_stack[v] = false;
        }
        self.index[outside as usize] = NONE;
        self.on_stack[outside as usize] = false;
        let mut counter = 0u32;
        let mut comps = 0u32;
        for k in 0..=self.region.len() {
            let root = self.region.get(k).copied().unwrap_or(outside);
            if self.index[root as usize] != NONE {
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
                if let Some(edge) = self.edge(g, x, next as usize) {
                    if let Some(frame) = self.call.last_mut() {
                        frame.1 += 1;
                    }
                    let Some(w) = edge else { continue };
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

    /// The unmatched candidates whose even cell and odd cell's partner lie in different
    /// components: inside the region, and from outside into it. `None` when `stop` said
    /// so first.
    pub(super) fn doomed(&mut self, g: &Graph, stop: &dyn Fn() -> bool) -> Option<Vec<u32>> {
        if !self.tarjan(g, stop) {
            return None;
        }
        let outside = g.lay.cells;
        let mut doomed = Vec::new();
        for &x in &self.region {
            for &p in g.lay.places_at(x) {
                if !g.active[p as usize] || self.mate[x as usize] == p {
                    continue;
                }
                let w = self.vertex(g, self.partner(g, g.other(p, x)));
                if self.comp[x as usize] != self.comp[w as usize] {
                    doomed.push(p);
                }
            }
        }
        for &w in &self.entered {
            if self.comp[w as usize] == self.comp[outside] {
                continue;
            }
            let m = self.mate[w as usize];
            let y = g.other(m, w);
            for &q in g.lay.places_at(y) {
                if q != m
                    && g.active[q as usize]
                    && self.vertex(g, g.other(q, y)) as usize == outside
                {
                    doomed.push(q);
                }
            }
        }
        Some(doomed)
    }
}
