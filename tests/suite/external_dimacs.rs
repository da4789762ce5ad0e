//! An exported DIMACS file solved by an external SAT solver (Debian's `cadical`), its
//! model decoded through the file's own `c var` lines, passes `dominofit verify`: the
//! whole round trip a user makes, through files and processes only.
//!
//! Without the program the test is skipped, except under CI (`CI=true`), where a missing
//! solver is a failure: `.ci/run` installs it with `scripts/install-solvers.sh`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::cargo_bin;

/// Reads `c var K V|H R C` lines: variable -> (kind, row, col).
fn placement_table(dimacs: &str) -> BTreeMap<i64, (char, usize, usize)> {
    dimacs
        .lines()
        .filter_map(|l| l.strip_prefix("c var "))
        .map(|rest| {
            let f: Vec<&str> = rest.split_whitespace().collect();
            (
                f[0].parse().unwrap(),
                (
                    f[1].chars().next().unwrap(),
                    f[2].parse().unwrap(),
                    f[3].parse().unwrap(),
                ),
            )
        })
        .collect()
}

/// Runs the solver; returns the true variables, or None for UNSATISFIABLE.
fn run_cadical(cnf_path: &std::path::Path) -> Option<Vec<i64>> {
    let out = Command::new("cadical")
        .arg("-q")
        .arg(cnf_path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    match out.status.code() {
        Some(20) => {
            assert!(
                text.lines().any(|l| l.trim() == "s UNSATISFIABLE"),
                "{text}"
            );
            None
        }
        Some(10) => {
            assert!(text.lines().any(|l| l.trim() == "s SATISFIABLE"), "{text}");
            // Models may wrap over several `v` lines; read until the closing 0.
            let values: Vec<i64> = text
                .lines()
                .filter_map(|l| l.strip_prefix("v "))
                .flat_map(|l| l.split_whitespace().map(|t| t.parse::<i64>().unwrap()))
                .take_while(|&v| v != 0)
                .filter(|&v| v > 0)
                .collect();
            Some(values)
        }
        other => panic!("cadical exited with {other:?}: {text}"),
    }
}

fn round_trip(instance_path: &str, encoding: &str, families: &str, dir: &std::path::Path) -> bool {
    let cnf = dir.join("model.cnf");
    crate::common::succeed(
        Command::new(cargo_bin("dominofit"))
            .args([
                "emit",
                instance_path,
                "--to",
                "dimacs",
                "--encoding",
                encoding,
                "--families",
                families,
                "-o",
            ])
            .arg(&cnf),
    );
    let dimacs = std::fs::read_to_string(&cnf).unwrap();
    let table = placement_table(&dimacs);
    let Some(true_vars) = run_cadical(&cnf) else {
        return false;
    };
    let mut vertical = Vec::new();
    let mut horizontal = Vec::new();
    for v in true_vars {
        if let Some(&(kind, r, c)) = table.get(&v) {
            match kind {
                'V' => vertical.push([r, c]),
                'H' => horizontal.push([r, c]),
                _ => panic!("bad kind {kind}"),
            }
        }
    }
    crate::common::assert_verifies(Path::new(instance_path), &vertical, &horizontal, dir);
    true
}

#[test]
fn cadical_solves_exported_dimacs() {
    if !crate::common::program_available("cadical", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    for board in ["6x6", "7x7", "8x8"] {
        let path = format!("{root}/models/observed/{board}.json");
        for encoding in ["pairwise", "sequential", "totalizer", "sorting-network"] {
            for families in ["minimal", "all", "colour", "raw"] {
                assert!(
                    round_trip(&path, encoding, families, dir.path()),
                    "{board} is satisfiable"
                );
            }
        }
    }
    // Planted boards, and an unsatisfiable one that cadical must refute.
    for path in crate::common::planted_files(dir.path(), 12, 12, 4, 8) {
        assert!(round_trip(
            path.to_str().unwrap(),
            "totalizer",
            "all",
            dir.path()
        ));
    }
    let unsat = dir.path().join("unsat.json");
    std::fs::write(
        &unsat,
        r#"{"rows": 2, "cols": 3, "blocked": [], "row_clues": [3, 3], "col_clues": [1, 3, 2]}"#,
    )
    .unwrap();
    assert!(!round_trip(
        unsat.to_str().unwrap(),
        "totalizer",
        "raw",
        dir.path()
    ));
    assert!(!round_trip(
        unsat.to_str().unwrap(),
        "totalizer",
        "all",
        dir.path()
    ));
}
