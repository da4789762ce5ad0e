//! Regression tests for the third adversarial round (issue "Hardening, round three"):
//! a closed standard error, checkers named or run under a backtrace, unfinished bundles,
//! spreadsheet cells, generation that keeps its work, messages. Each fails on the code
//! before its fix.

use std::process::{Command, Stdio};

use crate::hardening::{OBSERVED_6X6, dominofit, text};

/// Runs `command` with standard error a pipe whose reading end is already closed, as in
/// `dominofit … 2>&1 | true`: its exit status.
fn with_closed_stderr(command: &mut Command) -> Option<i32> {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let status = command
        .stdout(Stdio::null())
        .stderr(writer)
        .status()
        .unwrap();
    status.code()
}

/// An error met with a closed standard error still exits 1 (it used to panic, 101).
#[test]
fn an_error_on_a_closed_stderr_exits_1_not_101() {
    assert_eq!(
        with_closed_stderr(dominofit().args(["solve", "/nonexistent/board.json"])),
        Some(1)
    );
    // A usage error found after clap's checks: 2.
    assert_eq!(
        with_closed_stderr(dominofit().args(["solve", OBSERVED_6X6, "--backend", "nosuch"])),
        Some(2)
    );
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        with_closed_stderr(dominofit().arg("check-certificate").arg(dir.path())),
        Some(1)
    );
}

/// `--certify` writes its "certificate: …" line on standard error: a closed one is no
/// failure of the certificate.
#[test]
fn certify_on_a_closed_stderr_still_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("certs");
    assert_eq!(
        with_closed_stderr(
            dominofit()
                .args(["solve", OBSERVED_6X6, "--limit", "1", "--certify"])
                .arg(&certs)
        ),
        Some(0)
    );
    assert!(
        certs
            .join("observed-6x6")
            .join("certificate.json")
            .is_file()
    );
}

/// The first board of unsat.jsonl, as a file in `dir`.
fn unsat_board(dir: &std::path::Path) -> std::path::PathBuf {
    let workload = std::fs::read_to_string(UNSAT).unwrap();
    let path = dir.join("unsat.json");
    std::fs::write(&path, workload.lines().next().unwrap()).unwrap();
    path
}

/// `solve BOARD --limit 1 --certify DIR/certs` (with `extra` arguments), which must
/// succeed: the directory of bundles.
fn certified(dir: &std::path::Path, board: &std::path::Path, extra: &[&str]) -> std::path::PathBuf {
    let certs = dir.join("certs");
    let out = dominofit()
        .args(["solve", "--limit", "1"])
        .args(extra)
        .arg("--certify")
        .arg(&certs)
        .arg(board)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    certs
}

const UNSAT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/unsat.jsonl");

/// A checker named with --veripb that does not exist is said to be missing as named,
/// not "install veripb … or name it with --veripb".
#[test]
fn a_named_checker_that_does_not_exist_is_named_in_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let certs = certified(dir.path(), &unsat_board(dir.path()), &[]);
    for given in ["./missing-veripb", "no-such-veripb"] {
        let out = dominofit()
            .arg("check-certificate")
            .arg(&certs)
            .args(["--veripb", given])
            .output()
            .unwrap();
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(1), "{said}");
        assert!(
            said.contains(&format!(
                "the checker `{given}` named with --veripb is not a file"
            )),
            "{said}"
        );
        assert!(!said.contains("install veripb"), "{said}");
    }
}

/// A DRAT checker named with --checker that does not exist: the same, for the library's
/// own lookup.
#[test]
fn a_named_drat_checker_that_does_not_exist_is_named() {
    use dominofit::certify::ProofSystem;
    use dominofit::certify::check::Checker;
    let error = Checker::find(ProofSystem::Drat, Some("/no/such/rate")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the checker `/no/such/rate` named with --checker is not a file"
    );
    let error = Checker::find(ProofSystem::Drat, Some("no-such-rate")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the checker `no-such-rate` named with --checker is not a file on the PATH"
    );
}

