//! The room a line leaves: a line's quota is at most the disjoint pieces its runs of
//! open cells can hold, and a quota beyond that is refuted from the cover constraints of
//! the runs.

use super::inversion::{Derivation, Line};
use super::writer::{Id, ProofWriter, Sum};
use crate::puzzle::Orientation;

impl Derivation<'_> {
    /// The runs of consecutive open cells along a line, and the most disjoint pieces
    /// along it: half of each run, rounded down.
    pub(super) fn line_room(&self, line: Line) -> (i128, Vec<Vec<u32>>) {
        let (cells, position): (&[u32], fn(&crate::model::Cover) -> usize) = match line {
            Line::Row(r) => (&self.cells.by_row[r], |cover| cover.col),
            Line::Col(c) => (&self.cells.by_col[c], |cover| cover.row),
        };
        let mut runs: Vec<Vec<u32>> = Vec::new();
        let mut last: Option<usize> = None;
        for &k in cells {
            let at = position(&self.model.covers[k as usize]);
            if last.is_none_or(|l| l + 1 != at) {
                runs.push(Vec::new());
            }
            if let Some(run) = runs.last_mut() {
                run.push(k);
            }
            last = Some(at);
        }
        let room = runs.iter().map(|r| (r.len() / 2) as i128).sum();
        (room, runs)
    }

    /// For each run of two or more cells, that the pieces of `orientation` on it are at
    /// most half its cells: its cells' covers (`≤ 1`), weakened on every other piece
    /// touching them, halved.
    pub(super) fn run_bounds<W: super::writer::Output>(
        &self,
        out: &mut ProofWriter<W>,
        runs: &[Vec<u32>],
        orientation: Orientation,
    ) -> Vec<Id> {
        let mut bounds = Vec::new();
        for run in runs.iter().filter(|r| r.len() >= 2) {
            let mut sum = Sum::new();
            let mut others: Vec<u32> = Vec::new();
            for &k in run {
                sum.add(self.ids.cover_at_most(k), 1);
                for &p in &self.model.covers[k as usize].placements {
                    if self.model.placements[p as usize].orientation != orientation
                        && !others.contains(&p)
                    {
                        others.push(p);
                    }
                }
            }
            for p in others {
                sum.weaken(p);
            }
            bounds.push(out.pol(sum.divide(2)));
        }
        bounds
    }

    /// The contradiction of a line whose quota `need` exceeds its room: the quota's
    /// `≥` against the runs' bounds.
    pub(super) fn beyond_room<W: super::writer::Output>(
        &self,
        out: &mut ProofWriter<W>,
        at_least: Id,
        runs: &[Vec<u32>],
        orientation: Orientation,
    ) -> Id {
        let mut sum = Sum::new();
        sum.add(at_least, 1);
        for bound in self.run_bounds(out, runs, orientation) {
            sum.add(bound, 1);
        }
        out.pol(&sum);
        out.nogood(&[])
    }
}
