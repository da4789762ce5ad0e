//! `generate --unique` by windows and cycles: the holes the windows make leave every
//! window locally unique (rechecked window by window), the holes a complete search's
//! other tiling makes are one on each alternating cycle (against a flood fill written
//! here), and the boards are unique for oracles that share nothing with the generator:
//! the brute-force enumerator on small boards, varisat's complete set on larger ones,
//! with the paper's tiling as well as the flip chain's.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::common::{all_tilings, clues_of};
use dominofit::backend::native::retile::{Local, SIDE, local_tilings, window_board, windows_of};
use dominofit::backend::sat::Sat;
use dominofit::backend::{Budget, Status};
use dominofit::design::local_holes::{cycle_holes, local_holes};
use dominofit::design::{self, DesignOptions};
use dominofit::driver::{self, Request};
use dominofit::encode::Encoding;
use dominofit::model::Families;
use dominofit::puzzle::generate::{Tiling, planted_by, with_holes};
use dominofit::puzzle::verify::verify;
use dominofit::puzzle::{Piece, Solution};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

#[test]
fn after_the_window_holes_every_window_has_only_the_planted_tiling() {
    let budget = Budget::unlimited();
    for (side, seed) in [(24, 1), (24, 2), (33, 3), (40, 4)] {
        let (instance, tiling) = planted_by(side, side, seed, 0, true, Tiling::Flips).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // The larger windows are decided here by varisat, not the native search.
        let varisat = Sat::varisat(Encoding::Totalizer);
        let mut decide = |board: &dominofit::puzzle::Instance| {
            let request = Request {
                limit: 2,
                timeout: None,
                families: None,
            };
            Some(driver::run(board, &varisat, &request).ok()?.solutions)
        };
        let holes = local_holes(&instance, &tiling, &mut rng, &budget, &mut decide).unwrap();
        assert!(
            !holes.is_empty(),
            "{side}x{side} s{seed}: no window had a second tiling"
        );
        for hole in &holes {
            assert!(
                tiling.contains(hole),
                "a hole is a piece of the planted tiling"
            );
        }
        let (holed, rest) = with_holes(instance.name.clone(), &instance, &tiling, &holes).unwrap();
        assert_eq!(verify(&holed, &rest), Ok(()));
        let pieces: Vec<Piece> = rest.pieces().collect();
        for window in windows_of(side, side, SIDE) {
            let (board, inside) = window_board(&holed, &pieces, window);
            match local_tilings(&board, &inside, 1, &budget) {
                Local::Others(others) => assert!(others.is_empty(), "{window:?}"),
                Local::Declined => {}
                Local::Timeout => panic!("no budget to run out"),
            }
        }
    }
}

/// The cycles on which two tilings differ, by flood fill over the cells where they
/// differ, each cell joined to its partner in either tiling.
fn cycles(rows: usize, cols: usize, a: &Solution, b: &Solution) -> Vec<BTreeSet<(usize, usize)>> {
    let mut partner = std::collections::HashMap::new();
    for (mine, theirs) in [(a, b), (b, a)] {
        for piece in mine.pieces().filter(|p| !theirs.contains(p)) {
            let (one, two) = ((piece.row, piece.col), piece.other_cell());
            partner.entry(one).or_insert_with(Vec::new).push(two);
            partner.entry(two).or_insert_with(Vec::new).push(one);
        }
    }
    let mut seen = BTreeSet::new();
    let mut found = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if !partner.contains_key(&(r, c)) || seen.contains(&(r, c)) {
                continue;
            }
            let mut cycle = BTreeSet::new();
            let mut stack = vec![(r, c)];
            while let Some(cell) = stack.pop() {
                if seen.insert(cell) {
                    cycle.insert(cell);
                    stack.extend(partner[&cell].iter().copied());
                }
            }
            found.push(cycle);
        }
    }
    found
}

