//! More tilings from one by local re-tiling, for `--limit 2` and up on large boards.
//!
//! Hold a tiling `T` fixed outside a small window: the window's cells covered by
//! pieces of `T` lying wholly inside it, with the dots `T` puts in each of the window's
//! rows and columns as clues, are themselves a Domino Fit board (the *window board*).
//! Every tiling of it, put in place of `T`'s pieces there, keeps every cell covered
//! once and every row's and column's dots, so each of its tilings other than `T`'s own
//! is another tiling of the whole board. On the paper's planted boards most 8×8
//! windows have one (measured: 459 of the 1,024 disjoint windows of a 256×256 board),
//! so a second tiling costs one tiling plus a few window boards, each decided by the
//! small-board path in microseconds, where the descent asked to differ from `T` finds
//! none in a minute from 256×256 up.
//!
//! Windows only ever add tilings: a board whose every window is locally unique may
//! still have a second tiling along a long alternating cycle, so `unique` (and
//! `unsat`) stay the complete search's (see [`with_retilings`]).

use rustc_hash::FxHashSet;

use crate::backend::native::small::Board;
use crate::backend::{Budget, Control, Ending, Outcome, Sink};
use crate::model::{Model, PlacementId};
use crate::puzzle::{Instance, Orientation, Piece};

/// A rectangle of the board: rows `row..row + rows`, columns `col..col + cols`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Its top row.
    pub row: usize,
    /// Its left column.
    pub col: usize,
    /// Its height.
    pub rows: usize,
    /// Its width.
    pub cols: usize,
}

impl Window {
    fn holds(&self, row: usize, col: usize) -> bool {
        (self.row..self.row + self.rows).contains(&row)
            && (self.col..self.col + self.cols).contains(&col)
    }

    /// Whether both cells of `piece` are in the window.
    pub fn holds_piece(&self, piece: &Piece) -> bool {
        let (r, c) = piece.other_cell();
        self.holds(piece.row, piece.col) && self.holds(r, c)
    }
}

/// The side of the square windows tried: the small-board path holds up to 128 cells,
/// so 8 and 10 fit; which pays is measured in BENCHMARKS.md ("Is it unique?").
pub const SIDE: usize = 8;

/// The windows tried on a `rows` × `cols` board, in the order tried: the grid of
/// [`SIDE`]-squares from the top left, then the same grid shifted by half a side, which
/// holds the squares astride the first grid's seams ([`windows_of`]).
pub fn windows(rows: usize, cols: usize) -> impl Iterator<Item = Window> {
    windows_of(rows, cols, SIDE)
}

/// The grid of `side`-squares from the top left, then the same grid shifted by half a
/// side; windows at the board's right and bottom edges are cut to fit.
pub fn windows_of(rows: usize, cols: usize, side: usize) -> impl Iterator<Item = Window> {
    let side = side.max(1);
    [0, side / 2].into_iter().flat_map(move |offset| {
        let starts = move |len: usize| (offset..len).step_by(side);
        starts(rows).flat_map(move |row| {
            starts(cols).map(move |col| Window {
                row,
                col,
                rows: side.min(rows - row),
                cols: side.min(cols - col),
            })
        })
    })
}

/// The window board of `window` under the tiling `pieces` of `instance`, and the
/// pieces of the tiling that lie wholly inside it (the window board's own tiling):
/// a cell is open when a piece inside covers it, and the clues are those pieces'
/// dots. Coordinates of the board are the window's own.
pub fn window_board(
    instance: &Instance,
    pieces: &[Piece],
    window: Window,
) -> (Instance, Vec<Piece>) {
    let (rows, cols) = (window.rows, window.cols);
    let mut blocked = vec![true; rows * cols];
    let (mut row_clues, mut col_clues) = (vec![0u64; rows], vec![0u64; cols]);
    let mut inside = Vec::new();
    for piece in pieces.iter().filter(|piece| window.holds_piece(piece)) {
        let local = Piece {
            row: piece.row - window.row,
            col: piece.col - window.col,
            orientation: piece.orientation,
        };
        let (r2, c2) = local.other_cell();
        blocked[local.row * cols + local.col] = false;
        blocked[r2 * cols + c2] = false;
        let (start_dots, other_dots) = local.dots();
        row_clues[local.row] += start_dots;
        col_clues[local.col] += start_dots;
        row_clues[r2] += other_dots;
        col_clues[c2] += other_dots;
        inside.push(local);
    }
    let board = Instance {
        name: format!(
            "{} window at ({}, {})",
            instance.name,
            window.row + 1,
            window.col + 1
        ),
        rows,
        cols,
        blocked,
        row_clues,
        col_clues,
    };
    (board, inside)
}

