//! The matching against plain backtracking on every small board, and its stop.

use super::{Matched, NONE, Start, perfect_matching};

/// Whether `partner` pairs every open cell with an open neighbour, both ways.
fn is_perfect(rows: usize, cols: usize, open: &[bool], partner: &[u32]) -> bool {
    (0..rows * cols).all(|cell| {
        let p = partner[cell];
        if !open[cell] {
            return p == NONE;
        }
        if p == NONE || partner[p as usize] as usize != cell || !open[p as usize] {
            return false;
        }
        let (a, b) = (cell.min(p as usize), cell.max(p as usize));
        (b == a + 1 && a / cols == b / cols) || b == a + cols
    })
}

/// Whether the open cells can be tiled, by plain backtracking at the first open
/// uncovered cell: knows nothing of matchings.
fn tileable(rows: usize, cols: usize, free: &mut [bool]) -> bool {
    let Some(cell) = (0..rows * cols).find(|&c| free[c]) else {
        return true;
    };
    free[cell] = false;
    let mut ok = false;
    for other in [
        (cell % cols + 1 < cols).then(|| cell + 1),
        (cell / cols + 1 < rows).then(|| cell + cols),
    ]
    .into_iter()
    .flatten()
    {
        if free[other] {
            free[other] = false;
            ok = tileable(rows, cols, free);
            free[other] = true;
            if ok {
                break;
            }
        }
    }
    free[cell] = true;
    ok
}

#[test]
fn agrees_with_backtracking_on_every_small_board() {
    for (rows, cols) in [(1, 6), (2, 4), (3, 3), (3, 4), (4, 4)] {
        let cells = rows * cols;
        for mask in 0u32..(1 << cells) {
            let open: Vec<bool> = (0..cells).map(|c| mask >> c & 1 == 1).collect();
            let expected = tileable(rows, cols, &mut open.clone());
            for start in [Start::RowMajor, Start::PendantsFirst] {
                let found = perfect_matching(rows, cols, &|c| open[c], start, &|| false);
                match found {
                    Matched::Perfect(partner) => {
                        assert!(
                            expected,
                            "{rows}x{cols} mask {mask}: matched an untileable board"
                        );
                        assert!(
                            is_perfect(rows, cols, &open, &partner),
                            "{rows}x{cols} mask {mask}"
                        );
                    }
                    Matched::Imperfect => {
                        assert!(!expected, "{rows}x{cols} mask {mask}: missed a tiling")
                    }
                    Matched::Stopped => panic!("stopped without a stop"),
                }
            }
        }
    }
}

/// Nested U-shaped bands whose greedy pairs leave a cell at each end of each band:
/// every augmenting path runs the length of its band.
#[test]
fn long_augmenting_paths_are_found() {
    let (rows, cols, open) = pendants();
    let expected = tileable(rows, cols, &mut open.clone());
    assert!(expected, "the bands have a tiling");
    for start in [Start::RowMajor, Start::PendantsFirst] {
        match perfect_matching(rows, cols, &|c| open[c], start, &|| false) {
            Matched::Perfect(partner) => assert!(is_perfect(rows, cols, &open, &partner)),
            other => panic!("{start:?}: {}", matches!(other, Matched::Imperfect)),
        }
    }
}

/// The board of [`long_augmenting_paths_are_found`]: its greedy pairs leave the
/// pendant cells of the last row, so that forest passes are needed.
fn pendants() -> (usize, usize, Vec<bool>) {
    let (rows, cols) = (41, 40);
    let mut open = vec![true; rows * cols];
    for c in 0..cols {
        open[(rows - 1) * cols + c] = c % 4 == 0 || c % 4 == 3;
    }
    (rows, cols, open)
}

#[test]
fn a_stop_is_heeded() {
    let (rows, cols, open) = pendants();
    let asked = std::cell::Cell::new(0);
    let stop = || {
        asked.set(asked.get() + 1);
        true
    };
    assert!(matches!(
        perfect_matching(rows, cols, &|c| open[c], Start::RowMajor, &stop),
        Matched::Stopped
    ));
    assert_eq!(asked.get(), 1);
}
