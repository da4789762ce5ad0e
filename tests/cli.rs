//! The command line as users and scripts meet it: FORMAT.md outputs, exit statuses,
//! and one clear message (never a panic) for each kind of bad input.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn dominofit() -> Command {
    Command::cargo_bin("dominofit").unwrap()
}

const OBSERVED_8X8: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/observed/8x8.json");
const SOLUTION_8X8: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/models/observed/8x8.solution.json"
);

/// Solves `text` given on standard input and expects exit 1 with `message` on stderr.
fn rejects(text: &str, message: &str) {
    dominofit()
        .args(["solve", "-"])
        .write_stdin(text)
        .assert()
        .code(1)
        .stdout("")
        .stderr(contains(message))
        .stderr(contains("panicked").not())
        .stderr(predicate::function(|s: &str| s.lines().count() == 1));
}

#[test]
fn malformed_json() {
    rejects(r#"{"rows": 2, "cols": 2,"#, "malformed JSON");
    rejects("[1, 2]", "expected a JSON object, found an array");
}

#[test]
fn missing_and_unknown_fields() {
    rejects(
        r#"{"rows": 1, "cols": 2, "blocked": [], "row_clues": [2]}"#,
        "missing field `col_clues`",
    );
    rejects(
        r#"{"rows": 1, "cols": 2, "blocked": [], "row_clues": [2], "colclues": [0, 2]}"#,
        "unknown field `colclues`",
    );
}

#[test]
fn wrong_clue_count_and_negative_clue() {
    rejects(
        r#"{"rows": 1, "cols": 2, "blocked": [], "row_clues": [2, 0], "col_clues": [0, 2]}"#,
        "field `row_clues`: has 2 entries but the board has 1 rows",
    );
    rejects(
        r#"{"rows": 1, "cols": 2, "blocked": [], "row_clues": [2], "col_clues": [0, -2]}"#,
        "field `col_clues`: entry 2: -2 is negative",
    );
    rejects(
        r#"{"rows": 1, "cols": 2, "blocked": [], "row_clues": [2.5], "col_clues": [0, 2]}"#,
        "field `row_clues`: entry 1: 2.5 is not an integer",
    );
}

#[test]
fn blocked_cells_out_of_range_or_repeated() {
    rejects(
        r#"{"rows": 2, "cols": 2, "blocked": [[3, 1]], "row_clues": [2, 0], "col_clues": [0, 2]}"#,
        "field `blocked`: entry 1: [3, 1] is outside the 2x2 board",
    );
    rejects(
        r#"{"rows": 2, "cols": 2, "blocked": [[1, 1], [1, 1]], "row_clues": [2, 0], "col_clues": [0, 2]}"#,
        "field `blocked`: entry 2: [1, 1] is listed twice",
    );
    rejects(
        r#"{"rows": 2, "cols": 2, "blocked": [[0, 1]], "row_clues": [2, 0], "col_clues": [0, 2]}"#,
        "coordinates are one-based",
    );
}

#[test]
fn empty_and_absurd_boards() {
    rejects(
        r#"{"rows": 0, "cols": 2, "blocked": [], "row_clues": [], "col_clues": [0, 2]}"#,
        "empty board",
    );
    rejects(
        r#"{"rows": 100000, "cols": 2, "blocked": [], "row_clues": [], "col_clues": [0, 2]}"#,
        "larger than the supported maximum",
    );
    rejects(
        r#"{"rows": 4000, "cols": 4000, "blocked": [], "row_clues": [], "col_clues": []}"#,
        "more than the supported maximum",
    );
    rejects("", "no instances");
}

#[test]
fn workload_errors_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.jsonl");
    std::fs::write(
        &path,
        "{\"rows\": 1, \"cols\": 2, \"blocked\": [], \"row_clues\": [2], \"col_clues\": [0, 2]}\n\n\
         {\"rows\": 1, \"cols\": 2, \"blocked\": [], \"row_clues\": [2]}\n",
    )
    .unwrap();
    dominofit()
        .args(["solve", path.to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(contains("w.jsonl: line 3: missing field `col_clues`"));
}

#[test]
fn missing_file() {
    dominofit()
        .args(["solve", "no/such/file.json"])
        .assert()
        .code(1)
        .stderr(contains("no/such/file.json: cannot read"));
}

#[test]
fn usage_errors_exit_2() {
    dominofit().args(["solve"]).assert().code(2);
    dominofit()
        .args(["solve", OBSERVED_8X8, "--timeout", "0"])
        .assert()
        .code(2)
        .stderr(contains("positive number of seconds"));
    dominofit()
        .args(["solve", OBSERVED_8X8, "--timeout", "1e19"])
        .assert()
        .code(2)
        .stderr(contains("at most"));
    dominofit()
        .args(["solve", OBSERVED_8X8, "--backend", "nosuch"])
        .assert()
        .code(2)
        .stderr(contains("unknown backend `nosuch`"));
    dominofit()
        .args(["verify", "-", "-"])
        .assert()
        .code(2)
        .stderr(contains("read only once"));
}

#[test]
fn solve_json_follows_the_format() {
    let out = dominofit()
        .args(["solve", OBSERVED_8X8, "--limit", "2", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["name"], "observed-8x8");
    assert_eq!(v["backend"], "native");
    assert_eq!(v["limit"], 2);
    assert_eq!(v["status"], "unique");
    assert_eq!(v["complete"], true);
    assert_eq!(v["stats"]["nodes"], 1);
    assert!(v["stats"]["time_ms"].as_f64().unwrap() >= 0.0);
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(SOLUTION_8X8).unwrap()).unwrap();
    assert_eq!(v["solutions"], serde_json::json!([expected]));
    // Field order as in FORMAT.md.
    let order: Vec<usize> = [
        "\"name\"",
        "\"backend\"",
        "\"limit\"",
        "\"status\"",
        "\"complete\"",
        "\"solutions\"",
        "\"stats\"",
    ]
    .iter()
    .map(|k| text.find(k).unwrap())
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
}

#[test]
fn unsat_by_clue_inversion_gives_the_reason() {
    // Row 2 would need 1.5 horizontal pieces.
    let text = r#"{"name": "bad", "rows": 2, "cols": 3, "blocked": [], "row_clues": [3, 3], "col_clues": [1, 3, 2]}"#;
    dominofit()
        .args(["solve", "-", "--format", "json"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(contains(r#""status":"unsat""#))
        .stdout(contains(r#""reason":"#));
    dominofit()
        .args(["solve", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(contains("bad: unsat"))
        .stdout(contains("no solution: "));
}

#[test]
fn text_output_draws_the_pieces() {
    dominofit()
        .args(["solve", OBSERVED_8X8])
        .assert()
        .success()
        .stdout(contains("observed-8x8: sat"))
        .stdout(contains("·──2"))
        .stdout(contains("│"));
}

#[test]
fn verify_accepts_and_rejects() {
    dominofit()
        .args(["verify", OBSERVED_8X8, SOLUTION_8X8])
        .assert()
        .success()
        .stdout(contains("observed-8x8: valid"));
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("wrong.json");
    // Drop the first vertical piece: cells [1,1] and [2,1] are left uncovered.
    let text = std::fs::read_to_string(SOLUTION_8X8)
        .unwrap()
        .replacen("[1, 1], ", "", 1);
    std::fs::write(&wrong, text).unwrap();
    dominofit()
        .args(["verify", OBSERVED_8X8, wrong.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(contains("invalid: open cell [1, 1] is not covered"));
}

#[test]
fn count_reports_a_decimal_string() {
    let text = r#"{"name": "open-2x2", "rows": 2, "cols": 2, "blocked": [], "row_clues": [2, 2], "col_clues": [0, 4]}"#;
    dominofit()
        .args(["count", "-", "--format", "json"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(contains(r#""count":"1""#))
        .stdout(contains(r#""complete":true"#));
}

#[test]
fn generate_is_reproducible_and_solvable() {
    let run = || {
        dominofit()
            .args([
                "generate", "--rows", "7", "--cols", "9", "--count", "4", "--seed", "5",
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let a = run();
    assert_eq!(a, run());
    assert_eq!(String::from_utf8(a.clone()).unwrap().lines().count(), 4);
    dominofit()
        .args(["solve", "-", "--format", "json"])
        .write_stdin(a)
        .assert()
        .success()
        .stdout(contains(r#""status":"sat""#).count(4));
}

#[test]
fn emit_model_json_is_deterministic() {
    let run = || {
        dominofit()
            .args([
                "emit",
                OBSERVED_8X8,
                "--to",
                "model-json",
                "--families",
                "colour",
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let a = run();
    assert_eq!(a, run());
    let v: serde_json::Value = serde_json::from_slice(&a).unwrap();
    assert_eq!(v["covers"].as_array().unwrap().len(), 58);
    assert!(v["infeasible"].is_null());
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    // `head -0` style: the reader closes at once; no panic, no error message.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dominofit"))
        .args([
            "generate", "--rows", "20", "--cols", "20", "--count", "2000",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

#[test]
fn stdin_workloads_report_line_numbers() {
    dominofit()
        .args(["solve", "-"])
        .write_stdin("{\"rows\": 1, \"cols\": 2, \"blocked\": [], \"row_clues\": [2], \"col_clues\": [0, 2]}\n{\"rows\": 1,\n")
        .assert()
        .code(1)
        .stderr(contains("<stdin>: line 2: malformed JSON"));
    dominofit()
        .args(["solve", "-", "--format", "json"])
        .write_stdin("{\"rows\": 1, \"cols\": 2, \"blocked\": [], \"row_clues\": [2], \"col_clues\": [0, 2]}\n{\"rows\": 1, \"cols\": 2, \"blocked\": [], \"row_clues\": [2], \"col_clues\": [0, 2]}\n")
        .assert()
        .success()
        .stdout(contains("\"name\":\"line-2\""));
}

#[test]
fn a_timed_out_uniqueness_check_is_unknown() {
    // 96x96 planted boards have many solutions; a 1 ms budget cannot finish the
    // uniqueness check of all of them. Whatever was found, the answer is never
    // `unique`/`unsat`, and `unknown` exits 3.
    let workload = dominofit()
        .args([
            "generate", "--rows", "96", "--cols", "96", "--count", "3", "--seed", "3",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = dominofit()
        .args([
            "solve",
            "-",
            "--limit",
            "0",
            "--timeout",
            "0.001",
            "--format",
            "json",
        ])
        .write_stdin(workload)
        .assert()
        .code(predicate::in_iter([0, 3]))
        .get_output()
        .stdout
        .clone();
    for line in String::from_utf8(out).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let status = v["status"].as_str().unwrap();
        assert!(["unknown", "multiple"].contains(&status), "{line}");
        assert_eq!(v["complete"], false, "{line}");
    }
}
