//! The command line as users and scripts meet it: FORMAT.md outputs, exit statuses,
//! and one clear message (never a panic) for each kind of bad input.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

use crate::common::schema::conforms;

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
    let v = crate::common::schema::validated("solve", &text);
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
        .stdout(contains(r#""reason":"#))
        .stdout(conforms("solve"));
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
        .stdout(contains(r#""complete":true"#))
        .stdout(conforms("count"));
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
        .stdout(contains(r#""status":"sat""#).count(4))
        .stdout(conforms("solve"));
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
    let v = crate::common::schema::validated("model", std::str::from_utf8(&a).unwrap());
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
        .stdout(contains("\"name\":\"line-2\""))
        .stdout(conforms("solve"));
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
        let v = crate::common::schema::validated("solve", line);
        let status = v["status"].as_str().unwrap();
        assert!(["unknown", "multiple"].contains(&status), "{line}");
        assert_eq!(v["complete"], false, "{line}");
    }
}

#[test]
fn show_draws_boards_as_svg_and_refuses_wrong_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("board.svg");
    dominofit()
        .args(["show", OBSERVED_8X8, SOLUTION_8X8, "--svg"])
        .arg(&out)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
    // 29 pieces: one rounded tile each; dots: one per vertical, two per horizontal.
    assert_eq!(svg.matches(r#"rx="6""#).count(), 29);
    // The committed README picture is exactly what `show` draws.
    let committed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/models/observed/8x8.solution.svg"
    );
    assert_eq!(svg, std::fs::read_to_string(committed).unwrap());
    // A solution for another board is refused, and nothing is written.
    let six = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/models/observed/6x6.solution.json"
    );
    let refused = dir.path().join("refused.svg");
    dominofit()
        .args(["show", OBSERVED_8X8, six, "--svg"])
        .arg(&refused)
        .assert()
        .code(1)
        .stderr(contains("is not a solution"));
    assert!(!refused.exists());
    // A workload needs --instance.
    let workload = concat!(env!("CARGO_MANIFEST_DIR"), "/models/observed.jsonl");
    dominofit()
        .args(["show", workload])
        .assert()
        .code(2)
        .stderr(contains("--instance"));
    dominofit()
        .args(["show", workload, "--instance", "observed-7x7", "--solve"])
        .assert()
        .success()
        .stdout(contains("·──2"));
}

#[test]
fn generated_unsat_and_unique_boards_keep_their_promise() {
    dominofit()
        .args([
            "generate", "--unsat", "--rows", "8", "--cols", "8", "--count", "3",
        ])
        .assert()
        .success()
        .stdout(predicate::function(|s: &str| s.lines().count() == 3));
    let unsat = dominofit()
        .args([
            "generate", "--unsat", "--rows", "8", "--cols", "8", "--count", "3",
        ])
        .output()
        .unwrap()
        .stdout;
    dominofit()
        .args(["solve", "-", "--format", "json", "--backend", "varisat"])
        .write_stdin(unsat)
        .assert()
        .success()
        .stdout(contains(r#""status":"unsat""#).count(3))
        .stdout(conforms("solve"));
    let unique = dominofit()
        .args([
            "generate", "--unique", "--rows", "9", "--cols", "7", "--count", "3",
        ])
        .output()
        .unwrap()
        .stdout;
    dominofit()
        .args(["count", "-", "--format", "json", "--backend", "dp"])
        .write_stdin(unique)
        .assert()
        .success()
        .stdout(contains(r#""count":"1""#).count(3))
        .stdout(conforms("count"));
}

#[test]
fn dp_counts_long_boards_as_decimal_strings() {
    let board = dominofit()
        .args([
            "generate", "--open", "--rows", "4", "--cols", "400", "--seed", "3",
        ])
        .output()
        .unwrap()
        .stdout;
    let out = dominofit()
        .args(["count", "-", "--backend", "dp", "--format", "json"])
        .write_stdin(board)
        .output()
        .unwrap();
    assert!(out.status.success());
    let json = crate::common::schema::validated("count", std::str::from_utf8(&out.stdout).unwrap());
    let count = json["count"].as_str().unwrap();
    // Beyond 2^128 (39 digits), still exact digits.
    assert!(
        count.len() > 39 && count.bytes().all(|b| b.is_ascii_digit()),
        "{count}"
    );
    assert_eq!(json["complete"], true);
    // Too wide for the DP: one clear refusal with the estimate, exit 1.
    let wide = dominofit()
        .args(["generate", "--rows", "40", "--cols", "40", "--seed", "3"])
        .output()
        .unwrap()
        .stdout;
    dominofit()
        .args(["count", "-", "--backend", "dp"])
        .write_stdin(wide)
        .assert()
        .code(1)
        .stdout("")
        .stderr(contains("state space is estimated at"))
        .stderr(predicate::function(|s: &str| s.lines().count() == 1));
}

#[test]
fn race_writes_tables_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let workload = concat!(env!("CARGO_MANIFEST_DIR"), "/models/observed.jsonl");
    dominofit()
        .args([
            "race",
            workload,
            "--backends",
            "native,varisat:sequential",
            "--repeat",
            "1",
        ])
        .args(["--limit", "2", "--out"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(contains("varisat:sequential"));
    for file in [
        "runs.csv",
        "summary.json",
        "summary.md",
        "cactus.svg",
        "size.svg",
    ] {
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        assert!(!text.is_empty(), "{file}");
        if file == "summary.json" {
            crate::common::schema::validated("race-summary", &text);
        }
    }
    let md = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(md.contains("| observed-8x8 | native | unique |"), "{md}");
    race_page_holds_the_runs(dir.path());
    // Merging the shard's runs.csv with itself agrees and reproduces the table.
    let runs = dir.path().join("runs.csv");
    let merged = dir.path().join("merged");
    dominofit()
        .args(["race", "--merge"])
        .arg(&runs)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    assert!(merged.join("summary.md").exists());
    // The same runs twice would count twice: refused.
    dominofit()
        .args(["race", "--merge"])
        .arg(&runs)
        .arg(&runs)
        .assert()
        .code(1)
        .stderr(contains("appears in more than one row"));
}

/// The race page in `dir` is one file that fetches nothing, and the runs it embeds are
/// the rows of runs.csv, value for value.
fn race_page_holds_the_runs(dir: &std::path::Path) {
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    for fetched in ["<link", " src=", "https://", "@import", "url("] {
        assert!(!page.contains(fetched), "the page fetches: {fetched}");
    }
    let open = r#"<script type="application/json" id="race-data">"#;
    let start = page.find(open).expect("the page's data") + open.len();
    let end = start + page[start..].find("</script>").expect("the data's end");
    let data: serde_json::Value = serde_json::from_str(&page[start..end]).unwrap();
    let runs = data["runs"].as_array().expect("runs");
    let mut csv = csv::Reader::from_path(dir.join("runs.csv")).unwrap();
    let header = csv.headers().unwrap().clone();
    let records = csv.records().map(Result::unwrap).collect::<Vec<_>>();
    assert_eq!(runs.len(), records.len());
    assert!(!runs.is_empty());
    for (run, record) in runs.iter().zip(&records) {
        for (column, cell) in header.iter().zip(record.iter()) {
            let value = &run[column];
            let text = match value {
                serde_json::Value::Null => String::new(),
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            assert_eq!(text, cell, "column {column} of {run}");
        }
    }
}

#[test]
fn the_race_page_keeps_a_hostile_name_as_data() {
    let dir = tempfile::tempdir().unwrap();
    let board = r#"{"name":"</script><script>alert(1)</script>","rows":2,"cols":2,"blocked":[],"row_clues":[1,2],"col_clues":[1,2]}"#;
    let workload = dir.path().join("hostile.jsonl");
    std::fs::write(&workload, format!("{board}\n")).unwrap();
    let out = dir.path().join("out");
    dominofit()
        .arg("race")
        .arg(&workload)
        .args(["--backends", "native", "--repeat", "1", "--out"])
        .arg(&out)
        .assert()
        .success();
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!page.contains("<script>alert"), "a name became markup");
    race_page_holds_the_runs(&out);
}

#[test]
fn jsonl_streams_every_tiling_then_the_status() {
    let boards = dominofit()
        .args([
            "generate", "--rows", "6", "--cols", "6", "--count", "4", "--seed", "3", "--open",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let instances = dominofit::puzzle::parse::parse_instances(
        std::str::from_utf8(&boards).unwrap(),
        "-",
        "-",
        true,
    )
    .unwrap();
    let streamed = dominofit()
        .args(["solve", "-", "--limit", "0", "--format", "jsonl"])
        .write_stdin(boards.clone())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = crate::common::schema::validated_lines("solve-jsonl", &streamed);
    let mut k = 0;
    for instance in &instances {
        // The brute-force oracle: every tiling of the open board with these clues.
        let mut expected: Vec<String> =
            crate::common::all_tilings(instance.rows, instance.cols, &instance.blocked)
                .into_iter()
                .filter(|s| {
                    crate::common::clues_of(instance.rows, instance.cols, s)
                        == (instance.row_clues.clone(), instance.col_clues.clone())
                })
                .map(|s| serde_json::to_value(&s).unwrap().to_string())
                .collect();
        expected.sort();
        let mut got = Vec::new();
        while lines[k].get("solution").is_some() {
            assert_eq!(lines[k]["name"], instance.name.as_str());
            got.push(lines[k]["solution"].to_string());
            k += 1;
        }
        got.sort();
        assert_eq!(got, expected, "{}", instance.name);
        let end = &lines[k];
        k += 1;
        assert_eq!(end["name"], instance.name.as_str());
        assert_eq!(end["found"], expected.len());
        assert_eq!(end["complete"], true);
        let status = if expected.len() == 1 {
            "unique"
        } else {
            "multiple"
        };
        assert_eq!(end["status"], status);
        assert!(end.get("solutions").is_none());
    }
    assert_eq!(k, lines.len());
}

#[test]
fn jsonl_ends_with_a_status_line_at_the_time_limit() {
    // An open 6×40 board with 3,481,920 tilings: the time limit ends the stream, and the
    // last line says how many were written before it.
    let board = dominofit()
        .args([
            "generate", "--rows", "6", "--cols", "40", "--count", "4", "--seed", "1", "--open",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let fourth = String::from_utf8(board)
        .unwrap()
        .lines()
        .nth(3)
        .unwrap()
        .to_string();
    let out = dominofit()
        .args([
            "solve",
            "-",
            "--limit",
            "0",
            "--format",
            "jsonl",
            "--timeout",
            "0.5",
        ])
        .write_stdin(fourth)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for line in &lines {
        crate::common::schema::validated("solve-jsonl", line);
    }
    let end = crate::common::schema::validated("solve-jsonl", lines[lines.len() - 1]);
    assert_eq!(end["complete"], false);
    assert_eq!(end["stats"]["stopped"], "timeout");
    assert_eq!(end["found"], lines.len() - 1);
    assert!(lines.len() > 2, "nothing streamed before the time limit");
}

#[test]
fn jsonl_does_not_go_with_repeat() {
    dominofit()
        .args(["solve", OBSERVED_8X8, "--format", "jsonl", "--repeat", "3"])
        .assert()
        .code(2)
        .stderr(contains("--repeat"));
}

#[test]
fn jsonl_streams_as_many_tilings_as_the_dp_counts() {
    // Open 6×12 boards: too many tilings of the bare board for the brute-force oracle,
    // so the frontier DP's exact count is the reference.
    let boards = dominofit()
        .args([
            "generate", "--rows", "6", "--cols", "12", "--count", "3", "--seed", "3", "--open",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let counts = dominofit()
        .args(["count", "-", "--backend", "dp", "--format", "json"])
        .write_stdin(boards.clone())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let streamed = dominofit()
        .args(["solve", "-", "--limit", "0", "--format", "jsonl"])
        .write_stdin(boards)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let ends: Vec<serde_json::Value> =
        crate::common::schema::validated_lines("solve-jsonl", &streamed)
            .into_iter()
            .filter(|v| v.get("found").is_some())
            .collect();
    let counts = crate::common::schema::validated_lines("count", &counts);
    assert_eq!(ends.len(), 3);
    for (end, count) in ends.iter().zip(&counts) {
        assert_eq!(end["name"], count["name"]);
        assert_eq!(end["found"].to_string(), count["count"].as_str().unwrap());
        assert_eq!(end["complete"], true);
    }
    let tilings = std::str::from_utf8(&streamed)
        .unwrap()
        .lines()
        .filter(|l| l.contains("\"solution\""))
        .count();
    let total: u64 = ends.iter().map(|e| e["found"].as_u64().unwrap()).sum();
    assert_eq!(tilings as u64, total);
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = dominofit().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(
            script.contains("check-certificate") && script.contains("certify"),
            "{shell}: {script}"
        );
        // Internal subcommands are not offered.
        assert!(!script.contains("worker-"), "{shell}: {script}");
    }
    dominofit()
        .args(["completions", "tcsh"])
        .assert()
        .failure()
        .code(2);
}
