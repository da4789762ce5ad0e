//! Generated boards, larger than the exhaustive domain: complete solution sets from
//! the brute-force enumerator where it is quick enough, and agreement between every
//! configuration of the native search where it is not.

use crate::common::{all_tilings, clues_of, eager_options, plain_options, scheduled_options};
use dominofit::backend::native::{Native, SearchOptions};
use dominofit::backend::{self, Backend, Status};
use dominofit::driver::{self, Request};
use dominofit::model::Families;
use dominofit::puzzle::generate::planted;
use dominofit::puzzle::{Instance, Solution};

fn configurations() -> Vec<(&'static str, Native)> {
    let plain = plain_options();
    let eager = eager_options();
    let small_components = SearchOptions {
        component_limit: 3,
        ..SearchOptions::default()
    };
    let matching = SearchOptions {
        matching: true,
        ..SearchOptions::default()
    };
    let matching_alone = SearchOptions {
        matching: true,
        colour_balance: false,
        ..SearchOptions::default()
    };
    let matching_region = SearchOptions {
        matching: true,
        matching_region: 4,
        ..SearchOptions::default()
    };
    let scheduled = scheduled_options();
    vec![
        ("default", Native::default()),
        ("scheduled", Native::new(scheduled)),
        ("matching", Native::new(matching)),
        (
            "matching-alone",
            Native {
                options: matching_alone,
                ..Native::default()
            },
        ),
        (
            "matching-region",
            Native {
                options: matching_region,
                ..Native::default()
            },
        ),
        ("plain", Native::new(plain)),
        ("eager", Native::new(eager)),
        (
            "small-components",
            Native {
                options: small_components,
                ..Native::default()
            },
        ),
    ]
}

fn all_solutions(instance: &Instance, backend: &dyn Backend, families: Families) -> Vec<Solution> {
    let request = Request {
        limit: 0,
        timeout: None,
        families: Some(families),
    };
    let report = driver::run(instance, backend, &request).unwrap();
    assert!(report.complete, "{}", instance.name);
    let mut got = report.solutions;
    got.sort();
    got
}

fn brute_force(instance: &Instance) -> Vec<Solution> {
    let mut expected: Vec<Solution> = all_tilings(instance.rows, instance.cols, &instance.blocked)
        .into_iter()
        .filter(|t| {
            clues_of(instance.rows, instance.cols, t)
                == (instance.row_clues.clone(), instance.col_clues.clone())
        })
        .collect();
    expected.sort();
    expected
}

#[test]
fn small_planted_boards_match_brute_force() {
    let mut boards = 0;
    let mut tilings = 0;
    for (rows, cols) in [(5, 6), (6, 6), (6, 5), (4, 7), (7, 4)] {
        for index in 0..40 {
            let (instance, planted_tiling) = planted(rows, cols, 99, index).unwrap();
            let expected = brute_force(&instance);
            assert!(expected.contains(&planted_tiling));
            for (label, native) in configurations() {
                for families in [
                    Families::CutQuotas,
                    Families::AllQuotas,
                    Families::ColourSplits,
                ] {
                    let got = all_solutions(&instance, &native, families);
                    assert_eq!(got, expected, "{} {label} {families:?}", instance.name);
                }
            }
            // The LP refutation at every node may only cut nodes without a tiling.
            let lp_everywhere = Native {
                options: SearchOptions {
                    farkas_every_stall: true,
                    colour_balance: false,
                    path_capacity: false,
                    ..SearchOptions::default()
                },
                ..Native::default()
            };
            let got = all_solutions(&instance, &lp_everywhere, Families::ColourSplits);
            assert_eq!(got, expected, "{} lp-every-stall", instance.name);
            // And the portfolio's answer is that of any complete backend, whether its
            // first member decides alone or the members race from the outset.
            let portfolio = backend::by_name("portfolio", &Default::default()).unwrap();
            let got = all_solutions(&instance, portfolio.as_ref(), Families::ColourSplits);
            assert_eq!(got, expected, "{} portfolio", instance.name);
            let racing = dominofit::backend::portfolio::Portfolio::new(
                "portfolio".to_string(),
                vec![
                    Box::new(Native::default()),
                    Box::new(Native {
                        options: SearchOptions {
                            matching: true,
                            ..SearchOptions::default()
                        },
                        ..Native::default()
                    }),
                ],
            )
            .with_head_start(std::time::Duration::ZERO);
            let got = all_solutions(&instance, &racing, Families::ColourSplits);
            assert_eq!(got, expected, "{} racing portfolio", instance.name);
            boards += 1;
            tilings += expected.len();
        }
    }
    println!(
        "{boards} planted boards, {tilings} solutions, all configurations agree with brute force"
    );
}

