//! External backends: every shipped descriptor whose program is installed agrees with
//! the brute-force enumerator and with native (statuses and complete solution sets); and
//! fake solvers that crash, hang, print garbage, lie or return a wrong model give the
//! documented error or `unknown`, never `unsat`, and leave no temporary file behind.
//!
//! Under CI (`CI=true`) a shipped program that is missing is a failure, not a skip.

use std::path::Path;
use std::process::Command;

use crate::common::{check, paper_cases};
use assert_cmd::cargo::cargo_bin;
use dominofit::backend::AnswerError;
use dominofit::backend::external::{self, Descriptor, External};
use dominofit::backend::{BackendError, Ending, Status};
use dominofit::driver::{self, Request};
use dominofit::encode::Encoding;
use dominofit::files::{read_instances, read_solutions};
use dominofit::model::Families;

fn installed(d: &Descriptor) -> bool {
    let found = external::probe(d).is_ok();
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{} is not installed; run scripts/install-solvers.sh",
            d.name
        );
        crate::common::skipped(&format!("{} is not installed", d.name));
    }
    found
}

#[test]
fn shipped_descriptors_agree_with_brute_force_and_native() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cases = paper_cases();
    let descriptors = dominofit::backend::registry::descriptors();
    assert!(descriptors.broken.is_empty(), "{:?}", descriptors.broken);
    for (name, descriptor) in descriptors.found {
        if !installed(&descriptor) {
            continue;
        }
        let backend = External {
            descriptor,
            encoding: Encoding::Totalizer,
        };
        for board in ["6x6", "7x7", "8x8"] {
            let instance = read_instances(&format!("{root}/models/observed/{board}.json"))
                .unwrap()
                .remove(0);
            let published =
                read_solutions(&format!("{root}/models/observed/{board}.solution.json")).unwrap();
            // With and without a time limit: the limit's arguments change the command
            // line, and a program may take them only in some places.
            for timeout in [None, Some(std::time::Duration::from_secs(60))] {
                let request = Request {
                    limit: 2,
                    timeout,
                    families: None,
                };
                let report = driver::run(&instance, &backend, &request)
                    .unwrap_or_else(|e| panic!("{name} {board} {timeout:?}: {e}"));
                assert_eq!(report.status, Status::Unique, "{name} {board} {timeout:?}");
                assert_eq!(report.solutions, published, "{name} {board} {timeout:?}");
            }
        }
        // A sample of the exhaustive domain, every 23rd case: complete solution sets at
        // limits 0, 1 and 2, families in turn.
        let mut compared = 0;
        for (k, case) in cases.iter().enumerate().filter(|(k, _)| k % 23 == 0) {
            let families = [Families::AllQuotas, Families::RawSums, Families::CutQuotas][k % 3];
            compared += check(case, &backend, families);
        }
        println!("{name}: observed boards unique, {compared} comparisons on the sample");
    }
}

fn fake(dir: &Path, script: &str) -> External {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_solvers")
        .join(script);
    let text = format!(
        "name = \"fake\"\nreads = \"dimacs\"\ncommand = [\"{}\", \"{{input}}\"]\nanswer = \"competition\"\n",
        script.display()
    );
    let _ = dir;
    External {
        descriptor: Descriptor::parse(&text, "fake.toml").unwrap(),
        encoding: Encoding::Totalizer,
    }
}

fn observed_8x8() -> dominofit::puzzle::Instance {
    read_instances(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/models/observed/8x8.json"
    ))
    .unwrap()
    .remove(0)
}

fn request(timeout: Option<f64>) -> Request {
    Request {
        limit: 1,
        timeout: timeout.map(std::time::Duration::from_secs_f64),
        families: None,
    }
}