/// An entry named like an unfinished bundle is rejected, not passed over: a tampered
/// bundle under that name used to leave the check at exit 0, "accepted".
#[test]
fn an_unfinished_bundle_is_rejected_not_passed_over() {
    let dir = tempfile::tempdir().unwrap();
    let certs = certified(dir.path(), std::path::Path::new(OBSERVED_6X6), &[]);
    // A copy of the good bundle, tampered with, under a `.partial-` name.
    let partial = certs.join(".partial-observed-6x6");
    std::fs::create_dir(&partial).unwrap();
    for entry in std::fs::read_dir(certs.join("observed-6x6")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), partial.join(entry.file_name())).unwrap();
    }
    std::fs::write(partial.join("solutions.jsonl"), "garbage\n").unwrap();
    let out = dominofit()
        .arg("check-certificate")
        .arg(&certs)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("observed-6x6: accepted"), "{stdout}");
    assert!(
        stdout.contains(
            ".partial-observed-6x6: rejected: not a certificate bundle: an unfinished bundle"
        ),
        "{stdout}"
    );
}

/// Board names that a spreadsheet would run as formulas are written behind a `'` in
/// runs.csv (CSV injection), and read back exactly: a merge of the file names the boards
/// as the race did.
#[test]
fn runs_csv_cells_never_open_as_formulas_and_merge_back_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let board: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(OBSERVED_6X6).unwrap()).unwrap();
    let names = [
        "=cmd|' /C calc'!A0",
        "+1+1",
        "-2+3",
        "@SUM(A1)",
        "\tTAB",
        "'quoted",
        "plain",
    ];
    let workload: String = names
        .iter()
        .map(|name| {
            let mut b = board.clone();
            b["name"] = serde_json::Value::String(name.to_string());
            format!("{b}\n")
        })
        .collect();
    let file = dir.path().join("w.jsonl");
    std::fs::write(&file, workload).unwrap();
    let out_dir = dir.path().join("out");
    let out = dominofit()
        .arg("race")
        .arg(&file)
        .args(["--backends", "native", "--repeat", "1", "--out"])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let raw = std::fs::read_to_string(out_dir.join("runs.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(raw.as_bytes());
    let cells: Vec<String> = reader
        .records()
        .map(|r| r.unwrap().get(1).unwrap().to_string())
        .collect();
    for cell in &cells {
        assert!(
            !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
            "a formula-looking cell: {cell:?}\n{raw}"
        );
    }
    assert!(cells.contains(&"'=cmd|' /C calc'!A0".to_string()), "{raw}");
    assert!(cells.contains(&"''quoted".to_string()), "{raw}");
    assert!(cells.contains(&"plain".to_string()), "{raw}");
    // Read back, and merged, the names are the race's.
    let rows = dominofit::race::read_runs_csv(raw.as_bytes(), "runs.csv").unwrap();
    let mut read: Vec<&str> = rows.iter().map(|r| r.instance.as_str()).collect();
    read.sort_unstable();
    let mut expected = names.to_vec();
    expected.sort_unstable();
    assert_eq!(read, expected);
    let merged = dir.path().join("merged");
    let out = dominofit()
        .args(["race", "--merge"])
        .arg(out_dir.join("runs.csv"))
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let again = std::fs::read_to_string(merged.join("runs.csv")).unwrap();
    assert_eq!(again, raw);
}

/// VeriPB's reason for a rejection is the same under the caller's `RUST_BACKTRACE=1`:
/// it used to read `…: 7: _start`, the last line of VeriPB's own backtrace.
#[test]
fn a_veripb_rejection_keeps_its_reason_under_rust_backtrace() {
    if !crate::common::program_available("veripb", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let certs = certified(dir.path(), &unsat_board(dir.path()), &[]);
    let bundle = std::fs::read_dir(&certs)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    // The proof's conclusion claims what its steps never derived.
    let proof = bundle.join("proof.pbp");
    let kept: Vec<String> = std::fs::read_to_string(&proof)
        .unwrap()
        .lines()
        .filter(|l| {
            l.starts_with("pseudo-Boolean")
                || l.starts_with("f ")
                || l.starts_with("output")
                || l.starts_with("conclusion")
                || l.starts_with("end")
        })
        .map(str::to_string)
        .collect();
    std::fs::write(&proof, kept.join("\n") + "\n").unwrap();
    let check = |backtrace: Option<&str>| {
        let mut command = dominofit();
        command.arg("check-certificate").arg(&certs);
        match backtrace {
            Some(value) => command.env("RUST_BACKTRACE", value),
            None => command.env_remove("RUST_BACKTRACE"),
        };
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let plain = check(None);
    assert!(plain.contains("rejected"), "{plain}");
    assert!(!plain.contains("_start"), "{plain}");
    for value in ["1", "full"] {
        assert_eq!(check(Some(value)), plain, "RUST_BACKTRACE={value}");
    }
}

/// `generate --rows 0` is a usage error (2), as `--rows 100000` is: both are sizes the
/// command line asked for, refused before any board is made.
#[test]
fn generate_refuses_every_bad_size_as_a_usage_error() {
    for (rows, cols) in [("0", "3"), ("3", "0"), ("100000", "3"), ("2049", "2048")] {
        let out = dominofit()
            .args(["generate", "--rows", rows, "--cols", cols])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{rows}x{cols}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty());
        assert_eq!(
            text(&out.stderr).lines().count(),
            1,
            "{}",
            text(&out.stderr)
        );
    }
}

/// A malformed line of a workload names its line once: "line 3: … at column 76", not
/// "line 3: … at line 1 column 76".
#[test]
fn a_malformed_workload_line_is_placed_once() {
    let dir = tempfile::tempdir().unwrap();
    let good = r#"{"name":"a","rows":1,"cols":2,"blocked":[],"row_clues":[2],"col_clues":[0,2]}"#;
    let file = dir.path().join("w.jsonl");
    std::fs::write(
        &file,
        format!(
            "{good}\n{}\n{}\n",
            good.replace("\"a\"", "\"b\""),
            &good[..good.len() - 2]
        ),
    )
    .unwrap();
    let out = dominofit().arg("solve").arg(&file).output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(": line 3: malformed JSON: "), "{stderr}");
    assert!(stderr.contains(" at column "), "{stderr}");
    assert!(!stderr.contains("at line 1"), "{stderr}");
    // A single-document file keeps the reader's line and column.
    let single = dir.path().join("b.json");
    std::fs::write(&single, "{\n\"name\": \"a\",\n\"rows\": }\n").unwrap();
    let out = dominofit().arg("solve").arg(&single).output().unwrap();
    let stderr = text(&out.stderr);
    assert!(stderr.contains("at line 3 column"), "{stderr}");
}

/// `generate --unique` keeps the boards it finished: a board whose check fails (here its
/// certificate's place is taken) is reported and skipped, the others are written, and
/// the exit status is 3; `--strict` stops at it and writes nothing.
#[test]
fn generate_skips_a_failed_board_and_keeps_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "generate", "--unique", "--rows", "6", "--cols", "6", "--count", "3",
    ];
    let plain = dominofit().args(args).output().unwrap();
    assert_eq!(plain.status.code(), Some(0), "{}", text(&plain.stderr));
    let boards: Vec<String> = text(&plain.stdout).lines().map(str::to_string).collect();
    assert_eq!(boards.len(), 3);
    let name = |line: &str| {
        serde_json::from_str::<serde_json::Value>(line).unwrap()["name"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for strict in [false, true] {
        let certs = dir.path().join(format!("certs-{strict}"));
        std::fs::create_dir(&certs).unwrap();
        std::fs::write(certs.join(name(&boards[1])), "in the way").unwrap();
        let out_file = dir.path().join(format!("out-{strict}.jsonl"));
        let mut command = dominofit();
        command
            .args(args)
            .arg("--certify")
            .arg(&certs)
            .arg("-o")
            .arg(&out_file);
        if strict {
            command.arg("--strict");
        }
        let out = command.output().unwrap();
        let stderr = text(&out.stderr);
        if strict {
            assert_eq!(out.status.code(), Some(1), "{stderr}");
            assert!(!out_file.exists());
        } else {
            assert_eq!(out.status.code(), Some(3), "{stderr}");
            assert!(stderr.contains("warning: board 2 skipped: "), "{stderr}");
            assert!(stderr.contains("2 boards written, 1 skipped"), "{stderr}");
            let written = std::fs::read_to_string(&out_file).unwrap();
            assert_eq!(written, format!("{}\n{}\n", boards[0], boards[2]));
        }
    }
}

/// Ctrl-C during `generate --unique` keeps the boards finished before it, whole, in the
/// output file, and leaves no temporary file.
#[test]
fn ctrl_c_during_generate_keeps_the_finished_boards() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("boards.jsonl");
    let temporary = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with(".dominofit-")
            })
    };
    let out_arg = out_file.to_string_lossy().into_owned();
    let out = crate::hardening::interrupt_when(
        &[
            "generate", "--unique", "--rows", "24", "--cols", "24", "--count", "1000", "-o",
            &out_arg,
        ],
        &[],
        || {
            temporary()
                .is_some_and(|t| std::fs::read_to_string(t).is_ok_and(|s| s.lines().count() >= 2))
        },
    );
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert!(written.lines().count() >= 2, "{written}");
    assert!(written.ends_with('\n'));
    for line in written.lines() {
        let board: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(board["name"].as_str().unwrap().starts_with("unique-24x24-"));
    }
    assert_eq!(temporary(), None);
}

