//! The native engine's cutting-planes proofs, checked by VeriPB: on the whole exhaustive
//! domain (every unsat board refuted, every unique board refuted with its tiling ruled
//! out, and a board with two tilings caught when one is ruled out), and with every kind
//! of inference the engine logs made to happen and checked.

use std::path::Path;
use std::process::Command;

use crate::common::{Case, paper_cases, program_available};
use dominofit::backend::native::SearchOptions;
use dominofit::certify::pb::{self, Counts};
use dominofit::certify::prove::ProverVerdict;
use dominofit::puzzle::{Instance, Solution};

/// Whether veripb is installed (in CI it must be).
pub(crate) fn veripb_available() -> bool {
    program_available("veripb", "--version")
}

/// The rules and the proof of `instance` (with `blocked` ruled out) in `dir`, and what
/// VeriPB says of them: its status line.
pub(crate) fn prove_and_check(
    dir: &Path,
    instance: &Instance,
    blocked: Option<&Solution>,
    options: SearchOptions,
) -> (ProverVerdict, Counts, String) {
    let (proved, said) = prove_and_check_all(dir, instance, blocked, options);
    (proved.verdict, proved.counts, said)
}

/// [`prove_and_check`], with all the prover said.
pub(crate) fn prove_and_check_all(
    dir: &Path,
    instance: &Instance,
    blocked: Option<&Solution>,
    options: SearchOptions,
) -> (pb::Proved, String) {
    let rules = dir.join("rules.opb");
    let proof = dir.join("proof.pbp");
    std::fs::write(&rules, pb::rules_opb(instance, blocked).unwrap()).unwrap();
    let proved = pb::prove(instance, blocked, options, None, &proof).unwrap();
    if proved.verdict != ProverVerdict::Refuted {
        return (proved, String::new());
    }
    let said = veripb(&rules, &proof);
    (proved, said)
}

fn board(file: &str, name: &str) -> Instance {
    let path = format!("{}/models/{file}", env!("CARGO_MANIFEST_DIR"));
    dominofit::files::read_instances(&path)
        .unwrap()
        .into_iter()
        .find(|i| i.name == name)
        .unwrap()
}

/// Each kind of reasoning the search logs, made to happen by its options on a
/// committed board, and the proof checked by VeriPB: the small-board path's dead ends;
/// the general search's nogoods; colour imbalance; the matching filter's Hall sets;
/// line capacity; the LP's Farkas refutation of the root, and of nodes below it.
#[test]
fn every_kind_of_reasoning_the_search_logs_passes_veripb() {
    if !veripb_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let general = SearchOptions {
        small_boards: false,
        ..SearchOptions::default()
    };
    let no_lp = SearchOptions {
        farkas_after_failures: u64::MAX,
        ..general
    };
    let no_matching = SearchOptions {
        matching_root: false,
        matching_after_failures: u64::MAX,
        ..no_lp
    };
    type Check = fn(&pb::Proved) -> bool;
    let cases: [(&str, &str, &str, SearchOptions, Check); 7] = [
        (
            "small-board path dead ends",
            "unsat.jsonl",
            "unsat-8x8-s6604-1",
            SearchOptions::default(),
            |p| p.small_path && p.counts.nogoods > 1,
        ),
        (
            "general search dead ends",
            "unsat.jsonl",
            "unsat-8x8-s6604-1",
            no_matching,
            |p| !p.small_path && p.counts.nogoods > 1,
        ),
        (
            "colour imbalance",
            "unsat.jsonl",
            "unsat-16x16-s6604-3",
            no_matching,
            |p| p.counts.colours > 0 && p.counts.hall_sets == 0,
        ),
        (
            "Hall sets of the matching filter",
            "unsat.jsonl",
            "unsat-16x16-s6604-1",
            SearchOptions {
                matching: true,
                colour_balance: false,
                ..no_lp
            },
            |p| p.counts.hall_sets > 0 && p.counts.colours == 0,
        ),
        (
            "line capacity",
            "unsat.jsonl",
            "unsat-16x16-s6604-1",
            no_lp,
            |p| p.counts.capacities > 0,
        ),
        (
            "Farkas refutation of the root",
            "unsat-hard.jsonl",
            "unsat-16x16-s6605-1",
            general,
            |p| p.counts.farkas == 1,
        ),
        (
            "Farkas refutations at nodes",
            "unsat.jsonl",
            "unsat-8x8-s6604-1",
            SearchOptions {
                farkas_every_stall: true,
                ..no_matching
            },
            |p| p.counts.farkas > 0,
        ),
    ];
    for (kind, file, name, options, used) in cases {
        let (proved, said) = prove_and_check_all(dir.path(), &board(file, name), None, options);
        assert_eq!(proved.verdict, ProverVerdict::Refuted, "{kind}");
        assert!(used(&proved), "{kind}: {:?}", proved.counts);
        assert_eq!(
            said, "s VERIFIED UNSATISFIABLE",
            "{kind}: {:?}",
            proved.counts
        );
    }
    // Uniqueness: the observed boards, each tiling ruled out by the formula.
    for name in ["6x6", "7x7", "8x8"] {
        let path = format!("{}/models/observed/{name}", env!("CARGO_MANIFEST_DIR"));
        let instance = dominofit::files::read_instances(&format!("{path}.json"))
            .unwrap()
            .remove(0);
        let tiling = dominofit::files::read_solutions(&format!("{path}.solution.json"))
            .unwrap()
            .remove(0);
        for options in [SearchOptions::default(), general] {
            let (verdict, _, said) = prove_and_check(dir.path(), &instance, Some(&tiling), options);
            assert_eq!(verdict, ProverVerdict::Refuted, "observed {name}");
            assert_eq!(said, "s VERIFIED UNSATISFIABLE", "observed {name}");
        }
    }
}

