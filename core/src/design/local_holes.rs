//! Holes that make every window of a planted tiling locally unique, before any complete
//! search is asked: the cheap half of making a board unique.
//!
//! `generate --unique` removes other tilings by turning pieces of the planted tiling
//! `T` into holes, one at a place where `T` and another tiling differ. Most other
//! tilings differ from `T` inside a small window (a second tiling is local: on the
//! paper's boards about half of the 8×8 windows hold one), and a window's board (see
//! [`crate::backend::native::retile`]) is decided by the small-board path in
//! microseconds, where each complete search of the board took seconds at 64×64. So the
//! windows are swept first, each re-tiled until it has no tiling but `T`'s own, and the
//! complete search is left the long alternating cycles alone.
//!
//! One sweep is enough: a hole only removes tilings. The window boards after a hole
//! at a piece `p` have as tilings those of before that hold `p` (less `p`), so a window
//! found locally unique stays so while later windows are holed.

use rand_chacha::ChaCha8Rng;

use crate::backend::Budget;
use crate::backend::native::retile::{
    Local, SIDE, Starts, Window, local_tilings, pieces_in, window_board, windows_of,
};
use crate::puzzle::generate::below;
use crate::puzzle::{Instance, Piece, Solution};

/// The side of the larger windows swept after the [`SIDE`]-squares, decided by the
/// general engine (`decide`): measured at 64×64 to 256×256 (BENCHMARKS.md, "Unique
/// boards made fast"), 16 halves the complete searches left after the small windows,
/// while 32 costs more than it saves.
pub const LARGER_SIDE: usize = 16;

/// The holes, pieces of `tiling` (a tiling of `instance`), after which no window has a
/// tiling but `tiling`'s own: first the [`SIDE`]-squares of [`windows_of`], decided by
/// the small-board path, then the [`LARGER_SIDE`]-squares, decided by `decide` (the
/// window board's tilings, up to two, or `None` when it could not tell). Each hole is
/// chosen by `rng` among the pieces where `tiling` and a window's other tiling differ.
/// `None` when the budget ran out or `decide` could not tell.
pub fn local_holes(
    instance: &Instance,
    tiling: &Solution,
    rng: &mut ChaCha8Rng,
    budget: &Budget,
    decide: &mut dyn FnMut(&Instance) -> Option<Vec<Solution>>,
) -> Option<Vec<Piece>> {
    let mut starts = Starts::new(instance.rows, instance.cols, tiling.pieces());
    let mut holes = Vec::new();
    // A window as large as the board is the complete search's own question.
    let larger = LARGER_SIDE < instance.rows.max(instance.cols);
    let sides = [Some(SIDE), larger.then_some(LARGER_SIDE)];
    for side in sides.into_iter().flatten() {
        for window in windows_of(instance.rows, instance.cols, side) {
            loop {
                let (board, inside) = window_board(instance, &starts.near(window), window);
                if inside.is_empty() {
                    break;
                }
                let other: Vec<Piece> = if side == SIDE {
                    match local_tilings(&board, &inside, 1, budget) {
                        Local::Timeout => return None,
                        Local::Declined => break,
                        Local::Others(others) => match others.first() {
                            Some(&(vertical, horizontal)) => {
                                pieces_in(window, vertical, horizontal).collect()
                            }
                            None => break,
                        },
                    }
                } else {
                    if budget.expired() {
                        return None;
                    }
                    let own = Solution::from_pieces(inside.iter().copied());
                    let found = decide(&board)?;
                    let Some(other) = found.iter().find(|t| **t != own) else {
                        break;
                    };
                    other.pieces().map(|p| shifted(p, window)).collect()
                };
                let differing: Vec<Piece> = (inside.iter())
                    .map(|&local| shifted(local, window))
                    .filter(|piece| !other.contains(piece))
                    .collect();
                // Two distinct tilings of the same cells differ in a piece of each.
                if differing.is_empty() {
                    break;
                }
                let hole = differing[below(rng, differing.len() as u64) as usize];
                starts.remove(&hole);
                holes.push(hole);
            }
        }
    }
    Some(holes)
}

/// A piece of a window board, placed back on the whole board.
fn shifted(local: Piece, window: Window) -> Piece {
    Piece {
        row: local.row + window.row,
        col: local.col + window.col,
        orientation: local.orientation,
    }
}

/// One hole on each alternating cycle between `tiling` and `other`, two tilings of a
/// `rows` × `cols` board: each a piece of `tiling` chosen by `rng` on its cycle.
///
/// The cells where two tilings differ fall into cycles, alternately covered by a piece
/// of each. A second tiling found by the complete search is mostly far from the first
/// (measured at 64×64 after the windows: 700-900 of some 1,900 pieces differ, over the
/// whole board), since cycles that each move dots between rows or columns can make up
/// for each other across the board. A hole on one cycle rules out every tiling that
/// takes that cycle, not just this one, so a hole on each rules out far more than one
/// hole for the whole difference, which took hundreds of complete searches at 64×64.
pub fn cycle_holes(
    rows: usize,
    cols: usize,
    tiling: &Solution,
    other: &Solution,
    rng: &mut ChaCha8Rng,
) -> Vec<Piece> {
    let mine: Vec<Piece> = tiling.pieces().filter(|p| !other.contains(p)).collect();
    let theirs = other.pieces().filter(|p| !tiling.contains(p));
    let mut cycles = Cycles::new(rows * cols);
    for piece in mine.iter().copied().chain(theirs) {
        let (r, c) = piece.other_cell();
        cycles.join(piece.row * cols + piece.col, r * cols + c);
    }
    // The pieces of each cycle, cycles in the order of their first piece (row-major).
    let mut on: Vec<Vec<Piece>> = Vec::new();
    let mut index = rustc_hash::FxHashMap::default();
    for &piece in &mine {
        let root = cycles.root(piece.row * cols + piece.col);
        let at = *index.entry(root).or_insert_with(|| {
            on.push(Vec::new());
            on.len() - 1
        });
        on[at].push(piece);
    }
    on.iter()
        .map(|pieces| pieces[below(rng, pieces.len() as u64) as usize])
        .collect()
}

/// Cells joined into the cycles they lie on (union by size, paths halved).
struct Cycles {
    parent: Vec<usize>,
    size: Vec<u32>,
}

impl Cycles {
    fn new(cells: usize) -> Cycles {
        Cycles {
            parent: (0..cells).collect(),
            size: vec![1; cells],
        }
    }

    fn root(&mut self, mut cell: usize) -> usize {
        while self.parent[cell] != cell {
            self.parent[cell] = self.parent[self.parent[cell]];
            cell = self.parent[cell];
        }
        cell
    }

    fn join(&mut self, a: usize, b: usize) {
        let (mut a, mut b) = (self.root(a), self.root(b));
        if a == b {
            return;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a;
        self.size[a] += self.size[b];
    }
}
