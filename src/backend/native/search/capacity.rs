//! A line's quota against its room: a line group (the pieces of one orientation whose
//! anchor lies on one row or column) cannot take more disjoint pieces than its live
//! members leave room for.
//!
//! Justification ([`LineCapacity::explain`]): the live members of the line form runs of
//! consecutive members, each overlapping the next; the cover constraints (`≤ 1`) of a
//! run of `r` cells, summed, with every other placement on those cells weakened away
//! and halved, bound the members placed on it by `⌊r/2⌋`; the group's quota (`≥`) with
//! those bounds added leaves only the members committed, which fall short.

use super::propagator::{Dead, Node, Propagator, Stamps};
use crate::backend::native::layout::Layout;
use crate::backend::native::recipe::{Axiom, Kind, Operand, Recipe, Step};

/// The line-capacity check. Its state: which groups it has looked at in this call, and
/// the group that failed (the reason's subject).
#[derive(Debug, Default)]
pub(super) struct LineCapacity {
    stamps: Stamps,
    failed: u32,
}

impl Propagator for LineCapacity {
    /// Only the groups that lost candidates since `since` are looked at again: the
    /// others passed at the parent.
    fn check(&mut self, node: &Node, since: Option<usize>) -> Result<(), Dead> {
        let lay = node.lay;
        let epoch = self.stamps.next(lay.groups());
        for &op in &node.trail[since.unwrap_or(0)..] {
            for &g in lay.groups_of(op >> 1) {
                let g = g as usize;
                if self.stamps.marks[g] == epoch {
                    continue;
                }
                self.stamps.marks[g] = epoch;
                if !has_room(node, g) {
                    self.failed = g as u32;
                    return Err(Dead);
                }
            }
        }
        Ok(())
    }

    /// One step per run of the failed group's live members (its covers `≤ 1` summed,
    /// the other placements on its cells weakened away, halved), then the quota `≥`
    /// and every run's bound summed.
    fn explain(&self, node: &Node) -> Recipe {
        let lay = node.lay;
        let g = self.failed;
        let mut steps = Vec::new();
        for (members, cells) in line_runs(lay, node.active, g as usize) {
            let mut weakened: Vec<u32> = Vec::new();
            for &k in &cells {
                for &p in lay.places_at(k) {
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

    fn holds_from_scratch(&mut self, node: &Node) -> bool {
        (0..node.lay.groups()).all(|g| has_room(node, g))
    }
}

impl LineCapacity {
    /// The first line group, in the model's order, whose room falls short of what its
    /// quota still needs, looked for in every group (not only those that changed): the
    /// failure [`Propagator::explain`] then justifies. `(group, room, needed)`.
    pub(super) fn first_short(&mut self, node: &Node) -> Option<(u32, u32, u32)> {
        let g = (0..node.lay.groups()).find(|&g| !has_room(node, g))?;
        self.failed = g as u32;
        let needed = u32::try_from(node.quota[g]).unwrap_or(0);
        Some((g as u32, room(node.lay, node.active, g), needed))
    }
}

/// Whether group `g` can still meet its quota as far as its line's room goes (groups
/// that are not lines, and quotas already met or needing every member, pass).
fn has_room(node: &Node, g: usize) -> bool {
    let quota = node.quota[g];
    !node.lay.is_path(g)
        || quota <= 0
        || node.left[g] as i32 == quota
        || room_at_least(node.lay, node.active, g, quota)
}

/// Members of a line group are in order and only neighbours overlap, so taking the
/// earliest member that does not overlap the last one taken is optimal.
fn room_at_least(lay: &Layout, active: &[bool], g: usize, quota: i32) -> bool {
    let mut taken = 0;
    let mut last = [u32::MAX; 2];
    for &p in lay.members(g as u32) {
        if !active[p as usize] {
            continue;
        }
        let cells = lay.place_cells[p as usize];
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

/// The most of line group `g`'s live members that fit side by side (the greedy count of
/// [`room_at_least`], to the end).
fn room(lay: &Layout, active: &[bool], g: usize) -> u32 {
    let mut taken = 0;
    let mut last = [u32::MAX; 2];
    for &p in lay.members(g as u32) {
        let cells = lay.place_cells[p as usize];
        if active[p as usize] && !cells.iter().any(|c| last.contains(c)) {
            taken += 1;
            last = cells;
        }
    }
    taken
}

/// The runs of line group `g`'s live members (consecutive members overlap, and a run of
/// `k` of them covers `k + 1` cells): `(members, cells)` of each.
fn line_runs(lay: &Layout, active: &[bool], g: usize) -> Vec<(Vec<u32>, Vec<u32>)> {
    let mut runs: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
    let mut last: Option<[u32; 2]> = None;
    for &p in lay.members(g as u32) {
        if !active[p as usize] {
            continue;
        }
        let cells = lay.place_cells[p as usize];
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::native::search::propagator::HandNode;
    use crate::model::{Families, compile};
    use crate::puzzle::Orientation;
    use crate::puzzle::parse::parse_instances;

    /// One row of six cells with three horizontal pieces to place (six dots): the row's
    /// five horizontal candidates leave room for three side by side; without the middle
    /// one, two runs of three cells hold one each, and the check fails with a reason
    /// that refutes the node, as its twin says.
    #[test]
    fn a_line_without_room_for_its_quota_fails() {
        let text = r#"{"rows": 1, "cols": 6, "blocked": [], "row_clues": [6],
                       "col_clues": [0, 2, 0, 2, 0, 2]}"#;
        let board = &parse_instances(text, "row.json", "row", false).unwrap()[0];
        let model = compile(board, Families::AllQuotas);
        assert!(model.infeasible.is_none());
        let lay = Layout::new(&model, false);
        let middle = model
            .placements
            .iter()
            .position(|p| p.orientation == Orientation::Horizontal && p.col == 2)
            .unwrap() as u32;
        let whole = HandNode::new(&lay, &[]);
        let mut check = LineCapacity::default();
        assert!(check.check(&whole.node(&lay), None).is_ok());
        assert!(check.holds_from_scratch(&whole.node(&lay)));
        let cut = HandNode::new(&lay, &[middle]);
        let node = cut.node(&lay);
        assert!(check.check(&node, Some(0)).is_err());
        assert!(!check.holds_from_scratch(&node));
        assert!(cut.values().refuted_by(&check.explain(&node), &model));
    }
}
