//! Regression tests for the fourth adversarial round (issue "Hardening, round four"):
//! hints from wrong moves, one cap for every path that keeps tilings, a piece given
//! twice, the exit statuses the help promises, and messages. Each fails on the code
//! before its fix.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use dominofit::backend::Budget;
use dominofit::design::explain::Outcome;
use dominofit::design::hint;
use dominofit::model::{Families, compile};
use dominofit::puzzle::{Instance, Piece, Solution};

use crate::common::{Sample, by_clues, instance, mask};
use crate::hardening::{dominofit, text};

/// The smallest board the probe found: its unique tiling is H(1,1) H(2,1) V(1,3) V(1,4).
const SMALL: &str =
    r#"{"name":"w","rows":2,"cols":4,"blocked":[],"row_clues":[4,2],"col_clues":[0,4,1,1]}"#;

/// Whether `tiling` has every piece of `moves`.
fn has_all(tiling: &Solution, moves: &Solution) -> bool {
    moves.pieces().all(|p| tiling.contains(&p))
}

/// `hint` from V(1,2), which no tiling has: it says so and names the piece, in text
/// and JSON, instead of placing V(1,1) on top of it.
#[test]
fn a_hint_from_a_wrong_move_says_to_take_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("w.json");
    let partial = dir.path().join("moves.json");
    std::fs::write(&board, SMALL).unwrap();
    std::fs::write(&partial, r#"{"vertical":[[1,2]],"horizontal":[]}"#).unwrap();
    let out = dominofit()
        .arg("hint")
        .args([&board, &partial])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains("no tiling has all the pieces placed"),
        "{said}"
    );
    assert!(said.contains("the vertical piece on (1,2)–(2,2)"), "{said}");
    assert!(said.contains("take it back"), "{said}");
    assert!(!said.contains("next step"), "{said}");
    let out = dominofit()
        .arg("hint")
        .args([&board, &partial])
        .args(["--format", "json"])
        .output()
        .unwrap();
    let walk: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(walk["outcome"], "wrong_moves");
    assert_eq!(walk["moves_extend"], false);
    assert_eq!(
        walk["take_back"],
        serde_json::json!({"vertical": [[1, 2]], "horizontal": []})
    );
    assert_eq!(walk["steps"], serde_json::json!([]));
    // `explain` stops at once too.
    let out = dominofit()
        .arg("explain")
        .args([&board, &partial])
        .output()
        .unwrap();
    assert!(
        text(&out.stdout).contains("0 steps\n"),
        "{}",
        text(&out.stdout)
    );
    // From a move of the tiling, the hint goes on and says the moves extend.
    std::fs::write(&partial, r#"{"vertical":[[1,3]],"horizontal":[]}"#).unwrap();
    let out = dominofit()
        .arg("hint")
        .args([&board, &partial])
        .args(["--format", "json"])
        .output()
        .unwrap();
    let walk: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(walk["moves_extend"], true);
    assert_eq!(walk["outcome"], "paused");
    assert_eq!(walk["steps"].as_array().map(Vec::len), Some(1));
}

/// Small boards with their complete sets of tilings from the enumerator (which knows
/// nothing of quotas): open and holed boards of 3×4 to 4×6, every clue pair they
/// realize.
fn small_boards() -> Vec<(Instance, Vec<Solution>)> {
    let mut boards = Vec::new();
    let mut sample = Sample(53);
    for (rows, cols) in [(3, 4), (4, 4), (4, 5), (3, 6), (4, 6)] {
        let cells = rows * cols;
        let mut masks = vec![0u64];
        for _ in 0..3 {
            let a = sample.next() % cells as u64;
            let b = sample.next() % cells as u64;
            masks.push(1 << a | 1 << b);
        }
        for bits in masks {
            let blocked = mask(rows, cols, bits);
            for (clues, tilings) in by_clues(rows, cols, &blocked) {
                if !tilings.is_empty() && tilings[0].pieces().next().is_some() {
                    boards.push((instance(rows, cols, &blocked, &clues), tilings));
                }
            }
        }
    }
    boards
}

