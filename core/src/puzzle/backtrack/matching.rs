//! A perfect matching of the uncovered cells, kept while pieces are placed: the oracle
//! that tells randomized row-major backtracking, without backtracking, which of its two
//! ways at a cell leaves cells that can still be tiled.
//!
//! The uncovered cells can be tiled exactly when the grid graph on them has a perfect
//! matching. With `matched` a perfect matching of the uncovered cells, covering two of
//! them, `a` and `b`, leaves a tileable rest iff `a` and `b` are matched to each other,
//! or an alternating path joins their former partners `a'` and `b'` among the cells
//! left: the matching less the pairs of `a` and `b` leaves exactly `a'` and `b'`
//! unmatched, and by Berge's theorem it grows to a perfect one iff such a path exists.
//! The path, flipped, is the next matching. Two breadth-first searches per piece, one
//! from each end in turn; the partners are neighbours of neighbours, so a path is most
//! often a few steps long, and a refusal costs the smaller of the two sides.

use crate::puzzle::perfect_matching::{LOOK_EVERY, Matched, Start, perfect_matching};

/// No partner: a blocked (or covered) cell.
pub(crate) use crate::puzzle::perfect_matching::NONE;

/// The stop came before the tiling was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("stopped before the random tiling was made")]
pub struct Stopped;

/// What [`Matching::cover`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cover {
    /// The piece is placed and the matching is perfect again.
    Placed,
    /// The cells left would have no tiling: nothing changed.
    Refused,
    /// The stop came first: nothing changed.
    Stopped,
}

/// One of the two searches of [`Matching::cover`]: from one unmatched cell to the other.
struct Side {
    goal: u32,
    seen: Vec<u32>,
    epoch: u32,
    queue: Vec<u32>,
    head: usize,
}

impl Side {
    fn new(cells: usize) -> Side {
        Side {
            goal: NONE,
            seen: vec![0; cells],
            epoch: 0,
            queue: Vec::new(),
            head: 0,
        }
    }

    /// Starts a new search from `start` for `goal`.
    fn begin(&mut self, start: u32, goal: u32) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.seen.fill(0);
            self.epoch = 1;
        }
        self.goal = goal;
        self.queue.clear();
        self.queue.push(start);
        self.head = 0;
        self.seen[start as usize] = self.epoch;
    }
}

/// The matching of the uncovered cells, and the search's scratch arrays: all sized
/// once, to the board.
pub(super) struct Matching {
    rows: usize,
    cols: usize,
    /// Covered (or blocked) cells: out of the graph.
    pub covered: Vec<bool>,
    /// The partner of each uncovered cell in the matching; [`NONE`] for covered cells.
    pub partner: Vec<u32>,
    /// For a cell reached by a search: the cell it was reached from, by an unmatched
    /// step. The two searches of a cover start from cells of the two colours, so each
    /// writes only cells of one colour here, and they share it.
    from: Vec<u32>,
    sides: [Side; 2],
    /// Steps since `stop` was last asked.
    steps: u32,
}

/// How one step of a search ended.
enum Step {
    Going,
    Found,
    Exhausted,
}

