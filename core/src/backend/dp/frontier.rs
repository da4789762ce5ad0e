//! The row-frontier dynamic program of the paper's Section 5.1, swept cell by cell.
//!
//! It works on the abstract cut-quota problem: tile the open cells with dominoes so
//! that `u[i]` vertical dominoes cross below row `i` and `t[j]` horizontal ones cross
//! right of column `j`. By Corollary 3.2 these two families and exact cover imply every
//! clue, so the tilings counted here are exactly the puzzle's solutions.
//!
//! A state between two cells is `(mask, ℓ)`. Bit `j` of `mask` says, for columns
//! already passed in this row, that the cell below is taken by a vertical piece
//! started here, and for columns still ahead, that the cell in this row is taken
//! (from above, or by a horizontal piece started to its left). `ℓ[j]` counts the
//! horizontal pieces that crossed cut `j` so far; it is stored as one mixed-radix
//! number so a state is a single `u128` key. At each row's end the outgoing mask must
//! hold exactly `u[i]` pieces, and a cut that can no longer reach `t[j]` in the rows
//! left is dropped. The board is accepted at `mask = 0, ℓ = t`.
//!
//! Sweeping cell by cell (a "broken profile") makes each state take at most two
//! transitions, where a whole-row transition would enumerate up to `2^n` fillings.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::backend::Budget;
use crate::model::{Family, Model};
use crate::puzzle::{Orientation, Piece};

/// The cut-quota problem of one board, in the orientation being swept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutProblem {
    /// Rows of the board in the orientation being swept.
    pub rows: usize,
    /// Columns of the board in the orientation being swept: the frontier's length.
    pub cols: usize,
    /// Row-major.
    pub open: Vec<bool>,
    /// Vertical pieces crossing below each row (last entry 0).
    pub u: Vec<u32>,
    /// Horizontal pieces crossing right of each column (last entry 0).
    pub t: Vec<u32>,
}

impl CutProblem {
    /// The cut problem of a compiled model, row by row: its open cells (those with a
    /// cover) and the quotas of its `u` and `t` groups. A cut with no group has quota
    /// 0: compilation leaves out only empty groups with nothing to place.
    pub fn from_model(model: &Model) -> CutProblem {
        let (m, n) = (model.rows, model.cols);
        let mut open = vec![false; m * n];
        for cover in &model.covers {
            open[(cover.row - 1) * n + (cover.col - 1)] = true;
        }
        let (mut u, mut t) = (vec![0u32; m], vec![0u32; n]);
        for g in &model.quotas {
            match g.family {
                Family::U => u[g.index - 1] = g.quota,
                Family::T => t[g.index - 1] = g.quota,
                _ => {}
            }
        }
        CutProblem {
            rows: m,
            cols: n,
            open,
            u,
            t,
        }
    }

    fn is_open(&self, r: usize, c: usize) -> bool {
        r < self.rows && c < self.cols && self.open[r * self.cols + c]
    }

    /// The same problem with rows and columns exchanged: vertical pieces become
    /// horizontal ones, so the cut families `u` and `t` exchange too. This is a
    /// statement about dominoes and cuts only; the dotted pieces of the puzzle are
    /// never rotated (a tiling found here is mapped back with [`transpose_piece`]).
    pub fn transposed(&self) -> CutProblem {
        let mut open = vec![false; self.open.len()];
        for r in 0..self.rows {
            for c in 0..self.cols {
                open[c * self.rows + r] = self.open[r * self.cols + c];
            }
        }
        CutProblem {
            rows: self.cols,
            cols: self.rows,
            open,
            u: self.t.clone(),
            t: self.u.clone(),
        }
    }

    /// Rows below row `i` (exclusive) where a horizontal piece can cross cut `j`:
    /// `room[i][j]`, so a state whose `t[j] - ℓ[j]` exceeds it is dead.
    fn room_below(&self) -> Vec<Vec<u32>> {
        let n = self.cols;
        let mut room = vec![vec![0u32; n]; self.rows + 1];
        for i in (0..self.rows).rev() {
            for j in 0..n {
                let here = u32::from(self.is_open(i, j) && self.is_open(i, j + 1));
                room[i][j] = room[i + 1][j] + here;
            }
        }
        room
    }
}

/// A domino of the swept problem mapped back through a transposition.
pub fn transpose_piece(p: Piece) -> Piece {
    Piece {
        row: p.col,
        col: p.row,
        orientation: match p.orientation {
            Orientation::Vertical => Orientation::Horizontal,
            Orientation::Horizontal => Orientation::Vertical,
        },
    }
}

/// Exact counts: machine integers while they last, then arbitrary precision.
pub trait Tally: Clone + Default {
    /// The count of the start state: the one way of having placed nothing.
    fn one() -> Self;
    /// `None` on overflow.
    fn add(&mut self, other: &Self) -> Option<()>;
}

