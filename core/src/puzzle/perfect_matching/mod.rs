//! A perfect matching of a board's open cells: a tiling of them by dominoes of either
//! orientation, clues aside. It is where the repair starts (a tiling whose cut counts it
//! then fixes) and the oracle of randomized row-major backtracking, so it is one
//! function for both.
//!
//! Greedy pairs row by row (right, else down) leave few cells on most boards, but a
//! board can be made to leave many, each far from a partner; one breadth-first search
//! per left cell then costs the board's area each, and the whole is quadratic (a
//! 2048×2048 board with 1,000 such cells took 18 s). A *forest pass* instead grows one
//! breadth-first tree from every free left cell at once, over the whole board, and each
//! tree flips the first augmenting path it reaches and grows no more: the trees are
//! disjoint, so their paths are, and one linear pass pairs as many cells as there are
//! trees that reach a free cell of the other colour. Any tree that could reach one
//! and does not was cut off by a tree that did, so each pass flips at least one path
//! and passes repeat until none is left or none can be found.
//!
//! Hopcroft–Karp phases (shortest paths only, a layering cut at the first free cell)
//! bound the phases by the square root of the cells, but on a drawn shape with many
//! holes the paths grow long and each phase pairs few: 113 phases and 11.5 s on a
//! 2048×2048 shape with 600,000 holes, where forest passes need 6 and 0.8 s
//! (BENCHMARKS.md). The phases stay for the repair's first tiling ([`Start::RowMajor`]),
//! whose moves follow from the tiling it starts from.
//!
//! The grid graph is bipartite by the checkerboard: `(r + c)` even cells (the search's
//! "left" side) against odd ones. The work looks at `stop` at each pass (or phase) and every
//! [`LOOK_EVERY`] steps, so that a time limit or a stop request holds while the matching
//! is built.

mod grid;
mod phases;
#[cfg(test)]
mod tests;

use super::{Orientation, Piece};
use grid::Looks;
pub(crate) use grid::neighbours;
pub use grid::{LOOK_EVERY, NONE};

/// The pieces of a pairing of cells (`partner[cell]`, [`NONE`] for cells it leaves
/// out), in increasing order of their start cell: two cells side by side in one row
/// make a horizontal piece, two above each other a vertical one (on a board one column
/// wide, cells one apart are above each other).
pub fn pieces(cols: usize, partner: &[u32]) -> Vec<Piece> {
    (0..partner.len())
        .filter(|&cell| partner[cell] != NONE && partner[cell] as usize > cell)
        .map(|cell| {
            let other = partner[cell] as usize;
            let orientation = if other == cell + 1 && cell % cols + 1 < cols {
                Orientation::Horizontal
            } else {
                Orientation::Vertical
            };
            Piece {
                row: cell / cols,
                col: cell % cols,
                orientation,
            }
        })
        .collect()
}

/// How building the matching ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Matched {
    /// The partner of every cell ([`NONE`] for a cell that is not open), each open cell
    /// paired with a neighbour.
    Perfect(Vec<u32>),
    /// The open cells have no perfect matching: no tiling.
    Imperfect,
    /// `stop` said so first.
    Stopped,
}

/// "Not reached" in a pass's forest.
const UNREACHED: u32 = u32::MAX;

/// How the greedy pairs are laid, and how the cells they leave are matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// Row by row, each cell with its right neighbour, else the one below, then
    /// Hopcroft–Karp phases: the repair's start, as it was tuned with.
    RowMajor,
    /// First every cell with a single free neighbour paired with it, over and over
    /// (Karp and Sipser's rule, which never costs a pair a perfect matching needs), then
    /// row by row, then forest passes: the backtracking oracle's start. Where greedy
    /// pairs would strand cells at the ends of long corridors (the pendants of the
    /// crafted board in `tests/deadlines.rs`: 1,000 cells left by row-major pairs, each
    /// a band's length from its partner) it leaves none; on a shape with many holes it
    /// leaves about as many as row-major.
    PendantsFirst,
}

