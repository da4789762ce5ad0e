//! `--memory`, the grace period before SIGKILL, and the CPU time and peak memory that
//! runs.csv carries, with fake solvers whose behaviour is known.

use std::time::{Duration, Instant};

use dominofit::backend::external::USER_DIR_VAR;
use dominofit::race::{RunRow, read_runs_csv};

use super::hardening::{OBSERVED_6X6, dominofit, fake_descriptors, running, text, unique_sleep};

/// Races `backends` on the observed 6×6 board with `extra` arguments; its rows.
fn race_rows(backends: &str, descriptors: &std::path::Path, extra: &[&str]) -> Vec<RunRow> {
    let dir = tempfile::tempdir().unwrap();
    let out = dominofit()
        .args([
            "race",
            OBSERVED_6X6,
            "--backends",
            backends,
            "--repeat",
            "1",
        ])
        .args(extra)
        .arg("--out")
        .arg(dir.path())
        .env(USER_DIR_VAR, descriptors)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let file = std::fs::File::open(dir.path().join("runs.csv")).unwrap();
    read_runs_csv(file, "runs.csv").unwrap()
}

fn row<'a>(rows: &'a [RunRow], backend: &str) -> &'a RunRow {
    rows.iter().find(|r| r.backend == backend).unwrap()
}

#[test]
fn an_allocating_program_shows_its_peak_memory() {
    let descriptors = fake_descriptors(&["hog"]);
    let rows = race_rows("hog,native", descriptors.path(), &[]);
    let hog = row(&rows, "hog");
    // It gave up by itself (UNKNOWN), long before any time limit: capped.
    assert_eq!(hog.end.name(), "capped", "{hog:?}");
    let peak = hog.peak_mib.unwrap();
    assert!(
        peak >= 195.0,
        "the hog filled 200 MiB, its peak is {peak} MiB"
    );
    // dominofit itself, solving a 6×6 board in-process, holds a few MiB.
    let native = row(&rows, "native");
    assert!(native.peak_mib.is_some_and(|p| p < 100.0), "{native:?}");
}

#[test]
fn a_program_past_the_memory_limit_ends_memout() {
    let descriptors = fake_descriptors(&["hog"]);
    let rows = race_rows("hog,native", descriptors.path(), &["--memory", "100"]);
    let hog = row(&rows, "hog");
    assert_eq!(hog.end.name(), "memout", "{hog:?}");
    assert!(hog.error.as_deref().unwrap().contains("100 MiB"), "{hog:?}");
    assert!(hog.peak_mib.is_some_and(|p| p < 100.0), "{hog:?}");
    assert_eq!(row(&rows, "native").end.name(), "done");
    // `solve` says it in one line and fails.
    let out = dominofit()
        .args(["solve", OBSERVED_6X6, "--backend", "hog", "--memory", "100"])
        .env(USER_DIR_VAR, descriptors.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("ran out of memory under the limit of 100 MiB"),
        "{stderr}"
    );
}

#[test]
fn a_program_that_ignores_sigterm_is_killed_after_the_grace_period() {
    let descriptors = fake_descriptors(&["ignores_term"]);
    let sleep = unique_sleep();
    let started = Instant::now();
    let out = dominofit()
        .args([
            "solve",
            OBSERVED_6X6,
            "--backend",
            "ignores-term",
            "--timeout",
            "1",
            "--format",
            "json",
        ])
        .env(USER_DIR_VAR, descriptors.path())
        .env("FAKE_SLEEP", &sleep)
        .output()
        .unwrap();
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let answer = crate::common::schema::validated("solve", &text(&out.stdout));
    assert_eq!(answer["status"], "unknown");
    // One second of time limit, the grace, and then SIGKILL: far from the 30 s the
    // program would sleep.
    let grace = dominofit::process::TERM_GRACE;
    assert!(
        took >= Duration::from_secs(1) + grace,
        "killed before the grace ended: {took:?}"
    );
    assert!(took < Duration::from_secs(15), "not killed: {took:?}");
    assert_eq!(running(&sleep), "", "its child outlived it");
}

#[test]
fn memory_limits_are_refused_below_64_mib() {
    let out = dominofit()
        .args(["solve", OBSERVED_6X6, "--memory", "10"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--memory"),
        "{}",
        text(&out.stderr)
    );
}

/// The frontier DP plans for the `--memory` budget: a board it counts with the default
/// budget (of a machine with 512 MiB or more available) is stopped under a small one,
/// naming it.
#[test]
fn the_dp_budget_follows_the_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("open.json");
    std::fs::write(&board, OPEN_WIDE).unwrap();
    let small = dominofit()
        .args([
            "count",
            board.to_str().unwrap(),
            "--backend",
            "dp",
            "--memory",
            "64",
        ])
        .output()
        .unwrap();
    assert_eq!(small.status.code(), Some(1));
    let said = text(&small.stderr);
    assert!(said.contains("memory limit of 64.0 MiB"), "{said}");
}

