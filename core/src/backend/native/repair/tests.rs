//! The repair on planted boards (it finds a tiling the raw-rules verifier accepts) and on
//! boards without one (it never claims one), and the same seed giving the same moves.

use super::*;
use crate::model::{Families, compile};
use crate::puzzle::generate::planted_by;
use crate::puzzle::verify::verify;

fn budget() -> Budget<'static> {
    Budget::unlimited()
}

/// Planted boards up to 48×48, the flip chain's and the paper protocol's: solved, and
/// the tiling passes the verifier.
#[test]
fn planted_boards_are_repaired_into_a_verified_tiling() {
    use crate::puzzle::generate::Tiling as Protocol;
    let mut solved = 0;
    for (side, seeds) in [(6, 20), (12, 10), (24, 6), (48, 3)] {
        for seed in 0..seeds {
            for protocol in [Protocol::Flips, Protocol::Backtrack] {
                let (instance, _) = planted_by(side, side + 2, seed, 0, true, protocol).unwrap();
                let model = compile(&instance, Families::AllQuotas);
                let Some(mut repair) = Repair::new(&model, seed, &budget()).unwrap() else {
                    panic!("{}: no repair", instance.name);
                };
                match repair.run(&model, 1_000_000_000, &budget()) {
                    Repaired::Solved(ids) => {
                        let tiling = model.decode(&ids);
                        assert_eq!(verify(&instance, &tiling), Ok(()), "{}", instance.name);
                        solved += 1;
                    }
                    other => panic!("{}: {other:?} after {} moves", instance.name, repair.moves),
                }
            }
        }
    }
    assert_eq!(solved, 2 * (20 + 10 + 6 + 3));
}

/// Boards with two dots moved between rows (totals and parities kept, so clue inversion
/// often lets them pass), against the complete search: where it proves no tiling, the
/// repair never answers; where one exists, any answer it gives passes the verifier.
#[test]
fn the_repair_answers_only_boards_with_a_tiling() {
    use crate::backend::native::Native;
    use crate::backend::{Backend, Control, Ending};
    let (mut unsat, mut sat) = (0, 0);
    for seed in 0..200 {
        let (mut instance, _) = planted_by(6, 6, seed, 0, true, Default::default()).unwrap();
        let (from, to) = (seed as usize % 6, (seed as usize + 3) % 6);
        if instance.row_clues[from] < 2 {
            continue;
        }
        instance.row_clues[from] -= 2;
        instance.row_clues[to] += 2;
        let model = compile(&instance, Families::AllQuotas);
        let Some(mut repair) = Repair::new(&model, seed, &budget()).unwrap() else {
            continue;
        };
        // The complete search, on the same model: a tiling, or none when exhausted.
        let mut found = false;
        let mut sink = |_: &[u32]| {
            found = true;
            Control::Stop
        };
        let searched = Native::default()
            .solve(&model, 1, &budget(), &mut sink)
            .unwrap();
        let none = !found && searched.ending == Ending::Exhausted;
        let answer = repair.run(&model, 20_000, &budget());
        match (none, answer) {
            (true, Repaired::Solved(_)) => {
                panic!("{}: repaired a board without a tiling", instance.name)
            }
            (true, _) => unsat += 1,
            (_, Repaired::Solved(ids)) => {
                let tiling = model.decode(&ids);
                assert_eq!(verify(&instance, &tiling), Ok(()), "{}", instance.name);
                sat += 1;
            }
            _ => {}
        }
    }
    assert!(unsat > 10 && sat > 10, "{unsat} unsat, {sat} sat");
}

/// The same seed makes the same moves and the same tiling.
#[test]
fn the_same_seed_gives_the_same_tiling() {
    use crate::puzzle::generate::Tiling as Protocol;
    let (instance, _) = planted_by(40, 40, 7, 0, true, Protocol::Backtrack).unwrap();
    let model = compile(&instance, Families::AllQuotas);
    let run = || {
        let mut repair = Repair::new(&model, 11, &budget()).unwrap().unwrap();
        let answer = repair.run(&model, 1_000_000_000, &budget());
        (answer, repair.moves)
    };
    let first = run();
    assert!(matches!(first.0, Repaired::Solved(_)));
    assert_eq!(first, run());
}

/// A board whose open cells have no tiling at all has no repair.
#[test]
fn open_cells_without_a_tiling_have_no_repair() {
    let instance =
        crate::puzzle::Instance::new("odd".into(), (3, 3), vec![false; 9], vec![0; 3], vec![0; 3])
            .unwrap();
    let model = compile(&instance, Families::AllQuotas);
    assert!(model.infeasible.is_some() || Repair::new(&model, 1, &budget()).unwrap().is_none());
}
