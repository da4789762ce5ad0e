//! Certificates: the raw-rules CNF rebuilt by an implementation of its own (from
//! docs/CERTIFICATES.md, sharing nothing with `lower/`), its meaning checked against the
//! brute-force enumerator, and bundles produced by `solve --certify` accepted by an
//! external DRAT checker and rejected once tampered with.

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::cargo_bin;

use crate::common::{Case, extended_cases, paper_cases, program_available, succeed};
use dominofit::certify::{self, ProverVerdict};
use dominofit::puzzle::{Instance, Solution};

fn dominofit() -> Command {
    Command::new(cargo_bin("dominofit"))
}

fn model(path: &str) -> String {
    format!("{}/models/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// The rules CNF of docs/CERTIFICATES.md, written from the document alone.
fn rebuild(board: &Instance, blocked: Option<&Solution>) -> String {
    let (m, n) = (board.rows, board.cols);
    let open = |r: usize, c: usize| r < m && c < n && !board.blocked[r * n + c];
    // (row, col, vertical?) of each placement, numbered from 1.
    let mut pieces: Vec<(usize, usize, bool)> = Vec::new();
    for r in 0..m {
        for c in 0..n {
            if !open(r, c) {
                continue;
            }
            if open(r + 1, c) {
                pieces.push((r, c, true));
            }
            if open(r, c + 1) {
                pieces.push((r, c, false));
            }
        }
    }
    let number = |piece: (usize, usize, bool)| {
        pieces
            .iter()
            .position(|&p| p == piece)
            .map(|k| k as i64 + 1)
    };
    let mut clauses: Vec<Vec<i64>> = Vec::new();
    for r in 0..m {
        for c in 0..n {
            if !open(r, c) {
                continue;
            }
            let mut covering: Vec<i64> = pieces
                .iter()
                .enumerate()
                .filter(|&(_, &(pr, pc, vertical))| {
                    (pr, pc) == (r, c)
                        || (vertical && (pr + 1, pc) == (r, c))
                        || (!vertical && (pr, pc + 1) == (r, c))
                })
                .map(|(k, _)| k as i64 + 1)
                .collect();
            covering.sort();
            for i in 0..covering.len() {
                for j in i + 1..covering.len() {
                    clauses.push(vec![-covering[i], -covering[j]]);
                }
            }
            clauses.push(covering);
        }
    }
    let mut next_var = pieces.len() as i64;
    let lines = (0..m).map(|r| (true, r)).chain((0..n).map(|c| (false, c)));
    for (is_row, index) in lines {
        let target = if is_row {
            board.row_clues[index]
        } else {
            board.col_clues[index]
        } as i64;
        let terms: Vec<(i64, i64)> = pieces
            .iter()
            .enumerate()
            .filter_map(|(k, &(r, c, vertical))| {
                let (line, weight) = match (is_row, vertical) {
                    (true, true) => (r, 1),
                    (true, false) => (r, 2),
                    (false, true) => (c, 1),
                    (false, false) => (c + 1, 2),
                };
                (line == index).then_some((weight, k as i64 + 1))
            })
            .collect();
        diagram(&terms, target, &mut next_var, &mut clauses);
    }
    if let Some(tiling) = blocked {
        let mut block: Vec<i64> = tiling
            .vertical
            .iter()
            .map(|&(r, c)| (r, c, true))
            .chain(tiling.horizontal.iter().map(|&(r, c)| (r, c, false)))
            .map(|p| -number(p).expect("the tiling's pieces are placements"))
            .collect();
        block.sort_by_key(|l| -l);
        clauses.push(block);
    }
    let mut text = format!("p cnf {next_var} {}\n", clauses.len());
    for clause in &clauses {
        for lit in clause {
            text.push_str(&format!("{lit} "));
        }
        text.push_str("0\n");
    }
    text
}

#[derive(Clone, Copy, PartialEq)]
enum Node {
    True,
    False,
    Lit(i64),
}

/// Clause group 2 of the document: one line's decision diagram.
fn diagram(terms: &[(i64, i64)], target: i64, next_var: &mut i64, clauses: &mut Vec<Vec<i64>>) {
    let total: i64 = terms.iter().map(|t| t.0).sum();
    if target > total {
        clauses.push(Vec::new());
        return;
    }
    let width = target as usize + 1;
    let mut layer = vec![Node::False; width];
    layer[0] = Node::True;
    for (i, &(weight, x)) in terms.iter().enumerate() {
        let rest: i64 = terms[i + 1..].iter().map(|t| t.0).sum();
        let mut next = vec![Node::False; width];
        for s in 0..width {
            if s as i64 + rest < target {
                continue;
            }
            let hi = if s as i64 >= weight {
                layer[s - weight as usize]
            } else {
                Node::False
            };
            let lo = layer[s];
            next[s] = match (hi, lo) {
                (Node::False, Node::False) => Node::False,
                (Node::True, Node::True) => Node::True,
                (Node::True, Node::False) => Node::Lit(x),
                (Node::False, Node::True) => Node::Lit(-x),
                _ => {
                    *next_var += 1;
                    let v = *next_var;
                    for (g, b) in [(-x, hi), (x, lo)] {
                        match b {
                            Node::True => clauses.push(vec![g, v]),
                            Node::False => clauses.push(vec![g, -v]),
                            Node::Lit(b) => {
                                clauses.push(vec![g, -b, v]);
                                clauses.push(vec![g, b, -v]);
                            }
                        }
                    }
                    Node::Lit(v)
                }
            };
        }
        layer = next;
    }
    match layer[target as usize] {
        Node::True => {}
        Node::False => clauses.push(Vec::new()),
        Node::Lit(l) => clauses.push(vec![l]),
    }
}

/// The rules as linear equalities of docs/CERTIFICATES.md, written from the document
/// alone.
fn rebuild_opb(board: &Instance, blocked: Option<&Solution>) -> String {
    let (m, n) = (board.rows, board.cols);
    let open = |r: usize, c: usize| r < m && c < n && !board.blocked[r * n + c];
    let mut pieces: Vec<(usize, usize, bool)> = Vec::new();
    for r in 0..m {
        for c in 0..n {
            if open(r, c) && open(r + 1, c) {
                pieces.push((r, c, true));
            }
            if open(r, c) && open(r, c + 1) {
                pieces.push((r, c, false));
            }
        }
    }
    let mut lines: Vec<String> = Vec::new();
    let line = |terms: Vec<(u64, String)>, rest: &str| {
        let mut text: String = terms.iter().map(|(w, x)| format!("{w} {x} ")).collect();
        text.push_str(rest);
        text
    };
    for r in 0..m {
        for c in 0..n {
            if !open(r, c) {
                continue;
            }
            let terms = pieces
                .iter()
                .enumerate()
                .filter(|&(_, &(pr, pc, vertical))| {
                    (pr, pc) == (r, c)
                        || (vertical && (pr + 1, pc) == (r, c))
                        || (!vertical && (pr, pc + 1) == (r, c))
                })
                .map(|(k, _)| (1, format!("x{}", k + 1)))
                .collect();
            lines.push(line(terms, "= 1 ;"));
        }
    }
    let all_lines = (0..m).map(|r| (true, r)).chain((0..n).map(|c| (false, c)));
    for (is_row, index) in all_lines {
        let clue = if is_row {
            board.row_clues[index]
        } else {
            board.col_clues[index]
        };
        let terms = pieces
            .iter()
            .enumerate()
            .filter_map(|(k, &(r, c, vertical))| {
                let (on, weight) = match (is_row, vertical) {
                    (true, true) => (r, 1),
                    (true, false) => (r, 2),
                    (false, true) => (c, 1),
                    (false, false) => (c + 1, 2),
                };
                (on == index).then(|| (weight, format!("x{}", k + 1)))
            })
            .collect();
        lines.push(line(terms, &format!("= {clue} ;")));
    }
    if let Some(tiling) = blocked {
        let mut numbers: Vec<usize> = tiling
            .vertical
            .iter()
            .map(|&(r, c)| (r, c, true))
            .chain(tiling.horizontal.iter().map(|&(r, c)| (r, c, false)))
            .map(|p| pieces.iter().position(|&q| q == p).unwrap() + 1)
            .collect();
        numbers.sort();
        let terms = numbers.iter().map(|k| (1, format!("~x{k}"))).collect();
        lines.push(line(terms, ">= 1 ;"));
    }
    let mut text = format!(
        "* #variable= {} #constraint= {}\n",
        pieces.len(),
        lines.len()
    );
    for l in lines {
        text.push_str(&l);
        text.push('\n');
    }
    text
}

#[test]
fn the_rules_opb_is_rebuilt_byte_for_byte_on_the_exhaustive_domain() {
    let mut compared = 0;
    for case in domain() {
        let board = &case.instance;
        assert_eq!(
            certify::pb::rules_opb(board, None).unwrap(),
            rebuild_opb(board, None),
            "{board:?}"
        );
        compared += 1;
        for tiling in case.expected.iter().take(2) {
            assert_eq!(
                certify::pb::rules_opb(board, Some(tiling)).unwrap(),
                rebuild_opb(board, Some(tiling)),
                "{board:?} ruling out {tiling:?}"
            );
            compared += 1;
        }
    }
    assert!(compared > 10_000, "{compared} comparisons");
}

fn domain() -> Vec<Case> {
    let mut cases = paper_cases();
    cases.extend(extended_cases(60, 40));
    cases
}

#[test]
fn the_rules_cnf_is_rebuilt_byte_for_byte_on_the_exhaustive_domain() {
    let mut compared = 0;
    for case in domain() {
        let board = &case.instance;
        assert_eq!(
            certify::rules_cnf(board, None).unwrap(),
            rebuild(board, None),
            "{board:?}"
        );
        compared += 1;
        for tiling in case.expected.iter().take(2) {
            assert_eq!(
                certify::rules_cnf(board, Some(tiling)).unwrap(),
                rebuild(board, Some(tiling)),
                "{board:?} blocking {tiling:?}"
            );
            compared += 1;
        }
    }
    assert!(compared > 10_000, "{compared} comparisons");
}

/// The formula means the rules: varisat refutes it exactly when the brute-force
/// enumerator finds no tiling, and with one tiling blocked exactly when that was the only
/// one.
#[test]
fn the_rules_cnf_is_unsatisfiable_exactly_when_the_enumerator_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let (cnf, proof) = (dir.path().join("rules.cnf"), dir.path().join("proof.drat"));
    let verdict = |text: String| {
        std::fs::write(&cnf, text).unwrap();
        certify::prove::prove_in_process(&cnf, &proof).unwrap()
    };
    let (mut unsat, mut unique) = (0, 0);
    for case in paper_cases() {
        let board = &case.instance;
        let placements =
            dominofit::model::compile(board, dominofit::model::Families::RawSums).placements;
        // A model's tiling: its true placement variables, the first of the CNF.
        let tiling = |model: &[u64]| {
            Solution::from_pieces(
                model
                    .iter()
                    .filter(|&&v| v as usize <= placements.len())
                    .map(|&v| placements[v as usize - 1]),
            )
        };
        let answer = verdict(certify::rules_cnf(board, None).unwrap());
        if case.expected.is_empty() {
            unsat += 1;
            assert_eq!(answer, ProverVerdict::Refuted, "{board:?}");
        } else {
            // The model is one of the enumerator's tilings.
            let ProverVerdict::Satisfiable(model) = answer else {
                panic!("{board:?}: {answer:?}");
            };
            assert!(case.expected.contains(&tiling(&model)), "{board:?}");
        }
        if let Some(first) = case.expected.first() {
            let answer = verdict(certify::rules_cnf(board, Some(first)).unwrap());
            if case.expected.len() == 1 {
                unique += 1;
                assert_eq!(
                    answer,
                    ProverVerdict::Refuted,
                    "{board:?} blocking {first:?}"
                );
            } else {
                let ProverVerdict::Satisfiable(model) = answer else {
                    panic!("{board:?} blocking {first:?}: {answer:?}");
                };
                let other = tiling(&model);
                assert!(
                    case.expected.contains(&other) && &other != first,
                    "{board:?}"
                );
            }
        }
    }
    assert!(
        unsat > 100 && unique > 100,
        "{unsat} unsat, {unique} unique cases"
    );
}

/// `solve --certify` into a fresh directory; the output of `check-certificate` on it.
fn certify_and_check(file: &str, limit: &str, extra: &[&str]) -> (tempfile::TempDir, String) {
    let (dir, report, _) = certify_check_and_say(file, limit, extra);
    (dir, report)
}

/// [`certify_and_check`], and what `solve` said on standard error (its certificate
/// lines).
fn certify_check_and_say(
    file: &str,
    limit: &str,
    extra: &[&str],
) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("certs");
    let solved = succeed(
        dominofit()
            .args(["solve", file, "--limit", limit, "--certify"])
            .arg(&certs)
            .args(extra),
    );
    let out = succeed(dominofit().arg("check-certificate").arg(&certs));
    let said = String::from_utf8(solved.stderr).unwrap();
    (dir, String::from_utf8(out.stdout).unwrap(), said)
}

