//! Second tilings by local re-tiling (`backend::native::retile`) against oracles that
//! know nothing of windows: the window board against a construction cell by cell from
//! the tiling, and the tilings `--limit K` hands out against the complete solution
//! sets (varisat on the raw clue sums), on boards large enough for windows to be local.

use dominofit::backend::native::retile::{Walked, Window, retilings, window_board, windows};
use dominofit::backend::native::{Native, SearchOptions};
use dominofit::backend::{Backend, Budget, Control, Ending};
use dominofit::model::{Families, PlacementId, compile};
use dominofit::puzzle::{Instance, Orientation, Piece, Solution};

use crate::common::{Sample, clues_of, every_tiling, label};

/// A tileable board made here: rows of horizontal pieces, shuffled by random 2×2 flips,
/// then the cells of about one piece in `holes` blocked, and the clues the tiling left.
fn planted(rows: usize, cols: usize, holes: u64, seed: u64) -> (Instance, Solution) {
    assert!(cols.is_multiple_of(2));
    let mut rng = Sample(seed);
    let mut mate: Vec<usize> = (0..rows * cols).map(|k| k ^ 1).collect();
    for _ in 0..4 * rows * cols {
        let (r, c) = (
            rng.next() as usize % (rows - 1),
            rng.next() as usize % (cols - 1),
        );
        let (a, b, d, e) = (
            r * cols + c,
            r * cols + c + 1,
            (r + 1) * cols + c,
            (r + 1) * cols + c + 1,
        );
        if mate[a] == b && mate[d] == e {
            (mate[a], mate[d], mate[b], mate[e]) = (d, a, e, b);
        } else if mate[a] == d && mate[b] == e {
            (mate[a], mate[b], mate[d], mate[e]) = (b, a, e, d);
        }
    }
    let mut blocked = vec![false; rows * cols];
    let mut solution = Solution {
        vertical: Vec::new(),
        horizontal: Vec::new(),
    };
    for a in (0..rows * cols).filter(|&a| mate[a] > a) {
        if rng.next().is_multiple_of(holes) {
            blocked[a] = true;
            blocked[mate[a]] = true;
        } else if mate[a] == a + 1 {
            solution.horizontal.push((a / cols, a % cols));
        } else {
            solution.vertical.push((a / cols, a % cols));
        }
    }
    let (row_clues, col_clues) = clues_of(rows, cols, &solution);
    let instance = Instance {
        name: format!("planted-{rows}x{cols}-{seed}"),
        rows,
        cols,
        blocked,
        row_clues,
        col_clues,
    };
    (instance, solution)
}

/// The window board built cell by cell: a window cell is open when the cell its piece
/// pairs it with is in the window too, and each window row's (column's) clue is the
/// dots on its open cells (one on a vertical piece's top cell, two on a horizontal
/// piece's right cell).
fn window_board_by_cells(instance: &Instance, tiling: &Solution, window: Window) -> Instance {
    let cols = instance.cols;
    let mut partner = vec![usize::MAX; instance.rows * cols];
    let mut dots = vec![0u64; instance.rows * cols];
    for &(r, c) in &tiling.vertical {
        partner[r * cols + c] = (r + 1) * cols + c;
        partner[(r + 1) * cols + c] = r * cols + c;
        dots[r * cols + c] = 1;
    }
    for &(r, c) in &tiling.horizontal {
        partner[r * cols + c] = r * cols + c + 1;
        partner[r * cols + c + 1] = r * cols + c;
        dots[r * cols + c + 1] = 2;
    }
    let inside = |cell: usize| {
        let (r, c) = (cell / cols, cell % cols);
        r >= window.row
            && r < window.row + window.rows
            && c >= window.col
            && c < window.col + window.cols
    };
    let mut board = Instance {
        name: String::new(),
        rows: window.rows,
        cols: window.cols,
        blocked: vec![true; window.rows * window.cols],
        row_clues: vec![0; window.rows],
        col_clues: vec![0; window.cols],
    };
    for r in 0..window.rows {
        for c in 0..window.cols {
            let cell = (window.row + r) * cols + window.col + c;
            if partner[cell] != usize::MAX && inside(partner[cell]) {
                board.blocked[r * window.cols + c] = false;
                board.row_clues[r] += dots[cell];
                board.col_clues[c] += dots[cell];
            }
        }
    }
    board
}

fn pieces_of(tiling: &Solution) -> Vec<Piece> {
    let piece = |(row, col): (usize, usize), orientation| Piece {
        row,
        col,
        orientation,
    };
    let mut pieces: Vec<Piece> = (tiling.vertical.iter())
        .map(|&at| piece(at, Orientation::Vertical))
        .chain(
            tiling
                .horizontal
                .iter()
                .map(|&at| piece(at, Orientation::Horizontal)),
        )
        .collect();
    pieces.sort_unstable();
    pieces
}