impl Tally for u128 {
    fn one() -> Self {
        1
    }
    fn add(&mut self, other: &Self) -> Option<()> {
        *self = self.checked_add(*other)?;
        Some(())
    }
}

impl Tally for num_bigint::BigUint {
    fn one() -> Self {
        num_bigint::BigUint::from(1u8)
    }
    fn add(&mut self, other: &Self) -> Option<()> {
        *self += other;
        Some(())
    }
}

/// Why a sweep stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The budget ran out: the deadline, a stop request or an interrupt.
    Deadline,
    /// More live states than the memory limit allows (the estimate was too loose).
    Memory {
        /// Live states when the limit was passed (`u64::MAX` when the cut counts `ℓ` do not
        /// fit a 64-bit key).
        states: u64,
    },
    /// A machine-integer count overflowed; rerun with arbitrary precision.
    Overflow,
}

/// Mixed-radix strides of `ℓ` and the key of the accepting state.
struct Radix {
    stride: Vec<u64>,
    accept: u64,
}

impl Radix {
    /// `None` when the product of `t[j] + 1` does not fit 64 bits.
    fn new(t: &[u32]) -> Option<Radix> {
        let mut stride = Vec::with_capacity(t.len());
        let mut s: u64 = 1;
        let mut accept = 0u64;
        for &tj in t {
            stride.push(s);
            accept = accept.checked_add(u64::from(tj).checked_mul(s)?)?;
            s = s.checked_mul(u64::from(tj) + 1)?;
        }
        Some(Radix { stride, accept })
    }

    fn get(&self, idx: u64, t: &[u32], j: usize) -> u32 {
        ((idx / self.stride[j]) % (u64::from(t[j]) + 1)) as u32
    }
}

fn key(mask: u64, idx: u64) -> u128 {
    (u128::from(idx) << 64) | u128::from(mask)
}

fn split(key: u128) -> (u64, u64) {
    (key as u64, (key >> 64) as u64)
}

/// The result of a forward sweep.
pub struct Sweep<C> {
    /// Tilings reaching the accepting state: the solutions of the problem.
    pub count: C,
    /// Largest number of live states in one layer.
    pub peak_states: u64,
    /// States in all layers together: what keeping every layer for witnesses costs.
    pub all_states: u64,
    /// Every layer's states (after each cell), kept when witnesses are wanted.
    layers: Option<Vec<FxHashSet<u128>>>,
}

impl<C> Sweep<C> {
    /// The same sweep with its count converted.
    pub fn map_count<D>(self, f: impl FnOnce(C) -> D) -> Sweep<D> {
        Sweep {
            count: f(self.count),
            peak_states: self.peak_states,
            all_states: self.all_states,
            layers: self.layers,
        }
    }
}

/// The forward pass. `max_states` bounds the live states (both layers together);
/// `keep_layers` keeps every layer's keys for witness recovery.
///
/// # Errors
/// See [`Stop`].
pub fn sweep<C: Tally>(
    problem: &CutProblem,
    budget: &Budget,
    max_states: u64,
    keep_layers: bool,
) -> Result<Sweep<C>, Stop> {
    let (m, n) = (problem.rows, problem.cols);
    let Some(radix) = Radix::new(&problem.t) else {
        return Err(Stop::Memory { states: u64::MAX });
    };
    let room = problem.room_below();
    let t = &problem.t;
    let mut layer: FxHashMap<u128, C> = FxHashMap::default();
    layer.insert(key(0, 0), C::one());
    let mut layers = keep_layers.then(Vec::new);
    let mut kept: u64 = 1;
    let mut peak: u64 = 1;
    let mut all: u64 = 1;
    let mut work: u64 = 0;
    for i in 0..m {
        for j in 0..n {
            let mut next: FxHashMap<u128, C> =
                FxHashMap::with_capacity_and_hasher(layer.len(), Default::default());
            let mut emit = |mask: u64, idx: u64, count: &C| -> Result<(), Stop> {
                match next.entry(key(mask, idx)) {
                    std::collections::hash_map::Entry::Occupied(mut e) => {
                        e.get_mut().add(count).ok_or(Stop::Overflow)
                    }
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(count.clone());
                        Ok(())
                    }
                }
            };
            let below_mask = (1u64 << (j + 1)) - 1;
            for (&k, count) in &layer {
                work += 1;
                if work.is_multiple_of(4096) && budget.expired() {
                    return Err(Stop::Deadline);
                }
                let (mask, idx) = split(k);
                let bit = 1u64 << j;
                if !problem.is_open(i, j) {
                    // Nothing is ever placed onto a blocked cell, so its bit is clear.
                    emit(mask, idx, count)?;
                } else if mask & bit != 0 {
                    emit(mask & !bit, idx, count)?;
                } else {
                    let vertical = problem.is_open(i + 1, j);
                    if vertical && ((mask & below_mask) | bit).count_ones() <= problem.u[i] {
                        emit(mask | bit, idx, count)?;
                    }
                    let right = bit << 1;
                    if problem.is_open(i, j + 1) && mask & right == 0 && radix.get(idx, t, j) < t[j]
                    {
                        emit(mask | right, idx + radix.stride[j], count)?;
                    }
                }
            }
            if j + 1 == n {
                // Row end: the outgoing quota, and cuts that can still be met.
                next.retain(|&k, _| {
                    let (mask, idx) = split(k);
                    mask.count_ones() == problem.u[i]
                        && (0..n.saturating_sub(1))
                            .all(|c| t[c] - radix.get(idx, t, c) <= room[i + 1][c])
                });
            }
            let live = (layer.len() + next.len()) as u64;
            peak = peak.max(next.len() as u64);
            all += next.len() as u64;
            if let Some(layers) = layers.as_mut() {
                kept += next.len() as u64;
                layers.push(next.keys().copied().collect());
            }
            if live + kept > max_states {
                return Err(Stop::Memory {
                    states: live + kept,
                });
            }
            layer = next;
        }
    }
    let count = layer.remove(&key(0, radix.accept)).unwrap_or_default();
    Ok(Sweep {
        count,
        peak_states: peak,
        all_states: all,
        layers,
    })
}

