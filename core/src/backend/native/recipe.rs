//! A propagator's reason as a cutting-planes derivation: which of the model's constraints
//! to add up, with what factors, which placements to weaken away and what to divide by.
//!
//! Every inference of the native search other than unit propagation is a counting
//! argument, and a counting argument is a linear combination of constraints true of
//! every tiling (the halves of the cover equalities and of the quota equalities). The
//! propagator that makes the inference writes its recipe beside the check, in its own
//! file; a proof logger (`certify::pb`) only numbers the constraints and prints the
//! steps, and knows nothing of why they hold. [`Recipe::derive`] is the from-scratch
//! twin of every justification: it does the arithmetic the checker does, so that a
//! debug build, and each propagator's tests, can see that the derived constraint
//! really refutes the node (or rules out the placements deleted) without a checker.

use std::collections::BTreeMap;

use crate::model::Model;

/// A half of one of the model's equalities: a constraint of every tiling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axiom {
    /// Cell `k` (the model's cover index) is covered at least once.
    CoverAtLeast(u32),
    /// Cell `k` is covered at most once.
    CoverAtMost(u32),
    /// Group `g` places at least its quota.
    QuotaAtLeast(u32),
    /// Group `g` places at most its quota.
    QuotaAtMost(u32),
}

/// What a step adds up: an axiom, or an earlier step of the same recipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// A constraint of the model.
    Axiom(Axiom),
    /// The constraint derived by the recipe's step of this index (an earlier one).
    Step(usize),
}

/// One derived constraint: the operands times their factors, summed; then each
/// placement of `weakened` dropped (with what it could add to the left-hand side); then
/// divided by `divisor`, rounding up (1: no division). The checker's `pol` step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Operands and their positive factors, in the order they are added.
    pub terms: Vec<(Operand, u64)>,
    /// Placements weakened away, in order.
    pub weakened: Vec<u32>,
    /// What the sum is divided by.
    pub divisor: u64,
}

impl Step {
    /// The plain sum of `terms`.
    pub fn sum(terms: Vec<(Operand, u64)>) -> Step {
        Step {
            terms,
            weakened: Vec::new(),
            divisor: 1,
        }
    }
}

/// Which argument a recipe makes: what a proof counts its steps by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A component of the candidate graph with more cells of one colour.
    Colour,
    /// A Hall set of the matching filter.
    HallSet,
    /// A line group's quota against the room its runs leave.
    Capacity,
    /// The cut quotas as a transport problem: a minimum cut.
    Transport,
    /// The LP's Farkas multipliers; `root`: of the root, which ends the proof.
    Farkas {
        /// The refuted node is the root.
        root: bool,
    },
}

/// A justification: steps whose last one is the inference's constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipe {
    /// The argument.
    pub kind: Kind,
    /// The steps, each adding up axioms and earlier steps.
    pub steps: Vec<Step>,
}

impl Recipe {
    /// One step: the axioms summed, each once.
    pub fn sum_of(kind: Kind, axioms: impl IntoIterator<Item = Axiom>) -> Recipe {
        Recipe::weighted(kind, axioms.into_iter().map(|a| (a, 1)))
    }

    /// One step: the axioms times their factors, summed.
    pub fn weighted(kind: Kind, axioms: impl IntoIterator<Item = (Axiom, u64)>) -> Recipe {
        let terms = axioms
            .into_iter()
            .filter(|&(_, times)| times > 0)
            .map(|(a, times)| (Operand::Axiom(a), times))
            .collect();
        Recipe {
            kind,
            steps: vec![Step::sum(terms)],
        }
    }

    /// The constraint the recipe derives, by the checker's arithmetic; `None` when it
    /// derives nothing (a step with no terms, or one naming a later step).
    pub fn derive(&self, model: &Model) -> Option<Linear> {
        let mut derived: Vec<Linear> = Vec::with_capacity(self.steps.len());
        for step in &self.steps {
            if step.terms.is_empty() {
                return None;
            }
            let mut sum = Linear::default();
            for &(operand, times) in &step.terms {
                let part = match operand {
                    Operand::Axiom(axiom) => Linear::axiom(model, axiom),
                    Operand::Step(i) => derived.get(i)?.clone(),
                };
                sum.add(&part, times as i64);
            }
            for &p in &step.weakened {
                sum.weaken(p);
            }
            sum.divide(step.divisor as i64);
            derived.push(sum);
        }
        derived.pop()
    }
}

