//! Propagation and depth-first search over the layout (Section 4 of the paper).
//!
//! State: which placements are still candidates (`active`), which cells are covered,
//! and per group the number of active members (`left`) and the residual quota. Every
//! change goes on a trail so a branch is undone exactly. The rules, applied to a fixed
//! point through a work queue:
//!
//! * a group with quota 0 loses all its candidates; fewer candidates than quota fails;
//! * a group with exactly as many candidates as quota commits them all;
//! * an uncovered cell with no candidate fails, with one candidate commits it;
//! * committing a placement covers its cells and deletes every candidate touching them.
//!   Two forced placements that overlap are caught here: deleting one drops its group
//!   below quota.
//!
//! At a fixed point the candidates are exactly the placements on uncovered cells whose
//! groups all have quota left, so (covered cells, residual quotas) identifies the
//! subproblem and is a sound key for the cache of proved failures.

use rustc_hash::FxHashSet;

use super::layout::Layout;
use crate::backend::{Budget, Control, Counters, Ending, Outcome};
use crate::model::PlacementId;

/// Switches for the optional parts of the search, so their value can be measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Remember (covered cells, quotas) of subtrees proved empty.
    pub failure_cache: bool,
    /// At propagation stalls, reject line groups whose quota exceeds their room.
    pub path_capacity: bool,
    /// At propagation stalls, reject components of the candidate graph with unequal
    /// numbers of even and odd cells.
    pub colour_balance: bool,
    /// Most 64-bit words the failure cache may hold before it is cleared.
    pub cache_words: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            failure_cache: true,
            path_capacity: true,
            colour_balance: true,
            cache_words: 1 << 25,
        }
    }
}

/// A contradiction: the current state has no completion.
struct Dead;

/// A branching point: the candidates for one cell and how far we got through them.
struct Frame {
    cands: [u32; 4],
    count: u8,
    next: u8,
    /// Trail length at the node, after its propagation.
    mark: usize,
    /// Solutions found before the node was entered; unchanged at exit means failure.
    found_before: u64,
    /// The branching cell; every cell before it is covered.
    cell: u32,
}

/// How often (in nodes) the deadline is read; a clock read costs about 20 ns.
const DEADLINE_EVERY: u64 = 64;

pub(super) struct Search<'a> {
    lay: &'a Layout,
    options: SearchOptions,
    active: Vec<bool>,
    deg: Vec<u8>,
    covered: Vec<bool>,
    covered_bits: Vec<u64>,
    left: Vec<u32>,
    quota: Vec<i32>,
    /// `p << 1` for a deletion, `p << 1 | 1` for a commit.
    trail: Vec<u32>,
    chosen: Vec<PlacementId>,
    /// `c << 1` for a cell to look at, `g << 1 | 1` for a group.
    queue: Vec<u32>,
    uncovered: usize,
    stamp: Vec<u32>,
    epoch: u32,
    scratch: Vec<u32>,
    cache: FxHashSet<Box<[u64]>>,
    cache_words: usize,
    nodes: u64,
    cache_hits: u64,
}

