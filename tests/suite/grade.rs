//! The deduction ladder and `grade` against oracles that know nothing of its rules: the
//! brute-force enumerator on the exhaustive domain, varisat's enumeration of every
//! tiling (raw clue sums, no quotas) on the game boards; monotone in the rungs; and
//! `grade` agreeing with the native uniqueness check.

use std::collections::HashSet;

use crate::common::{Case, every_tiling, extended_cases, label, paper_cases};
use dominofit::backend::native::climb;
use dominofit::backend::native::ladder::{Climb, Rung};
use dominofit::backend::{Budget, Status};
use dominofit::design::grade;
use dominofit::model::{Families, Model, compile};
use dominofit::puzzle::{Instance, Solution};

/// A tiling as the set of its placement ids in `model`.
fn ids(model: &Model, tiling: &Solution) -> HashSet<u32> {
    tiling
        .pieces()
        .map(|piece| model.placements.binary_search(&piece).unwrap() as u32)
        .collect()
}

/// Every claim of `climb` holds in every tiling of `tilings`, and what it concluded
/// about the board is true.
fn sound(name: &str, climb: &Climb, tilings: &[HashSet<u32>]) {
    for tiling in tilings {
        for p in &climb.placed {
            assert!(
                tiling.contains(p),
                "{name}: placed {p}, which a tiling lacks"
            );
        }
        for p in &climb.ruled_out {
            assert!(
                !tiling.contains(p),
                "{name}: ruled out {p}, which a tiling has"
            );
        }
    }
    if climb.contradiction.is_some() {
        assert!(tilings.is_empty(), "{name}: refuted a board with tilings");
    }
    if climb.solved {
        assert_eq!(
            tilings.len(),
            1,
            "{name}: solved a board without one tiling"
        );
        let placed: HashSet<u32> = climb.placed.iter().copied().collect();
        assert_eq!(&placed, &tilings[0], "{name}: solved to another tiling");
    }
}

/// A stronger top rung knows at least what a weaker one knows.
fn monotone(name: &str, weaker: &Climb, stronger: &Climb) {
    let contains = |big: &[u32], small: &[u32]| {
        let big: HashSet<u32> = big.iter().copied().collect();
        small.iter().all(|p| big.contains(p))
    };
    assert!(contains(&stronger.placed, &weaker.placed), "{name}: placed");
    assert!(
        contains(&stronger.ruled_out, &weaker.ruled_out),
        "{name}: ruled out"
    );
    assert!(!weaker.solved || stronger.solved, "{name}: solved");
    assert!(
        weaker.contradiction.is_none() || stronger.contradiction.is_some(),
        "{name}: refuted"
    );
}

/// Climbs to every top rung, checking each climb against the tilings and the next.
/// `(solved, refuted, pieces decided)` at the top rung.
fn climb_all(instance: &Instance, tilings: &[Solution]) -> (bool, bool, usize) {
    let name = label(instance);
    let plain = compile(instance, Families::AllQuotas);
    let coloured = compile(instance, Families::ColourSplits);
    if plain.infeasible.is_some() {
        assert!(
            tilings.is_empty(),
            "{name}: clue inversion refuted a board with tilings"
        );
        return (false, true, 0);
    }
    let sets: Vec<HashSet<u32>> = tilings.iter().map(|t| ids(&plain, t)).collect();
    let mut previous: Option<Climb> = None;
    for top in Rung::ALL {
        let now = climb(&plain, &coloured, top, &Budget::unlimited());
        sound(&format!("{name} up to {}", top.name()), &now, &sets);
        if let Some(weaker) = &previous {
            monotone(&format!("{name} up to {}", top.name()), weaker, &now);
        }
        previous = Some(now);
    }
    let top = previous.expect("four rungs");
    (
        top.solved,
        top.contradiction.is_some(),
        top.placed.len() + top.ruled_out.len(),
    )
}

/// Every deduction of every rung holds in every tiling of every board of the paper's
/// exhaustive domain and the sampled larger masks; a solved board has exactly the
/// tiling placed; a refuted one none; and each stronger rung knows what the weaker ones
/// know.
#[test]
fn every_deduction_holds_in_every_tiling_on_the_exhaustive_domain() {
    let cases: Vec<Case> = paper_cases()
        .into_iter()
        .chain(extended_cases(40, 40))
        .collect();
    let (mut solved, mut refuted, mut decided) = (0, 0, 0);
    for case in &cases {
        let (s, r, d) = climb_all(&case.instance, &case.expected);
        solved += usize::from(s);
        refuted += usize::from(r);
        decided += d;
    }
    assert!(cases.len() > 1000, "{}", cases.len());
    assert!(
        solved > 100 && refuted > 100 && decided > 1000,
        "{solved} {refuted} {decided}"
    );
}

/// The game boards (6×6 to 12×12, unique and not): every deduction of every rung holds
/// in every tiling varisat finds; and `grade` says unique exactly where the native
/// search does, with a level exactly for boards that have one tiling.
#[test]
fn game_boards_deductions_hold_and_grades_agree_with_uniqueness() {
    let path = format!("{}/models/game.jsonl", env!("CARGO_MANIFEST_DIR"));
    let instances = dominofit::files::read_instances(&path).unwrap();
    let mut reasoning_alone = 0;
    for instance in &instances {
        let tilings = every_tiling(instance);
        climb_all(instance, &tilings);
        let graded = grade(instance, None).unwrap();
        let expected = match tilings.len() {
            0 => Status::Unsat,
            1 => Status::Unique,
            _ => Status::Multiple,
        };
        assert_eq!(graded.status, expected, "{}", instance.name);
        assert_eq!(
            graded.level.is_some(),
            tilings.len() <= 1,
            "{}: a level exactly for a board with at most one tiling",
            instance.name
        );
        reasoning_alone += usize::from(graded.reasoning_alone);
    }
    assert!(reasoning_alone > 10, "{reasoning_alone}");
}

