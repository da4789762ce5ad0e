//! Complete solution sets of the native search against the brute-force enumerator, on
//! every small board the paper exhausts and on larger families beyond it.

use crate::common::{
    Case, check, eager_options, extended_cases, paper_cases, plain_options, scheduled_options,
};
use dominofit::backend::native::{Native, SearchOptions};
use dominofit::model::Families;

fn run_all(cases: &[Case], label: &str) {
    let plain = Native {
        options: plain_options(),
        ..Native::default()
    };
    let eager = Native {
        options: eager_options(),
        ..Native::default()
    };
    // The matching filter on its own (no colour or capacity check to lean on), and on
    // top of everything else.
    let matching_alone = Native {
        options: SearchOptions {
            matching: true,
            colour_balance: false,
            path_capacity: false,
            failure_cache: false,
            ..SearchOptions::default()
        },
        ..Native::default()
    };
    let matching = Native {
        options: SearchOptions {
            matching: true,
            ..SearchOptions::default()
        },
        ..Native::default()
    };
    // The incremental filter's SCC pass on a region of a few cells around each change,
    // the rest contracted: it may miss deletions, never make a wrong one (the debug
    // twin compares every call with the filter from scratch).
    let matching_region = Native {
        options: SearchOptions {
            matching: true,
            matching_region: 3,
            colour_balance: false,
            ..SearchOptions::default()
        },
        ..Native::default()
    };
    // The LP refutation alone, at every node: it may only ever cut nodes without a
    // tiling (the domain's unsatisfiable cases all fall at the root, so here it is put to
    // the test on the satisfiable ones; tests/planted.rs and tests/design.rs show it
    // refuting). And the scheduled filters of the default, made eager.
    let lp_alone = Native {
        options: SearchOptions {
            farkas_every_stall: true,
            colour_balance: false,
            path_capacity: false,
            failure_cache: false,
            restarts: false,
            ..SearchOptions::default()
        },
        ..Native::default()
    };
    let scheduled = Native {
        options: scheduled_options(),
        ..Native::default()
    };
    // The default options on the general model, under each family set; and the
    // default itself, which takes the small-board path (tests/suite/small.rs compares
    // that path on its own too).
    let general = Native {
        options: SearchOptions {
            small_boards: false,
            ..SearchOptions::default()
        },
        ..Native::default()
    };
    let full = Native::default();
    let mut comparisons = 0;
    for case in cases {
        for families in [
            Families::CutQuotas,
            Families::AllQuotas,
            Families::ColourSplits,
        ] {
            comparisons += check(case, &general, families);
        }
        comparisons += check(case, &full, Families::ColourSplits);
        comparisons += check(case, &plain, Families::AllQuotas);
        comparisons += check(case, &eager, Families::AllQuotas);
        comparisons += check(case, &matching_alone, Families::CutQuotas);
        comparisons += check(case, &matching, Families::ColourSplits);
        comparisons += check(case, &matching_region, Families::CutQuotas);
        comparisons += check(case, &lp_alone, Families::ColourSplits);
        comparisons += check(case, &scheduled, Families::AllQuotas);
    }
    let solutions: usize = cases.iter().map(|c| c.expected.len()).sum();
    println!(
        "{label}: {} cases ({} with solutions, {solutions} expected tilings), {comparisons} comparisons",
        cases.len(),
        cases.iter().filter(|c| !c.expected.is_empty()).count()
    );
}

#[test]
fn paper_domain_matches_brute_force() {
    let cases = paper_cases();
    // 682 masks of 1..3 x 1..3 give 1,057 queries, plus 625 clue vectors on the open 2x2:
    // the paper's 1,682 cases.
    assert_eq!(cases.len(), 1682);
    run_all(&cases, "paper domain");
}

#[test]
fn beyond_the_paper_matches_brute_force() {
    let cases = extended_cases(6000, 3000);
    // Deterministic: the sample generator is seeded.
    assert_eq!(cases.len(), 42430);
    run_all(&cases, "3x4, 4x3 and sampled 4x4, 4x5 masks");
}
