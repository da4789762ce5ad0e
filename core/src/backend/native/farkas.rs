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
//! Clarabel's interior point method finds multipliers by maximising the left side minus
//! the right over `-1 ≤ π, μ ≤ 1`; they are then scaled to integers and the inequality
//! is checked in exact integer arithmetic. So the answer never rests on floating point:
//! a refutation is a certificate anyone can check, and a bad LP answer only costs a
//! missed one. An interior point method rather than a simplex: the multiplier LP has a
//! row per candidate, and microlp's simplex took 5 s on a 40×40 board where Clarabel
//! takes 0.15 s (BENCHMARKS.md); its iterates are not vertices, which is why the
//! multipliers are also rounded at fine scales (the exact check does not care).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultInfo, DefaultSettingsBuilder, DefaultSolver, IPSolver, NonnegativeConeT, SolverStatus,
};

use super::layout::Layout;
use super::recipe::Recipe;
use crate::backend::Beside;
use crate::time::Instant;

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

/// Scales tried when rounding the LP's multipliers (divided by the largest) to integers:
/// small ones first, for the short certificates of multipliers near a vertex; then fine
/// ones, where rounding moves each side of the inequality by less than the margin an
/// interior point answer has.
const SCALES: [f64; 11] = [
    1.0, 2.0, 3.0, 4.0, 6.0, 12.0, 60.0, 840.0, 1024.0, 65536.0, 1048576.0,
];

/// Integer multipliers that [`certifies`] accepted, for a proof: one per cell (covered
/// cells' are 0) and one per quota group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Certificate {
    pub pi: Vec<i64>,
    pub mu: Vec<i64>,
}

impl Certificate {
    /// The refutation as a proof derives it: the catalogue's recipe
    /// (`argument/multipliers.rs`). `covered`: the refuted node's covered cells; `root`:
    /// the node is the root.
    pub fn recipe(&self, covered: &[bool], root: bool) -> Recipe {
        super::argument::multipliers::recipe(&self.pi, &self.mu, covered, root)
    }
}

/// What the LP said of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LpVerdict {
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
#[cfg(test)]
pub(super) fn refute(lay: &Layout, node: &Node) -> LpVerdict {
    refute_with_certificate(lay, node).0
}

/// [`refute`], with the certificate of a refutation.
pub(super) fn refute_with_certificate(
    lay: &Layout,
    node: &Node,
) -> (LpVerdict, Option<Certificate>) {
    let Some(lp) = MultiplierLp::new(lay, node) else {
        return (LpVerdict::Settled, None);
    };
    verdict(lay, node, lp.solve(|| !crate::stop::requested()))
}

/// An LP refutation running on a thread of its own while the search goes on, with the
/// node it refutes. Dropping it tells the LP to stop.
pub(super) struct Pending {
    answer: std::sync::mpsc::Receiver<Answer>,
    abandoned: Arc<AtomicBool>,
    root: Root,
}

/// Starts refuting `root` in the background, until `deadline`, in the slot `beside`;
/// `None` when the slot is taken (by a portfolio's other member: it would only solve the
/// same root LP twice, or by an LP an earlier call abandoned) or a thread cannot be had.
///
/// The search does not wait for it: an LP in the search's own thread held up
/// satisfiable boards the search was about to finish. Beside the search the LP can take
/// as long as the search does; when the search ends first (drops its [`Pending`]) the
/// LP stops at the end of its current iteration.
pub(super) fn start(
    lay: &Layout,
    root: Root,
    deadline: Option<Instant>,
    beside: &Beside,
) -> Option<Pending> {
    if !cfg!(feature = "threads") {
        // Built without threads (a page's worker): the search runs alone.
        return None;
    }
    let lp = MultiplierLp::new(lay, &root.node())?;
    let taken = beside.take()?;
    let abandoned = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel();
    let told = abandoned.clone();
    #[cfg(feature = "threads")]
    {
        let spawned = std::thread::Builder::new()
            .name("farkas-lp".to_string())
            .spawn(move || {
                // Frees the slot when the LP ends, however it ends.
                let _taken = taken;
                let keep_going = move || {
                    !told.load(Ordering::SeqCst)
                        && !crate::stop::requested()
                        && deadline.is_none_or(|d| Instant::now() < d)
                };
                let _ = tx.send(lp.solve(keep_going));
            });
        // A thread that could not start dropped its closure, and the slot with it.
        spawned.ok()?;
    }
    #[cfg(not(feature = "threads"))]
    drop((lp, taken, tx, told, deadline));
    Some(Pending {
        answer: rx,
        abandoned,
        root,
    })
}

