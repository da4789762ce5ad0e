//! The shipped JSON Schemas (`schemas/`): equal to what `dominofit schema` generates from
//! the types that write the JSON, and met by the real outputs of every JSON-writing
//! command across backends and answers.

use std::process::Command;

use assert_cmd::cargo::cargo_bin;

use crate::common::schema::{validated, validated_lines};

fn dominofit() -> Command {
    Command::new(cargo_bin("dominofit"))
}

fn root(path: &str) -> String {
    format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// Stdout of a run that exits 0 (or 3, `unknown`, when `unknown_ok`).
fn stdout_of(command: &mut Command, unknown_ok: bool) -> Vec<u8> {
    let out = command.output().unwrap();
    let allowed: &[i32] = if unknown_ok { &[0, 3] } else { &[0] };
    assert!(
        out.status.code().is_some_and(|c| allowed.contains(&c)),
        "{command:?}: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn contract_names() -> Vec<String> {
    let listing = stdout_of(dominofit().arg("schema"), false);
    String::from_utf8(listing)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn shipped_schemas_are_the_generated_ones() {
    let names = contract_names();
    assert!(names.len() >= 9, "{names:?}");
    for name in &names {
        let generated = stdout_of(dominofit().args(["schema", name]), false);
        let path = root(&format!("schemas/{name}.schema.json"));
        let shipped = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(
            generated == shipped,
            "{path} differs from `dominofit schema {name}`; regenerate it with \
             scripts/update-schemas.sh"
        );
    }
    // And no schema file is left over from a contract that is gone.
    for entry in std::fs::read_dir(root("schemas")).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let name = file.strip_suffix(".schema.json").unwrap_or(&file);
        assert!(
            names.iter().any(|n| n == name),
            "schemas/{file} has no contract"
        );
    }
}

#[test]
fn an_unknown_schema_is_a_usage_error() {
    let out = dominofit().args(["schema", "nope"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no schema named `nope`"));
}

/// The check can fail: a changed status, an unknown field and a missing field are each
/// rejected.
#[test]
fn the_schemas_reject_what_the_format_does_not_allow() {
    let line = String::from_utf8(stdout_of(
        dominofit().args([
            "solve",
            &root("models/observed/6x6.json"),
            "--format",
            "json",
        ]),
        false,
    ))
    .unwrap();
    // A streamed end with the tilings of a solve line.
    let streamed = stdout_of(
        dominofit().args([
            "solve",
            &root("models/observed/6x6.json"),
            "--format",
            "jsonl",
        ]),
        false,
    );
    let mut end = validated_lines("solve-jsonl", &streamed).pop().unwrap();
    end["solutions"] = serde_json::json!([]);
    let text = end.to_string();
    assert!(std::panic::catch_unwind(|| validated("solve-jsonl", &text)).is_err());
    let value = validated("solve", &line);
    let mut wrong = Vec::new();
    let mut bad_status = value.clone();
    bad_status["status"] = "maybe".into();
    wrong.push(bad_status);
    let mut extra = value.clone();
    extra["stats"]["speed"] = 1.into();
    wrong.push(extra);
    let mut missing = value.clone();
    missing.as_object_mut().unwrap().remove("complete");
    wrong.push(missing);
    // The streamed end's field on a solve line, a tiling list left out, a zero-based
    // cell, and null for a counter that is left out when it has no value.
    let mut streamed = value.clone();
    streamed["found"] = 1.into();
    wrong.push(streamed);
    let mut no_tilings = value.clone();
    no_tilings.as_object_mut().unwrap().remove("solutions");
    wrong.push(no_tilings);
    let mut zero_based = value.clone();
    zero_based["solutions"][0]["vertical"][0] = serde_json::json!([0, 1]);
    wrong.push(zero_based);
    let mut null = value.clone();
    null["stats"]["nodes"] = serde_json::Value::Null;
    wrong.push(null);
    for value in wrong {
        let text = value.to_string();
        let caught = std::panic::catch_unwind(|| validated("solve", &text));
        assert!(caught.is_err(), "accepted: {text}");
    }
}

#[test]
fn solve_and_count_outputs_meet_their_schemas_on_every_backend() {
    // The DP and the lowerings on the small boards; the searches on the unsat workload too
    // (`reason` in stats, and boards the DP refuses as too wide).
    let small = [
        "native",
        "native-matching",
        "portfolio",
        "dp",
        "varisat",
        "microlp",
    ];
    let searches = ["native", "native-matching", "portfolio"];
    let runs = [
        ("models/observed.jsonl", &small[..]),
        ("models/game.jsonl", &small[..]),
        ("models/unsat.jsonl", &searches[..]),
    ];
    let mut checked = 0;
    for (workload, backends) in runs {
        for &backend in backends {
            for limit in ["1", "2"] {
                let out = stdout_of(
                    dominofit().args([
                        "solve",
                        &root(workload),
                        "--backend",
                        backend,
                        "--limit",
                        limit,
                        "--format",
                        "json",
                        "--timeout",
                        "20",
                    ]),
                    true,
                );
                checked += validated_lines("solve", &out).len();
            }
            let out = stdout_of(
                dominofit().args([
                    "count",
                    &root(workload),
                    "--backend",
                    backend,
                    "--format",
                    "json",
                    "--timeout",
                    "20",
                ]),
                true,
            );
            checked += validated_lines("count", &out).len();
        }
    }
    // Benchmark mode (`repeat`) and a stopped search (`stopped`, status unknown).
    let out = stdout_of(
        dominofit().args([
            "solve",
            &root("models/observed.jsonl"),
            "--repeat",
            "2",
            "--format",
            "json",
        ]),
        false,
    );
    checked += validated_lines("solve", &out).len();
    let out = stdout_of(
        dominofit().args([
            "solve",
            &root("models/huge.jsonl"),
            "--limit",
            "0",
            "--timeout",
            "0.01",
            "--format",
            "json",
        ]),
        true,
    );
    let stopped = validated_lines("solve", &out);
    assert!(stopped.iter().any(|v| v["status"] == "unknown"));
    checked += stopped.len();
    let out = stdout_of(
        dominofit().args([
            "solve",
            &root("models/observed.jsonl"),
            "--limit",
            "0",
            "--format",
            "jsonl",
        ]),
        false,
    );
    checked += validated_lines("solve-jsonl", &out).len();
    assert!(checked > 1000, "{checked}");
}

#[test]
fn the_other_outputs_meet_their_schemas() {
    let out = stdout_of(dominofit().args(["backends", "--format", "json"]), false);
    let lines = validated_lines("backends", &out);
    assert!(lines.iter().any(|v| v["name"] == "native"));

    for board in ["models/observed.jsonl", "models/unsat.jsonl"] {
        for families in ["minimal", "all", "colour", "raw"] {
            let dir = tempfile::tempdir().unwrap();
            stdout_of(
                dominofit()
                    .args([
                        "emit",
                        &root(board),
                        "--to",
                        "model-json",
                        "--families",
                        families,
                    ])
                    .arg("-o")
                    .arg(dir.path()),
                false,
            );
            for entry in std::fs::read_dir(dir.path()).unwrap() {
                let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
                validated("model", &text);
            }
        }
    }

    for kind in [&[][..], &["--unique"][..], &["--open"][..]] {
        let out = stdout_of(
            dominofit()
                .args(["generate", "--rows", "6", "--cols", "7", "--count", "3"])
                .args(kind),
            false,
        );
        assert_eq!(validated_lines("instance", &out).len(), 3);
    }
    for name in ["6x6", "7x7", "8x8"] {
        let dir = root("models/observed");
        validated(
            "instance",
            &std::fs::read_to_string(format!("{dir}/{name}.json")).unwrap(),
        );
        validated(
            "solution",
            &std::fs::read_to_string(format!("{dir}/{name}.solution.json")).unwrap(),
        );
    }

    // Grades of unique, unsat and several-tiling boards.
    for board in ["models/game.jsonl", "models/unsat.jsonl"] {
        let out = stdout_of(
            dominofit().args(["grade", &root(board), "--format", "json"]),
            false,
        );
        let lines = validated_lines("grade", &out);
        assert!(lines.iter().any(|v| v["level"].is_string()), "{board}");
    }

    // Walkthroughs and hints: solved, stuck, refuted, from a player's moves.
    let trial = root("models/levels.jsonl");
    for args in [
        vec!["explain", &trial, "--instance", "trial-8x8-s5-1"],
        vec!["explain", &trial, "--instance", "pairs-8x8-s5-1"],
        vec!["hint", &trial, "--instance", "trial-8x8-s5-1"],
        vec!["explain", "models/observed/8x8.json"],
    ] {
        let args: Vec<String> = args
            .iter()
            .map(|a| {
                if a.starts_with("models/") {
                    root(a)
                } else {
                    a.to_string()
                }
            })
            .collect();
        let out = stdout_of(dominofit().args(&args).args(["--format", "json"]), false);
        let walk = validated("walkthrough", std::str::from_utf8(&out).unwrap());
        assert!(
            walk["steps"].as_array().is_some_and(|s| !s.is_empty()),
            "{args:?}"
        );
    }

    // What the tilings share, with a change that makes a board unique.
    let out = stdout_of(
        dominofit().args(["shared", &root("models/game.jsonl"), "--format", "json"]),
        false,
    );
    let lines = validated_lines("shared", &out);
    assert!(lines.iter().any(|v| v["change"]["board"]["rows"].is_u64()));

    // A certificate bundle, with the built-in prover so that no program is needed.
    let dir = tempfile::tempdir().unwrap();
    stdout_of(
        dominofit()
            .args(["solve", &root("models/observed/6x6.json"), "--limit", "2"])
            .args(["--prover", "varisat", "--certify"])
            .arg(dir.path()),
        false,
    );
    let bundle = dir.path().join("observed-6x6");
    validated(
        "certificate",
        &std::fs::read_to_string(bundle.join("certificate.json")).unwrap(),
    );
    validated(
        "instance",
        &std::fs::read_to_string(bundle.join("instance.json")).unwrap(),
    );
    let tilings = std::fs::read(bundle.join("solutions.jsonl")).unwrap();
    assert_eq!(validated_lines("solution", &tilings).len(), 1);

    let out_dir = tempfile::tempdir().unwrap();
    stdout_of(
        dominofit()
            .args(["race", &root("models/observed.jsonl")])
            .args(["--backends", "native,dp", "--repeat", "1", "--out"])
            .arg(out_dir.path()),
        false,
    );
    let summary = std::fs::read_to_string(out_dir.path().join("summary.json")).unwrap();
    let summary = validated("race-summary", &summary);
    assert_eq!(summary["backends"]["native"]["solved"], 3);
}
