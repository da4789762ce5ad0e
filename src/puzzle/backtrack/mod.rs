//! Randomized row-major backtracking: the paper's way to a random tiling (Zhao, Section
//! 6.2). At the first uncovered cell in row-major order the vertical and the horizontal
//! piece are tried in random order; a dead end goes back to the last choice.
//!
//! Plain, it stalls on large boards: a choice in the rows above the last ones can leave
//! the last rows untileable, which it only finds out rows later, and it then undoes
//! choices one by one. Two look-aheads prune what can hold no tiling, so the first
//! tiling found is the one plain backtracking would find with the same coin flips (the
//! order at a node with two choices is drawn when the node is first reached, and a
//! pruned subtree holds no tiling to find):
//!
//! * a cell that the piece just placed left with no uncovered neighbour can never be
//!   covered;
//! * cut capacities: the uncovered cells left of a column cut (above a row cut) must be
//!   balanced in the checkerboard colouring by the pieces that will cross the cut, one
//!   colour each, so the imbalance may not exceed the rows (columns) where a piece can
//!   still cross it. This is what stalls plain backtracking: every horizontal piece
//!   above the frontier moves the imbalance of its cut by one, a random walk that grows
//!   like the square root of the rows tiled, while the rows left to absorb it shrink; a
//!   board of 128 rows then fails about ten rows from the bottom, and finds out only
//!   there. Pieces change one imbalance and a few capacities, so the check is O(1);
//! * once the first uncovered cell is within [`EXACT_ROWS`] rows of the bottom, a sweep
//!   over the columns of those rows decides exactly whether they can still be tiled.
//!
//! What is left is a tail of rare deep dead ends; an attempt that has placed more than
//! [`NODES_PER_CELL`] pieces per cell starts again (the coin flips go on from where
//! they were). Restarts favour tilings found quickly, the one departure from plain
//! backtracking; [`Backtracked::restarts`] says how often it happened.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::Rng;

/// The bottom rows whose tileability is decided exactly at every node there.
pub const EXACT_ROWS: usize = 4;

/// Pieces placed per cell (undone ones included) before an attempt starts again.
pub const NODES_PER_CELL: u64 = 32;

/// Pieces placed per cell of the bottom band (the [`EXACT_ROWS`] rows and the one above)
/// before the rows above it are tiled again.
pub const BAND_NODES_PER_CELL: u64 = 16;

/// No partner: a blocked cell.
pub(crate) const NONE: u32 = u32::MAX;

/// A tiling found by backtracking, and what it took.
pub struct Backtracked {
    /// `mate[cell]` is the cell the piece covering `cell` also covers; `u32::MAX` for a
    /// blocked cell.
    pub mate: Vec<u32>,
    /// Pieces placed, over all attempts (undone ones included).
    pub nodes: u64,
    /// Attempts given up for their node budget.
    pub restarts: u32,
    /// Times the rows above the bottom band were tiled again.
    pub backjumps: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    Down,
    Right,
}

/// A choice point: the first uncovered cell, the ways to cover it in the order drawn,
/// and how many were tried.
struct Choice {
    cell: usize,
    ways: [Option<Way>; 2],
    tried: usize,
}

struct Board {
    rows: usize,
    cols: usize,
    covered: Vec<bool>,
    mate: Vec<u32>,
    /// Per column cut `j` (between columns `j` and `j + 1`): the colour imbalance of the
    /// uncovered cells left of it, and the rows where both cells beside it are uncovered.
    col_cut: Vec<Cut>,
    /// Per row cut `i` (between rows `i` and `i + 1`), the same above it.
    row_cut: Vec<Cut>,
    backjumps: u32,
}

/// A cut's imbalance (black minus white uncovered cells on its first side) and its
/// capacity (the pieces that can still cross it).
#[derive(Clone, Copy, Default)]
struct Cut {
    imbalance: i32,
    capacity: i32,
}

