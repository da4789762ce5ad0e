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

use super::farkas;
use super::flow::Transport;
use super::layout::Layout;
use super::matching::{Filtered, Matching};
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
    /// At propagation stalls, check that row and cut quotas can be met together
    /// (a bipartite flow per pair of families). Off by default: measured to cost more
    /// than it prunes on planted boards.
    pub transport: bool,
    /// Try first the candidate whose groups need the largest share of their remaining
    /// candidates; otherwise the vertical piece first.
    pub quota_ratio_order: bool,
    /// When looking for a bounded number of solutions, restart after a growing number
    /// of failures (Luby), keeping the failure cache, with a perturbed value order.
    pub restarts: bool,
    /// Failures allowed in restart run `k` are `luby(k) * restart_unit`.
    pub restart_unit: u64,
    /// Components of the candidate graph up to this many cells are explored at every
    /// node for the colour check; larger ones only when two of them changed.
    pub component_limit: usize,
    /// Most 64-bit words the failure cache may hold before it is cleared.
    pub cache_words: usize,
    /// At propagation stalls, delete candidates in no perfect matching of the
    /// uncovered cells (Régin's filter), and fail when there is no perfect matching.
    pub matching: bool,
    /// Run the matching filter only at nodes with at most this many open branching
    /// frames above them: shallow nodes root the large subtrees where a pruned
    /// candidate saves the most, and the filter costs a pass over the whole board.
    pub matching_depth: usize,
    /// When `matching` is off: run the matching filter once at the root, on boards of at
    /// least `matching_root_min_cells` cells. One pass over the board refutes there many
    /// boards that every cheap check passes.
    pub matching_root: bool,
    /// Boards with fewer open cells skip the root matching filter: a game board is
    /// decided in a few microseconds, of which the filter would take a fifth.
    pub matching_root_min_cells: usize,
    /// When `matching` is off: once the search has failed this many times (over all its
    /// descents), run the matching filter at every stall from then on; `u64::MAX`:
    /// never. A board that resists the search this long is one where the filter's
    /// deletions pay for its pass over the board (the planted 128×128 boards, the 40×40
    /// unsat boards whose LP relaxation is feasible).
    pub matching_after_failures: u64,
    /// When `matching` is off: run the matching filter at other stalls while the
    /// filter's work stays within this share of the search's (both counted in candidate updates, so the schedule is the same on
    /// every machine). 0 switches it off. The filter refutes at the root many boards
    /// that every cheap check passes, and costs a pass over the whole board, which at
    /// every node would dominate the search on large boards. In percent.
    pub matching_share: u32,
    /// Once the search has failed this many times, go back to the root and try to
    /// refute it with the LP relaxation (`farkas`), with as much time as the search has
    /// taken so far; when the LP could not finish, try again after sixteen times as many
    /// failures. `u64::MAX`: never. Boards the search finds easy never pay for the LP,
    /// and the LP never costs much more than the search around it.
    pub farkas_after_failures: u64,
    /// Try the LP refutation at every stall (for the tests: every node must agree with
    /// brute force).
    pub farkas_every_stall: bool,
    /// Stop (`capped`) after this many nodes: a bound on the work that, unlike a time
    /// limit, gives the same answer on every machine (the generator ranks boards by it).
    pub node_limit: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            failure_cache: true,
            path_capacity: true,
            colour_balance: true,
            transport: false,
            quota_ratio_order: true,
            restarts: true,
            restart_unit: 256,
            component_limit: 256,
            cache_words: 1 << 23,
            matching: false,
            matching_depth: usize::MAX,
            matching_root: true,
            matching_root_min_cells: 200,
            matching_share: 0,
            matching_after_failures: 4096,
            farkas_after_failures: 256,
            farkas_every_stall: false,
            node_limit: u64::MAX,
        }
    }
}

/// What exploring one component of the candidate graph found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Component {
    Balanced,
    Unbalanced,
    /// Larger than the exploration limit.
    Large,
    /// Ran into a component already found large.
    SeenLarge,
}

