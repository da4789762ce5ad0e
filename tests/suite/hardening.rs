//! Regression tests for faults found by probing the binary as an adversarial user would:
//! a board's name that tries to become syntax, input that says two things, boards too
//! large for a lowering, solvers that flood, crash after a verdict or escape their
//! process group, Ctrl-C at awkward moments, and output files that are links, devices
//! or directories. Each test fails on the code before the fix.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use dominofit::backend::external::USER_DIR_VAR;
use dominofit::escape;

pub(crate) const OBSERVED_6X6: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/models/observed/6x6.json");
const OBSERVED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/observed.jsonl");

/// A name that, copied raw into a DIMACS header, adds the clauses `1` and `-1`: any SAT
/// solver then answers unsat.
const INJECTED: &str = "pwn\np cnf 1 2\n1 0\n-1 0\nc";

pub(crate) fn dominofit() -> Command {
    Command::new(cargo_bin("dominofit"))
}

pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The observed 6×6 board (unique) under another name, as a file in `dir`.
fn renamed_6x6(dir: &Path, name: &str) -> PathBuf {
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(OBSERVED_6X6).unwrap()).unwrap();
    value["name"] = serde_json::Value::String(name.to_string());
    let path = dir.join("renamed.json");
    std::fs::write(&path, value.to_string()).unwrap();
    path
}

/// A directory of user descriptors, one per fake solver script, named like the script
/// with `-` for `_`.
pub(crate) fn fake_descriptors(scripts: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for script in scripts {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fake_solvers")
            .join(format!("{script}.sh"));
        std::fs::write(
            dir.path().join(format!("{script}.toml")),
            format!(
                "name = \"{}\"\nreads = \"dimacs\"\ncommand = [\"{}\", \"{{input}}\"]\nanswer = \"competition\"\n",
                script.replace('_', "-"),
                path.display()
            ),
        )
        .unwrap();
    }
    dir
}

pub(crate) fn leftovers(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect()
}

/// A sleep duration no other test (or other run of this suite) uses, for `FAKE_SLEEP`:
/// the fake solvers sleep that long, so that `running` finds exactly their leftovers.
pub(crate) fn unique_sleep() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let k = NEXT.fetch_add(1, Ordering::SeqCst);
    format!("3{}.{}{:03}", k % 10, std::process::id(), k)
}

/// Processes running `sleep` for exactly `duration` seconds.
pub(crate) fn running(duration: &str) -> String {
    std::thread::sleep(Duration::from_millis(200));
    Command::new("pgrep")
        .args(["-af", &format!("sleep {duration}$")])
        .output()
        .map(|o| text(&o.stdout))
        .unwrap_or_default()
}

#[test]
fn a_name_never_adds_lines_to_an_emitted_model() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(5000);
    for name in [INJECTED, "a\rb\u{1b}[2J\u{0}*\\", long.as_str()] {
        let dirty = renamed_6x6(dir.path(), name);
        let dirty_dir = dir.path().join("dirty");
        std::fs::create_dir_all(&dirty_dir).unwrap();
        let dirty = {
            let moved = dirty_dir.join("board.json");
            std::fs::rename(&dirty, &moved).unwrap();
            moved
        };
        let clean = renamed_6x6(dir.path(), &escape::comment(name));
        for format in ["dimacs", "lp", "opb", "mcc", "model-json"] {
            let emit = |file: &Path| {
                let out = dominofit()
                    .args(["emit", file.to_str().unwrap(), "--to", format])
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{}", text(&out.stderr));
                text(&out.stdout)
            };
            let (a, b) = (emit(&dirty), emit(&clean));
            if format == "model-json" {
                // JSON escapes the name itself; it must still be one document.
                crate::common::schema::validated("model", &a);
            } else {
                assert_eq!(a, b, "{format}: the name changed more than its own text");
                assert!(
                    a.lines().next().unwrap().len() < 200,
                    "{format}: long header"
                );
            }
        }
    }
}

#[test]
fn a_name_never_changes_a_solver_answer() {
    let dir = tempfile::tempdir().unwrap();
    let long = "y".repeat(5000);
    for name in [INJECTED, long.as_str()] {
        let board = renamed_6x6(dir.path(), name);
        for (backend, program, flag) in [
            ("varisat", "", ""),
            ("cadical", "cadical", "--version"),
            ("minisat", "minisat", "--help"),
            ("cryptominisat5", "cryptominisat5", "--version"),
            ("picosat", "picosat", "--version"),
            ("kissat", "kissat", "--version"),
            ("cbc", "cbc", "-quit"),
            ("glpsol", "glpsol", "--version"),
            ("cbc-mps", "cbc", "-quit"),
            ("glpsol-mps", "glpsol", "--version"),
            ("minisat-plus", "minisat+", "--help"),
            ("minizinc-gecode", "minizinc", "--version"),
        ] {
            if !program.is_empty() && !crate::common::program_available(program, flag) {
                continue;
            }
            let out = dominofit()
                .args(["solve", board.to_str().unwrap(), "--limit", "2"])
                .args(["--format", "json", "--backend", backend])
                .output()
                .unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{backend}: {}",
                text(&out.stderr)
            );
            let answer = crate::common::schema::validated("solve", &text(&out.stdout));
            assert_eq!(answer["status"], "unique", "{backend}");
            assert_eq!(
                answer["name"], name,
                "{backend}: JSON keeps the name exactly"
            );
        }
    }
}