/// Times in an output, made comparable: every number before ` ms` and every
/// `"time_ms":` value becomes `T`.
fn without_times(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("\"time_ms\":") {
            out.push_str("\"time_ms\":T");
            rest = after.trim_start_matches(|c: char| c.is_ascii_digit() || ".e-".contains(c));
            continue;
        }
        let number = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if number > 0 && rest[number..].starts_with(" ms") {
            out.push('T');
            rest = &rest[number..];
            continue;
        }
        let step = rest.chars().next().map_or(1, char::len_utf8).max(number);
        out.push_str(&rest[..step]);
        rest = &rest[step..];
    }
    out
}

/// Every shell example of README.md (a ```text block starting with `$ `) prints what
/// README shows, times aside: the `tiny` example used to leave out the board drawing.
#[test]
fn readme_examples_print_what_readme_shows() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let bin_dir = assert_cmd::cargo::cargo_bin("dominofit")
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut examples = 0;
    for block in readme.split("```text\n").skip(1) {
        let block = &block[..block.find("```").unwrap()];
        let Some(command) = block.lines().next().and_then(|l| l.strip_prefix("$ ")) else {
            continue;
        };
        let shown: String = block.lines().skip(1).map(|l| format!("{l}\n")).collect();
        let out = Command::new("sh")
            .args(["-c", command])
            .current_dir(root)
            .env("PATH", &path)
            .output()
            .unwrap();
        // A README block ends at its last line; the output may end in a blank one.
        assert_eq!(
            without_times(text(&out.stdout).trim_end()),
            without_times(shown.trim_end()),
            "README's `{command}`"
        );
        examples += 1;
    }
    assert!(examples >= 5, "{examples} examples found");
}

