//! The frontier DP (`dp` backend): complete solution sets and exact counts against the
//! brute-force enumerator on the exhaustive small-board domain, in both sweep
//! orientations; counts against native enumeration on generated boards; arbitrary
//! precision past 2^128; refusals instead of running out of memory.

use crate::common::{check, extended_cases, paper_cases};
use dominofit::backend::dp::frontier::{self, CutProblem, Stop};
use dominofit::backend::dp::{Dp, Orientation};
use dominofit::backend::native::Native;
use dominofit::backend::{Backend, BackendError, Budget};
use dominofit::driver::{self, Request};
use dominofit::model::Families;
use dominofit::puzzle::Instance;
use dominofit::puzzle::generate::{planted, planted_open};
use num_bigint::BigUint;

fn oriented(orientation: Orientation) -> Dp {
    Dp {
        orientation,
        ..Dp::default()
    }
}

fn count(instance: &Instance, backend: &dyn Backend) -> BigUint {
    let request = Request {
        limit: 0,
        timeout: None,
        families: None,
    };
    let report = driver::count(instance, backend, &request).unwrap();
    assert!(report.complete, "{}", instance.name);
    report.count
}

#[test]
fn paper_domain_solution_sets_and_counts_in_every_orientation() {
    let mut comparisons = 0;
    for case in paper_cases() {
        for orientation in [Orientation::Auto, Orientation::Rows, Orientation::Columns] {
            let dp = oriented(orientation);
            comparisons += check(&case, &dp, Families::CutQuotas);
            assert_eq!(
                count(&case.instance, &dp),
                BigUint::from(case.expected.len()),
                "{:?}",
                case.instance
            );
        }
    }
    assert!(comparisons > 10_000, "{comparisons}");
}

#[test]
fn extended_domain_solution_sets_and_counts() {
    for case in extended_cases(300, 300) {
        for orientation in [Orientation::Rows, Orientation::Columns] {
            let dp = oriented(orientation);
            check(&case, &dp, Families::AllQuotas);
            assert_eq!(
                count(&case.instance, &dp),
                BigUint::from(case.expected.len())
            );
        }
    }
}

#[test]
fn transposition_changes_the_sweep_but_not_the_count() {
    // Non-square boards with holes: the two orientations sweep different widths and
    // exchange the cut families, and must agree on every count and tiling.
    for (rows, cols) in [(3, 9), (9, 4), (5, 8), (7, 6)] {
        for index in 0..6 {
            let (instance, _) = planted(rows, cols, 71, index).unwrap();
            let by_rows = oriented(Orientation::Rows);
            let by_cols = oriented(Orientation::Columns);
            let n = count(&instance, &by_rows);
            assert_eq!(n, count(&instance, &by_cols), "{}", instance.name);
            let request = Request {
                limit: 0,
                timeout: None,
                families: None,
            };
            let mut a = driver::run(&instance, &by_rows, &request)
                .unwrap()
                .solutions;
            let mut b = driver::run(&instance, &by_cols, &request)
                .unwrap()
                .solutions;
            a.sort();
            b.sort();
            assert_eq!(a, b, "{}", instance.name);
            assert_eq!(BigUint::from(a.len()), n);
        }
    }
}

#[test]
fn counts_match_native_enumeration_on_generated_boards() {
    let native = Native::default();
    let dp = Dp::default();
    for (rows, cols, boards) in [(6, 6, 10), (8, 8, 10), (10, 10, 6), (12, 12, 4), (4, 14, 6)] {
        for index in 0..boards {
            for (instance, _) in [
                planted(rows, cols, 72, index).unwrap(),
                planted_open(rows, cols, 72, index).unwrap(),
            ] {
                assert_eq!(
                    count(&instance, &dp),
                    count(&instance, &native),
                    "{}",
                    instance.name
                );
            }
        }
    }
}

