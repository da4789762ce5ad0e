//! Repair: hold a whole tiling and fix its counts across the cuts, rather than build a
//! tiling cell by cell. By Zhao's Corollary 3.2 a tiling is a solution exactly when it
//! has `u*_i` vertical pieces across every row cut and `t*_j` horizontal pieces across
//! every column cut (clue inversion's quotas), so a perfect matching of the open cells
//! whose cut counts are all right is an answer, and the repair moves through perfect
//! matchings only.
//!
//! On the paper's planted boards of 256×256 and more, the descent (the complete search)
//! builds tilings of the rows above a wall that the rows below cannot finish; the repair
//! never has a half-built board, and its moves are local. It is incomplete: it answers
//! only with a tiling (which the driver verifies like any other) or not at all, never
//! `unsat`, and it is deterministic for its seed.
//!
//! One file a job: `tiling.rs` the matching held, `path.rs` the alternating paths that
//! change it, `moves.rs` the two moves, `counts.rs` the counts kept as pieces come and
//! go, and here the choice of move and whether it is kept.

mod counts;
mod moves;
mod path;
mod tiling;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use crate::backend::Budget;
use crate::model::{Family, Model, PlacementId};
use counts::Counts;
use path::PathSearch;
pub use path::Stopped;
use tiling::{Cut, NONE, Tiling};

/// What a run of moves ended with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Repaired {
    /// Every count is right: the tiling, as placements of the model.
    Solved(Vec<PlacementId>),
    /// The moves given ran out first.
    Unsolved,
    /// The budget (the deadline, a stop request) ran out first.
    Stopped,
}

/// Moves between looks at the clock.
const CLOCK_EVERY: u64 = 256;

/// A move that makes the deviation worse by `d` is kept with probability
/// `KEEP_WORSE * e^(-d / 2)`.
const KEEP_WORSE: f64 = 0.01;

/// The repair's state: the tiling, its counts, the scratch of its searches, its coins.
pub struct Repair {
    tiling: Tiling,
    counts: Counts,
    search: PathSearch,
    rng: ChaCha8Rng,
    /// Moves tried so far (kept or not).
    pub moves: u64,
}

impl Repair {
    /// The repair of `model`'s board, from some tiling of its open cells, with coins from
    /// `seed`; `None` when the model has no cut quotas (it was compiled without them, or
    /// clue inversion refuted the board) or the open cells have no tiling at all. The
    /// first tiling looks at `budget` while it is built (on a board made for it, that
    /// takes longer than its moves).
    ///
    /// # Errors
    /// The budget ran out before the first tiling was built.
    pub fn new(model: &Model, seed: u64, budget: &Budget) -> Result<Option<Repair>, Stopped> {
        let (rows, cols) = (model.rows, model.cols);
        let cut_quotas = !matches!(model.families, crate::model::Families::RawSums);
        if model.infeasible.is_some() || !cut_quotas || rows == 0 || cols == 0 {
            return Ok(None);
        }
        // A cut with no quota group has quota zero (clue inversion leaves out the cuts
        // with no member and a zero quota).
        let mut u = vec![0i64; rows - 1];
        let mut t = vec![0i64; cols - 1];
        for group in &model.quotas {
            let quota = i64::from(group.quota);
            let line = match group.family {
                Family::U => &mut u,
                Family::T => &mut t,
                _ => continue,
            };
            let Some(slot) = group.index.checked_sub(1).and_then(|k| line.get_mut(k)) else {
                return Ok(None);
            };
            *slot = quota;
        }
        let open: Vec<bool> = (0..rows * cols)
            .map(|k| model.instance.is_open(k / cols, k % cols))
            .collect();
        let Some(tiling) = path::any_tiling(rows, cols, &open, &|| budget.expired())? else {
            return Ok(None);
        };
        let mut counts = Counts::new(&u, &t);
        for cell in 0..rows * cols {
            let p = tiling.partner[cell];
            if p != NONE && (cell as u32) < p {
                counts.add(tiling.cut_of(cell, p as usize), 1);
            }
        }
        let mut search = PathSearch::new(rows * cols);
        search.seed(seed ^ 0x5265_7061_6972);
        Ok(Some(Repair {
            tiling,
            counts,
            search,
            rng: ChaCha8Rng::seed_from_u64(seed),
            moves: 0,
        }))
    }

