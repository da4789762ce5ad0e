//! `--timeout T` holds at every size: every backend (built-in, and every installed
//! external solver) on open 512×512 and 1024×1024 boards with `--timeout 1`, under a
//! memory cap (16 GiB of address space, `--memory 8192`), ends within T + 10% + 0.5 s,
//! `unknown`, or refuses the board with one clear error.
//!
//! A test binary of its own: it measures wall time, so it must not share the machine
//! with the rest of the suite (cargo runs test binaries one after the other).

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;

/// The time limit given, and what the answer may take beyond it.
const LIMIT: Duration = Duration::from_secs(1);

fn allowed() -> Duration {
    LIMIT + LIMIT / 10 + Duration::from_millis(500)
}

/// Every backend to try: the built-in ones of this build, the SAT encodings of varisat,
/// and the shipped external programs that are installed (all of them in CI).
fn backends() -> Vec<String> {
    let listed = Command::new(cargo_bin("dominofit"))
        .args(["backends", "--format", "json"])
        .output()
        .unwrap();
    assert!(listed.status.success());
    let mut names = Vec::new();
    for line in String::from_utf8_lossy(&listed.stdout).lines() {
        let backend: serde_json::Value = serde_json::from_str(line).unwrap();
        let name = backend["name"].as_str().unwrap().to_string();
        let installed = backend["status"] == "available" || backend["status"] == "found";
        if !installed {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{name} is not installed; run scripts/install-solvers.sh"
            );
            continue;
        }
        names.push(name);
    }
    for encoding in ["pairwise", "sequential", "sorting-network"] {
        names.push(format!("varisat:{encoding}"));
    }
    // A portfolio with an external member, and external SAT solvers on the encoding
    // whose formula fits at 512×512 (hundreds of megabytes to write before they start).
    if names.iter().any(|n| n == "kissat") {
        names.push("portfolio:native+kissat".to_string());
        names.push("kissat:sorting-network".to_string());
    }
    if names.iter().any(|n| n == "cadical") {
        names.push("cadical:sorting-network".to_string());
    }
    names
}

