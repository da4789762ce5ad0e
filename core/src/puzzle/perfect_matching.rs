//! A perfect matching of a board's open cells: a tiling of them by dominoes of either
//! orientation, clues aside. It is where the repair starts (a tiling whose cut counts it
//! then fixes) and the oracle of randomized row-major backtracking, so it is one
//! function for both.
//!
//! Greedy pairs row by row (right, else down) leave few cells on most boards, but a
//! board can be made to leave many, each far from a partner; one breadth-first search
//! per left cell then costs the board's area each, and the whole is quadratic (a
//! 2048×2048 board with 1,000 such cells took 18 s). Hopcroft–Karp phases instead find
//! a maximal set of shortest disjoint augmenting paths from all the left cells at once,
//! one breadth-first layering and one depth-first pass per phase, each linear in the
//! board; the phases are few (at most about twice the square root of the cells, and on
//! grid boards a handful).
//!
//! The grid graph is bipartite by the checkerboard: `(r + c)` even cells (the search's
//! "left" side) against odd ones. The work looks at `stop` at each phase and every
//! [`LOOK_EVERY`] steps, so that a time limit or a stop request holds while the matching
//! is built.

/// No partner: a blocked cell (or, during the search, an unmatched one).
pub const NONE: u32 = u32::MAX;

/// Steps of the search (cells taken from a queue or a stack) between looks at `stop`.
pub const LOOK_EVERY: u32 = 1 << 14;

/// Bytes per cell the search holds beside the matching: its layer numbers, its
/// queue and stack, and which neighbour each cell's depth-first walk tries next.
pub const SCRATCH_BYTES_PER_CELL: usize = 1 + 4 + 4 + 4 + 1;

use super::{Orientation, Piece};

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

/// "Not reached" in a phase's layering.
const FAR: u32 = u32::MAX;

/// The up to four neighbours of `cell` on a `rows` × `cols` board: right, down, left,
/// up (the order is part of which matching comes out, and of the paths the repair
/// and the backtracking oracle find).
pub(crate) fn neighbours(rows: usize, cols: usize, cell: usize) -> [Option<u32>; 4] {
    let (r, c) = (cell / cols, cell % cols);
    [
        (c + 1 < cols).then(|| (cell + 1) as u32),
        (r + 1 < rows).then(|| (cell + cols) as u32),
        (c > 0).then(|| (cell - 1) as u32),
        (r > 0).then(|| (cell - cols) as u32),
    ]
}