/// Certificate lines of proofs the answer's own search logged.
fn logged_by_the_answer(said: &str) -> usize {
    said.lines()
        .filter(|l| {
            l.starts_with("certificate: ")
                && l.ends_with("logged by the answer's search, one search)")
        })
        .count()
}

/// Every file in `dir` and below whose name starts with a dot (a temporary proof or
/// bundle left behind).
fn hidden_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            found.push(path.clone());
        }
        if path.is_dir() {
            found.extend(hidden_files(&path));
        }
    }
    found
}

fn accepted_lines(report: &str, status: &str) -> usize {
    report
        .lines()
        .filter(|l| l.contains(&format!(": accepted: {status} ")))
        .count()
}

/// Every board of unsat.jsonl gets a DRAT certificate from CaDiCaL that `rate` accepts:
/// in four tests of six boards each (every fourth board, so that each holds one of the
/// 32×32 boards, which take most of the time), which the test harness runs side by side.
fn unsat_boards_get_drat_certificates(part: usize) {
    // varisat needs minutes to hours on the raw rules of the 32x32 boards; CaDiCaL about
    // a minute for all 24.
    if !program_available("rate", "--version") || !program_available("cadical", "--version") {
        return;
    }
    let workload = std::fs::read_to_string(model("unsat.jsonl")).unwrap();
    let boards: Vec<&str> = workload
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .filter(|(k, _)| k % 4 == part)
        .map(|(_, line)| line)
        .collect();
    assert_eq!(boards.len(), 6);
    let dir = tempfile::tempdir().unwrap();
    let part_file = dir.path().join(format!("unsat-part-{part}.jsonl"));
    std::fs::write(&part_file, boards.join("\n") + "\n").unwrap();
    let (_certs, report) =
        certify_and_check(part_file.to_str().unwrap(), "1", &["--prover", "cadical"]);
    assert_eq!(accepted_lines(&report, "unsat"), boards.len(), "{report}");
    assert!(report.contains("verified by rate"), "{report}");
}

