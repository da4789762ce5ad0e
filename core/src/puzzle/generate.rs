//! Planted instances after the paper's Section 6.2: a random tiling, up to a fifth of
//! its pieces removed as holes, clues read off the pieces that remain.
//!
//! The random tiling comes one of two ways ([`Tiling`]). The paper's is randomized
//! row-major backtracking ([`super::backtrack`]), exactly, with a matching that tells it
//! at once which way still leads to a tiling (so it never stalls). The default is a canonical tiling shuffled by random 2×2
//! flips (two parallel dominoes in a square turned by a quarter): it never fails,
//! reaches every tiling of a rectangle and mixes towards the uniform one, with about as
//! many horizontal pieces as vertical ones; row-major backtracking makes tilings with
//! far more vertical pieces (a horizontal share of about 0.38 at 32×32 and 0.35 at
//! 128×128 and above), which is why the two distributions are both worth measuring.
//!
//! Every instance is reproducible from `(seed, index)` alone: instance `k` of a run is
//! the same whatever `count` was asked for.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use super::{Instance, MAX_CELLS, MAX_SIDE, Piece, Solution};

/// Errors in generator parameters.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum GenerateError {
    /// Zero rows or zero columns.
    #[error("a board needs at least one row and one column (asked for {rows}x{cols})")]
    Empty {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// More than [`MAX_SIDE`] rows or columns, or more than [`MAX_CELLS`] cells: a board
    /// the parser would refuse.
    #[error(
        "a {rows}x{cols} board is larger than supported: at most {MAX_SIDE} rows or columns and {MAX_CELLS} cells"
    )]
    TooLarge {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// Parts that do not make a board (a caller's blocked cells of the wrong length).
    #[error(transparent)]
    Instance(#[from] super::InstanceError),
    /// A stop request came before the board's tiling was made.
    #[error(transparent)]
    Stopped(#[from] super::backtrack::Stopped),
}

/// A uniform integer in `0..n` (n > 0), by rejection so every value is equally likely
/// and the stream of values depends only on the generator's bits.
pub fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    let zone = u64::MAX - (u64::MAX - n + 1) % n;
    loop {
        let x = rng.next_u64();
        if x <= zone {
            return x % n;
        }
    }
}

/// Generates planted instance number `index` (zero-based) of the stream `seed`,
/// with the tiling it was planted from.
///
/// # Errors
/// Empty or oversized boards.
pub fn planted(
    rows: usize,
    cols: usize,
    seed: u64,
    index: u64,
) -> Result<(Instance, Solution), GenerateError> {
    planted_by(rows, cols, seed, index, true, Tiling::Flips)
}

/// How a planted board's random tiling is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Tiling {
    /// A canonical tiling shuffled by random 2×2 flips: near-uniform, about as many
    /// horizontal pieces as vertical ones (the default).
    #[default]
    Flips,
    /// Randomized row-major backtracking, the paper's protocol (Section 6.2): about 34–39%
    /// horizontal pieces; boards named `paper-…`.
    Backtrack,
}

/// Like [`planted`] but with no piece removed: every cell open (but the last of an
/// odd board), the clues of a random tiling. These are the long open boards where
/// solutions are counted in the millions and beyond.
///
/// # Errors
/// Empty or oversized boards.
pub fn planted_open(
    rows: usize,
    cols: usize,
    seed: u64,
    index: u64,
) -> Result<(Instance, Solution), GenerateError> {
    planted_by(rows, cols, seed, index, false, Tiling::Flips)
}

/// Whether a board of `rows` × `cols` can be generated: not empty, and within the
/// limits of the parser (what `generate` writes, `solve` must read).
///
/// # Errors
/// An empty or too large board.
pub fn check_size(rows: usize, cols: usize) -> Result<(), GenerateError> {
    if rows == 0 || cols == 0 {
        return Err(GenerateError::Empty { rows, cols });
    }
    if rows > MAX_SIDE || cols > MAX_SIDE || rows.checked_mul(cols).is_none_or(|a| a > MAX_CELLS) {
        return Err(GenerateError::TooLarge { rows, cols });
    }
    Ok(())
}

