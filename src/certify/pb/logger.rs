//! The native search's reasoning as proof lines: each counting argument one `pol` step
//! over the formula's covers and the derived quotas, each dead end one `rup` nogood.

use super::formula::Ids;
use super::writer::{Id, Mark, ProofWriter, Sum};
use crate::backend::native::proof::{Justify, Run};
use crate::model::Model;

/// Writes what the search tells it, numbered against the formula and the derived quotas.
pub struct Logger<'a, W: super::writer::Output> {
    pub(super) out: ProofWriter<W>,
    ids: Ids,
    model: &'a Model,
    /// `(≥, ≤)` of each quota group of `model`.
    quotas: Vec<(Id, Id)>,
    /// The contradiction, once a dead end at the root was logged.
    pub(super) contradiction: Option<Id>,
    /// Steps logged, by kind: for the proof's statistics and the tests.
    pub(super) counts: Counts,
    /// The proof as it stood when the root was settled, and its counts then: a
    /// refutation of the root cuts the search's steps.
    root: Option<(Mark, Counts)>,
}

/// How many steps of each kind a proof holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Quota constraints derived by clue inversion and the colour splits.
    pub quotas: u64,
    /// Colour imbalances of components of the candidate graph.
    pub colours: u64,
    /// Hall sets of the matching filter (dead ends and deletions).
    pub hall_sets: u64,
    /// Line capacities.
    pub capacities: u64,
    /// LP refutations (Farkas).
    pub farkas: u64,
    /// Nogoods of the search's dead ends.
    pub nogoods: u64,
}

impl Counts {
    /// Every step.
    pub fn total(&self) -> u64 {
        self.quotas + self.colours + self.hall_sets + self.capacities + self.farkas + self.nogoods
    }
}

impl<'a, W: super::writer::Output> Logger<'a, W> {
    /// A logger writing to `out`, whose quota groups were derived as `quotas`.
    pub fn new(out: ProofWriter<W>, ids: Ids, model: &'a Model, quotas: Vec<(Id, Id)>) -> Self {
        let counts = Counts {
            quotas: 2 * quotas.len() as u64,
            ..Counts::default()
        };
        Logger {
            out,
            ids,
            model,
            quotas,
            contradiction: None,
            counts,
            root: None,
        }
    }
}

impl<W: super::writer::Output> Logger<'_, W> {
    /// The covers of `at_least` (`≥ 1`) and of `at_most` (`≤ 1`), summed; whether
    /// anything was derived.
    fn cover_sum(&mut self, at_least: &[u32], at_most: &[u32]) -> bool {
        let mut sum = Sum::new();
        for &k in at_least {
            sum.add(self.ids.cover_at_least(k), 1);
        }
        for &k in at_most {
            sum.add(self.ids.cover_at_most(k), 1);
        }
        if sum.is_empty() {
            return false;
        }
        self.out.pol(&sum);
        true
    }
}

impl<W: super::writer::Output> Justify for Logger<'_, W> {
    fn colour_imbalance(&mut self, more: &[u32], fewer: &[u32]) {
        if self.cover_sum(more, fewer) {
            self.counts.colours += 1;
        }
    }

    fn hall_set(&mut self, set: &[u32], neighbours: &[u32]) {
        if self.cover_sum(set, neighbours) {
            self.counts.hall_sets += 1;
        }
    }

    fn capacity(&mut self, group: u32, runs: &[Run]) {
        let mut total = Sum::new();
        total.add(self.quotas[group as usize].0, 1);
        for run in runs {
            let mut sum = Sum::new();
            let mut others: Vec<u32> = Vec::new();
            for &k in &run.cells {
                sum.add(self.ids.cover_at_most(k), 1);
                for &p in &self.model.covers[k as usize].placements {
                    if !run.members.contains(&p) && !others.contains(&p) {
                        others.push(p);
                    }
                }
            }
            for p in others {
                sum.weaken(p);
            }
            let bound = self.out.pol(sum.divide(2));
            total.add(bound, 1);
        }
        self.out.pol(&total);
        self.counts.capacities += 1;
    }

    fn root_settled(&mut self) {
        self.root = Some((self.out.mark(), self.counts));
    }

    fn farkas(&mut self, cells: &[(u32, i64)], groups: &[(u32, i64)], root: bool) {
        // The refutation of the root needs nothing the search found below it.
        if root && let Some((mark, counts)) = self.root {
            self.out.rewind(mark);
            self.counts = counts;
        }
        let mut sum = Sum::new();
        for &(k, m) in cells {
            let id = if m > 0 {
                self.ids.cover_at_least(k)
            } else {
                self.ids.cover_at_most(k)
            };
            sum.add(id, m.unsigned_abs());
        }
        for &(g, m) in groups {
            let (at_least, at_most) = self.quotas[g as usize];
            sum.add(if m > 0 { at_least } else { at_most }, m.unsigned_abs());
        }
        if !sum.is_empty() {
            self.out.pol(&sum);
            self.counts.farkas += 1;
        }
    }

    fn dead_end(&mut self, decisions: &[u32]) {
        let id = self.out.nogood(decisions);
        self.counts.nogoods += 1;
        if decisions.is_empty() && self.contradiction.is_none() {
            self.contradiction = Some(id);
        }
    }
}
