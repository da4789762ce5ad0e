//! The SAT lowering solved by varisat against the brute-force enumerator: complete
//! solution sets (by blocking clauses over the placements) on the paper's exhaustive
//! domain for every encoding and every family choice, and on the larger domain with
//! the combinations taken in turn.

use crate::common::{check, extended_cases, paper_cases};
use dominofit::backend::sat::Sat;
use dominofit::encode::Encoding;
use dominofit::model::Families;

#[test]
fn varisat_matches_brute_force_on_the_paper_domain() {
    let mut comparisons = 0;
    let cases = paper_cases();
    for case in &cases {
        for encoding in Encoding::ALL {
            for families in Families::ALL {
                comparisons += check(case, &Sat::varisat(encoding), families);
            }
        }
    }
    println!(
        "varisat, paper domain: {} cases, {comparisons} comparisons",
        cases.len()
    );
}

#[test]
fn varisat_matches_brute_force_beyond_the_paper() {
    let mut comparisons = 0;
    let cases = extended_cases(1500, 500);
    for (k, case) in cases.iter().enumerate() {
        let encoding = Encoding::ALL[k % Encoding::ALL.len()];
        let families = Families::ALL[(k / Encoding::ALL.len()) % Families::ALL.len()];
        comparisons += check(case, &Sat::varisat(encoding), families);
    }
    println!(
        "varisat, extended domain: {} cases, {comparisons} comparisons",
        cases.len()
    );
}

#[cfg(feature = "cadical-lib")]
#[test]
fn cadical_matches_brute_force_on_the_paper_domain() {
    let mut comparisons = 0;
    for case in &paper_cases() {
        for encoding in Encoding::ALL {
            for families in Families::ALL {
                comparisons += check(case, &Sat::cadical(encoding), families);
            }
        }
    }
    println!("cadical, paper domain: {comparisons} comparisons");
}