/// An open 14×14 board: the frontier DP counts it with a peak of 1.55 million states
/// (4 s, some 200 MiB), more than 64 MiB hold.
const OPEN_WIDE: &str = r#"{"name":"open-14x14-s1-1","rows":14,"cols":14,"blocked":[],"row_clues":[14,6,12,10,10,8,12,12,8,12,12,12,14,8],"col_clues":[3,19,5,12,6,17,11,11,11,11,12,8,11,13]}"#;

/// `race --jobs 2` runs each run in a worker process pinned to a core: the rows are the
/// ones a one-at-a-time race gives (statuses, counts, order), each with its own CPU
/// time and peak; progress stays off standard error when it is not a terminal.
#[test]
fn a_race_in_worker_processes_gives_the_sequential_rows() {
    let workload = concat!(env!("CARGO_MANIFEST_DIR"), "/models/larger.jsonl");
    let race = |jobs: &str, limit: &str, backends: &str| -> Vec<RunRow> {
        let dir = tempfile::tempdir().unwrap();
        let out = dominofit()
            .args(["race", workload, "--backends", backends, "--repeat", "1"])
            .args(["--limit", limit, "--jobs", jobs, "--timeout", "20"])
            .arg("--out")
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(!text(&out.stderr).contains('['), "{}", text(&out.stderr));
        let file = std::fs::File::open(dir.path().join("runs.csv")).unwrap();
        read_runs_csv(file, "runs.csv").unwrap()
    };
    for (limit, backends) in [("2", "native,dp,varisat"), ("0", "native,dp")] {
        let one = race("1", limit, backends);
        let two = race("2", limit, backends);
        let key = |r: &RunRow| {
            (
                r.instance.clone(),
                r.backend.clone(),
                r.status,
                r.count.clone().filter(|_| r.complete),
                r.end,
            )
        };
        assert_eq!(
            one.iter().map(key).collect::<Vec<_>>(),
            two.iter().map(key).collect::<Vec<_>>()
        );
        assert!(
            two.iter()
                .all(|r| r.cpu_ms.is_some() && r.peak_mib.is_some())
        );
    }
}

/// The varisat worker runs under the limit too: on a 64×64 board its formula does not
/// fit in 64 MiB, and the run says so instead of taking the machine's memory.
#[test]
fn the_varisat_worker_runs_under_the_memory_limit() {
    let huge =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/models/huge.jsonl")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("board.json");
    std::fs::write(&board, huge.lines().next().unwrap()).unwrap();
    let out = dominofit()
        .args([
            "solve",
            board.to_str().unwrap(),
            "--backend",
            "varisat",
            "--memory",
            "64",
        ])
        .args(["--timeout", "30"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("ran out of memory under the limit of 64 MiB"),
        "{stderr}"
    );
}

/// Keeping every tiling of a large board for printing is bounded by pieces, not only by
/// tilings: `solve --limit 0` on an open 128×128 board ends `capped` once the kept
/// tilings hold `MAX_STORED_PIECES` pieces (a million of them did not fit in memory, and
/// decoding them outlived the time limit), for native and for the portfolio alike.
#[test]
fn kept_tilings_are_bounded_by_their_pieces() {
    use dominofit::backend::{self, Ending, MAX_STORED_PIECES};
    use dominofit::driver;
    use dominofit::driver::Request;
    let (open, _) = dominofit::puzzle::generate::planted_open(128, 128, 5, 0).unwrap();
    let pieces_each = 128 * 128 / 2;
    let request = Request {
        limit: 0,
        timeout: None,
        families: None,
    };
    for name in ["native", "portfolio"] {
        let solver = backend::by_name(name, &Default::default()).unwrap();
        let report = driver::run(&open, solver.as_ref(), &request).unwrap();
        assert_eq!(report.header.ending, Ending::Capped, "{name}");
        assert!(!report.complete, "{name}");
        let kept = report.solutions.len();
        assert_eq!(kept, MAX_STORED_PIECES.div_ceil(pieces_each), "{name}");
        let mut distinct = report.solutions.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), kept, "{name}: a tiling kept twice");
    }
}
