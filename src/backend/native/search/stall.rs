//! The checks run when propagation stalls: line capacity, colour balance of the
//! candidate graph's components, the optional transport check, the matching filter on
//! its schedule, and the cache of subtrees proved empty.

use super::state::Search;
use crate::backend::Budget;
use crate::backend::native::layout::Layout;
use crate::backend::native::matching::{Filtered, Graph};
use crate::backend::native::proof::{Run, Trace};

/// What exploring one component of the candidate graph found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Component {
    Balanced,
    Unbalanced,
    /// Larger than the exploration limit.
    Large,
    /// Ran into a component already found large.
    SeenLarge,
}

/// What the matching filter did at a node.
pub(super) enum Filter {
    Dead,
    /// Candidates were deleted and propagated: look at the node again.
    Changed,
    Unchanged,
    /// The budget ran out (or a stop came) inside the filter: the search must end.
    Stopped,
}

/// The matching filter's work per cell of the board, in candidate updates, when it
/// passes over every cell and candidate (its first call: Hopcroft–Karp, Tarjan): a few
/// times what one trail entry costs. Later calls are priced at the mean so far.
pub(super) const MATCHING_COST_PER_CELL: u64 = 4;

impl<'a, T: Trace> Search<'a, T> {
    /// The checks run when propagation stalls, before branching, on what changed since
    /// trail position `since` (`None` at the root: everything). A cache hit counts as a
    /// failed check: the subtree was already proved empty. When the matching filter
    /// follows (`matching_follows`), the colour check is left to it: an unbalanced
    /// component has no perfect matching, and the filter finds that in the cells the
    /// change touched, where the colour check may explore two large components whole.
    pub(super) fn stall_checks_pass(
        &mut self,
        since: Option<usize>,
        matching_follows: bool,
    ) -> bool {
        // The incremental checks look only at what changed since the parent. Debug
        // builds (the tests) compare each rejection with the whole-board check: a node
        // rejected incrementally must fail from scratch too, or solutions would be lost.
        if self.options.path_capacity {
            let ok = self.capacity_ok(since.unwrap_or(0));
            debug_assert!(
                ok || !self.capacity_ok_everywhere(),
                "the incremental capacity check rejected a node the whole-board check passes"
            );
            if !ok {
                return false;
            }
        }
        if self.options.colour_balance && !matching_follows {
            let balanced = match since {
                Some(since) => self.colour_ok(since),
                None => self.colour_ok_everywhere(),
            };
            debug_assert!(
                balanced || !self.colour_ok_everywhere(),
                "the incremental colour check rejected a node the whole-board check passes"
            );
            if !balanced {
                return false;
            }
        }
        if self.options.transport && !self.transport_ok() {
            return false;
        }
        if self.options.failure_cache && self.cached_failure() {
            self.cache_hits += 1;
            return false;
        }
        if self.options.farkas_every_stall && self.farkas_refutes_here() {
            return false;
        }
        true
    }