#[test]
fn configurations_agree_on_larger_boards() {
    let mut boards = 0;
    let mut solutions = 0;
    let mut skipped = 0;
    for (rows, cols) in [(8, 8), (9, 10), (10, 10), (12, 12)] {
        for index in 0..12 {
            let (instance, planted_tiling) = planted(rows, cols, 7, index).unwrap();
            // Keep the stored solution sets small enough to compare quickly.
            let request = Request {
                limit: 0,
                timeout: None,
                families: None,
            };
            let count = driver::count(&instance, &Native::default(), &request).unwrap();
            if count.count > num_bigint::BigUint::from(20_000u32) {
                skipped += 1;
                continue;
            }
            let reference = all_solutions(&instance, &Native::default(), Families::AllQuotas);
            assert!(reference.contains(&planted_tiling), "{}", instance.name);
            for (label, native) in configurations() {
                for families in [
                    Families::CutQuotas,
                    Families::AllQuotas,
                    Families::ColourSplits,
                ] {
                    let got = all_solutions(&instance, &native, families);
                    assert_eq!(got, reference, "{} {label} {families:?}", instance.name);
                }
            }
            // The uniqueness check agrees with the full enumeration.
            let two = driver::run(
                &instance,
                &Native::default(),
                &Request {
                    limit: 2,
                    timeout: None,
                    families: None,
                },
            )
            .unwrap();
            let expected = if reference.len() == 1 {
                Status::Unique
            } else {
                Status::Multiple
            };
            assert_eq!(two.status, expected, "{}", instance.name);
            boards += 1;
            solutions += reference.len();
        }
    }
    println!(
        "{boards} boards, {solutions} solutions, every configuration agrees \
         ({skipped} boards with over 20,000 solutions left out)"
    );
    assert!(boards >= 40);
}

#[test]
fn varisat_agrees_with_native_on_planted_boards() {
    use dominofit::backend::sat::Sat;
    use dominofit::encode::Encoding;
    let mut boards = 0;
    for (rows, cols) in [(6, 6), (7, 8), (8, 8)] {
        for index in 0..6 {
            let (instance, _) = planted(rows, cols, 5, index).unwrap();
            let reference = all_solutions(&instance, &Native::default(), Families::AllQuotas);
            if reference.len() > 2000 {
                continue;
            }
            let encoding = Encoding::ALL[(index as usize) % Encoding::ALL.len()];
            for families in [Families::AllQuotas, Families::RawSums] {
                let got = all_solutions(&instance, &Sat::varisat(encoding), families);
                assert_eq!(
                    got, reference,
                    "{} {encoding:?} {families:?}",
                    instance.name
                );
            }
            boards += 1;
        }
    }
    assert!(boards >= 12, "{boards}");
}

#[test]
fn microlp_agrees_with_native_on_planted_boards() {
    use dominofit::backend::ilp::Ilp;
    let mut boards = 0;
    for (rows, cols) in [(6, 6), (7, 8)] {
        for index in 0..4 {
            let (instance, _) = planted(rows, cols, 5, index).unwrap();
            let reference = all_solutions(&instance, &Native::default(), Families::AllQuotas);
            if reference.len() > 200 {
                continue;
            }
            for families in [Families::AllQuotas, Families::RawSums] {
                let got = all_solutions(&instance, &Ilp::MICROLP, families);
                assert_eq!(got, reference, "{} {families:?}", instance.name);
            }
            boards += 1;
        }
    }
    assert!(boards >= 4, "{boards}");
}

/// Planted 16×16 to 32×32 boards with the matching filter at every node, its SCC pass
/// on the whole board, on the default region and on a small one: in debug builds the
/// filter's twin checks every call against the filter from scratch (the kept matching
/// is valid, `Dead` agrees, a region pass deletes nothing the whole-board pass keeps),
/// and the uniqueness answer agrees with the default search's.
#[test]
fn incremental_matching_agrees_with_its_twin_on_planted_16_to_32() {
    let mut boards = 0;
    for size in [16, 24, 32] {
        for index in 0..2 {
            let (instance, _) = planted(size, size, 11, index).unwrap();
            let request = Request {
                limit: 2,
                timeout: None,
                families: None,
            };
            let reference = driver::run(&instance, &Native::default(), &request).unwrap();
            assert!(
                matches!(reference.status, Status::Unique | Status::Multiple),
                "{}: {:?}",
                instance.name,
                reference.status
            );
            for region in [0, 32, SearchOptions::default().matching_region] {
                let native = Native {
                    options: SearchOptions {
                        matching: true,
                        matching_region: region,
                        ..SearchOptions::default()
                    },
                    ..Native::default()
                };
                let report = driver::run(&instance, &native, &request).unwrap();
                assert_eq!(
                    report.status, reference.status,
                    "{} region {region}",
                    instance.name
                );
                assert!(report.header.counters.filtered.is_some(), "the filter ran");
            }
            boards += 1;
        }
    }
    assert_eq!(boards, 6);
}
