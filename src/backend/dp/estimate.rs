//! An upper bound on the frontier DP's state space, computed before the sweep from the
//! board's shape and cut quotas alone, so that a hopeless board is refused with a
//! number instead of running out of memory.
//!
//! The mask adds nothing to the count: every cell swept so far is covered, so the
//! parity of the covered cells of column `j` gives bit `j` from the budgets around it
//! (`cells_j ≡ bit_j + ℓ_{j-1} + ℓ_j`, twice the vertical pieces inside aside). A
//! layer therefore has at most as many states as there are budget vectors `ℓ`: each
//! coordinate between what the rows above can have supplied and what the rows below
//! must still supply, and the sum pinned between the row quotas (row `i` holds
//! `p_i = (a_i - u_{i-1} - u_i) / 2` horizontal pieces). The bound counts those
//! vectors exactly.

use super::frontier::CutProblem;

/// The bound, in states (as floating point: it can be astronomically large).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Largest layer.
    pub peak_states: f64,
    /// What the counting sweep holds at once: two layers. (Recovering witnesses keeps
    /// every layer; that is measured exactly by a counting pass, not estimated.)
    pub live_states: f64,
}

/// Number of integer vectors with `lo[j] <= x[j] <= hi[j]` and a sum in `sums`.
fn vectors(lo: &[u32], hi: &[u32], sums: (u64, u64)) -> f64 {
    let cap = sums.1 as usize;
    // ways[s]: vectors over the coordinates so far with sum s (sums past `cap` dropped).
    let mut ways = vec![0f64; cap + 1];
    ways[0] = 1.0;
    for (&l, &h) in lo.iter().zip(hi) {
        if l > h {
            return 0.0;
        }
        let mut next = vec![0f64; cap + 1];
        for (s, &w) in ways.iter().enumerate() {
            if w == 0.0 {
                continue;
            }
            for x in l..=h {
                let total = s + x as usize;
                if total > cap {
                    break;
                }
                next[total] += w;
            }
        }
        ways = next;
    }
    ways[(sums.0 as usize).min(cap + 1)..].iter().sum()
}

/// The bound for sweeping `problem` row by row.
pub fn estimate(problem: &CutProblem) -> Estimate {
    let (m, n) = (problem.rows, problem.cols);
    let open = |r: usize, c: usize| r < m && c < n && problem.open[r * n + c];
    let cuts = n.saturating_sub(1);
    // Room for horizontal pieces at cut j in rows < i (above) and rows >= i (below).
    let mut above = vec![vec![0u32; cuts]; m + 1];
    for i in 0..m {
        for j in 0..cuts {
            above[i + 1][j] = above[i][j] + u32::from(open(i, j) && open(i, j + 1));
        }
    }
    let total_room: Vec<u32> = above[m].clone();
    // Horizontal pieces in rows < i, from the row quotas.
    let mut supplied = vec![0u64; m + 1];
    for i in 0..m {
        let cells = (0..n).filter(|&c| open(i, c)).count() as i64;
        let incoming = if i == 0 {
            0
        } else {
            i64::from(problem.u[i - 1])
        };
        let pieces = ((cells - incoming - i64::from(problem.u[i])) / 2).max(0) as u64;
        supplied[i + 1] = supplied[i] + pieces;
    }
    let bounds = |i: usize| -> (Vec<u32>, Vec<u32>) {
        let lo = (0..cuts)
            .map(|j| {
                let below = total_room[j] - above[i][j];
                problem.t[j].saturating_sub(below)
            })
            .collect();
        let hi = (0..cuts).map(|j| problem.t[j].min(above[i][j])).collect();
        (lo, hi)
    };
    let mut peak: f64 = 1.0;
    for i in 0..m {
        // Within row i, each coordinate lies between its bounds before the row and
        // after it, and the sum between the two pinned sums.
        let (lo, _) = bounds(i);
        let (_, hi) = bounds(i + 1);
        let budgets = vectors(&lo, &hi, (supplied[i], supplied[i + 1]));
        peak = peak.max(budgets);
    }
    Estimate {
        peak_states: peak,
        live_states: 2.0 * peak,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_counts_bounded_compositions() {
        // x0 in 0..=2, x1 in 1..=2, sum exactly 3: (1,2), (2,1).
        assert_eq!(vectors(&[0, 1], &[2, 2], (3, 3)), 2.0);
        // Sum in 0..=4: all 3 * 2 vectors.
        assert_eq!(vectors(&[0, 1], &[2, 2], (0, 4)), 6.0);
        assert_eq!(vectors(&[], &[], (0, 0)), 1.0);
        assert_eq!(vectors(&[3], &[2], (0, 9)), 0.0);
    }
}
