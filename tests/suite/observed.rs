//! The three boards from real play: each has exactly the published solution, and
//! propagation alone proves it at the root.

use dominofit::backend::Status;
use dominofit::backend::native::Native;
use dominofit::driver::{self, Request};
use dominofit::files::{read_instances, read_solutions};
use dominofit::model::Families;
use dominofit::puzzle::verify::verify;

fn board(name: &str) -> (dominofit::puzzle::Instance, dominofit::puzzle::Solution) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/models/observed");
    let instance = read_instances(&format!("{dir}/{name}.json"))
        .unwrap()
        .remove(0);
    let solution = read_solutions(&format!("{dir}/{name}.solution.json"))
        .unwrap()
        .remove(0);
    (instance, solution)
}

#[test]
fn published_solutions_pass_the_verifier() {
    for name in ["6x6", "7x7", "8x8"] {
        let (instance, solution) = board(name);
        assert_eq!(verify(&instance, &solution), Ok(()), "{name}");
    }
}

#[test]
fn each_board_is_unique_and_solved_at_the_root() {
    for (name, forced) in [("6x6", 14), ("7x7", 20), ("8x8", 29)] {
        let (instance, published) = board(name);
        for limit in [0, 2] {
            let request = Request {
                limit,
                timeout: None,
                families: None,
            };
            let report = driver::run(&instance, &Native::default(), &request).unwrap();
            assert_eq!(report.status, Status::Unique, "{name}");
            assert!(report.complete, "{name}");
            assert_eq!(report.solutions, vec![published.clone()], "{name}");
            assert_eq!(
                report.header.counters.nodes,
                Some(1),
                "{name}: solved without branching"
            );
            assert_eq!(
                report.header.counters.forced,
                Some(forced),
                "{name}: placements forced"
            );
        }
    }
}

#[test]
fn every_family_choice_finds_the_same_unique_solution() {
    for name in ["6x6", "7x7", "8x8"] {
        let (instance, published) = board(name);
        for families in [
            Families::CutQuotas,
            Families::AllQuotas,
            Families::ColourSplits,
        ] {
            let request = Request {
                limit: 2,
                timeout: None,
                families: Some(families),
            };
            let report = driver::run(&instance, &Native::default(), &request).unwrap();
            assert_eq!(report.status, Status::Unique, "{name} {families:?}");
            assert_eq!(
                report.solutions,
                vec![published.clone()],
                "{name} {families:?}"
            );
        }
    }
}