#[test]
fn a_crash_is_an_error_naming_the_backend() {
    let dir = tempfile::tempdir().unwrap();
    let err = driver::run(
        &observed_8x8(),
        &fake(dir.path(), "crash.sh"),
        &request(None),
    )
    .unwrap_err();
    let message = err.to_string();
    assert!(
        matches!(
            err,
            BackendError::Answer {
                source: AnswerError::NoVerdict { .. },
                ..
            }
        ),
        "{message}"
    );
    assert!(
        message.contains("fake")
            && message.contains("status 1")
            && message.contains("segmentation fault"),
        "{message}"
    );
}

#[test]
fn garbage_and_lies_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    for script in ["garbage.sh", "liar.sh"] {
        let err =
            driver::run(&observed_8x8(), &fake(dir.path(), script), &request(None)).unwrap_err();
        assert!(
            matches!(
                err,
                BackendError::Answer {
                    source: AnswerError::Unreadable(_) | AnswerError::StatusMismatch { .. },
                    ..
                }
            ),
            "{script}: {err}"
        );
    }
}

#[test]
fn a_wrong_model_is_caught_by_the_verifier() {
    let dir = tempfile::tempdir().unwrap();
    let err = driver::run(
        &observed_8x8(),
        &fake(dir.path(), "wrong.sh"),
        &request(None),
    )
    .unwrap_err();
    assert!(matches!(err, BackendError::WrongSolution { .. }), "{err}");
}

#[test]
fn a_hang_is_killed_at_the_deadline_and_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let report = driver::run(
        &observed_8x8(),
        &fake(dir.path(), "hang.sh"),
        &request(Some(0.5)),
    )
    .unwrap();
    assert_eq!(report.status, Status::Unknown);
    assert_eq!(report.header.ending, Ending::Timeout);
    assert!(!report.complete);
    // Killed with its whole process group: the script's `sleep 31.25` is gone too.
    assert!(started.elapsed().as_secs_f64() < 20.0);
    std::thread::sleep(std::time::Duration::from_millis(200));
    let leftover = Command::new("pgrep").args(["-f", "sleep 31.25"]).output();
    if let Ok(out) = leftover {
        assert!(
            out.stdout.is_empty(),
            "left running: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

/// A directory holding one user descriptor, `sleepy`, running `script` from
/// `tests/fake_solvers`.
fn sleepy_descriptors(script: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_solvers")
        .join(script);
    std::fs::write(
        dir.path().join("sleepy.toml"),
        format!(
            "name = \"sleepy\"\nreads = \"dimacs\"\ncommand = [\"{}\", \"{{input}}\"]\nanswer = \"competition\"\n",
            script.display()
        ),
    )
    .unwrap();
    dir
}

#[test]
fn user_descriptors_work_from_the_command_line_and_leave_nothing_behind() {
    let descriptors = sleepy_descriptors("hang.sh");
    let scratch = tempfile::tempdir().unwrap();
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/models/observed/8x8.json");
    let out = Command::new(cargo_bin("dominofit"))
        .args([
            "solve",
            model,
            "--backend",
            "sleepy",
            "--timeout",
            "0.3",
            "--format",
            "json",
        ])
        .env(external::USER_DIR_VAR, descriptors.path())
        .env("TMPDIR", scratch.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"status\":\"unknown\""));
    crate::common::schema::validated_lines("solve", &out.stdout);
    let left: Vec<_> = std::fs::read_dir(scratch.path()).unwrap().collect();
    assert!(left.is_empty(), "temporary files left behind: {left:?}");
    let listed = Command::new(cargo_bin("dominofit"))
        .arg("backends")
        .env(external::USER_DIR_VAR, descriptors.path())
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&listed.stdout).contains("sleepy"));
}

