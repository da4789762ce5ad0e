//! Refuting a node with the LP relaxation, checked exactly.
//!
//! At a settled node the rest of the problem is: choose live candidates so that every
//! uncovered cell is covered once and every quota group gets exactly its residual
//! quota. Boards built to pass every cheap check can still have no *fractional*
//! solution of that system; an LP solver sees it at once, where a search needs millions
//! of nodes (glpsol refutes such boards without branching).
//!
//! By Farkas' lemma the system `A x = b, 0 ≤ x ≤ 1` has no solution exactly when some
//! multipliers `y` give `bᵀy > Σ_p max(0, (Aᵀy)_p)`: the right side is the most any
//! `x` in the box can reach. With a multiplier `π_c` per cell and `μ_g` per group, that
//! is
//!
//! ```text
//! Σ_c π_c + Σ_g k_g μ_g  >  Σ_p max(0, π_a(p) + π_b(p) + Σ_{g ∋ p} μ_g)
//! ```
//!
//! microlp finds multipliers by maximising the left side minus the right over
//! `-1 ≤ π, μ ≤ 1`; they are then scaled to integers and the inequality is checked in
//! exact integer arithmetic. So the answer never rests on floating point: a refutation
//! is a certificate anyone can check, and a bad LP answer only costs a missed one.

use std::time::Duration;

use microlp::{ComparisonOp, OptimizationDirection, Problem, SolveOptions};

use super::layout::Layout;

/// The live part of a node: what the refutation reads.
pub(super) struct Node<'s> {
    pub active: &'s [bool],
    pub covered: &'s [bool],
    /// Residual quota of each group.
    pub quota: &'s [i32],
}

/// Whether the multipliers (one per cell, covered ones ignored, and one per group)
/// prove that the node has no fractional solution, in exact arithmetic.
pub(super) fn certifies(lay: &Layout, node: &Node, pi: &[i64], mu: &[i64]) -> bool {
    let mut demand: i128 = 0;
    for c in 0..lay.cells {
        if !node.covered[c] {
            demand += i128::from(pi[c]);
        }
    }
    for (g, &k) in node.quota.iter().enumerate() {
        demand += i128::from(k) * i128::from(mu[g]);
    }
    let mut reach: i128 = 0;
    for (p, &[a, b]) in lay.place_cells.iter().enumerate() {
        if !node.active[p] {
            continue;
        }
        let mut coefficient = i128::from(pi[a as usize]) + i128::from(pi[b as usize]);
        for &g in lay.groups_of(p as u32) {
            coefficient += i128::from(mu[g as usize]);
        }
        reach += coefficient.max(0);
    }
    demand > reach
}

/// Scales tried when rounding the LP's multipliers to integers: vertex solutions of the
/// multiplier LP have small denominators.
const SCALES: [f64; 8] = [1.0, 2.0, 3.0, 4.0, 6.0, 12.0, 60.0, 840.0];

/// What the LP said of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    /// A certificate that [`certifies`] accepted: the node has no solution.
    Refuted,
    /// The LP was solved and gave no certificate: trying again is pointless.
    Settled,
    /// The time limit (or a numerical failure) came first: more time may tell.
    Unfinished,
}

/// Tries to refute the node. `time_limit` bounds the LP solve; a solve stopped by it
/// may still carry multipliers good enough for a certificate.
pub(super) fn refute(lay: &Layout, node: &Node, time_limit: Option<Duration>) -> Verdict {
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let pi: Vec<Option<microlp::Variable>> = (0..lay.cells)
        .map(|c| (!node.covered[c]).then(|| lp.add_var(1.0, (-1.0, 1.0))))
        .collect();
    let mu: Vec<microlp::Variable> = node
        .quota
        .iter()
        .map(|&k| lp.add_var(f64::from(k), (-1.0, 1.0)))
        .collect();
    for (p, &[a, b]) in lay.place_cells.iter().enumerate() {
        if !node.active[p] {
            continue;
        }
        // z_p ≥ π_a + π_b + Σ μ_g, z_p ≥ 0, and z_p costs 1.
        let z = lp.add_var(-1.0, (0.0, f64::INFINITY));
        let mut terms = vec![(z, 1.0)];
        for cell in [a, b] {
            match pi[cell as usize] {
                Some(v) => terms.push((v, -1.0)),
                // A live candidate never touches a covered cell.
                None => return Verdict::Settled,
            }
        }
        for &g in lay.groups_of(p as u32) {
            terms.push((mu[g as usize], -1.0));
        }
        lp.add_constraint(terms, ComparisonOp::Ge, 0.0);
    }
    let mut options = SolveOptions::default();
    options.time_limit = time_limit;
    let Ok(outcome) = lp.solve_with(options) else {
        return Verdict::Unfinished;
    };
    let finished = outcome.termination_reason() == microlp::TerminationReason::ProvenOptimal;
    let unproved = if finished {
        Verdict::Settled
    } else {
        Verdict::Unfinished
    };
    let Ok(solution) = outcome.into_solution() else {
        return unproved;
    };
    if solution.objective() <= 1e-6 {
        return unproved;
    }
    let pi_values: Vec<f64> = pi
        .iter()
        .map(|v| v.map_or(0.0, |v| solution.var_value(v)))
        .collect();
    let mu_values: Vec<f64> = mu.iter().map(|&v| solution.var_value(v)).collect();
    let certified = SCALES.iter().any(|&scale| {
        let round = |values: &[f64]| -> Vec<i64> {
            values.iter().map(|&v| (v * scale).round() as i64).collect()
        };
        certifies(lay, node, &round(&pi_values), &round(&mu_values))
    });
    if certified {
        Verdict::Refuted
    } else {
        unproved
    }
}
