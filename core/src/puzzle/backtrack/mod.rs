//! Randomized row-major backtracking: the paper's way to a random tiling (Zhao, Section
//! 6.2). At the first uncovered cell in row-major order the vertical and the horizontal
//! piece are tried in random order; a dead end goes back to the last choice.
//!
//! What that returns is, at each first uncovered cell, the first way in the drawn order
//! whose subtree holds a tiling: a subtree without one is explored and left, and changes
//! nothing but time. So an oracle that tells whether the cells left can still be tiled
//! reproduces it exactly with no backtracking at all, and a perfect matching of the
//! uncovered cells kept up to date is such an oracle (`matching.rs`): one alternating
//! path search per piece. Plain backtracking stalls on large boards, where a choice
//! rows above the bottom can leave the last rows untileable and is undone only after
//! everything below it has been tried; here the refusal is immediate, and the whole
//! board takes time close to linear in its cells.
//!
//! The coins: a cell where both pieces fit draws one (`Down` first on an even draw);
//! a cell where one fits takes it without a draw. Plain backtracking also draws coins
//! inside the subtrees it abandons, which this never enters, so the same seed gives
//! another tiling than plain backtracking would; the distribution is the same, since
//! every coin is a fair one drawn independently of all the others (a test compares the
//! frequencies with the protocol's exact probabilities on small boards).

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::Rng;

mod matching;

pub(crate) use matching::NONE;
pub use matching::Stopped;
use matching::{Cover, Matching};

/// Bytes per cell that making a tiling takes: the covered flags, the matching, the
/// tiling made, and the two searches' links, marks and queues (building the first
/// matching takes less beside it).
pub const BYTES_PER_CELL: usize = 1 + 4 + 4 + 4 + 2 * (4 + 4);

/// A tiling found by randomized row-major backtracking, and what it took.
pub struct Backtracked {
    /// `mate[cell]` is the cell the piece covering `cell` also covers; `u32::MAX` for a
    /// blocked cell.
    pub mate: Vec<u32>,
    /// Pieces placed.
    pub nodes: u64,
    /// Ways drawn first that the oracle refused (subtrees plain backtracking would have
    /// explored in vain).
    pub refusals: u64,
}

/// A tiling of the open cells of a `rows` × `cols` board by randomized row-major
/// backtracking, or `None` when they have none; `stop` is asked now and then (a time
/// limit, a stop request), and the tiling is the same whatever it says until it says
/// stop.
///
/// # Errors
/// `stop` said so first.
pub fn tiling(
    rows: usize,
    cols: usize,
    blocked: &[bool],
    rng: &mut ChaCha8Rng,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Backtracked>, Stopped> {
    let cells = rows * cols;
    let Some(mut m) = Matching::new(rows, cols, blocked.to_vec(), stop)? else {
        return Ok(None);
    };
    let mut mate = vec![NONE; cells];
    let (mut nodes, mut refusals) = (0u64, 0u64);
    let mut next = 0usize;
    loop {
        while next < cells && m.covered[next] {
            next += 1;
        }
        if next == cells {
            return Ok(Some(Backtracked {
                mate,
                nodes,
                refusals,
            }));
        }
        let (r, c) = (next / cols, next % cols);
        let down = (r + 1 < rows && !m.covered[next + cols]).then_some(next + cols);
        let right = (c + 1 < cols && !m.covered[next + 1]).then_some(next + 1);
        let ways = match (down, right) {
            (Some(d), Some(r)) if rng.next_u32() & 1 == 0 => [Some(d), Some(r)],
            (Some(d), Some(r)) => [Some(r), Some(d)],
            (d, r) => [d.or(r), None],
        };
        // The matching is perfect, so one of the ways keeps the rest tileable.
        let mut placed = false;
        for other in ways.into_iter().flatten() {
            match m.cover(next, other, stop) {
                Cover::Placed => {
                    mate[next] = other as u32;
                    mate[other] = next as u32;
                    nodes += 1;
                    placed = true;
                    break;
                }
                Cover::Refused => refusals += 1,
                Cover::Stopped => return Err(Stopped),
            }
        }
        if !placed {
            // Unreachable while the matching is perfect: a cell with a partner has a
            // way that keeps it. Said rather than assumed.
            return Ok(None);
        }
    }
}

#[cfg(test)]
mod tests;