/// `Σ c_p·x_p ≥ degree` over the placements: a derived constraint, in the form a
/// checker's normalized constraint stands for (`c·¬x` is `c − c·x`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Linear {
    /// Non-zero coefficients by placement.
    pub coefficients: BTreeMap<u32, i64>,
    /// The right-hand side.
    pub degree: i64,
}

impl Linear {
    fn axiom(model: &Model, axiom: Axiom) -> Linear {
        let (placements, bound, sign): (&[u32], i64, i64) = match axiom {
            Axiom::CoverAtLeast(k) => (&model.covers[k as usize].placements, 1, 1),
            Axiom::CoverAtMost(k) => (&model.covers[k as usize].placements, 1, -1),
            Axiom::QuotaAtLeast(g) => {
                let group = &model.quotas[g as usize];
                (model.members(group), i64::from(group.quota), 1)
            }
            Axiom::QuotaAtMost(g) => {
                let group = &model.quotas[g as usize];
                (model.members(group), i64::from(group.quota), -1)
            }
        };
        Linear {
            coefficients: placements.iter().map(|&p| (p, sign)).collect(),
            degree: sign * bound,
        }
    }

    fn add(&mut self, other: &Linear, times: i64) {
        for (&p, &c) in &other.coefficients {
            let entry = self.coefficients.entry(p).or_insert(0);
            *entry += times * c;
            if *entry == 0 {
                self.coefficients.remove(&p);
            }
        }
        self.degree += times * other.degree;
    }

    /// The degree of the normalized form: each `c·x` with `c < 0` is `|c|·¬x − |c|`.
    fn normalized_degree(&self) -> i64 {
        self.degree - self.coefficients.values().filter(|&&c| c < 0).sum::<i64>()
    }

    /// Drops `p` from the normalized form with its coefficient: a positive literal
    /// lowers the degree by what it could have added; a negated one leaves the form's
    /// degree, which here is the same degree.
    fn weaken(&mut self, p: u32) {
        if let Some(c) = self.coefficients.remove(&p)
            && c > 0
        {
            self.degree -= c;
        }
    }

    /// Divides the normalized form by `d`, rounding every coefficient and the degree up.
    fn divide(&mut self, d: i64) {
        if d <= 1 {
            return;
        }
        let mut degree = self.normalized_degree().div_ceil_signed(d);
        for c in self.coefficients.values_mut() {
            let divided = c.abs().div_ceil_signed(d);
            if *c < 0 {
                degree -= divided;
                *c = -divided;
            } else {
                *c = divided;
            }
        }
        self.degree = degree;
    }

    /// Whether no completion of the partial assignment `value` (a placement placed,
    /// not placed, or open) satisfies the constraint.
    pub fn falsified(&self, value: impl Fn(u32) -> Option<bool>) -> bool {
        let most: i64 = self
            .coefficients
            .iter()
            .map(|(&p, &c)| match (value(p), c > 0) {
                (Some(true), _) | (None, true) => c,
                (Some(false), _) | (None, false) => 0,
            })
            .sum();
        most < self.degree
    }
}

/// Division rounding up for any sign of the dividend (the divisor is positive).
trait DivCeilSigned {
    fn div_ceil_signed(self, d: i64) -> i64;
}

impl DivCeilSigned for i64 {
    fn div_ceil_signed(self, d: i64) -> i64 {
        let q = self.div_euclid(d);
        if self.rem_euclid(d) == 0 { q } else { q + 1 }
    }
}

/// What a search knows of each placement at a node: placed (committed on the trail),
/// ruled out (neither a candidate nor committed), or open (a candidate).
pub struct NodeValues {
    values: Vec<Option<bool>>,
}

impl NodeValues {
    /// From the candidates and the trail (`p << 1 | 1` for a commit).
    pub fn new(active: &[bool], trail: &[u32]) -> NodeValues {
        let mut values: Vec<Option<bool>> = active
            .iter()
            .map(|&a| if a { None } else { Some(false) })
            .collect();
        for &op in trail {
            if op & 1 == 1 {
                values[(op >> 1) as usize] = Some(true);
            }
        }
        NodeValues { values }
    }

    /// The value of placement `p`.
    pub fn get(&self, p: u32) -> Option<bool> {
        self.values[p as usize]
    }

