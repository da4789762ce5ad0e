//! What all the tilings of a board share, for a designer whose candidate is not unique:
//! the pieces every tiling has, the cells where tilings differ, and one small change
//! that makes the board unique.
//!
//! The tilings come from the native search enumerating them (each passed by the
//! verifier), up to a cap: when it finishes below the cap the shared pieces are exact;
//! otherwise they are those the tilings found share (a superset), and the answer says
//! so.
//!
//! The change is a hole where a piece was: one piece of the first tiling turned into
//! two blocked cells, and the clues lowered by its dots. The rest of that tiling still
//! tiles the changed board, so it keeps a solution; a change is kept only when the
//! native search then finds exactly one. Pieces where the tilings differ are tried
//! first, since a hole there removes the choice the tilings make. When no single hole
//! does, holes are added one at a time where the first tiling and another one differ
//! (as `generate --unique` makes boards unique), and the change is all of them.

use std::time::Duration;

use serde::Serialize;

use crate::backend::native::Native;
use crate::backend::{BackendError, Status};
use crate::driver::{self, Request};
use crate::puzzle::generate::with_holes;
use crate::puzzle::{CellJson, Instance, Orientation, Piece, Solution};
use crate::time::Instant;

/// What a board's tilings share.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Shared {
    /// The board's name.
    pub name: String,
    /// `unique`, `multiple`, `unsat`, or `unknown` when the search ran out of time
    /// before finding two tilings or proving there are none.
    pub status: Status,
    /// Tilings found.
    pub tilings: u64,
    /// Every tiling was found (the shared pieces are exact); false when the cap or the
    /// time limit stopped the enumeration.
    pub complete: bool,
    /// The pieces every tiling found has.
    pub common: Solution,
    /// The open cells that no common piece covers: where tilings differ.
    #[schemars(schema_with = "crate::puzzle::one_based_cells")]
    pub differ: Vec<CellJson>,
    /// A change that makes the board unique, when one was found.
    pub change: Option<Change>,
}

/// Holes where pieces of a tiling were: one when one is enough.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Change {
    /// The cells blocked: two for each piece made a hole.
    #[schemars(schema_with = "crate::puzzle::one_based_cells")]
    pub blocked: Vec<CellJson>,
    /// The change in words.
    pub words: String,
    /// The changed board, unique, as an instance file holds it.
    #[serde(serialize_with = "as_instance")]
    #[schemars(with = "serde_json::Value")]
    pub board: Instance,
}

fn as_instance<S: serde::Serializer>(board: &Instance, serializer: S) -> Result<S::Ok, S::Error> {
    board.json().serialize(serializer)
}

/// Why nothing could be said of a board's tilings.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SharedError {
    /// The search failed.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

/// The tilings of `instance`, enumerated up to `cap`, and what they share; for a board
/// with several, a hole that makes it unique, tried for at most `tries` pieces; the two
/// within one `timeout`.
///
/// # Errors
/// The search failed.
pub fn shared(
    instance: &Instance,
    cap: usize,
    tries: usize,
    timeout: Option<Duration>,
) -> Result<Shared, SharedError> {
    let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
    let request = Request {
        limit: cap.max(2),
        timeout,
        families: None,
    };
    let report = driver::run(instance, &Native::default(), &request)?;
    let tilings = &report.solutions;
    // The statuses of the tilings kept, by the one table every answer is read by.
    let status = Status::from_evidence(tilings.len() as u64, report.complete, request.limit);
    let common = in_every(instance, tilings);
    let covered: std::collections::HashSet<(usize, usize)> = common
        .pieces()
        .flat_map(|p| [(p.row, p.col), p.other_cell()])
        .collect();
    let differ: Vec<CellJson> = if tilings.is_empty() {
        Vec::new()
    } else {
        (0..instance.rows)
            .flat_map(|r| (0..instance.cols).map(move |c| (r, c)))
            .filter(|&(r, c)| instance.is_open(r, c) && !covered.contains(&(r, c)))
            .map(CellJson::one_based)
            .collect()
    };
    let change = match (status, tilings.first()) {
        (Status::Multiple, Some(first)) => hole(instance, first, &common, tries, deadline)?,
        _ => None,
    };
    Ok(Shared {
        name: instance.name.clone(),
        status,
        tilings: tilings.len() as u64,
        complete: report.complete,
        common,
        differ,
        change,
    })
}

