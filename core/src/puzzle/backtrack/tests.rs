//! The matching oracle against plain search, and the tilings' distribution against the
//! protocol's exact probabilities.
use std::collections::HashMap;

use super::*;
use rand_chacha::rand_core::SeedableRng;

/// Whether the uncovered cells can be tiled, by plain search: the oracle's twin.
fn tileable_by_search(covered: &mut [bool], rows: usize, cols: usize) -> bool {
    let Some(cell) = covered.iter().position(|&c| !c) else {
        return true;
    };
    let (r, c) = (cell / cols, cell % cols);
    for other in [
        (c + 1 < cols).then(|| cell + 1),
        (r + 1 < rows).then(|| cell + cols),
    ]
    .into_iter()
    .flatten()
    {
        if !covered[other] {
            covered[cell] = true;
            covered[other] = true;
            let found = tileable_by_search(covered, rows, cols);
            covered[cell] = false;
            covered[other] = false;
            if found {
                return true;
            }
        }
    }
    false
}

/// Every answer of the oracle on the states row-major placement reaches (random
/// pieces at the first uncovered cell, refused ones included) is plain search's, and
/// the matching it keeps stays perfect.
#[test]
fn the_oracle_agrees_with_plain_search() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut compared = 0;
    for rows in 1..=5 {
        for cols in 1..=6 {
            for trial in 0..40 {
                let mut blocked = vec![false; rows * cols];
                // A few holes, so that boards without a tiling come up too.
                for _ in 0..trial % 4 {
                    blocked[rng.next_u32() as usize % (rows * cols)] = true;
                }
                let mut plain = blocked.clone();
                let Some(mut m) = Matching::new(rows, cols, blocked.clone(), &|| false).unwrap()
                else {
                    assert!(!tileable_by_search(&mut plain, rows, cols));
                    continue;
                };
                assert!(tileable_by_search(&mut plain, rows, cols));
                while let Some(next) = (0..rows * cols).find(|&k| !m.covered[k]) {
                    let ways: Vec<usize> = [
                        (next % cols + 1 < cols).then(|| next + 1),
                        (next / cols + 1 < rows).then(|| next + cols),
                    ]
                    .into_iter()
                    .flatten()
                    .filter(|&o| !m.covered[o])
                    .collect();
                    let mut moved = false;
                    for &other in &ways {
                        let mut after = m.covered.clone();
                        after[next] = true;
                        after[other] = true;
                        let expected = tileable_by_search(&mut after, rows, cols);
                        let said = m.cover(next, other, &|| false) == Cover::Placed;
                        assert_eq!(said, expected, "{rows}x{cols} cell {next}+{other}");
                        compared += 1;
                        for k in 0..rows * cols {
                            let p = m.partner[k];
                            assert_eq!(p == NONE, m.covered[k], "{rows}x{cols}: cell {k}");
                            if p != NONE {
                                assert_eq!(m.partner[p as usize], k as u32);
                            }
                        }
                        if said {
                            moved = true;
                            break;
                        }
                    }
                    assert!(moved, "{rows}x{cols}: a perfect matching left no way");
                }
            }
        }
    }
    assert!(compared > 2000, "{compared}");
}

/// Each tiling's probability under randomized row-major backtracking, by walking its
/// tree: at a cell where both pieces fit, each is first with probability one half, and
/// the first whose subtree holds a tiling is taken.
fn exact(
    covered: &mut Vec<bool>,
    rows: usize,
    cols: usize,
    p: f64,
    mate: &mut Vec<u32>,
    out: &mut HashMap<Vec<u32>, f64>,
) {
    let Some(cell) = covered.iter().position(|&c| !c) else {
        *out.entry(mate.clone()).or_default() += p;
        return;
    };
    let (r, c) = (cell / cols, cell % cols);
    let down = (r + 1 < rows && !covered[cell + cols]).then_some(cell + cols);
    let right = (c + 1 < cols && !covered[cell + 1]).then_some(cell + 1);
    let live = |covered: &mut Vec<bool>, other: usize| {
        covered[cell] = true;
        covered[other] = true;
        let ok = tileable_by_search(covered, rows, cols);
        covered[cell] = false;
        covered[other] = false;
        ok
    };
    let ways: Vec<usize> = [down, right].into_iter().flatten().collect();
    let alive: Vec<usize> = ways.iter().copied().filter(|&o| live(covered, o)).collect();
    let share = if ways.len() == 2 && alive.len() == 2 {
        0.5
    } else {
        1.0
    };
    for other in alive {
        covered[cell] = true;
        covered[other] = true;
        mate[cell] = other as u32;
        mate[other] = cell as u32;
        exact(covered, rows, cols, p * share, mate, out);
        covered[cell] = false;
        covered[other] = false;
        mate[cell] = NONE;
        mate[other] = NONE;
    }
}

