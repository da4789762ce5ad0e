//! Walkthroughs and hints against oracles that know nothing of the rules: every step
//! holds in every tiling that agrees with what came before it (brute-force enumeration
//! on the exhaustive domain, varisat's enumeration of the raw clue sums on the game
//! boards), from the start and from a player's moves; and a walkthrough ends where the
//! ladder's climb ends, at the level `grade` gives.

use crate::common::{Case, every_tiling, extended_cases, label, paper_cases};
use dominofit::backend::native::climb;
use dominofit::backend::native::ladder::Rung;
use dominofit::backend::{Budget, Status};
use dominofit::design::explain::{Outcome, Rule, walk};
use dominofit::design::{Walkthrough, grade};
use dominofit::model::{Families, compile};
use dominofit::puzzle::{Instance, Solution};

/// Every step of `walk` holds in every tiling of `tilings` that has the given pieces
/// and what the steps before it placed; a contradiction comes only where none is left,
/// and a solved walkthrough ends on the one tiling left.
fn sound(name: &str, walk: &Walkthrough, tilings: &[Solution]) {
    let has_all = |t: &Solution, s: &Solution| s.pieces().all(|p| t.contains(&p));
    let mut left: Vec<&Solution> = tilings.iter().filter(|t| has_all(t, &walk.given)).collect();
    for (i, step) in walk.steps.iter().enumerate() {
        for t in &left {
            for p in step.placed.pieces() {
                assert!(
                    t.contains(&p),
                    "{name}: step {i} placed {p:?}, which a tiling lacks: {step:?}"
                );
            }
            for p in step.ruled_out.pieces() {
                assert!(
                    !t.contains(&p),
                    "{name}: step {i} ruled out {p:?}, which a tiling has: {step:?}"
                );
            }
        }
        if step.contradiction {
            assert!(
                left.is_empty(),
                "{name}: step {i} found no tiling, but one is left: {step:?}"
            );
        }
        assert!(!step.reason.is_empty(), "{name}: step {i} gives no reason");
        left.retain(|t| has_all(t, &step.placed));
    }
    match walk.outcome {
        Outcome::Solved => {
            assert_eq!(
                left.len(),
                1,
                "{name}: solved without exactly one tiling left"
            );
            assert_eq!(left[0], &walk.placed, "{name}: solved to another tiling");
        }
        Outcome::NoTiling => assert!(left.is_empty(), "{name}: no tiling, but one is left"),
        Outcome::Stuck => {}
        other => panic!("{name}: a walkthrough without limits ended {other:?}"),
    }
}

/// The whole walkthrough from the start ends where the climb to the top rung ends:
/// solved, refuted or stuck alike, with the same pieces placed and at the same hardest
/// rung when it settles the board.
fn agrees_with_the_climb(name: &str, instance: &Instance, walk: &Walkthrough) {
    let plain = compile(instance, Families::AllQuotas);
    if plain.infeasible.is_some() {
        assert_eq!(walk.outcome, Outcome::NoTiling, "{name}");
        assert_eq!(walk.steps.len(), 1, "{name}");
        assert_eq!(walk.steps[0].rule, Rule::Clues, "{name}");
        return;
    }
    let coloured = compile(instance, Families::ColourSplits);
    let climbed = climb(&plain, &coloured, Rung::Trial, &Budget::unlimited());
    assert_eq!(
        walk.outcome == Outcome::Solved,
        climbed.solved,
        "{name}: solved"
    );
    assert_eq!(
        walk.outcome == Outcome::NoTiling,
        climbed.contradiction.is_some(),
        "{name}: refuted"
    );
    if walk.outcome != Outcome::NoTiling {
        assert_eq!(walk.placed, plain.decode(&climbed.placed), "{name}: placed");
        let open = plain.placements.len() - climbed.placed.len() - climbed.ruled_out.len();
        assert_eq!(walk.open_pieces as usize, open, "{name}: open pieces");
    }
    if walk.outcome != Outcome::Stuck {
        assert_eq!(
            walk.hardest.as_deref(),
            climbed.hardest().map(Rung::name),
            "{name}: hardest rung"
        );
    }
}

