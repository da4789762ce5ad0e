//! Test oracles that know nothing of quotas, clue inversion or the model: a brute-force
//! enumerator of geometric tilings, and clues computed straight from a tiling.

#![allow(dead_code)]

pub mod schema;

use std::collections::BTreeMap;

use dominofit::backend::{Backend, Status};
use dominofit::driver::{self, Request};
use dominofit::model::Families;
use dominofit::puzzle::{Instance, Solution};

/// A board in full, for a failure message: its name, size, holes and clues.
pub fn label(instance: &Instance) -> String {
    format!(
        "{} {}x{} blocked {:?} clues {:?}/{:?}",
        instance.name,
        instance.rows,
        instance.cols,
        instance.blocked,
        instance.row_clues,
        instance.col_clues
    )
}

/// Every tiling of a board by varisat on its raw clue sums (no clue inversion, no
/// quotas, none of the native engine's rules): the oracle for boards too large for
/// [`all_tilings`].
pub fn every_tiling(instance: &Instance) -> Vec<Solution> {
    let request = Request {
        limit: 0,
        timeout: None,
        families: Some(Families::RawSums),
    };
    let sat = dominofit::backend::sat::Sat::varisat(dominofit::encode::Encoding::Totalizer);
    let report = driver::run(instance, &sat as &dyn Backend, &request).unwrap();
    assert!(report.complete, "{}", instance.name);
    report.solutions
}

/// Every tiling of the open cells of a board by dominoes, ignoring clues. The first
/// uncovered open cell in row-major order is covered by a piece starting there (its
/// left and upper neighbours are taken), so every tiling is produced exactly once.
pub fn all_tilings(rows: usize, cols: usize, blocked: &[bool]) -> Vec<Solution> {
    fn go(
        k: usize,
        rows: usize,
        cols: usize,
        taken: &mut Vec<bool>,
        vertical: &mut Vec<(usize, usize)>,
        horizontal: &mut Vec<(usize, usize)>,
        out: &mut Vec<Solution>,
    ) {
        let mut k = k;
        while k < rows * cols && taken[k] {
            k += 1;
        }
        if k == rows * cols {
            let mut s = Solution {
                vertical: vertical.clone(),
                horizontal: horizontal.clone(),
            };
            s.vertical.sort_unstable();
            s.horizontal.sort_unstable();
            out.push(s);
            return;
        }
        let (r, c) = (k / cols, k % cols);
        if c + 1 < cols && !taken[k + 1] {
            taken[k] = true;
            taken[k + 1] = true;
            horizontal.push((r, c));
            go(k + 1, rows, cols, taken, vertical, horizontal, out);
            horizontal.pop();
            taken[k] = false;
            taken[k + 1] = false;
        }
        if r + 1 < rows && !taken[k + cols] {
            taken[k] = true;
            taken[k + cols] = true;
            vertical.push((r, c));
            go(k + 1, rows, cols, taken, vertical, horizontal, out);
            vertical.pop();
            taken[k] = false;
            taken[k + cols] = false;
        }
    }
    let mut taken = blocked.to_vec();
    let mut out = Vec::new();
    go(
        0,
        rows,
        cols,
        &mut taken,
        &mut Vec::new(),
        &mut Vec::new(),
        &mut out,
    );
    out
}

/// Row and column dot sums of a tiling, from the rules: a vertical piece puts one dot
/// on its top cell, a horizontal piece two dots on its right cell.
pub fn clues_of(rows: usize, cols: usize, s: &Solution) -> (Vec<u64>, Vec<u64>) {
    let mut r = vec![0; rows];
    let mut c = vec![0; cols];
    for &(i, j) in &s.vertical {
        r[i] += 1;
        c[j] += 1;
    }
    for &(i, j) in &s.horizontal {
        r[i] += 2;
        c[j + 1] += 2;
    }
    (r, c)
}

pub type Clues = (Vec<u64>, Vec<u64>);

/// Tilings of a mask grouped by the clues they produce.
pub fn by_clues(rows: usize, cols: usize, blocked: &[bool]) -> BTreeMap<Clues, Vec<Solution>> {
    let mut groups: BTreeMap<Clues, Vec<Solution>> = BTreeMap::new();
    for t in all_tilings(rows, cols, blocked) {
        groups.entry(clues_of(rows, cols, &t)).or_default().push(t);
    }
    for v in groups.values_mut() {
        v.sort();
    }
    groups
}