/// The pieces that every one of `tilings` places. Counted cell by cell in one pass
/// over the tilings: asking each tiling whether it holds each piece of the first
/// (a binary search a piece) took 1.6 s for 278 tilings of a 256×256 board, most of it
/// waiting on memory, and ran past the time limit.
fn in_every(instance: &Instance, tilings: &[Solution]) -> Solution {
    let Some(first) = tilings.first() else {
        return Solution::default();
    };
    let cell = |p: &Piece| p.row * instance.cols + p.col;
    // Per start cell, how many tilings place a vertical and a horizontal piece there.
    let mut vertical = vec![0u32; instance.rows * instance.cols];
    let mut horizontal = vertical.clone();
    for piece in tilings.iter().flat_map(Solution::pieces) {
        match piece.orientation {
            Orientation::Vertical => vertical[cell(&piece)] += 1,
            Orientation::Horizontal => horizontal[cell(&piece)] += 1,
        }
    }
    let every = tilings.len() as u32;
    Solution::from_pieces(first.pieces().filter(|p| match p.orientation {
        Orientation::Vertical => vertical[cell(p)] == every,
        Orientation::Horizontal => horizontal[cell(p)] == every,
    }))
}

/// The board `instance` with the pieces `holes` of `tiling` blocked and the clues of the
/// rest of `tiling`.
fn holed(instance: &Instance, tiling: &Solution, holes: &[Piece]) -> Option<Instance> {
    let name = format!("{}-unique", instance.name);
    with_holes(name, instance, tiling, holes)
        .ok()
        .map(|(board, _)| board)
}

/// The native search's limit-2 answer on `board` within what is left before `deadline`:
/// its tilings when it finished (none when the time ran out).
fn two(board: &Instance, deadline: Option<Instant>) -> Result<Option<Vec<Solution>>, SharedError> {
    let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    if left.is_some_and(|l| l.is_zero()) {
        return Ok(None);
    }
    let request = Request {
        limit: 2,
        timeout: left,
        families: None,
    };
    let report = driver::run(board, &Native::default(), &request)?;
    let decided = report.complete || report.solutions.len() >= 2;
    Ok(decided.then_some(report.solutions))
}

/// The change blocking `holes`, pieces of `tiling`, which left the unique `board`.
fn change(instance: &Instance, holes: &[Piece], board: Instance) -> Change {
    let cells: Vec<CellJson> = (holes.iter())
        .flat_map(|p| [(p.row, p.col), p.other_cell()])
        .map(CellJson::one_based)
        .collect();
    let pieces: Vec<String> = holes.iter().map(super::explain::piece_words).collect();
    let what = match pieces.as_slice() {
        [one] => format!("{one}, which lies in a tiling"),
        many => format!("{} pieces of a tiling ({})", many.len(), many.join(", ")),
    };
    let words = format!(
        "block the cells of {what}, and lower {}",
        clue_changes(instance, &board)
    );
    Change {
        blocked: cells,
        words,
        board,
    }
}

/// A change that makes the board unique: the first piece of `tiling` (those outside
/// `common` first, at most `tries`) whose hole alone does; else holes added one at a
/// time, each a piece where `tiling` and another tiling of the board so far differ,
/// until only `tiling`'s rest is left (each hole rules that other tiling out, so this
/// ends), all before `deadline`.
fn hole(
    instance: &Instance,
    tiling: &Solution,
    common: &Solution,
    tries: usize,
    deadline: Option<Instant>,
) -> Result<Option<Change>, SharedError> {
    let (differing, shared): (Vec<_>, Vec<_>) = tiling.pieces().partition(|p| !common.contains(p));
    for piece in differing.into_iter().chain(shared).take(tries) {
        let Some(board) = holed(instance, tiling, &[piece]) else {
            continue;
        };
        match two(&board, deadline)? {
            None if deadline.is_some_and(|d| Instant::now() >= d) => return Ok(None),
            Some(found) if found.len() == 1 => return Ok(Some(change(instance, &[piece], board))),
            _ => {}
        }
    }
    let mut holes: Vec<Piece> = Vec::new();
    loop {
        let Some(board) = holed(instance, tiling, &holes) else {
            return Ok(None);
        };
        let Some(found) = two(&board, deadline)? else {
            return Ok(None);
        };
        let rest = Solution::from_pieces(tiling.pieces().filter(|p| !holes.contains(p)));
        let Some(other) = found.iter().find(|t| **t != rest) else {
            return Ok(Some(change(instance, &holes, board)));
        };
        match rest.pieces().find(|p| !other.contains(p)) {
            Some(piece) => holes.push(piece),
            None => return Ok(None),
        }
    }
}

/// The clues that differ between two boards, in words.
fn clue_changes(before: &Instance, after: &Instance) -> String {
    let mut words = Vec::new();
    for (what, old, new) in [
        ("row", &before.row_clues, &after.row_clues),
        ("column", &before.col_clues, &after.col_clues),
    ] {
        for (i, (a, b)) in old.iter().zip(new.iter()).enumerate() {
            if a != b {
                words.push(format!("{what} {}'s clue from {a} to {b}", i + 1));
            }
        }
    }
    words.join(" and ")
}