#[test]
fn bad_descriptors_are_refused_with_their_file() {
    for (text, expected) in [
        (
            "name = \"x\"\nreads = \"dimacs\"\ncommand = [\"x\"]\nanswer = \"competition\"\n",
            "never mentions {input}",
        ),
        (
            "name = \"x\"\nreads = \"lp\"\ncommand = [\"x\", \"{input}\"]\nanswer = \"competition\"\n",
            "does not go with",
        ),
        (
            "name = \"x\"\nreads = \"dimacs\"\ncommand = [\"x\", \"{input}\"]\nanswer = \"competition\"\ncolour = 1\n",
            "unknown field",
        ),
        (
            "name = \"x\"\nreads = \"dimacs\"\ncommand = [\"x\", \"{input}\"]\nanswer = \"competition\"\nproof = [\"-p\"]\n",
            "`proof` never mentions {proof}",
        ),
        (
            "name = \"x\"\nreads = \"dimacs\"\ncommand = [\"x\", \"{input}\", \"{output}\"]\nanswer = \"competition\"\nproof = [\"{proof}\"]\n",
            "`command` may not use it",
        ),
        (
            "name = \"x\"\nreads = \"lp\"\ncommand = [\"x\", \"{input}\", \"{output}\"]\nanswer = \"glpsol\"\nproof = [\"{proof}\"]\n",
            "only with the competition answer format",
        ),
    ] {
        let err = Descriptor::parse(text, "bad.toml").unwrap_err().to_string();
        assert!(
            err.starts_with("bad.toml: ") && err.contains(expected),
            "{err}"
        );
    }
}

/// A descriptor may not take a built-in backend's name: the registry, where descriptors
/// join the built-ins, sets it aside with its file named, and the built-in keeps the name.
#[test]
fn a_descriptor_named_as_a_builtin_is_refused_where_it_joins_the_registry() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mine.toml"),
        "name = \"native\"\nreads = \"dimacs\"\ncommand = [\"x\", \"{input}\"]\nanswer = \"competition\"\n",
    )
    .unwrap();
    let listed = Command::new(cargo_bin("dominofit"))
        .args(["backends"])
        .env(external::USER_DIR_VAR, dir.path())
        .output()
        .unwrap();
    // The text listing says it on standard output, after the table.
    let said = String::from_utf8_lossy(&listed.stdout);
    assert!(
        said.contains("mine.toml: `native` is the name of a built-in backend"),
        "{said}"
    );
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/models/observed/8x8.json");
    let solved = Command::new(cargo_bin("dominofit"))
        .args([
            "solve",
            model,
            "--backend",
            "native",
            "--limit",
            "2",
            "--format",
            "json",
        ])
        .env(external::USER_DIR_VAR, dir.path())
        .output()
        .unwrap();
    assert!(
        solved.status.success(),
        "{}",
        String::from_utf8_lossy(&solved.stderr)
    );
    let answer =
        crate::common::schema::validated("solve", &String::from_utf8_lossy(&solved.stdout));
    assert_eq!(answer["backend"], "native");
    assert_eq!(answer["status"], "unique");
}

#[test]
fn an_interrupt_stops_the_program_and_cleans_up() {
    let descriptors = sleepy_descriptors("hang_interrupt.sh");
    let scratch = tempfile::tempdir().unwrap();
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/models/observed/8x8.json");
    let child = Command::new(cargo_bin("dominofit"))
        .args(["solve", model, "--backend", "sleepy"])
        .env(external::USER_DIR_VAR, descriptors.path())
        .env("TMPDIR", scratch.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the model file exists, i.e. the program is running.
    let started = std::time::Instant::now();
    while std::fs::read_dir(scratch.path()).unwrap().next().is_none() {
        assert!(started.elapsed().as_secs() < 20, "the run never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let left: Vec<_> = std::fs::read_dir(scratch.path()).unwrap().collect();
    assert!(left.is_empty(), "temporary files left behind: {left:?}");
    std::thread::sleep(std::time::Duration::from_millis(200));
    if let Ok(out) = Command::new("pgrep").args(["-f", "sleep 32.75"]).output() {
        assert!(
            out.stdout.is_empty(),
            "left running: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}
