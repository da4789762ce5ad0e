//! The repair's two moves, each an alternating cycle through the tiling: a piece made
//! across a cut whose count is short, or a piece across a cut whose count is over taken
//! away, the rest of the tiling mended along a path. A move changes the counts of the
//! cuts its cycle's pieces cross, and only those; it can be undone.

use super::counts::Counts;
use super::path::PathSearch;
use super::tiling::{Cut, NONE, Tiling};

/// Cells a move's path search may explore before the move is given up: a cut is mended
/// by many short cycles rather than one that crosses the board.
pub(super) const REACH: usize = 4_000;

/// A move that was made: the counts it changed, to take back with the tiling's log.
pub(super) struct Made {
    /// `(cut, by)` for each count it changed.
    changes: Vec<(Cut, i64)>,
}

/// Pairs `a` and `b` (open neighbours on the two sides of a cut, not paired yet), and
/// mends the tiling along an alternating path between their former partners.
pub(super) fn cross(
    t: &mut Tiling,
    search: &mut PathSearch,
    counts: &mut Counts,
    a: u32,
    b: u32,
) -> Option<Made> {
    let (pa, pb) = (t.partner[a as usize], t.partner[b as usize]);
    if pa == b || pa == NONE || pb == NONE {
        return None;
    }
    search.log.clear();
    search.pair(t, a, b);
    search.pair(t, b, a);
    search.pair(t, pa, NONE);
    search.pair(t, pb, NONE);
    if !search.between(t, pa, pb, [a, b], NONE, REACH) {
        search.undo(t);
        return None;
    }
    Some(recount(t, search, counts))
}

/// Takes the piece `a`–`b` away and mends the tiling along an alternating path from
/// `a` to `b` that does not simply put it back.
pub(super) fn uncross(
    t: &mut Tiling,
    search: &mut PathSearch,
    counts: &mut Counts,
    a: u32,
    b: u32,
) -> Option<Made> {
    if t.partner[a as usize] != b {
        return None;
    }
    search.log.clear();
    search.pair(t, a, NONE);
    search.pair(t, b, NONE);
    if !search.between(t, a, b, [NONE, NONE], b, REACH) {
        search.undo(t);
        return None;
    }
    Some(recount(t, search, counts))
}

/// Takes a move back: its counts, and the tiling from the search's log.
pub(super) fn undo(t: &mut Tiling, search: &mut PathSearch, counts: &mut Counts, made: Made) {
    for (cut, by) in made.changes {
        counts.add(cut, -by);
    }
    search.undo(t);
}

/// The counts a flipped cycle changed: each piece that left (from the log's first word
/// on a cell) one fewer across its cut, each piece that came one more.
fn recount(t: &Tiling, search: &PathSearch, counts: &mut Counts) -> Made {
    let mut changes = Vec::new();
    // Each cell's first word in the log is its partner before the move: a stable sort
    // by cell keeps it first.
    let mut before: Vec<(u32, u32)> = search.log.clone();
    before.sort_by_key(|&(cell, _)| cell);
    before.dedup_by_key(|&mut (cell, _)| cell);
    for &(cell, was) in &before {
        let now = t.partner[cell as usize];
        if was == now {
            continue;
        }
        if was != NONE && cell < was {
            changes.push((t.cut_of(cell as usize, was as usize), -1));
        }
        if now != NONE && cell < now {
            changes.push((t.cut_of(cell as usize, now as usize), 1));
        }
    }
    for &(cut, by) in &changes {
        counts.add(cut, by);
    }
    Made { changes }
}
