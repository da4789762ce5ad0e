//! One inference, one proof: each argument the native search makes (a line's capacity,
//! a colour imbalance, a minimum cut of the transport check, a Hall set of the matching
//! filter, the LP's Farkas refutation), taken from a real search with the node it was
//! made at, is written as a proof of its own and checked by VeriPB.
//!
//! The formula is the board's raw rules with the node as unit constraints (each piece
//! committed there placed, each other non-candidate not; for a deletion, the deleted
//! piece placed too). The proof derives the quotas (clue inversion, as every proof
//! does), then only the inference's recipe, then the contradiction by unit propagation.
//! Without the recipe the same proof is refused: the inference is the recipe's, not
//! what unit propagation finds by itself.

use std::fmt::Write as _;
use std::path::Path;

use super::formula::{Ids, rules_opb};
use super::inversion::{self, Inverted};
use super::logger::Logger;
use super::writer::ProofWriter;
use crate::backend::native::SearchOptions;
use crate::backend::native::examples::{self, Inference};
use crate::backend::native::recipe::Kind;
use crate::certify::bundle::ProofSystem;
use crate::certify::checker::Checker;
use crate::model::{Families, Model, compile};
use crate::puzzle::Instance;

/// A committed board, by workload file and name.
fn board(file: &str, name: &str) -> Instance {
    let path = format!("{}/models/{file}", env!("CARGO_MANIFEST_DIR"));
    crate::files::read_instances(&path)
        .unwrap()
        .into_iter()
        .find(|i| i.name == name)
        .unwrap()
}

/// The rules of `instance` with the node of `inference` as unit constraints (and a
/// tautology last, so that the formula never ends with the rules alone); how many
/// constraints beyond the rules it has.
fn formula(instance: &Instance, inference: &Inference) -> (String, u64) {
    let rules = rules_opb(instance, None).unwrap();
    let mut units = String::new();
    let mut count = 0u64;
    let placed = inference.placed.iter().chain(&inference.deletes);
    for &p in placed {
        let _ = writeln!(units, "1 x{} >= 1 ;", p + 1);
        count += 1;
    }
    for &p in &inference.ruled_out {
        let _ = writeln!(units, "1 ~x{} >= 1 ;", p + 1);
        count += 1;
    }
    units.push_str("1 x1 1 ~x1 >= 1 ;\n");
    count += 1;
    let (header, body) = rules.split_once('\n').unwrap();
    let (vars, constraints) = header.split_once("#constraint= ").unwrap();
    let rules_count: u64 = constraints.trim().parse().unwrap();
    let total = rules_count + count;
    (format!("{vars}#constraint= {total}\n{body}{units}"), count)
}

/// The proof of `inference` (with its recipe, or without), as VeriPB numbers it.
fn proof(instance: &Instance, model: &Model, inference: &Inference, with_recipe: bool) -> String {
    let ids = Ids::of(instance, model);
    // VeriPB loads each equality of the rules as two constraints, then the units.
    let (_, units) = formula(instance, inference);
    let mut out = ProofWriter::new(Vec::new(), ids.rules() + units - 1);
    let Inverted::Quotas(quotas) = inversion::derive(model, instance, &ids, &mut out) else {
        panic!("{}: the clues alone refute it", instance.name);
    };
    let mut logger = Logger::new(out, ids, quotas);
    if with_recipe {
        crate::backend::native::proof::Justify::derive(&mut logger, &inference.recipe);
    }
    crate::backend::native::proof::Justify::dead_end(&mut logger, &[]);
    let contradiction = logger.contradiction.unwrap();
    let mut out = logger.out;
    out.conclude_unsat(contradiction);
    String::from_utf8(out.finish(true).unwrap()).unwrap()
}

/// VeriPB's verdict on a formula and a proof, through the checker `check-certificate`
/// runs: `s VERIFIED UNSATISFIABLE`, or `rejected` and what it said.
pub(super) fn veripb(checker: &Checker, dir: &Path, formula: &str, proof: &str) -> String {
    let rules = dir.join("node.opb");
    let log = dir.join("inference.pbp");
    std::fs::write(&rules, formula).unwrap();
    std::fs::write(&log, proof).unwrap();
    match checker.run(&rules, &log, None).unwrap() {
        Ok(()) => "s VERIFIED UNSATISFIABLE".to_string(),
        Err(said) => format!("rejected: {said}"),
    }
}