/// Single pieces no tiling has, each a player's wrong first move.
fn wrong_moves<'a>(
    instance: &Instance,
    tilings: &'a [Solution],
) -> impl Iterator<Item = Solution> + 'a {
    let model = compile(instance, Families::AllQuotas);
    model
        .placements
        .into_iter()
        .filter(move |p| tilings.iter().all(|t| !t.contains(p)))
        .map(|p| Solution::from_pieces([p]))
}

/// Half a tiling's pieces, every other one: a player's moves on the way to it.
fn half(tiling: &Solution) -> Solution {
    Solution::from_pieces(tiling.pieces().step_by(2))
}

pub(crate) fn whole(instance: &Instance, given: &Solution) -> Walkthrough {
    walk(instance, given, usize::MAX, &Budget::unlimited()).unwrap()
}

/// Every step of every walkthrough, from the start and from half of a tiling, holds in
/// every tiling of every board of the exhaustive domain and the sampled larger masks;
/// and the walkthrough from the start ends where the climb does.
#[test]
fn every_step_holds_in_every_tiling_on_the_exhaustive_domain() {
    let cases: Vec<Case> = paper_cases()
        .into_iter()
        .chain(extended_cases(40, 40))
        .collect();
    let mut outcomes = std::collections::BTreeMap::new();
    let mut rules = std::collections::BTreeSet::new();
    for case in &cases {
        let name = label(&case.instance);
        let walk = whole(&case.instance, &Solution::default());
        sound(&name, &walk, &case.expected);
        agrees_with_the_climb(&name, &case.instance, &walk);
        *outcomes.entry(format!("{:?}", walk.outcome)).or_insert(0) += 1;
        rules.extend(walk.steps.iter().map(|s| format!("{:?}", s.rule)));
        if let Some(tiling) = case.expected.first() {
            let from = half(tiling);
            let walk = whole(&case.instance, &from);
            sound(&format!("{name} from half a tiling"), &walk, &case.expected);
            assert_ne!(
                walk.outcome,
                Outcome::NoTiling,
                "{name}: moves from a tiling refuted"
            );
        }
        for wrong in wrong_moves(&case.instance, &case.expected).take(3) {
            let walk = whole(&case.instance, &wrong);
            sound(&format!("{name} from {wrong:?}"), &walk, &case.expected);
            assert_ne!(
                walk.outcome,
                Outcome::Solved,
                "{name}: solved past a wrong move"
            );
            rules.extend(walk.steps.iter().map(|s| format!("{:?}", s.rule)));
        }
    }
    assert!(cases.len() > 1000, "{}", cases.len());
    for outcome in ["Solved", "NoTiling", "Stuck"] {
        assert!(
            outcomes.get(outcome).copied().unwrap_or(0) > 20,
            "{outcomes:?}"
        );
    }
    for rule in [
        "LastPiece",
        "NoPiece",
        "CountReached",
        "CountNeedsAll",
        "CountBroken",
        "Clues",
    ] {
        assert!(rules.contains(rule), "{rule} never used: {rules:?}");
    }
}