#[test]
fn text_output_shows_control_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let board = renamed_6x6(dir.path(), "evil\nforged: unsat\u{1b}[31m");
    let out = dominofit()
        .args(["solve", board.to_str().unwrap()])
        .output()
        .unwrap();
    let shown = text(&out.stdout);
    assert!(!shown.contains('\u{1b}'), "{shown}");
    assert!(!shown.lines().any(|l| l.starts_with("forged")), "{shown}");
    assert!(
        shown.starts_with("evil\\u{a}forged: unsat\\u{1b}[31m: sat"),
        "{shown}"
    );
}

#[test]
fn svg_of_any_name_is_well_formed_xml() {
    let dir = tempfile::tempdir().unwrap();
    let name = "bell\u{7} <tag> & \"quote\" \u{1b}[0m\u{fffe}";
    let board = renamed_6x6(dir.path(), name);
    let svg = dir.path().join("board.svg");
    let out = dominofit()
        .args(["show", board.to_str().unwrap(), "--solve", "--svg"])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let xml = std::fs::read_to_string(&svg).unwrap();
    let document = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let title = document
        .descendants()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(title.starts_with("bell\\u{7} <tag> & \"quote\""), "{title}");
}

#[test]
fn emit_refuses_names_that_would_share_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let workload = dir.path().join("w.jsonl");
    let board = std::fs::read_to_string(OBSERVED_6X6).unwrap();
    let mut lines = String::new();
    for name in ["a/b", "a_b"] {
        let mut value: serde_json::Value = serde_json::from_str(&board).unwrap();
        value["name"] = name.into();
        lines.push_str(&format!("{value}\n"));
    }
    std::fs::write(&workload, lines).unwrap();
    let out_dir = dir.path().join("out");
    let out = dominofit()
        .args(["emit", workload.to_str().unwrap(), "--to", "lp", "-o"])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("would both be written to a_b.lp"),
        "{}",
        text(&out.stderr)
    );
    assert!(!out_dir.exists() || leftovers(&out_dir).is_empty());
}