impl Drop for Pending {
    fn drop(&mut self) {
        self.abandoned.store(true, Ordering::SeqCst);
    }
}

impl Pending {
    /// The verdict once the LP has answered, with the certificate of a refutation;
    /// `None` while it runs.
    pub(super) fn poll(&self, lay: &Layout) -> Option<(LpVerdict, Option<Certificate>)> {
        let answer = match self.answer.try_recv() {
            Ok(answer) => answer,
            Err(std::sync::mpsc::TryRecvError::Empty) => return None,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => None,
        };
        Some(verdict(lay, &self.root.node(), answer))
    }

    /// Which cells were covered at the root the LP refutes.
    pub(super) fn root_covered(&self) -> &[bool] {
        &self.root.covered
    }
}

/// The verdict on an LP answer: a refutation only when the rounded multipliers pass the
/// exact check, and then with them.
fn verdict(lay: &Layout, node: &Node, answer: Answer) -> (LpVerdict, Option<Certificate>) {
    let Some((finished, values)) = answer else {
        return (LpVerdict::Unfinished, None);
    };
    let unproved = if finished {
        LpVerdict::Settled
    } else {
        LpVerdict::Unfinished
    };
    let Some((pi_values, mu_values)) = values else {
        return (unproved, None);
    };
    let largest = pi_values
        .iter()
        .chain(&mu_values)
        .fold(0.0f64, |m, v| m.max(v.abs()));
    if !(largest.is_finite() && largest > 0.0) {
        return (unproved, None);
    }
    let round = |values: &[f64], scale: f64| -> Vec<i64> {
        values
            .iter()
            .map(|&v| (v / largest * scale).round() as i64)
            .collect()
    };
    for &scale in &SCALES {
        let (pi, mu) = (round(&pi_values, scale), round(&mu_values, scale));
        if certifies(lay, node, &pi, &mu) {
            return (LpVerdict::Refuted, Some(Certificate { pi, mu }));
        }
    }
    (unproved, None)
}

/// The LP whose optimum is positive exactly when the node has no fractional solution,
/// in Clarabel's form: minimise `qᵀx` subject to `Ax ≤ b`, over `x = (π, μ, z)`.
struct MultiplierLp {
    q: Vec<f64>,
    a: CscMatrix<f64>,
    b: Vec<f64>,
    /// The variable of each cell's multiplier; `None` for covered cells.
    pi: Vec<Option<usize>>,
    /// The group multipliers are variables `groups_from..groups_from + groups`.
    groups_from: usize,
    groups: usize,
}

impl MultiplierLp {
    /// `None` when a live candidate touches a covered cell (the node is not settled,
    /// nothing to refute).
    fn new(lay: &Layout, node: &Node) -> Option<MultiplierLp> {
        let mut vars = 0;
        let pi: Vec<Option<usize>> = (0..lay.cells)
            .map(|c| {
                (!node.covered[c]).then(|| {
                    vars += 1;
                    vars - 1
                })
            })
            .collect();
        let groups_from = vars;
        let groups = node.quota.len();
        vars += groups;
        // Maximise Σ π + Σ k μ − Σ z: minimise its negation.
        let mut q = vec![-1.0; groups_from];
        q.extend(node.quota.iter().map(|&k| -f64::from(k)));
        let (mut rows, mut cols, mut values) = (Vec::new(), Vec::new(), Vec::new());
        let mut b = Vec::new();
        let mut entry = |row: usize, col: usize, value: f64| {
            rows.push(row);
            cols.push(col);
            values.push(value);
        };
        for (p, &[first, second]) in lay.place_cells.iter().enumerate() {
            if !node.active[p] {
                continue;
            }
            // π_a + π_b + Σ μ_g − z_p ≤ 0 and −z_p ≤ 0: z_p is the candidate's reach,
            // and costs 1.
            let z = vars;
            vars += 1;
            q.push(1.0);
            let row = b.len();
            for cell in [first, second] {
                entry(row, pi[cell as usize]?, 1.0);
            }
            for &g in lay.groups_of(p as u32) {
                entry(row, groups_from + g as usize, 1.0);
            }
            entry(row, z, -1.0);
            entry(row + 1, z, -1.0);
            b.extend([0.0, 0.0]);
        }
        // The box −1 ≤ π, μ ≤ 1.
        for var in 0..groups_from + groups {
            let row = b.len();
            entry(row, var, 1.0);
            entry(row + 1, var, -1.0);
            b.extend([1.0, 1.0]);
        }
        let a = CscMatrix::new_from_triplets(b.len(), vars, rows, cols, values);
        Some(MultiplierLp {
            q,
            a,
            b,
            pi,
            groups_from,
            groups,
        })
    }