#[test]
fn the_window_board_is_the_one_built_cell_by_cell() {
    let mut compared = 0;
    for seed in 0..12 {
        let (instance, tiling) = planted(11, 14, 7, seed);
        let pieces = pieces_of(&tiling);
        // The windows the solver tries, and every 3×4 and 5×5 one besides.
        let mut all: Vec<Window> = windows(instance.rows, instance.cols).collect();
        for (rows, cols) in [(3, 4), (5, 5)] {
            for row in 0..=instance.rows - rows {
                for col in 0..=instance.cols - cols {
                    all.push(Window {
                        row,
                        col,
                        rows,
                        cols,
                    });
                }
            }
        }
        for window in all {
            let (board, inside) = window_board(&instance, &pieces, window);
            let expected = window_board_by_cells(&instance, &tiling, window);
            assert_eq!(
                (&board.blocked, &board.row_clues, &board.col_clues),
                (&expected.blocked, &expected.row_clues, &expected.col_clues),
                "{} {window:?}",
                label(&instance)
            );
            let open = board.blocked.iter().filter(|&&b| !b).count();
            assert_eq!(open, 2 * inside.len(), "{window:?}");
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// The native search with windows on every board (by default only from 4,096 open
/// cells up), asked for `limit` tilings.
fn with_windows(instance: &Instance, limit: usize) -> (Vec<Solution>, Ending) {
    let native = Native::new(SearchOptions {
        repair_min_cells: 0,
        ..SearchOptions::default()
    });
    let model = compile(instance, Families::AllQuotas);
    let mut found = Vec::new();
    let outcome = native
        .solve(
            &model,
            limit,
            &Budget::unlimited(),
            &mut |ids: &[PlacementId]| {
                found.push(model.decode(ids));
                if found.len() >= limit {
                    Control::Stop
                } else {
                    Control::Continue
                }
            },
        )
        .unwrap();
    (found, outcome.ending)
}

/// On boards with few to many tilings, `limit` 2, 3 and 5 hand out distinct tilings of
/// the complete set, as many as asked when the set has them; the search is exhausted
/// (the only way to `unique`) only when the set has fewer, and then it has them all.
#[test]
fn windows_hand_out_tilings_of_the_complete_set() {
    let (mut from_many, mut unique, mut from_windows) = (0, 0, 0);
    for seed in 0..40 {
        let holes = [3, 5, 9][seed as usize % 3];
        let (instance, planted_tiling) = planted(10, 12, holes, 1000 + seed);
        let mut expected = every_tiling(&instance);
        expected.sort();
        // The windows' re-tilings of the planted tiling, as they come.
        let model = compile(&instance, Families::AllQuotas);
        let ids: Vec<PlacementId> = (0..model.placements.len() as PlacementId)
            .filter(|&id| pieces_of(&planted_tiling).contains(&model.placements[id as usize]))
            .collect();
        assert_eq!(model.decode(&ids), planted_tiling);
        let walked = retilings(&model, &ids, 4, &Budget::unlimited(), &mut |other| {
            let other = model.decode(other);
            assert_ne!(other, planted_tiling, "{}", label(&instance));
            assert!(
                expected.binary_search(&other).is_ok(),
                "{}: {other:?}",
                label(&instance)
            );
            from_windows += 1;
            Control::Continue
        });
        assert_eq!(walked, Walked::Done);
        for limit in [2, 3, 5] {
            let (found, ending) = with_windows(&instance, limit);
            let what = format!("{} limit {limit}", label(&instance));
            for tiling in &found {
                assert!(
                    expected.binary_search(tiling).is_ok(),
                    "{what}: {tiling:?} is not a tiling"
                );
            }
            let mut distinct = found.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), found.len(), "{what}: a tiling twice");
            assert_eq!(found.len(), limit.min(expected.len()), "{what}");
            if expected.len() < limit {
                assert_eq!(ending, Ending::Exhausted, "{what}");
                unique += usize::from(expected.len() == 1);
            } else {
                assert_ne!(
                    ending,
                    Ending::Exhausted,
                    "{what}: exhausted with a tiling left"
                );
                from_many += usize::from(limit == 5);
            }
        }
    }
    assert!(
        from_many > 5 && unique > 2 && from_windows > 20,
        "{from_many} boards with many, {unique} unique, {from_windows} re-tilings"
    );
}

/// `solve --limit 2` on a 256×256 paper-protocol board answers `multiple` (the descent
/// alone left such boards `unknown` after a minute) with two different tilings that
/// `verify`, the raw-rules checker, accepts each.
#[test]
fn limit_two_answers_multiple_at_256_by_256() {
    use crate::hardening::{dominofit, text};
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("paper-256.json");
    let made = dominofit()
        .args([
            "generate",
            "--tiling",
            "backtrack",
            "--rows",
            "256",
            "--cols",
            "256",
        ])
        .args(["--seed", "54", "-o"])
        .arg(&board)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", text(&made.stderr));
    let solved = dominofit()
        .arg("solve")
        .arg(&board)
        .args(["--limit", "2", "--timeout", "60", "--format", "json"])
        .output()
        .unwrap();
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
    assert_eq!(answer["status"], "multiple", "{}", text(&solved.stderr));
    let tilings = answer["solutions"].as_array().unwrap();
    assert_eq!(tilings.len(), 2);
    assert_ne!(tilings[0], tilings[1]);
    for (k, tiling) in tilings.iter().enumerate() {
        let path = dir.path().join(format!("tiling-{k}.json"));
        std::fs::write(&path, tiling.to_string()).unwrap();
        let checked = dominofit()
            .arg("verify")
            .arg(&board)
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            checked.status.success(),
            "tiling {k}: {}",
            text(&checked.stdout)
        );
    }
}