#[test]
fn unsat_boards_get_drat_certificates_the_checker_accepts_part_0() {
    unsat_boards_get_drat_certificates(0);
}

#[test]
fn unsat_boards_get_drat_certificates_the_checker_accepts_part_1() {
    unsat_boards_get_drat_certificates(1);
}

#[test]
fn unsat_boards_get_drat_certificates_the_checker_accepts_part_2() {
    unsat_boards_get_drat_certificates(2);
}

#[test]
fn unsat_boards_get_drat_certificates_the_checker_accepts_part_3() {
    unsat_boards_get_drat_certificates(3);
}

/// The native engine's VeriPB proofs, for every board of both unsat workloads:
/// accepted by VeriPB through `check-certificate`.
#[test]
fn every_unsat_board_gets_a_veripb_certificate() {
    if !program_available("veripb", "--version") {
        return;
    }
    for (workload, boards) in [("unsat.jsonl", 24), ("unsat-hard.jsonl", 20)] {
        let (_dir, report, said) = certify_check_and_say(&model(workload), "1", &[]);
        assert_eq!(accepted_lines(&report, "unsat"), boards, "{report}");
        assert_eq!(logged_by_the_answer(&said), boards, "{said}");
        assert_eq!(
            report.matches("proof.pbp").count(),
            boards,
            "every proof is a VeriPB proof: {report}"
        );
        assert!(report.contains("verified by veripb"), "{report}");
    }
}

