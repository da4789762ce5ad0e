//! The catalogue's promise, tested: an argument written once, as a file of the
//! catalogue (`backend/native/argument/`) and an entry among its stall arguments, is
//! made by the search, by the ladder `grade` climbs, in a walkthrough's words and in a
//! hint's proof that VeriPB checks.

use std::cell::Cell;

use super::single::{veripb, veripb_checker};
use crate::backend::native::argument::{Added, Position, StallArgument, StallFailure, room};

thread_local! {
    static FOUND: Cell<u64> = const { Cell::new(0) };
}

/// The words the trivial argument's failures carry.
const SAID: &str = "a line the test's argument finds too short";

/// A trivial argument, as a new one would be written: a line group short of room, said
/// in words of its own. It is the catalogue's line room found again (so it is sound,
/// and its recipe is the line room's), with no propagator of its own: the search runs
/// it from scratch. It counts its failures on this thread.
fn short_line(pos: &dyn Position) -> Option<StallFailure> {
    let g = room::first_short(pos)?;
    FOUND.with(|found| found.set(found.get() + 1));
    Some(StallFailure {
        argument: "short line",
        recipe: room::recipe(pos, g),
        words: format!("{SAID} (group {g})"),
        cells: Vec::new(),
    })
}

const SHORT_LINE: StallArgument = StallArgument {
    name: "short line",
    find: short_line,
    incremental: false,
};

fn found() -> u64 {
    FOUND.with(Cell::get)
}

/// The committed unsatisfiable board whose walkthrough's step 19 is a trial ended by a
/// line without room.
fn board() -> crate::puzzle::Instance {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/unsat.jsonl");
    crate::files::read_instances(path)
        .unwrap()
        .into_iter()
        .find(|i| i.name == "unsat-16x16-s6604-1")
        .unwrap()
}

/// The general search (not the small-board path) to exhaustion: how many tilings.
fn tilings(instance: &crate::puzzle::Instance) -> usize {
    use crate::backend::Backend;
    let native = crate::backend::native::Native::new(crate::backend::native::SearchOptions {
        small_boards: false,
        ..Default::default()
    });
    let model = crate::model::compile(instance, crate::model::Families::ColourSplits);
    let mut found = 0;
    let mut sink = |_: &[u32]| {
        found += 1;
        crate::backend::Control::Continue
    };
    let budget = crate::backend::Budget::unlimited();
    native.solve(&model, 0, &budget, &mut sink).unwrap();
    found
}

#[test]
fn an_argument_added_to_the_catalogue_is_made_everywhere() {
    use crate::design::explain::{Rule, explain};
    use crate::puzzle::Solution;
    let instance = board();
    let before_grade = crate::design::grade(&instance, None).unwrap();
    let before_walk = explain(
        &instance,
        &Solution::default(),
        usize::MAX,
        &crate::backend::Budget::unlimited(),
    )
    .unwrap();
    let _added = Added::new(SHORT_LINE);

    // The search: it runs the argument from scratch at its stalls, and it fails there.
    assert_eq!(tilings(&instance), 0);
    let in_search = found();
    assert!(in_search > 0, "the search never made the argument");

    // The ladder: its trials make it; the grade is the same (it finds what line room
    // found, in other words).
    let grade = crate::design::grade(&instance, None).unwrap();
    assert!(found() > in_search, "the ladder never made the argument");
    assert_eq!(grade.level, before_grade.level);
    assert_eq!(grade.score, before_grade.score);

    // A walkthrough: a trial's reason says it; the steps are the same but for words.
    let walk = explain(
        &instance,
        &Solution::default(),
        usize::MAX,
        &crate::backend::Budget::unlimited(),
    )
    .unwrap();
    assert_eq!(walk.steps.len(), before_walk.steps.len());
    let said: Vec<usize> = (0..walk.steps.len())
        .filter(|&i| walk.steps[i].reason.contains(SAID))
        .collect();
    assert!(!said.is_empty(), "no step says the argument");
    for &i in &said {
        let step = &walk.steps[i];
        assert_eq!(step.rule, Rule::Trial);
        assert_eq!(step.ruled_out, before_walk.steps[i].ruled_out);
        assert!(!step.recipes.is_empty());
    }

    // A hint's proof: the step's proof derives the argument's recipe, and VeriPB
    // accepts it (and refuses it without).
    let Some(checker) = veripb_checker() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for &i in &said {
        let placed = Solution::from_pieces(walk.steps[..i].iter().flat_map(|s| s.placed.pieces()));
        let out = Solution::from_pieces(walk.steps[..i].iter().flat_map(|s| s.ruled_out.pieces()));
        let step = &walk.steps[i];
        let proof = super::hint::hint_proof(&instance, &placed, &out, step).unwrap();
        let said = veripb(&checker, dir.path(), &proof.formula, &proof.proof);
        assert_eq!(said, "s VERIFIED UNSATISFIABLE", "step {}", i + 1);
        let mut bare = step.clone();
        bare.recipes.clear();
        let proof = super::hint::hint_proof(&instance, &placed, &out, &bare).unwrap();
        let said = veripb(&checker, dir.path(), &proof.formula, &proof.proof);
        assert!(said.starts_with("rejected"), "step {}: {said}", i + 1);
    }
}