impl Cut {
    fn holds(self) -> bool {
        self.imbalance.abs() <= self.capacity
    }
}

/// A tiling of the open cells of a `rows` × `cols` board by randomized row-major
/// backtracking, or `None` when they have none.
pub fn tiling(
    rows: usize,
    cols: usize,
    blocked: &[bool],
    rng: &mut ChaCha8Rng,
) -> Option<Backtracked> {
    let cells = rows * cols;
    let mut board = Board {
        rows,
        cols,
        covered: blocked.to_vec(),
        mate: vec![NONE; cells],
        col_cut: Vec::new(),
        row_cut: Vec::new(),
        backjumps: 0,
    };
    board.count_cuts();
    let budget = NODES_PER_CELL * cells as u64 + 1_000;
    let (mut nodes, mut restarts) = (0u64, 0u32);
    loop {
        match board.attempt(rng, budget, &mut nodes) {
            Attempt::Tiled => {
                return Some(Backtracked {
                    mate: board.mate,
                    nodes,
                    restarts,
                    backjumps: board.backjumps,
                });
            }
            Attempt::None => return None,
            Attempt::OutOfNodes => {
                restarts += 1;
                board.covered.copy_from_slice(blocked);
                board.mate.fill(NONE);
                board.count_cuts();
            }
        }
    }
}

enum Attempt {
    Tiled,
    None,
    OutOfNodes,
}

/// +1 on black cells of the checkerboard, -1 on white ones.
fn colour(r: usize, c: usize) -> i32 {
    if (r + c).is_multiple_of(2) { 1 } else { -1 }
}

impl Board {
    /// The cuts of the board as it is, from scratch.
    fn count_cuts(&mut self) {
        let (m, n) = (self.rows, self.cols);
        let free = |r: usize, c: usize| !self.covered[r * n + c];
        let mut col_cut = vec![Cut::default(); n.saturating_sub(1)];
        let mut row_cut = vec![Cut::default(); m.saturating_sub(1)];
        for r in 0..m {
            for c in 0..n {
                if !free(r, c) {
                    continue;
                }
                for cut in &mut col_cut[c.min(n - 1)..] {
                    cut.imbalance += colour(r, c);
                }
                for cut in &mut row_cut[r.min(m - 1)..] {
                    cut.imbalance += colour(r, c);
                }
                if c + 1 < n && free(r, c + 1) {
                    col_cut[c].capacity += 1;
                }
                if r + 1 < m && free(r + 1, c) {
                    row_cut[r].capacity += 1;
                }
            }
        }
        self.col_cut = col_cut;
        self.row_cut = row_cut;
    }

    /// The capacities a cell's covering (`by` = -1) or uncovering (+1) changes: the cuts
    /// beside it where the cell across is uncovered.
    fn touch(&mut self, cell: usize, by: i32) {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let n = self.cols;
        if c + 1 < n && !self.covered[cell + 1] {
            self.col_cut[c].capacity += by;
        }
        if c > 0 && !self.covered[cell - 1] {
            self.col_cut[c - 1].capacity += by;
        }
        if r + 1 < self.rows && !self.covered[cell + n] {
            self.row_cut[r].capacity += by;
        }
        if r > 0 && !self.covered[cell - n] {
            self.row_cut[r - 1].capacity += by;
        }
    }