pub fn instance(rows: usize, cols: usize, blocked: &[bool], clues: &Clues) -> Instance {
    Instance {
        name: "case".to_string(),
        rows,
        cols,
        blocked: blocked.to_vec(),
        row_clues: clues.0.clone(),
        col_clues: clues.1.clone(),
    }
}

/// The mask with bit k of `bits` blocking cell k.
pub fn mask(rows: usize, cols: usize, bits: u64) -> Vec<bool> {
    (0..rows * cols).map(|k| bits >> k & 1 == 1).collect()
}

/// A small deterministic generator for sampling masks (splitmix64).
pub struct Sample(pub u64);

impl Sample {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// One query with its complete expected solution set (sorted).
pub struct Case {
    pub instance: Instance,
    pub expected: Vec<Solution>,
}

/// The queries for one mask: every realized clue pair, the same pair with the last row
/// and last column clue raised by one, and the all-zero clues.
pub fn mask_cases(rows: usize, cols: usize, blocked: &[bool], out: &mut Vec<Case>) {
    let groups = by_clues(rows, cols, blocked);
    let lookup = |clues: &Clues| groups.get(clues).cloned().unwrap_or_default();
    for (clues, tilings) in &groups {
        out.push(Case {
            instance: instance(rows, cols, blocked, clues),
            expected: tilings.clone(),
        });
        let mut bumped = clues.clone();
        bumped.0[rows - 1] += 1;
        bumped.1[cols - 1] += 1;
        out.push(Case {
            instance: instance(rows, cols, blocked, &bumped),
            expected: lookup(&bumped),
        });
    }
    // A fully blocked mask realizes the zero clues already (the empty tiling).
    let zero = (vec![0; rows], vec![0; cols]);
    if groups.contains_key(&zero) {
        return;
    }
    out.push(Case {
        instance: instance(rows, cols, blocked, &zero),
        expected: lookup(&zero),
    });
}

/// The paper's exhaustive domain (Section 6.1): every mask of every board with
/// 1 <= m, n <= 3, and every clue vector in {0..4} on the open 2x2 board.
pub fn paper_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for rows in 1..=3 {
        for cols in 1..=3 {
            for bits in 0..1u64 << (rows * cols) {
                mask_cases(rows, cols, &mask(rows, cols, bits), &mut out);
            }
        }
    }
    let open = vec![false; 4];
    let groups = by_clues(2, 2, &open);
    for code in 0..625u64 {
        let digit = |k: u32| code / 5u64.pow(k) % 5;
        let clues = (vec![digit(0), digit(1)], vec![digit(2), digit(3)]);
        out.push(Case {
            instance: instance(2, 2, &open, &clues),
            expected: groups.get(&clues).cloned().unwrap_or_default(),
        });
    }
    out
}

/// Beyond the paper: every mask of 3x4 and 4x3, and seeded samples of 4x4 and 4x5 masks.
pub fn extended_cases(samples_4x4: usize, samples_4x5: usize) -> Vec<Case> {
    let mut out = Vec::new();
    for (rows, cols) in [(3, 4), (4, 3)] {
        for bits in 0..1u64 << (rows * cols) {
            mask_cases(rows, cols, &mask(rows, cols, bits), &mut out);
        }
    }
    let mut rng = Sample(20261130);
    for (rows, cols, samples) in [(4, 4, samples_4x4), (4, 5, samples_4x5)] {
        for _ in 0..samples {
            // Sparse masks have the most tilings; block each cell with probability 1/4.
            let bits = (0..rows * cols).fold(0u64, |acc, k| {
                acc | ((rng.next().is_multiple_of(4) as u64) << k)
            });
            mask_cases(rows, cols, &mask(rows, cols, bits), &mut out);
        }
    }
    out
}

/// Runs one case at limits 0, 1 and 2 and checks each answer against the expected set.
/// Returns the number of comparisons made.
pub fn check(case: &Case, backend: &dyn Backend, families: Families) -> usize {
    let name = format!(
        "{}x{} blocked {:?} clues {:?}/{:?} ({:?})",
        case.instance.rows,
        case.instance.cols,
        case.instance.blocked,
        case.instance.row_clues,
        case.instance.col_clues,
        families
    );
    let request = |limit| Request {
        limit,
        timeout: None,
        families: Some(families),
    };
    let all = driver::run(&case.instance, backend, &request(0)).expect(&name);
    let mut got = all.solutions.clone();
    got.sort();
    assert_eq!(got, case.expected, "complete solution set, {name}");
    assert!(all.complete, "{name}");
    let expected_status = match case.expected.len() {
        0 => Status::Unsat,
        1 => Status::Unique,
        _ => Status::Multiple,
    };
    assert_eq!(all.status, expected_status, "{name}");

    let first = driver::run(&case.instance, backend, &request(1)).expect(&name);
    if case.expected.is_empty() {
        assert_eq!(first.status, Status::Unsat, "{name}");
    } else {
        assert_eq!(first.status, Status::Sat, "{name}");
        assert!(case.expected.contains(&first.solutions[0]), "{name}");
    }

    let two = driver::run(&case.instance, backend, &request(2)).expect(&name);
    assert_eq!(two.status, expected_status, "limit 2, {name}");
    assert!(
        two.solutions.iter().all(|s| case.expected.contains(s)),
        "{name}"
    );
    3
}