/// A perfect matching of the cells of a `rows` × `cols` board for which `open` holds,
/// or why there is none, looking at `stop` as it goes. Deterministic: the same board
/// and start give the same matching.
pub fn perfect_matching(
    rows: usize,
    cols: usize,
    open: &dyn Fn(usize) -> bool,
    start: Start,
    stop: &dyn Fn() -> bool,
) -> Matched {
    let cells = rows * cols;
    let left = |cell: usize| (cell / cols + cell % cols).is_multiple_of(2);
    // Asked once a cell: the passes look at a cell's neighbours many times over.
    let open: Vec<bool> = (0..cells).map(open).collect();
    let open = open.as_slice();
    let mut partner = vec![NONE; cells];
    // The two colours must be equal in number: each piece covers one of each.
    let mut balance = 0i64;
    for cell in (0..cells).filter(|&cell| open[cell]) {
        balance += if left(cell) { 1 } else { -1 };
    }
    if balance != 0 {
        return Matched::Imperfect;
    }
    if start == Start::PendantsFirst {
        pair_pendants(rows, cols, open, &mut partner);
    }
    for cell in 0..cells {
        if !open[cell] || partner[cell] != NONE {
            continue;
        }
        let (r, c) = (cell / cols, cell % cols);
        let next = [
            (c + 1 < cols).then(|| cell + 1),
            (r + 1 < rows).then(|| cell + cols),
        ]
        .into_iter()
        .flatten()
        .find(|&n| open[n] && partner[n] == NONE);
        if let Some(n) = next {
            partner[cell] = n as u32;
            partner[n] = cell as u32;
        }
    }
    let mut free: Vec<u32> = (0..cells)
        .filter(|&cell| left(cell) && open[cell] && partner[cell] == NONE)
        .map(|cell| cell as u32)
        .collect();
    if free.is_empty() {
        return Matched::Perfect(partner);
    }
    if start == Start::RowMajor {
        return match phases::shortest_phases(rows, cols, open, &mut partner, free, stop) {
            Some(true) => Matched::Perfect(partner),
            Some(false) => Matched::Imperfect,
            None => Matched::Stopped,
        };
    }
    let mut forest = Forest {
        ways: (0..cells)
            .map(|cell| ways(rows, cols, open, cell))
            .collect(),
        step_to: [1, cols as isize, -1, -(cols as isize)],
        parent: vec![UNREACHED; cells],
        tree: vec![0; cells],
        queue: Vec::new(),
        looks: Looks::new(stop),
    };
    while !free.is_empty() {
        if stop() {
            return Matched::Stopped;
        }
        match forest.pass(&free, &mut partner) {
            None => return Matched::Stopped,
            Some(0) => return Matched::Imperfect,
            Some(_) => {}
        }
        free.retain(|&cell| partner[cell as usize] == NONE);
    }
    Matched::Perfect(partner)
}

/// Pairs every open cell that has one free open neighbour with it, until none is left.
fn pair_pendants(rows: usize, cols: usize, open: &[bool], partner: &mut [u32]) {
    let free = |partner: &[u32], cell: usize| open[cell] && partner[cell] == NONE;
    let degree = |partner: &[u32], cell: usize| {
        (neighbours(rows, cols, cell).into_iter().flatten())
            .filter(|&n| free(partner, n as usize))
            .count()
    };
    let mut pending: Vec<u32> = (0..rows * cols)
        .filter(|&cell| free(partner, cell) && degree(partner, cell) == 1)
        .map(|cell| cell as u32)
        .collect();
    // Newest first: a pairing makes pendants next to it, and they are best paired while
    // their neighbourhood is as it was when they became pendants.
    while let Some(cell) = pending.pop() {
        let cell = cell as usize;
        if !free(partner, cell) {
            continue;
        }
        let Some(other) = (neighbours(rows, cols, cell).into_iter().flatten())
            .find(|&n| free(partner, n as usize))
        else {
            continue;
        };
        if degree(partner, cell) != 1 {
            continue;
        }
        partner[cell] = other;
        partner[other as usize] = cell as u32;
        for paired in [cell, other as usize] {
            for n in neighbours(rows, cols, paired).into_iter().flatten() {
                let n = n as usize;
                if free(partner, n) && degree(partner, n) == 1 {
                    pending.push(n as u32);
                }
            }
        }
    }
}

