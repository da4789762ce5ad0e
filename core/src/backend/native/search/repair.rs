//! The repair engine beside the descents, when one tiling is all that is asked (it only
//! ever answers with a tiling: uniqueness, enumeration and unsat are the descent's). On
//! boards large enough that descents run into walls it opens with `repair_opening` work
//! per open cell, and after the first restarts it gets work in proportion to the work
//! of the descents before it (trail entries they undid; for the repair, moves and the
//! cells its paths explored), keeping its tiling from one turn to the next. Both are
//! counted, not timed, so the answer is the same on every machine, and a board the
//! repair cannot finish costs the descent a bounded share.
//!
//! The share grows with the board: a descent's step costs more on a larger board (its
//! stall checks, the matching filter and the LP see more of it), a repair move's path
//! stays local. Measured: a unit of descent work takes about as long as two units of
//! repair work at 96×96 and eighty at 512×512 (BENCHMARKS.md, "Repair").

use rustc_hash::FxHashSet;

use super::state::Search;
use crate::backend::native::proof::Trace;
use crate::backend::native::repair::{Repair, Repaired, Stopped};
use crate::backend::{Budget, Control, Ending, Sink};
use crate::model::PlacementId;

/// The tilings a search has reported, each sorted.
type Reported = FxHashSet<Box<[PlacementId]>>;

/// `repair_share` is in these parts of the descents' work, per [`SHARE_CELLS`] open
/// cells of the board.
pub(super) const SHARE_UNIT: u64 = 16;

/// The board size `repair_share` is given for.
pub(super) const SHARE_CELLS: u64 = 4096;

/// When more than one tiling is asked, the repair's turns get this much less: the
/// descents must go on for the second tiling anyway wherever the windows find none,
/// and full turns that find nothing cost them (up to 1.6× on the committed workloads'
/// boards where the descents find both tilings), while a sixteenth still finds the
/// first tiling where the descents take long (BENCHMARKS.md, "Is it unique?").
pub(super) const MORE_ASKED: u64 = 16;

impl<T: Trace> Search<'_, T> {
    /// The repair's opening turn, before the first descent: `repair_opening` work per
    /// open cell. `Some` ending as for [`Self::repair_turn`].
    pub(super) fn repair_opening(
        &mut self,
        repair: &mut Option<Repair>,
        limit: usize,
        budget: &Budget,
        sink: &mut Sink,
        reported: &mut Reported,
    ) -> Option<Ending> {
        let cells = self.lay.model.covers.len() as u64;
        let work = cells.saturating_mul(self.options.repair_opening);
        if work == 0 {
            return None;
        }
        self.repair_for(repair, limit, work, budget, sink, reported)
    }

    /// The repair's turn after restart `run` (the descents undid `since` trail entries
    /// since its last turn, `limit` tilings asked): `Some` ending when it found a tiling
    /// (reported to `sink`) that ends the search, or the budget ran out during its turn.
    pub(super) fn repair_turn(
        &mut self,
        repair: &mut Option<Repair>,
        (limit, run, since): (usize, u32, u64),
        budget: &Budget,
        sink: &mut Sink,
        reported: &mut Reported,
    ) -> Option<Ending> {
        if u64::from(run) < self.options.repair_after_restarts {
            return None;
        }
        let cells = self.lay.model.covers.len() as u64;
        let work = since
            .saturating_mul(self.options.repair_share)
            .saturating_mul(cells)
            / (SHARE_UNIT * SHARE_CELLS)
            / if limit == 1 { 1 } else { MORE_ASKED };
        self.repair_for(repair, limit, work.max(1), budget, sink, reported)
    }

    /// `work` more for the repair, when the board is large enough and one tiling is all
    /// that is asked, or the search hands on the repair's tiling and it has none yet;
    /// it keeps its tiling from one turn to the next.
    fn repair_for(
        &mut self,
        repair: &mut Option<Repair>,
        limit: usize,
        work: u64,
        budget: &Budget,
        sink: &mut Sink,
        reported: &mut Reported,
    ) -> Option<Ending> {
        let model = self.lay.model;
        let asked = limit == 1 || (self.hand_on_repairs && !self.repair_finished);
        if !asked || model.covers.len() < self.options.repair_min_cells {
            return None;
        }
        if repair.is_none() {
            match Repair::new(model, self.options.seed, budget) {
                Ok(started) => *repair = Some(started?),
                Err(Stopped) => return Some(Ending::Timeout),
            }
        }
        let engine = repair.as_mut()?;
        let ran = engine.run(model, work, budget);
        self.repair_moves = engine.moves;
        match ran {
            Repaired::Solved(ids) if limit == 1 => {
                // One tiling is all that is asked: the sink's answer changes nothing.
                let _: Control = sink(&ids);
                Some(Ending::Stopped)
            }
            Repaired::Solved(ids) => {
                // More are asked: hand this one on and let the descents find the rest
                // (they pass over it when they reach it). The repair's work is done.
                self.repair_finished = true;
                *repair = None;
                let mut tiling: Box<[PlacementId]> = ids.into();
                tiling.sort_unstable();
                let control = if reported.contains(&tiling) {
                    Control::Continue
                } else {
                    let control = sink(&tiling);
                    reported.insert(tiling);
                    control
                };
                (control == Control::Stop).then_some(Ending::Stopped)
            }
            Repaired::Stopped => Some(Ending::Timeout),
            Repaired::Unsolved => None,
        }
    }
}
