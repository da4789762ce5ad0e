//! Propagation and search over bitset states.
//!
//! A state is five words: candidate vertical and horizontal pieces (by start cell),
//! placed ones, and the open cells not yet covered. It is copied at each branch instead
//! of trailed: eighty bytes cost less than undoing.
//!
//! Propagation runs two rules to a fixed point:
//! * **cover**: a free cell no candidate covers fails; a free cell exactly one candidate
//!   covers forces it. The four ways a cell is covered (top or bottom of a vertical, left
//!   or right of a horizontal) are four shifted words, so "no candidate" and "exactly
//!   one" are a few bitwise operations for all cells at once;
//! * **quota**: in each group (vertical pieces with their top in a row or in a column,
//!   horizontal pieces with their left cell in a row or in a column), placed pieces may
//!   not pass the quota nor candidates fall short of it; a met quota deletes the group's
//!   other candidates, and one that needs every candidate places them all.
//!
//! The search branches on the first free cell in row-major order: every cell before it
//! is covered, so only a vertical piece with its top there or a horizontal piece with
//! its left cell there can cover it.

use super::board::Board;
use crate::backend::native::proof::{Justify, Unlogged};
use crate::backend::{Budget, Control, Counters, Ending, Outcome};

/// Nodes between two looks at the clock (a stop request is read at every node).
const DEADLINE_EVERY: u64 = 64;

/// Dead ends after which the path gives up (`Ending::Capped`) and the driver hands the
/// board to the general engine, whose colour splits, matching filter and failure cache
/// this path does not have. Game boards meet none or a handful; the cap bounds what a
/// board that defeats the path costs before the general engine starts, at a few
/// milliseconds. Each tiling found raises the cap by [`FAILURES_PER_TILING`]: an
/// enumeration of thousands of tilings meets dead ends in proportion, and is work this
/// path does well.
pub const FAILURE_CAP: u64 = 5_000;

/// See [`FAILURE_CAP`]. Open boards with thousands of tilings meet about one dead end
/// per tiling.
pub const FAILURES_PER_TILING: u64 = 4;

#[derive(Debug, Clone, Copy)]
struct State {
    /// Candidate vertical pieces, by top cell.
    v: u128,
    /// Candidate horizontal pieces, by left cell.
    h: u128,
    /// Placed vertical pieces.
    pv: u128,
    /// Placed horizontal pieces.
    ph: u128,
    /// Open cells not yet covered.
    free: u128,
}

pub(super) struct Search<'a, P: Path = Unlogged> {
    board: &'a Board,
    nodes: u64,
    forced: u64,
    found: usize,
    /// Nodes whose propagation failed.
    failures: u64,
    /// The decisions on the current path and where dead ends go: nowhere
    /// ([`Unlogged`]), or to a proof logger ([`Proof`]).
    path: P,
}

/// What the search tells of its path, chosen by type: [`Unlogged`] keeps nothing (and
/// costs nothing), [`Proof`] keeps the decisions and tells the logger each dead end.
/// The only reasoning this path does is propagation, which a checker redoes itself: a
/// dead end needs only its decisions.
pub(super) trait Path {
    /// The piece at `cell` (vertical or not) is placed by branching.
    fn enter(&mut self, cell: usize, vertical: bool);
    /// The last piece placed by branching is taken back.
    fn leave(&mut self);
    /// No tiling below the path (and, if given, the piece at `cell` placed next).
    fn dead_end(&mut self, then: Option<(usize, bool)>);
}

impl Path for Unlogged {
    #[inline(always)]
    fn enter(&mut self, _: usize, _: bool) {}
    #[inline(always)]
    fn leave(&mut self) {}
    #[inline(always)]
    fn dead_end(&mut self, _: Option<(usize, bool)>) {}
}

/// The proof logger of a search, and what it needs to name its decisions: the
/// placement id of each piece (`2·cell` for the vertical piece with its top there,
/// `2·cell + 1` for the horizontal one with its left cell there).
pub(super) struct Proof<'a> {
    pub(super) log: &'a mut dyn Justify,
    pub(super) ids: &'a [u32],
    pub(super) path: Vec<u32>,
}

impl Path for Proof<'_> {
    fn enter(&mut self, cell: usize, vertical: bool) {
        self.path.push(self.ids[2 * cell + usize::from(!vertical)]);
    }

    fn leave(&mut self) {
        self.path.pop();
    }

    fn dead_end(&mut self, then: Option<(usize, bool)>) {
        let mut decisions = self.path.clone();
        decisions.extend(then.map(|(cell, vertical)| self.ids[2 * cell + usize::from(!vertical)]));
        self.log.dead_end(&decisions);
    }
}

/// Why a branch ended early.
enum Halt {
    /// The sink wants no more tilings.
    Stopped,
    /// The deadline passed or a stop was asked.
    Timeout,
    /// [`FAILURE_CAP`] dead ends were met.
    Capped,
}