/// A portfolio's certificate is logged by its native members as they race to answer,
/// the proof of the member that decided kept: accepted by VeriPB, for unsat and unique
/// answers, and no member's file is left in a bundle or beside them.
#[test]
fn a_portfolio_answer_is_certified_by_its_members_racing() {
    if !program_available("veripb", "--version") {
        return;
    }
    for (workload, status, boards) in [
        ("unsat-hard.jsonl", "unsat", 20),
        ("observed.jsonl", "unique", 3),
    ] {
        let (dir, report, said) = certify_check_and_say(
            &model(workload),
            "2",
            &[
                "--backend",
                "portfolio:native+native-matching",
                "--threads",
                "2",
            ],
        );
        assert_eq!(accepted_lines(&report, status), boards, "{report}");
        assert_eq!(logged_by_the_answer(&said), boards, "{said}");
        assert_eq!(hidden_files(dir.path()), Vec::<PathBuf>::new());
        assert!(report.contains("verified by veripb"), "{report}");
        for bundle in std::fs::read_dir(dir.path().join("certs")).unwrap() {
            let bundle = bundle.unwrap().path();
            let mut files: Vec<String> = std::fs::read_dir(&bundle)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            files.sort();
            assert!(
                files.iter().all(|f| !f.contains("member")),
                "{}: {files:?}",
                bundle.display()
            );
        }
    }
}

/// `solve --certify` with a native backend searches once: the search that answers is
/// the one that logs the proof, and its stats say how many steps it logged. Every proof
/// needed is logged by it, for unsat answers and unique ones, and no temporary proof is
/// left behind, also where the answer needed none (sat, multiple). On the boards the
/// small-board path decides, the logged search is the uncertified one node for node (on
/// larger boards the failure cache keeps only what the proof can justify, and the LP
/// runs beside the search, so counts differ).
#[test]
fn a_certified_answer_is_searched_once() {
    let stats = |out: &std::process::Output| -> Vec<(String, String, u64, Option<u64>)> {
        String::from_utf8(out.stdout.clone())
            .unwrap()
            .lines()
            .map(|line| {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                (
                    v["name"].as_str().unwrap().to_string(),
                    v["status"].as_str().unwrap().to_string(),
                    v["stats"]["nodes"].as_u64().unwrap(),
                    v["stats"]["proof_steps"].as_u64(),
                )
            })
            .collect()
    };
    for (workload, limit, proofs, small) in [
        ("unsat.jsonl", "1", 24, false),
        ("observed.jsonl", "2", 3, true),
        ("game.jsonl", "1", 0, true),
        ("game.jsonl", "2", 26, true),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let json = ["--limit", limit, "--format", "json"];
        let plain = succeed(dominofit().args(["solve", &model(workload)]).args(json));
        let certs = dir.path().join("certs");
        let certified = succeed(
            dominofit()
                .args(["solve", &model(workload)])
                .args(json)
                .arg("--certify")
                .arg(&certs),
        );
        let said = String::from_utf8(certified.stderr.clone()).unwrap();
        let (plain, certified) = (stats(&plain), stats(&certified));
        assert_eq!(plain.len(), certified.len());
        for (before, after) in plain.iter().zip(&certified) {
            assert_eq!((&before.0, &before.1), (&after.0, &after.1), "{workload}");
            assert!(
                before.3.is_none() && after.3.is_some_and(|n| n > 0),
                "{after:?}"
            );
            if small {
                assert_eq!(before.2, after.2, "{workload}: {}", after.0);
            }
        }
        assert_eq!(logged_by_the_answer(&said), proofs, "{workload}: {said}");
        assert!(!said.contains(" by native in "), "{said}");
        assert_eq!(
            hidden_files(dir.path()),
            Vec::<PathBuf>::new(),
            "{workload}"
        );
    }
}

