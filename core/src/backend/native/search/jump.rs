//! Backjumps over a wall: the line a descent keeps failing at.
//!
//! Lines are rows or columns, counted along the descent's sweep
//! ([`super::sweep`]); "row" below is the row sweep's case. On boards tiled by
//! row-major backtracking (the paper's protocol) a descent reaches some row easily and
//! then fails there thousands of times (BENCHMARKS.md, issue 37): the rows above it admit
//! many tilings, most of which leave the rows below no way to meet their quotas, and
//! the culprit decisions lie rows above the failures, where chronological backtracking
//! does not return in any reasonable time. A restart from the root re-descends the same
//! easy rows to the same wall. So, as the paper-protocol generator does for its own
//! dead ends (`puzzle::backtrack`), once the rows at the wall have failed often enough,
//! the descent goes back to the node where the branching cell first reached a row
//! `2^j` above the wall (`j` counts the jumps at this wall) and explores it afresh, in a
//! random value order down to the wall.
//!
//! Sound and complete: a jump only forgets which children of the nodes it leaves were
//! tried, so every failure proved before it stays proved (the failure cache keeps
//! them); and the jumps of one descent are bounded (at most `log2(rows) + 2` per wall,
//! and the wall only moves down), so a descent with a large enough failure cutoff ends
//! in a plain exhaustive search.

/// The wall of one descent and the jumps made at it. Rows here are the sweep's lines.
#[derive(Debug, Default)]
pub(super) struct Wall {
    /// Deepest row of a branching cell in this descent.
    row: usize,
    /// Failures at the wall (in its row or the one above) since it last moved or the
    /// last jump.
    failures: u64,
    /// Jumps made at this wall.
    jumps: u32,
    /// After a jump, until the descent passes the wall: branch in a random order.
    shuffling: bool,
}

/// Where a due jump goes: re-explore the node of this frame.
pub(super) struct Jump {
    pub frame: usize,
}

impl Wall {
    /// A branching cell in `row` was reached. Passing the wall moves it and ends the
    /// random order of the rows above it.
    pub fn reached(&mut self, row: usize) {
        if row > self.row {
            self.row = row;
            self.failures = 0;
            self.jumps = 0;
            self.shuffling = false;
        }
    }

    /// Whether new branching frames should take a random value order.
    pub fn shuffling(&self) -> bool {
        self.shuffling
    }

    /// A failure below a frame whose branching cell is in `row`.
    pub fn failed(&mut self, row: usize) {
        if row + 1 >= self.row {
            self.failures += 1;
        }
    }

    /// The jump due after `budget` failures at the wall, if any: to the first frame
    /// (of `frame_rows`, the branching rows of the open frames, root first, in
    /// increasing order) whose row is not `2^jumps` or more above the wall. None when no jump is due, or when it would reach
    /// the root (a restart's job, which the failure cutoff schedules).
    pub fn due(&mut self, budget: u64, frame_rows: impl Iterator<Item = usize>) -> Option<Jump> {
        if budget == 0 || self.failures < budget || self.jumps >= usize::BITS {
            return None;
        }
        self.failures = 0;
        let back = 1usize.checked_shl(self.jumps).unwrap_or(usize::MAX);
        self.jumps += 1;
        let target = self.row.saturating_sub(back);
        let (mut frame, mut open) = (0, 0);
        for row in frame_rows {
            open += 1;
            if row < target && frame + 1 == open {
                frame += 1;
            }
        }
        if frame == 0 {
            // Back to the root: no more jumps at this wall.
            self.jumps = usize::BITS;
            return None;
        }
        if frame == open {
            // The descent has already backtracked above the target.
            return None;
        }
        self.shuffling = true;
        Some(Jump { frame })
    }
}

#[cfg(test)]
mod tests {
    use super::Wall;

    #[test]
    fn jumps_double_and_stop_at_the_root() {
        let mut wall = Wall::default();
        wall.reached(40);
        let rows: Vec<usize> = (0..=40).collect();
        let mut targets = Vec::new();
        for _ in 0..10 {
            for _ in 0..3 {
                wall.failed(40);
            }
            match wall.due(3, rows.iter().copied()) {
                Some(jump) => targets.push(rows[jump.frame]),
                None => break,
            }
        }
        assert_eq!(targets, vec![39, 38, 36, 32, 24, 8]);
        assert!(wall.shuffling());
        // The wall reached the root: no further jump, however many failures.
        for _ in 0..100 {
            wall.failed(40);
        }
        assert!(wall.due(3, rows.iter().copied()).is_none());
        // A deeper row moves the wall and starts over.
        wall.reached(41);
        assert!(!wall.shuffling());
        for _ in 0..3 {
            wall.failed(41);
        }
        assert!(wall.due(3, rows.iter().copied()).is_some());
    }

    #[test]
    fn no_jump_once_the_descent_is_above_the_target() {
        let mut wall = Wall::default();
        wall.reached(40);
        wall.failed(40);
        // Open frames only down to row 30: the wall's own frames are gone.
        assert!(wall.due(1, 0..=30).is_none());
    }

    #[test]
    fn failures_far_above_the_wall_do_not_count() {
        let mut wall = Wall::default();
        wall.reached(20);
        for _ in 0..10 {
            wall.failed(5);
        }
        assert!(wall.due(3, 0..=20).is_none());
    }
}