impl Matching {
    /// The uncovered cells of a board with `covered` marked, and a perfect matching of
    /// them; `Ok(None)` when they have none.
    ///
    /// # Errors
    /// `stop` said so before the matching was built.
    pub fn new(
        rows: usize,
        cols: usize,
        covered: Vec<bool>,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Matching>, Stopped> {
        let cells = rows * cols;
        let partner = match perfect_matching(
            rows,
            cols,
            &|cell| !covered[cell],
            Start::PendantsFirst,
            stop,
        ) {
            Matched::Perfect(partner) => partner,
            Matched::Imperfect => return Ok(None),
            Matched::Stopped => return Err(Stopped),
        };
        Ok(Some(Matching {
            rows,
            cols,
            covered,
            partner,
            from: vec![NONE; cells],
            sides: [Side::new(cells), Side::new(cells)],
            steps: 0,
        }))
    }

    /// The up to four uncovered-or-not neighbours of `cell` on the board.
    fn neighbours(&self, cell: usize) -> [Option<u32>; 4] {
        crate::puzzle::perfect_matching::neighbours(self.rows, self.cols, cell)
    }

    /// Covers `a` and `b` (neighbours, both uncovered) with one piece if the cells left
    /// can still be tiled, keeping the matching perfect; refused or stopped, nothing
    /// changes.
    pub fn cover(&mut self, a: usize, b: usize, stop: &dyn Fn() -> bool) -> Cover {
        let (pa, pb) = (self.partner[a], self.partner[b]);
        if pa as usize == b {
            self.take(a, b);
            return Cover::Placed;
        }
        // Out of the graph for the search: a and b.
        self.covered[a] = true;
        self.covered[b] = true;
        self.partner[pa as usize] = NONE;
        self.partner[pb as usize] = NONE;
        let found = self.path(pa, pb, stop);
        if found == Cover::Placed {
            self.partner[a] = NONE;
            self.partner[b] = NONE;
            return Cover::Placed;
        }
        // Refused or stopped: everything as it was.
        self.covered[a] = false;
        self.covered[b] = false;
        self.partner[pa as usize] = a as u32;
        self.partner[pb as usize] = b as u32;
        found
    }

    /// Takes the matched pair `a`, `b` out of the graph.
    fn take(&mut self, a: usize, b: usize) {
        self.covered[a] = true;
        self.covered[b] = true;
        self.partner[a] = NONE;
        self.partner[b] = NONE;
    }

    /// Whether an alternating path joins the unmatched `one` and `other` (of the two
    /// colours); found, it is flipped into the matching. Two breadth-first searches, one
    /// from each end, take a step in turn, and the first to finish answers: one that
    /// finds the other end has a path, one that runs out of cells proves there is none.
    /// A refusal is most often a small pocket the piece would cut off, which the search
    /// from inside it exhausts in a few steps, however large the rest of the board: so
    /// a refusal costs about the smaller side, not the whole region, and a shape with
    /// many holes stays close to linear.
    fn path(&mut self, one: u32, other: u32, stop: &dyn Fn() -> bool) -> Cover {
        self.sides[0].begin(one, other);
        self.sides[1].begin(other, one);
        loop {
            for side in 0..2 {
                self.steps += 1;
                if self.steps >= LOOK_EVERY {
                    self.steps = 0;
                    if stop() {
                        return Cover::Stopped;
                    }
                }
                match self.advance(side) {
                    Step::Going => {}
                    Step::Found => return Cover::Placed,
                    Step::Exhausted => return Cover::Refused,
                }
            }
        }
    }

    /// One cell taken from the queue of search `side` and its neighbours looked at:
    /// found, the path is flipped.
    fn advance(&mut self, side: usize) -> Step {
        let s = &self.sides[side];
        if s.head == s.queue.len() {
            return Step::Exhausted;
        }
        let x = s.queue[s.head] as usize;
        let (epoch, goal) = (s.epoch, s.goal);
        self.sides[side].head += 1;
        for y in self.neighbours(x).into_iter().flatten() {
            let yu = y as usize;
            if self.covered[yu] || self.sides[side].seen[yu] == epoch {
                continue;
            }
            // `y` is of the other colour: reached by an unmatched edge from `x`.
            self.sides[side].seen[yu] = epoch;
            self.from[yu] = x as u32;
            if y == goal {
                self.flip(y);
                return Step::Found;
            }
            let z = self.partner[yu];
            if z != NONE && self.sides[side].seen[z as usize] != epoch {
                self.sides[side].seen[z as usize] = epoch;
                self.sides[side].queue.push(z);
            }
        }
        Step::Going
    }

    /// Flips the path that ends at `goal`: each cell of the goal's colour on it is
    /// matched to the cell it was reached from.
    fn flip(&mut self, goal: u32) {
        let mut y = goal;
        loop {
            let x = self.from[y as usize];
            let next = self.partner[x as usize];
            self.partner[x as usize] = y;
            self.partner[y as usize] = x;
            if next == NONE {
                return;
            }
            y = next;
        }
    }
}