/// [`planted`] or [`planted_open`] (`holes` false) with the tiling made by `tiling`.
/// Boards of the paper's protocol ([`Tiling::Backtrack`]) are named `paper-…` (and
/// `paper-open-…`), so that they never share a name with a flip-chain board.
///
/// # Errors
/// Empty or oversized boards.
pub fn planted_by(
    rows: usize,
    cols: usize,
    seed: u64,
    index: u64,
    holes: bool,
    tiling: Tiling,
) -> Result<(Instance, Solution), GenerateError> {
    check_size(rows, cols)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);

    let cells = rows * cols;
    let mut blocked = vec![false; cells];
    if cells % 2 == 1 {
        blocked[cells - 1] = true;
    }
    let mate = match tiling {
        Tiling::Flips => {
            let mut mate = canonical_tiling(rows, cols);
            shuffle_by_flips(&mut mate, rows, cols, &mut rng);
            mate
        }
        // A rectangle (less its last cell when odd) always has a tiling.
        Tiling::Backtrack => {
            match super::backtrack::tiling(
                rows,
                cols,
                &blocked,
                &mut rng,
                &crate::stop::stopped_here,
            )? {
                Some(found) => found.mate,
                None => unreachable!("a rectangle less at most one corner cell has a tiling"),
            }
        }
    };

    // Pieces of the tiling, by their start cell.
    let mut pieces: Vec<Piece> = super::perfect_matching::pieces(cols, &mate);

    // Remove a uniform number of pieces, at most a fifth, chosen uniformly.
    let removable = if holes { pieces.len() as u64 / 5 } else { 0 };
    let remove = below(&mut rng, removable + 1) as usize;
    for k in 0..remove {
        let pick = k + below(&mut rng, (pieces.len() - k) as u64) as usize;
        pieces.swap(k, pick);
    }
    for piece in &pieces[..remove] {
        let (r2, c2) = piece.other_cell();
        blocked[piece.row * cols + piece.col] = true;
        blocked[r2 * cols + c2] = true;
    }
    let kept = Solution::from_pieces(pieces[remove..].iter().copied());
    let kind = match (tiling, holes) {
        (Tiling::Flips, true) => "planted",
        (Tiling::Flips, false) => "open",
        (Tiling::Backtrack, true) => "paper",
        (Tiling::Backtrack, false) => "paper-open",
    };
    let name = format!("{kind}-{rows}x{cols}-s{seed}-{}", index + 1);
    let instance = with_clues_of(name, rows, cols, blocked, &kept)?;
    Ok((instance, kept))
}

/// `instance` with the pieces `holes` of `tiling` made holes (both cells of each
/// blocked), named `name`, with the clues of the rest of `tiling`; and that rest. How a
/// designer's board loses a choice: `design::unique` makes holes where two tilings
/// differ, `design::shared` proposes them.
///
/// # Errors
/// As [`with_clues_of`].
pub fn with_holes(
    name: String,
    instance: &Instance,
    tiling: &Solution,
    holes: &[Piece],
) -> Result<(Instance, Solution), GenerateError> {
    let mut blocked = instance.blocked.clone();
    for hole in holes {
        let (r2, c2) = hole.other_cell();
        blocked[hole.row * instance.cols + hole.col] = true;
        blocked[r2 * instance.cols + c2] = true;
    }
    let rest = Solution::from_pieces(tiling.pieces().filter(|p| !holes.contains(p)));
    let board = with_clues_of(name, instance.rows, instance.cols, blocked, &rest)?;
    Ok((board, rest))
}

