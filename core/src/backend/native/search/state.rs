//! The search's state: which placements are still candidates, which cells are covered,
//! per group its live members and residual quota; the trail that undoes every change;
//! and the propagation rules, run to a fixed point through a work queue.

use super::cache::FailureCache;
use super::checks::Propagators;
use super::matching::MatchingFilter;
use super::options::SearchOptions;
use super::propagator::Dead;
use crate::backend::Counters;
use crate::backend::native::farkas;
use crate::backend::native::layout::Layout;
use crate::backend::native::proof::{Trace, Unlogged};
use crate::model::PlacementId;

pub(in crate::backend::native) struct Search<'a, T: Trace = Unlogged> {
    pub(super) lay: &'a Layout<'a>,
    pub(super) options: SearchOptions,
    pub(super) active: Vec<bool>,
    pub(super) deg: Vec<u8>,
    pub(super) covered: Vec<bool>,
    pub(super) covered_bits: Vec<u64>,
    pub(super) left: Vec<u32>,
    pub(super) quota: Vec<i32>,
    /// `p << 1` for a deletion, `p << 1 | 1` for a commit.
    pub(super) trail: Vec<u32>,
    pub(super) chosen: Vec<PlacementId>,
    /// `c << 1` for a cell to look at, `g << 1 | 1` for a group.
    pub(super) queue: Vec<u32>,
    pub(super) uncovered: usize,
    /// The propagators behind the seam (`propagator.rs`), each with its own state.
    pub(super) propagators: Propagators,
    pub(super) cache: FailureCache<T>,
    /// Régin's matching filter, behind the propagators' seam, on a schedule of its own.
    pub(super) matching: MatchingFilter,
    pub(super) rng: u64,
    pub(super) restarts: u64,
    pub(super) nodes: u64,
    pub(super) cache_hits: u64,
    pub(super) farkas_refutations: u64,
    /// Moves the repair engine made between descents (`search/repair.rs`).
    pub(super) repair_moves: u64,
    /// Whether a tiling the repair finds is handed on when more than one is asked
    /// ([`Search::handing_on_repairs`]).
    pub(super) hand_on_repairs: bool,
    /// The repair handed on its tiling: its work is done.
    pub(super) repair_finished: bool,
    /// The LP refutation of the root running in the background, if any.
    pub(super) lp: Option<farkas::Pending>,
    /// The LP was solved and could not refute the root: it is not tried again.
    pub(super) lp_settled: bool,
    /// Trail length at the settled root, which the LP refutes (when the LP is on for
    /// this board).
    pub(super) lp_root_mark: Option<usize>,
    /// Failures after which the LP is started next (`u64::MAX`: never again).
    pub(super) lp_due_at: u64,
    /// Tilings reached so far, over all descents.
    pub(super) tilings_found: u64,
    /// Failures over every descent.
    pub(super) failures_total: u64,
    /// Candidate updates undone so far: with the trail's length, the search's work.
    pub(super) undone: u64,
    /// Where the reasoning goes: nowhere, or to a proof logger (`--certify`).
    pub(super) trace: T,
}

impl<'a> Search<'a> {
    /// The search with no proof logged.
    pub(in crate::backend::native) fn new(
        lay: &'a Layout<'a>,
        options: SearchOptions,
    ) -> Search<'a> {
        Search::traced(lay, options, Unlogged)
    }

    /// The search that lets the repair take turns when more than one tiling is asked
    /// too: the first tiling it finds goes to the sink (where windows may make more of
    /// it, `native::retile`) and the descents go on for the rest, never reporting it
    /// again. Only unlogged: a proof's search reports what its descents reach.
    pub(in crate::backend::native) fn handing_on_repairs(mut self) -> Search<'a> {
        self.hand_on_repairs = true;
        self
    }
}