/// An answer of a backend that cannot log (a SAT solver's) is proved by a native search
/// of its own after the answer, and the proof is accepted all the same.
#[test]
fn another_backends_answer_is_proved_by_a_search_of_its_own() {
    if !program_available("veripb", "--version") {
        return;
    }
    let (dir, report, said) =
        certify_check_and_say(&model("observed.jsonl"), "2", &["--backend", "varisat"]);
    assert_eq!(accepted_lines(&report, "unique"), 3, "{report}");
    assert_eq!(logged_by_the_answer(&said), 0, "{said}");
    assert_eq!(said.matches(" by native in ").count(), 3, "{said}");
    assert_eq!(hidden_files(dir.path()), Vec::<PathBuf>::new());
}

/// Uniqueness, by both proof systems.
#[test]
fn the_observed_boards_get_uniqueness_certificates() {
    for (prover, checker) in [("native", "veripb"), ("auto", "rate")] {
        if !program_available(checker, "--version") {
            continue;
        }
        for board in ["6x6", "7x7", "8x8"] {
            let (_dir, report) = certify_and_check(
                &model(&format!("observed/{board}.json")),
                "2",
                &["--prover", prover],
            );
            assert_eq!(accepted_lines(&report, "unique"), 1, "{prover}: {report}");
            assert!(report.contains(&format!("by {checker}")), "{report}");
        }
    }
}

#[test]
fn game_boards_get_certificates_of_whatever_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let sample = dir.path().join("sample.jsonl");
    let game = std::fs::read_to_string(model("game.jsonl")).unwrap();
    let lines: Vec<&str> = game.lines().step_by(6).collect();
    std::fs::write(&sample, lines.join("\n") + "\n").unwrap();
    for (prover, checker) in [("native", "veripb"), ("auto", "rate")] {
        if !program_available(checker, "--version") {
            continue;
        }
        let (_certs, report) =
            certify_and_check(sample.to_str().unwrap(), "2", &["--prover", prover]);
        let accepted = report
            .lines()
            .filter(|l| l.contains(": accepted: "))
            .count();
        assert_eq!(accepted, lines.len(), "{prover}: {report}");
        assert!(accepted_lines(&report, "unique") > 0, "{report}");
    }
}

/// Every game board the native engine answers unique or unsat gets a VeriPB certificate:
/// all 60 of them.
#[test]
fn every_game_board_gets_a_veripb_certificate() {
    if !program_available("veripb", "--version") {
        return;
    }
    let (_dir, report) = certify_and_check(&model("game.jsonl"), "2", &[]);
    let accepted = report
        .lines()
        .filter(|l| l.contains(": accepted: "))
        .count();
    assert_eq!(accepted, 60, "{report}");
}

#[test]
fn external_provers_write_proofs_the_checker_accepts() {
    if !program_available("rate", "--version") {
        return;
    }
    for prover in ["cadical", "kissat"] {
        if !program_available(prover, "--version") {
            continue;
        }
        let (_dir, report) =
            certify_and_check(&model("observed/8x8.json"), "2", &["--prover", prover]);
        assert_eq!(accepted_lines(&report, "unique"), 1, "{prover}: {report}");
    }
}

/// One unsat bundle (a 12x12 board whose refutation takes a few hundred lemmas) and one
/// unique bundle, to tamper with.
struct Bundles {
    _dir: tempfile::TempDir,
    unsat: PathBuf,
    unique: PathBuf,
}

fn bundles(prover: &str) -> Bundles {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("certs");
    let unsat_board = dir.path().join("unsat.json");
    let workload = std::fs::read_to_string(model("unsat.jsonl")).unwrap();
    let line = workload
        .lines()
        .find(|l| l.contains("\"unsat-12x12-s6604-1\""))
        .unwrap();
    std::fs::write(&unsat_board, line).unwrap();
    for (file, limit) in [
        (unsat_board.to_str().unwrap().to_string(), "1"),
        (model("observed/7x7.json"), "2"),
    ] {
        succeed(
            dominofit()
                .args(["solve", &file, "--limit", limit, "--certify"])
                .arg(&certs)
                .args(["--prover", prover]),
        );
    }
    let find = |status: &str| {
        std::fs::read_dir(&certs)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                std::fs::read_to_string(p.join("certificate.json")).is_ok_and(|m| {
                    crate::common::schema::validated("certificate", &m)["status"] == status
                })
            })
            .unwrap()
    };
    Bundles {
        unsat: find("unsat"),
        unique: find("unique"),
        _dir: dir,
    }
}

/// `check-certificate` on a copy of `bundle` changed by `tamper`: the exit status and
/// output.
fn check_tampered(bundle: &Path, tamper: impl FnOnce(&Path)) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    for entry in std::fs::read_dir(bundle).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
    }
    tamper(&copy);
    let out = dominofit()
        .arg("check-certificate")
        .arg(&copy)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A tampered bundle fails `check-certificate`, which names `reason`.