    /// Quota on a line cannot exceed the most disjoint candidates along it. Candidates
    /// of a line group are in order and only neighbours overlap, so taking the earliest
    /// candidate that does not overlap the last one taken is optimal. Only groups that
    /// lost candidates since `since` are rechecked.
    pub(super) fn capacity_ok(&mut self, since: usize) -> bool {
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
                    self.justify_capacity(g);
                    return false;
                }
            }
        }
        true
    }

    /// Tells the trace why line group `g` cannot reach its quota.
    fn justify_capacity(&mut self, g: usize) {
        let (lay, active) = (self.lay, &self.active);
        self.trace.capacity(g as u32, || line_runs(lay, active, g));
    }

    /// The whole-board version of [`Self::capacity_ok`]: every line group.
    pub(super) fn capacity_ok_everywhere(&self) -> bool {
        (0..self.lay.groups()).all(|g| {
            let quota = self.quota[g];
            !self.lay.is_path(g)
                || quota <= 0
                || self.left[g] as i32 == quota
                || self.line_room_at_least(g, quota)
        })
    }

    pub(super) fn line_room_at_least(&self, g: usize, quota: i32) -> bool {
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
    pub(super) fn colour_ok(&mut self, since: usize) -> bool {
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
                    Component::Unbalanced => {
                        self.justify_colour();
                        return false;
                    }
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
        for start in large {
            if self.stamp[start as usize] != epoch
                && self.component_balance(start, epoch, usize::MAX) == Component::Unbalanced
            {
                self.justify_colour();
                return false;
            }
        }
        true
    }

    /// Tells the trace why the component just explored (in `scratch`) has no tiling:
    /// its cells of the more numerous colour, each covered at least once, and those of
    /// the other, each at most once, are more than its pieces can pair.
    fn justify_colour(&mut self) {
        let (lay, component) = (self.lay, &self.scratch);
        self.trace.colour_imbalance(|| {
            let (even, odd): (Vec<u32>, Vec<u32>) =
                component.iter().partition(|&&c| lay.colour(c) == 0);
            if even.len() > odd.len() {
                (even, odd)
            } else {
                (odd, even)
            }
        });
    }

    /// The whole-board version of [`Self::colour_ok`], run once at the root.
    pub(super) fn colour_ok_everywhere(&mut self) -> bool {
        let epoch = self.next_epoch();
        for c in 0..self.lay.cells as u32 {
            if !self.covered[c as usize]
                && self.stamp[c as usize] != epoch
                && self.component_balance(c, epoch, usize::MAX) == Component::Unbalanced
            {
                self.justify_colour();
                return false;
            }
        }
        true
    }

    /// Explores the component of `start`, marking its cells `epoch`. An exploration
    /// that passes `limit` cells marks what it reached `epoch + 1` instead, so a later
    /// exploration that runs into those cells knows it is in the same large component
    /// rather than stopping short of it and misjudging the balance.
    pub(super) fn component_balance(&mut self, start: u32, epoch: u32, limit: usize) -> Component {
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

    pub(super) fn transport_ok(&mut self) -> bool {
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

    /// Whether the matching filter runs at a stall with `depth` open frames above it:
    /// at every stall (`matching`), or on the work schedule of `matching_share`.
    pub(super) fn matching_due(&self, depth: usize) -> bool {
        if self.options.matching || self.failures_total >= self.options.matching_after_failures {
            return depth <= self.options.matching_depth;
        }
        if self.options.matching_share == 0 {
            return false;
        }
        let search_work = self.undone + self.trail.len() as u64;
        let cost = match self.matching_calls {
            0 => MATCHING_COST_PER_CELL * self.lay.cells as u64,
            calls => self.matching_work / calls,
        };
        (self.matching_work + cost).saturating_mul(100)
            <= u64::from(self.options.matching_share).saturating_mul(search_work)
    }

    /// Régin's filter now: deletes the candidates in no perfect matching of the
    /// uncovered cells and settles the consequences.
    pub(super) fn apply_matching(&mut self, budget: &Budget) -> Filter {
        self.matching_calls += 1;
        let stop = || budget.expired();
        let graph = Graph {
            lay: self.lay,
            active: &self.active,
            covered: &self.covered,
            trail: &self.trail,
        };
        let (outcome, work) = self.matcher.filter(
            &graph,
            self.matching_since,
            self.options.matching_region,
            &stop,
        );
        self.matching_since = self.trail.len();
        self.matching_work += work;
        match outcome {
            Filtered::Stopped => Filter::Stopped,
            Filtered::Dead => {
                let matcher = &self.matcher;
                self.trace.hall_sets(|| vec![matcher.hall_violator(&graph)]);
                Filter::Dead
            }
            Filtered::Delete(doomed) if doomed.is_empty() => Filter::Unchanged,
            Filtered::Delete(doomed) => {
                let matcher = &self.matcher;
                self.trace.hall_sets(|| matcher.tight_sets(&graph, &doomed));
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

    pub(super) fn cache_key(&self) -> Box<[u64]> {
        let mut key = Vec::with_capacity(self.covered_bits.len() + self.quota.len().div_ceil(2));
        key.extend_from_slice(&self.covered_bits);
        for pair in self.quota.chunks(2) {
            let lo = pair[0] as u32 as u64;
            let hi = pair.get(1).map_or(0, |&q| q as u32 as u64);
            key.push(lo | hi << 32);
        }
        key.into_boxed_slice()
    }

    /// Whether the current node's subproblem was proved empty before, where the trace
    /// lets the refutation count here ([`Trace::reaches`]).
    fn cached_failure(&self) -> bool {
        self.cache
            .get(&self.cache_key())
            .is_some_and(|nogood| T::reaches(nogood, &self.chosen))
    }

    /// Remembers that the current node's subproblem has no tiling, proved below
    /// `decisions`.
    pub(super) fn remember_failure(&mut self, decisions: impl FnOnce() -> Vec<u32>) {
        let key = self.cache_key();
        let nogood = self.trace.nogood(decisions);
        let words = key.len() + T::words(&nogood);
        if self.cache_words + words > self.options.cache_words {
            self.cache.clear();
            self.cache_words = 0;
        }
        self.cache_words += words;
        self.cache.insert(key, nogood);
    }
}

/// The runs of line group `g`'s live members: consecutive members overlap, and a run of
/// `k` of them covers `k + 1` cells.
fn line_runs(lay: &Layout, active: &[bool], g: usize) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut last: Option<[u32; 2]> = None;
    for &p in lay.members(g as u32) {
        if !active[p as usize] {
            continue;
        }
        let cells = lay.place_cells[p as usize];
        let joins = last.is_some_and(|l| cells.iter().any(|c| l.contains(c)));
        if !joins {
            runs.push(Run::default());
        }
        if let Some(run) = runs.last_mut() {
            for c in cells {
                if !run.cells.contains(&c) {
                    run.cells.push(c);
                }
            }
            run.members.push(p);
        }
        last = Some(cells);
    }
    runs
}
