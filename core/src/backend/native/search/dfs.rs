//! The depth-first search with restarts that drives propagation, the stall checks,
//! the value order and the LP schedule.

use rustc_hash::FxHashSet;

use super::jump::Wall;
use super::lp::FARKAS_MAX_CELLS;
use super::order::{Perturbation, luby};
use super::stall::{Filter, Stall};
use super::state::Search;
use super::sweep::{Sweep, Sweeps};
use crate::backend::native::proof::Trace;
use crate::backend::{Budget, Control, Ending, Outcome, Sink};
use crate::model::PlacementId;

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

/// What one descent (one restart run) is given.
#[derive(Clone, Copy)]
pub(super) struct Descent<'s> {
    /// Failures after which it restarts; `None`: never (an enumeration).
    cutoff: Option<u64>,
    /// How the value order is varied: not in the first run; in the walls' runs, as
    /// `walls_draw` says; in the others, by a swap now and then.
    perturb: Perturbation,
    /// Whether it jumps back over walls ([`super::jump`]).
    jumps: bool,
    /// The order it branches in, with its cells and each cell's position in them.
    sweep: Sweep,
    cells: &'s [u32],
    positions: &'s [u32],
}

/// The decisions on the path to the current node: the child each open frame is
/// exploring, root first.
fn decisions(frames: &[Frame]) -> Vec<u32> {
    frames
        .iter()
        .map(|f| f.cands[usize::from(f.next.saturating_sub(1))])
        .collect()
}

/// How often (in nodes) the deadline is read; a clock read costs about 20 ns.
pub(super) const DEADLINE_EVERY: u64 = 64;