/// VeriPB's `s` line for a formula and a proof, or its error's first line.
pub(crate) fn veripb(rules: &Path, proof: &Path) -> String {
    let out = Command::new("veripb")
        .arg(rules)
        .arg(proof)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    match stdout.lines().find(|l| l.starts_with("s ")) {
        Some(line) if out.status.success() => line.to_string(),
        _ => format!(
            "rejected: {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .take(4)
                .collect::<Vec<_>>()
                .join(" | ")
        ),
    }
}

fn name(case: &Case) -> String {
    let i = &case.instance;
    format!(
        "{}x{} blocked {:?} clues {:?}/{:?}",
        i.rows, i.cols, i.blocked, i.row_clues, i.col_clues
    )
}

/// Every board of the paper's exhaustive domain: an unsat board's proof, and a unique
/// board's proof with its tiling ruled out, pass VeriPB; a board with more tilings is
/// not refuted with one of them ruled out (the prover reports another tiling).
#[test]
fn every_proof_of_the_exhaustive_domain_passes_veripb() {
    if !veripb_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (mut unsat, mut unique, mut caught) = (0, 0, 0);
    for case in paper_cases() {
        let blocked = match case.expected.len() {
            0 => None,
            _ => Some(&case.expected[0]),
        };
        let (verdict, _, said) = prove_and_check(
            dir.path(),
            &case.instance,
            blocked,
            SearchOptions::default(),
        );
        match case.expected.len() {
            0 | 1 => {
                assert_eq!(verdict, ProverVerdict::Refuted, "{}", name(&case));
                assert_eq!(said, "s VERIFIED UNSATISFIABLE", "{}", name(&case));
                if case.expected.is_empty() {
                    unsat += 1;
                } else {
                    unique += 1;
                }
            }
            _ => {
                let ProverVerdict::Satisfiable(model) = verdict else {
                    panic!("{}: {verdict:?}", name(&case));
                };
                assert!(!model.is_empty(), "{}", name(&case));
                caught += 1;
            }
        }
    }
    assert!(
        unsat > 1000 && unique > 100 && caught >= 1,
        "{unsat} unsat, {unique} unique, {caught} with more tilings"
    );
}

