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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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

/// What the LP solve gave: whether it was proved optimal, and its cell and group
/// multipliers when its objective was positive.
type Answer = Option<(bool, Option<(Vec<f64>, Vec<f64>)>)>;

/// A copy of a node, kept while the search moves on (the root, for the LP).
pub(super) struct Root {
    active: Vec<bool>,
    covered: Vec<bool>,
    quota: Vec<i32>,
}

impl Root {
    /// The node with these live candidates, covered cells and residual quotas.
    pub(super) fn new(active: Vec<bool>, covered: Vec<bool>, quota: Vec<i32>) -> Root {
        Root {
            active,
            covered,
            quota,
        }
    }

    /// The copy as a node.
    pub(super) fn node(&self) -> Node<'_> {
        Node {
            active: &self.active,
            covered: &self.covered,
            quota: &self.quota,
        }
    }
}

/// Tries to refute the node, in this thread, taking as long as the LP takes (the
/// tests' every-stall mode).
pub(super) fn refute(lay: &Layout, node: &Node) -> Verdict {
    let Some((lp, pi, mu)) = multiplier_lp(lay, node) else {
        return Verdict::Settled;
    };
    verdict(lay, node, solve(&lp, &pi, &mu, None, &|| true))
}

/// An LP refutation running on a thread of its own while the search goes on, with the
/// node it refutes. Dropping it tells the LP to stop.
pub(super) struct Pending {
    answer: std::sync::mpsc::Receiver<Answer>,
    abandoned: Arc<AtomicBool>,
    root: Root,
}

/// Starts refuting `root` in the background, until `deadline`; `None` when another
/// LP is running in this process (a portfolio's members would only solve the same root
/// LP twice) or a thread cannot be had.
///
/// The search does not wait for it. microlp looks at its time limit only every
/// thousand pivots (80 ms on a 32×32 board): an LP in the search's own thread held up
/// satisfiable boards the search was about to finish, and a limit short enough not to
/// was too short for the boards the LP refutes. Beside the search the LP can take as
/// long as the search does; it runs in slices, and when the search ends first (drops
/// its [`Pending`]) it stops at the end of the slice.
pub(super) fn start(lay: &Layout, root: Root, deadline: Option<Instant>) -> Option<Pending> {
    let (lp, pi, mu) = multiplier_lp(lay, &root.node())?;
    LP_RUNNING
        .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
        .ok()?;
    let abandoned = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel();
    let told = abandoned.clone();
    let spawned = std::thread::Builder::new()
        .name("farkas-lp".to_string())
        .spawn(move || {
            let _running = Running;
            let keep_going = || {
                !told.load(Ordering::SeqCst)
                    && !crate::interrupt::requested()
                    && deadline.is_none_or(|d| Instant::now() < d)
            };
            let _ = tx.send(solve(&lp, &pi, &mu, Some(SLICE), &keep_going));
        });
    if spawned.is_err() {
        LP_RUNNING.store(false, Ordering::SeqCst);
        return None;
    }
    Some(Pending {
        answer: rx,
        abandoned,
        root,
    })
}

/// How long the background LP runs between looks at whether it is still wanted (plus
/// microlp's overshoot of up to a thousand pivots).
const SLICE: Duration = Duration::from_millis(10);

impl Drop for Pending {
    fn drop(&mut self) {
        self.abandoned.store(true, Ordering::SeqCst);
    }
}

impl Pending {
    /// The verdict once the LP has answered; `None` while it runs.
    pub(super) fn poll(&self, lay: &Layout) -> Option<Verdict> {
        let answer = match self.answer.try_recv() {
            Ok(answer) => answer,
            Err(std::sync::mpsc::TryRecvError::Empty) => return None,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => None,
        };
        Some(verdict(lay, &self.root.node(), answer))
    }
}

/// Solves the LP in slices of `slice` (`None`: in one go) for as long as `keep_going`
/// says.
fn solve(
    lp: &Problem,
    pi: &[Option<microlp::Variable>],
    mu: &[microlp::Variable],
    slice: Option<Duration>,
    keep_going: &dyn Fn() -> bool,
) -> Answer {
    let mut options = SolveOptions::default();
    options.time_limit = slice;
    let mut outcome = lp.solve_with(options).ok()?;
    while !outcome.is_optimal()
        && outcome.termination_reason() == microlp::TerminationReason::TimeLimit
        && keep_going()
    {
        outcome = outcome.resume().ok()?;
    }
    let finished = outcome.is_optimal();
    let values = outcome.into_solution().ok().and_then(|solution| {
        (solution.objective() > 1e-6).then(|| {
            let pi: Vec<f64> = pi
                .iter()
                .map(|v| v.map_or(0.0, |v| solution.var_value(v)))
                .collect();
            let mu: Vec<f64> = mu.iter().map(|&v| solution.var_value(v)).collect();
            (pi, mu)
        })
    });
    Some((finished, values))
}

/// The verdict on an LP answer: a refutation only when the rounded multipliers pass the
/// exact check.
fn verdict(lay: &Layout, node: &Node, answer: Answer) -> Verdict {
    let Some((finished, values)) = answer else {
        return Verdict::Unfinished;
    };
    let unproved = if finished {
        Verdict::Settled
    } else {
        Verdict::Unfinished
    };
    let Some((pi_values, mu_values)) = values else {
        return unproved;
    };
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

/// Waits until no LP thread is running: an abandoned one runs to the end of its slice.
pub fn wait_for_abandoned_lp() {
    while LP_RUNNING.load(Ordering::SeqCst) && !crate::interrupt::requested() {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Whether an LP thread is running.
static LP_RUNNING: AtomicBool = AtomicBool::new(false);

/// Clears [`LP_RUNNING`] when the LP thread ends, however it ends.
struct Running;

impl Drop for Running {
    fn drop(&mut self) {
        LP_RUNNING.store(false, Ordering::SeqCst);
    }
}

/// The LP whose optimum is positive exactly when the node has no fractional solution,
/// with its cell and group multipliers; `None` when a live candidate touches a covered
/// cell (the node is not settled, nothing to refute).
#[allow(clippy::type_complexity)]
fn multiplier_lp(
    lay: &Layout,
    node: &Node,
) -> Option<(
    Problem,
    Vec<Option<microlp::Variable>>,
    Vec<microlp::Variable>,
)> {
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
            terms.push((pi[cell as usize]?, -1.0));
        }
        for &g in lay.groups_of(p as u32) {
            terms.push((mu[g as usize], -1.0));
        }
        lp.add_constraint(terms, ComparisonOp::Ge, 0.0);
    }
    Some((lp, pi, mu))
}