/// The game boards: every step holds in every tiling varisat finds, from the start and
/// from a player's moves (half of a tiling, and a piece no tiling has); a walkthrough
/// ends where the climb does; and it solves a board exactly when `grade` says reasoning
/// alone does, at `grade`'s level.
#[test]
fn game_board_walkthroughs_hold_and_agree_with_grade() {
    let path = format!("{}/models/game.jsonl", env!("CARGO_MANIFEST_DIR"));
    let instances = dominofit::files::read_instances(&path).unwrap();
    let mut solved = 0;
    let mut rules = std::collections::BTreeSet::new();
    for instance in &instances {
        let tilings = every_tiling(instance);
        let walk = whole(instance, &Solution::default());
        sound(&instance.name, &walk, &tilings);
        agrees_with_the_climb(&instance.name, instance, &walk);
        let graded = grade(instance, None).unwrap();
        let settles = walk.outcome == Outcome::Solved
            || (walk.outcome == Outcome::NoTiling && graded.status == Status::Unsat);
        assert_eq!(graded.reasoning_alone, settles, "{}", instance.name);
        if graded.reasoning_alone {
            assert_eq!(graded.level, walk.hardest, "{}", instance.name);
        }
        solved += usize::from(walk.outcome == Outcome::Solved);
        rules.extend(walk.steps.iter().map(|s| format!("{:?}", s.rule)));
        if let Some(tiling) = tilings.first() {
            let walk = whole(instance, &half(tiling));
            sound(&format!("{} from half", instance.name), &walk, &tilings);
        }
        // Moves no tiling has: a walkthrough may refute them, never solve past them.
        for wrong in wrong_moves(instance, &tilings).take(40) {
            let walk = whole(instance, &wrong);
            sound(
                &format!("{} from {wrong:?}", instance.name),
                &walk,
                &tilings,
            );
            assert_ne!(walk.outcome, Outcome::Solved, "{}", instance.name);
            rules.extend(walk.steps.iter().map(|s| format!("{:?}", s.rule)));
        }
    }
    assert!(solved > 10, "{solved}");
    for rule in ["Pairing", "NoPairing", "Trial"] {
        assert!(rules.contains(rule), "{rule} never used: {rules:?}");
    }
}

