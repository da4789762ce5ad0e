//! The ILP backend (microlp) against the brute-force enumerator: complete solution sets
//! by no-good cuts on the paper's exhaustive domain for every family choice (the raw
//! clue sums included), and on part of the larger domain.

use crate::common::{check, extended_cases, paper_cases};
use dominofit::backend::ilp::Ilp;
use dominofit::model::Families;

#[test]
fn microlp_matches_brute_force_on_the_paper_domain() {
    let mut comparisons = 0;
    let cases = paper_cases();
    for case in &cases {
        for families in Families::ALL {
            comparisons += check(case, &Ilp::MICROLP, families);
        }
    }
    println!(
        "microlp, paper domain: {} cases, {comparisons} comparisons",
        cases.len()
    );
}

#[test]
fn microlp_matches_brute_force_beyond_the_paper() {
    let mut comparisons = 0;
    let cases = extended_cases(1500, 500);
    for (k, case) in cases.iter().enumerate() {
        comparisons += check(case, &Ilp::MICROLP, Families::ALL[k % Families::ALL.len()]);
    }
    println!("microlp, extended domain: {comparisons} comparisons");
}

#[cfg(feature = "highs")]
#[test]
fn highs_matches_brute_force_on_the_paper_domain() {
    use dominofit::backend::ilp::IlpSolver;
    let highs = Ilp {
        solver: IlpSolver::Highs,
    };
    for case in &paper_cases() {
        for families in Families::ALL {
            check(case, &highs, families);
        }
    }
}

#[cfg(feature = "coin-cbc")]
#[test]
fn coin_cbc_matches_brute_force_on_the_paper_domain() {
    use dominofit::backend::ilp::IlpSolver;
    let cbc = Ilp {
        solver: IlpSolver::CoinCbc,
    };
    for case in &paper_cases() {
        for families in Families::ALL {
            check(case, &cbc, families);
        }
    }
}