    /// `Σ |count - quota|` over the cuts: zero exactly when the tiling is an answer.
    pub fn deviation(&self) -> i64 {
        self.counts.deviation
    }

    /// The work done so far: moves, and cells their path searches explored. Counted, not
    /// timed, so that a share of it gives the same answer on every machine.
    pub fn work(&self) -> u64 {
        self.moves + self.search.explored
    }

    /// Moves until `work` more has been done ([`Self::work`]), within `budget`.
    pub fn run(&mut self, model: &Model, work: u64, budget: &Budget) -> Repaired {
        let until = self.work().saturating_add(work);
        let mut k = 0u64;
        while self.work() < until {
            k += 1;
            if self.counts.deviation == 0 {
                return Repaired::Solved(self.placements(model));
            }
            if budget.stopped() || (k.is_multiple_of(CLOCK_EVERY) && budget.expired()) {
                return Repaired::Stopped;
            }
            self.step();
        }
        if self.counts.deviation == 0 {
            return Repaired::Solved(self.placements(model));
        }
        Repaired::Unsolved
    }

    /// One move: a cut whose count is off, drawn; a piece made across it or taken away;
    /// kept when the deviation does not grow, else kept only by a small chance.
    fn step(&mut self) {
        self.moves += 1;
        let off = self.counts.off().len();
        if off == 0 {
            return;
        }
        let pick = self.below(off);
        let k = self.counts.off()[pick] as usize;
        let cut = self.counts.cut(k);
        let before = self.counts.deviation;
        let made = if self.counts.wanted(k) > 0 {
            let Some((a, b)) = self.place_across(cut) else {
                return;
            };
            moves::cross(&mut self.tiling, &mut self.search, &mut self.counts, a, b)
        } else {
            let Some((a, b)) = self.piece_across(cut) else {
                return;
            };
            moves::uncross(&mut self.tiling, &mut self.search, &mut self.counts, a, b)
        };
        let Some(made) = made else {
            return;
        };
        let worse = self.counts.deviation - before;
        if worse > 0 {
            let keep = KEEP_WORSE * (-(worse as f64) / 2.0).exp();
            if self.unit() >= keep {
                moves::undo(&mut self.tiling, &mut self.search, &mut self.counts, made);
            }
        }
    }

    /// Two open cells across `cut` at a drawn place, not paired with each other.
    fn place_across(&mut self, cut: Cut) -> Option<(u32, u32)> {
        let (rows, cols) = (self.tiling.rows, self.tiling.cols);
        for _ in 0..4 {
            let (a, b) = match cut {
                Cut::Row(i) => {
                    let a = i * cols + self.below(cols);
                    (a, a + cols)
                }
                Cut::Col(j) => {
                    let a = self.below(rows) * cols + j;
                    (a, a + 1)
                }
            };
            let p = &self.tiling.partner;
            if p[a] != NONE && p[b] != NONE && p[a] as usize != b {
                return Some((a as u32, b as u32));
            }
        }
        None
    }

    /// A piece across `cut`, the first from a drawn place along it.
    fn piece_across(&mut self, cut: Cut) -> Option<(u32, u32)> {
        let (rows, cols) = (self.tiling.rows, self.tiling.cols);
        // The pair of cells across the cut at place `k` along it.
        let at = |k: usize| match cut {
            Cut::Row(i) => (i * cols + k, i * cols + k + cols),
            Cut::Col(j) => (k * cols + j, k * cols + j + 1),
        };
        let length = match cut {
            Cut::Row(_) => cols,
            Cut::Col(_) => rows,
        };
        let start = self.below(length);
        (0..length)
            .map(|k| at((start + k) % length))
            .find(|&(a, b)| self.tiling.partner[a] as usize == b)
            .map(|(a, b)| (a as u32, b as u32))
    }

    /// A number below `n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (((self.rng.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// A number in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The tiling as placements of `model`, in increasing order.
    fn placements(&self, model: &Model) -> Vec<PlacementId> {
        let pieces =
            crate::puzzle::perfect_matching::pieces(self.tiling.cols, &self.tiling.partner);
        let mut ids: Vec<PlacementId> = (pieces.iter())
            .filter_map(|piece| model.placements.binary_search(piece).ok())
            .map(|id| id as PlacementId)
            .collect();
        ids.sort_unstable();
        ids
    }
}

#[cfg(test)]
mod tests;