fn assert_rejected((ok, report): (bool, String), reason: &str) {
    assert!(!ok && report.contains(reason), "{report}");
}

fn edit(file: &Path, change: impl FnOnce(String) -> String) {
    let text = std::fs::read_to_string(file).unwrap();
    std::fs::write(file, change(text)).unwrap();
}

#[test]
fn tampered_certificates_are_rejected_with_the_reason() {
    if !program_available("rate", "--version") {
        return;
    }
    let b = bundles("auto");
    // Untouched, both pass.
    for bundle in [&b.unsat, &b.unique] {
        let (ok, report) = check_tampered(bundle, |_| {});
        assert!(ok, "{report}");
    }
    // A clause of the rules dropped.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("rules.cnf"), |text| {
                let mut lines: Vec<&str> = text.lines().collect();
                lines.remove(lines.len() / 2);
                lines.join("\n") + "\n"
            })
        }),
        "rejected: rules.cnf is not the raw rules of instance.json",
    );
    // A clue changed: the rules rebuilt from it differ.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("instance.json"), |text| {
                text.replacen("\"row_clues\":[", "\"row_clues\":[1", 1)
            })
        }),
        "rejected: ",
    );
    // The tiling altered: its first vertical piece moved one column.
    assert_rejected(
        check_tampered(&b.unique, |d| {
            edit(&d.join("solutions.jsonl"), |text| {
                let mut tiling = crate::common::schema::validated("solution", &text);
                let first = &mut tiling["vertical"][0][1];
                *first = serde_json::json!(first.as_u64().unwrap() % 7 + 1);
                tiling.to_string() + "\n"
            })
        }),
        "rejected: tiling 1 of solutions.jsonl",
    );
    // The proof emptied of everything but its deletions: the rules are not refuted by
    // unit propagation alone, so there is nothing left to verify.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("proof.drat"), |text| {
                text.lines()
                    .filter(|l| l.starts_with('d'))
                    .map(|l| format!("{l}\n"))
                    .collect()
            })
        }),
        "rate did not verify proof.drat",
    );
    // The proof cut after its first half of lemmas, as a truncated copy would be. (One
    // lemma removed is often still a valid proof: the checker re-derives what the next
    // lemmas need by unit propagation, so that is no tampering to catch.)
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("proof.drat"), |text| {
                let lines: Vec<&str> = text.lines().collect();
                let lemmas = lines.iter().filter(|l| !l.starts_with('d')).count();
                let mut kept = 0;
                lines
                    .iter()
                    .take_while(|l| {
                        kept += usize::from(!l.starts_with('d'));
                        kept <= lemmas / 2
                    })
                    .map(|l| format!("{l}\n"))
                    .collect()
            })
        }),
        "rate did not verify proof.drat",
    );
    // A wrong proof for the right rules: the proof of another board.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            std::fs::copy(b.unique.join("proof.drat"), d.join("proof.drat")).unwrap();
        }),
        "rate did not verify proof.drat",
    );
}

#[test]
fn a_missing_checker_is_an_error_never_a_pass() {
    for (prover, option, missing, said) in [
        (
            "auto",
            "--checker",
            "/nonexistent/rate",
            "the checker `/nonexistent/rate` named with --checker is not a file",
        ),
        (
            "native",
            "--veripb",
            "/nonexistent/veripb",
            "the checker `/nonexistent/veripb` named with --veripb is not a file",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let certs = dir.path().join("certs");
        succeed(
            dominofit()
                .args([
                    "solve",
                    &model("observed/6x6.json"),
                    "--limit",
                    "2",
                    "--certify",
                ])
                .arg(&certs)
                .args(["--prover", prover]),
        );
        let out = dominofit()
            .arg("check-certificate")
            .arg(&certs)
            .args([option, missing])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(said), "{stderr}");
    }
}

