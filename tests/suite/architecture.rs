//! The house's floors, read from the imports: no import circle between files and no
//! import that runs up a floor (`scripts/module_graph.py`, whose floors ARCHITECTURE.md
//! describes), the size of every source file, and the "where a new X goes" table of
//! ARCHITECTURE.md naming files that exist.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn graph(src: &Path) -> std::process::Output {
    Command::new("python3")
        .arg(Path::new(ROOT).join("scripts/module_graph.py"))
        .arg("--check")
        .arg("--src")
        .arg(src)
        .output()
        .expect("python3 runs scripts/module_graph.py (scripts/ci-setup.sh installs it)")
}

#[test]
fn the_module_graph_has_no_circle_and_no_upward_import() {
    let out = graph(&Path::new(ROOT).join("src"));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("no circle, none upward"), "{said}");
}

/// The check can fail: a scratch tree with a circle between two files of one floor and
/// an import from the model up into the command line.
#[test]
fn the_module_graph_check_finds_circles_and_upward_imports() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("model")).unwrap();
    std::fs::create_dir_all(src.join("cli")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod model;\npub mod cli;\n").unwrap();
    std::fs::write(src.join("model/mod.rs"), "mod a;\nmod b;\n").unwrap();
    std::fs::write(src.join("model/a.rs"), "use super::b::B;\npub struct A;\n").unwrap();
    std::fs::write(
        src.join("model/b.rs"),
        "use super::a::A;\nuse crate::cli::Args;\npub struct B;\n",
    )
    .unwrap();
    std::fs::write(src.join("cli/mod.rs"), "pub struct Args;\n").unwrap();
    let out = graph(src);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("import circle: model::a, model::b"), "{said}");
    assert!(
        said.contains("(model::b, floor 2) imports cli (floor 10)"),
        "{said}"
    );
}

/// No file in `src/` over 500 lines: one job per file.
#[test]
fn no_source_file_is_over_500_lines() {
    let mut long = Vec::new();
    let mut stack = vec![Path::new(ROOT).join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let lines = std::fs::read_to_string(&path).unwrap().lines().count();
                if lines > 500 {
                    long.push(format!("{} ({lines} lines)", path.display()));
                }
            }
        }
    }
    long.sort();
    assert!(long.is_empty(), "over 500 lines: {long:?}");
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