/// The chi-square statistic's value that a correct sampler exceeds with probability
/// about 1e-4 (Wilson-Hilferty), for `df` degrees of freedom.
fn critical(df: f64) -> f64 {
    let z = 3.719;
    let k = 2.0 / (9.0 * df);
    df * (1.0 - k + z * k.sqrt()).powi(3)
}

/// The tilings' frequencies over many draws against the protocol's exact probabilities
/// (Pearson's chi-square, bins of fewer than ten expected draws merged), on boards with
/// and without holes; every tiling drawn is one of the protocol's.
#[test]
fn the_tilings_follow_the_protocols_distribution() {
    let boards: [(usize, usize, &[usize]); 4] =
        [(4, 4, &[]), (4, 5, &[]), (5, 5, &[24]), (5, 6, &[7, 20])];
    for (rows, cols, holes) in boards {
        let mut blocked = vec![false; rows * cols];
        for &h in holes {
            blocked[h] = true;
        }
        let mut probabilities = HashMap::new();
        exact(
            &mut blocked.clone(),
            rows,
            cols,
            1.0,
            &mut vec![NONE; rows * cols],
            &mut probabilities,
        );
        let total: f64 = probabilities.values().sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        let draws = 40_000;
        let mut rng = ChaCha8Rng::seed_from_u64(rows as u64 * 100 + cols as u64);
        let mut counts: HashMap<Vec<u32>, u64> = HashMap::new();
        for _ in 0..draws {
            let found = tiling(rows, cols, &blocked, &mut rng, &|| false)
                .unwrap()
                .unwrap();
            *counts.entry(found.mate).or_default() += 1;
        }
        for tiling in counts.keys() {
            assert!(
                probabilities.contains_key(tiling),
                "{rows}x{cols}: a tiling the protocol never makes"
            );
        }
        let mut bins: Vec<(f64, u64)> = probabilities
            .iter()
            .map(|(t, &p)| (p * draws as f64, counts.get(t).copied().unwrap_or(0)))
            .collect();
        bins.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (mut merged, mut small) = (Vec::new(), (0.0, 0u64));
        for (expected, seen) in bins {
            if expected < 10.0 {
                small = (small.0 + expected, small.1 + seen);
            } else {
                merged.push((expected, seen));
            }
        }
        if small.0 > 0.0 {
            merged.push(small);
        }
        let chi2: f64 = merged
            .iter()
            .map(|&(e, s)| (s as f64 - e).powi(2) / e)
            .sum();
        let df = (merged.len() - 1) as f64;
        assert!(
            chi2 < critical(df),
            "{rows}x{cols}: chi-square {chi2:.1} over {df} degrees of freedom"
        );
    }
}

/// A tiling covers every open cell once with pieces on neighbouring cells, and the
/// same seed gives the same tiling.
#[test]
fn tilings_cover_the_open_cells_and_repeat_with_their_seed() {
    for (rows, cols) in [(1, 2), (2, 1), (7, 9), (64, 64), (96, 130)] {
        let mut blocked = vec![false; rows * cols];
        if rows * cols % 2 == 1 {
            blocked[rows * cols - 1] = true;
        }
        let made = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            tiling(rows, cols, &blocked, &mut rng, &|| false)
                .unwrap()
                .unwrap()
        };
        let found = made(5);
        for (k, &m) in found.mate.iter().enumerate() {
            if blocked[k] {
                assert_eq!(m, NONE);
                continue;
            }
            let m = m as usize;
            assert_eq!(found.mate[m] as usize, k);
            let apart = k.abs_diff(m);
            assert!(
                apart == cols || (apart == 1 && k / cols == m / cols),
                "{rows}x{cols}: {k} and {m} are no piece"
            );
        }
        assert_eq!(found.mate, made(5).mate);
    }
}

/// No tiling: `None`, never a wrong one.
#[test]
fn boards_without_a_tiling_have_none() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    // Two opposite corners of a 4x4 board blocked: same colour, no tiling.
    let mut blocked = vec![false; 16];
    blocked[0] = true;
    blocked[15] = true;
    assert!(
        tiling(4, 4, &blocked, &mut rng, &|| false)
            .unwrap()
            .is_none()
    );
    assert!(
        tiling(3, 3, &[false; 9], &mut rng, &|| false)
            .unwrap()
            .is_none()
    );
}