    /// Whether `recipe` refutes the node: it derives a constraint the node falsifies.
    pub fn refuted_by(&self, recipe: &Recipe, model: &Model) -> bool {
        recipe
            .derive(model)
            .is_some_and(|c| c.falsified(|p| self.get(p)))
    }

    /// Whether `recipe` rules out placement `p` at the node: the derived constraint is
    /// falsified once `p` is placed.
    pub fn rules_out(&self, recipe: &Recipe, model: &Model, p: u32) -> bool {
        recipe
            .derive(model)
            .is_some_and(|c| self.rules_out_by(&c, p))
    }

    /// Whether the derived constraint `c` rules out placement `p` at the node.
    pub fn rules_out_by(&self, c: &Linear, p: u32) -> bool {
        c.falsified(|q| if q == p { Some(true) } else { self.get(q) })
    }
}

/// Debug builds check the reason of each of a process's first this many inferences.
#[cfg(debug_assertions)]
const CHECKED_IN_FULL: u64 = 4096;

/// After those, one inference's reason in this many.
#[cfg(debug_assertions)]
const CHECKED_EVERY: u64 = 64;

/// Debug builds: whether the reason of the inference just made is to be checked by
/// [`NodeValues`]. Every one of a process's first `CHECKED_IN_FULL`, then one in
/// `CHECKED_EVERY`: reading a node's values costs a pass over the placements.
#[cfg(debug_assertions)]
pub(crate) fn due_for_check() -> bool {
    use std::sync::atomic::{AtomicU64, Ordering};
    static INFERENCES: AtomicU64 = AtomicU64::new(0);
    let seen = INFERENCES.fetch_add(1, Ordering::Relaxed);
    seen < CHECKED_IN_FULL || seen.is_multiple_of(CHECKED_EVERY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Families, compile};
    use crate::puzzle::Instance;

    fn board() -> Model {
        let instance = Instance {
            name: "two-by-two".into(),
            rows: 2,
            cols: 2,
            blocked: vec![false; 4],
            row_clues: vec![2, 0],
            col_clues: vec![1, 1],
        };
        compile(&instance, Families::AllQuotas)
    }

    /// A cover's two halves summed cancel every placement: `0 ≥ 0`.
    #[test]
    fn the_halves_of_an_equality_cancel() {
        let model = board();
        let recipe = Recipe::sum_of(
            Kind::Colour,
            [Axiom::CoverAtLeast(0), Axiom::CoverAtMost(0)],
        );
        let derived = recipe.derive(&model).unwrap();
        assert!(derived.coefficients.is_empty());
        assert_eq!(derived.degree, 0);
    }

    /// The checker's division and weakening: `x + y + 2z ≤ 3` (as `≥ −3`), `z`
    /// weakened away, stays `≥ −3` over `−x − y`; halved in normalized form
    /// (`¬x + ¬y ≥ −1`, degree rounded up to 0) it is trivially true.
    #[test]
    fn weakening_and_division_follow_the_normalized_form() {
        let mut c = Linear {
            coefficients: [(0, -1), (1, -1), (2, -2)].into_iter().collect(),
            degree: -3,
        };
        c.weaken(2);
        assert_eq!(c.degree, -3);
        assert_eq!(c.normalized_degree(), -1);
        // 2x + 2y ≥ 3, halved: x + y ≥ 2 (rounded up).
        let mut d = Linear {
            coefficients: [(0, 2), (1, 2)].into_iter().collect(),
            degree: 3,
        };
        d.divide(2);
        assert_eq!(
            d.coefficients.values().copied().collect::<Vec<_>>(),
            vec![1, 1]
        );
        assert_eq!(d.degree, 2);
        // x ≥ 1 with x weakened: degree drops by its coefficient, 0 ≥ 0.
        let mut e = Linear {
            coefficients: [(0, 1)].into_iter().collect(),
            degree: 1,
        };
        e.weaken(0);
        assert_eq!(e.degree, 0);
        assert!(!e.falsified(|_| None));
    }

    /// A constraint is falsified when even its best completion falls short.
    #[test]
    fn falsified_reads_the_best_completion() {
        let c = Linear {
            coefficients: [(0, 1), (1, -1)].into_iter().collect(),
            degree: 1,
        };
        assert!(!c.falsified(|_| None));
        assert!(c.falsified(|p| Some(p == 1)));
        assert!(c.falsified(|p| (p == 0).then_some(false)));
    }
}