#[test]
fn cycle_holes_are_one_piece_of_the_first_tiling_on_each_cycle() {
    let mut pairs = 0;
    for (rows, cols) in [(4, 4), (4, 6), (5, 6)] {
        let tilings = all_tilings(rows, cols, &vec![false; rows * cols]);
        for (i, a) in tilings.iter().enumerate().step_by(3) {
            for b in tilings.iter().skip(i + 1).step_by(7) {
                let mut rng = ChaCha8Rng::seed_from_u64(pairs);
                let holes = cycle_holes(rows, cols, a, b, &mut rng);
                let cycles = cycles(rows, cols, a, b);
                assert_eq!(holes.len(), cycles.len(), "{a:?} {b:?}");
                for cycle in &cycles {
                    let on: Vec<&Piece> = holes
                        .iter()
                        .filter(|h| cycle.contains(&(h.row, h.col)))
                        .collect();
                    assert_eq!(on.len(), 1, "one hole on each cycle");
                    assert!(a.contains(on[0]) && !b.contains(on[0]));
                    assert!(cycle.contains(&on[0].other_cell()));
                }
                pairs += 1;
            }
        }
    }
    assert!(pairs > 100, "{pairs} pairs");
}

fn unique_board(side: usize, seed: u64, tiling: Tiling) -> design::Certified {
    let options = DesignOptions {
        timeout: Duration::from_secs(120),
        ..DesignOptions::default()
    };
    design::unique_watched(side, side, seed, 0, tiling, &options, &mut |_| {}).unwrap()
}

#[test]
fn unique_boards_from_either_tiling_are_unique_for_the_enumerator() {
    for tiling in [Tiling::Flips, Tiling::Backtrack] {
        for seed in 0..6 {
            let board = unique_board(6, seed, tiling);
            let solution = board.solution.expect("a unique board carries its tiling");
            let clues = (
                board.instance.row_clues.clone(),
                board.instance.col_clues.clone(),
            );
            let every: Vec<Solution> = all_tilings(6, 6, &board.instance.blocked)
                .into_iter()
                .filter(|s| clues_of(6, 6, s) == clues)
                .collect();
            assert_eq!(every, vec![solution], "{}", board.instance.name);
        }
    }
}

#[test]
fn larger_unique_boards_from_either_tiling_are_unique_for_varisat() {
    let varisat = Sat::varisat(Encoding::Totalizer);
    // 20 and 24 are past the larger windows' side, so both kinds of window are used.
    for (side, tiling) in [
        (20, Tiling::Flips),
        (20, Tiling::Backtrack),
        (24, Tiling::Backtrack),
    ] {
        let board = unique_board(side, 9, tiling);
        let request = Request {
            limit: 0,
            timeout: None,
            families: Some(Families::RawSums),
        };
        let report = driver::run(&board.instance, &varisat, &request).unwrap();
        assert!(report.complete, "{}", board.instance.name);
        assert_eq!(report.status, Status::Unique, "{}", board.instance.name);
        assert_eq!(
            report.solutions,
            vec![board.solution.unwrap()],
            "{}",
            board.instance.name
        );
    }
}

/// `generate --unique --tiling backtrack` (refused before) writes boards that `solve
/// --limit 2` finds unique, the paper's distribution for designers too.
#[test]
fn generate_unique_takes_the_papers_tiling() {
    use crate::hardening::{dominofit, text};
    let dir = tempfile::tempdir().unwrap();
    let boards = dir.path().join("unique.jsonl");
    let made = dominofit()
        .args([
            "generate",
            "--unique",
            "--tiling",
            "backtrack",
            "--rows",
            "16",
            "--cols",
            "16",
        ])
        .args(["--count", "3", "--seed", "8", "-o"])
        .arg(&boards)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", text(&made.stderr));
    let solved = dominofit()
        .arg("solve")
        .arg(&boards)
        .args(["--limit", "2", "--backend", "varisat", "--format", "json"])
        .output()
        .unwrap();
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    let answers: Vec<serde_json::Value> = (text(&solved.stdout).lines())
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(answers.len(), 3);
    for answer in answers {
        assert_eq!(answer["status"], "unique", "{answer}");
    }
}