/// Runs one backend on `board` under the time limit and a 16 GiB address-space cap
/// (and `--memory 8192` for what it plans and starts): the wall time, exit status and
/// what it printed.
fn run(backend: &str, board: &Path) -> (Duration, Option<i32>, String, String) {
    let mut command = Command::new(cargo_bin("dominofit"));
    command
        .arg("solve")
        .arg(board)
        .args(["--backend", backend, "--format", "json", "--memory", "8192"])
        .arg("--timeout")
        .arg(LIMIT.as_secs_f64().to_string());
    // SAFETY: the closure runs between fork and exec and makes one system call.
    unsafe {
        command.pre_exec(|| {
            use nix::sys::resource::{Resource, setrlimit};
            setrlimit(Resource::RLIMIT_AS, 16 << 30, 16 << 30)?;
            Ok(())
        });
    }
    let started = Instant::now();
    let out = command.output().unwrap();
    let took = started.elapsed();
    (
        took,
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_backend_keeps_the_time_limit_up_to_1024_by_1024() {
    let dir = tempfile::tempdir().unwrap();
    let backends = backends();
    let mut late = Vec::new();
    for side in [512, 1024] {
        let (open, _) = dominofit::puzzle::generate::planted_open(side, side, 5, 0).unwrap();
        let board = dir.path().join(format!("open-{side}.json"));
        std::fs::write(&board, open.to_json()).unwrap();
        for backend in &backends {
            let (took, code, stdout, stderr) = run(backend, &board);
            let what = format!("{backend} on {side}x{side}: {took:?}, exit {code:?}");
            match code {
                // Undecided at the limit: unknown, never a guess.
                Some(3) => {
                    let answer: serde_json::Value = serde_json::from_str(stdout.trim())
                        .unwrap_or_else(|e| panic!("{what}: {e}: {stdout}"));
                    assert_eq!(answer["status"], "unknown", "{what}: {stdout}");
                }
                // Solved within the limit: the answer is a tiling, checked by the CLI.
                Some(0) => {
                    let answer: serde_json::Value = serde_json::from_str(stdout.trim())
                        .unwrap_or_else(|e| panic!("{what}: {e}: {stdout}"));
                    assert_eq!(answer["status"], "sat", "{what}: {stdout}");
                }
                // Refused: one line saying why, no answer.
                Some(1) => {
                    assert!(stdout.is_empty(), "{what}: {stdout}");
                    assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
                    assert!(stderr.contains("cannot take this"), "{what}: {stderr}");
                }
                _ => panic!("{what}: {stderr}"),
            }
            eprintln!("{what}");
            if took > allowed() {
                late.push(what);
            }
        }
    }
    assert!(
        late.is_empty(),
        "past {:?} (the limit + 10% + 0.5 s):\n{}",
        allowed(),
        late.join("\n")
    );
}

/// A valid 2048×2048 board made so that greedy pairs leave 1,000 cells far from any
/// partner: rows 1–2047 open, 1,000 pendant cells under the last row (500 of one colour
/// on the left, 500 of the other on the right), clues from a planted tiling of nested
/// U-shaped bands whose legs end on the pendants. The repair's first tiling (a perfect
/// matching) ran before its first look at the clock and took 18 s under `--timeout 3`;
/// it is still the slow part (about 33 s of forest passes), now looking at the clock.
fn far_singles() -> dominofit::puzzle::Instance {
    let (h, w, k) = (2047usize, 2048usize, 500usize);
    let m = h + 1;
    let (mut vertical, mut horizontal) = (Vec::new(), Vec::new());
    let tile =
        |cells: &[(usize, usize)], v: &mut Vec<(usize, usize)>, hz: &mut Vec<(usize, usize)>| {
            for pair in cells.chunks(2) {
                let ((r1, c1), (r2, c2)) = (pair[0], pair[1]);
                if r1 == r2 {
                    hz.push((r1, c1.min(c2)));
                } else {
                    v.push((r1.min(r2), c1));
                }
            }
        };
    // The U from (h, left) up to row `top`, across, and down to (h, right), 1-based.
    let band = |left: usize, right: usize, top: usize| {
        let mut cells: Vec<(usize, usize)> = (top..=h).rev().map(|r| (r, left)).collect();
        cells.extend((left + 1..right).map(|c| (top, c)));
        cells.extend((top..=h).map(|r| (r, right)));
        cells
    };
    let mut pendants = std::collections::BTreeSet::new();
    for i in 0..k {
        let (left, right) = (2 * i + 1, w - 2 * i);
        let outer = band(left, right, 2 * i + 1);
        tile(&outer[1..outer.len() - 1], &mut vertical, &mut horizontal);
        vertical.extend([(h, left), (h, right)]);
        pendants.extend([left, right]);
        tile(
            &band(2 * i + 2, w - 2 * i - 1, 2 * i + 2),
            &mut vertical,
            &mut horizontal,
        );
    }
    for r in 2 * k + 1..=h {
        horizontal.extend((2 * k + 1..=w - 2 * k).step_by(2).map(|c| (r, c)));
    }
    let (mut rows, mut cols) = (vec![0u64; m + 1], vec![0u64; w + 1]);
    for &(r, c) in &vertical {
        rows[r] += 1;
        cols[c] += 1;
    }
    for &(r, c) in &horizontal {
        rows[r] += 2;
        cols[c + 1] += 2;
    }
    let blocked: Vec<[usize; 2]> = (1..=w)
        .filter(|c| !pendants.contains(c))
        .map(|c| [m, c])
        .collect();
    let text = serde_json::json!({
        "name": "far-singles", "rows": m, "cols": w, "blocked": blocked,
        "row_clues": &rows[1..], "col_clues": &cols[1..],
    });
    dominofit::puzzle::parse::parse_given_instances(&text.to_string(), "far-singles", "far-singles")
        .unwrap()
        .remove(0)
}

/// The native engine's every phase looks at the clock: on the board made for the first
/// tiling to be slow, `--timeout 1` ends within the limit and its allowance, `unknown`.
#[test]
fn the_first_tiling_keeps_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("far-singles.json");
    std::fs::write(&board, far_singles().to_json()).unwrap();
    let (took, code, stdout, stderr) = run("native", &board);
    assert_eq!(code, Some(3), "{stdout}{stderr}");
    let answer: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(answer["status"], "unknown", "{stdout}");
    assert!(took <= allowed(), "{took:?} past {:?}", allowed());
}
