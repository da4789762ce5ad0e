//! The repair engine against the complete solution sets of the exhaustive domain: it
//! answers only with a tiling of the set (never on a board whose set is empty), and on
//! boards with a tiling it finds one; the default solve with the repair taking turns
//! answers the paper protocol's large boards with tilings the verifier accepts.

use dominofit::backend::Budget;
use dominofit::backend::native::repair::{Repair, Repaired};
use dominofit::model::{Families, compile};

use crate::common::{extended_cases, paper_cases};

#[test]
fn the_repair_answers_only_with_tilings_of_the_complete_set() {
    let cases: Vec<_> = paper_cases()
        .into_iter()
        .chain(extended_cases(60, 60))
        .collect();
    let (mut solved, mut with_tiling, mut without) = (0, 0, 0);
    for case in &cases {
        let model = compile(&case.instance, Families::AllQuotas);
        with_tiling += usize::from(!case.expected.is_empty());
        without += usize::from(case.expected.is_empty());
        let Ok(Some(mut repair)) = Repair::new(&model, 7, &Budget::unlimited()) else {
            // No quotas (clue inversion refuted the board) or no tiling of the open
            // cells at all: then no tiling meets the clues either.
            assert!(
                case.expected.is_empty(),
                "{}: no repair for a board with a tiling",
                crate::common::label(&case.instance)
            );
            continue;
        };
        match repair.run(&model, 200_000, &Budget::unlimited()) {
            Repaired::Solved(ids) => {
                let tiling = model.decode(&ids);
                assert!(
                    case.expected.contains(&tiling),
                    "{}: {tiling:?} is not a tiling of the board",
                    crate::common::label(&case.instance)
                );
                solved += 1;
            }
            Repaired::Unsolved => {}
            Repaired::Stopped => panic!("no budget was set"),
        }
    }
    assert!(cases.len() > 1000, "{}", cases.len());
    assert!(
        without > 100,
        "{without} boards without a tiling (each refused or run out of moves, never answered)"
    );
    assert_eq!(solved, with_tiling, "boards with a tiling left unsolved");
}

/// `solve` on paper-protocol boards from 256×256 to 2048×2048 made here: decided `sat`
/// (the descent alone left the 256×256 ones `unknown` after a minute) with a tiling the
/// verifier accepts, and the same bytes twice; and refused with its memory figures,
/// nothing on standard output, under a `--memory` it does not fit.
#[test]
fn the_default_decides_paper_protocol_boards_from_256_to_2048() {
    use crate::hardening::dominofit;
    let dir = tempfile::tempdir().unwrap();
    for side in ["256", "384", "1024", "2048"] {
        let board = dir.path().join(format!("paper-{side}.json"));
        let made = dominofit()
            .args([
                "generate",
                "--tiling",
                "backtrack",
                "--rows",
                side,
                "--cols",
                side,
            ])
            .args(["--seed", "54", "-o"])
            .arg(&board)
            .output()
            .unwrap();
        assert!(made.status.success());
        let solve = || {
            let out = dominofit()
                .arg("solve")
                .arg(&board)
                .args(["--format", "json", "--timeout", "600"])
                // A budget of its own: the default, half the memory free, depends on
                // what else the machine runs (the 2048×2048 board plans 1.8 GiB).
                .args(["--memory", "3072"])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{side}");
            let mut report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            report["stats"]["time_ms"] = serde_json::Value::Null;
            report
        };
        let first = solve();
        assert_eq!(first["status"], "sat", "{side}");
        let tiling = dir.path().join("tiling.json");
        std::fs::write(&tiling, first["solutions"][0].to_string()).unwrap();
        let verified = dominofit()
            .arg("verify")
            .arg(&board)
            .arg(&tiling)
            .output()
            .unwrap();
        assert!(verified.status.success(), "{side}");
        assert_eq!(first, solve(), "{side}: not the same answer twice");
        if side == "1024" {
            let out = dominofit()
                .arg("solve")
                .arg(&board)
                .args(["--memory", "200"])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(1));
            assert!(out.stdout.is_empty());
            let said = String::from_utf8_lossy(&out.stderr);
            assert!(
                said.contains("would need about 507 MiB of memory (the model 161 MiB, the solver 346 MiB), more than the 200 MiB allowed"),
                "{said}"
            );
            // The same plan when the search logs its proof as it answers.
            let proofs = dir.path().join("proofs");
            let out = dominofit()
                .arg("solve")
                .arg(&board)
                .args(["--memory", "200", "--certify"])
                .arg(&proofs)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(1));
            let said = String::from_utf8_lossy(&out.stderr);
            assert!(said.contains("the solver 346 MiB"), "{said}");
        }
    }
}
