//! The calls natively: the answers a page gets, and the messages for bad input.

use super::*;

/// A planted board's own tiling, handed back as pieces, gives back its clues, and
/// `verify` says it is valid; with a piece taken away it is refused.
#[test]
fn the_clues_of_a_planted_tiling_are_the_board_s() {
    let (board, tiling) = planted_by(6, 6, 7, 0, true, Tiling::Backtrack).unwrap();
    let pieces = serde_json::to_string(&tiling).unwrap();
    let clued = clues_of(&board.to_json(), &pieces).unwrap();
    assert_eq!(clued, format!("{}\n", board.to_json()));
    let said = verify_text(&board.to_json(), &pieces).unwrap();
    assert!(said.contains(": valid: "), "{said}");
    let short = serde_json::to_string(&Solution::from_pieces(tiling.pieces().skip(1))).unwrap();
    let refused = clues_of(&board.to_json(), &short).unwrap_err();
    assert!(refused.contains("does not tile"), "{refused}");
}

/// A random tiling of a drawn shape covers it: its clues make a board it solves.
#[test]
fn a_random_tiling_tiles_the_shape() {
    let shape = r#"{"name": "s", "rows": 4, "cols": 4, "blocked": [[1, 1], [1, 2]],
                    "row_clues": [0, 0, 0, 0], "col_clues": [0, 0, 0, 0]}"#;
    let tiling = random_tiling(shape, 3, 0.0).unwrap();
    let clued = clues_of(shape, &tiling).unwrap();
    assert!(verify_text(&clued, &tiling).unwrap().contains(": valid: "));
    let closed = r#"{"name": "odd", "rows": 1, "cols": 3, "blocked": [],
                     "row_clues": [0], "col_clues": [0, 0, 0]}"#;
    assert!(
        random_tiling(closed, 3, 0.0)
            .unwrap_err()
            .contains("no tiling")
    );
}

/// A hint's proof: a formula with one constraint more than the rules' (the
/// conclusion denied), refuted; with the whole tiling placed there is no step, and
/// nothing to prove, said in the command line's words.
#[test]
fn a_hint_proof_refutes_the_denied_step_and_a_solved_board_has_none() {
    let (board, tiling) = planted_by(6, 6, 7, 0, true, Tiling::Backtrack).unwrap();
    let answer: serde_json::Value =
        serde_json::from_str(&hint_proof(&board.to_json(), None, 0.0).unwrap()).unwrap();
    let (formula, proof) = (
        answer["formula"].as_str().unwrap(),
        answer["proof"].as_str().unwrap(),
    );
    let rules = pb::rules_opb(&board, None).unwrap();
    let constraints = |text: &str| -> u64 {
        let (_, after) = text.split_once("#constraint= ").unwrap();
        after.split_whitespace().next().unwrap().parse().unwrap()
    };
    assert_eq!(constraints(formula), constraints(&rules) + 1, "{formula}");
    assert!(proof.ends_with("end pseudo-Boolean proof;\n"), "{proof}");
    assert!(proof.contains("conclusion UNSAT"), "{proof}");
    let whole = serde_json::to_string(&tiling).unwrap();
    let refused = hint_proof(&board.to_json(), Some(whole), 0.0).unwrap_err();
    assert_eq!(
        refused,
        "there is no step to prove: solved: every cell is covered"
    );
}

/// Bad text and bad names get one message each, never a panic.
#[test]
fn bad_input_is_a_message() {
    assert!(show_text("{", None).unwrap_err().contains("<instance>"));
    assert!(generate(0.0, 6.0, 1, 1.0, false, "flips").is_err());
    assert!(
        generate(6.0, 6.0, 1, 1.0, false, "spiral")
            .unwrap_err()
            .contains("spiral")
    );
    let board = generate(4.0, 4.0, 1, 1.0, false, "").unwrap();
    assert!(
        emit(&board, "docx", "totalizer", "colour")
            .unwrap_err()
            .contains("docx")
    );
    assert!(
        emit(&board, "dimacs", "totalizer", "colour")
            .unwrap()
            .starts_with('c')
    );
}