/// The open neighbours of `cell` as bits, in the order of [`neighbours`].
fn ways(rows: usize, cols: usize, open: &[bool], cell: usize) -> u8 {
    let around = neighbours(rows, cols, cell);
    (0..around.len())
        .filter(|&k| around[k].is_some_and(|n| open[n as usize]))
        .fold(0, |bits, k| bits | 1 << k)
}

/// The scratch of the forest passes, sized once to the board.
struct Forest<'a> {
    /// For each cell, which of its neighbours (bit `k` for the `k`th of [`neighbours`])
    /// are open cells: a pass asks this of every cell it reaches, and one byte answers
    /// it without dividing the cell's index by the width or looking at four neighbours.
    ways: Vec<u8>,
    /// The index offset of the `k`th neighbour.
    step_to: [isize; 4],
    /// A reached left cell's parent in its tree (a root is its own), [`UNREACHED`]
    /// for the others; the right cell between a cell and its parent is the cell's
    /// partner, so it need not be kept.
    parent: Vec<u32>,
    /// A reached left cell's tree: the index of its root in the free cells.
    tree: Vec<u32>,
    /// The pass's left cells in the order reached; also which `parent` entries the
    /// next pass must forget.
    queue: Vec<u32>,
    looks: Looks<'a>,
}

impl Forest<'_> {
    /// One forest pass from the free left cells `free`, flipping into `partner` the
    /// first augmenting path of each tree that reaches a free right cell. Returns how
    /// many paths it flipped (none: the matching is maximum, and as it is not perfect
    /// there is no tiling), `None` when stopped.
    fn pass(&mut self, free: &[u32], partner: &mut [u32]) -> Option<usize> {
        for &cell in &self.queue {
            self.parent[cell as usize] = UNREACHED;
        }
        self.queue.clear();
        let mut flipped_tree = vec![false; free.len()];
        for (i, &cell) in free.iter().enumerate() {
            self.parent[cell as usize] = cell;
            self.tree[cell as usize] = i as u32;
            self.queue.push(cell);
        }
        let mut flipped = 0;
        let mut head = 0;
        while head < self.queue.len() {
            if !self.looks.step() {
                return None;
            }
            let x = self.queue[head] as usize;
            head += 1;
            let tree = self.tree[x] as usize;
            // A flipped tree's cells hold new partners; growing it further would walk
            // the new pairs as if they were the old.
            if flipped_tree[tree] {
                continue;
            }
            let ways = self.ways[x];
            for (k, to) in self.step_to.into_iter().enumerate() {
                if ways >> k & 1 == 0 {
                    continue;
                }
                let y = x.wrapping_add_signed(to);
                let z = partner[y];
                if z == NONE {
                    self.flip(x as u32, y as u32, partner);
                    flipped_tree[tree] = true;
                    flipped += 1;
                    break;
                }
                // A right cell paired by a flip of this pass is paired with a cell of
                // the flipped tree, reached already: no tree steps through it.
                if self.parent[z as usize] == UNREACHED {
                    self.parent[z as usize] = x as u32;
                    self.tree[z as usize] = tree as u32;
                    self.queue.push(z);
                }
            }
        }
        Some(flipped)
    }

    /// Flips the path from the root of `x`'s tree down to `x` and on to the free right
    /// cell `end`: each left cell on it takes the right cell its child came through
    /// (`x` takes `end`), and the root, free before, is paired.
    fn flip(&self, x: u32, end: u32, partner: &mut [u32]) {
        let (mut left, mut right) = (x, end);
        loop {
            let through = partner[left as usize];
            partner[left as usize] = right;
            partner[right as usize] = left;
            let up = self.parent[left as usize];
            if up == left {
                break;
            }
            (left, right) = (up, through);
        }
    }
}
