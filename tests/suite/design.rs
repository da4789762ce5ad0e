//! `generate --unique` and `generate --unsat`: the certificates are rechecked here by
//! oracles that share nothing with the generator's own proof (the brute-force
//! enumerator on small boards, the SAT backend on larger ones), and unsatisfiable
//! boards must pass clue inversion, every cheap necessary check.

use crate::common::{all_tilings, clues_of};
use dominofit::backend::native::Native;
use dominofit::backend::sat::Sat;
use dominofit::backend::{Backend, Status};
use dominofit::design::{self, DesignOptions};
use dominofit::driver::{self, Request};
use dominofit::encode::Encoding;
use dominofit::model::{Families, invert};
use dominofit::puzzle::Instance;
use dominofit::puzzle::verify::verify;

/// Tilings of the board's open cells that meet its clues, by brute force.
fn brute_force_solutions(instance: &Instance) -> Vec<dominofit::puzzle::Solution> {
    all_tilings(instance.rows, instance.cols, &instance.blocked)
        .into_iter()
        .filter(|s| {
            clues_of(instance.rows, instance.cols, s)
                == (instance.row_clues.clone(), instance.col_clues.clone())
        })
        .collect()
}

fn all_solutions(instance: &Instance, backend: &dyn Backend, families: Families) -> Status {
    let request = Request {
        limit: 0,
        timeout: None,
        families: Some(families),
    };
    let report = driver::run(instance, backend, &request).unwrap();
    report.status
}

#[test]
fn unsat_boards_pass_the_cheap_checks_and_have_no_tiling() {
    let options = DesignOptions::default();
    for (size, boards) in [(4, 6), (6, 8)] {
        for index in 0..boards {
            let board = design::unsat(size, size, 41, index, &options).unwrap();
            let instance = &board.instance;
            assert_eq!(board.status, Status::Unsat);
            // The certificate is never the native search's own word.
            assert!(
                !board.prover.starts_with("native"),
                "{} certified by {}",
                instance.name,
                board.prover
            );
            assert!(
                invert(instance).is_ok(),
                "{} fails inversion",
                instance.name
            );
            assert!(
                brute_force_solutions(instance).is_empty(),
                "{} has a tiling",
                instance.name
            );
        }
    }
}

#[test]
fn larger_unsat_boards_are_refuted_by_sat_too() {
    let options = DesignOptions::default();
    let varisat = Sat::varisat(Encoding::Totalizer);
    for size in [8, 10, 12] {
        for index in 0..2 {
            let board = design::unsat(size, size, 42, index, &options).unwrap();
            let instance = &board.instance;
            assert!(invert(instance).is_ok(), "{}", instance.name);
            assert_eq!(
                all_solutions(instance, &varisat, Families::RawSums),
                Status::Unsat,
                "{}",
                instance.name
            );
            for families in [Families::CutQuotas, Families::ColourSplits] {
                assert_eq!(
                    all_solutions(instance, &Native::default(), families),
                    Status::Unsat,
                    "{}",
                    instance.name
                );
            }
        }
    }
}

#[test]
fn unique_boards_have_exactly_their_planted_tiling() {
    let options = DesignOptions::default();
    for (size, boards) in [(4, 6), (6, 6)] {
        for index in 0..boards {
            let board = design::unique(size, size, 43, index, &options).unwrap();
            let solution = board.solution.expect("a unique board carries its tiling");
            assert_eq!(verify(&board.instance, &solution), Ok(()));
            assert_eq!(
                brute_force_solutions(&board.instance),
                vec![solution],
                "{}",
                board.instance.name
            );
        }
    }
}

#[test]
fn larger_unique_boards_are_unique_for_sat_too() {
    let options = DesignOptions::default();
    let varisat = Sat::varisat(Encoding::Totalizer);
    for size in [8, 12] {
        for index in 0..2 {
            let board = design::unique(size, size, 44, index, &options).unwrap();
            assert_eq!(
                all_solutions(&board.instance, &varisat, Families::RawSums),
                Status::Unique,
                "{}",
                board.instance.name
            );
        }
    }
}

#[test]
fn generation_is_reproducible() {
    let options = DesignOptions::default();
    let a = design::unsat(8, 8, 7, 2, &options).unwrap().instance;
    let b = design::unsat(8, 8, 7, 2, &options).unwrap().instance;
    assert_eq!(a, b);
    assert_eq!(a.name, "unsat-8x8-s7-3");
    let c = design::unique(8, 8, 7, 2, &options).unwrap().instance;
    let d = design::unique(8, 8, 7, 2, &options).unwrap().instance;
    assert_eq!(c, d);
}

#[test]
fn committed_hard_unsat_boards_are_refuted_by_sat_and_by_the_default() {
    // The workload's smaller boards: varisat on the raw dot sums (no clue inversion)
    // and the default native search (the LP refutation) agree that none has a tiling.
    let instances = dominofit::files::read_instances(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/models/unsat-hard.jsonl"
    ))
    .unwrap();
    let varisat = Sat::varisat(Encoding::Totalizer);
    let small: Vec<&Instance> = instances.iter().filter(|i| i.rows <= 16).collect();
    assert!(small.len() >= 4);
    for instance in small {
        assert!(invert(instance).is_ok(), "{}", instance.name);
        assert_eq!(
            all_solutions(instance, &varisat, Families::AllQuotas),
            Status::Unsat,
            "{}",
            instance.name
        );
        let request = Request {
            limit: 1,
            timeout: None,
            families: None,
        };
        let report = driver::run(instance, &Native::default(), &request).unwrap();
        assert_eq!(report.status, Status::Unsat, "{}", instance.name);
    }
}