/// A contradiction: the current state has no completion.
struct Dead;

/// What the matching filter did at a node.
enum Filter {
    Dead,
    /// Candidates were deleted and propagated: look at the node again.
    Changed,
    Unchanged,
}

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
/// The matching filter's work per cell of the board, in candidate updates: it passes
/// over every cell and candidate (Hopcroft–Karp repair, Tarjan), a few times what one
/// trail entry costs.
const MATCHING_COST_PER_CELL: u64 = 4;
/// Boards larger than this (60×60) are not given to the LP: microlp needs longer than
/// the searches it would shorten (BENCHMARKS.md, the planted `huge` boards).
const FARKAS_MAX_CELLS: usize = 3600;
/// The least time an LP refutation is given, however quick the search before it: enough
/// for the LP of a 16×16 board. A floor of 0.2 s cost satisfiable 32×32–64×64 boards
/// 0.3–0.7 s each for LPs that could not refute them; one of 0.5 ms a cell did not help
/// the hard unsat boards, whose LP relaxation is feasible (BENCHMARKS.md).
const FARKAS_MIN_TIME: std::time::Duration = std::time::Duration::from_millis(20);
/// After a restart, one branching decision in this many takes the second-best value.
const PERTURB_ONE_IN: u64 = 8;

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, ...: within a constant factor of the best
/// fixed restart schedule for any unknown run-time distribution.
fn luby(mut i: u32) -> u64 {
    // Find the block of size 2^k - 1 containing i.
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < i as u64 {
            k += 1;
        }
        if (1u64 << k) - 1 == i as u64 {
            return 1 << (k - 1);
        }
        i -= ((1u64 << (k - 1)) - 1) as u32;
    }
}

pub(super) struct Search<'a> {
    lay: &'a Layout<'a>,
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
    flow: Transport,
    matcher: Matching,
    left_scratch: Vec<i32>,
    right_scratch: Vec<i32>,
    rng: u64,
    restarts: u64,
    nodes: u64,
    cache_hits: u64,
    matching_deletions: u64,
    matching_calls: u64,
    farkas_refutations: u64,
    /// The LP refutation of the root running in the background, if any.
    lp: Option<farkas::Pending>,
    /// The LP was solved and could not refute the root: it is not tried again.
    lp_settled: bool,
    /// Failures over every descent.
    failures_total: u64,
    /// Candidate updates undone so far: with the trail's length, the search's work.
    undone: u64,
    /// The matching filter's work so far, in the same unit.
    matching_work: u64,
}

