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
//! first, since a hole there removes the choice the tilings make.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::backend::native::Native;
use crate::backend::{BackendError, Status};
use crate::driver::{self, Request};
use crate::puzzle::generate::with_clues_of;
use crate::puzzle::{CellJson, Instance, Solution};

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

/// A hole where a piece of a tiling was.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Change {
    /// The two cells blocked.
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

/// The tilings of `instance`, enumerated up to `cap` within `timeout`, and what they
/// share; for a board with several, a hole that makes it unique, tried for at most
/// `tries` pieces within the same time limit again.
///
/// # Errors
/// The search failed.
pub fn shared(
    instance: &Instance,
    cap: usize,
    tries: usize,
    timeout: Option<Duration>,
) -> Result<Shared, SharedError> {
    let request = Request {
        limit: cap.max(2),
        timeout,
        families: None,
    };
    let report = driver::run(instance, &Native::default(), &request)?;
    let tilings = &report.solutions;
    let status = match (tilings.len(), report.complete) {
        (0, true) => Status::Unsat,
        (1, true) => Status::Unique,
        (0 | 1, false) => Status::Unknown,
        _ => Status::Multiple,
    };
    let common = match tilings.split_first() {
        Some((first, rest)) => Solution::from_pieces(
            first
                .pieces()
                .filter(|p| rest.iter().all(|t| t.contains(p))),
        ),
        None => Solution::default(),
    };
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
        (Status::Multiple, Some(first)) => {
            let deadline = timeout.map(|t| Instant::now() + t);
            hole(instance, first, &common, tries, deadline)?
        }
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

/// The first piece of `tiling` (those outside `common` first) whose hole leaves a
/// unique board, trying at most `tries` before `deadline`.
fn hole(
    instance: &Instance,
    tiling: &Solution,
    common: &Solution,
    tries: usize,
    deadline: Option<Instant>,
) -> Result<Option<Change>, SharedError> {
    let (differing, shared): (Vec<_>, Vec<_>) = tiling.pieces().partition(|p| !common.contains(p));
    for piece in differing.into_iter().chain(shared).take(tries) {
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if left.is_some_and(|l| l.is_zero()) {
            break;
        }
        let (r2, c2) = piece.other_cell();
        let mut blocked = instance.blocked.clone();
        blocked[piece.row * instance.cols + piece.col] = true;
        blocked[r2 * instance.cols + c2] = true;
        let rest = Solution::from_pieces(tiling.pieces().filter(|p| *p != piece));
        let Ok(board) = with_clues_of(
            format!("{}-unique", instance.name),
            instance.rows,
            instance.cols,
            blocked,
            &rest,
        ) else {
            continue;
        };
        let request = Request {
            limit: 2,
            timeout: left,
            families: None,
        };
        let report = driver::run(&board, &Native::default(), &request)?;
        if report.complete && report.solutions.len() == 1 {
            let cells = [(piece.row, piece.col), (r2, c2)].map(CellJson::one_based);
            let clue_changes = clue_changes(instance, &board);
            return Ok(Some(Change {
                blocked: cells.to_vec(),
                words: format!(
                    "block ({},{}) and ({},{}), where {} lies in a tiling, and lower {}",
                    cells[0].0[0],
                    cells[0].0[1],
                    cells[1].0[0],
                    cells[1].0[1],
                    super::explain::piece_words(&piece),
                    clue_changes
                ),
                board,
            }));
        }
    }
    Ok(None)
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