/// Beyond the paper's domain (every mask of 3x4 and 4x3, samples of 4x4 and 4x5): a
/// board with two or more tilings, one ruled out, is never refuted, and the tiling the
/// prover reports instead is one of the others; every tenth unsat or unique board's
/// proof passes VeriPB.
#[test]
fn proofs_beyond_the_paper_domain_refute_exactly_what_has_no_other_tiling() {
    let check = veripb_available();
    let dir = tempfile::tempdir().unwrap();
    let (mut checked, mut caught) = (0, 0);
    for (k, case) in crate::common::extended_cases(400, 400).iter().enumerate() {
        let blocked = case.expected.first();
        if case.expected.len() >= 2 {
            let proof = dir.path().join("proof.pbp");
            let proved = pb::prove(
                &case.instance,
                blocked,
                SearchOptions::default(),
                None,
                &proof,
            )
            .unwrap();
            let ProverVerdict::Satisfiable(model) = proved.verdict else {
                panic!("{}: {:?}", name(case), proved.verdict);
            };
            let placements =
                dominofit::model::compile(&case.instance, dominofit::model::Families::RawSums)
                    .placements;
            let tiling = Solution::from_pieces(model.iter().map(|&v| placements[v as usize - 1]));
            assert!(
                case.expected[1..].contains(&tiling),
                "{}: {tiling:?}",
                name(case)
            );
            caught += 1;
        } else if check && k % 10 == 0 {
            let (verdict, _, said) = prove_and_check(
                dir.path(),
                &case.instance,
                blocked,
                SearchOptions::default(),
            );
            assert_eq!(verdict, ProverVerdict::Refuted, "{}", name(case));
            assert_eq!(said, "s VERIFIED UNSATISFIABLE", "{}", name(case));
            checked += 1;
        }
    }
    assert!(caught >= 50, "{caught} boards with more tilings");
    assert!(!check || checked > 1000, "{checked} proofs checked");
}

/// Boards whose clues pass or fail clue inversion in every way: random holes, random
/// crossing counts, and the clues those counts give (so rows and columns agree as often
/// as they disagree).
fn inversion_samples(attempts: u64) -> Vec<Instance> {
    let mut rng = crate::common::Sample(9);
    let mut out = Vec::new();
    for attempt in 0..attempts {
        let (rows, cols) = (3 + (attempt % 4) as usize, 3 + (attempt / 4 % 4) as usize);
        let blocked: Vec<bool> = (0..rows * cols)
            .map(|_| rng.next().is_multiple_of(6))
            .collect();
        let open = |r: usize, c: usize| r < rows && c < cols && !blocked[r * cols + c];
        let count = |it: &mut dyn Iterator<Item = bool>| it.filter(|&x| x).count() as u64;
        let n: Vec<u64> = (0..rows)
            .map(|r| count(&mut (0..cols).map(|c| open(r, c))))
            .collect();
        let b: Vec<u64> = (0..cols)
            .map(|c| count(&mut (0..rows).map(|r| open(r, c))))
            .collect();
        let u: Vec<u64> = (0..rows)
            .map(|i| {
                let cap = count(&mut (0..cols).map(|c| open(i, c) && open(i + 1, c)));
                rng.next() % (cap + 1)
            })
            .collect();
        let row_clues: Vec<u64> = (0..rows)
            .map(|i| n[i].saturating_sub(if i == 0 { 0 } else { u[i - 1] }))
            .collect();
        let t: Vec<u64> = (0..cols)
            .map(|j| {
                let cap = count(&mut (0..rows).map(|r| open(r, j) && open(r, j + 1)));
                rng.next() % (cap + 1)
            })
            .collect();
        // C_j = q_j + 2 t_{j-1}, with q_j = (b_j - t_{j-1} - t_j) / 2.
        let col_clues: Vec<u64> = (0..cols)
            .map(|j| {
                let before = if j == 0 { 0 } else { t[j - 1] };
                b[j].saturating_sub(before + t[j]) / 2 + 2 * before
            })
            .collect();
        out.push(crate::common::instance(
            rows,
            cols,
            &blocked,
            &(row_clues, col_clues),
        ));
    }
    out
}

