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
//! The path, flipped, is the next matching. One breadth-first search per piece; the
//! partners are neighbours of neighbours, so a path is most often a few steps long, and
//! only a refusal explores its whole region.

/// No partner: a blocked (or covered) cell.
pub(crate) const NONE: u32 = u32::MAX;

/// The matching of the uncovered cells, and the search's scratch arrays: all sized
/// once, to the board.
pub(super) struct Matching {
    rows: usize,
    cols: usize,
    /// Covered (or blocked) cells: out of the graph.
    pub covered: Vec<bool>,
    /// The partner of each uncovered cell in the matching; [`NONE`] for covered cells.
    pub partner: Vec<u32>,
    /// For cells reached by the current search (`seen == epoch`): the cell it was reached
    /// from, two steps back along the path (the matched partner's neighbour).
    from: Vec<u32>,
    seen: Vec<u32>,
    epoch: u32,
    queue: Vec<u32>,
}

impl Matching {
    /// The uncovered cells of a board with `covered` marked, and a perfect matching of
    /// them; `None` when they have none.
    pub fn new(rows: usize, cols: usize, covered: Vec<bool>) -> Option<Matching> {
        let cells = rows * cols;
        let mut m = Matching {
            rows,
            cols,
            covered,
            partner: vec![NONE; cells],
            from: vec![NONE; cells],
            seen: vec![0; cells],
            epoch: 0,
            queue: Vec::new(),
        };
        // Greedy pairs along rows then columns, then an augmenting path for each cell
        // left over (few on the boards the protocol makes).
        for cell in 0..cells {
            if m.covered[cell] || m.partner[cell] != NONE {
                continue;
            }
            if let Some(next) = m.neighbours(cell).into_iter().flatten().find(|&n| {
                !m.covered[n as usize] && m.partner[n as usize] == NONE && n as usize > cell
            }) {
                m.partner[cell] = next;
                m.partner[next as usize] = cell as u32;
            }
        }
        for cell in 0..cells {
            if !m.covered[cell] && m.partner[cell] == NONE && !m.path(cell as u32, NONE) {
                return None;
            }
        }
        Some(m)
    }

    /// The up to four uncovered-or-not neighbours of `cell` on the board.
    fn neighbours(&self, cell: usize) -> [Option<u32>; 4] {
        let (r, c) = (cell / self.cols, cell % self.cols);
        [
            (c + 1 < self.cols).then(|| (cell + 1) as u32),
            (r + 1 < self.rows).then(|| (cell + self.cols) as u32),
            (c > 0).then(|| (cell - 1) as u32),
            (r > 0).then(|| (cell - self.cols) as u32),
        ]
    }

    /// Covers `a` and `b` (neighbours, both uncovered) with one piece if the cells left
    /// can still be tiled, keeping the matching perfect; `false`, with nothing changed,
    /// when they cannot.
    pub fn cover(&mut self, a: usize, b: usize) -> bool {
        let (pa, pb) = (self.partner[a], self.partner[b]);
        if pa as usize == b {
            self.take(a, b);
            return true;
        }
        // Out of the graph for the search: a and b.
        self.covered[a] = true;
        self.covered[b] = true;
        self.partner[pa as usize] = NONE;
        self.partner[pb as usize] = NONE;
        if self.path(pa, pb) {
            self.partner[a] = NONE;
            self.partner[b] = NONE;
            return true;
        }
        // Refused: everything as it was.
        self.covered[a] = false;
        self.covered[b] = false;
        self.partner[pa as usize] = a as u32;
        self.partner[pb as usize] = b as u32;
        false
    }

    /// Takes the matched pair `a`, `b` out of the graph.
    fn take(&mut self, a: usize, b: usize) {
        self.covered[a] = true;
        self.covered[b] = true;
        self.partner[a] = NONE;
        self.partner[b] = NONE;
    }

    /// A breadth-first search for an alternating path from the unmatched `start` to the
    /// unmatched `goal` (of the other colour), or with `goal` [`NONE`] to any unmatched
    /// cell; found, it is flipped into the matching.
    fn path(&mut self, start: u32, goal: u32) -> bool {
        let epoch = self.next_epoch();
        self.queue.clear();
        self.queue.push(start);
        self.seen[start as usize] = epoch;
        self.from[start as usize] = NONE;
        let mut head = 0;
        while head < self.queue.len() {
            let x = self.queue[head] as usize;
            head += 1;
            for y in self.neighbours(x).into_iter().flatten() {
                let yu = y as usize;
                if self.covered[yu] || self.seen[yu] == epoch {
                    continue;
                }
                // `y` is of the other colour: reached by an unmatched edge from `x`.
                self.seen[yu] = epoch;
                self.from[yu] = x as u32;
                let z = self.partner[yu];
                if y == goal || (goal == NONE && z == NONE) {
                    self.flip(y);
                    return true;
                }
                if z != NONE && self.seen[z as usize] != epoch {
                    self.seen[z as usize] = epoch;
                    self.queue.push(z);
                }
            }
        }
        false
    }

    /// A mark no cell carries yet, for a new search.
    fn next_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.seen.fill(0);
            self.epoch = 1;
        }
        self.epoch
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