#[test]
fn counts_beyond_128_bits_are_exact() {
    // An open 4-wide board long enough that its count outgrows u128: the machine-integer
    // sweep reports the overflow and the arbitrary-precision one finishes.
    let (instance, _) = planted_open(4, 400, 73, 0).unwrap();
    let model = dominofit::model::compile(&instance, Families::CutQuotas);
    let problem = CutProblem::from_model(&model).transposed();
    let budget = Budget::with_timeout(None);
    assert_eq!(
        frontier::sweep::<u128>(&problem, &budget, u64::MAX, false).err(),
        Some(Stop::Overflow)
    );
    let big = frontier::sweep::<BigUint>(&problem, &budget, u64::MAX, false).unwrap();
    assert!(big.count > BigUint::from(u128::MAX));
    assert_eq!(count(&instance, &Dp::default()), big.count);
    // The same board cut in half: the machine-integer and big-integer sweeps agree.
    let (half, _) = planted_open(4, 40, 73, 0).unwrap();
    let model = dominofit::model::compile(&half, Families::CutQuotas);
    let problem = CutProblem::from_model(&model).transposed();
    let small = frontier::sweep::<u128>(&problem, &budget, u64::MAX, false).unwrap();
    let large = frontier::sweep::<BigUint>(&problem, &budget, u64::MAX, false).unwrap();
    assert_eq!(BigUint::from(small.count), large.count);
}

#[test]
fn wide_boards_are_refused_with_the_estimate() {
    let (instance, _) = planted(40, 40, 74, 0).unwrap();
    let request = Request {
        limit: 0,
        timeout: None,
        families: None,
    };
    let dp = Dp {
        memory_limit: 1 << 30,
        ..Dp::default()
    };
    let err = driver::count(&instance, &dp, &request).unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, BackendError::Unsupported { .. }), "{message}");
    assert!(message.contains("state space is estimated at"), "{message}");
    // A small memory limit refuses witness recovery with the measured layer total.
    let (long, _) = planted_open(5, 60, 74, 0).unwrap();
    let tight = Dp {
        memory_limit: 4 << 20,
        ..Dp::default()
    };
    assert!(driver::count(&long, &tight, &request).is_ok());
    let err = driver::run(&long, &tight, &request).unwrap_err();
    assert!(err.to_string().contains("keeps every layer"), "{err}");
}

#[test]
fn the_deadline_stops_a_count_as_incomplete() {
    let (instance, _) = planted_open(6, 100, 75, 0).unwrap();
    let request = Request {
        limit: 0,
        timeout: Some(std::time::Duration::from_millis(10)),
        families: None,
    };
    let dp = Dp {
        memory_limit: 1 << 30,
        ..Dp::default()
    };
    let report = driver::count(&instance, &dp, &request).unwrap();
    assert!(!report.complete);
    assert_eq!(
        report.count,
        BigUint::default(),
        "a lower bound, nothing claimed"
    );
}

#[test]
fn boards_the_estimate_overrates_are_counted_and_a_sweep_past_the_limit_stops() {
    use dominofit::backend::dp::{BYTES_PER_STATE, estimate};
    // An open 6×24 board: its state estimate is far above its real peak.
    let (board, _) = planted_open(6, 24, 76, 0).unwrap();
    let request = Request {
        limit: 0,
        timeout: None,
        families: None,
    };
    let free = driver::count(&board, &Dp::default(), &request).unwrap();
    assert!(free.complete);
    let peak = free.header.counters.states.unwrap();
    let model = dominofit::model::compile(&board, Families::CutQuotas);
    let problem = CutProblem::from_model(&model);
    let bound = |p: &CutProblem| {
        estimate(p, f64::INFINITY, &|| false)
            .expect("no stop")
            .live_states
    };
    let estimated = bound(&problem).min(bound(&problem.transposed()));
    // A limit between the real peak and the estimate: counted, not refused.
    let limit = 4 * peak * BYTES_PER_STATE;
    assert!(
        estimated * BYTES_PER_STATE as f64 > limit as f64,
        "{estimated} vs {peak}"
    );
    let between = Dp {
        memory_limit: limit,
        ..Dp::default()
    };
    let counted = driver::count(&board, &between, &request).unwrap();
    assert_eq!(counted.count, free.count);
    // A limit below the real peak: the sweep stops at the limit, with the states it had.
    let below = Dp {
        memory_limit: peak * BYTES_PER_STATE / 4,
        ..Dp::default()
    };
    let err = driver::count(&board, &below, &request).unwrap_err();
    assert!(
        err.to_string().contains("outgrew the memory limit"),
        "{err}"
    );
}
