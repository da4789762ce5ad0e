//! Alternating paths: how the repair changes the tiling it holds. Taking two cells out
//! of their pieces leaves two cells unpaired; a breadth-first search for an alternating
//! path between them (unpaired step, paired step, ...), flipped, pairs every cell again.
//! The search is bounded (a move that needs to reach far is given up), and its
//! neighbour order is drawn, so that repeated moves at one place try different paths.

use super::tiling::{NONE, Tiling};
use crate::puzzle::perfect_matching::{Matched, Start, perfect_matching};

/// Some perfect matching of the open cells (`open[cell]`), or why there is none
/// ([`perfect_matching`]: forest passes from row-major greedy pairs), looking at `stop`
/// as it goes.
pub fn any_tiling(
    rows: usize,
    cols: usize,
    open: &[bool],
    stop: &dyn Fn() -> bool,
) -> Result<Option<Tiling>, Stopped> {
    match perfect_matching(rows, cols, &|cell| open[cell], Start::RowMajor, stop) {
        Matched::Perfect(partner) => Ok(Some(Tiling {
            rows,
            cols,
            partner,
        })),
        Matched::Imperfect => Ok(None),
        Matched::Stopped => Err(Stopped),
    }
}

/// The budget ran out before the first tiling was built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

/// The search's scratch arrays, sized once to the board, and the log of what the last
/// flips changed (so that a move can be undone).
pub(super) struct PathSearch {
    /// For a cell reached by the current search (`seen == epoch`): the cell it was
    /// reached from by an unpaired step.
    from: Vec<u32>,
    seen: Vec<u32>,
    epoch: u32,
    queue: Vec<u32>,
    /// `(cell, its partner before)` for every partner the flips since [`Self::mark`]
    /// changed.
    pub log: Vec<(u32, u32)>,
    /// A xorshift state for the neighbour order.
    draw: u64,
    /// Cells queued by all searches so far: the repair's work, in units comparable
    /// across machines.
    pub explored: u64,
}

impl PathSearch {
    pub fn new(cells: usize) -> PathSearch {
        PathSearch {
            from: vec![NONE; cells],
            seen: vec![0; cells],
            epoch: 0,
            queue: Vec::new(),
            log: Vec::new(),
            draw: 0x9E37_79B9_7F4A_7C15,
            explored: 0,
        }
    }

    /// Seeds the neighbour order.
    pub fn seed(&mut self, seed: u64) {
        self.draw = seed | 1;
    }

    fn next_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.seen.fill(0);
            self.epoch = 1;
        }
        self.epoch
    }

    fn rotation(&mut self) -> usize {
        self.draw ^= self.draw << 13;
        self.draw ^= self.draw >> 7;
        self.draw ^= self.draw << 17;
        (self.draw >> 32) as usize & 3
    }

    /// Sets `cell`'s partner to `to`, logging what it was.
    pub fn pair(&mut self, t: &mut Tiling, cell: u32, to: u32) {
        self.log.push((cell, t.partner[cell as usize]));
        t.partner[cell as usize] = to;
    }

    /// Puts back every partner the log holds, newest first, and empties it.
    pub fn undo(&mut self, t: &mut Tiling) {
        while let Some((cell, before)) = self.log.pop() {
            t.partner[cell as usize] = before;
        }
    }

    /// An alternating path from the unpaired `start` to the unpaired `goal`, through
    /// cells other than `out` and without the step from `start` to `not_first`,
    /// exploring at most `limit` cells; found, it is flipped (and logged).
    pub fn between(
        &mut self,
        t: &mut Tiling,
        start: u32,
        goal: u32,
        out: [u32; 2],
        not_first: u32,
        limit: usize,
    ) -> bool {
        let epoch = self.next_epoch();
        self.queue.clear();
        self.queue.push(start);
        self.seen[start as usize] = epoch;
        for c in out {
            if c != NONE {
                self.seen[c as usize] = epoch;
            }
        }
        let mut head = 0;
        while head < self.queue.len() && self.queue.len() <= limit {
            self.explored += 1;
            let x = self.queue[head] as usize;
            head += 1;
            let around = t.neighbours(x);
            let turn = self.rotation();
            for k in 0..4 {
                let Some(y) = around[(k + turn) & 3] else {
                    continue;
                };
                let yu = y as usize;
                if self.seen[yu] == epoch || t.partner[yu] == NONE && y != goal {
                    continue;
                }
                if x == start as usize && y == not_first {
                    continue;
                }
                self.seen[yu] = epoch;
                self.from[yu] = x as u32;
                if y == goal {
                    self.flip(t, goal);
                    return true;
                }
                let z = t.partner[yu];
                if self.seen[z as usize] != epoch {
                    self.seen[z as usize] = epoch;
                    self.queue.push(z);
                }
            }
        }
        false
    }

    /// Flips the path that ends at `goal`: each cell of the goal's colour on it is
    /// paired with the cell it was reached from.
    fn flip(&mut self, t: &mut Tiling, goal: u32) {
        let mut y = goal;
        loop {
            let x = self.from[y as usize];
            let next = t.partner[x as usize];
            self.pair(t, x, y);
            self.pair(t, y, x);
            if next == NONE {
                return;
            }
            y = next;
        }
    }
}