    fn attempt(&mut self, rng: &mut ChaCha8Rng, budget: u64, nodes: &mut u64) -> Attempt {
        let cells = self.rows * self.cols;
        let mut stack: Vec<Choice> = Vec::new();
        let mut placed = 0u64;
        let mut next = 0usize;
        // Pieces placed in the bottom band since the last backjump, and backjumps so far.
        let (mut in_band, mut jumps) = (0u64, 0u32);
        let band = self.rows.saturating_sub(EXACT_ROWS + 1);
        let band_budget = BAND_NODES_PER_CELL * (self.cols * (EXACT_ROWS + 1)) as u64;
        'choose: loop {
            while next < cells && self.covered[next] {
                next += 1;
            }
            if next == cells {
                return Attempt::Tiled;
            }
            let down = self.can(next, Way::Down);
            let right = self.can(next, Way::Right);
            let ways = match (down, right) {
                (true, true) if rng.next_u32() & 1 == 0 => [Some(Way::Down), Some(Way::Right)],
                (true, true) => [Some(Way::Right), Some(Way::Down)],
                (true, false) => [Some(Way::Down), None],
                (false, true) => [Some(Way::Right), None],
                (false, false) => [None, None],
            };
            stack.push(Choice {
                cell: next,
                ways,
                tried: 0,
            });
            // Try the top choice's next way; when it has none left, undo the choice
            // below it and try that one's next way, and so on.
            loop {
                let Some(top) = stack.last_mut() else {
                    return Attempt::None;
                };
                let cell = top.cell;
                let way = top.ways.get(top.tried).copied().flatten();
                top.tried += 1;
                let Some(way) = way else {
                    stack.pop();
                    if let Some(below) = stack.last() {
                        let tried = below.ways[below.tried - 1];
                        if let Some(way) = tried {
                            self.lift(below.cell, way);
                        }
                    }
                    continue;
                };
                self.place(cell, way);
                placed += 1;
                *nodes += 1;
                if placed > budget {
                    return Attempt::OutOfNodes;
                }
                if cell / self.cols >= band {
                    in_band += 1;
                    if in_band > band_budget {
                        // Stuck in the last rows: tile again the rows above them, twice
                        // as many as the time before.
                        in_band = 0;
                        jumps += 1;
                        self.backjumps += 1;
                        let redo = (1usize << jumps.min(20)).min(band);
                        next = self.unwind(&mut stack, (band - redo) * self.cols);
                        continue 'choose;
                    }
                }
                if self.looks_tileable(cell, way) {
                    next = cell;
                    break;
                }
                self.lift(cell, way);
            }
        }
    }

    /// Undoes every choice at `from` or after it (each has its last tried way placed)
    /// and returns `from`, where the search goes on with fresh coin flips.
    fn unwind(&mut self, stack: &mut Vec<Choice>, from: usize) -> usize {
        while let Some(top) = stack.last() {
            if top.cell < from {
                break;
            }
            if let Some(way) = top.ways[top.tried - 1] {
                self.lift(top.cell, way);
            }
            stack.pop();
        }
        from
    }

    fn other(&self, cell: usize, way: Way) -> usize {
        match way {
            Way::Down => cell + self.cols,
            Way::Right => cell + 1,
        }
    }

    fn can(&self, cell: usize, way: Way) -> bool {
        let (r, c) = (cell / self.cols, cell % self.cols);
        match way {
            Way::Down => r + 1 < self.rows && !self.covered[cell + self.cols],
            Way::Right => c + 1 < self.cols && !self.covered[cell + 1],
        }
    }

    /// Covers `cell` and its partner. The piece's two cells have opposite colours, so
    /// it moves the imbalance only of the one cut it crosses.
    fn place(&mut self, cell: usize, way: Way) {
        let other = self.other(cell, way);
        self.covered[cell] = true;
        self.touch(cell, -1);
        self.covered[other] = true;
        self.touch(other, -1);
        self.mate[cell] = other as u32;
        self.mate[other] = cell as u32;
        self.crossed(cell, way).imbalance -= colour(cell / self.cols, cell % self.cols);
    }

    fn lift(&mut self, cell: usize, way: Way) {
        let other = self.other(cell, way);
        self.crossed(cell, way).imbalance += colour(cell / self.cols, cell % self.cols);
        self.touch(other, 1);
        self.covered[other] = false;
        self.touch(cell, 1);
        self.covered[cell] = false;
        self.mate[cell] = NONE;
        self.mate[other] = NONE;
    }

    /// The cut a piece at `cell` crosses.
    fn crossed(&mut self, cell: usize, way: Way) -> &mut Cut {
        match way {
            Way::Down => &mut self.row_cut[cell / self.cols],
            Way::Right => &mut self.col_cut[cell % self.cols],
        }
    }

    /// Whether every cut beside the piece at `cell` still holds (the others did not
    /// change).
    fn cuts_hold(&self, cell: usize) -> bool {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let near = |k: usize, len: usize| k.saturating_sub(1)..(k + 2).min(len);
        self.col_cut[near(c, self.col_cut.len())]
            .iter()
            .all(|cut| cut.holds())
            && self.row_cut[near(r, self.row_cut.len())]
                .iter()
                .all(|cut| cut.holds())
    }

    /// The look-aheads after a piece at `cell`: false only when no tiling can extend
    /// the board as it now is.
    fn looks_tileable(&self, cell: usize, way: Way) -> bool {
        let other = self.other(cell, way);
        for end in [cell, other] {
            for q in self.neighbours(end).into_iter().flatten() {
                if !self.covered[q]
                    && !self
                        .neighbours(q)
                        .into_iter()
                        .flatten()
                        .any(|n| !self.covered[n])
                {
                    return false;
                }
            }
        }
        if !self.cuts_hold(cell) {
            return false;
        }
        let row = cell / self.cols;
        if self.rows - row <= EXACT_ROWS {
            return self.bottom_tileable(row);
        }
        true
    }

    fn neighbours(&self, cell: usize) -> [Option<usize>; 4] {
        let (r, c) = (cell / self.cols, cell % self.cols);
        [
            (r > 0).then(|| cell - self.cols),
            (r + 1 < self.rows).then(|| cell + self.cols),
            (c > 0).then(|| cell - 1),
            (c + 1 < self.cols).then(|| cell + 1),
        ]
    }

    /// Whether the uncovered cells of rows `top..` (every cell before the first
    /// uncovered one is covered) can be tiled: a sweep over the columns whose state is
    /// the set of cells of the column already covered by horizontal pieces from the
    /// left, at most 2^[`EXACT_ROWS`] states.
    fn bottom_tileable(&self, top: usize) -> bool {
        let height = self.rows - top;
        let free = |i: usize, j: usize| !self.covered[(top + i) * self.cols + j];
        let mut reach: u32 = 1; // the state "nothing enters column 0"
        for j in 0..self.cols {
            let mut taken_here = 0u32;
            for i in 0..height {
                if !free(i, j) {
                    taken_here |= 1 << i;
                }
            }
            let mut next: u32 = 0;
            for state in 0..(1u32 << height) {
                if reach & (1 << state) == 0 || state & taken_here != 0 {
                    continue;
                }
                let mut fill = Fill {
                    height,
                    right_free: |i: usize| j + 1 < self.cols && free(i, j + 1),
                    out: &mut next,
                };
                fill.go(0, state | taken_here, 0);
            }
            if next == 0 {
                return false;
            }
            reach = next;
        }
        reach & 1 == 1
    }
}

/// Fills one column, top to bottom: each cell not yet taken gets a vertical piece with
/// the cell below, or a horizontal one into the next column (a bit of the state out).
struct Fill<'o, F> {
    height: usize,
    right_free: F,
    out: &'o mut u32,
}

impl<F: Fn(usize) -> bool> Fill<'_, F> {
    fn go(&mut self, i: usize, taken: u32, state_out: u32) {
        if i == self.height {
            *self.out |= 1 << state_out;
            return;
        }
        if taken & (1 << i) != 0 {
            self.go(i + 1, taken, state_out);
            return;
        }
        if i + 1 < self.height && taken & (1 << (i + 1)) == 0 {
            self.go(i + 2, taken | (1 << (i + 1)), state_out);
        }
        if (self.right_free)(i) {
            self.go(i + 1, taken, state_out | (1 << i));
        }
    }
}

#[cfg(test)]
mod tests;
