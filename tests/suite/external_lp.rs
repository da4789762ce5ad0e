//! Exported LP and free MPS files solved by external ILP programs (Debian's `cbc` and
//! `glpsol`), their solutions read back through the variable names `v_R_C`/`h_R_C`, pass
//! `dominofit verify`; an infeasible board is refuted by both, in both formats.
//!
//! Both programs exit 0 even when the model is infeasible, so the verdict is read from
//! their solution files. Without a program its part is skipped, except under CI
//! (`CI=true`), where a missing solver is a failure (`scripts/install-solvers.sh`).

use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::cargo_bin;

/// The value of every variable the solution file names, or None if infeasible.
type Values = Option<Vec<(String, f64)>>;

fn run_cbc(lp: &Path, out: &Path) -> Values {
    crate::common::succeed(Command::new("cbc").arg(lp).args(["solve", "solu"]).arg(out));
    let text = std::fs::read_to_string(out).unwrap();
    let first = text.lines().next().unwrap_or_default();
    if first.starts_with("Infeasible") || first.contains("infeasible") {
        return None;
    }
    assert!(first.starts_with("Optimal"), "cbc: {first}");
    // "   index name value reduced-cost"
    Some(
        text.lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (f[1].to_string(), f[2].parse().unwrap())
            })
            .collect(),
    )
}

fn run_glpsol(lp: &Path, out: &Path) -> Values {
    // `-o` writes the printable report, which names the columns (`-w` would number them
    // in order of first appearance instead).
    let format = if lp.extension().is_some_and(|e| e == "mps") {
        "--freemps"
    } else {
        "--lp"
    };
    crate::common::succeed(
        Command::new("glpsol")
            .arg(format)
            .arg(lp)
            .arg("-o")
            .arg(out),
    );
    let text = std::fs::read_to_string(out).unwrap();
    let verdict = text
        .lines()
        .find(|l| l.starts_with("Status:"))
        .unwrap()
        .to_string();
    if verdict.contains("EMPTY") || verdict.contains("INFEASIBLE") || verdict.contains("UNDEFINED")
    {
        return None;
    }
    assert!(verdict.contains("OPTIMAL"), "glpsol: {verdict}");
    let columns = text.split("Column name").nth(1).unwrap();
    Some(
        columns
            .lines()
            .skip(2)
            .take_while(|l| !l.trim().is_empty())
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                // "No. name * activity lower upper" (the `*` marks integer columns)
                let value = if f[2] == "*" { f[3] } else { f[2] };
                (f[1].to_string(), value.parse().unwrap())
            })
            .collect(),
    )
}

fn round_trip(
    instance: &Path,
    families: &str,
    dir: &Path,
    solver: fn(&Path, &Path) -> Values,
    format: &str,
) -> bool {
    let lp = dir.join(format!("model.{format}"));
    crate::common::succeed(
        Command::new(cargo_bin("dominofit"))
            .arg("emit")
            .arg(instance)
            .args(["--to", format, "--families", families, "-o"])
            .arg(&lp),
    );
    let Some(values) = solver(&lp, &dir.join("solution.txt")) else {
        return false;
    };
    let mut vertical = Vec::new();
    let mut horizontal = Vec::new();
    for (name, value) in values {
        if value < 0.5 {
            continue;
        }
        let parts: Vec<&str> = name.split('_').collect();
        let cell = [
            parts[1].parse::<usize>().unwrap(),
            parts[2].parse::<usize>().unwrap(),
        ];
        match parts[0] {
            "v" => vertical.push(cell),
            "h" => horizontal.push(cell),
            _ => {}
        }
    }
    crate::common::assert_verifies(instance, &vertical, &horizontal, dir);
    true
}

fn exercise(solver: fn(&Path, &Path) -> Values, format: &str) {
    let dir = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    for board in ["6x6", "7x7", "8x8"] {
        let path = Path::new(root).join(format!("models/observed/{board}.json"));
        for families in ["minimal", "all", "colour", "raw"] {
            assert!(
                round_trip(&path, families, dir.path(), solver, format),
                "{board} {families} {format}"
            );
        }
    }
    for path in crate::common::planted_files(dir.path(), 10, 10, 3, 4) {
        assert!(round_trip(&path, "all", dir.path(), solver, format));
    }
    let unsat = dir.path().join("unsat.json");
    std::fs::write(
        &unsat,
        r#"{"rows": 2, "cols": 3, "blocked": [], "row_clues": [3, 3], "col_clues": [1, 3, 2]}"#,
    )
    .unwrap();
    assert!(!round_trip(&unsat, "raw", dir.path(), solver, format));
    assert!(!round_trip(&unsat, "all", dir.path(), solver, format));
}

#[test]
fn cbc_solves_exported_lp() {
    if crate::common::program_available("cbc", "-quit") {
        exercise(run_cbc, "lp");
    }
}

#[test]
fn glpsol_solves_exported_lp() {
    if crate::common::program_available("glpsol", "--version") {
        exercise(run_glpsol, "lp");
    }
}

#[test]
fn cbc_solves_exported_mps() {
    if crate::common::program_available("cbc", "-quit") {
        exercise(run_cbc, "mps");
    }
}

#[test]
fn glpsol_solves_exported_mps() {
    if crate::common::program_available("glpsol", "--version") {
        exercise(run_glpsol, "mps");
    }
}
