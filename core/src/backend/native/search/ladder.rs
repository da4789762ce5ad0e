//! The deduction ladder: the search's own rules, one rung at a time, as a player
//! would apply them, without branching. Each rung is sound (it only places pieces
//! every tiling has and rules out pieces no tiling has), so a board the ladder
//! completes has exactly that tiling; and each rung includes the ones below it, so a
//! board solved at one rung is solved at every stronger one.
//!
//! The climb always tries the weakest rung first and goes back to the bottom after
//! any progress, the way a solver of paper puzzles returns to easy steps as soon as a
//! hard one opens the board. Rungs (`ladder::Rung` for the names a player reads):
//!
//! 1. singles: unit propagation over the covers and the quotas clue inversion gives
//!    (the model without colour splits);
//! 2. colours: the same over the checkerboard colour splits too;
//! 3. pairs: Régin's matching filter (a piece that no pairing of the open cells
//!    uses is out);
//! 4. trial: one piece placed for argument's sake, followed by rungs 1 to 3 and the
//!    stall checks (line capacity, colour balance); a contradiction rules it out.

use super::options::SearchOptions;
use super::propagator::Verdict;
use super::state::Search;
use crate::backend::Budget;
use crate::backend::native::ladder::{Climb, Rung, StepCount, Trial};
use crate::backend::native::layout::Layout;
use crate::model::Model;

/// What is known of each placement: placed, ruled out, or open.
type Known = Vec<Option<bool>>;

/// One model's search, settled from what is known.
struct Rules<'a> {
    search: Search<'a>,
}

impl<'a> Rules<'a> {
    /// The search over `lay` with `known` applied and propagated; `None` on a
    /// contradiction.
    fn settled(lay: &'a Layout<'a>, known: &Known) -> Option<Rules<'a>> {
        let options = SearchOptions {
            small_boards: false,
            matching_root: false,
            farkas_after_failures: u64::MAX,
            ..SearchOptions::default()
        };
        let mut search = Search::new(lay, options);
        for c in 0..lay.cells {
            search.queue.push((c as u32) << 1);
        }
        for g in 0..lay.groups() {
            search.queue.push((g as u32) << 1 | 1);
        }
        if !search.settle() {
            return None;
        }
        for (p, value) in known.iter().enumerate() {
            let p = p as u32;
            if !search.active[p as usize] {
                // Already decided by propagation: it must agree.
                continue;
            }
            let done = match value {
                Some(true) => search.commit(p),
                Some(false) => search.delete(p),
                None => Ok(()),
            };
            if done.is_err() || !search.settle() {
                return None;
            }
        }
        Some(Rules { search })
    }

    /// What the search knows now.
    fn known(&self) -> Known {
        let mut known: Known = self
            .search
            .active
            .iter()
            .map(|&a| if a { None } else { Some(false) })
            .collect();
        for &p in &self.search.chosen {
            known[p as usize] = Some(true);
        }
        known
    }

    /// Régin's filter to its fixed point: `Some(false)` on a contradiction, `None` when
    /// `budget` stopped it (never a contradiction: nothing was shown).
    fn pairs(&mut self, budget: &Budget) -> Option<bool> {
        use super::stall::Filter;
        loop {
            match self.search.apply_matching(budget) {
                Filter::Stopped => return None,
                Filter::Dead => return Some(false),
                Filter::Changed => {}
                Filter::Unchanged => return Some(true),
            }
        }
    }

    /// Whether the stall checks (line capacity, colour balance) pass the node, the
    /// candidates they remove deleted and settled (then the checks run again), as the
    /// search does.
    fn checks_pass(&mut self, since: usize) -> bool {
        loop {
            let search = &mut self.search;
            let node = node!(search);
            match (search.propagators).check(&node, Some(since), false, &mut search.trace) {
                Err(_) => return false,
                Ok(Verdict::Removes(removed)) => {
                    if !search.delete_all(&removed) {
                        return false;
                    }
                }
                Ok(Verdict::Holds | Verdict::Stopped) => return true,
            }
        }
    }
}

