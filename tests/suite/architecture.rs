//! The house's floors, read from the imports of the three crate roots (the core crate,
//! the library, the binary): no import circle
//! between files and no import that runs up a floor (`scripts/module_graph.py`, whose
//! floors ARCHITECTURE.md describes), each shape it must catch on a scratch tree, the size of every source file, and the "where a new X goes" table of
//! ARCHITECTURE.md naming files that exist.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn graph(src: &Path, core: &Path) -> std::process::Output {
    Command::new("python3")
        .arg(Path::new(ROOT).join("scripts/module_graph.py"))
        .arg("--check")
        .arg("--src")
        .arg(src)
        .arg("--core")
        .arg(core)
        .output()
        .expect("python3 runs scripts/module_graph.py (scripts/ci-setup.sh installs it)")
}

#[test]
fn the_module_graph_has_no_circle_and_no_upward_import() {
    let out = graph(
        &Path::new(ROOT).join("src"),
        &Path::new(ROOT).join("core/src"),
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("no circle, none upward"), "{said}");
}

/// Runs the check on a scratch tree of `(path, text)` files: whether it passed, and what
/// it said. The library's files are `src/...`, the core crate's `core/...`; a bare path
/// is the library's.
fn scratch(tree: &[(&str, &str)]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in tree {
        let path = match path.strip_prefix("core/") {
            Some(rest) => dir.path().join("core").join(rest),
            None => dir.path().join("src").join(path),
        };
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let out = graph(&dir.path().join("src"), &dir.path().join("core"));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

/// The check can fail: a circle between two files of one floor and an import from the
/// model up into the command line.
#[test]
fn the_module_graph_check_finds_circles_and_upward_imports() {
    let (passed, said) = scratch(&[
        ("lib.rs", "pub mod model;\npub mod cli;\n"),
        ("model/mod.rs", "mod a;\nmod b;\n"),
        ("model/a.rs", "use super::b::B;\npub struct A;\n"),
        (
            "model/b.rs",
            "use super::a::A;\nuse crate::cli::Args;\npub struct B;\n",
        ),
        ("cli/mod.rs", "pub struct Args;\n"),
    ]);
    assert!(!passed, "{said}");
    assert!(said.contains("import circle: model::a, model::b"), "{said}");
    assert!(
        said.contains("(model::b, floor 2) imports cli (floor 11)"),
        "{said}"
    );
}

/// A circle hidden behind a folder's front: `a` names `B` through `model/mod.rs`, which
/// re-exports it from `b`, and `b` imports `a`. The import counts as one of `b`.
/// The core crate's modules, re-exported by the library under their own names, are read
/// as the core's files: a library file's path through one is an import of the core file,
/// the core's own floors are checked, and a core file no root declares is stray.
#[test]
fn the_module_graph_check_reads_the_core_crate_through_the_library() {
    let tree = |upward_in_core: bool| {
        let puzzle = if upward_in_core {
            "use crate::model::Model;\npub struct Instance;\n"
        } else {
            "pub struct Instance;\n"
        };
        scratch(&[
            ("core/lib.rs", "pub mod model;\npub mod puzzle;\n"),
            (
                "core/model/mod.rs",
                "use crate::puzzle::Instance;\npub struct Model;\n",
            ),
            ("core/puzzle/mod.rs", puzzle),
            ("core/stray.rs", "pub struct Stray;\n"),
            (
                "lib.rs",
                "pub use dominofit_core::{model, puzzle};\npub mod escape;\npub mod cli;\n",
            ),
            ("escape.rs", "use crate::model::Model;\n"),
            ("cli/mod.rs", "use dominofit_core::puzzle::Instance;\n"),
        ])
    };
    let (passed, said) = tree(true);
    assert!(!passed, "{said}");
    assert!(
        said.contains("(escape, floor 0) imports dominofit_core::model (floor 2)"),
        "{said}"
    );
    assert!(
        said.contains("(dominofit_core::puzzle, floor 1) imports dominofit_core::model (floor 2)"),
        "{said}"
    );
    assert!(
        said.contains("import circle: dominofit_core::model, dominofit_core::puzzle"),
        "{said}"
    );
    assert!(
        said.contains("stray file:") && said.contains("stray.rs"),
        "{said}"
    );
    let (_, said) = tree(false);
    assert!(!said.contains("dominofit_core::puzzle, floor"), "{said}");
    assert!(!said.contains("cli, floor"), "{said}");
}

#[test]
fn the_module_graph_check_sees_a_circle_through_a_re_export() {
    let (passed, said) = scratch(&[
        ("lib.rs", "pub mod model;\n"),
        ("model/mod.rs", "mod a;\nmod b;\npub use b::B;\n"),
        ("model/a.rs", "use super::B;\npub struct A;\n"),
        ("model/b.rs", "use super::a::A;\npub struct B;\n"),
    ]);
    assert!(!passed, "{said}");
    assert!(
        said.contains("import circle: model::a, model::b\n    model::a -> model::b"),
        "{said}"
    );
}

/// An upward import through the crate root: the model names `crate::Run`, which lib.rs
/// re-exports from `action`; and the binary's `cli` (reading the library as
/// `dominofit::`) is a crate of its own, whose imports are read too.
#[test]
fn the_module_graph_check_sees_an_upward_import_through_lib_rs() {
    let (passed, said) = scratch(&[
        (
            "lib.rs",
            "pub mod model;\npub mod action;\npub use action::Run;\n",
        ),
        ("model/mod.rs", "use crate::Run;\npub struct Model;\n"),
        ("action/mod.rs", "pub struct Run;\n"),
        ("main.rs", "mod cli;\nfn main() {}\n"),
        ("cli/mod.rs", "use dominofit::Run;\npub fn run(_: Run) {}\n"),
    ]);
    assert!(!passed, "{said}");
    assert!(
        said.contains("(model, floor 2) imports action (floor 10)"),
        "{said}"
    );
    assert_eq!(said.matches("upward import").count(), 1, "{said}");
}

/// Siblings that reach each other through their parent's glob (`use super::*` brings in
/// what `model/mod.rs` imports from each), and a file no module declares.
#[test]
fn the_module_graph_check_sees_siblings_through_a_glob_and_stray_files() {
    let (passed, said) = scratch(&[
        ("lib.rs", "pub mod model;\n"),
        ("model/mod.rs", "mod a;\nmod b;\nuse a::A;\nuse b::B;\n"),
        (
            "model/a.rs",
            "use super::*;\npub struct A;\npub fn f(_: B) {}\n",
        ),
        (
            "model/b.rs",
            "use super::*;\npub struct B;\npub fn g(_: A) {}\n",
        ),
        ("model/c.rs", "pub struct C;\n"),
    ]);
    assert!(!passed, "{said}");
    assert!(
        said.contains("import circle: model::a, model::b\n"),
        "{said}"
    );
    assert!(
        said.contains("model/c.rs is declared by no module of a crate root"),
        "{said}"
    );
}

/// Siblings that reach each other through their parent's glob re-exports (`pub use
/// a::*; pub use b::*;` in the front, `use super::*` in each), each naming the other's
/// type unqualified, form a circle; the harmless twin, where only one names the other,
/// passes.
#[test]
fn the_module_graph_check_sees_siblings_through_glob_re_exports() {
    let tree = |b_names_a: bool| {
        let b = if b_names_a {
            "use super::*;\npub struct B;\npub fn g(_: A) {}\n"
        } else {
            "use super::*;\npub struct B;\npub fn g() {}\n"
        };
        scratch(&[
            ("lib.rs", "pub mod model;\n"),
            (
                "model/mod.rs",
                "mod a;\nmod b;\npub use a::*;\npub use b::*;\n",
            ),
            (
                "model/a.rs",
                "use super::*;\npub struct A;\npub fn f(_: B) {}\n",
            ),
            ("model/b.rs", b),
        ])
    };
    let (passed, said) = tree(true);
    assert!(!passed, "{said}");
    assert!(
        said.contains("import circle: model::a, model::b\n"),
        "{said}"
    );
    let (passed, said) = tree(false);
    assert!(passed, "{said}");
    assert!(said.contains("no circle, none upward"), "{said}");
}

/// The module tables list the files of the engine's folders: each file of these
/// folders (but `mod.rs` and `tests.rs`) is named in its module's row, so a new file
/// there comes with its line on the map.
#[test]
fn the_module_rows_name_every_file_of_their_folders() {
    let doc = std::fs::read_to_string(Path::new(ROOT).join("ARCHITECTURE.md")).unwrap();
    let row = |module: &str| -> String {
        let start = format!("| `{module}` |");
        doc.lines()
            .find(|l| l.starts_with(&start))
            .unwrap_or_else(|| panic!("ARCHITECTURE.md has no row for `{module}`"))
            .to_string()
    };
    let mut missing = Vec::new();
    for (module, folder) in [
        ("backend::native", "core/src/backend/native"),
        ("backend::native", "core/src/backend/native/search"),
        ("backend::native", "core/src/backend/native/repair"),
        ("backend::native", "core/src/backend/native/matching"),
        ("backend::native", "core/src/backend/native/small"),
        ("backend::native", "core/src/backend/native/argument"),
        ("design", "src/design"),
        ("design", "core/src/design"),
        ("design", "core/src/design/explain"),
        ("certify", "src/certify"),
        ("certify", "src/certify/pb"),
        ("certify", "core/src/certify"),
        ("certify", "core/src/certify/pb"),
        ("backend::registry", "src/backend/registry"),
    ] {
        let text = row(module);
        let mut files: Vec<String> = std::fs::read_dir(Path::new(ROOT).join(folder))
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|n| n.strip_suffix(".rs").map(str::to_string))
            .filter(|stem| stem != "mod" && stem != "tests")
            .collect();
        files.sort();
        for stem in files {
            let named = [
                format!("`{stem}`"),
                format!("`{stem}.rs`"),
                format!("`{stem}/"),
            ]
            .iter()
            .any(|n| text.contains(n.as_str()));
            if !named {
                missing.push(format!("{folder}/{stem}.rs (row `{module}`)"));
            }
        }
    }
    assert!(missing.is_empty(), "not on the map: {missing:#?}");
}

/// Every `.rs` file below `src/` and `core/src/`, sorted.
fn source_files() -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![
        Path::new(ROOT).join("src"),
        Path::new(ROOT).join("core/src"),
    ];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// No file in `src/` or `core/src/` over 500 lines: one job per file.
#[test]
fn no_source_file_is_over_500_lines() {
    let long: Vec<String> = (source_files().into_iter())
        .filter_map(|path| {
            let lines = std::fs::read_to_string(&path).unwrap().lines().count();
            (lines > 500).then(|| format!("{} ({lines} lines)", path.display()))
        })
        .collect();
    assert!(long.is_empty(), "over 500 lines: {long:?}");
}

/// The clock is read through `crate::time` alone (`web-time`'s `Instant`, the standard
/// library's natively and `performance.now()` in a browser, where `std::time::Instant`
/// traps): no file of `src/` or `core/src/` but `core/src/time.rs` names `std::time::Instant`, so that a
/// deadline works the same in both. (Natively the two are one type, so neither the
/// compiler nor clippy can tell them apart: this test does.)
#[test]
fn the_clock_is_read_through_crate_time() {
    let named: Vec<String> = (source_files().into_iter())
        .filter(|path| !path.ends_with("core/src/time.rs"))
        .filter(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            // `std::time::Instant`, alone or in a braced list of `std::time`, on one line
            // or several.
            let braced = text.match_indices("std::time::{").any(|(at, _)| {
                let list = &text[at..];
                list[..list.find('}').unwrap_or(list.len())].contains("Instant")
            });
            text.contains("std::time::Instant") || braced
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(named.is_empty(), "std::time::Instant named in {named:?}");
}

/// Every file the "Where a new X goes" table of ARCHITECTURE.md names exists: the table
/// is what a contributor follows.
#[test]
fn the_where_a_new_x_goes_table_names_files_that_exist() {
    let text = std::fs::read_to_string(Path::new(ROOT).join("ARCHITECTURE.md")).unwrap();
    let table = text
        .split("## Where a new X goes")
        .nth(1)
        .expect("ARCHITECTURE.md has a section \"Where a new X goes\"");
    let table = table.split("\n## ").next().unwrap_or(table);
    let named: Vec<&str> = table
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| t.contains('/') && !t.contains(' '))
        .collect();
    assert!(named.len() >= 15, "too few files named: {named:?}");
    let missing: Vec<&&str> = named
        .iter()
        .filter(|path| !Path::new(ROOT).join(path).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "named in ARCHITECTURE.md but missing: {missing:?}"
    );
}

/// The native searches are generic over their trace (`native/proof.rs`): no check asks
/// whether a proof is being logged. A proof held as an `Option`, asked whether it is
/// there, or matched out of one is the branch this rules out.
#[test]
fn the_native_searches_never_ask_whether_a_proof_is_logged() {
    fn asks(code: &str) -> bool {
        let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        let held = code.split("Option<").skip(1).any(|rest| {
            let inside = rest.split('>').next().unwrap_or("");
            ["Justify", "Trace", "Proof", "Logged"]
                .iter()
                .any(|t| inside.contains(t))
        });
        let asked = ["proof", "trace", "log"].iter().any(|name| {
            [".is_some", ".is_none", ".as_ref", ".as_mut", ".as_deref"]
                .iter()
                .any(|ask| code.contains(&format!("{name}{ask}")))
                || code.contains(&format!("Some({name})"))
        });
        held || asked
    }
    let mut found = Vec::new();
    for dir in [
        "core/src/backend/native/search",
        "core/src/backend/native/small",
    ] {
        for entry in std::fs::read_dir(Path::new(ROOT).join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                if asks(line.split("//").next().unwrap_or("")) {
                    found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "proof-presence branches: {found:#?}");
    // The check finds what it is for: the shapes the searches had before.
    assert!(asks("if let Some(proof) = self.proof.as_deref_mut() {"));
    assert!(asks(
        "pub(super) proof: Option<&'a mut (dyn Justify + 'a)>,"
    ));
    assert!(asks("if self.proof.is_some() {"));
    assert!(asks("proof: Option<Proof<'a>>,"));
    assert!(!asks("self.trace.dead_end(|| decisions(&frames));"));
}