/// The board whose clues are the dots of `tiling`, with `blocked` cells as given.
/// The tiling is not checked against the blocked cells; the caller planted it there.
///
/// # Errors
/// `blocked` does not have one flag per cell, or the size is out of range.
pub fn with_clues_of(
    name: String,
    rows: usize,
    cols: usize,
    blocked: Vec<bool>,
    tiling: &Solution,
) -> Result<Instance, GenerateError> {
    let mut row_clues = vec![0u64; rows];
    let mut col_clues = vec![0u64; cols];
    for piece in tiling.pieces() {
        let (r2, c2) = piece.other_cell();
        let (d1, d2) = piece.dots();
        row_clues[piece.row] += d1;
        col_clues[piece.col] += d1;
        row_clues[r2] += d2;
        col_clues[c2] += d2;
    }
    Ok(Instance::new(
        name,
        (rows, cols),
        blocked,
        row_clues,
        col_clues,
    )?)
}

use super::backtrack::NONE;

/// A tiling as `mate[cell] = partner cell`: horizontal when the width is even,
/// vertical when the height is, and for odd×odd boards (bottom-right cell blocked)
/// vertical pieces above a horizontal last row.
fn canonical_tiling(rows: usize, cols: usize) -> Vec<u32> {
    let mut mate = vec![NONE; rows * cols];
    let mut pair = |a: usize, b: usize| {
        mate[a] = b as u32;
        mate[b] = a as u32;
    };
    if cols.is_multiple_of(2) {
        for r in 0..rows {
            for c in (0..cols).step_by(2) {
                pair(r * cols + c, r * cols + c + 1);
            }
        }
    } else if rows.is_multiple_of(2) {
        for r in (0..rows).step_by(2) {
            for c in 0..cols {
                pair(r * cols + c, (r + 1) * cols + c);
            }
        }
    } else {
        for r in (0..rows - 1).step_by(2) {
            for c in 0..cols {
                pair(r * cols + c, (r + 1) * cols + c);
            }
        }
        let last = (rows - 1) * cols;
        for c in (0..cols - 1).step_by(2) {
            pair(last + c, last + c + 1);
        }
    }
    mate
}

/// Random 2×2 flips, enough of them to move every piece many times over.
fn shuffle_by_flips(mate: &mut [u32], rows: usize, cols: usize, rng: &mut ChaCha8Rng) {
    if rows < 2 || cols < 2 {
        return;
    }
    let attempts = 16 * rows * cols;
    let squares = ((rows - 1) * (cols - 1)) as u64;
    for _ in 0..attempts {
        let s = below(rng, squares) as usize;
        let (r, c) = (s / (cols - 1), s % (cols - 1));
        let a = r * cols + c;
        let (b, d, e) = (a + 1, a + cols, a + cols + 1);
        let (a32, b32, d32, e32) = (a as u32, b as u32, d as u32, e as u32);
        if mate[a] == b32 && mate[d] == e32 {
            mate[a] = d32;
            mate[d] = a32;
            mate[b] = e32;
            mate[e] = b32;
        } else if mate[a] == d32 && mate[b] == e32 {
            mate[a] = b32;
            mate[b] = a32;
            mate[d] = e32;
            mate[e] = d32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::verify::verify;

    #[test]
    fn planted_boards_are_solved_by_their_tiling() {
        for (rows, cols) in [
            (1, 1),
            (1, 2),
            (2, 1),
            (3, 3),
            (5, 7),
            (6, 6),
            (8, 8),
            (9, 4),
            (16, 16),
        ] {
            for index in 0..5 {
                let (instance, tiling) = planted(rows, cols, 7, index).unwrap();
                assert_eq!(verify(&instance, &tiling), Ok(()), "{}", instance.name);
            }
        }
    }

    #[test]
    fn reproducible_and_varied() {
        let a = planted(8, 8, 1, 3).unwrap();
        let b = planted(8, 8, 1, 3).unwrap();
        assert_eq!(a, b);
        let c = planted(8, 8, 1, 4).unwrap();
        assert_ne!((&a.0.blocked, &a.1), (&c.0.blocked, &c.1));
    }

    #[test]
    fn refuses_empty_and_huge() {
        assert_eq!(
            planted(0, 3, 1, 0).unwrap_err(),
            GenerateError::Empty { rows: 0, cols: 3 }
        );
        assert!(matches!(
            planted(4096, 4096, 1, 0),
            Err(GenerateError::TooLarge { .. })
        ));
    }
}
