//! A line's quota against its room: a line group (the pieces of one orientation whose
//! anchor lies on one row or column) cannot take more disjoint pieces than its live
//! members leave room for.
//!
//! Justification (VeriPB, `Justify::capacity` in `certify/pb/logger.rs`): the live
//! members of the line form runs of consecutive members, each overlapping the next; the
//! cover constraints of a run of `r` cells, summed and halved, bound the members placed
//! on it by `⌊r/2⌋`, and those bounds summed fall short of the group's quota.

use super::propagator::{Dead, Node, Propagator, Stamps};
use crate::backend::native::layout::Layout;
use crate::backend::native::proof::{Run, Trace};

/// The line-capacity check. Its state: which groups it has looked at in this call.
#[derive(Debug, Default)]
pub(super) struct LineCapacity {
    stamps: Stamps,
}

impl Propagator for LineCapacity {
    /// Only the groups that lost candidates since `since` are looked at again: the
    /// others passed at the parent.
    fn check<T: Trace>(
        &mut self,
        node: &Node,
        since: Option<usize>,
        trace: &mut T,
    ) -> Result<(), Dead> {
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
                    trace.capacity(g as u32, || line_runs(lay, node.active, g));
                    return Err(Dead);
                }
            }
        }
        Ok(())
    }

    fn holds_from_scratch(&mut self, node: &Node) -> bool {
        (0..node.lay.groups()).all(|g| has_room(node, g))
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

/// The reason: the runs of line group `g`'s live members (consecutive members overlap,
/// and a run of `k` of them covers `k + 1` cells).
fn line_runs(lay: &Layout, active: &[bool], g: usize) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut last: Option<[u32; 2]> = None;
    for &p in lay.members(g as u32) {
        if !active[p as usize] {
            continue;
        }
        let cells = lay.place_cells[p as usize];
        let joins = last.is_some_and(|l| cells.iter().any(|c| l.contains(c)));
        if !joins {
            runs.push(Run::default());
        }
        if let Some(run) = runs.last_mut() {
            for c in cells {
                if !run.cells.contains(&c) {
                    run.cells.push(c);
                }
            }
            run.members.push(p);
        }
        last = Some(cells);
    }
    runs
}