impl<'a> Search<'a> {
    pub fn new(lay: &'a Layout<'a>, options: SearchOptions) -> Search<'a> {
        let places = lay.place_cells.len();
        let left = (0..lay.groups())
            .map(|g| lay.members(g as u32).len() as u32)
            .collect();
        Search {
            lay,
            options,
            active: vec![true; places],
            deg: lay
                .model
                .covers
                .iter()
                .map(|c| c.placements.len() as u8)
                .collect(),
            covered: vec![false; lay.cells],
            covered_bits: vec![0; lay.cells.div_ceil(64)],
            left,
            quota: lay.model.quotas.iter().map(|g| g.quota as i32).collect(),
            trail: Vec::with_capacity(places),
            chosen: Vec::with_capacity(lay.cells / 2),
            queue: Vec::new(),
            uncovered: lay.cells,
            stamp: Vec::new(),
            epoch: 0,
            scratch: Vec::new(),
            cache: FxHashSet::default(),
            cache_words: 0,
            flow: Transport::default(),
            matcher: Matching::default(),
            left_scratch: Vec::new(),
            right_scratch: Vec::new(),
            rng: 0x2545_F491_4F6C_DD1D,
            restarts: 0,
            nodes: 0,
            cache_hits: 0,
            matching_deletions: 0,
            matching_calls: 0,
            farkas_refutations: 0,
            lp: None,
            lp_settled: false,
            failures_total: 0,
            undone: 0,
            matching_work: 0,
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
        self.undone += self.trail.len().saturating_sub(mark) as u64;
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

    /// Placements changed since trail position `since`: the only place a stall check
    /// can find something new, since the parent node passed the same checks.
    /// A fresh stamp value, so per-node visited marks need no clearing.
    /// Epochs advance by two: `epoch + 1` marks cells of a large component.
    fn next_epoch(&mut self) -> u32 {
        let cells_or_groups = self.lay.cells.max(self.lay.groups());
        if self.stamp.len() != cells_or_groups {
            self.stamp = vec![0; cells_or_groups];
            self.epoch = 0;
        }
        if self.epoch >= u32::MAX - 3 {
            self.stamp.fill(0);
            self.epoch = 0;
        }
        self.epoch += 2;
        self.epoch
    }

    /// Quota on a line cannot exceed the most disjoint candidates along it. Candidates
    /// of a line group are in order and only neighbours overlap, so taking the earliest
    /// candidate that does not overlap the last one taken is optimal. Only groups that
    /// lost candidates since `since` are rechecked.
    fn capacity_ok(&mut self, since: usize) -> bool {
        let lay = self.lay;
        let epoch = self.next_epoch();
        for k in since..self.trail.len() {
            let p = self.trail[k] >> 1;
            for &g in lay.groups_of(p) {
                let g = g as usize;
                if self.stamp[g] == epoch {
                    continue;
                }
                self.stamp[g] = epoch;
                let quota = self.quota[g];
                if !lay.is_path(g) || quota <= 0 || self.left[g] as i32 == quota {
                    continue;
                }
                if !self.line_room_at_least(g, quota) {
                    return false;
                }
            }
        }
        true
    }

    fn line_room_at_least(&self, g: usize, quota: i32) -> bool {
        let lay = self.lay;
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
                return true;
            }
        }
        false
    }

    /// Every connected component of uncovered cells joined by candidates must hold as
    /// many even as odd cells, since each piece covers one of each.
    ///
    /// Only components next to cells that changed since `since` can have changed; the
    /// others passed at the parent. Uncovered cells as a whole always balance (each
    /// committed piece takes one cell of each colour), so if every component but one
    /// is balanced, that one is too. Hence each changed component is explored only up
    /// to `component_limit` cells, and only when two or more are larger than that is
    /// any explored in full. Near a row-by-row frontier this keeps the check local.
    fn colour_ok(&mut self, since: usize) -> bool {
        let lay = self.lay;
        let epoch = self.next_epoch();
        let mut large: Vec<u32> = Vec::new();
        for k in since..self.trail.len() {
            let p = self.trail[k] >> 1;
            for start in lay.place_cells[p as usize] {
                let stamp = self.stamp[start as usize];
                if self.covered[start as usize] || stamp == epoch || stamp == epoch + 1 {
                    continue;
                }
                match self.component_balance(start, epoch, self.options.component_limit) {
                    Component::Unbalanced => return false,
                    Component::Balanced | Component::SeenLarge => {}
                    Component::Large => large.push(start),
                }
            }
        }
        if large.len() < 2 {
            return true;
        }
        // Two large explorations that did not meet: settle them in full.
        let epoch = self.next_epoch();
        large.into_iter().all(|start| {
            self.stamp[start as usize] == epoch
                || self.component_balance(start, epoch, usize::MAX) != Component::Unbalanced
        })
    }

    /// The whole-board version of [`Self::colour_ok`], run once at the root.
    fn colour_ok_everywhere(&mut self) -> bool {
        let epoch = self.next_epoch();
        (0..self.lay.cells as u32).all(|c| {
            self.covered[c as usize]
                || self.stamp[c as usize] == epoch
                || self.component_balance(c, epoch, usize::MAX) != Component::Unbalanced
        })
    }

    /// Explores the component of `start`, marking its cells `epoch`. An exploration
    /// that passes `limit` cells marks what it reached `epoch + 1` instead, so a later
    /// exploration that runs into those cells knows it is in the same large component
    /// rather than stopping short of it and misjudging the balance.
    fn component_balance(&mut self, start: u32, epoch: u32, limit: usize) -> Component {
        let lay = self.lay;
        let large_mark = epoch + 1;
        let mut balance: i64 = 0;
        let mut explored = 0usize;
        let mut outcome = None;
        self.stamp[start as usize] = epoch;
        self.scratch.clear();
        self.scratch.push(start);
        'explore: while explored < self.scratch.len() {
            let x = self.scratch[explored];
            explored += 1;
            if explored > limit {
                outcome = Some(Component::Large);
                break;
            }
            balance += if lay.colour(x) == 0 { 1 } else { -1 };
            for &p in lay.places_at(x) {
                if !self.active[p as usize] {
                    continue;
                }
                let [a, b] = lay.place_cells[p as usize];
                let y = if a == x { b } else { a };
                let stamp = self.stamp[y as usize];
                if stamp == large_mark {
                    outcome = Some(Component::SeenLarge);
                    break 'explore;
                }
                if stamp != epoch {
                    self.stamp[y as usize] = epoch;
                    self.scratch.push(y);
                }
            }
        }
        match outcome {
            Some(large) => {
                for &c in &self.scratch {
                    self.stamp[c as usize] = large_mark;
                }
                large
            }
            None if balance == 0 => Component::Balanced,
            None => Component::Unbalanced,
        }
    }

    fn transport_ok(&mut self) -> bool {
        let lay = self.lay;
        for pairing in &lay.pairings {
            self.left_scratch.clear();
            self.left_scratch
                .extend(pairing.left_groups.iter().map(|&g| self.quota[g as usize]));
            self.right_scratch.clear();
            self.right_scratch
                .extend(pairing.right_groups.iter().map(|&g| self.quota[g as usize]));
            let active = &self.active;
            let edges = pairing
                .edges
                .iter()
                .filter(|e| active[e.0 as usize])
                .map(|&(_, l, r)| (l, r));
            if !self
                .flow
                .feasible(&self.left_scratch, &self.right_scratch, edges)
            {
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
            restarts: Some(self.restarts),
            filtered: (self.matching_calls > 0).then_some(self.matching_deletions),
            refuted: (self.farkas_refutations > 0).then_some(self.farkas_refutations),
            ..Counters::default()
        }
    }

    /// Runs the search from the root, reporting each tiling to `sink`. `limit` is the
    /// number of solutions wanted (0: all); restarts are used only when it is bounded,
    /// since an enumeration of everything gains nothing from starting over.
    pub fn run(
        mut self,
        limit: usize,
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
        let mut root_alive = self.settle();
        // The matching filter once at the root, before the root is marked: what it
        // deletes stays deleted for every descent and restart. Small boards are settled
        // by the search before a whole-board pass pays.
        if root_alive
            && self.options.matching_root
            && !self.options.matching
            && self.uncovered > 0
            && lay.cells >= self.options.matching_root_min_cells
        {
            loop {
                match self.apply_matching() {
                    Filter::Dead => {
                        root_alive = false;
                        break;
                    }
                    Filter::Changed => continue,
                    Filter::Unchanged => break,
                }
            }
        }
        let forced = self.chosen.len() as u64;
        self.nodes = 1;
        let ending = if !root_alive {
            Ending::Exhausted
        } else {
            let restarts = self.options.restarts && limit != 0;
            let mut reported: FxHashSet<Box<[PlacementId]>> = FxHashSet::default();
            let mut run = 0u32;
            // Only the LP schedule reads the clock (a few nanoseconds a board count).
            let started =
                (self.options.farkas_after_failures != u64::MAX).then(std::time::Instant::now);
            // Failures so far, and at how many the LP is tried next (None: settled).
            let mut failures_so_far: u64 = 0;
            let mut farkas_at = (self.options.farkas_after_failures != u64::MAX
                && lay.cells <= FARKAS_MAX_CELLS)
                .then_some(self.options.farkas_after_failures);
            let mut checkpoints = 0u32;
            loop {
                let luby_cut = restarts.then(|| luby(run + 1) * self.options.restart_unit.max(1));
                let farkas_cut = farkas_at.map(|at| at.saturating_sub(failures_so_far).max(1));
                let cutoff = match (luby_cut, farkas_cut) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                let perturb = run > 0 || checkpoints > 0;
                match self.descend(cutoff, perturb, budget, sink, &mut reported) {
                    Some(ending) => break ending,
                    None => {
                        failures_so_far += cutoff.unwrap_or(0);
                        let due = farkas_at.is_some_and(|at| failures_so_far >= at);
                        if due {
                            // The checkpoints come at fixed failure counts whatever the
                            // LP says, so that the search's path (and its node counts)
                            // does not depend on how fast the LP ran on this machine.
                            checkpoints += 1;
                            farkas_at = farkas_at.map(|at| at.saturating_mul(16));
                        }
                        if self.farkas_refuted() {
                            break Ending::Exhausted;
                        }
                        if due && !self.lp_settled && self.lp.is_none() && reported.is_empty() {
                            // Back at the root: a board that resists the search may
                            // have no fractional solution at all. The LP runs beside
                            // the search, which goes on and never waits for it.
                            let allowed = started
                                .map_or(FARKAS_MIN_TIME, |s| s.elapsed().max(FARKAS_MIN_TIME));
                            self.start_farkas(budget, allowed);
                        }
                        if luby_cut.is_some_and(|c| Some(c) == cutoff) {
                            run += 1;
                            self.restarts += 1;
                        }
                    }
                }
            }
        };
        Outcome {
            ending,
            counters: self.counters(forced),
        }
    }

    /// One depth-first search from the (settled) root. Returns `None` when `cutoff`
    /// failures were reached, with the state back at the root; solutions already in
    /// `reported` (found by an earlier run) are not reported again.
    fn descend(
        &mut self,
        cutoff: Option<u64>,
        perturb: bool,
        budget: &Budget,
        sink: &mut dyn FnMut(&[PlacementId]) -> Control,
        reported: &mut FxHashSet<Box<[PlacementId]>>,
    ) -> Option<Ending> {
        let lay = self.lay;
        let root = self.trail.len();
        let restarts = cutoff.is_some();
        let mut found: u64 = 0;
        let mut failures: u64 = 0;
        let mut frames: Vec<Frame> = Vec::new();
        let mut first_free: usize = 0;
        loop {
            // A settled node: every rule is at its fixed point. The matching filter may
            // delete candidates, after which the node is settled and looked at again.
            let since = frames.last().map(|f| f.mark);
            loop {
                if self.uncovered == 0 {
                    if self.quota.iter().all(|&q| q == 0) {
                        found += 1;
                        let control = if restarts || !reported.is_empty() {
                            // A later run may reach a tiling an earlier run reported.
                            let mut tiling: Box<[PlacementId]> = self.chosen.clone().into();
                            tiling.sort_unstable();
                            if reported.contains(&tiling) {
                                Control::Continue
                            } else {
                                let control = sink(&tiling);
                                reported.insert(tiling);
                                control
                            }
                        } else {
                            sink(&self.chosen)
                        };
                        if control == Control::Stop {
                            return Some(Ending::Stopped);
                        }
                    }
                    break;
                }
                if !self.stall_checks_pass(since) {
                    failures += 1;
                    self.failures_total += 1;
                    break;
                }
                match self.matching_filter(frames.len()) {
                    Filter::Dead => {
                        failures += 1;
                        self.failures_total += 1;
                        break;
                    }
                    Filter::Changed => continue,
                    Filter::Unchanged => {}
                }
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
                self.order_values(&mut frame, perturb);
                frames.push(frame);
                break;
            }

            // Move to the next child: the next candidate of the deepest open frame.
            loop {
                let Some(top) = frames.last_mut() else {
                    return Some(Ending::Exhausted);
                };
                let (mark, cell) = (top.mark, top.cell);
                if top.next < top.count {
                    let p = top.cands[top.next as usize];
                    top.next += 1;
                    self.nodes += 1;
                    if budget.stopped()
                        || (self.nodes.is_multiple_of(DEADLINE_EVERY) && budget.expired())
                    {
                        return Some(Ending::Timeout);
                    }
                    if self.nodes.is_multiple_of(DEADLINE_EVERY) && self.farkas_refuted() {
                        return Some(Ending::Exhausted);
                    }
                    if self.nodes >= self.options.node_limit {
                        return Some(Ending::Capped);
                    }
                    self.undo_to(mark);
                    first_free = cell as usize;
                    if self.commit(p).is_ok() && self.settle() {
                        break;
                    }
                    self.queue.clear();
                    failures += 1;
                    self.failures_total += 1;
                } else {
                    let failed = top.found_before == found;
                    frames.pop();
                    self.undo_to(mark);
                    if failed && self.options.failure_cache {
                        self.remember_failure();
                    }
                }
                // A finished search returns above; only an unfinished one restarts.
                if cutoff.is_some_and(|c| failures >= c) && !frames.is_empty() {
                    self.undo_to(root);
                    return None;
                }
            }
        }
    }

    /// Value order at a branching cell. With `quota_ratio_order`, candidates whose
    /// groups still need a larger share of their candidates go first: on planted boards
    /// that is what keeps column quotas reachable as the search moves down. After a
    /// restart the order of two candidates is swapped now and then, so that the runs
    /// explore different parts of the tree.
    fn order_values(&mut self, frame: &mut Frame, perturb: bool) {
        if !self.options.quota_ratio_order || frame.count < 2 {
            return;
        }
        let lay = self.lay;
        let mut scored: [(f64, u32); 4] = [(0.0, 0); 4];
        for k in 0..frame.count as usize {
            let p = frame.cands[k];
            let share = lay
                .groups_of(p)
                .iter()
                .map(|&g| self.quota[g as usize] as f64 / self.left[g as usize].max(1) as f64)
                .product::<f64>();
            scored[k] = (share, p);
        }
        let scored = &mut scored[..frame.count as usize];
        // Stable on ties, so the board's own order decides them.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        if perturb && self.next_random().is_multiple_of(PERTURB_ONE_IN) {
            scored.swap(0, 1);
        }
        for (k, &(_, p)) in scored.iter().enumerate() {
            frame.cands[k] = p;
        }
    }

    /// xorshift64: cheap, and seeded by a constant so runs are reproducible.
    fn next_random(&mut self) -> u64 {
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        x
    }

    /// Whether the matching filter runs at a stall with `depth` open frames above it:
    /// at every stall (`matching`), or on the work schedule of `matching_share`.
    fn matching_due(&self, depth: usize) -> bool {
        if self.options.matching || self.failures_total >= self.options.matching_after_failures {
            return depth <= self.options.matching_depth;
        }
        if self.options.matching_share == 0 {
            return false;
        }
        let search_work = self.undone + self.trail.len() as u64;
        let cost = MATCHING_COST_PER_CELL * self.lay.cells as u64;
        (self.matching_work + cost).saturating_mul(100)
            <= u64::from(self.options.matching_share).saturating_mul(search_work)
    }

    /// Régin's filter when it is due: deletes the candidates in no perfect matching of
    /// the uncovered cells and settles the consequences.
    fn matching_filter(&mut self, depth: usize) -> Filter {
        if !self.matching_due(depth) {
            return Filter::Unchanged;
        }
        self.apply_matching()
    }

    /// Régin's filter now: deletes the candidates in no perfect matching of the
    /// uncovered cells and settles the consequences.
    fn apply_matching(&mut self) -> Filter {
        self.matching_calls += 1;
        self.matching_work += MATCHING_COST_PER_CELL * self.lay.cells as u64;
        match self.matcher.filter(self.lay, &self.active, &self.covered) {
            Filtered::Dead => Filter::Dead,
            Filtered::Delete(doomed) if doomed.is_empty() => Filter::Unchanged,
            Filtered::Delete(doomed) => {
                self.matching_deletions += doomed.len() as u64;
                for p in doomed {
                    if self.active[p as usize] && self.delete(p).is_err() {
                        self.queue.clear();
                        return Filter::Dead;
                    }
                }
                if self.settle() {
                    Filter::Changed
                } else {
                    Filter::Dead
                }
            }
        }
    }

    /// The checks run when propagation stalls, before branching, on what changed since
    /// trail position `since` (`None` at the root: everything). A cache hit counts as a
    /// failed check: the subtree was already proved empty.
    fn stall_checks_pass(&mut self, since: Option<usize>) -> bool {
        if self.options.path_capacity && !self.capacity_ok(since.unwrap_or(0)) {
            return false;
        }
        if self.options.colour_balance {
            let balanced = match since {
                Some(since) => self.colour_ok(since),
                None => self.colour_ok_everywhere(),
            };

            if !balanced {
                return false;
            }
        }
        if self.options.transport && !self.transport_ok() {
            return false;
        }
        if self.options.failure_cache && self.cache.contains(&self.cache_key()) {
            self.cache_hits += 1;
            return false;
        }
        if self.options.farkas_every_stall && self.farkas_refutes_here() {
            return false;
        }
        true
    }

    /// The current (settled) node as the LP reads it.
    fn farkas_node(&self) -> farkas::Node<'_> {
        farkas::Node {
            active: &self.active,
            covered: &self.covered,
            quota: &self.quota,
        }
    }

    /// The LP refutation of the current node, waited for (the tests' every-stall mode).
    fn farkas_refutes_here(&mut self) -> bool {
        let refuted =
            farkas::refute(self.lay, &self.farkas_node(), None) == farkas::Verdict::Refuted;
        self.farkas_refutations += u64::from(refuted);
        refuted
    }

    /// Starts the LP refutation of the root (the search is back at the root) in the
    /// background, for at most `allowed` and the time left.
    fn start_farkas(&mut self, budget: &Budget, allowed: std::time::Duration) {
        let time_left = budget
            .deadline
            .map(|d| d.saturating_duration_since(std::time::Instant::now()));
        let limit = match time_left {
            Some(left) => Some(left.min(allowed)),
            None => Some(allowed),
        };
        self.lp = farkas::start(self.lay, &self.farkas_node(), limit);
    }

    /// Whether the background LP has refuted the root; takes note of any other answer.
    fn farkas_refuted(&mut self) -> bool {
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

#[cfg(test)]
mod tests {
    use super::{Search, SearchOptions, farkas, luby};
    use crate::backend::native::layout::Layout;
    use crate::model::{Families, compile};

    /// The background LP refutes, at the root, a committed board that every cheap check
    /// passes (the search alone needs hundreds of failures for it), and its verdict is
    /// read back by polling as the search does.
    #[test]
    fn background_lp_refutes_a_hard_board_at_the_root() {
        let instances = crate::puzzle::parse::read_instances(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/models/unsat-hard.jsonl"
        ))
        .unwrap();
        let instance = instances
            .iter()
            .find(|i| i.name == "unsat-16x16-s6605-4")
            .unwrap();
        let model = compile(instance, Families::Colour);
        assert!(model.infeasible.is_none());
        let layout = Layout::new(&model, false);
        let mut search = Search::new(&layout, SearchOptions::default());
        for c in 0..layout.cells {
            search.queue.push((c as u32) << 1);
        }
        for g in 0..layout.groups() {
            search.queue.push((g as u32) << 1 | 1);
        }
        assert!(search.settle(), "propagation alone refutes it");
        // Another test's LP may hold the one LP slot for a moment.
        farkas::wait_for_abandoned_lp();
        search.start_farkas(&crate::backend::Budget::default(), std::time::Duration::MAX);
        assert!(search.lp.is_some());
        let mut refuted = false;
        while search.lp.is_some() {
            refuted = search.farkas_refuted();
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert!(refuted);
        assert_eq!(search.farkas_refutations, 1);
    }

    #[test]
    fn luby_sequence() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