/// How the greedy pairs are laid before the phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// Row by row, each cell with its right neighbour, else the one below: the repair's
    /// start (its moves, and so its answers, follow from this tiling).
    RowMajor,
    /// First every cell with a single free neighbour paired with it, over and over
    /// (Karp and Sipser's rule, which never costs a pair a perfect matching needs), then
    /// row by row. On a shape with many holes the row-major pairs leave thousands of
    /// cells far from a partner (10,078 on a 2048×2048 shape with 600,000 holes, and 113
    /// phases); pendants first leave few.
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
    // Asked once a cell: the phases look at a cell's neighbours many times over.
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
    let mut phases = Phases {
        rows,
        cols,
        layer: vec![FAR; cells],
        queue: Vec::new(),
        stack: Vec::new(),
        tried: vec![0; cells],
        steps: 0,
        stop,
    };
    while !free.is_empty() {
        if stop() {
            return Matched::Stopped;
        }
        match phases.layer_from(&free, &partner, open) {
            None => return Matched::Stopped,
            Some(false) => return Matched::Imperfect,
            Some(true) => {}
        }
        for &start in &free {
            if phases.augment_from(start, &mut partner, open).is_none() {
                return Matched::Stopped;
            }
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

/// The scratch of the phases, sized once to the board.
struct Phases<'a> {
    rows: usize,
    cols: usize,
    /// A left cell's layer in this phase's breadth-first layering ([`FAR`]: not
    /// reached, or found to lead to no free cell).
    layer: Vec<u32>,
    queue: Vec<u32>,
    /// The depth-first walk's left cells, start first.
    stack: Vec<u32>,
    /// For a left cell on the walk: how many of its neighbours it has tried.
    tried: Vec<u8>,
    steps: u32,
    stop: &'a dyn Fn() -> bool,
}

impl Phases<'_> {
    /// Counts a step; `false` when it is time to look and `stop` says so.
    fn step(&mut self) -> bool {
        self.steps += 1;
        if self.steps >= LOOK_EVERY {
            self.steps = 0;
            return !(self.stop)();
        }
        true
    }

    /// Layers the left cells by their distance (in matched steps) from the free left
    /// cells, up to the first layer from which a free right cell is reached: `Some(true)`
    /// when one is, `Some(false)` when none can be (no augmenting path: the matching is
    /// maximum and not perfect), `None` when stopped.
    fn layer_from(&mut self, free: &[u32], partner: &[u32], open: &[bool]) -> Option<bool> {
        // Only the cells the last phase layered have a layer to forget: its queue.
        for &cell in &self.queue {
            self.layer[cell as usize] = FAR;
        }
        self.queue.clear();
        for &cell in free {
            self.layer[cell as usize] = 0;
            self.queue.push(cell);
        }
        let mut found = FAR;
        let mut head = 0;
        while head < self.queue.len() {
            if !self.step() {
                return None;
            }
            let x = self.queue[head] as usize;
            head += 1;
            let here = self.layer[x];
            if here >= found {
                break;
            }
            for y in neighbours(self.rows, self.cols, x).into_iter().flatten() {
                if !open[y as usize] {
                    continue;
                }
                let z = partner[y as usize];
                if z == NONE {
                    found = found.min(here + 1);
                } else if self.layer[z as usize] == FAR {
                    self.layer[z as usize] = here + 1;
                    self.queue.push(z);
                }
            }
        }
        Some(found != FAR)
    }

    /// One augmenting path from the free left `start` along the layering, flipped into
    /// `partner` when found; the left cells found to lead nowhere are taken out of the
    /// layering, so that the phase's walks together stay linear. `None` when stopped.
    fn augment_from(&mut self, start: u32, partner: &mut [u32], open: &[bool]) -> Option<()> {
        if self.layer[start as usize] != 0 {
            return Some(());
        }
        self.stack.clear();
        self.stack.push(start);
        self.tried[start as usize] = 0;
        while let Some(&x) = self.stack.last() {
            if !self.step() {
                return None;
            }
            let xu = x as usize;
            let around = neighbours(self.rows, self.cols, xu);
            let k = self.tried[xu] as usize;
            if k == around.len() {
                // Every way from x leads nowhere in this phase.
                self.layer[xu] = FAR;
                self.stack.pop();
                continue;
            }
            self.tried[xu] += 1;
            let Some(y) = around[k] else {
                continue;
            };
            if !open[y as usize] {
                continue;
            }
            let z = partner[y as usize];
            if z == NONE {
                // A free right cell: flip the path, each left cell on the stack taking
                // the right cell its walk stepped to.
                self.flip(y, partner);
                return Some(());
            }
            if self.layer[z as usize] == self.layer[xu].wrapping_add(1) {
                self.tried[z as usize] = 0;
                self.stack.push(z);
            }
        }
        Some(())
    }

    /// Flips the path the stack holds, which ends at the free right cell `end` reached
    /// from the stack's top; its left cells leave the layering (each path of a phase is
    /// disjoint from the others).
    fn flip(&mut self, end: u32, partner: &mut [u32]) {
        let mut to = end;
        while let Some(x) = self.stack.pop() {
            let before = partner[x as usize];
            partner[x as usize] = to;
            partner[to as usize] = x;
            self.layer[x as usize] = FAR;
            to = before;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Matched, NONE, Start, perfect_matching};

    /// Whether `partner` pairs every open cell with an open neighbour, both ways.
    fn is_perfect(rows: usize, cols: usize, open: &[bool], partner: &[u32]) -> bool {
        (0..rows * cols).all(|cell| {
            let p = partner[cell];
            if !open[cell] {
                return p == NONE;
            }
            if p == NONE || partner[p as usize] as usize != cell || !open[p as usize] {
                return false;
            }
            let (a, b) = (cell.min(p as usize), cell.max(p as usize));
            (b == a + 1 && a / cols == b / cols) || b == a + cols
        })
    }

    /// Whether the open cells can be tiled, by plain backtracking at the first open
    /// uncovered cell: knows nothing of matchings.
    fn tileable(rows: usize, cols: usize, free: &mut [bool]) -> bool {
        let Some(cell) = (0..rows * cols).find(|&c| free[c]) else {
            return true;
        };
        free[cell] = false;
        let mut ok = false;
        for other in [
            (cell % cols + 1 < cols).then(|| cell + 1),
            (cell / cols + 1 < rows).then(|| cell + cols),
        ]
        .into_iter()
        .flatten()
        {
            if free[other] {
                free[other] = false;
                ok = tileable(rows, cols, free);
                free[other] = true;
                if ok {
                    break;
                }
            }
        }
        free[cell] = true;
        ok
    }

    #[test]
    fn agrees_with_backtracking_on_every_small_board() {
        for (rows, cols) in [(1, 6), (2, 4), (3, 3), (3, 4), (4, 4)] {
            let cells = rows * cols;
            for mask in 0u32..(1 << cells) {
                let open: Vec<bool> = (0..cells).map(|c| mask >> c & 1 == 1).collect();
                let expected = tileable(rows, cols, &mut open.clone());
                for start in [Start::RowMajor, Start::PendantsFirst] {
                    let found = perfect_matching(rows, cols, &|c| open[c], start, &|| false);
                    match found {
                        Matched::Perfect(partner) => {
                            assert!(
                                expected,
                                "{rows}x{cols} mask {mask}: matched an untileable board"
                            );
                            assert!(
                                is_perfect(rows, cols, &open, &partner),
                                "{rows}x{cols} mask {mask}"
                            );
                        }
                        Matched::Imperfect => {
                            assert!(!expected, "{rows}x{cols} mask {mask}: missed a tiling")
                        }
                        Matched::Stopped => panic!("stopped without a stop"),
                    }
                }
            }
        }
    }

    /// Nested U-shaped bands whose greedy pairs leave a cell at each end of each band:
    /// every augmenting path runs the length of its band.
    #[test]
    fn long_augmenting_paths_are_found() {
        let (rows, cols, open) = pendants();
        let expected = tileable(rows, cols, &mut open.clone());
        assert!(expected, "the bands have a tiling");
        for start in [Start::RowMajor, Start::PendantsFirst] {
            match perfect_matching(rows, cols, &|c| open[c], start, &|| false) {
                Matched::Perfect(partner) => assert!(is_perfect(rows, cols, &open, &partner)),
                other => panic!("{start:?}: {}", matches!(other, Matched::Imperfect)),
            }
        }
    }

    /// The board of [`long_augmenting_paths_are_found`]: its greedy pairs leave the
    /// pendant cells of the last row, so that phases are needed.
    fn pendants() -> (usize, usize, Vec<bool>) {
        let (rows, cols) = (41, 40);
        let mut open = vec![true; rows * cols];
        for c in 0..cols {
            open[(rows - 1) * cols + c] = c % 4 == 0 || c % 4 == 3;
        }
        (rows, cols, open)
    }

    #[test]
    fn a_stop_is_heeded() {
        let (rows, cols, open) = pendants();
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            true
        };
        assert!(matches!(
            perfect_matching(rows, cols, &|c| open[c], Start::RowMajor, &stop),
            Matched::Stopped
        ));
        assert_eq!(asked.get(), 1);
    }
}
