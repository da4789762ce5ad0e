//! Unique boards aimed at a level of the deduction ladder, the way Sudoku generators
//! aim at a difficulty: by taking information away while the answer stays unique.
//!
//! A board's information is its clues and its holes. Start from a hole-free planted
//! board and its tiling, turn a random share of the tiling's pieces into holes (as the
//! paper's protocol does, up to a fifth of them), and more where another tiling still
//! meets the clues, until the board is unique: a board with many holes, which reasoning
//! finishes easily. Then give holes back, one piece at a time in a random order, each
//! kept only while the board stays unique and no harder than the level asked for; the
//! planted tiling tiles every board on the way, so each stays solvable. The first board
//! at exactly the level is the answer; a start from which no order of giving back
//! reaches it is rejected, and the next start is tried.
//!
//! Uniqueness is the native search's (as for every unique board), the level is
//! `grade`'s: the kept board is one `generate --unique --level` would keep, by
//! Tatham's rule (solved at its level and not below).

use rand_chacha::ChaCha8Rng;

use super::{DesignError, DesignOptions, design_rng, grade, prove};
use crate::backend::{BackendError, Status};
use crate::puzzle::generate::{Tiling, below, planted_by, with_clues_of};
use crate::puzzle::{Instance, Piece, Solution};

/// A board at the level asked for, and the work behind it.
#[derive(Debug, Clone)]
pub struct Aimed {
    /// The board, unique, at the level.
    pub instance: Instance,
    /// Its one tiling.
    pub solution: Solution,
    /// Boards graded on the way (every uniqueness check and grade counts one).
    pub graded: u64,
}

/// Where the climb from one start ended.
enum Climb {
    /// At the level.
    Reached(Instance, Solution),
    /// Every hole tried and none brought the board to the level.
    Missed,
}

/// Fisher and Yates's shuffle, by the generator's own uniform draw.
fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// The board of `start`: the open board's blocked cells, the holes' cells blocked, and
/// the clues of `tiling`.
fn board(open: &Instance, holes: &[Piece], tiling: &Solution) -> Result<Instance, DesignError> {
    let mut blocked = open.blocked.clone();
    for hole in holes {
        let (r2, c2) = hole.other_cell();
        blocked[hole.row * open.cols + hole.col] = true;
        blocked[r2 * open.cols + c2] = true;
    }
    Ok(with_clues_of(
        open.name.clone(),
        open.rows,
        open.cols,
        blocked,
        tiling,
    )?)
}

