//! The native search's reasoning as proof lines: each propagator's recipe (its
//! justification, written beside it in the engine) as `pol` steps over the formula's
//! covers and the derived quotas, each dead end one `rup` nogood. Nothing here knows
//! why a recipe holds: it numbers the constraints a recipe names and prints its steps.

use super::formula::Ids;
use super::writer::{Id, Mark, ProofWriter, Sum};
use crate::backend::native::proof::Justify;
use crate::backend::native::recipe::{Axiom, Kind, Operand, Recipe};

/// Writes what the search tells it, numbered against the formula and the derived quotas.
pub struct Logger<W: super::writer::Output> {
    /// The proof written so far.
    pub out: ProofWriter<W>,
    ids: Ids,
    /// `(≥, ≤)` of each quota group of the model searched.
    quotas: Vec<(Id, Id)>,
    /// The contradiction, once a dead end at the root was logged.
    pub contradiction: Option<Id>,
    /// Steps logged, by kind: for the proof's statistics and the tests.
    pub counts: Counts,
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
    /// Minimum cuts of the cut quotas' transport problem.
    pub transport: u64,
    /// LP refutations (Farkas).
    pub farkas: u64,
    /// Nogoods of the search's dead ends.
    pub nogoods: u64,
}

impl Counts {
    /// Every step.
    pub fn total(&self) -> u64 {
        self.quotas
            + self.colours
            + self.hall_sets
            + self.capacities
            + self.transport
            + self.farkas
            + self.nogoods
    }
}

impl<W: super::writer::Output> Logger<W> {
    /// A logger writing to `out`, whose quota groups were derived as `quotas`.
    pub fn new(out: ProofWriter<W>, ids: Ids, quotas: Vec<(Id, Id)>) -> Self {
        let counts = Counts {
            quotas: 2 * quotas.len() as u64,
            ..Counts::default()
        };
        Logger {
            out,
            ids,
            quotas,
            contradiction: None,
            counts,
            root: None,
        }
    }
}

impl<W: super::writer::Output> Logger<W> {
    /// The number of a model constraint in the proof.
    fn axiom(&self, axiom: Axiom) -> Id {
        match axiom {
            Axiom::CoverAtLeast(k) => self.ids.cover_at_least(k),
            Axiom::CoverAtMost(k) => self.ids.cover_at_most(k),
            Axiom::QuotaAtLeast(g) => self.quotas[g as usize].0,
            Axiom::QuotaAtMost(g) => self.quotas[g as usize].1,
        }
    }

    /// The recipe's steps as `pol` lines; whether it derived anything (a step with no
    /// terms, and all after it, derive nothing).
    fn write(&mut self, recipe: &Recipe) -> bool {
        let mut derived: Vec<Id> = Vec::with_capacity(recipe.steps.len());
        for step in &recipe.steps {
            let mut sum = Sum::new();
            for &(operand, times) in &step.terms {
                let id = match operand {
                    Operand::Axiom(axiom) => self.axiom(axiom),
                    Operand::Step(i) => match derived.get(i) {
                        Some(&id) => id,
                        None => return false,
                    },
                };
                sum.add(id, times);
            }
            if sum.is_empty() {
                return false;
            }
            for &p in &step.weakened {
                sum.weaken(p);
            }
            sum.divide(step.divisor);
            derived.push(self.out.pol(&sum));
        }
        !derived.is_empty()
    }
}

impl<W: super::writer::Output> Justify for Logger<W> {
    fn derive(&mut self, recipe: &Recipe) {
        // The refutation of the root needs nothing the search found below it.
        if recipe.kind == (Kind::Farkas { root: true })
            && let Some((mark, counts)) = self.root
        {
            self.out.rewind(mark);
            self.counts = counts;
        }
        if !self.write(recipe) {
            return;
        }
        let count = match recipe.kind {
            Kind::Colour => &mut self.counts.colours,
            Kind::HallSet => &mut self.counts.hall_sets,
            Kind::Capacity => &mut self.counts.capacities,
            Kind::Transport => &mut self.counts.transport,
            Kind::Farkas { .. } => &mut self.counts.farkas,
        };
        *count += 1;
    }

    fn root_settled(&mut self) {
        self.root = Some((self.out.mark(), self.counts));
    }

    fn dead_end(&mut self, decisions: &[u32]) {
        let id = self.out.nogood(decisions);
        self.counts.nogoods += 1;
        if decisions.is_empty() && self.contradiction.is_none() {
            self.contradiction = Some(id);
        }
    }
}