impl<'a> Search<'a> {
    pub fn new(lay: &'a Layout, options: SearchOptions) -> Search<'a> {
        let places = lay.place_cells.len();
        let left = (0..lay.groups())
            .map(|g| lay.members(g as u32).len() as u32)
            .collect();
        Search {
            lay,
            options,
            active: vec![true; places],
            deg: lay.cell_len.clone(),
            covered: vec![false; lay.cells],
            covered_bits: vec![0; lay.cells.div_ceil(64)],
            left,
            quota: lay.group_quota.clone(),
            trail: Vec::with_capacity(places),
            chosen: Vec::with_capacity(lay.cells / 2),
            queue: Vec::new(),
            uncovered: lay.cells,
            stamp: Vec::new(),
            epoch: 0,
            scratch: Vec::new(),
            cache: FxHashSet::default(),
            cache_words: 0,
            nodes: 0,
            cache_hits: 0,
        }
    }

    #[inline]
    fn delete(&mut self, p: u32) -> Result<(), Dead> {
        let lay = self.lay;
        self.active[p as usize] = false;
        self.trail.push(p << 1);
        for &c in &lay.place_cells[p as usize] {
            let d = &mut self.deg[c as usize];
            *d -= 1;
            if *d <= 1 && !self.covered[c as usize] {
                self.queue.push(c << 1);
            }
        }
        let mut alive = true;
        for &g in lay.groups_of(p) {
            let left = &mut self.left[g as usize];
            *left -= 1;
            let (left, quota) = (*left as i32, self.quota[g as usize]);
            if left < quota {
                alive = false;
            } else if left == quota && quota > 0 {
                self.queue.push(g << 1 | 1);
            }
        }
        if alive { Ok(()) } else { Err(Dead) }
    }

    #[inline]
    fn commit(&mut self, p: u32) -> Result<(), Dead> {
        let lay = self.lay;
        self.active[p as usize] = false;
        self.trail.push(p << 1 | 1);
        self.chosen.push(p);
        let cells = lay.place_cells[p as usize];
        for c in cells {
            let c = c as usize;
            self.deg[c] -= 1;
            self.covered[c] = true;
            self.covered_bits[c / 64] |= 1 << (c % 64);
        }
        self.uncovered -= 2;
        let mut alive = true;
        for &g in lay.groups_of(p) {
            let g = g as usize;
            self.left[g] -= 1;
            self.quota[g] -= 1;
            let (left, quota) = (self.left[g] as i32, self.quota[g]);
            if quota < 0 {
                alive = false;
            } else if (quota == 0 && left > 0) || (quota > 0 && left == quota) {
                self.queue.push((g as u32) << 1 | 1);
            }
        }
        if !alive {
            return Err(Dead);
        }
        for c in cells {
            for &r in lay.places_at(c) {
                if self.active[r as usize] {
                    self.delete(r)?;
                }
            }
        }
        Ok(())
    }

    fn undo_to(&mut self, mark: usize) {
        let lay = self.lay;
        while self.trail.len() > mark {
            let Some(op) = self.trail.pop() else { break };
            let p = op >> 1;
            self.active[p as usize] = true;
            for &c in &lay.place_cells[p as usize] {
                self.deg[c as usize] += 1;
            }
            for &g in lay.groups_of(p) {
                self.left[g as usize] += 1;
            }
            if op & 1 == 1 {
                for &g in lay.groups_of(p) {
                    self.quota[g as usize] += 1;
                }
                for &c in &lay.place_cells[p as usize] {
                    let c = c as usize;
                    self.covered[c] = false;
                    self.covered_bits[c / 64] &= !(1 << (c % 64));
                }
                self.uncovered += 2;
                self.chosen.pop();
            }
        }
    }

    /// Applies the queued rules to a fixed point.
    fn propagate(&mut self) -> Result<(), Dead> {
        let lay = self.lay;
        while let Some(item) = self.queue.pop() {
            let index = item >> 1;
            if item & 1 == 0 {
                if self.covered[index as usize] {
                    continue;
                }
                match self.deg[index as usize] {
                    0 => return Err(Dead),
                    1 => {
                        let forced = lay
                            .places_at(index)
                            .iter()
                            .copied()
                            .find(|&p| self.active[p as usize]);
                        match forced {
                            Some(p) => self.commit(p)?,
                            None => return Err(Dead),
                        }
                    }
                    _ => {}
                }
            } else {
                let g = index as usize;
                let quota = self.quota[g];
                let left = self.left[g] as i32;
                if quota < 0 || left < quota {
                    return Err(Dead);
                }
                if left == 0 {
                    continue;
                }
                if quota == 0 {
                    for &p in lay.members(index) {
                        if self.active[p as usize] {
                            self.delete(p)?;
                        }
                    }
                } else if left == quota {
                    for &p in lay.members(index) {
                        if self.active[p as usize] {
                            self.commit(p)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Propagates; on a contradiction leaves the queue empty for the next node.
    fn settle(&mut self) -> bool {
        if self.propagate().is_ok() {
            true
        } else {
            self.queue.clear();
            false
        }
    }

    /// Quota on a line cannot exceed the most disjoint candidates along it. Candidates
    /// of a line group are in order and only neighbours overlap, so taking the earliest
    /// candidate that does not overlap the last one taken is optimal.
    fn capacity_ok(&self) -> bool {
        let lay = self.lay;
        for g in 0..lay.groups() {
            let quota = self.quota[g];
            if !lay.group_path[g] || quota <= 0 || self.left[g] as i32 == quota {
                continue;
            }
            let mut taken = 0;
            let mut last = [u32::MAX; 2];
            for &p in lay.members(g as u32) {
                if !self.active[p as usize] {
                    continue;
                }
                let cells = lay.place_cells[p as usize];
                if cells.iter().any(|c| last.contains(c)) {
                    continue;
                }
                taken += 1;
                last = cells;
                if taken >= quota {
                    break;
                }
            }
            if taken < quota {
                return false;
            }
        }
        true
    }

    /// Every connected component of uncovered cells joined by candidates must hold as
    /// many even as odd cells, since each piece covers one of each.
    fn colour_ok(&mut self) -> bool {
        let lay = self.lay;
        if self.stamp.len() != lay.cells {
            self.stamp = vec![0; lay.cells];
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
        let epoch = self.epoch;
        for start in 0..lay.cells {
            if self.covered[start] || self.stamp[start] == epoch {
                continue;
            }
            let mut balance: i64 = 0;
            self.stamp[start] = epoch;
            self.scratch.clear();
            self.scratch.push(start as u32);
            while let Some(x) = self.scratch.pop() {
                balance += if lay.cell_colour[x as usize] == 0 { 1 } else { -1 };
                for &p in lay.places_at(x) {
                    if !self.active[p as usize] {
                        continue;
                    }
                    let [a, b] = lay.place_cells[p as usize];
                    let y = if a == x { b } else { a };
                    if self.stamp[y as usize] != epoch {
                        self.stamp[y as usize] = epoch;
                        self.scratch.push(y);
                    }
                }
            }
            if balance != 0 {
                return false;
            }
        }
        true
    }

    fn cache_key(&self) -> Box<[u64]> {
        let mut key = Vec::with_capacity(self.covered_bits.len() + self.quota.len().div_ceil(2));
        key.extend_from_slice(&self.covered_bits);
        for pair in self.quota.chunks(2) {
            let lo = pair[0] as u32 as u64;
            let hi = pair.get(1).map_or(0, |&q| q as u32 as u64);
            key.push(lo | hi << 32);
        }
        key.into_boxed_slice()
    }

    fn remember_failure(&mut self) {
        let key = self.cache_key();
        if self.cache_words + key.len() > self.options.cache_words {
            self.cache.clear();
            self.cache_words = 0;
        }
        self.cache_words += key.len();
        self.cache.insert(key);
    }

    fn counters(&self, forced: u64) -> Counters {
        Counters {
            nodes: Some(self.nodes),
            forced: Some(forced),
            cache_hits: Some(self.cache_hits),
            ..Counters::default()
        }
    }

    /// Runs the search from the root, reporting each tiling to `sink`.
    pub fn run(
        mut self,
        budget: &Budget,
        sink: &mut dyn FnMut(&[PlacementId]) -> Control,
    ) -> Outcome {
        let lay = self.lay;
        for c in 0..lay.cells {
            if self.deg[c] <= 1 {
                self.queue.push((c as u32) << 1);
            }
        }
        for g in 0..lay.groups() {
            self.queue.push((g as u32) << 1 | 1);
        }
        let root_alive = self.settle();
        let forced = self.chosen.len() as u64;
        self.nodes = 1;
        if !root_alive {
            return Outcome {
                ending: Ending::Exhausted,
                counters: self.counters(forced),
            };
        }

        let mut found: u64 = 0;
        let mut frames: Vec<Frame> = Vec::new();
        let mut first_free: usize = 0;
        loop {
            // A settled node: all rules are at their fixed point.
            if self.uncovered == 0 {
                if self.quota.iter().all(|&q| q == 0) {
                    found += 1;
                    if sink(&self.chosen) == Control::Stop {
                        return Outcome {
                            ending: Ending::Stopped,
                            counters: self.counters(forced),
                        };
                    }
                }
            } else if self.stall_checks_pass() {
                while self.covered[first_free] {
                    first_free += 1;
                }
                let mut frame = Frame {
                    cands: [0; 4],
                    count: 0,
                    next: 0,
                    mark: self.trail.len(),
                    found_before: found,
                    cell: first_free as u32,
                };
                for &p in lay.places_at(first_free as u32) {
                    if self.active[p as usize] {
                        frame.cands[frame.count as usize] = p;
                        frame.count += 1;
                    }
                }
                frames.push(frame);
            }

            // Move to the next child: the next candidate of the deepest open frame.
            loop {
                let Some(top) = frames.last_mut() else {
                    return Outcome {
                        ending: Ending::Exhausted,
                        counters: self.counters(forced),
                    };
                };
                let (mark, cell) = (top.mark, top.cell);
                if top.next < top.count {
                    let p = top.cands[top.next as usize];
                    top.next += 1;
                    self.nodes += 1;
                    if self.nodes % DEADLINE_EVERY == 0 && budget.expired() {
                        return Outcome {
                            ending: Ending::Timeout,
                            counters: self.counters(forced),
                        };
                    }
                    self.undo_to(mark);
                    first_free = cell as usize;
                    if self.commit(p).is_ok() && self.settle() {
                        break;
                    }
                    self.queue.clear();
                } else {
                    let failed = top.found_before == found;
                    frames.pop();
                    self.undo_to(mark);
                    if failed && self.options.failure_cache {
                        self.remember_failure();
                    }
                }
            }
        }
    }

    /// The checks run when propagation stalls, before branching. A cache hit counts as
    /// a failed check: the subtree was already proved empty.
    fn stall_checks_pass(&mut self) -> bool {
        if self.options.path_capacity && !self.capacity_ok() {
            return false;
        }
        if self.options.colour_balance && !self.colour_ok() {
            return false;
        }
        if self.options.failure_cache && self.cache.contains(&self.cache_key()) {
            self.cache_hits += 1;
            return false;
        }
        true
    }
}
