//! A line without room: a line group (the pieces of one orientation whose anchor lies
//! on one row or column) cannot take more disjoint pieces than its open members leave
//! room for, so one whose quota still needs more shows that what is known has no
//! tiling.
//!
//! Justification ([`recipe`]): the open members of the line form runs of consecutive
//! members, each overlapping the next; the cover constraints (`≤ 1`) of a run of `r`
//! cells, summed, with every other placement on those cells weakened away and halved,
//! bound the members placed on it by `⌊r/2⌋`; the group's quota (`≥`) with those
//! bounds added leaves only the members placed, which fall short.

use super::Position;
use super::finding::{StallArgument, StallFailure};
use super::words::{cell, group_words};
use crate::backend::native::recipe::{Axiom, Kind, Operand, Recipe, Step};

/// The stall argument, as [`super::STALL`] lists it: `search/capacity.rs` makes it
/// incrementally.
pub(super) const ARGUMENT: StallArgument = StallArgument {
    name: "line room",
    find,
    incremental: true,
};

/// Whether group `g` can still meet its quota as far as its line's room goes (groups
/// that are not lines, and quotas already met or needing every open member, pass).
#[inline]
pub fn has_room<P: Position + ?Sized>(pos: &P, g: u32) -> bool {
    let quota = pos.residual(g);
    !pos.model().quotas[g as usize].family.is_path()
        || quota <= 0
        || pos.open_members(g) as i32 == quota
        || room_at_least(pos, g, quota)
}

/// Members of a line group are in order and only neighbours overlap, so taking the
/// earliest member that does not overlap the last one taken is optimal.
#[inline]
fn room_at_least<P: Position + ?Sized>(pos: &P, g: u32, quota: i32) -> bool {
    let model = pos.model();
    let mut taken = 0;
    let mut last = [u32::MAX; 2];
    for &p in model.members(&model.quotas[g as usize]) {
        if !pos.open(p) {
            continue;
        }
        let cells = pos.cells(p);
        if cells.iter().any(|c| last.contains(c)) {
            continue;
        }
        taken += 1;
        last = cells;
        if taken >= quota {
            return true;
        }
    }
    false
}

/// The most of line group `g`'s open members that fit side by side (the greedy count of
/// `room_at_least`, to the end).
pub fn room<P: Position + ?Sized>(pos: &P, g: u32) -> u32 {
    let model = pos.model();
    let mut taken = 0;
    let mut last = [u32::MAX; 2];
    for &p in model.members(&model.quotas[g as usize]) {
        let cells = pos.cells(p);
        if pos.open(p) && !cells.iter().any(|c| last.contains(c)) {
            taken += 1;
            last = cells;
        }
    }
    taken
}

/// The runs of line group `g`'s open members (consecutive members overlap, and a run of
/// `k` of them covers `k + 1` cells): `(members, cells)` of each.
pub fn runs<P: Position + ?Sized>(pos: &P, g: u32) -> Vec<(Vec<u32>, Vec<u32>)> {
    let model = pos.model();
    let mut runs: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
    let mut last: Option<[u32; 2]> = None;
    for &p in model.members(&model.quotas[g as usize]) {
        if !pos.open(p) {
            continue;
        }
        let cells = pos.cells(p);
        let joins = last.is_some_and(|l| cells.iter().any(|c| l.contains(c)));
        if !joins {
            runs.push((Vec::new(), Vec::new()));
        }
        if let Some((members, run_cells)) = runs.last_mut() {
            for c in cells {
                if !run_cells.contains(&c) {
                    run_cells.push(c);
                }
            }
            members.push(p);
        }
        last = Some(cells);
    }
    runs
}

/// The recipe of group `g` without room: one step per run of its open members (its
/// covers `≤ 1` summed, the other placements on its cells weakened away, halved), then
/// the quota `≥` and every run's bound summed.
pub fn recipe<P: Position + ?Sized>(pos: &P, g: u32) -> Recipe {
    let model = pos.model();
    let mut steps = Vec::new();
    for (members, cells) in runs(pos, g) {
        let mut weakened: Vec<u32> = Vec::new();
        for &k in &cells {
            for &p in model.covers[k as usize].placements.iter() {
                if !members.contains(&p) && !weakened.contains(&p) {
                    weakened.push(p);
                }
            }
        }
        steps.push(Step {
            terms: cells
                .iter()
                .map(|&k| (Operand::Axiom(Axiom::CoverAtMost(k)), 1))
                .collect(),
            weakened,
            divisor: 2,
        });
    }
    let total = std::iter::once((Operand::Axiom(Axiom::QuotaAtLeast(g)), 1))
        .chain((0..steps.len()).map(|i| (Operand::Step(i), 1)))
        .collect();
    steps.push(Step::sum(total));
    Recipe {
        kind: Kind::Capacity,
        steps,
    }
}

/// The first line group, in the model's order, without room for what its quota still
/// needs.
pub fn first_short<P: Position + ?Sized>(pos: &P) -> Option<u32> {
    (0..pos.model().quotas.len() as u32).find(|&g| !has_room(pos, g))
}

/// The first line group without room, from scratch, with its recipe and words: "the
/// horizontal pieces in row 9 still need 6 more, and of their 9 open pieces only 5 fit
/// side by side".
fn find(pos: &dyn Position) -> Option<StallFailure> {
    let g = first_short(pos)?;
    let model = pos.model();
    let group = &model.quotas[g as usize];
    let needed = u32::try_from(pos.residual(g)).unwrap_or(0);
    let open: Vec<u32> = (model.members(group).iter().copied())
        .filter(|&q| pos.open(q))
        .collect();
    let mut cells: Vec<_> = (open.iter())
        .flat_map(|&q| pos.cells(q).map(|k| cell(pos, k)))
        .collect();
    cells.sort_unstable_by_key(|c| c.0);
    cells.dedup();
    let fit = match room(pos, g) {
        0 => "none of them fits".to_string(),
        1 => "only 1 fits".to_string(),
        n => format!("only {n} fit side by side"),
    };
    Some(StallFailure {
        argument: ARGUMENT.name,
        recipe: recipe(pos, g),
        words: format!(
            "{} still need {needed} more, and of their {} open pieces {fit}",
            group_words(group),
            open.len(),
        ),
        cells,
    })
}