/// Enumerates tilings backwards from the accepting state through the kept layers,
/// handing each to `sink` (as pieces of the swept problem) until it returns false.
/// Every predecessor is checked against the layer before it, so no branch dead-ends:
/// each step of the walk is one of the forward pass's own transitions.
pub fn witnesses<C>(
    problem: &CutProblem,
    sweep: &Sweep<C>,
    sink: &mut dyn FnMut(&[Piece]) -> bool,
) {
    let Some(layers) = &sweep.layers else {
        return;
    };
    let Some(radix) = Radix::new(&problem.t) else {
        return;
    };
    let n = problem.cols;
    let cells = problem.rows * n;
    if cells == 0 || layers.len() != cells {
        return;
    }
    let accept = key(0, radix.accept);
    if !layers[cells - 1].contains(&accept) {
        return;
    }
    let mut pieces: Vec<Piece> = Vec::new();
    walk(problem, &radix, layers, cells, accept, &mut pieces, sink);
}

/// The state after cell `pos - 1` is `state`; finds its predecessors before that cell.
/// Returns false once the sink wants no more.
fn walk(
    problem: &CutProblem,
    radix: &Radix,
    layers: &[FxHashSet<u128>],
    pos: usize,
    state: u128,
    pieces: &mut Vec<Piece>,
    sink: &mut dyn FnMut(&[Piece]) -> bool,
) -> bool {
    if pos == 0 {
        return state != key(0, 0) || sink(pieces);
    }
    let cell = pos - 1;
    let (i, j) = (cell / problem.cols, cell % problem.cols);
    let known = |k: u128| {
        if cell == 0 {
            k == key(0, 0)
        } else {
            layers[cell - 1].contains(&k)
        }
    };
    let (mask, idx) = split(state);
    let bit = 1u64 << j;
    let mut step = |pred: u128, piece: Option<Piece>, pieces: &mut Vec<Piece>| -> bool {
        if !known(pred) {
            return true;
        }
        if let Some(p) = piece {
            pieces.push(p);
        }
        let more = walk(problem, radix, layers, cell, pred, pieces, sink);
        if piece.is_some() {
            pieces.pop();
        }
        more
    };
    if !problem.is_open(i, j) {
        return mask & bit != 0 || step(state, None, pieces);
    }
    if mask & bit != 0 {
        // A vertical piece started here.
        if !problem.is_open(i + 1, j) {
            return true;
        }
        let piece = Piece {
            row: i,
            col: j,
            orientation: Orientation::Vertical,
        };
        return step(key(mask & !bit, idx), Some(piece), pieces);
    }
    // The cell was already taken when the sweep reached it.
    if !step(key(mask | bit, idx), None, pieces) {
        return false;
    }
    // Or a horizontal piece started here, taking the cell to its right.
    let right = bit << 1;
    if problem.is_open(i, j + 1) && mask & right != 0 && radix.get(idx, &problem.t, j) > 0 {
        let piece = Piece {
            row: i,
            col: j,
            orientation: Orientation::Horizontal,
        };
        return step(
            key(mask & !right, idx - radix.stride[j]),
            Some(piece),
            pieces,
        );
    }
    true
}