impl<'a> Search<'a> {
    pub(super) fn new(board: &'a Board) -> Search<'a> {
        Search::traced(board, Unlogged)
    }
}

impl<'a, P: Path> Search<'a, P> {
    /// The search, telling `path` its decisions and dead ends.
    pub(super) fn traced(board: &'a Board, path: P) -> Search<'a, P> {
        Search {
            board,
            nodes: 0,
            forced: 0,
            found: 0,
            failures: 0,
            path,
        }
    }

    pub(super) fn run(
        mut self,
        limit: usize,
        budget: &Budget,
        each: &mut dyn FnMut(u128, u128) -> Control,
    ) -> Outcome {
        let board = self.board;
        let cols = board.cols;
        // A vertical piece needs the cell below open, a horizontal one the cell to its
        // right, in the same row: not from the last column.
        let state = State {
            v: board.open & (board.open >> cols),
            h: board.open & (board.open >> 1) & !board.col(cols - 1),
            pv: 0,
            ph: 0,
            free: board.open,
        };
        let ending = match self.branch(state, true, limit, budget, each) {
            Ok(()) => Ending::Exhausted,
            Err(Halt::Stopped) => Ending::Stopped,
            Err(Halt::Timeout) => Ending::Timeout,
            Err(Halt::Capped) => Ending::Capped,
        };
        Outcome {
            ending,
            counters: Counters {
                nodes: Some(self.nodes),
                forced: Some(self.forced),
                cache_hits: Some(0),
                restarts: Some(0),
                ..Counters::default()
            },
        }
    }

    fn branch(
        &mut self,
        mut s: State,
        root: bool,
        limit: usize,
        budget: &Budget,
        each: &mut dyn FnMut(u128, u128) -> Control,
    ) -> Result<(), Halt> {
        self.nodes += 1;
        if budget.stopped() || (self.nodes.is_multiple_of(DEADLINE_EVERY) && budget.expired()) {
            return Err(Halt::Timeout);
        }
        if self.failures > self.board.failure_cap + FAILURES_PER_TILING * self.found as u64 {
            return Err(Halt::Capped);
        }
        let consistent = self.board.propagate(&mut s);
        #[cfg(debug_assertions)]
        if consistent {
            self.board.recount(&s);
        }
        if root {
            self.forced = u64::from((s.pv | s.ph).count_ones());
        }
        if !consistent {
            self.path.dead_end(None);
            self.failures += 1;
            return Ok(());
        }
        if s.free == 0 {
            // A dead end for a proof: its formula rules out the one tiling it may
            // have, and the sink refuses any other.
            self.path.dead_end(None);
            self.found += 1;
            if each(s.pv, s.ph) == Control::Stop || (limit != 0 && self.found >= limit) {
                return Err(Halt::Stopped);
            }
            return Ok(());
        }
        let cell = s.free & s.free.wrapping_neg();
        let index = cell.trailing_zeros() as usize;
        for (vertical, candidates) in [(true, s.v), (false, s.h)] {
            if candidates & cell == 0 {
                continue;
            }
            let mut next = s;
            let (v, h) = if vertical { (cell, 0) } else { (0, cell) };
            if self.board.place(&mut next, v, h) {
                self.path.enter(index, vertical);
                let below = self.branch(next, false, limit, budget, each);
                self.path.leave();
                below?;
            } else {
                self.path.dead_end(Some((index, vertical)));
                self.failures += 1;
            }
        }
        // Every way to cover the cell was tried.
        self.path.dead_end(None);
        Ok(())
    }
}

/// What a quota group asks after counting it.
enum Group {
    /// Nothing to do.
    Idle,
    /// The quota cannot be met.
    Fail,
    /// The quota is met: delete the other candidates.
    Delete,
    /// Every candidate is needed: place them.
    Place,
}

fn group(placed: u128, candidates: u128, quota: u8) -> Group {
    let placed = placed.count_ones();
    let candidates_n = candidates.count_ones();
    let quota = u32::from(quota);
    if placed > quota || placed + candidates_n < quota {
        Group::Fail
    } else if candidates == 0 {
        Group::Idle
    } else if placed == quota {
        Group::Delete
    } else if placed + candidates_n == quota {
        Group::Place
    } else {
        Group::Idle
    }
}

impl Board {
    /// Places the pieces of two start-cell masks: false when two of them overlap or one
    /// covers a cell already covered. Candidates that cover a newly covered cell go.
    fn place(&self, s: &mut State, v: u128, h: u128) -> bool {
        let cols = self.cols;
        let cells_v = v | (v << cols);
        let cells_h = h | (h << 1);
        if v & (v << cols) != 0
            || h & (h << 1) != 0
            || cells_v & cells_h != 0
            || (cells_v | cells_h) & !s.free != 0
        {
            return false;
        }
        let cells = cells_v | cells_h;
        s.pv |= v;
        s.ph |= h;
        s.free &= !cells;
        s.v &= !(cells | (cells >> cols));
        s.h &= !(cells | (cells >> 1));
        true
    }