/// From 500 wrong partial tilings (pieces of a tiling plus one piece that no tiling with
/// them has) `hint` says every time that the moves lead to no tiling, and the move it
/// names to take back is one without which the others do extend; from 500 correct
/// ones (pieces of a tiling) it says they extend and gives a step that holds in every
/// tiling that has them. Checked against the enumerator's complete sets of tilings.
#[test]
fn hints_from_500_wrong_and_500_correct_partial_tilings() {
    let boards = small_boards();
    assert!(boards.len() > 300, "{}", boards.len());
    let mut sample = Sample(4);
    let (mut wrong, mut correct, mut named) = (0, 0, 0);
    let mut rounds = 0;
    while (wrong < 500 || correct < 500) && rounds < 100_000 {
        rounds += 1;
        let (board, tilings) = &boards[sample.next() as usize % boards.len()];
        let tiling = &tilings[sample.next() as usize % tilings.len()];
        let pieces: Vec<Piece> = tiling.pieces().collect();
        let keep = sample.next() as usize % pieces.len();
        let moves: Vec<Piece> = pieces
            .iter()
            .copied()
            .filter(|_| sample.next() % pieces.len() as u64 <= keep as u64)
            .collect();
        if correct < 500 {
            let given = Solution::from_pieces(moves.iter().copied());
            let walk = hint(board, &given, &Budget::unlimited()).unwrap();
            let label = format!("{} from {given:?}", crate::common::label(board));
            assert_ne!(walk.outcome, Outcome::WrongMoves, "{label}");
            assert_ne!(walk.outcome, Outcome::NoTiling, "{label}");
            if !moves.is_empty() {
                assert_eq!(walk.moves_extend, Some(true), "{label}");
            }
            let left: Vec<&Solution> = tilings.iter().filter(|t| has_all(t, &given)).collect();
            for step in &walk.steps {
                assert!(!step.contradiction, "{label}: {step:?}");
                for t in &left {
                    assert!(has_all(t, &step.placed), "{label}: {step:?}");
                    assert!(
                        step.ruled_out.pieces().all(|p| !t.contains(&p)),
                        "{label}: {step:?}"
                    );
                }
            }
            correct += 1;
        }
        // One more piece on free cells that no tiling with the moves has.
        let model = compile(board, Families::AllQuotas);
        let covered = |p: &Piece| {
            let (r2, c2) = p.other_cell();
            [(p.row, p.col), (r2, c2)]
        };
        let taken: Vec<(usize, usize)> = moves.iter().flat_map(covered).collect();
        let extra: Vec<Piece> = (model.placements.iter().copied())
            .filter(|p| covered(p).iter().all(|c| !taken.contains(c)))
            .filter(|p| {
                let with = Solution::from_pieces(moves.iter().copied().chain([*p]));
                tilings.iter().all(|t| !has_all(t, &with))
            })
            .collect();
        if wrong >= 500 || extra.is_empty() {
            continue;
        }
        let bad = extra[sample.next() as usize % extra.len()];
        let given = Solution::from_pieces(moves.iter().copied().chain([bad]));
        let label = format!("{} from {given:?}", crate::common::label(board));
        let walk = hint(board, &given, &Budget::unlimited()).unwrap();
        assert_eq!(walk.outcome, Outcome::WrongMoves, "{label}");
        assert_eq!(walk.moves_extend, Some(false), "{label}");
        assert!(walk.steps.is_empty(), "{label}");
        if let Some(back) = walk.take_back.pieces().next() {
            assert!(given.contains(&back), "{label}: {back:?} was not given");
            let others = Solution::from_pieces(given.pieces().filter(|p| *p != back));
            assert!(
                tilings.iter().any(|t| has_all(t, &others)),
                "{label}: without {back:?} the moves still extend to no tiling"
            );
            named += 1;
        }
        wrong += 1;
    }
    assert_eq!((wrong, correct), (500, 500), "after {rounds} rounds");
    // Pieces of a tiling plus one more: taking the one more back always works.
    assert_eq!(named, 500, "a move to take back named {named} times");
}

/// The board that `e` is: 143,856 tilings of 64 pieces each, through the small-board
/// path (128 cells).
const MANY: &str = r#"{"name":"e","rows":16,"cols":8,"blocked":[],"row_clues":[8,2,6,6,6,8,4,8,6,8,4,6,6,4,8,6],"col_clues":[5,15,12,12,12,12,11,17]}"#;

/// `solve --limit 0` keeps at most `MAX_STORED_PIECES` pieces on every path: the
/// small-board path (`native`) stops `capped` where the general model
/// (`native-general`) does, in `json` and in `text`; `jsonl` keeps nothing and streams
/// every tiling on both.
#[test]
fn every_path_that_keeps_tilings_obeys_one_cap() {
    use dominofit::backend::MAX_STORED_PIECES;
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("e.json");
    std::fs::write(&board, MANY).unwrap();
    let kept = MAX_STORED_PIECES.div_ceil(64);
    for backend in ["native", "native-general"] {
        let out = dominofit()
            .arg("solve")
            .arg(&board)
            .args(["--limit", "0", "--format", "json", "--backend", backend])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{backend}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["complete"], false, "{backend}");
        assert_eq!(report["stats"]["stopped"], "capped", "{backend}");
        assert_eq!(
            report["solutions"].as_array().map(Vec::len),
            Some(kept),
            "{backend}"
        );
        // Text: the same tilings, drawn; read as it comes rather than kept whole.
        let mut child = dominofit()
            .arg("solve")
            .arg(&board)
            .args(["--limit", "0", "--backend", backend])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let (mut drawn, mut first) = (0, None);
        for line in lines {
            let line = line.unwrap();
            first.get_or_insert_with(|| line.clone());
            drawn += usize::from(line.starts_with("solution "));
        }
        assert!(child.wait().unwrap().success(), "{backend}");
        assert_eq!(drawn, kept, "{backend}");
        assert!(
            first.is_some_and(|l| l.starts_with("e: multiple")),
            "{backend}"
        );
        // JSON Lines: nothing kept, every tiling streamed, the search complete.
        let mut child = dominofit()
            .arg("solve")
            .arg(&board)
            .args(["--limit", "0", "--format", "jsonl", "--backend", backend])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let (mut streamed, mut end) = (0, String::new());
        for line in BufReader::new(child.stdout.take().unwrap()).lines() {
            let line = line.unwrap();
            if line.contains("\"solution\"") {
                streamed += 1;
            } else {
                end = line;
            }
        }
        assert!(child.wait().unwrap().success(), "{backend}");
        assert_eq!(streamed, 143_856, "{backend}");
        let end: serde_json::Value = serde_json::from_str(&end).unwrap();
        assert_eq!(
            (end["found"].as_u64(), &end["complete"]),
            (Some(143_856), &serde_json::json!(true)),
            "{backend}"
        );
    }
}