/// Each way clue inversion refutes a board (the reason's kind, and whether the count
/// was negative, odd or beyond the room there is), proved by the engine's derivation and
/// checked by VeriPB: five boards of each.
#[test]
fn every_way_clue_inversion_refutes_is_proved() {
    use dominofit::model::Infeasibility::*;
    if !veripb_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut proved: std::collections::BTreeMap<String, usize> = Default::default();
    let boards = paper_cases()
        .into_iter()
        .map(|c| c.instance)
        .chain(inversion_samples(400_000));
    for instance in boards {
        let model = dominofit::model::compile(&instance, dominofit::model::Families::ColourSplits);
        let Some(reason) = model.infeasible else {
            continue;
        };
        let why = |need: i128, odd: bool| {
            if need < 0 {
                "negative"
            } else if odd {
                "odd"
            } else {
                "beyond its room"
            }
        };
        let kind = match reason {
            OddArea { .. } => "odd area".to_string(),
            UnequalTotals { .. } => "unequal totals".to_string(),
            TotalOutOfRange { .. } => "total out of range".to_string(),
            TopRow { .. } => "top row".to_string(),
            VerticalCut { need, .. } => format!("vertical cut {}", why(need, false)),
            RowHorizontal { need_halves, .. } => {
                format!("row horizontal {}", why(need_halves, need_halves % 2 != 0))
            }
            HorizontalCut {
                col, cols, need, ..
            } if col == cols => {
                format!("horizontal cut at the edge {}", why(need, false))
            }
            HorizontalCut { need, .. } => format!("horizontal cut {}", why(need, false)),
            ColumnVertical { need, .. } => format!("column vertical {}", why(need, false)),
            VerticalColour { need_halves, .. } => {
                format!("vertical colour {}", why(need_halves, need_halves % 2 != 0))
            }
            HorizontalColour { need_halves, .. } => {
                format!(
                    "horizontal colour {}",
                    why(need_halves, need_halves % 2 != 0)
                )
            }
            other => format!("{other:?}"),
        };
        let done = proved.entry(kind.clone()).or_insert(0);
        if *done >= 5 {
            continue;
        }
        *done += 1;
        let (verdict, counts, said) =
            prove_and_check(dir.path(), &instance, None, SearchOptions::default());
        assert_eq!(verdict, ProverVerdict::Refuted, "{kind}: {instance:?}");
        assert_eq!(counts.nogoods, 0, "{kind}: refuted by inversion alone");
        assert_eq!(said, "s VERIFIED UNSATISFIABLE", "{kind}: {instance:?}");
    }
    for kind in [
        "odd area",
        "unequal totals",
        "total out of range",
        "top row",
        "vertical cut negative",
        "row horizontal negative",
        "row horizontal odd",
        "row horizontal beyond its room",
        "horizontal cut negative",
        "horizontal cut beyond its room",
        "horizontal cut at the edge negative",
        "horizontal cut at the edge beyond its room",
        "column vertical beyond its room",
        "vertical colour",
        "horizontal colour",
    ] {
        assert!(
            proved.keys().any(|k| k.starts_with(kind)),
            "{kind} never met: {proved:?}"
        );
    }
}

/// A portfolio logs its winner's proof: the members race, each into a file of its own,
/// and the winner's becomes the proof; no member's file is left.
#[test]
fn a_portfolio_keeps_its_winners_proof() {
    if !veripb_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let members = dominofit::backend::registry::proof_searches(
        "portfolio",
        &dominofit::backend::BackendOptions::default(),
    );
    assert_eq!(members.len(), 2);
    for (file, name) in [
        ("unsat.jsonl", "unsat-16x16-s6604-1"),
        ("unsat-hard.jsonl", "unsat-24x24-s6605-4"),
    ] {
        let instance = board(file, name);
        let rules = dir.path().join("rules.opb");
        let proof = dir.path().join("proof.pbp");
        std::fs::write(&rules, pb::rules_opb(&instance, None).unwrap()).unwrap();
        let proved = pb::prove_by_any(&instance, None, &members, None, &proof).unwrap();
        assert_eq!(proved.verdict, ProverVerdict::Refuted, "{name}");
        assert_eq!(veripb(&rules, &proof), "s VERIFIED UNSATISFIABLE", "{name}");
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["proof.pbp", "rules.opb"], "{name}");
    }
}