/// The VeriPB checker, if installed (in CI it must be).
pub(super) fn veripb_checker() -> Option<Checker> {
    let found = Checker::find(ProofSystem::Veripb, None).ok();
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "veripb is not installed; run scripts/install-solvers.sh"
        );
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr().lock(),
            "SKIPPED (part of) {}: veripb is not installed (scripts/install-solvers.sh)",
            std::thread::current().name().unwrap_or("a test")
        );
    }
    found
}

/// Checks each inference: accepted with its recipe; a refutation refused without it
/// (the node is a fixed point of propagation, so unit propagation alone finds
/// nothing). A deletion may also be what placing the piece and propagating refutes (a
/// step of look-ahead), so of deletions only some must need their recipe: at least
/// one, else the test shows nothing propagation could not. How many needed it.
fn check_each(
    checker: &Checker,
    instance: &Instance,
    model: &Model,
    inferences: &[Inference],
) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let mut needed = 0;
    for inference in inferences {
        let (formula, _) = formula(instance, inference);
        let kind = inference.recipe.kind;
        assert_eq!(
            veripb(
                checker,
                dir.path(),
                &formula,
                &proof(instance, model, inference, true)
            ),
            "s VERIFIED UNSATISFIABLE",
            "{}: {kind:?} with its recipe",
            instance.name
        );
        let without = veripb(
            checker,
            dir.path(),
            &formula,
            &proof(instance, model, inference, false),
        );
        let refused = without.starts_with("rejected");
        assert!(
            refused || inference.deletes.is_some(),
            "{}: {kind:?} needs no recipe: {without}",
            instance.name
        );
        needed += usize::from(refused);
    }
    assert!(
        needed > 0,
        "{}: every inference was propagation's",
        instance.name
    );
    needed
}

/// Only the check of `check` among those at a stall.
fn only(check: &str) -> SearchOptions {
    let d = SearchOptions::default();
    SearchOptions {
        path_capacity: check == "capacity",
        colour_balance: check == "colour",
        transport: check == "transport",
        ..d
    }
}

/// A failure of each propagator behind the seam, met by a plain descent of a committed
/// board, proved on its own.
#[test]
fn each_propagator_failure_is_proved_on_its_own() {
    let Some(checker) = veripb_checker() else {
        return;
    };
    // The transport check fails rarely: on this satisfiable board, within 20,000 nodes.
    let cases = [
        (
            "capacity",
            Kind::Capacity,
            "unsat.jsonl",
            "unsat-16x16-s6604-1",
        ),
        ("colour", Kind::Colour, "unsat.jsonl", "unsat-16x16-s6604-1"),
        (
            "transport",
            Kind::Transport,
            "stress.jsonl",
            "planted-24x24-s6603-3",
        ),
    ];
    for (check, kind, file, name) in cases {
        let instance = board(file, name);
        let model = compile(&instance, Families::ColourSplits);
        let inference = examples::propagator_failure(&model, only(check), 100_000)
            .unwrap_or_else(|| panic!("{check}: no failure met"));
        assert_eq!(inference.recipe.kind, kind);
        check_each(&checker, &instance, &model, &[inference]);
    }
}

/// The matching filter's Hall sets at the root of a board where they delete
/// candidates, and of one where a Hall set refutes the root, each proved on its own.
#[test]
fn each_hall_set_is_proved_on_its_own() {
    let Some(checker) = veripb_checker() else {
        return;
    };
    for (name, refutes) in [
        ("unsat-16x16-s6604-3", false),
        ("unsat-24x24-s6604-2", true),
    ] {
        let instance = board("unsat.jsonl", name);
        let model = compile(&instance, Families::ColourSplits);
        let inferences = examples::hall_sets_at_root(&model);
        assert!(
            !inferences.is_empty(),
            "{name}: the filter acts at the root"
        );
        for inference in &inferences {
            assert_eq!(inference.recipe.kind, Kind::HallSet);
            assert_eq!(inference.deletes.is_none(), refutes, "{name}");
        }
        check_each(&checker, &instance, &model, &inferences);
    }
}

/// The LP's Farkas refutation of a root every cheap check passes, proved on its own.
#[test]
fn a_farkas_refutation_is_proved_on_its_own() {
    let Some(checker) = veripb_checker() else {
        return;
    };
    let instance = board("unsat-hard.jsonl", "unsat-16x16-s6605-4");
    let model = compile(&instance, Families::ColourSplits);
    let inference = examples::farkas_at_root(&model).expect("the LP refutes the root");
    assert_eq!(inference.recipe.kind, Kind::Farkas { root: false });
    check_each(&checker, &instance, &model, &[inference]);
}