/// The observed boards, which Zhao reports solved by propagation alone: walked through
/// with singles only, every cell covered by a step that places a piece.
#[test]
fn the_observed_boards_walk_through_with_singles() {
    for name in ["6x6", "7x7", "8x8"] {
        let path = format!("{}/models/observed/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let instance = dominofit::files::read_instances(&path).unwrap().remove(0);
        let walk = whole(&instance, &Solution::default());
        assert_eq!(walk.outcome, Outcome::Solved, "{name}");
        assert!(walk.steps.iter().all(|s| s.rung == "singles"), "{name}");
        let expected = dominofit::files::read_solutions(&format!(
            "{}/models/observed/{name}.solution.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
        .remove(0);
        assert_eq!(walk.placed, expected, "{name}");
    }
}

/// `hint` and `explain` on the command line: the next step in words and as JSON, from
/// the start and from a player's moves (the step holds in the board's one tiling), an
/// SVG of the step, the walkthrough as text and as a page; names as data; one clear
/// message for moves that are not pieces of the board.
#[test]
fn hint_and_explain_on_the_command_line() {
    use assert_cmd::Command;
    use predicates::prelude::*;
    use predicates::str::contains;
    let root = env!("CARGO_MANIFEST_DIR");
    let board = format!("{root}/models/observed/8x8.json");
    let solution = format!("{root}/models/observed/8x8.solution.json");
    let tiling = dominofit::files::read_solutions(&solution)
        .unwrap()
        .remove(0);
    let run = |args: &[&str]| Command::cargo_bin("dominofit").unwrap().args(args).assert();
    run(&["hint", &board])
        .success()
        .stdout(contains("observed-8x8: next step [singles, count_reached]"))
        .stdout(contains("rules out: V(4,2)"));

    // From half the tiling: the step's pieces are the tiling's.
    let dir = tempfile::tempdir().unwrap();
    let partial = dir.path().join("partial.json");
    let given = half(&tiling);
    std::fs::write(&partial, serde_json::to_string(&given).unwrap()).unwrap();
    let svg = dir.path().join("hint.svg");
    let out = run(&[
        "hint",
        &board,
        partial.to_str().unwrap(),
        "--format",
        "json",
        "--svg",
        svg.to_str().unwrap(),
    ])
    .success()
    .get_output()
    .stdout
    .clone();
    let walk: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(walk["outcome"], "paused");
    assert_eq!(walk["steps"].as_array().unwrap().len(), 1);
    let step = &walk["steps"][0];
    let cell = |v: &serde_json::Value| {
        (
            v[0].as_u64().unwrap() as usize - 1,
            v[1].as_u64().unwrap() as usize - 1,
        )
    };
    for v in step["placed"]["vertical"].as_array().unwrap() {
        assert!(tiling.vertical.contains(&cell(v)), "{step}");
    }
    for h in step["placed"]["horizontal"].as_array().unwrap() {
        assert!(tiling.horizontal.contains(&cell(h)), "{step}");
    }
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.contains(r#"class="reason""#), "{picture}");
    assert_eq!(
        picture.matches("<circle").count(),
        given.vertical.len()
            + 2 * given.horizontal.len()
            + step["placed"]["vertical"].as_array().unwrap().len()
            + 2 * step["placed"]["horizontal"].as_array().unwrap().len(),
        "the given pieces and the step's are drawn"
    );

    // `show --hint` draws the same picture.
    let shown = dir.path().join("show.svg");
    run(&[
        "show",
        &board,
        partial.to_str().unwrap(),
        "--hint",
        "--svg",
        shown.to_str().unwrap(),
    ])
    .success();
    assert_eq!(std::fs::read_to_string(&shown).unwrap(), picture);

    // The step as a proof that VeriPB checks.
    let proof_dir = dir.path().join("proof");
    run(&[
        "hint",
        &board,
        partial.to_str().unwrap(),
        "--proof",
        proof_dir.to_str().unwrap(),
    ])
    .success()
    .stderr(contains("veripb"));
    if crate::veripb::veripb_available() {
        assert_eq!(
            crate::veripb::veripb(&proof_dir.join("hint.opb"), &proof_dir.join("hint.pbp")),
            "s VERIFIED UNSATISFIABLE"
        );
    }

    // From the whole tiling: nothing left to do (and nothing to prove, no directory made).
    let unused = dir.path().join("unused");
    run(&[
        "hint",
        &board,
        &solution,
        "--proof",
        unused.to_str().unwrap(),
    ])
    .code(1)
    .stderr(contains("there is no step to prove"));
    assert!(!unused.exists());
    run(&["hint", &board, &solution])
        .success()
        .stdout(contains("observed-8x8: solved: every cell is covered"));

    // The walkthrough in words, and as a page.
    run(&["explain", &board])
        .success()
        .stdout(contains("observed-8x8: 39 steps"))
        .stdout(contains("  39. [singles, last_piece]"))
        .stdout(contains(
            "solved: every cell is covered (hardest rung: singles)",
        ));
    let page = dir.path().join("walk.html");
    run(&[
        "explain",
        &board,
        "--format",
        "html",
        "-o",
        page.to_str().unwrap(),
    ])
    .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains(r#"id="walk-data""#));

    // A hostile name is data in the terminal and in the page.
    let hostile = r#"{"name": "two\u001b[31m</script><b>", "rows": 2, "cols": 2, "blocked": [], "row_clues": [2, 2], "col_clues": [0, 4]}"#;
    Command::cargo_bin("dominofit")
        .unwrap()
        .args(["explain", "-"])
        .write_stdin(hostile)
        .assert()
        .success()
        .stdout(contains("\u{1b}").not());
    let html = Command::cargo_bin("dominofit")
        .unwrap()
        .args(["explain", "-", "--format", "html"])
        .write_stdin(hostile)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let html = String::from_utf8(html).unwrap();
    assert_eq!(html.matches("</script>").count(), 2, "{html}");
    assert!(!html.contains("<b>"), "{html}");

    // Moves that are not pieces of the board, overlapping moves, a workload without a
    // board picked: one message each, no panic.
    let bad = |json: &str, message: &str| {
        std::fs::write(&partial, json).unwrap();
        run(&["hint", &board, partial.to_str().unwrap()])
            .code(1)
            .stderr(contains(message))
            .stderr(contains("panicked").not());
    };
    bad(
        r#"{"vertical": [[1,8]], "horizontal": []}"#,
        "the vertical piece on (1,8)–(2,8) does not lie on two open cells",
    );
    bad(
        r#"{"vertical": [[1,1],[2,1]], "horizontal": []}"#,
        "overlaps another piece",
    );
    bad(r#"{"vertical": [[1,1]]"#, "partial.json");
    run(&["hint", &format!("{root}/models/levels.jsonl")])
        .code(2)
        .stderr(contains("pick one with --instance NAME"));
}

/// What is known before each step of `walk`: the given pieces and those earlier steps
/// placed, and the pieces earlier steps ruled out.
pub(crate) fn known_before(walk: &Walkthrough, i: usize) -> (Solution, Solution) {
    let placed = walk
        .given
        .pieces()
        .chain(walk.steps[..i].iter().flat_map(|s| s.placed.pieces()));
    let out = walk.steps[..i].iter().flat_map(|s| s.ruled_out.pieces());
    (Solution::from_pieces(placed), Solution::from_pieces(out))
}

/// VeriPB's status line on a hint's proof (written to `dir`).
pub(crate) fn checked(
    dir: &std::path::Path,
    proof: &dominofit::certify::pb::hint::HintProof,
) -> String {
    let rules = dir.join("hint.opb");
    let log = dir.join("hint.pbp");
    std::fs::write(&rules, &proof.formula).unwrap();
    std::fs::write(&log, &proof.proof).unwrap();
    crate::veripb::veripb(&rules, &log)
}

/// Every step of every walkthrough of the game boards, the committed level boards and
/// the observed boards (from the start, and from wrong moves, whose steps find no tiling) is a VeriPB
/// derivation from the rules and what is known before it: the formula denies the
/// step's conclusion and VeriPB refutes it. A step's pairing arguments are needed (the
/// same proof without its Hall sets is refused somewhere), and a wrong conclusion is
/// refused.
#[test]
fn every_hint_is_a_derivation_veripb_checks() {
    use dominofit::certify::pb::hint::hint_proof;
    if !crate::veripb::veripb_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut boards = Vec::new();
    for file in ["game.jsonl", "levels.jsonl", "observed.jsonl"] {
        let path = format!("{}/models/{file}", env!("CARGO_MANIFEST_DIR"));
        boards.extend(dominofit::files::read_instances(&path).unwrap());
    }
    let (mut checked_steps, mut hall_needed, mut contradictions) = (0, 0, 0);
    let mut rules = std::collections::BTreeSet::new();
    for instance in &boards {
        let tilings = every_tiling(instance);
        let starts =
            std::iter::once(Solution::default()).chain(wrong_moves(instance, &tilings).take(3));
        for start in starts {
            let walk = whole(instance, &start);
            for (i, step) in walk.steps.iter().enumerate() {
                let (placed, out) = known_before(&walk, i);
                let proof = hint_proof(instance, &placed, &out, step).unwrap();
                let said = checked(dir.path(), &proof);
                assert_eq!(
                    said, "s VERIFIED UNSATISFIABLE",
                    "{} step {i}: {step:?}",
                    instance.name
                );
                checked_steps += 1;
                contradictions += usize::from(step.contradiction);
                rules.insert(format!("{:?}", step.rule));
                if !step.hall_sets.is_empty() {
                    let mut bare = step.clone();
                    bare.hall_sets.clear();
                    let said = checked(
                        dir.path(),
                        &hint_proof(instance, &placed, &out, &bare).unwrap(),
                    );
                    hall_needed += usize::from(said.starts_with("rejected"));
                }
            }
            // A conclusion that does not follow: the first step's pieces placed swapped
            // for a piece of a tiling ruled out.
            if let (Some(step), Some(tiling)) = (walk.steps.first(), tilings.first())
                && !step.contradiction
                && start.pieces().all(|p| tiling.contains(&p))
            {
                let mut wrong = step.clone();
                wrong.placed = Solution::default();
                wrong.ruled_out = Solution::from_pieces(tiling.pieces().take(1));
                let said = checked(
                    dir.path(),
                    &hint_proof(instance, &start, &Solution::default(), &wrong).unwrap(),
                );
                assert!(
                    said.starts_with("rejected"),
                    "{}: a wrong hint was accepted",
                    instance.name
                );
            }
        }
    }
    assert!(checked_steps > 1000, "{checked_steps}");
    assert!(contradictions > 20, "{contradictions}");
    assert!(hall_needed > 0, "no step needed its Hall sets");
    for rule in [
        "LastPiece",
        "CountReached",
        "CountNeedsAll",
        "Pairing",
        "Trial",
    ] {
        assert!(rules.contains(rule), "{rule} never checked: {rules:?}");
    }
}

/// Every step of every walkthrough of the committed unsatisfiable boards (`unsat` and
/// `unsat-hard`) is a VeriPB derivation, the trials that end in a line without room
/// (step 19 of `unsat-16x16-s6604-1` among them) included: such a step names the line
/// and carries the line's recipe, without which its proof is refused.
#[test]
fn every_hint_of_the_unsat_boards_is_a_derivation_veripb_checks() {
    use dominofit::certify::pb::hint::hint_proof;
    if !crate::veripb::veripb_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (mut checked_steps, mut recipes_needed, mut stalls) = (0, 0, 0);
    for file in ["unsat.jsonl", "unsat-hard.jsonl"] {
        let path = format!("{}/models/{file}", env!("CARGO_MANIFEST_DIR"));
        for instance in dominofit::files::read_instances(&path).unwrap() {
            let walk = whole(&instance, &Solution::default());
            // Reasoning alone refutes some; the others need search from where it stops.
            assert!(
                matches!(walk.outcome, Outcome::NoTiling | Outcome::Stuck),
                "{}: {:?}",
                instance.name,
                walk.outcome
            );
            for (i, step) in walk.steps.iter().enumerate() {
                let (placed, out) = known_before(&walk, i);
                let proof = hint_proof(&instance, &placed, &out, step).unwrap();
                let said = checked(dir.path(), &proof);
                assert_eq!(
                    said,
                    "s VERIFIED UNSATISFIABLE",
                    "{} step {}: {step:?}",
                    instance.name,
                    i + 1
                );
                checked_steps += 1;
                assert!(
                    !step.reason.contains("some line's room"),
                    "{} step {}: a reason that names no argument: {}",
                    instance.name,
                    i + 1,
                    step.reason
                );
                if !step.recipes.is_empty() {
                    stalls += 1;
                    let mut bare = step.clone();
                    bare.recipes.clear();
                    let said = checked(
                        dir.path(),
                        &hint_proof(&instance, &placed, &out, &bare).unwrap(),
                    );
                    recipes_needed += usize::from(said.starts_with("rejected"));
                }
                if instance.name == "unsat-16x16-s6604-1" && i + 1 == 19 {
                    assert!(
                        step.reason.contains("the horizontal pieces in row 9")
                            && !step.recipes.is_empty(),
                        "{step:?}"
                    );
                }
            }
        }
    }
    assert!(checked_steps > 500, "{checked_steps}");
    assert!(stalls > 0, "no step rested on a stall check");
    assert!(
        recipes_needed > 0,
        "no step needed its stall check's recipe"
    );
}

/// A walkthrough of a 256×256 board within a time limit: it stops at the limit (the
/// pairing rule, whose work grows fastest, looks at the budget as it goes), keeps the
/// steps found so far and exits 3.
#[test]
fn a_walkthrough_stops_at_its_time_limit() {
    use assert_cmd::Command;
    let giant = concat!(env!("CARGO_MANIFEST_DIR"), "/models/giant.jsonl");
    let out = Command::cargo_bin("dominofit")
        .unwrap()
        .args(["explain", giant, "--instance", "planted-256x256-s6607-2"])
        .args(["--format", "json", "--timeout", "0.5"])
        .assert()
        .code(3)
        .get_output()
        .stdout
        .clone();
    let walk: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(walk["outcome"], "stopped");
    assert!(walk["steps"].is_array());
}
