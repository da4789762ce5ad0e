//! Planted boards by the paper's protocol (`Tiling::Backtrack`): every board is solved by
//! its planted tiling under the raw rules, holes are whole pieces of that tiling, at most
//! a fifth of them and their number uniform, odd boards lose the bottom-right cell first,
//! and the tilings have the paper protocol's share of horizontal pieces, far from the
//! flip chain's.

use dominofit::puzzle::Instance;
use dominofit::puzzle::generate::{Tiling, planted_by};
use dominofit::puzzle::verify::verify;

/// The share of horizontal pieces of the tiling a board's clues were read off: each
/// vertical piece carries one dot and each horizontal two, so the dots less the pieces
/// count the horizontal ones.
fn horizontal_share(board: &Instance) -> f64 {
    let open = board.blocked.iter().filter(|b| !**b).count() as u64;
    let pieces = open / 2;
    let dots: u64 = board.row_clues.iter().sum();
    (dots - pieces) as f64 / pieces as f64
}

/// The exact generator to the largest board a file may hold: the planted tiling solves
/// its board under the raw rules.
#[test]
fn the_planted_tiling_solves_its_board_at_1024_and_2048() {
    for (side, seed) in [(1024, 11), (2048, 12)] {
        let (board, tiling) =
            planted_by(side, side, seed, 0, true, Tiling::Backtrack).expect("a board");
        assert_eq!((board.rows, board.cols), (side, side));
        verify(&board, &tiling).unwrap_or_else(|why| panic!("{side}: {why}"));
        let share = horizontal_share(&board);
        assert!(
            (0.30..0.38).contains(&share),
            "{side}: horizontal share {share}"
        );
    }
}

#[test]
fn every_board_is_solved_by_its_planted_tiling_up_to_256() {
    for (rows, cols, boards) in [
        (1, 1, 2),
        (1, 2, 2),
        (2, 1, 2),
        (3, 3, 5),
        (5, 7, 5),
        (6, 6, 10),
        (9, 9, 5),
        (33, 31, 3),
        (64, 64, 2),
        (96, 80, 1),
        (128, 128, 1),
        (256, 256, 1),
    ] {
        for index in 0..boards {
            for holes in [true, false] {
                let (board, tiling) =
                    planted_by(rows, cols, 37, index, holes, Tiling::Backtrack).unwrap();
                assert_eq!(verify(&board, &tiling), Ok(()), "{}", board.name);
                let kind = if holes { "paper" } else { "paper-open" };
                assert!(board.name.starts_with(&format!("{kind}-{rows}x{cols}-")));
                // Every open cell is covered: the holes are whole pieces.
                let open = board.blocked.iter().filter(|b| !**b).count();
                assert_eq!(open, 2 * tiling.pieces().count(), "{}", board.name);
                // Odd boards lose the bottom-right cell; no other cell is blocked
                // unless it is a hole, and holes are at most a fifth of the pieces.
                let odd = (rows * cols) % 2 == 1;
                if odd {
                    assert!(board.blocked[rows * cols - 1], "{}", board.name);
                }
                let hole_cells = board.blocked.iter().filter(|b| **b).count() - usize::from(odd);
                assert_eq!(hole_cells % 2, 0);
                let all_pieces = (rows * cols) / 2;
                assert!(hole_cells / 2 <= all_pieces / 5, "{}", board.name);
                if !holes {
                    assert_eq!(hole_cells, 0, "{}", board.name);
                }
            }
        }
    }
}

/// The number of holes is uniform in 0..=pieces/5: on 6×6 boards (18 pieces, up to 3
/// holes), each count comes out for roughly a quarter of 400 boards.
#[test]
fn the_hole_count_is_uniform_up_to_a_fifth() {
    let mut seen = [0usize; 4];
    for index in 0..400 {
        let (board, _) = planted_by(6, 6, 38, index, true, Tiling::Backtrack).unwrap();
        let holes = board.blocked.iter().filter(|b| **b).count() / 2;
        seen[holes] += 1;
    }
    for (holes, &n) in seen.iter().enumerate() {
        assert!(
            (60..=140).contains(&n),
            "{holes} holes on {n} of 400 boards: {seen:?}"
        );
    }
}

/// Row-major backtracking makes far more vertical pieces than the flip chain: a
/// horizontal share of about 0.38 at 32×32 and 0.35 at 256×256, against 0.5.
#[test]
fn the_horizontal_share_is_the_paper_protocols() {
    for (side, boards, low, high) in [(32, 40, 0.35, 0.41), (256, 2, 0.32, 0.37)] {
        let mean = |tiling| {
            (0..boards)
                .map(|k| horizontal_share(&planted_by(side, side, 39, k, false, tiling).unwrap().0))
                .sum::<f64>()
                / boards as f64
        };
        let paper = mean(Tiling::Backtrack);
        let flips = mean(Tiling::Flips);
        assert!(
            (low..=high).contains(&paper),
            "{side}x{side}: backtracking {paper:.3}"
        );
        assert!(
            (0.47..=0.53).contains(&flips),
            "{side}x{side}: flips {flips:.3}"
        );
    }
}

/// The same seed and index give the same board; and the default (`--tiling flips`)
/// still makes the committed workloads byte for byte (`scripts/make-workloads.sh`:
/// game.jsonl is seed 6601, 20 boards each of 6×6, 7×7 and 8×8).
#[test]
fn boards_are_reproducible_and_the_default_is_unchanged() {
    let a = planted_by(40, 40, 5, 3, true, Tiling::Backtrack).unwrap();
    let b = planted_by(40, 40, 5, 3, true, Tiling::Backtrack).unwrap();
    assert_eq!(a, b);
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/models/game.jsonl")).unwrap();
    let mut made = String::new();
    for side in ["6", "7", "8"] {
        let out = crate::hardening::dominofit()
            .args([
                "generate", "--rows", side, "--cols", side, "--count", "20", "--seed", "6601",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        made.push_str(&String::from_utf8(out.stdout).unwrap());
    }
    assert_eq!(made, committed);
}