/// How a walk over the windows ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walked {
    /// Every window was tried.
    Done,
    /// `each` said stop.
    Stopped,
    /// The budget ran out.
    Timeout,
}

/// Hands `each` the tilings of `model`'s board that differ from `tiling` (placement ids)
/// inside one window only, up to `per_window` of them a window, window by window in
/// the order of [`windows`], as placement ids in increasing order. Windows whose board
/// the small-board path declines or caps are passed over; `tiling` itself is never
/// handed out, and no tiling twice from one window (two overlapping windows can both
/// hold the same re-tiling: the caller tells them apart).
pub fn retilings(
    model: &Model,
    tiling: &[PlacementId],
    per_window: usize,
    budget: &Budget,
    each: &mut dyn FnMut(&[PlacementId]) -> Control,
) -> Walked {
    let all = windows(model.rows, model.cols);
    retilings_in(model, tiling, all, per_window, budget, each)
}

/// [`retilings`] over the windows `all`, in their order.
pub fn retilings_in(
    model: &Model,
    tiling: &[PlacementId],
    all: impl IntoIterator<Item = Window>,
    per_window: usize,
    budget: &Budget,
    each: &mut dyn FnMut(&[PlacementId]) -> Control,
) -> Walked {
    let starts = Starts::new(
        model.rows,
        model.cols,
        tiling.iter().map(|&id| model.placements[id as usize]),
    );
    for window in all {
        let (board, inside) = window_board(&model.instance, &starts.near(window), window);
        let others = match local_tilings(&board, &inside, per_window, budget) {
            Local::Timeout => return Walked::Timeout,
            Local::Declined => continue,
            Local::Others(others) => others,
        };
        for (vertical, horizontal) in others {
            let Some(ids) = replaced(model, tiling, window, vertical, horizontal) else {
                continue;
            };
            if each(&ids) == Control::Stop {
                return Walked::Stopped;
            }
        }
    }
    Walked::Done
}

/// The start cell of each piece of a tiling, by cell: a window's pieces are then found
/// among its own cells, not among all the board's pieces.
pub struct Starts {
    cols: usize,
    at: Vec<Option<Orientation>>,
}

impl Starts {
    /// The starts of `pieces` on a `rows` × `cols` board.
    pub fn new(rows: usize, cols: usize, pieces: impl IntoIterator<Item = Piece>) -> Starts {
        let mut at = vec![None; rows * cols];
        for piece in pieces {
            at[piece.row * cols + piece.col] = Some(piece.orientation);
        }
        Starts { cols, at }
    }

    /// Takes `piece` out of the tiling.
    pub fn remove(&mut self, piece: &Piece) {
        self.at[piece.row * self.cols + piece.col] = None;
    }

    /// The pieces starting inside `window` (some may end outside it), row-major.
    pub fn near(&self, window: Window) -> Vec<Piece> {
        let mut near = Vec::new();
        for row in window.row..window.row + window.rows {
            for col in window.col..window.col + window.cols {
                if let Some(orientation) = self.at[row * self.cols + col] {
                    near.push(Piece {
                        row,
                        col,
                        orientation,
                    });
                }
            }
        }
        near
    }
}

/// What the small-board path says of a window board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Local {
    /// Its tilings other than its own (up to the number asked for), as the small-board
    /// path's masks: the start cell's bit of each vertical piece, and of each
    /// horizontal one, row-major in the window.
    Others(Vec<(u128, u128)>),
    /// The path declined the board (too big) or gave up on it (its dead-end cap): it
    /// says nothing of its tilings.
    Declined,
    /// The budget ran out.
    Timeout,
}

/// The tilings of the window board `board` other than `inside` (its own, from
/// [`window_board`]), up to `limit` of them, by the small-board path.
pub fn local_tilings(board: &Instance, inside: &[Piece], limit: usize, budget: &Budget) -> Local {
    if budget.expired() {
        return Local::Timeout;
    }
    if inside.is_empty() {
        return Local::Others(Vec::new());
    }
    let Some(small) = Board::compile(board) else {
        return Local::Declined;
    };
    let own = masks(inside, board.cols);
    let mut others = Vec::new();
    let searched = small.search(limit + 1, budget, &mut |vertical, horizontal| {
        if (vertical, horizontal) != own {
            others.push((vertical, horizontal));
        }
        Control::Continue
    });
    match searched.ending {
        Ending::Exhausted | Ending::Stopped => {}
        Ending::Timeout => return Local::Timeout,
        // Its tilings are to be forgotten (`Board::search`).
        Ending::Capped => return Local::Declined,
    }
    // The search asked for one more than `limit`, since the window's own tiling may be
    // among them.
    others.truncate(limit);
    Local::Others(others)
}