/// A VeriPB bundle tampered with in each way is rejected, naming why; untouched bundles,
/// and a DRAT bundle of manifest version 1, are accepted.
#[test]
fn tampered_veripb_certificates_are_rejected_with_the_reason() {
    if !program_available("veripb", "--version") {
        return;
    }
    let b = bundles("native");
    for bundle in [&b.unsat, &b.unique] {
        let (ok, report) = check_tampered(bundle, |_| {});
        assert!(ok && report.contains("verified by veripb"), "{report}");
    }
    let not_the_rules = "rejected: rules.opb is not the raw rules of instance.json";
    // A constraint of the rules dropped.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("rules.opb"), |text| {
                let mut lines: Vec<&str> = text.lines().collect();
                lines.remove(lines.len() / 2);
                lines.join("\n") + "\n"
            })
        }),
        not_the_rules,
    );
    // A cover weakened from `= 1` to `>= 1`.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("rules.opb"), |text| {
                text.replacen("= 1 ;", ">= 1 ;", 1)
            })
        }),
        not_the_rules,
    );
    // A coefficient changed: a horizontal piece's two dots made one.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("rules.opb"), |text| {
                text.replacen(" 2 x", " 1 x", 1)
            })
        }),
        not_the_rules,
    );
    // A clue changed in the board only.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("instance.json"), |text| {
                text.replacen("\"row_clues\":[", "\"row_clues\":[1", 1)
            })
        }),
        "rejected: ",
    );
    // A unique board claimed unsat, its rules rewritten to match the claim: the proof
    // refuted them with the tiling ruled out, and cannot without.
    assert_rejected(
        check_tampered(&b.unique, |d| {
            edit(&d.join("certificate.json"), |text| {
                text.replace("\"unique\"", "\"unsat\"")
            });
            std::fs::remove_file(d.join("solutions.jsonl")).unwrap();
            let board = dominofit::files::read_instances(d.join("instance.json").to_str().unwrap())
                .unwrap()
                .remove(0);
            std::fs::write(
                d.join("rules.opb"),
                certify::pb::rules_opb(&board, None).unwrap(),
            )
            .unwrap();
        }),
        "veripb did not verify proof.pbp",
    );
    // The proof cut in half, as a truncated copy would be.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("proof.pbp"), |text| {
                let lines: Vec<&str> = text.lines().collect();
                lines[..lines.len() / 2].join("\n") + "\n"
            })
        }),
        "veripb did not verify proof.pbp",
    );
    // A step made to conclude more than it derives: the first nogood of the search
    // replaced by the contradiction itself, which unit propagation does not yet reach.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("proof.pbp"), |text| {
                let nogood = text
                    .lines()
                    .find(|l| l.starts_with("rup 1 ~x"))
                    .expect("a nogood")
                    .to_string();
                text.replacen(&nogood, "rup >= 1;", 1)
            })
        }),
        "veripb did not verify proof.pbp",
    );
    // The conclusion pointed at a constraint that is no contradiction.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("proof.pbp"), |text| {
                with_conclusion(&text, "conclusion UNSAT : 1")
            })
        }),
        "veripb did not verify proof.pbp",
    );
    // A proof that concludes nothing is verified by VeriPB, and is no refutation.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("proof.pbp"), |text| {
                with_conclusion(&text, "conclusion NONE")
            })
        }),
        "veripb did not verify proof.pbp",
    );
    // Another board's proof.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            std::fs::copy(b.unique.join("proof.pbp"), d.join("proof.pbp")).unwrap();
        }),
        "veripb did not verify proof.pbp",
    );
    // A status that is not what the proof refutes: the unique bundle claimed unsat.
    assert_rejected(
        check_tampered(&b.unique, |d| {
            edit(&d.join("certificate.json"), |text| {
                text.replace("\"unique\"", "\"unsat\"")
            });
            std::fs::remove_file(d.join("solutions.jsonl")).unwrap();
        }),
        not_the_rules,
    );
    // A proof system the bundle does not have.
    assert_rejected(
        check_tampered(&b.unsat, |d| {
            edit(&d.join("certificate.json"), |text| {
                text.replace("\"veripb\"", "\"drat\"")
            })
        }),
        "rules.cnf",
    );
}

/// Bundles written before the VeriPB route (manifest version 1, DRAT, no
/// `proof_system`) are still checked.
#[test]
fn version_1_bundles_are_still_checked() {
    if !program_available("rate", "--version") {
        return;
    }
    let b = bundles("auto");
    let (ok, report) = check_tampered(&b.unique, |d| {
        edit(&d.join("certificate.json"), |text| {
            let mut manifest = crate::common::schema::validated("certificate", &text);
            manifest["version"] = serde_json::json!(1);
            manifest.as_object_mut().unwrap().remove("proof_system");
            manifest.to_string()
        })
    });
    assert!(ok && report.contains("verified by rate"), "{report}");
}

/// A fake program at `dir/NAME.sh` printing `script`, and a descriptor for it in
/// `dir/backends`; the descriptor can prove (`proof`) and solve.
fn fake_program(dir: &Path, name: &str, script: &str) -> PathBuf {
    let program = dir.join(format!("{name}.sh"));
    std::fs::write(&program, format!("#!/bin/sh\n{script}")).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let backends = dir.join("backends");
    std::fs::create_dir_all(&backends).unwrap();
    std::fs::write(
        backends.join(format!("{name}.toml")),
        format!(
            "name = \"{name}\"\nreads = \"dimacs\"\ncommand = [{:?}, \"{{input}}\"]\n\
             proof = [\"{{proof}}\"]\nanswer = \"competition\"\n",
            program.display().to_string()
        ),
    )
    .unwrap();
    backends
}

/// A prover that finds a real tiling where the answer (here a lying backend's `unsat`)
/// says there is none stops the certificate and names the board; nothing is left in the
/// directory.
#[test]
fn a_prover_that_disagrees_is_an_error_naming_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let backends = fake_program(
        dir.path(),
        "says-unsat",
        "echo 's UNSATISFIABLE'\nexit 20\n",
    );
    let certs = dir.path().join("certs");
    let out = dominofit()
        .args(["solve", &model("observed/6x6.json"), "--certify"])
        .arg(&certs)
        .args(["--backend", "says-unsat", "--prover", "varisat"])
        .env("DOMINOFIT_BACKENDS", &backends)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no certificate: the answer was unsat, but varisat found a tiling"),
        "{stderr}"
    );
    assert!(stderr.contains("instance `observed-6x6`"), "{stderr}");
    assert_eq!(std::fs::read_dir(&certs).unwrap().count(), 0);
}