/// Unique start `start` of board `index`, climbed to `level`: the graded count added to
/// `graded`.
fn climb(
    rows: usize,
    cols: usize,
    seed: u64,
    start: u64,
    level: u32,
    options: &DesignOptions,
    graded: &mut u64,
) -> Result<Climb, DesignError> {
    let (open, planted) = planted_by(rows, cols, seed, start, false, Tiling::Flips)?;
    let mut rng: ChaCha8Rng = design_rng(seed, start);
    let mut pieces: Vec<Piece> = planted.pieces().collect();
    shuffle(&mut pieces, &mut rng);
    let first_holes = pieces.len() / 3;
    let mut holes: Vec<Piece> = pieces.split_off(pieces.len() - first_holes);
    let mut tiling = Solution::from_pieces(pieces.iter().copied());
    // Holes where another tiling differs, until none is left.
    let mut instance = loop {
        let instance = board(&open, &holes, &tiling)?;
        *graded += 1;
        let report = prove(&instance, 2, options.timeout)?;
        match report.status {
            Status::Unique => break instance,
            Status::Multiple => {
                let Some(other) = report.solutions.iter().find(|s| **s != tiling) else {
                    return Err(BackendError::Failed {
                        backend: report.header.backend,
                        message: "reported two solutions that are the same tiling".into(),
                    }
                    .into());
                };
                let differing: Vec<Piece> =
                    tiling.pieces().filter(|p| !other.contains(p)).collect();
                let hole = differing[below(&mut rng, differing.len() as u64) as usize];
                tiling = Solution::from_pieces(tiling.pieces().filter(|p| *p != hole));
                holes.push(hole);
            }
            _ => return Ok(Climb::Missed),
        }
    };
    let mut at = grade(&instance, Some(options.timeout))?.level_number;
    *graded += 1;
    // Below the level, a hole given back (the first in a random order that keeps the
    // board unique); above it, a piece of the tiling made a hole, which keeps it unique
    // (a second tiling of the board with the hole would, with the piece, be a second
    // tiling of the board without). A bounded walk: it ends at the level, or misses.
    let bound = 4 * (tiling.vertical.len() + tiling.horizontal.len() + holes.len());
    // The hole made last, by a step sideways: not given straight back.
    let mut fresh: Option<Piece> = None;
    for _ in 0..bound {
        match at {
            Some(l) if l == level => return Ok(Climb::Reached(instance, tiling)),
            Some(l) if l > level => {
                // Above it: the first piece (in a random order) whose hole brings the
                // board to the level, else the first that brings it lower.
                let mut pieces: Vec<Piece> = tiling.pieces().collect();
                shuffle(&mut pieces, &mut rng);
                let mut lower = None;
                for hole in pieces {
                    let fewer = Solution::from_pieces(tiling.pieces().filter(|p| *p != hole));
                    let mut more = holes.clone();
                    more.push(hole);
                    let candidate = board(&open, &more, &fewer)?;
                    *graded += 1;
                    let now = grade(&candidate, Some(options.timeout))?.level_number;
                    if now == Some(level) {
                        return Ok(Climb::Reached(candidate, fewer));
                    }
                    if lower.is_none() && now.is_some_and(|n| n < l) {
                        lower = Some((candidate, fewer, more, now));
                    }
                }
                let Some((candidate, fewer, more, now)) = lower else {
                    return Ok(Climb::Missed);
                };
                (instance, tiling, holes, at) = (candidate, fewer, more, now);
            }
            _ => {
                shuffle(&mut holes, &mut rng);
                // The first hole (in a random order) whose giving back reaches the
                // level; else the first that keeps the board unique.
                let mut gave_back = false;
                let mut next = None;
                for i in 0..holes.len() {
                    if fresh == Some(holes[i]) {
                        continue;
                    }
                    let mut fewer = holes.clone();
                    let hole = fewer.remove(i);
                    let more = Solution::from_pieces(tiling.pieces().chain([hole]));
                    let candidate = board(&open, &fewer, &more)?;
                    *graded += 1;
                    let graded_now = grade(&candidate, Some(options.timeout))?;
                    if graded_now.status != Status::Unique {
                        continue;
                    }
                    if graded_now.level_number == Some(level) {
                        return Ok(Climb::Reached(candidate, more));
                    }
                    if !gave_back {
                        next = Some((fewer, more, candidate, graded_now.level_number));
                        gave_back = true;
                    }
                }
                if let Some((fewer, more, candidate, now)) = next {
                    (holes, tiling, instance, at) = (fewer, more, candidate, now);
                }
                fresh = None;
                if !gave_back {
                    // Stuck below the level: a step sideways, a piece of the tiling
                    // made a hole, which opens other holes to give back.
                    let pieces: Vec<Piece> = tiling.pieces().collect();
                    if pieces.is_empty() {
                        return Ok(Climb::Missed);
                    }
                    let hole = pieces[below(&mut rng, pieces.len() as u64) as usize];
                    tiling = Solution::from_pieces(tiling.pieces().filter(|p| *p != hole));
                    holes.push(hole);
                    fresh = Some(hole);
                    instance = board(&open, &holes, &tiling)?;
                    *graded += 1;
                    at = grade(&instance, Some(options.timeout))?.level_number;
                }
            }
        }
    }
    Ok(if at == Some(level) {
        Climb::Reached(instance, tiling)
    } else {
        Climb::Missed
    })
}

/// Board `index` at `level` (1 to 5), from starts `index × stride + k`, at most
/// `options.attempts` of them; the number of starts rejected with it.
///
/// # Errors
/// Bad sizes, a backend failure; `None` when no start within the attempts reached the
/// level.
pub fn aimed(
    rows: usize,
    cols: usize,
    seed: u64,
    index: u64,
    level: u32,
    stride: u64,
    options: &DesignOptions,
) -> Result<Option<(Aimed, u64)>, DesignError> {
    let mut graded = 0u64;
    for k in 0..u64::from(options.attempts) {
        let start = index.saturating_mul(stride).saturating_add(k);
        if let Climb::Reached(instance, solution) =
            climb(rows, cols, seed, start, level, options, &mut graded)?
        {
            let aimed = Aimed {
                instance,
                solution,
                graded,
            };
            return Ok(Some((aimed, k)));
        }
    }
    Ok(None)
}
