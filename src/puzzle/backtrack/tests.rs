//! The column sweep against plain search, the cut counts kept by place and lift against
//! a count from scratch, and the tilings found.
use super::*;
use rand_chacha::rand_core::SeedableRng;

/// Whether the uncovered cells can be tiled, by plain search: the twin of the
/// column sweep.
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

fn board(rows: usize, cols: usize) -> Board {
    let mut board = Board {
        rows,
        cols,
        covered: vec![false; rows * cols],
        mate: vec![NONE; rows * cols],
        col_cut: Vec::new(),
        row_cut: Vec::new(),
        backjumps: 0,
    };
    board.count_cuts();
    board
}

/// The column sweep against plain search on the states row-major placement reaches:
/// random pieces at the first uncovered cell, checked after each.
#[test]
fn the_bottom_sweep_agrees_with_plain_search() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut compared = 0;
    for rows in 1..=EXACT_ROWS {
        for cols in 1..=7 {
            for _ in 0..200 {
                let mut b = board(rows, cols);
                let mut next = 0;
                loop {
                    while next < rows * cols && b.covered[next] {
                        next += 1;
                    }
                    if next == rows * cols {
                        break;
                    }
                    let ways: Vec<Way> = [Way::Down, Way::Right]
                        .into_iter()
                        .filter(|&w| b.can(next, w))
                        .collect();
                    if ways.is_empty() {
                        break;
                    }
                    let way = ways[(rng.next_u32() as usize) % ways.len()];
                    b.place(next, way);
                    let top = next / cols;
                    let mut copy = b.covered.clone();
                    assert_eq!(
                        b.bottom_tileable(top),
                        tileable_by_search(&mut copy, rows, cols),
                        "{rows}x{cols} {:?}",
                        b.covered
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 1000);
}

/// Cut counts kept by place and lift equal those counted from scratch.
#[test]
fn cuts_kept_incrementally_equal_cuts_counted_afresh() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let (rows, cols) = (6, 7);
    let mut b = board(rows, cols);
    let mut placed = Vec::new();
    for step in 0..400 {
        let free: Vec<(usize, Way)> = (0..rows * cols)
            .filter(|&k| !b.covered[k])
            .flat_map(|k| [(k, Way::Down), (k, Way::Right)])
            .filter(|&(k, w)| b.can(k, w))
            .collect();
        if step % 3 == 2 || free.is_empty() {
            if let Some((k, w)) = placed.pop() {
                b.lift(k, w);
            }
        } else {
            let (k, w) = free[(rng.next_u32() as usize) % free.len()];
            b.place(k, w);
            placed.push((k, w));
        }
        let mut fresh = board(rows, cols);
        fresh.covered.clone_from(&b.covered);
        fresh.count_cuts();
        for (a, f) in b
            .col_cut
            .iter()
            .zip(&fresh.col_cut)
            .chain(b.row_cut.iter().zip(&fresh.row_cut))
        {
            assert_eq!(
                (a.imbalance, a.capacity),
                (f.imbalance, f.capacity),
                "step {step}"
            );
        }
    }
}

#[test]
fn tilings_cover_every_open_cell_once() {
    for (rows, cols) in [(1, 1), (1, 2), (3, 3), (5, 7), (8, 8), (9, 4), (33, 31)] {
        let mut blocked = vec![false; rows * cols];
        if (rows * cols) % 2 == 1 {
            blocked[rows * cols - 1] = true;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let found = tiling(rows, cols, &blocked, &mut rng).unwrap();
        for (k, &m) in found.mate.iter().enumerate() {
            if blocked[k] {
                assert_eq!(m, NONE);
            } else {
                assert_eq!(found.mate[m as usize] as usize, k);
                let (a, b) = (k.min(m as usize), k.max(m as usize));
                assert!(b == a + cols || (b == a + 1 && a % cols + 1 < cols));
            }
        }
    }
}