/// The pieces of a window board's tiling `(vertical, horizontal)` (masks as in
/// [`Local::Others`]), placed back on the whole board.
pub fn pieces_in(window: Window, vertical: u128, horizontal: u128) -> impl Iterator<Item = Piece> {
    let cells = window.rows * window.cols;
    [
        (vertical, Orientation::Vertical),
        (horizontal, Orientation::Horizontal),
    ]
    .into_iter()
    .flat_map(move |(mask, orientation)| {
        (0..cells)
            .filter(move |&bit| mask >> bit & 1 == 1)
            .map(move |bit| Piece {
                row: window.row + bit / window.cols,
                col: window.col + bit % window.cols,
                orientation,
            })
    })
}

/// The small-board path's masks of `pieces` on a board `cols` wide: the start cell's
/// bit of each vertical piece, and of each horizontal one.
fn masks(pieces: &[Piece], cols: usize) -> (u128, u128) {
    let (mut vertical, mut horizontal) = (0u128, 0u128);
    for piece in pieces {
        let bit = 1u128 << (piece.row * cols + piece.col);
        match piece.orientation {
            Orientation::Vertical => vertical |= bit,
            Orientation::Horizontal => horizontal |= bit,
        }
    }
    (vertical, horizontal)
}

/// `tiling` with its pieces inside `window` replaced by the window board's tiling
/// `(vertical, horizontal)`, as sorted placement ids; `None` if a piece has no
/// placement in the model (it cannot: the window's open cells are the board's).
fn replaced(
    model: &Model,
    tiling: &[PlacementId],
    window: Window,
    vertical: u128,
    horizontal: u128,
) -> Option<Vec<PlacementId>> {
    let mut ids: Vec<PlacementId> = tiling
        .iter()
        .copied()
        .filter(|&id| !window.holds_piece(&model.placements[id as usize]))
        .collect();
    for piece in pieces_in(window, vertical, horizontal) {
        ids.push(placement_of(model, piece)?);
    }
    ids.sort_unstable();
    Some(ids)
}

/// The placement id of `piece`: placements are numbered in the order of their pieces
/// (row-major by start cell, vertical first), so a binary search finds it.
fn placement_of(model: &Model, piece: Piece) -> Option<PlacementId> {
    let at = model.placements.binary_search(&piece).ok()?;
    PlacementId::try_from(at).ok()
}

/// The native search for `limit` (at least 2) tilings with windows after its first:
/// `search(sink)` runs the complete search (its repair handing on the first tiling it
/// finds). The first tiling `T` to reach `sink` is followed by the windows'
/// re-tilings of `T`, until `limit` are found; if they are too few the search goes on
/// for the rest, the tilings already handed out passed over, so that `sink` sees each
/// tiling once and the ending (`unique` when exhausted with one) is the complete
/// search's alone.
pub fn with_retilings(
    model: &Model,
    limit: usize,
    budget: &Budget,
    sink: &mut Sink,
    search: &mut dyn FnMut(&mut Sink) -> Outcome,
) -> Outcome {
    let mut handed: FxHashSet<Vec<PlacementId>> = FxHashSet::default();
    let mut hand = |ids: &[PlacementId], sink: &mut Sink| {
        let mut key = ids.to_vec();
        key.sort_unstable();
        if !handed.insert(key) {
            return Control::Continue;
        }
        if sink(ids) == Control::Stop || handed.len() >= limit {
            Control::Stop
        } else {
            Control::Continue
        }
    };
    let mut windowed = false;
    search(&mut |ids: &[PlacementId]| {
        if hand(ids, sink) == Control::Stop {
            return Control::Stop;
        }
        if std::mem::replace(&mut windowed, true) {
            return Control::Continue;
        }
        match retilings(model, ids, limit - 1, budget, &mut |other| {
            hand(other, sink)
        }) {
            Walked::Stopped => Control::Stop,
            // The search sees the budget too, and ends as it does.
            Walked::Timeout | Walked::Done => Control::Continue,
        }
    })
}