/// Writes `count` planted boards from `dominofit generate` into `dir`, one file each.
pub fn planted_files(
    dir: &std::path::Path,
    rows: usize,
    cols: usize,
    count: usize,
    seed: u64,
) -> Vec<std::path::PathBuf> {
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("dominofit"))
        .args([
            "generate",
            "--rows",
            &rows.to_string(),
            "--cols",
            &cols.to_string(),
        ])
        .args(["--count", &count.to_string(), "--seed", &seed.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .enumerate()
        .map(|(k, line)| {
            let path = dir.join(format!("planted-{rows}x{cols}-{k}.json"));
            std::fs::write(&path, line).unwrap();
            path
        })
        .collect()
}

/// Writes a solution file from one-based cells and checks it with `dominofit verify`,
/// as a user would; panics with the verifier's words if it is rejected.
pub fn assert_verifies(
    instance: &std::path::Path,
    vertical: &[[usize; 2]],
    horizontal: &[[usize; 2]],
    dir: &std::path::Path,
) {
    let solution = dir.join("solution.json");
    std::fs::write(
        &solution,
        serde_json::json!({"vertical": vertical, "horizontal": horizontal}).to_string(),
    )
    .unwrap();
    succeed(
        std::process::Command::new(assert_cmd::cargo::cargo_bin("dominofit"))
            .arg("verify")
            .arg(instance)
            .arg(&solution),
    );
}

/// Whether an external program can be started (`program version_flag`). Outside CI a
/// missing program skips the test that asked, with a note; under CI (`CI=true`) it fails
/// it, since `.ci/run` installs every program the tests drive.
pub fn program_available(program: &str, version_flag: &str) -> bool {
    let found = std::process::Command::new(program)
        .arg(version_flag)
        .output()
        .is_ok();
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{program} is not installed; run scripts/install-solvers.sh"
        );
        skipped(&format!(
            "{program} is not installed (scripts/install-solvers.sh)"
        ));
    }
    found
}

/// Says, in the test run's own output, that the running test skipped work and why.
///
/// The test harness captures `eprintln!` and shows it only for a failing test, and it has
/// no "skipped" outcome: a test whose solver is missing would pass as a silent `ok`.
/// Written to the process's standard error directly, past the capture, the line appears
/// beside the test's `ok` in every run.
pub fn skipped(why: &str) {
    use std::io::Write;
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED (part of) {test}: {why}");
}

/// Runs a command that must succeed; a failure shows the command and all it printed.
pub fn succeed(command: &mut std::process::Command) -> std::process::Output {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{command:?} failed ({}): {}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The native search with every optional check and heuristic off: propagation alone.
pub fn plain_options() -> dominofit::backend::native::SearchOptions {
    dominofit::backend::native::SearchOptions {
        failure_cache: false,
        path_capacity: false,
        colour_balance: false,
        quota_ratio_order: false,
        restarts: false,
        ..Default::default()
    }
}

/// Every optional mechanism at its most active: a restart after each failure, each
/// restart along another sweep and a jump after every failure at a wall, the colour
/// check's large-component path on every component, the flow check on.
pub fn eager_options() -> dominofit::backend::native::SearchOptions {
    dominofit::backend::native::SearchOptions {
        transport: true,
        restart_unit: 1,
        walls_after_restarts: 0,
        jump_failures: 1,
        component_limit: 1,
        ..Default::default()
    }
}

/// The default's scheduled matching filter and LP refutation, made eager: from the
/// first failure, at every stall, on every board size.
pub fn scheduled_options() -> dominofit::backend::native::SearchOptions {
    dominofit::backend::native::SearchOptions {
        matching: false,
        matching_root_min_cells: 0,
        matching_after_failures: 1,
        matching_share: 100,
        farkas_after_failures: 1,
        restart_unit: 1,
        ..Default::default()
    }
}