/// Zhao reports the three observed boards "uniquely solved by propagation alone": the
/// ladder solves each at its first rung, with no trial.
#[test]
fn the_observed_boards_need_only_singles() {
    for name in ["6x6", "7x7", "8x8"] {
        let path = format!("{}/models/observed/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let instance = dominofit::files::read_instances(&path).unwrap().remove(0);
        let graded = grade(&instance, None).unwrap();
        assert_eq!(graded.status, Status::Unique, "{name}");
        assert_eq!(graded.level.as_deref(), Some("singles"), "{name}");
        assert_eq!(graded.level_number, Some(1), "{name}");
        assert!(graded.reasoning_alone, "{name}");
        assert_eq!(graded.steps.trial, 0, "{name}");
        assert_eq!(graded.open_pieces, 0, "{name}");
    }
}

/// The command line: one line per board in words, a table of levels for a workload,
/// names from the user printed as data, and one clear message for bad input.
#[test]
fn grade_on_the_command_line() {
    use assert_cmd::Command;
    use predicates::prelude::*;
    use predicates::str::contains;
    let observed = concat!(env!("CARGO_MANIFEST_DIR"), "/models/observed.jsonl");
    Command::cargo_bin("dominofit")
        .unwrap()
        .args(["grade", observed])
        .assert()
        .success()
        .stdout(contains(
            "observed-8x8: unique (level 1, singles), solved by reasoning alone",
        ))
        .stdout(contains("| singles | 3 | 1 |"));
    // A board with several tilings has no level.
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/models/game.jsonl");
    Command::cargo_bin("dominofit")
        .unwrap()
        .args(["grade", game])
        .assert()
        .success()
        .stdout(contains(
            "planted-8x8-s6601-20: multiple (no level), has more than one tiling",
        ));
    // A name with an escape sequence is data, not a terminal command.
    let two = r#"{"name": "two\u001b[31m", "rows": 2, "cols": 2, "blocked": [], "row_clues": [2, 2], "col_clues": [0, 4]}"#;
    Command::cargo_bin("dominofit")
        .unwrap()
        .args(["grade", "-"])
        .write_stdin(two)
        .assert()
        .success()
        .stdout(contains("(level 1, singles)"))
        .stdout(contains("\u{1b}").not());
    // A board undecided within the time limit: unknown, exit 3 (the climb is bounded
    // by the same limit). The default search leaves this board undecided after a
    // minute (BENCHMARKS, issue 37).
    let paper = concat!(env!("CARGO_MANIFEST_DIR"), "/models/paper.jsonl");
    let hard = std::fs::read_to_string(paper)
        .unwrap()
        .lines()
        .find(|l| l.contains("paper-192x192-s6608-1"))
        .unwrap()
        .to_string();
    Command::cargo_bin("dominofit")
        .unwrap()
        .args(["grade", "-", "--timeout", "0.5"])
        .write_stdin(hard)
        .assert()
        .code(3)
        .stdout(contains(
            "unknown (no level), undecided within the time limit",
        ));
    Command::cargo_bin("dominofit")
        .unwrap()
        .args(["grade", "-"])
        .write_stdin(r#"{"rows": 2, "cols": 2,"#)
        .assert()
        .code(1)
        .stderr(contains("malformed JSON"))
        .stderr(contains("panicked").not());
}

/// `generate --unique --level L`: every board grades at exactly L (solved there and at no
/// weaker rung), the same bytes for the same seed, the rejected candidates reported;
/// --level without --unique is a usage error.
#[test]
fn generate_at_a_level_makes_boards_that_grade_there() {
    use assert_cmd::Command;
    use predicates::str::contains;
    for (level, number) in [("singles", 1), ("colours", 2), ("trial", 4)] {
        let run = || {
            Command::cargo_bin("dominofit")
                .unwrap()
                .args(["generate", "--unique", "--level", level])
                .args(["--rows", "8", "--cols", "8", "--count", "2", "--seed", "7"])
                .assert()
                .success()
                .stderr(contains(format!("2 unique boards at level {number}")))
                .stderr(contains("rejected"))
                .get_output()
                .stdout
                .clone()
        };
        let out = run();
        assert_eq!(out, run(), "{level}: reproducible");
        let text = String::from_utf8(out).unwrap();
        let boards =
            dominofit::puzzle::parse::parse_instances(&text, "generated", "generated", true)
                .unwrap();
        assert_eq!(boards.len(), 2);
        for board in &boards {
            let graded = grade(board, None).unwrap();
            assert_eq!(graded.status, Status::Unique, "{}", board.name);
            assert_eq!(graded.level.as_deref(), Some(level), "{}", board.name);
            assert!(board.name.starts_with(level), "{}", board.name);
            // Unique by an oracle that knows nothing of the native engine's rules.
            assert_eq!(every_tiling(board).len(), 1, "{}", board.name);
        }
    }
    Command::cargo_bin("dominofit")
        .unwrap()
        .args(["generate", "--level", "pairs", "--rows", "8", "--cols", "8"])
        .assert()
        .code(2);
}