/// microlp looks at its time limit only between phases, and at 96×96 one phase takes
/// longer than a time limit allows beyond itself (a limit of 5 s ended after 14.9 s on a
/// loaded machine): under a time limit such models run in a worker, killed at the
/// deadline, not only the 256×256 ones.
#[test]
fn microlp_runs_planted_96_by_96_boards_in_a_worker_killed_at_each_deadline() {
    let boards: String = (0..3)
        .map(|k| {
            let (board, _) = dominofit::puzzle::generate::planted(96, 96, 11, k).unwrap();
            format!("{}\n", board.to_json())
        })
        .collect();
    crate::hardening::runs_in_a_worker_process_killed_at_each_deadline("microlp", boards);
}

/// A DRAT checker's verdict counts only with exit status 0: one that prints
/// `s VERIFIED` and exits 1 (or dies) does not verify anything.
#[test]
fn a_drat_verdict_needs_exit_status_0() {
    if !crate::common::program_available("cadical", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let certs = certified(dir.path(), &unsat_board(dir.path()), &["--prover", "auto"]);
    for (exit, accepted) in [("0", true), ("1", false), ("139", false)] {
        let checker = dir.path().join(format!("checker-{exit}.sh"));
        std::fs::write(
            &checker,
            format!("#!/bin/sh\necho 's VERIFIED'\nexit {exit}\n"),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&checker, std::fs::Permissions::from_mode(0o755)).unwrap();
        let out = dominofit()
            .arg("check-certificate")
            .arg(&certs)
            .arg("--checker")
            .arg(&checker)
            .output()
            .unwrap();
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code() == Some(0),
            accepted,
            "exit {exit}: {stdout}"
        );
        assert_eq!(
            stdout.contains(": accepted:"),
            accepted,
            "exit {exit}: {stdout}"
        );
    }
}

/// `--families raw` with the native engine is refused whatever the time limit: the
/// check no longer waits for a model that a short limit may stop compiling.
#[test]
fn raw_families_are_refused_before_compiling_whatever_the_limit() {
    let (board, _) = dominofit::puzzle::generate::planted_open(1024, 1024, 5, 0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("open.json");
    std::fs::write(&file, board.to_json()).unwrap();
    for timeout in ["0.001", "60"] {
        let out = dominofit()
            .arg("solve")
            .arg(&file)
            .args(["--families", "raw", "--timeout", timeout])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{timeout}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains("--families raw"),
            "{}",
            text(&out.stderr)
        );
    }
}