impl<'a, T: Trace> Search<'a, T> {
    /// The search, telling `trace` its reasoning (every check it runs gives one).
    pub(in crate::backend::native) fn traced(
        lay: &'a Layout<'a>,
        options: SearchOptions,
        trace: T,
    ) -> Search<'a, T> {
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
            propagators: Propagators::new(&options),
            cache: FailureCache::new(options.cache_words),
            matching: MatchingFilter::new(options.matching_region),
            rng: options.seed.max(1),
            restarts: 0,
            nodes: 0,
            cache_hits: 0,
            farkas_refutations: 0,
            repair_moves: 0,
            hand_on_repairs: false,
            repair_finished: false,
            lp: None,
            lp_settled: false,
            lp_root_mark: None,
            lp_due_at: u64::MAX,
            tilings_found: 0,
            failures_total: 0,
            undone: 0,
            trace,
        }
    }

    #[inline]
    pub(super) fn delete(&mut self, p: u32) -> Result<(), Dead> {
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
        if alive {
            Ok(())
        } else {
            Err(Dead::BY_PROPAGATION)
        }
    }

    #[inline]
    pub(super) fn commit(&mut self, p: u32) -> Result<(), Dead> {
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
            return Err(Dead::BY_PROPAGATION);
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

    pub(super) fn undo_to(&mut self, mark: usize) {
        let lay = self.lay;
        self.undone += self.trail.len().saturating_sub(mark) as u64;
        self.matching.rewind(mark);
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
        #[cfg(debug_assertions)]
        self.check_counters();
    }

    /// Recounts every counter from the candidates and the chosen pieces and compares:
    /// the incremental updates of `delete`, `commit` and `undo_to` against their
    /// from-scratch meaning. Debug builds (the tests) only; boards up to 400 cells, so
    /// that the tests' large boards stay quick.
    #[cfg(debug_assertions)]
    pub(super) fn check_counters(&self) {
        let lay = self.lay;
        if lay.cells > 400 {
            return;
        }
        let mut covered = vec![false; lay.cells];
        let mut quota: Vec<i32> = lay.model.quotas.iter().map(|g| g.quota as i32).collect();
        for &p in &self.chosen {
            for c in lay.place_cells[p as usize] {
                assert!(!covered[c as usize], "cell {c} covered twice");
                covered[c as usize] = true;
            }
            for &g in lay.groups_of(p) {
                quota[g as usize] -= 1;
            }
        }
        assert_eq!(covered, self.covered, "covered cells");
        assert_eq!(quota, self.quota, "residual quotas");
        assert_eq!(
            self.uncovered,
            covered.iter().filter(|&&c| !c).count(),
            "uncovered count"
        );
        for c in 0..lay.cells {
            let live = lay
                .places_at(c as u32)
                .iter()
                .filter(|&&p| self.active[p as usize])
                .count();
            assert_eq!(usize::from(self.deg[c]), live, "candidates at cell {c}");
            let bit = self.covered_bits[c / 64] >> (c % 64) & 1 == 1;
            assert_eq!(bit, covered[c], "covered bit of cell {c}");
        }
        for g in 0..lay.groups() {
            let live = lay
                .members(g as u32)
                .iter()
                .filter(|&&p| self.active[p as usize])
                .count();
            assert_eq!(self.left[g] as usize, live, "live members of group {g}");
        }
    }

    /// Applies the queued rules to a fixed point.
    pub(super) fn propagate(&mut self) -> Result<(), Dead> {
        let lay = self.lay;
        while let Some(item) = self.queue.pop() {
            let index = item >> 1;
            if item & 1 == 0 {
                if self.covered[index as usize] {
                    continue;
                }
                match self.deg[index as usize] {
                    0 => return Err(Dead::BY_PROPAGATION),
                    1 => {
                        let forced = lay
                            .places_at(index)
                            .iter()
                            .copied()
                            .find(|&p| self.active[p as usize]);
                        match forced {
                            Some(p) => self.commit(p)?,
                            None => return Err(Dead::BY_PROPAGATION),
                        }
                    }
                    _ => {}
                }
            } else {
                let g = index as usize;
                let quota = self.quota[g];
                let left = self.left[g] as i32;
                if quota < 0 || left < quota {
                    return Err(Dead::BY_PROPAGATION);
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
    pub(super) fn settle(&mut self) -> bool {
        if self.propagate().is_ok() {
            true
        } else {
            self.queue.clear();
            false
        }
    }

    pub(super) fn counters(&self, forced: u64) -> Counters {
        Counters {
            nodes: Some(self.nodes),
            forced: Some(forced),
            cache_hits: Some(self.cache_hits),
            restarts: Some(self.restarts),
            filtered: (self.matching.calls > 0).then_some(self.matching.removed),
            refuted: (self.farkas_refutations > 0).then_some(self.farkas_refutations),
            moves: (self.repair_moves > 0).then_some(self.repair_moves),
            ..Counters::default()
        }
    }
}
