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
///
/// Counted over the shifted coordinates `x[j] - lo[j]`, whose sum is capped by the
/// window and by the ranges themselves, one coordinate at a time with prefix sums: a
/// pass costs `lo.len()` times that cap, not times each range as well (on a 63-wide
/// board of 4,096 rows the direct count took minutes).
fn vectors(lo: &[u32], hi: &[u32], sums: (u64, u64)) -> f64 {
    if lo.iter().zip(hi).any(|(l, h)| l > h) {
        return 0.0;
    }
    let floor: u64 = lo.iter().map(|&l| u64::from(l)).sum();
    let spread: u64 = lo.iter().zip(hi).map(|(&l, &h)| u64::from(h - l)).sum();
    if sums.1 < floor || sums.0 > floor + spread {
        return 0.0;
    }
    let cap = (sums.1 - floor).min(spread) as usize;
    let from = sums.0.saturating_sub(floor) as usize;
    // ways[s]: vectors over the coordinates so far whose shifted sum is s (sums past
    // `cap` dropped: no coordinate is negative).
    let mut ways = vec![0f64; cap + 1];
    ways[0] = 1.0;
    let mut prefix = vec![0f64; cap + 2];
    for (&l, &h) in lo.iter().zip(hi) {
        let range = (h - l) as usize;
        for (s, &w) in ways.iter().enumerate() {
            prefix[s + 1] = prefix[s] + w;
        }
        for (s, slot) in ways.iter_mut().enumerate() {
            // Shifted values 0..=range ending at s: the ways to s - y for each y.
            let first = s.saturating_sub(range);
            *slot = prefix[s + 1] - prefix[first];
        }
    }
    ways[from.min(cap + 1)..].iter().sum()
}

/// The bound for sweeping `problem` row by row; `None` when `stop` said so first (it
/// is asked at every row: on long boards the bound itself takes a while).
///
/// Rows are counted from the one with the largest product of coordinate ranges (a
/// cheap bound on its count) down, rows whose product cannot raise the peak are
/// skipped, and the count ends as soon as the peak passes `enough` live states: past
/// that the answer is already known (a refusal), and counting every row of a board
/// hopeless for the DP took 38 s on a 63×4096 board.
pub fn estimate(problem: &CutProblem, enough: f64, stop: &dyn Fn() -> bool) -> Option<Estimate> {
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
    // Within row i, each coordinate lies between its bounds before the row and after
    // it, and the sum between the two pinned sums.
    let row_bounds = |i: usize| {
        let (lo, _) = bounds(i);
        let (_, hi) = bounds(i + 1);
        (lo, hi)
    };
    let mut order: Vec<(f64, usize)> = (0..m)
        .map(|i| {
            let (lo, hi) = row_bounds(i);
            let product = lo
                .iter()
                .zip(&hi)
                .map(|(&l, &h)| f64::from(h.saturating_sub(l)) + 1.0)
                .product::<f64>();
            (product, i)
        })
        .collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut peak: f64 = 1.0;
    for (product, i) in order {
        if product <= peak || 2.0 * peak > enough {
            break;
        }
        if stop() {
            return None;
        }
        let (lo, hi) = row_bounds(i);
        peak = peak.max(vectors(&lo, &hi, (supplied[i], supplied[i + 1])));
    }
    Some(Estimate {
        peak_states: peak,
        live_states: 2.0 * peak,
    })
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

    /// The prefix-sum count against listing every vector, on small random bounds.
    #[test]
    fn vectors_equals_a_direct_count() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |below: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % u64::from(below)) as u32
        };
        for _ in 0..500 {
            let len = next(5) as usize;
            let lo: Vec<u32> = (0..len).map(|_| next(4)).collect();
            let hi: Vec<u32> = lo.iter().map(|&l| l + next(5)).collect();
            let (a, b) = (u64::from(next(14)), u64::from(next(14)));
            let sums = (a.min(b), a.max(b));
            let mut direct = 0u64;
            let mut x = lo.clone();
            'all: loop {
                let total: u64 = x.iter().map(|&v| u64::from(v)).sum();
                if (sums.0..=sums.1).contains(&total) {
                    direct += 1;
                }
                for j in 0..len {
                    if x[j] < hi[j] {
                        x[j] += 1;
                        continue 'all;
                    }
                    x[j] = lo[j];
                }
                break;
            }
            assert_eq!(
                vectors(&lo, &hi, sums),
                direct as f64,
                "{lo:?} {hi:?} {sums:?}"
            );
        }
    }
}