#[test]
fn input_that_says_two_things_is_refused() {
    let board =
        r#"{"rows":2,"cols":2,"blocked":[],"row_clues":[7],"row_clues":[2],"col_clues":[1,1]}"#;
    let out = dominofit()
        .args(["solve", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(board.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("duplicate key `row_clues`"));

    let dir = tempfile::tempdir().unwrap();
    let workload = dir.path().join("w.jsonl");
    let line = std::fs::read_to_string(OBSERVED_6X6)
        .unwrap()
        .replace('\n', " ");
    std::fs::write(&workload, format!("{line}\n\n{line}\n")).unwrap();
    let out = dominofit()
        .args(["solve", workload.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let message = text(&out.stderr);
    assert!(
        message.contains("line 3") && message.contains("on line 1"),
        "{message}"
    );
}

#[test]
fn generate_refuses_what_solve_would_refuse() {
    let out = dominofit()
        .args(["generate", "--rows", "4097", "--cols", "2"])
        .output()
        .unwrap();
    // A size the command line asked for: a usage error, refused before any board.
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("at most 4096 rows or columns"));
}

#[test]
fn an_oversized_lowering_is_refused_with_an_estimate_before_it_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let (instance, _) = dominofit::puzzle::generate::planted(1024, 1024, 3, 0).unwrap();
    let board = dir.path().join("big.json");
    std::fs::write(&board, instance.to_json()).unwrap();
    for args in [
        vec!["solve", "--backend", "varisat"],
        vec!["emit", "--to", "dimacs"],
    ] {
        let out = dominofit().args(&args).arg(&board).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let message = text(&out.stderr);
        assert!(
            message.contains("clauses") && message.contains("GiB of memory"),
            "{args:?}: {message}"
        );
        assert!(out.stdout.is_empty());
    }
    // Saturated estimates in words, and a hint that names another encoding only when
    // another one is in use.
    let said = |backend: &str| {
        let out = dominofit()
            .args(["solve", "--backend", backend])
            .arg(&board)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{backend}");
        text(&out.stderr)
    };
    let pairwise = said("varisat:pairwise");
    assert!(
        pairwise.contains("more than 10^18 clauses") && !pairwise.contains("18446744073709551615"),
        "{pairwise}"
    );
    assert!(
        pairwise.contains("try the sequential encoding"),
        "{pairwise}"
    );
    let sequential = said("varisat:sequential");
    assert!(
        !sequential.contains("sequential encoding") && sequential.contains("try an ILP backend"),
        "{sequential}"
    );
}

#[test]
fn the_deadline_covers_lowering_and_writing() {
    let descriptors = fake_descriptors(&["marker_hang"]);
    let dir = tempfile::tempdir().unwrap();
    // Its formula needs about 1 GB by the estimate: within the budget of any machine
    // with 2 GB available, and seconds to build and write.
    let (instance, _) = dominofit::puzzle::generate::planted(200, 200, 3, 0).unwrap();
    let board = dir.path().join("b.json");
    std::fs::write(&board, instance.to_json()).unwrap();
    let marker = dir.path().join("started");
    let scratch = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let out = dominofit()
        .args([
            "solve",
            "--backend",
            "marker-hang",
            "--timeout",
            "0.3",
            "--format",
            "json",
        ])
        .arg(&board)
        .env(USER_DIR_VAR, descriptors.path())
        .env("FAKE_SOLVER_MARKER", &marker)
        .env("TMPDIR", scratch.path())
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("\"status\":\"unknown\""));
    crate::common::schema::validated_lines("solve", &out.stdout);
    // Lowering and writing this board take seconds: the deadline stopped them before the
    // program was ever started. (A contract, not a speed claim: the bound is ten times
    // the limit.)
    assert!(
        !marker.exists(),
        "the solver was started after the deadline"
    );
    assert!(elapsed < Duration::from_secs(3), "took {elapsed:?}");
    assert!(leftovers(scratch.path()).is_empty());
}

#[test]
fn a_flooding_solver_is_stopped_and_its_output_bounded() {
    let descriptors = fake_descriptors(&["chatty"]);
    let mut child = dominofit()
        .args([
            "solve",
            OBSERVED_6X6,
            "--backend",
            "chatty",
            "--timeout",
            "8",
        ])
        .env(USER_DIR_VAR, descriptors.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its peak resident memory, read while it runs (VmHWM only grows).
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    while child.try_wait().unwrap().is_none() {
        if let Ok(status) = std::fs::read_to_string(&status_file)
            && let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:"))
        {
            let kib: u64 = line
                .split_whitespace()
                .nth(1)
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            peak_kib = peak_kib.max(kib);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("printed more than"),
        "{}",
        text(&out.stderr)
    );
    // Unbounded, the chatter of eight seconds was held whole: 1.3 GB.
    assert!(peak_kib < 200 * 1024, "peak {peak_kib} KiB");
}

#[test]
fn a_verdict_from_a_crashed_solver_is_an_error_not_an_answer() {
    let descriptors = fake_descriptors(&["verdict_then_crash"]);
    let out = dominofit()
        .args(["solve", OBSERVED_6X6, "--backend", "verdict-then-crash"])
        .env(USER_DIR_VAR, descriptors.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out.stdout).contains("unsat"));
    assert!(
        text(&out.stderr).contains("SIGSEGV"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_child_that_leaves_the_process_group_is_killed_too() {
    let descriptors = fake_descriptors(&["escape"]);
    let sleep = unique_sleep();
    let out = dominofit()
        .args([
            "solve",
            OBSERVED_6X6,
            "--backend",
            "escape",
            "--timeout",
            "0.5",
        ])
        .env(USER_DIR_VAR, descriptors.path())
        .env("FAKE_SLEEP", &sleep)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert_eq!(running(&sleep), "");
}

/// Starts dominofit with `args`, waits until `ready` holds (polling every millisecond),
/// sends SIGINT and returns what it left.
pub(crate) fn interrupt_when(
    args: &[&str],
    env: &[(&str, &std::ffi::OsStr)],
    ready: impl Fn() -> bool,
) -> Output {
    let mut command = dominofit();
    command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let child = command.spawn().unwrap();
    let started = Instant::now();
    while !ready() {
        assert!(started.elapsed() < Duration::from_secs(60), "never ready");
        std::thread::sleep(Duration::from_millis(1));
    }
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn ctrl_c_while_the_model_is_written_leaves_nothing() {
    let descriptors = fake_descriptors(&["marker_hang"]);
    let dir = tempfile::tempdir().unwrap();
    let (instance, _) = dominofit::puzzle::generate::planted(112, 112, 2, 0).unwrap();
    let board = dir.path().join("b.json");
    std::fs::write(&board, instance.to_json()).unwrap();
    for _ in 0..2 {
        let scratch = tempfile::tempdir().unwrap();
        let sleep = unique_sleep();
        // The temporary directory appears just before the model is written into it.
        let out = interrupt_when(
            &["solve", board.to_str().unwrap(), "--backend", "marker-hang"],
            &[
                (USER_DIR_VAR, descriptors.path().as_os_str()),
                ("TMPDIR", scratch.path().as_os_str()),
                ("FAKE_SLEEP", sleep.as_ref()),
            ],
            || !leftovers(scratch.path()).is_empty(),
        );
        assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
        assert!(leftovers(scratch.path()).is_empty(), "temporary files left");
        assert_eq!(running(&sleep), "");
    }
}

#[test]
fn ctrl_c_stops_a_race_which_keeps_what_it_measured() {
    let descriptors = fake_descriptors(&["marker_hang"]);
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("started");
    let out_dir = dir.path().join("race");
    let scratch = tempfile::tempdir().unwrap();
    let sleep = unique_sleep();
    let out = interrupt_when(
        &[
            "race",
            OBSERVED,
            "--backends",
            "native,marker-hang",
            "--repeat",
            "1",
            "--out",
            out_dir.to_str().unwrap(),
        ],
        &[
            (USER_DIR_VAR, descriptors.path().as_os_str()),
            ("FAKE_SOLVER_MARKER", marker.as_os_str()),
            ("TMPDIR", scratch.path().as_os_str()),
            ("FAKE_SLEEP", sleep.as_ref()),
        ],
        || marker.exists(),
    );
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let runs = std::fs::read_to_string(out_dir.join("runs.csv")).unwrap();
    assert!(runs.contains("observed-6x6,native"), "{runs}");
    assert!(
        !runs.contains("marker-hang"),
        "a cut run is no measurement: {runs}"
    );
    assert!(out_dir.join("summary.md").exists());
    assert!(leftovers(scratch.path()).is_empty());
    assert_eq!(running(&sleep), "");
}

#[test]
fn race_out_that_cannot_be_written_is_refused_before_any_run() {
    let descriptors = fake_descriptors(&["marker_hang"]);
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("started");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "keep").unwrap();
    let out = dominofit()
        .args(["race", OBSERVED, "--backends", "marker-hang", "--out"])
        .arg(&file)
        .env(USER_DIR_VAR, descriptors.path())
        .env("FAKE_SOLVER_MARKER", &marker)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not a directory"));
    assert!(
        !marker.exists(),
        "a run started before the output was checked"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
    // A directory where one of its files would go.
    let out_dir = dir.path().join("out");
    std::fs::create_dir_all(out_dir.join("runs.csv")).unwrap();
    let out = dominofit()
        .args(["race", OBSERVED, "--backends", "marker-hang", "--out"])
        .arg(&out_dir)
        .env(USER_DIR_VAR, descriptors.path())
        .env("FAKE_SOLVER_MARKER", &marker)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("runs.csv exists and is not a file"));
    assert!(
        !marker.exists(),
        "a run started before the output was checked"
    );
}

#[test]
fn output_files_follow_the_umask_and_links_stay_links() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let emit_to = |target: &Path| {
        let out = Command::new("sh")
            .arg("-c")
            .arg("umask 022; exec \"$0\" emit \"$1\" --to lp -o \"$2\"")
            .arg(cargo_bin("dominofit"))
            .arg(OBSERVED_6X6)
            .arg(target)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    let fresh = dir.path().join("fresh.lp");
    emit_to(&fresh);
    assert_eq!(mode(&fresh), 0o644);
    // An existing file keeps its own mode.
    std::fs::set_permissions(&fresh, std::fs::Permissions::from_mode(0o640)).unwrap();
    emit_to(&fresh);
    assert_eq!(mode(&fresh), 0o640);
    // A link is written through, and stays a link.
    let real = dir.path().join("real.lp");
    std::fs::write(&real, "").unwrap();
    let link = dir.path().join("link.lp");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    emit_to(&link);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .contains("Subject To")
    );
    // A device is written through, never replaced.
    emit_to(Path::new("/dev/null"));
    // So is standard output, when it is a file opened for appending.
    let log = dir.path().join("log");
    std::fs::write(&log, "precious\n").unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" emit \"$1\" --to lp -o /dev/stdout >> \"$2\"")
        .arg(cargo_bin("dominofit"))
        .arg(OBSERVED_6X6)
        .arg(&log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let appended = std::fs::read_to_string(&log).unwrap();
    assert!(
        appended.starts_with("precious\n\\ dominofit model"),
        "{appended}"
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    // Nothing else is left in the directory.
    let mut names: Vec<String> = leftovers(dir.path())
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["fresh.lp", "link.lp", "log", "real.lp"]);
}

#[test]
fn a_board_a_backend_refuses_does_not_stop_the_workload() {
    let dir = tempfile::tempdir().unwrap();
    let (wide, _) = dominofit::puzzle::generate::planted(70, 70, 1, 0).unwrap();
    let workload = dir.path().join("mixed.jsonl");
    let observed = std::fs::read_to_string(OBSERVED).unwrap();
    std::fs::write(&workload, format!("{}\n{observed}", wide.to_json())).unwrap();
    for command in ["count", "solve"] {
        let out = dominofit()
            .args([command, workload.to_str().unwrap(), "--backend", "dp"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{command}");
        let stdout = text(&out.stdout);
        for name in ["observed-6x6", "observed-7x7", "observed-8x8"] {
            assert!(stdout.contains(name), "{command}: {stdout}");
        }
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&wide.name), "{stderr}");
    }
}

#[test]
fn one_broken_descriptor_takes_nothing_else_away() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("broken.toml"),
        "name = \"x\"\nreads = \"dimacs\"\ncommand = [\n",
    )
    .unwrap();
    let run = |backend: &str| {
        dominofit()
            .args(["solve", OBSERVED_6X6, "--backend", backend])
            .env(USER_DIR_VAR, dir.path())
            .output()
            .unwrap()
    };
    // The built-in and shipped backends still work.
    assert_eq!(run("varisat").status.code(), Some(0));
    let missing = run("x");
    assert_eq!(missing.status.code(), Some(2));
    let message = text(&missing.stderr);
    assert!(message.contains("broken.toml: line 4"), "{message}");
    assert!(
        message.contains("cadical"),
        "shipped backends are listed: {message}"
    );
    // An empty variable is no directory at all.
    let out = dominofit()
        .args(["solve", OBSERVED_6X6, "--backend", "varisat"])
        .env(USER_DIR_VAR, "")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // A descriptor may not take a built-in name.
    std::fs::remove_file(dir.path().join("broken.toml")).unwrap();
    std::fs::write(
        dir.path().join("dp.toml"),
        "name = \"dp\"\nreads = \"dimacs\"\ncommand = [\"x\", \"{input}\"]\nanswer = \"competition\"\n",
    )
    .unwrap();
    let listed = dominofit()
        .arg("backends")
        .env(USER_DIR_VAR, dir.path())
        .output()
        .unwrap();
    assert!(
        text(&listed.stdout).contains("`dp` is the name of a built-in backend"),
        "{}",
        text(&listed.stdout)
    );
}

#[test]
fn an_io_error_names_its_cause_once_and_repeat_is_bounded() {
    let out = dominofit()
        .args(["solve", "/nonexistent/board.json"])
        .output()
        .unwrap();
    let message = text(&out.stderr);
    assert_eq!(
        message.matches("No such file or directory").count(),
        1,
        "{message}"
    );
    let out = dominofit()
        .args(["solve", OBSERVED_6X6, "--repeat", "4294967295"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_wrapper_reporting_a_crash_by_its_status_is_not_trusted() {
    let descriptors = fake_descriptors(&["verdict_then_139"]);
    let out = dominofit()
        .args(["solve", OBSERVED_6X6, "--backend", "verdict-then-139"])
        .env(USER_DIR_VAR, descriptors.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("status 139"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn children_dominofit_inherited_are_not_its_to_kill() {
    let descriptors = fake_descriptors(&["escape"]);
    let inherited = unique_sleep();
    let escaped = unique_sleep();
    // A shell starts a background job, then becomes dominofit: the job is dominofit's
    // child, but not one of its programs.
    let out = Command::new("sh")
        .arg("-c")
        .arg(
            "setsid sleep \"$0\" </dev/null >/dev/null 2>&1 & \
             exec \"$1\" solve \"$2\" --backend escape --timeout 0.3",
        )
        .arg(&inherited)
        .arg(cargo_bin("dominofit"))
        .arg(OBSERVED_6X6)
        .env(USER_DIR_VAR, descriptors.path())
        .env("FAKE_SLEEP", &escaped)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert_eq!(
        running(&escaped),
        "",
        "the program's escaped child lives on"
    );
    let survivor = running(&inherited);
    let _ = Command::new("pkill")
        .args(["-f", &format!("sleep {inherited}$")])
        .status();
    assert_ne!(survivor, "", "the inherited job was killed");
}

#[test]
fn a_portfolio_answers_when_one_member_hangs_and_stops_it() {
    let descriptors = fake_descriptors(&["marker_hang"]);
    for members in ["marker-hang+native", "native+marker-hang"] {
        let sleep = unique_sleep();
        let marker_dir = tempfile::tempdir().unwrap();
        let marker = marker_dir.path().join("started");
        let scratch = tempfile::tempdir().unwrap();
        let out = dominofit()
            .args(["solve", OBSERVED_6X6, "--limit", "2", "--threads", "2"])
            .args(["--backend", &format!("portfolio:{members}")])
            .env(USER_DIR_VAR, descriptors.path())
            .env("FAKE_SLEEP", &sleep)
            .env("FAKE_SOLVER_MARKER", &marker)
            .env("TMPDIR", scratch.path())
            .output()
            .unwrap();
        assert!(leftovers(scratch.path()).is_empty(), "temporary files left");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let first = text(&out.stdout).lines().next().unwrap_or("").to_string();
        assert!(
            first.contains(": unique (portfolio:") && first.ends_with("won by native)"),
            "{first}"
        );
        assert_eq!(running(&sleep), "", "the hanging member lives on");
    }
}

/// A member that returns a tiling breaking the rules (`wrong`) or an answer that cannot
/// be read (`garbage`) is set aside and named on standard error, and the others answer:
/// on every committed unsat board, and on a unique one.
#[test]
fn a_portfolio_sets_aside_a_lying_or_unreadable_member() {
    let descriptors = fake_descriptors(&["wrong", "garbage"]);
    let unsat = concat!(env!("CARGO_MANIFEST_DIR"), "/models/unsat.jsonl");
    let hard = concat!(env!("CARGO_MANIFEST_DIR"), "/models/unsat-hard.jsonl");
    for (liar, workload) in [("wrong", unsat), ("wrong", hard), ("garbage", unsat)] {
        let out = dominofit()
            .args(["solve", workload, "--format", "json", "--threads", "2"])
            .args(["--backend", &format!("portfolio:{liar}+native")])
            .env(USER_DIR_VAR, descriptors.path())
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{liar}: {stderr}");
        let lines = crate::common::schema::validated_lines("solve", &out.stdout);
        let boards = std::fs::read_to_string(workload).unwrap().lines().count();
        assert_eq!(lines.len(), boards);
        for line in &lines {
            assert_eq!(line["status"], "unsat", "{liar}: {line}");
            assert_eq!(line["stats"]["winner"], "native", "{liar}: {line}");
        }
        // Each warning names its board and the member; nothing else is said.
        for line in stderr.lines() {
            assert!(
                line.starts_with("warning: instance `")
                    && line.contains(&format!("portfolio member set aside: backend `{liar}`")),
                "{line}"
            );
        }
        assert!(
            stderr.lines().count() >= 1,
            "{liar}: no member was set aside"
        );
    }
    // Both members broken: one error naming each, exit 1.
    let out = dominofit()
        .args([
            "solve",
            OBSERVED_6X6,
            "--backend",
            "portfolio:wrong+garbage",
        ])
        .env(USER_DIR_VAR, descriptors.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("every member failed")
            && stderr.contains("backend `wrong` returned a tiling that breaks the rules")
            && stderr.contains("backend `garbage` failed"),
        "{stderr}"
    );
}

/// A game board goes to the portfolio's first member's small-board path, which answers
/// before a thread could start: the same answers as native, on every game board, with the
/// member named as the winner; the counts agree too.
#[test]
fn a_portfolio_takes_its_first_members_small_board_path() {
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/models/game.jsonl");
    let run = |backend: &str, command: &str| {
        let out = dominofit()
            .args([command, game, "--format", "json", "--backend", backend])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        crate::common::schema::validated_lines(command, &out.stdout)
    };
    let native = run("native", "solve");
    let portfolio = run("portfolio", "solve");
    assert_eq!(native.len(), 60);
    assert_eq!(portfolio.len(), native.len());
    for (n, p) in native.iter().zip(&portfolio) {
        assert_eq!(p["status"], n["status"], "{p}");
        assert_eq!(p["solutions"], n["solutions"], "{p}");
        assert_eq!(p["stats"]["winner"], "native", "{p}");
    }
    let counted = |lines: &[serde_json::Value]| -> Vec<String> {
        lines.iter().map(|l| l["count"].to_string()).collect()
    };
    assert_eq!(
        counted(&run("portfolio", "count")),
        counted(&run("native", "count"))
    );
}

/// An undecided portfolio names no winner: nobody won. (A uniqueness check, which the
/// repair and its windows answer `multiple` on this board in about half a second: the
/// limit of 0.05 s ends it first.)
#[test]
fn an_unknown_portfolio_has_no_winner() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("open.json");
    let (open, _) = dominofit::puzzle::generate::planted_open(1024, 1024, 5, 0).unwrap();
    std::fs::write(&board, open.to_json()).unwrap();
    let out = dominofit()
        .args([
            "solve",
            board.to_str().unwrap(),
            "--timeout",
            "0.05",
            "--limit",
            "2",
        ])
        .args(["--format", "json", "--backend", "portfolio:native-general"])
        .output()
        .unwrap();
    let json = crate::common::schema::validated("solve", &text(&out.stdout));
    assert_eq!(json["status"], "unknown", "{json}");
    assert!(json["stats"].get("winner").is_none(), "{json}");
}

/// A solver's own UNKNOWN, long before the deadline, is not the time limit; a verdict
/// without the exit status that goes with it is not taken.
#[test]
fn a_solver_giving_up_is_not_the_time_limit_and_exit_codes_are_checked() {
    let descriptors = fake_descriptors(&["says_unknown", "unsat_exit_0"]);
    let out = dominofit()
        .args([
            "solve",
            OBSERVED_6X6,
            "--backend",
            "says-unknown",
            "--timeout",
            "60",
        ])
        .env(USER_DIR_VAR, descriptors.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stdout = text(&out.stdout);
    assert!(stdout.contains(": unknown (says-unknown"), "{stdout}");
    assert!(!stdout.contains("time limit"), "{stdout}");
    assert!(
        stdout.contains("the solver gave up by its own limits"),
        "{stdout}"
    );
    let out = dominofit()
        .args([
            "solve",
            OBSERVED_6X6,
            "--backend",
            "says-unknown",
            "--format",
            "json",
        ])
        .env(USER_DIR_VAR, descriptors.path())
        .output()
        .unwrap();
    let json = crate::common::schema::validated("solve", &text(&out.stdout));
    assert_eq!(json["stats"]["stopped"], "capped", "{json}");
    let out = dominofit()
        .args(["solve", OBSERVED_6X6, "--backend", "unsat-exit-0"])
        .env(USER_DIR_VAR, descriptors.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("said UNSATISFIABLE but exited with status 0"),
        "{stderr}"
    );
}

/// `check-certificate DIR` checks every entry of DIR as a bundle: one that is none is
/// rejected (exit 1), not passed over.
#[test]
fn check_certificate_rejects_an_entry_that_is_no_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("certs");
    let out = dominofit()
        .args(["solve", OBSERVED_6X6, "--limit", "1", "--certify"])
        .arg(&certs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    std::fs::create_dir(certs.join("empty")).unwrap();
    std::fs::write(certs.join("notes.txt"), "hello").unwrap();
    let out = dominofit()
        .arg("check-certificate")
        .arg(&certs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("observed-6x6: accepted"), "{stdout}");
    assert!(
        stdout.contains(
            "empty: rejected: not a certificate bundle: a directory without certificate.json"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("notes.txt: rejected: not a certificate bundle: a file"),
        "{stdout}"
    );
}

/// `--certify DIR` refuses, before solving, a board whose bundle's place is taken by
/// something that is no bundle; an earlier bundle of the board is replaced.
#[test]
fn certify_refuses_a_place_taken_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let certs = dir.path().join("certs");
    std::fs::create_dir_all(certs.join("observed-6x6")).unwrap();
    std::fs::write(certs.join("observed-6x6/mine.txt"), "keep me").unwrap();
    let out = dominofit()
        .args(["solve", OBSERVED_6X6, "--limit", "2", "--certify"])
        .arg(&certs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("is in the way of the certificate of `observed-6x6`"),
        "{stderr}"
    );
    assert!(text(&out.stdout).is_empty(), "solved before refusing");
    assert_eq!(
        std::fs::read_to_string(certs.join("observed-6x6/mine.txt")).unwrap(),
        "keep me"
    );
    // An earlier bundle gives way.
    std::fs::remove_dir_all(certs.join("observed-6x6")).unwrap();
    for _ in 0..2 {
        let out = dominofit()
            .args(["solve", OBSERVED_6X6, "--limit", "1", "--certify"])
            .arg(&certs)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
}

/// Runs `command` to its end or kills it after `limit`, for input that used to be read
/// without end: `None` when it had to be killed.
fn within(mut command: Command, limit: Duration) -> Option<Output> {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Some(child.wait_with_output().unwrap())
}

/// Input is read in bounded chunks: a device of NUL bytes (a file or standard input), a
/// binary file and text that is not UTF-8 fail at their first bad byte, input past the
/// size cap is refused before parsing, and a byte order mark is ignored.
#[test]
fn input_is_read_in_bounded_chunks_and_fails_at_its_first_bad_byte() {
    let expect_error = |command: Command, wanted: &str| {
        let out = within(command, Duration::from_secs(20)).expect("the input was read on");
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(wanted), "{stderr}");
    };
    let mut zero = dominofit();
    zero.args(["solve", "/dev/zero"]);
    expect_error(
        zero,
        "/dev/zero: line 1: malformed JSON: the byte 0x00 at column 1",
    );
    let mut piped = dominofit();
    piped
        .args(["solve", "-"])
        .stdin(std::fs::File::open("/dev/zero").unwrap());
    expect_error(
        piped,
        "<stdin>: line 1: malformed JSON: the byte 0x00 at column 1",
    );
    let dir = tempfile::tempdir().unwrap();
    let latin1 = dir.path().join("latin1.json");
    std::fs::write(&latin1, b"{\"name\": \"caf\xe9\",\n \"rows\": 1}").unwrap();
    let mut bad = dominofit();
    bad.args(["solve", latin1.to_str().unwrap()]);
    expect_error(
        bad,
        "line 1: malformed JSON: a byte that is not UTF-8 (0xE9) at column 14",
    );
    // Past the cap, in valid-looking text: refused when the cap is passed.
    let cap = dominofit::puzzle::parse::MAX_INPUT_BYTES;
    let big = dir.path().join("big.jsonl");
    let line = format!(
        "{}\n",
        std::fs::read_to_string(OBSERVED_6X6).unwrap().trim()
    );
    let mut content = String::with_capacity(cap + line.len());
    while content.len() <= cap {
        content.push_str(&line);
    }
    std::fs::write(&big, &content).unwrap();
    drop(content);
    let mut huge = dominofit();
    huge.args(["solve", big.to_str().unwrap()]);
    expect_error(huge, "larger than the 256 MiB an input file may hold");
    // A byte order mark changes nothing.
    let bom = dir.path().join("bom.json");
    let mut with_bom = b"\xEF\xBB\xBF".to_vec();
    with_bom.extend(std::fs::read(OBSERVED_6X6).unwrap());
    std::fs::write(&bom, with_bom).unwrap();
    let out = dominofit()
        .args(["solve", bom.to_str().unwrap(), "--limit", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("observed-6x6: unique"));
}

#[test]
fn a_portfolio_refuses_members_it_could_not_stop() {
    let out = dominofit()
        .args([
            "solve",
            OBSERVED_6X6,
            "--backend",
            "portfolio:native+varisat",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot be stopped in-process"));
}

#[test]
fn a_solver_message_ending_in_interrupted_is_an_error_not_an_interrupt() {
    let descriptors = fake_descriptors(&["says_interrupted"]);
    let out = dominofit()
        .args(["solve", OBSERVED_6X6, "--backend", "says-interrupted"])
        .env(USER_DIR_VAR, descriptors.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).starts_with("error: "),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_descriptor_may_not_take_a_built_in_name() {
    // Every built-in name, including those of optional solvers this build may lack and
    // the ones the descriptor check used to miss (`dp`, `portfolio`).
    for name in ["dp", "portfolio", "native-matching", "highs", "cadical-lib"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("impostor.toml"),
            format!(
                "name = \"{name}\"\nreads = \"dimacs\"\ncommand = [\"true\", \"{{input}}\"]\nanswer = \"competition\"\n"
            ),
        )
        .unwrap();
        let out = dominofit()
            .arg("backends")
            .env(USER_DIR_VAR, dir.path())
            .output()
            .unwrap();
        let listing = text(&out.stdout);
        assert!(
            listing.contains(&format!("`{name}` is the name of a built-in backend")),
            "{name}: {listing}"
        );
    }
    // `dp` still means the frontier DP.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("impostor.toml"),
        "name = \"dp\"\nreads = \"dimacs\"\ncommand = [\"false\", \"{input}\"]\nanswer = \"competition\"\n",
    )
    .unwrap();
    let out = dominofit()
        .args(["solve", OBSERVED_6X6, "--backend", "dp", "--limit", "2"])
        .env(USER_DIR_VAR, dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(": unique (dp"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn an_encoding_suffix_needs_a_backend_that_takes_one() {
    for name in [
        "native:totalizer",
        "dp:totalizer",
        "microlp:sequential",
        "portfolio:native:totalizer",
    ] {
        let out = dominofit()
            .args(["solve", OBSERVED_6X6, "--backend", name])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("takes no cardinality encoding"),
            "{name}: {}",
            text(&out.stderr)
        );
    }
    let out = dominofit()
        .args(["solve", OBSERVED_6X6, "--backend", "varisat:nonsense"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown encoding `nonsense`"));
    let out = dominofit()
        .args([
            "solve",
            OBSERVED_6X6,
            "--backend",
            "varisat:sequential",
            "--limit",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(": unique (varisat:sequential"));
}

/// Three boards `backend` cannot solve in 0.3 s: each run's worker process must be gone
/// before the next run starts, and no thread of the race may be running varisat.
pub(crate) fn runs_in_a_worker_process_killed_at_each_deadline(backend: &str, boards: String) {
    let dir = tempfile::tempdir().unwrap();
    let workload = dir.path().join("hard.jsonl");
    std::fs::write(&workload, boards).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let mut race = Command::new(assert_cmd::cargo::cargo_bin("dominofit"))
        .arg("race")
        .arg(&workload)
        .args(["--backends", backend, "--timeout", "0.3", "--repeat", "1"])
        .env("TMPDIR", scratch.path())
        .arg("--out")
        .arg(dir.path().join("out"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = race.id();
    let (mut most_workers, mut varisat_threads, mut samples) = (0, 0, 0);
    while race.try_wait().unwrap().is_none() {
        let workers = Command::new("pgrep")
            .args(["-c", "-P", &pid.to_string(), "-f", "worker-solve"])
            .output()
            .unwrap();
        let workers: usize = text(&workers.stdout).trim().parse().unwrap_or(0);
        most_workers = most_workers.max(workers);
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
            for task in tasks.flatten() {
                let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
                varisat_threads += usize::from(comm.trim() == "varisat");
            }
        }
        samples += 1;
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(race.wait().unwrap().success());
    assert!(samples > 5, "the race ended before it could be watched");
    assert_eq!(most_workers, 1, "worker processes piled up or never ran");
    assert_eq!(varisat_threads, 0, "varisat ran in a thread of the race");
    let runs = std::fs::read_to_string(dir.path().join("out/runs.csv")).unwrap();
    assert_eq!(runs.matches(",unknown,").count(), 3, "{runs}");
    assert!(leftovers(scratch.path()).is_empty(), "temporary files left");
}

#[test]
fn varisat_runs_in_a_worker_process_killed_at_each_deadline() {
    let boards: String =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/models/huge.jsonl"))
            .unwrap()
            .lines()
            .take(3)
            .map(|l| format!("{l}\n"))
            .collect();
    runs_in_a_worker_process_killed_at_each_deadline("varisat", boards);
}

/// microlp looks at its time limit only between phases: on a 1024×1024 board it
/// answered a limit of 1 s after 4–9 s in-process. Large models under a time limit run
/// in a worker (open 256×256 boards, 130,560 placements).
#[test]
fn microlp_runs_in_a_worker_process_killed_at_each_deadline() {
    let boards: String = (0..3)
        .map(|k| {
            let (board, _) = dominofit::puzzle::generate::planted_open(256, 256, 8, k).unwrap();
            format!("{}\n", board.to_json())
        })
        .collect();
    runs_in_a_worker_process_killed_at_each_deadline("microlp", boards);
}

#[test]
fn runs_csv_carries_the_cpu_time_of_the_programs_run() {
    // A solver that spins for half a second: its CPU time (through `timeout` and its
    // shell, which dominofit waits for) shows as about as much as the wall time.
    let descriptors = fake_descriptors(&["busy", "verdict_then_crash"]);
    let dir = tempfile::tempdir().unwrap();
    let out = dominofit()
        .args([
            "race",
            OBSERVED_6X6,
            "--backends",
            "busy,native,verdict-then-crash",
            "--repeat",
            "1",
        ])
        .arg("--out")
        .arg(dir.path())
        .env(USER_DIR_VAR, descriptors.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let file = std::fs::File::open(dir.path().join("runs.csv")).unwrap();
    let rows = dominofit::race::read_runs_csv(file, "runs.csv").unwrap();
    let busy = rows.iter().find(|r| r.backend == "busy").unwrap();
    assert_eq!(busy.status, dominofit::backend::Status::Unknown);
    let cpu = busy.cpu_ms.unwrap();
    // A loose bound: on a loaded machine the spinning shell gets less than its core.
    assert!((100.0..5000.0).contains(&cpu), "busy solver CPU {cpu} ms");
    let native = rows.iter().find(|r| r.backend == "native").unwrap();
    assert!(native.cpu_ms.is_some_and(|c| c < 100.0), "{native:?}");
    // And how each run ended.
    let end = |backend: &str| {
        rows.iter()
            .find(|r| r.backend == backend)
            .unwrap()
            .end
            .name()
    };
    // It gave up by itself (UNKNOWN) before any time limit: capped, not timeout.
    assert_eq!(end("busy"), "capped");
    assert_eq!(end("native"), "done");
    assert_eq!(end("verdict-then-crash"), "crash");
}