    /// Runs the cover and quota rules to a fixed point: false on a contradiction.
    fn propagate(&self, s: &mut State) -> bool {
        let cols = self.cols;
        loop {
            // Cover: the four ways onto each cell.
            let (a, b, c, d) = (s.v, s.v << cols, s.h, s.h << 1);
            if s.free & !(a | b | c | d) != 0 {
                return false;
            }
            let two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
            let single = s.free & !two;
            if single != 0 {
                let v = (single & a) | ((single & b) >> cols);
                let h = (single & c) | ((single & d) >> 1);
                if !self.place(s, v, h) {
                    return false;
                }
                continue;
            }
            // Quota: rows, then columns, each for both kinds.
            let mut changed = false;
            let lines = (0..self.rows)
                .map(|r| (self.row(r), self.quotas.u[r], self.quotas.p[r]))
                .chain((0..self.cols).map(|c| (self.col(c), self.quotas.q[c], self.quotas.t[c])));
            for (mask, vertical, horizontal) in lines {
                match group(s.pv & mask, s.v & mask, vertical) {
                    Group::Idle => {}
                    Group::Fail => return false,
                    Group::Delete => {
                        s.v &= !mask;
                        changed = true;
                    }
                    Group::Place => {
                        if !self.place(s, s.v & mask, 0) {
                            return false;
                        }
                        changed = true;
                    }
                }
                match group(s.ph & mask, s.h & mask, horizontal) {
                    Group::Idle => {}
                    Group::Fail => return false,
                    Group::Delete => {
                        s.h &= !mask;
                        changed = true;
                    }
                    Group::Place => {
                        if !self.place(s, 0, s.h & mask) {
                            return false;
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }
}

#[cfg(debug_assertions)]
impl Board {
    /// The fixed point as a from-scratch twin sees it, cell by cell and piece by piece
    /// with no shifted words: placed pieces are disjoint and cover exactly the open cells
    /// that are not free; candidates lie on free cells; every free cell has at least two
    /// candidates; every group's quota lies between its placed pieces and those plus its
    /// candidates, and is not yet forced either way. Debug builds check it at every node.
    fn recount(&self, s: &State) {
        let (rows, cols) = (self.rows, self.cols);
        let bit = |mask: u128, r: usize, c: usize| mask >> (r * cols + c) & 1 == 1;
        let open = |r: usize, c: usize| r < rows && c < cols && bit(self.open, r, c);
        let mut covered = vec![0u8; rows * cols];
        let mut candidates = vec![0u8; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                let cells_v = [(r, c), (r + 1, c)];
                let cells_h = [(r, c), (r, c + 1)];
                for (mask, placed, cells) in [
                    (s.v, false, cells_v),
                    (s.h, false, cells_h),
                    (s.pv, true, cells_v),
                    (s.ph, true, cells_h),
                ] {
                    if !bit(mask, r, c) {
                        continue;
                    }
                    for (y, x) in cells {
                        assert!(open(y, x), "a piece on a blocked or outside cell");
                        let free = bit(s.free, y, x);
                        if placed {
                            assert!(!free, "a placed piece on a free cell");
                            covered[y * cols + x] += 1;
                        } else {
                            assert!(free, "a candidate on a covered cell");
                            candidates[y * cols + x] += 1;
                        }
                    }
                }
            }
        }
        for r in 0..rows {
            for c in 0..cols {
                let k = r * cols + c;
                if !open(r, c) {
                    continue;
                }
                if bit(s.free, r, c) {
                    assert_eq!(covered[k], 0);
                    assert!(
                        candidates[k] >= 2,
                        "a free cell with {} candidates",
                        candidates[k]
                    );
                } else {
                    assert_eq!(covered[k], 1, "a covered cell covered {} times", covered[k]);
                }
            }
        }
        let count = |mask: u128, line: &dyn Fn(usize, usize) -> bool| {
            (0..rows * cols)
                .filter(|&k| mask >> k & 1 == 1 && line(k / cols, k % cols))
                .count()
        };
        let groups = (0..rows)
            .flat_map(|r| {
                let in_row = move |y: usize, _: usize| y == r;
                [
                    (count(s.pv, &in_row), count(s.v, &in_row), self.quotas.u[r]),
                    (count(s.ph, &in_row), count(s.h, &in_row), self.quotas.p[r]),
                ]
            })
            .chain((0..cols).flat_map(|c| {
                let in_col = move |_: usize, x: usize| x == c;
                [
                    (count(s.pv, &in_col), count(s.v, &in_col), self.quotas.q[c]),
                    (count(s.ph, &in_col), count(s.h, &in_col), self.quotas.t[c]),
                ]
            }))
            .collect::<Vec<_>>();
        for (placed, open_candidates, quota) in groups {
            let quota = usize::from(quota);
            assert!(placed <= quota && quota <= placed + open_candidates);
            if open_candidates > 0 {
                assert!(placed < quota && quota < placed + open_candidates);
            }
        }
    }
}