/// A prover that says SATISFIABLE with no model, or with one that is no tiling, is the
/// one that is wrong: its model is checked before the answer is blamed.
#[test]
fn a_prover_whose_model_is_no_tiling_is_named_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let workload = std::fs::read_to_string(model("unsat.jsonl")).unwrap();
    let board = dir.path().join("board.json");
    std::fs::write(&board, workload.lines().next().unwrap()).unwrap();
    for (name, script, why) in [
        (
            "no-model",
            "echo 's SATISFIABLE'\nexit 10\n",
            "no model was printed",
        ),
        (
            "all-true",
            "n=$(awk '/^p cnf/ {print $3}' \"$1\")\necho 's SATISFIABLE'\nprintf v\n\
             i=1\nwhile [ $i -le $n ]; do printf ' %d' $i; i=$((i+1)); done\necho ' 0'\nexit 10\n",
            "covered twice",
        ),
    ] {
        let backends = fake_program(dir.path(), name, script);
        let certs = dir.path().join(format!("certs-{name}"));
        let out = dominofit()
            .args(["solve", board.to_str().unwrap(), "--certify"])
            .arg(&certs)
            .args(["--prover", name])
            .env("DOMINOFIT_BACKENDS", &backends)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "{name} answered SATISFIABLE, but its model is not a tiling"
            )) && stderr.contains(why)
                && stderr.contains("the prover is wrong"),
            "{stderr}"
        );
        assert_eq!(std::fs::read_dir(&certs).unwrap().count(), 0);
    }
}

#[test]
fn a_prover_without_proof_arguments_is_a_usage_error() {
    let out = dominofit()
        .args([
            "solve",
            &model("observed/6x6.json"),
            "--certify",
            "/tmp/unused",
            "--prover",
            "minisat",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot write proofs"), "{stderr}");
}

/// `generate --unique|--unsat --certify`: each board comes with a bundle from a prover
/// other than the generator's own search, which the checker accepts.
#[test]
fn generated_boards_come_with_certificates() {
    if !program_available("rate", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("certs");
    for kind in ["--unique", "--unsat"] {
        succeed(
            dominofit()
                .args([
                    "generate", "--rows", "7", "--cols", "7", "--count", "2", "--seed", "3",
                ])
                .args([kind, "--pool", "2", "--certify"])
                .arg(&certs),
        );
    }
    let out = succeed(dominofit().arg("check-certificate").arg(&certs));
    let report = String::from_utf8(out.stdout).unwrap();
    assert_eq!(accepted_lines(&report, "unique"), 2, "{report}");
    assert_eq!(accepted_lines(&report, "unsat"), 2, "{report}");
    let planted = dominofit()
        .args(["generate", "--rows", "7", "--cols", "7", "--certify"])
        .arg(&certs)
        .output()
        .unwrap();
    assert_eq!(planted.status.code(), Some(2));
}

/// A board whose name starts with a dot gets a bundle that is not hidden, so that
/// `check-certificate DIR` sees it (a hidden one was skipped as a bundle being written).
#[test]
fn a_dotted_name_gets_a_visible_bundle() {
    if !program_available("rate", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("board.json");
    let text = std::fs::read_to_string(model("observed/6x6.json")).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["name"] = serde_json::json!(".partial-6x6");
    std::fs::write(&board, value.to_string()).unwrap();
    let certs = dir.path().join("certs");
    succeed(
        dominofit()
            .arg("solve")
            .arg(&board)
            .args(["--limit", "2", "--certify"])
            .arg(&certs),
    );
    assert!(
        certs
            .join("_.partial-6x6")
            .join("certificate.json")
            .is_file()
    );
    let out = succeed(dominofit().arg("check-certificate").arg(&certs));
    let report = String::from_utf8(out.stdout).unwrap();
    assert_eq!(accepted_lines(&report, "unique"), 1, "{report}");
}

/// Bundles of tilings alone (`sat`, `multiple`) are checked without a DRAT checker.
#[test]
fn tilings_alone_need_no_drat_checker() {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("certs");
    succeed(
        dominofit()
            .args([
                "solve",
                &model("observed/6x6.json"),
                "--limit",
                "1",
                "--certify",
            ])
            .arg(&certs),
    );
    let out = succeed(
        dominofit()
            .arg("check-certificate")
            .arg(&certs)
            .args(["--checker", "/nonexistent/rate"]),
    );
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        report.contains(": accepted: sat `observed-6x6` (tilings verified)"),
        "{report}"
    );
}

/// A VeriPB proof with its `conclusion UNSAT : ID` line replaced by `conclusion`.
fn with_conclusion(text: &str, conclusion: &str) -> String {
    let at = text
        .find("conclusion UNSAT : ")
        .expect("an UNSAT conclusion");
    let end = at + text[at..].find(';').expect("the conclusion's end");
    format!("{}{conclusion}{}", &text[..at], &text[end..])
}