    /// Solves until optimal or until `keep_going` says no (asked once per iteration).
    fn solve(&self, keep_going: impl Fn() -> bool + Send + Sync + 'static) -> Answer {
        let settings = DefaultSettingsBuilder::default()
            .verbose(false)
            // Each iteration ends in a fresh check of the answer, so the last digits
            // only cost time: refinement off and looser tolerances halved the time
            // on 16×16 to 40×40 boards.
            .iterative_refinement_enable(false)
            .tol_gap_abs(1e-5)
            .tol_gap_rel(1e-5)
            .tol_feas(1e-6)
            .build()
            .ok()?;
        let vars = self.q.len();
        let quadratic = CscMatrix::zeros((vars, vars));
        let cones = [NonnegativeConeT(self.b.len())];
        let mut solver =
            DefaultSolver::new(&quadratic, &self.q, &self.a, &self.b, &cones, settings).ok()?;
        solver.set_termination_callback(move |_: &DefaultInfo<f64>| !keep_going());
        solver.solve();
        let finished = !matches!(
            solver.solution.status,
            SolverStatus::CallbackTerminated | SolverStatus::MaxTime | SolverStatus::Unsolved
        );
        let x = &solver.solution.x;
        let values = (-solver.solution.obj_val > 1e-6 && x.len() == vars).then(|| {
            let pi = self.pi.iter().map(|v| v.map_or(0.0, |v| x[v])).collect();
            let mu = x[self.groups_from..self.groups_from + self.groups].to_vec();
            (pi, mu)
        });
        Some((finished, values))
    }
}

#[cfg(test)]
mod tests {
    use super::{LpVerdict, Node, certifies, refute};
    use crate::backend::native::layout::Layout;
    use crate::model::{Families, compile};

    fn board(file: &str, name: &str) -> crate::puzzle::Instance {
        let path = format!("{}/../models/{file}", env!("CARGO_MANIFEST_DIR"));
        let instances = crate::testing::read_instances(&path).unwrap();
        instances.into_iter().find(|i| i.name == name).unwrap()
    }

    fn root_verdict(instance: &crate::puzzle::Instance) -> LpVerdict {
        let model = compile(instance, Families::ColourSplits);
        let lay = Layout::new(&model, false);
        let active = vec![true; model.placements.len()];
        let covered = vec![false; lay.cells];
        let quota: Vec<i32> = model.quotas.iter().map(|g| g.quota as i32).collect();
        refute(
            &lay,
            &Node {
                active: &active,
                covered: &covered,
                quota: &quota,
            },
        )
    }

    /// The interior point answer is turned into an exact certificate on the boards the
    /// LP exists for (each proved infeasible by varisat in the suite's race tests).
    #[test]
    fn refutes_the_boards_only_the_lp_refutes_quickly() {
        for name in [
            "unsat-16x16-s6605-1",
            "unsat-16x16-s6605-2",
            "unsat-24x24-s6605-4",
        ] {
            let instance = board("unsat-hard.jsonl", name);
            assert_eq!(root_verdict(&instance), LpVerdict::Refuted, "{name}");
        }
    }

    /// A board with a tiling has a fractional solution: the LP settles without a
    /// certificate.
    #[test]
    fn settles_on_a_board_with_a_tiling() {
        let instance = board("stress.jsonl", "planted-16x16-s6603-1");
        assert_eq!(root_verdict(&instance), LpVerdict::Settled);
    }

    /// No multipliers certify a board that has a tiling (the tiling's 0/1 vector is a
    /// solution, and Farkas' two alternatives exclude each other): a thousand random
    /// small ones are all rejected by the exact check.
    #[test]
    fn no_certificate_for_a_board_with_a_tiling() {
        let instance = board("stress.jsonl", "planted-16x16-s6603-1");
        let model = compile(&instance, Families::ColourSplits);
        let lay = Layout::new(&model, false);
        let active = vec![true; model.placements.len()];
        let covered = vec![false; lay.cells];
        let quota: Vec<i32> = model.quotas.iter().map(|g| g.quota as i32).collect();
        let node = Node {
            active: &active,
            covered: &covered,
            quota: &quota,
        };
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut small = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % 5) as i64 - 2
        };
        for _ in 0..1000 {
            let pi: Vec<i64> = (0..lay.cells).map(|_| small()).collect();
            let mu: Vec<i64> = (0..quota.len()).map(|_| small()).collect();
            assert!(!certifies(&lay, &node, &pi, &mu));
        }
    }
}