impl<'a, T: Trace> Search<'a, T> {
    /// Runs the search from the root, reporting each tiling to `sink`. `limit` is the
    /// number of solutions wanted (0: all); restarts are used only when it is bounded,
    /// since an enumeration of everything gains nothing from starting over.
    pub(in crate::backend::native) fn run(
        mut self,
        limit: usize,
        budget: &Budget,
        sink: &mut Sink,
    ) -> Outcome {
        let lay = self.lay;
        let restarts = self.options.restarts && limit != 0;
        // The repair's opening comes before anything of the descent's: on the largest
        // boards the root's matching filter alone costs more than the repair's whole
        // answer (17 s against 0.6 s at 1024×1024).
        let mut repair = None;
        // Tilings reported so far (by an earlier descent, or the repair), sorted.
        let mut reported: FxHashSet<Box<[PlacementId]>> = FxHashSet::default();
        if restarts
            && let Some(ending) =
                self.repair_opening(&mut repair, limit, budget, sink, &mut reported)
        {
            return Outcome {
                ending,
                counters: self.counters(0),
            };
        }
        for c in 0..lay.cells {
            if self.deg[c] <= 1 {
                self.queue.push((c as u32) << 1);
            }
        }
        for g in 0..lay.groups() {
            self.queue.push((g as u32) << 1 | 1);
        }
        let mut root_alive = self.settle();
        if !root_alive {
            self.trace.dead_end(Vec::new);
        }
        // The matching filter once at the root, before the root is marked: what it
        // deletes stays deleted for every descent and restart. Small boards are settled
        // by the search before a whole-board pass pays. The cheap stall checks go first:
        // on boards they refute, the filter's pass doubled the time (unsat-24x24-s6604-3:
        // 0.14 ms, against 0.066 ms for native-matching, whose first stall runs them first).
        let root_filter = self.options.matching_root
            && !self.options.matching
            && lay.cells >= self.options.matching_root_min_cells;
        while root_alive && root_filter && self.uncovered > 0 {
            match self.stall_checks(None, false) {
                Stall::Dead => {
                    self.trace.dead_end(Vec::new);
                    root_alive = false;
                }
                Stall::Changed => continue,
                Stall::Holds => break,
            }
        }
        if root_alive && root_filter && self.uncovered > 0 {
            loop {
                match self.apply_matching(budget) {
                    Filter::Dead => {
                        self.trace.dead_end(Vec::new);
                        root_alive = false;
                        break;
                    }
                    Filter::Stopped => {
                        return Outcome {
                            ending: Ending::Timeout,
                            counters: self.counters(0),
                        };
                    }
                    Filter::Changed if budget.stopped() => {
                        return Outcome {
                            ending: Ending::Timeout,
                            counters: self.counters(0),
                        };
                    }
                    Filter::Changed => continue,
                    Filter::Unchanged => break,
                }
            }
        }
        let forced = self.chosen.len() as u64;
        self.nodes = 1;
        if root_alive {
            self.trace.root_settled();
        }
        let ending = if !root_alive {
            Ending::Exhausted
        } else {
            let mut run = 0u32;
            // The LP refutes the root, rebuilt from the trail when it starts, so that it
            // can start from inside a descent, which it never cuts short (a descent cut
            // for it would have to remember every tiling it reported, without bound).
            if self.options.farkas_after_failures != u64::MAX && lay.cells <= FARKAS_MAX_CELLS {
                self.mark_root_for_farkas();
            }
            let mut sweeps = Sweeps::default();
            let mut undone_seen = self.undone;
            loop {
                let cutoff = restarts.then(|| luby(run + 1) * self.options.restart_unit.max(1));
                let walls_run = u64::from(run).checked_sub(self.options.walls_after_restarts);
                let walls = walls_run.map(Sweep::of_run);
                let sweep = walls.unwrap_or(Sweep::Rows);
                let order = sweeps.order(lay, sweep);
                let descent = Descent {
                    cutoff,
                    perturb: match (run, walls_run) {
                        (0, _) => Perturbation::None,
                        (_, Some(k)) if self.options.walls_draw.proportional(k) => {
                            Perturbation::Proportional
                        }
                        _ => Perturbation::Swap,
                    },
                    jumps: walls.is_some(),
                    sweep,
                    cells: order.0,
                    positions: order.1,
                };
                match self.descend(&descent, budget, sink, &mut reported) {
                    Some(ending) => break ending,
                    None if self.farkas_refuted() => {
                        self.trace.dead_end(Vec::new);
                        break Ending::Exhausted;
                    }
                    None => {
                        run += 1;
                        self.restarts += 1;
                        let since = self.undone - undone_seen;
                        undone_seen = self.undone;
                        let turn = self.repair_turn(
                            &mut repair,
                            (limit, run, since),
                            budget,
                            sink,
                            &mut reported,
                        );
                        if let Some(ending) = turn {
                            break ending;
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
    pub(super) fn descend(
        &mut self,
        descent: &Descent,
        budget: &Budget,
        sink: &mut Sink,
        reported: &mut FxHashSet<Box<[PlacementId]>>,
    ) -> Option<Ending> {
        let lay = self.lay;
        let root = self.trail.len();
        let Descent {
            cutoff,
            perturb,
            jumps,
            sweep,
            cells: sweep_cells,
            positions,
        } = *descent;
        let restarts = cutoff.is_some();
        let mut found: u64 = 0;
        let mut failures: u64 = 0;
        let mut frames: Vec<Frame> = Vec::new();
        // Position in the sweep of the first cell that may be uncovered.
        let mut first_free: usize = 0;
        let mut wall = Wall::default();
        let (rows, cols) = (lay.model.rows, lay.model.cols);
        let line_of = |cell: u32| {
            let cover = &lay.model.covers[cell as usize];
            sweep.line(cover.row, cover.col, rows, cols)
        };
        loop {
            // A settled node: every rule is at its fixed point. The matching filter may
            // delete candidates, after which the node is settled and looked at again.
            let since = frames.last().map(|f| f.mark);
            loop {
                if self.uncovered == 0 {
                    // A tiling, or all cells covered with a quota unmet: either way a
                    // dead end for a proof (its formula rules out the one tiling it may
                    // have, and the sink refuses any other).
                    self.trace.dead_end(|| decisions(&frames));
                    if self.quota.iter().all(|&q| q == 0) {
                        found += 1;
                        self.tilings_found += 1;
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
                let matching_follows = self.matching_due(frames.len());
                // The stall checks, then the filter when due (as decided above for the
                // colour check): a dead end of either is the same dead end.
                let filtered = match self.stall_checks(since, matching_follows) {
                    Stall::Dead => Filter::Dead,
                    Stall::Changed => continue,
                    Stall::Holds if matching_follows => self.apply_matching(budget),
                    Stall::Holds => Filter::Unchanged,
                };
                match filtered {
                    Filter::Dead => {
                        self.trace.dead_end(|| decisions(&frames));
                        failures += 1;
                        self.failures_total += 1;
                        if let Some(top) = frames.last() {
                            wall.failed(line_of(top.cell));
                        }
                        break;
                    }
                    // A filter call each: a portfolio member told to stop
                    // should not finish the round.
                    Filter::Stopped => return Some(Ending::Timeout),
                    Filter::Changed if budget.stopped() => return Some(Ending::Timeout),
                    Filter::Changed => continue,
                    Filter::Unchanged => {}
                }
                while self.covered[sweep_cells[first_free] as usize] {
                    first_free += 1;
                }
                let cell = sweep_cells[first_free];
                let mut frame = Frame {
                    cands: [0; 4],
                    count: 0,
                    next: 0,
                    mark: self.trail.len(),
                    found_before: found,
                    cell,
                };
                for &p in lay.places_at(cell) {
                    if self.active[p as usize] {
                        frame.cands[frame.count as usize] = p;
                        frame.count += 1;
                    }
                }
                wall.reached(line_of(cell));
                let cands = &mut frame.cands[..usize::from(frame.count)];
                if wall.shuffling() {
                    self.shuffle(cands);
                } else {
                    self.order_values(cands, perturb);
                }
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
                    if self.nodes.is_multiple_of(DEADLINE_EVERY) {
                        if self.farkas_refuted() {
                            self.trace.dead_end(Vec::new);
                            return Some(Ending::Exhausted);
                        }
                        self.start_farkas_when_due(budget);
                    }
                    if self.nodes >= self.options.node_limit {
                        return Some(Ending::Capped);
                    }
                    self.undo_to(mark);
                    first_free = positions[cell as usize] as usize;
                    if self.commit(p).is_ok() && self.settle() {
                        break;
                    }
                    self.queue.clear();
                    self.trace.dead_end(|| decisions(&frames));
                    failures += 1;
                    self.failures_total += 1;
                    wall.failed(line_of(cell));
                } else {
                    let failed = top.found_before == found;
                    frames.pop();
                    self.undo_to(mark);
                    self.trace.dead_end(|| decisions(&frames));
                    if failed && self.options.failure_cache {
                        self.remember_failure(|| decisions(&frames));
                    }
                }
                if restarts
                    && jumps
                    && let Some(jump) = wall.due(
                        self.options.jump_failures,
                        frames.iter().map(|f| line_of(f.cell)),
                    )
                {
                    frames.truncate(jump.frame + 1);
                    let top = &mut frames[jump.frame];
                    top.next = 0;
                    self.shuffle(&mut top.cands[..usize::from(top.count)]);
                }
                // A finished search returns above; only an unfinished one restarts.
                if cutoff.is_some_and(|c| failures >= c) && !frames.is_empty() {
                    self.undo_to(root);
                    return None;
                }
            }
        }
    }
}
