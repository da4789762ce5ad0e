//! Hopcroft–Karp phases: a maximal set of shortest disjoint augmenting paths from all
//! the free left cells at once, one breadth-first layering and one depth-first pass per
//! phase. The repair's first tiling is made so (from row-major greedy pairs): its moves,
//! and so how soon it answers, follow from the tiling it starts from, and forest passes
//! from the same pairs made some committed boards' `--limit 1` several times slower
//! (BENCHMARKS.md, "Forest passes").

use super::grid::{Looks, NONE, neighbours};

/// The matching from `partner` (the greedy pairs, `free` the left cells they leave) by
/// Hopcroft–Karp phases ([`Phases`]): `Some(true)` when it is perfect, `Some(false)`
/// when no perfect matching exists, `None` when stopped.
pub(super) fn shortest_phases(
    rows: usize,
    cols: usize,
    open: &[bool],
    partner: &mut [u32],
    mut free: Vec<u32>,
    stop: &dyn Fn() -> bool,
) -> Option<bool> {
    let cells = rows * cols;
    let mut phases = Phases {
        rows,
        cols,
        layer: vec![FAR; cells],
        queue: Vec::new(),
        stack: Vec::new(),
        tried: vec![0; cells],
        looks: Looks::new(stop),
    };
    while !free.is_empty() {
        if stop() {
            return None;
        }
        if !phases.layer_from(&free, partner, open)? {
            return Some(false);
        }
        for &start in &free {
            phases.augment_from(start, partner, open)?;
        }
        free.retain(|&cell| partner[cell as usize] == NONE);
    }
    Some(true)
}

/// "Not reached" in a phase's layering.
const FAR: u32 = u32::MAX;

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
    looks: Looks<'a>,
}

impl Phases<'_> {
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
            if !self.looks.step() {
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
            if !self.looks.step() {
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
