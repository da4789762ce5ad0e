//! Hint proofs on boards the committed workloads do not hold: every step of the
//! walkthrough of generated unique boards from 12×12 to 24×24 is a VeriPB derivation.
//! The test takes one board of each even size; `scripts/hint-sweep.sh` runs the same
//! check on a workload of 200 and more (`DOMINOFIT_HINT_SWEEP` names its file).

use crate::explain::{checked, known_before, whole};
use dominofit::certify::pb::hint::hint_proof;
use dominofit::design::explain::Outcome;
use dominofit::design::{self, DesignOptions};
use dominofit::puzzle::{Instance, Solution};

/// Every step of `instance`'s walkthrough from the start, proved and checked: how many.
fn every_step_checks(dir: &std::path::Path, instance: &Instance) -> usize {
    let walk = whole(instance, &Solution::default());
    assert!(
        matches!(walk.outcome, Outcome::Solved | Outcome::Stuck),
        "{}: {:?}",
        instance.name,
        walk.outcome
    );
    for (i, step) in walk.steps.iter().enumerate() {
        let (placed, out) = known_before(&walk, i);
        let proof = hint_proof(instance, &placed, &out, step).unwrap();
        assert_eq!(
            checked(dir, &proof),
            "s VERIFIED UNSATISFIABLE",
            "{} step {}: {step:?}",
            instance.name,
            i + 1
        );
    }
    walk.steps.len()
}

/// The boards: those of `DOMINOFIT_HINT_SWEEP` when it names a workload, else one
/// generated unique board of each even size from 12 to 24 (seed 5501).
fn boards() -> Vec<Instance> {
    if let Ok(path) = std::env::var("DOMINOFIT_HINT_SWEEP") {
        return dominofit::files::read_instances(&path).unwrap();
    }
    let options = DesignOptions::default();
    (12..=24)
        .step_by(2)
        .map(|size| {
            design::unique(size, size, 5501, 0, &options)
                .unwrap()
                .instance
        })
        .collect()
}

#[test]
fn every_hint_of_generated_unique_boards_is_a_derivation_veripb_checks() {
    if !crate::veripb::veripb_available() {
        return;
    }
    let boards = boards();
    // Two workers, each with a directory of its own for the files VeriPB reads.
    let half = boards.len().div_ceil(2);
    let steps: usize = std::thread::scope(|scope| {
        let workers: Vec<_> = boards
            .chunks(half.max(1))
            .map(|chunk| {
                scope.spawn(move || {
                    let dir = tempfile::tempdir().unwrap();
                    (chunk.iter())
                        .map(|instance| every_step_checks(dir.path(), instance))
                        .sum::<usize>()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    });
    assert!(steps >= boards.len() * 20, "{steps} steps");
    // The count a sweep reports (shown with --nocapture).
    println!(
        "hint sweep: {} boards, {steps} steps, every one verified",
        boards.len()
    );
}