/// The two models the rungs read: without the colour splits (`plain`) and with
/// (`coloured`); their placements are the same, in the same order.
/// `budget` is looked at before each rung and between trials; a climb it stops is
/// marked `stopped`, with what it had decided so far.
pub(in crate::backend::native) fn climb(
    plain: &Model,
    coloured: &Model,
    top: Rung,
    budget: &Budget,
) -> Climb {
    let plain_lay = Layout::new(plain, false);
    let coloured_lay = Layout::new(coloured, false);
    let mut known: Known = vec![None; plain.placements.len()];
    let mut climb = Climb::default();
    'climb: loop {
        for rung in Rung::ALL.into_iter().filter(|&r| r <= top) {
            if budget.expired() {
                climb.stopped = true;
                break 'climb;
            }
            let before = known.clone();
            let round = match rung {
                Rung::Singles => Round::settled(Rules::settled(&plain_lay, &known)),
                Rung::Colours => Round::settled(Rules::settled(&coloured_lay, &known)),
                Rung::Pairs => match Rules::settled(&coloured_lay, &known) {
                    None => Round::Contradiction,
                    Some(mut rules) => match rules.pairs(budget) {
                        None => Round::Stopped,
                        Some(false) => Round::Contradiction,
                        Some(true) => Round::Done(rules.known()),
                    },
                },
                Rung::Trial => trial(&coloured_lay, &known, budget),
            };
            let next = match round {
                Round::Done(next) => next,
                Round::Stopped => {
                    climb.stopped = true;
                    break 'climb;
                }
                Round::Contradiction => {
                    climb.contradiction = Some(rung);
                    break 'climb;
                }
            };
            let progress = climb.count(rung, &before, &next);
            known = next;
            if known.iter().all(Option::is_some) {
                climb.solved = true;
                break 'climb;
            }
            if progress {
                continue 'climb;
            }
        }
        break;
    }
    climb.placed = (0..known.len() as u32)
        .filter(|&p| known[p as usize] == Some(true))
        .collect();
    climb.ruled_out = (0..known.len() as u32)
        .filter(|&p| known[p as usize] == Some(false))
        .collect();
    climb
}

/// The pieces the trial rung rules out from `known` (a placement's `Some(true)`,
/// `Some(false)` or open `None`, over `coloured`'s placements), found as the climb's
/// trial finds them: so a walkthrough that takes one of them at a time agrees with the
/// climb.
pub(in crate::backend::native) fn trial_refutes(
    coloured: &Model,
    known: &[Option<bool>],
    budget: &Budget,
) -> Trial {
    let lay = Layout::new(coloured, false);
    let known: Known = known.to_vec();
    match trial(&lay, &known, budget) {
        Round::Stopped => Trial::Stopped,
        Round::Contradiction => Trial::Contradiction,
        Round::Done(next) => Trial::Refuted(
            (0..known.len() as u32)
                .filter(|&p| known[p as usize].is_none() && next[p as usize] == Some(false))
                .collect(),
        ),
    }
}

/// What one application of a rung found.
enum Round {
    /// What is known after it.
    Done(Known),
    /// The board has no tiling with what is known.
    Contradiction,
    /// The budget ran out (Ctrl-C, the time limit): nothing is shown either way.
    Stopped,
}

impl Round {
    /// A propagated search's knowledge, or the contradiction propagation found.
    fn settled(rules: Option<Rules>) -> Round {
        rules.map_or(Round::Contradiction, |r| Round::Done(r.known()))
    }
}

/// Rung 4: each open piece placed in turn, followed by rungs 1 to 3 and the stall
/// checks; those that lead to a contradiction are ruled out (all at once: each
/// conclusion holds on its own).
fn trial(lay: &Layout, known: &Known, budget: &Budget) -> Round {
    let Some(mut rules) = Rules::settled(lay, known) else {
        return Round::Contradiction;
    };
    match rules.pairs(budget) {
        None => return Round::Stopped,
        Some(false) => return Round::Contradiction,
        Some(true) => {}
    }
    let mut next = rules.known();
    let open: Vec<u32> = (0..next.len() as u32)
        .filter(|&p| next[p as usize].is_none())
        .collect();
    for p in open {
        if budget.expired() {
            return Round::Stopped;
        }
        let mark = rules.search.trail.len();
        let placed = rules.search.commit(p).is_ok() && rules.search.settle();
        let survives = placed
            && rules.checks_pass(mark)
            && match rules.pairs(budget) {
                None => return Round::Stopped,
                Some(alive) => alive,
            }
            && rules.checks_pass(mark);
        if !survives {
            rules.search.queue.clear();
            next[p as usize] = Some(false);
        }
        rules.search.undo_to(mark);
    }
    Round::Done(next)
}

impl Climb {
    /// Counts what `rung` decided between `before` and `after`; whether it decided
    /// anything.
    fn count(&mut self, rung: Rung, before: &Known, after: &Known) -> bool {
        let mut step = StepCount {
            rung,
            placed: 0,
            ruled_out: 0,
        };
        for (b, a) in before.iter().zip(after) {
            match (b, a) {
                (None, Some(true)) => step.placed += 1,
                (None, Some(false)) => step.ruled_out += 1,
                _ => {}
            }
        }
        let progress = step.placed + step.ruled_out > 0;
        if progress {
            self.steps.push(step);
        }
        progress
    }
}