/// A partial tiling that lists a piece twice is refused with one message, as `verify`
/// refuses the same file (it used to read "solved: every cell is covered").
#[test]
fn a_piece_given_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("w.json");
    let partial = dir.path().join("moves.json");
    std::fs::write(&board, SMALL).unwrap();
    std::fs::write(
        &partial,
        r#"{"vertical":[[1,3],[1,3],[1,4]],"horizontal":[[1,1],[2,1]]}"#,
    )
    .unwrap();
    for command in ["hint", "explain"] {
        let out = dominofit()
            .arg(command)
            .args([&board, &partial])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{command}");
        let said = text(&out.stderr);
        assert!(
            said.contains("the vertical piece on (1,3)–(2,3) is given twice"),
            "{command}: {said}"
        );
        assert!(!text(&out.stdout).contains("solved"), "{command}");
    }
    let out = dominofit()
        .arg("verify")
        .args([&board, &partial])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// The 256×256 paper-protocol board of `models/paper.jsonl`: no command settles it
/// within a second.
fn paper_256() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/paper.jsonl");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .find(|l| l.contains("\"rows\":256"))
        .unwrap()
        .to_string()
}

/// Each command with a time limit says in its `--help` what its exit status is when the
/// limit stops it and on Ctrl-C, and does that: 3 at the time limit, 130 on SIGINT with
/// nothing written to standard output (count and shared used to print an undecided
/// answer on their way out; hint and explain's help promised 3 and what was found).
#[test]
fn the_exit_status_each_help_promises_is_the_one_it_uses() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("p256.json");
    std::fs::write(&board, paper_256()).unwrap();
    let open_2048 = dir.path().join("open-2048.json");
    let (open, _) = dominofit::puzzle::generate::planted_open(2048, 2048, 5, 0).unwrap();
    std::fs::write(&open_2048, open.to_json()).unwrap();
    let moves = dir.path().join("moves.json");
    // A horizontal piece in the top row on two open cells: the hint checks first that
    // it extends to a tiling, which takes the search long on this board.
    let instance = dominofit::files::read_instances(board.to_str().unwrap())
        .unwrap()
        .remove(0);
    let col = (0..255)
        .find(|&c| instance.is_open(0, c) && instance.is_open(0, c + 1))
        .unwrap();
    std::fs::write(
        &moves,
        format!(r#"{{"vertical":[],"horizontal":[[1,{}]]}}"#, col + 1),
    )
    .unwrap();
    // `hint` shares `explain`'s walkthrough, budget and help text; its one long part,
    // the check of the moves, is answered within a second on these boards now that the
    // repair takes turns, so there is no long hint here to interrupt.
    let commands: [(&str, bool); 5] = [
        ("solve", true),
        ("count", true),
        ("grade", true),
        ("explain", true),
        ("shared", true),
    ];
    for (command, stopped_by_the_limit) in commands {
        let help = dominofit().args([command, "--help"]).output().unwrap();
        let help = text(&help.stdout).replace('\n', " ");
        assert!(
            help.contains("130 on Ctrl-C or SIGTERM, which end it at once and write nothing more"),
            "{command}: {help}"
        );
        let args = |cmd: &mut std::process::Command| {
            // `solve --limit 2` and `shared` answer `multiple` on the 256×256 board
            // within a tenth of a second (the repair, then its windows); on an open
            // 2048×2048 board they take seconds, which the limit cuts.
            let long = matches!(command, "solve" | "shared");
            cmd.arg(command).arg(if long { &open_2048 } else { &board });
            if command == "hint" {
                cmd.arg(&moves);
            }
            if command == "solve" {
                cmd.args(["--limit", "2"]);
            }
        };
        if stopped_by_the_limit {
            assert!(help.contains("3 when"), "{command}: {help}");
            assert!(help.contains("time limit"), "{command}: {help}");
            let mut cmd = dominofit();
            args(&mut cmd);
            let out = cmd.args(["--timeout", "0.3"]).output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(3),
                "{command}: {}",
                text(&out.stderr)
            );
        }
        let mut cmd = dominofit();
        args(&mut cmd);
        let child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_secs(1));
        kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "{command}");
        assert_eq!(text(&out.stdout), "", "{command}: wrote after Ctrl-C");
        assert!(text(&out.stderr).contains("interrupted"), "{command}");
    }
}
