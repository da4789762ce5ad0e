//! What the parts of the matching share: the partner of no cell, how often the work
//! looks at its stop (and the count of steps that decides it), and a cell's neighbours.

/// No partner: a blocked cell (or, during the search, an unmatched one).
pub const NONE: u32 = u32::MAX;

/// Steps of the search (cells taken from a queue or a stack) between looks at `stop`.
pub const LOOK_EVERY: u32 = 1 << 14;

/// The up to four neighbours of `cell` on a `rows` × `cols` board: right, down, left,
/// up (the order is part of which matching comes out, and of the paths the repair
/// and the backtracking oracle find).
pub fn neighbours(rows: usize, cols: usize, cell: usize) -> [Option<u32>; 4] {
    let (r, c) = (cell / cols, cell % cols);
    [
        (c + 1 < cols).then(|| (cell + 1) as u32),
        (r + 1 < rows).then(|| (cell + cols) as u32),
        (c > 0).then(|| (cell - 1) as u32),
        (r > 0).then(|| (cell - cols) as u32),
    ]
}

/// The steps of a search since it last looked at `stop`.
pub struct Looks<'a> {
    steps: u32,
    stop: &'a dyn Fn() -> bool,
}

impl<'a> Looks<'a> {
    /// No step taken yet.
    pub fn new(stop: &'a dyn Fn() -> bool) -> Looks<'a> {
        Looks { steps: 0, stop }
    }

    /// Counts a step; `false` when it is time to look and `stop` says so.
    pub fn step(&mut self) -> bool {
        self.steps += 1;
        if self.steps >= LOOK_EVERY {
            self.steps = 0;
            return !(self.stop)();
        }
        true
    }
}
