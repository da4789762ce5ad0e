//! The race harness: contradictory decisive answers stop the race with the instance
//! named; reports carry one row per instance and backend.

use dominofit::backend::native::Native;
use dominofit::backend::{
    Backend, BackendError, Budget, Counters, Ending, Outcome, Sink, SolveResult,
};
use dominofit::model::Model;
use dominofit::puzzle::generate::planted;
use dominofit::race::{self, RaceError, RaceOptions};

/// A test-only backend that claims every board has no solution.
struct AlwaysUnsat;

impl Backend for AlwaysUnsat {
    fn capabilities(&self) -> dominofit::backend::Capabilities {
        dominofit::backend::Capabilities::SEARCH
    }

    fn name(&self) -> &str {
        "always-unsat"
    }

    fn solve(&self, _: &Model, _: usize, _: &Budget, _: &mut Sink) -> SolveResult {
        Ok(Outcome {
            ending: Ending::Exhausted,
            counters: Counters::default(),
        })
    }
}

fn options() -> RaceOptions {
    RaceOptions {
        repeat: 1,
        ..RaceOptions::new(2)
    }
}

#[test]
fn a_wrong_backend_stops_the_race_naming_the_instance() {
    let instances: Vec<_> = (0..3).map(|k| planted(6, 6, 9, k).unwrap().0).collect();
    let workloads = vec![("game.jsonl".to_string(), instances)];
    let backends: Vec<Box<dyn Backend>> = vec![Box::new(Native::default()), Box::new(AlwaysUnsat)];
    let err = race::race(&workloads, &backends, &options(), &mut |_, _, _| {}).unwrap_err();
    assert!(matches!(err, RaceError::Contradiction(_)), "{err}");
    assert_names(&err, "planted-6x6-s9-1", "always-unsat");
}

/// The race's error names the instance and the backend.
fn assert_names(err: &RaceError, instance: &str, backend: &str) {
    let message = err.to_string();
    assert!(
        message.contains(instance) && message.contains(backend),
        "{message}"
    );
}

#[test]
fn every_instance_and_backend_gets_a_row() {
    let instances: Vec<_> = (0..4).map(|k| planted(7, 7, 2, k).unwrap().0).collect();
    let workloads = vec![("w.jsonl".to_string(), instances)];
    let backends: Vec<Box<dyn Backend>> = vec![
        Box::new(Native::default()),
        Box::new(dominofit::backend::sat::Sat::varisat(
            dominofit::encode::Encoding::Totalizer,
        )),
    ];
    let (mut started, mut finished) = (0, 0);
    let rows = race::race(
        &workloads,
        &backends,
        &options(),
        &mut |done, total, next| {
            assert_eq!(total, 8);
            if next.is_empty() {
                finished += 1;
                assert_eq!(done, finished);
            } else {
                // Announced before it runs: nothing of it is done yet.
                assert_eq!(done, started);
                started += 1;
            }
        },
    )
    .unwrap();
    assert_eq!((started, finished), (8, 8));
    assert_eq!(rows.len(), 8);
    let summary = race::summarize(&rows, Some(1), None);
    for name in ["native", "varisat"] {
        assert_eq!(summary.backends[name].instances, 4);
        assert_eq!(summary.backends[name].solved, 4);
    }
    let mut csv = Vec::new();
    race::write_runs_csv(&rows, &mut csv).unwrap();
    assert_eq!(String::from_utf8(csv).unwrap().lines().count(), 9);
}

#[test]
fn shards_cover_the_campaign_exactly_once() {
    use dominofit::race::Shard;
    let workloads: Vec<(String, Vec<_>)> = vec![
        (
            "a".to_string(),
            (0..7).map(|k| planted(4, 4, 1, k).unwrap().0).collect(),
        ),
        (
            "b".to_string(),
            (0..5).map(|k| planted(5, 4, 1, k).unwrap().0).collect(),
        ),
    ];
    let all: Vec<(String, String)> = workloads
        .iter()
        .flat_map(|(f, w)| w.iter().map(move |i| (f.clone(), i.name.clone())))
        .collect();
    for count in 1..=5 {
        let mut seen: Vec<(String, String)> = Vec::new();
        for index in 1..=count {
            let shard = Shard::parse(&format!("{index}/{count}")).unwrap();
            for (file, instances) in shard.select(workloads.clone()) {
                seen.extend(instances.into_iter().map(|i| (file.clone(), i.name)));
            }
        }
        seen.sort();
        let mut expected = all.clone();
        expected.sort();
        assert_eq!(seen, expected, "{count} shards");
    }
    for bad in ["0/3", "4/3", "1/0", "x", "1-2"] {
        assert!(Shard::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn runs_csv_round_trips_for_merging() {
    let instances: Vec<_> = (0..3).map(|k| planted(6, 5, 4, k).unwrap().0).collect();
    let workloads = vec![("w.jsonl".to_string(), instances)];
    let backends: Vec<Box<dyn Backend>> = vec![Box::new(Native::default())];
    let rows = race::race(&workloads, &backends, &options(), &mut |_, _, _| {}).unwrap();
    let mut csv = Vec::new();
    race::write_runs_csv(&rows, &mut csv).unwrap();
    let back = race::read_runs_csv(csv.as_slice(), "runs.csv").unwrap();
    assert_eq!(back.len(), rows.len());
    for (a, b) in back.iter().zip(&rows) {
        assert_eq!(
            (&a.instance, &a.backend, a.status, a.nodes, a.rows, a.limit),
            (&b.instance, &b.backend, b.status, b.nodes, b.rows, b.limit)
        );
        let (ta, tb) = (a.time_ms.unwrap(), b.time_ms.unwrap());
        assert!((ta - tb).abs() < 1e-3, "{ta} {tb}");
    }
}

/// A test-only backend that fails on every board, like a crashed external program.
struct AlwaysFails;

impl Backend for AlwaysFails {
    fn capabilities(&self) -> dominofit::backend::Capabilities {
        dominofit::backend::Capabilities::SEARCH
    }

    fn name(&self) -> &str {
        "always-fails"
    }

    fn solve(&self, _: &Model, _: usize, _: &Budget, _: &mut Sink) -> SolveResult {
        Err(BackendError::Failed {
            backend: "always-fails".into(),
            message: "exit status 139".into(),
        })
    }
}

/// A test-only backend that hands over a tiling that breaks the rules.
struct WrongTiling;

impl Backend for WrongTiling {
    fn capabilities(&self) -> dominofit::backend::Capabilities {
        dominofit::backend::Capabilities::SEARCH
    }

    fn name(&self) -> &str {
        "wrong-tiling"
    }

    fn solve(
        &self,
        _model: &Model,
        _limit: usize,
        _budget: &Budget,
        sink: &mut Sink,
    ) -> SolveResult {
        sink(&[0]);
        Ok(Outcome {
            ending: Ending::Exhausted,
            counters: Counters::default(),
        })
    }
}

#[test]
fn a_failing_backend_gets_error_rows_and_the_race_goes_on() {
    let instances: Vec<_> = (0..3).map(|k| planted(6, 6, 5, k).unwrap().0).collect();
    let workloads = vec![("w.jsonl".to_string(), instances)];
    let backends: Vec<Box<dyn Backend>> = vec![Box::new(AlwaysFails), Box::new(Native::default())];
    let rows = race::race(&workloads, &backends, &options(), &mut |_, _, _| {}).unwrap();
    assert_eq!(rows.len(), 6);
    let summary = race::summarize(&rows, Some(1), None);
    let failed = &summary.backends["always-fails"];
    assert_eq!((failed.errors, failed.unknown, failed.solved), (3, 0, 0));
    assert_eq!(summary.backends["native"].solved, 3);
    let mut csv = Vec::new();
    race::write_runs_csv(&rows, &mut csv).unwrap();
    let back = race::read_runs_csv(csv.as_slice(), "runs.csv").unwrap();
    let untimed = |rows: &[race::RunRow]| -> Vec<race::RunRow> {
        rows.iter()
            .map(|r| race::RunRow {
                time_ms: r.time_ms.map(|_| 0.0),
                // Not a column of runs.csv: only the race page shows it.
                tiling: None,
                ..r.clone()
            })
            .collect()
    };
    assert_eq!(untimed(&back), untimed(&rows));
    let md = race::markdown(&rows, &summary);
    assert!(md.contains("exit status 139"), "{md}");
}

#[test]
fn a_wrong_tiling_stops_the_race() {
    let instances = vec![planted(6, 6, 5, 0).unwrap().0];
    let workloads = vec![("w.jsonl".to_string(), instances)];
    let backends: Vec<Box<dyn Backend>> = vec![Box::new(WrongTiling)];
    let err = race::race(&workloads, &backends, &options(), &mut |_, _, _| {}).unwrap_err();
    assert!(matches!(err, RaceError::WrongSolution { .. }), "{err}");
    assert!(err.to_string().contains("planted-6x6-s5-1"), "{err}");
}

#[test]
fn reports_have_the_papers_tables_and_two_plots() {
    let small: Vec<_> = (0..2).map(|k| planted(6, 6, 3, k).unwrap().0).collect();
    let large: Vec<_> = (0..8).map(|k| planted(8, 8, 3, k).unwrap().0).collect();
    let workloads = vec![
        ("models/small.jsonl".to_string(), small),
        ("models/large.jsonl".to_string(), large),
    ];
    let backends: Vec<Box<dyn Backend>> = vec![
        Box::new(Native::default()),
        Box::new(dominofit::backend::sat::Sat::varisat(
            dominofit::encode::Encoding::Totalizer,
        )),
    ];
    let rows = race::race(&workloads, &backends, &options(), &mut |_, _, _| {}).unwrap();
    let summary = race::summarize(&rows, Some(1), None);
    let md = race::markdown(&rows, &summary);
    assert!(md.starts_with("# Race: uniqueness check"), "{md}");
    assert!(md.contains("| 8 large | native | 8/8 |"), "{md}");
    assert!(md.contains("| 2 small | varisat | 2/2 |"), "{md}");
    // Small workloads also get Table 1's per-instance shape; large ones do not.
    assert!(md.contains("## small per instance"), "{md}");
    assert!(md.contains("| planted-6x6-s3-2 | native |"), "{md}");
    assert!(!md.contains("## large per instance"), "{md}");

    for svg in [
        race::cactus_svg(&rows, "cactus"),
        race::size_svg(&rows, "size"),
    ] {
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 2, "one line per backend");
        assert!(svg.contains(">native<") && svg.contains(">varisat<"));
    }
    // The cactus line of a backend has one point per solved instance.
    let cactus = race::cactus_svg(&rows, "cactus");
    assert_eq!(cactus.matches("<circle").count(), 20);
    // The size plot has one point per board size and backend.
    assert_eq!(race::size_svg(&rows, "size").matches("<circle").count(), 4);
}

#[test]
fn merged_shards_are_checked_for_contradictions() {
    let instances: Vec<_> = (0..2).map(|k| planted(6, 6, 8, k).unwrap().0).collect();
    let workloads = vec![("w.jsonl".to_string(), instances)];
    let native: Vec<Box<dyn Backend>> = vec![Box::new(Native::default())];
    let liar: Vec<Box<dyn Backend>> = vec![Box::new(AlwaysUnsat)];
    // Separate races cannot see each other; the merge must.
    let mut rows = race::race(&workloads, &native, &options(), &mut |_, _, _| {}).unwrap();
    assert!(race::check_agreement(&rows).is_ok());
    rows.extend(race::race(&workloads, &liar, &options(), &mut |_, _, _| {}).unwrap());
    let contradiction = race::check_agreement(&rows).unwrap_err();
    assert_eq!(contradiction.instance, "planted-6x6-s8-1");
    assert_eq!(contradiction.second_backend, "always-unsat");
}

/// A test-only counter that is off by one: it counts directly, one too many.
struct OffByOne;

impl Backend for OffByOne {
    fn capabilities(&self) -> dominofit::backend::Capabilities {
        dominofit::backend::Capabilities::SEARCH
    }

    fn name(&self) -> &str {
        "off-by-one"
    }

    fn solve(&self, model: &Model, limit: usize, budget: &Budget, sink: &mut Sink) -> SolveResult {
        Native::default().solve(model, limit, budget, sink)
    }

    fn count(
        &self,
        model: &Model,
        budget: &Budget,
    ) -> Option<Result<dominofit::backend::ExactCount, BackendError>> {
        let exact = dominofit::backend::dp::Dp::default().count(model, budget)?;
        Some(exact.map(|mut c| {
            c.count += 1u8;
            c
        }))
    }
}

#[test]
fn a_counting_race_compares_counts_across_backends() {
    // The committed `larger` boards and narrow open boards: the frontier DP counts
    // directly, native and varisat by enumeration; every count must agree.
    let larger = dominofit::files::read_instances(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/models/larger.jsonl"
    ))
    .unwrap();
    let narrow: Vec<_> = (0..3)
        .map(|k| {
            dominofit::puzzle::generate::planted_open(4, 9, 7, k)
                .unwrap()
                .0
        })
        .collect();
    let workloads = vec![
        ("larger.jsonl".to_string(), larger),
        ("narrow.jsonl".to_string(), narrow),
    ];
    let backends: Vec<Box<dyn Backend>> = vec![
        Box::new(dominofit::backend::dp::Dp::default()),
        Box::new(Native::default()),
    ];
    let counting = RaceOptions {
        repeat: 1,
        ..RaceOptions::new(0)
    };
    let rows = race::race(&workloads, &backends, &counting, &mut |_, _, _| {}).unwrap();
    assert_eq!(rows.len(), 2 * (12 + 3));
    for pair in rows.chunks(2) {
        assert!(
            pair.iter().all(|r| r.complete && r.error.is_none()),
            "{pair:?}"
        );
        assert_eq!(pair[0].count, pair[1].count, "{}", pair[0].instance);
        assert!(pair[0].count.as_deref().is_some_and(|c| c != "0"));
    }
    // runs.csv keeps the counts.
    let mut csv = Vec::new();
    race::write_runs_csv(&rows, &mut csv).unwrap();
    let back = race::read_runs_csv(csv.as_slice(), "runs.csv").unwrap();
    assert!(back.iter().zip(&rows).all(|(a, b)| a.count == b.count));
}

#[test]
fn a_wrong_count_stops_the_race_naming_the_instance() {
    // Open boards with several tilings each, so that the statuses agree (`multiple`) and
    // only the counts tell the wrong counter apart.
    let instances: Vec<_> = (0..2)
        .map(|k| {
            dominofit::puzzle::generate::planted_open(4, 9, 7, k)
                .unwrap()
                .0
        })
        .collect();
    let workloads = vec![("game.jsonl".to_string(), instances)];
    let backends: Vec<Box<dyn Backend>> = vec![Box::new(Native::default()), Box::new(OffByOne)];
    let counting = RaceOptions {
        repeat: 1,
        ..RaceOptions::new(0)
    };
    let err = race::race(&workloads, &backends, &counting, &mut |_, _, _| {}).unwrap_err();
    assert!(matches!(err, RaceError::CountMismatch(_)), "{err}");
    assert_names(&err, "open-4x9-s7-1", "off-by-one");
}

#[test]
fn a_campaign_run_by_gnu_parallel_merges_to_the_one_process_race() {
    if !crate::common::program_available("parallel", "--version") {
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let bin = assert_cmd::cargo::cargo_bin("dominofit");
    let dir = tempfile::tempdir().unwrap();
    let race_args = [
        format!("{root}/models/larger.jsonl"),
        format!("{root}/models/observed.jsonl"),
        "--backends".to_string(),
        "native,dp".to_string(),
        "--limit".to_string(),
        "0".to_string(),
        "--repeat".to_string(),
        "1".to_string(),
    ];
    let campaign = dir.path().join("campaign with spaces");
    crate::common::succeed(
        std::process::Command::new(format!("{root}/scripts/campaign-parallel.sh"))
            .arg(&campaign)
            .args(["3", "2"])
            .args(&race_args)
            .env("DOMINOFIT", &bin),
    );
    let single = dir.path().join("single");
    crate::common::succeed(
        std::process::Command::new(&bin)
            .arg("race")
            .args(&race_args)
            .arg("--out")
            .arg(&single),
    );
    // Everything but the times: the same rows, answers and counts.
    let answers = |path: std::path::PathBuf| {
        let file = std::fs::File::open(&path).unwrap();
        let mut rows: Vec<_> = race::read_runs_csv(file, "runs.csv")
            .unwrap()
            .into_iter()
            .map(|r| {
                (
                    r.workload, r.instance, r.backend, r.status, r.complete, r.count,
                )
            })
            .collect();
        rows.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
        rows
    };
    let merged = answers(campaign.join("all/runs.csv"));
    assert_eq!(merged.len(), 2 * (12 + 3));
    assert_eq!(merged, answers(single.join("runs.csv")));
}

#[test]
fn a_campaign_run_by_gnu_parallel_runs_the_files_named_even_with_braces() {
    if !crate::common::program_available("parallel", "--version") {
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let bin = assert_cmd::cargo::cargo_bin("dominofit");
    let dir = tempfile::tempdir().unwrap();
    // `{}` and `{#}` are GNU parallel's replacement strings: handed to parallel, this name
    // would become w11.jsonl in shard 1, w22.jsonl in shard 2, ... Files by those names
    // hold other boards, so that a rewritten name runs and merges instead of failing.
    let workload = dir.path().join("w{}{#}.jsonl");
    std::fs::copy(format!("{root}/models/observed.jsonl"), &workload).unwrap();
    for k in 1..=3 {
        std::fs::copy(
            format!("{root}/models/larger.jsonl"),
            dir.path().join(format!("w{k}{k}.jsonl")),
        )
        .unwrap();
    }
    let name = workload.to_str().unwrap().to_string();
    let campaign = dir.path().join("campaign {} {#}");
    crate::common::succeed(
        std::process::Command::new(format!("{root}/scripts/campaign-parallel.sh"))
            .arg(&campaign)
            .args(["3", "2"])
            .arg(&workload)
            .args(["--backends", "native", "--limit", "0", "--repeat", "1"])
            .env("DOMINOFIT", &bin),
    );
    let rows = |path: std::path::PathBuf| -> Vec<(String, String)> {
        let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        race::read_runs_csv(file, "runs.csv")
            .unwrap()
            .into_iter()
            .map(|r| (r.workload, r.instance))
            .collect()
    };
    // Every shard ran the file named, and nothing else.
    for k in 1..=3 {
        let shard = rows(campaign.join(format!("shard-{k}/runs.csv")));
        assert!(!shard.is_empty(), "shard {k} ran nothing");
        for (workload, instance) in &shard {
            assert_eq!(workload, &name, "shard {k} ran {instance} of another file");
        }
    }
    // The merged report names exactly that workload, with all its boards once each.
    let merged = rows(campaign.join("all/runs.csv"));
    let workloads: std::collections::BTreeSet<&str> =
        merged.iter().map(|(w, _)| w.as_str()).collect();
    assert_eq!(workloads, std::collections::BTreeSet::from([name.as_str()]));
    let mut instances: Vec<&str> = merged.iter().map(|(_, i)| i.as_str()).collect();
    instances.sort();
    assert_eq!(instances, ["observed-6x6", "observed-7x7", "observed-8x8"]);
}

#[test]
fn a_race_report_says_what_measured_it() {
    let root = env!("CARGO_MANIFEST_DIR");
    let bin = assert_cmd::cargo::cargo_bin("dominofit");
    let dir = tempfile::tempdir().unwrap();
    crate::common::succeed(
        std::process::Command::new(&bin)
            .args([
                "race",
                &format!("{root}/models/observed.jsonl"),
                "--repeat",
                "1",
            ])
            .arg("--out")
            .arg(dir.path().join("one")),
    );
    let read = |path: std::path::PathBuf| -> serde_json::Value {
        crate::common::schema::validated("race-summary", &std::fs::read_to_string(path).unwrap())
    };
    let summary = read(dir.path().join("one/summary.json"));
    let machine = &summary["machine"];
    assert!(
        machine["cores"].as_u64().is_some_and(|c| c >= 1),
        "{machine}"
    );
    assert_eq!(machine["dominofit"], env!("CARGO_PKG_VERSION"));
    let commit = machine["commit"].as_str().unwrap();
    assert!(
        commit == "unknown" || (commit.len() >= 7 && commit.bytes().all(|b| b.is_ascii_hexdigit())),
        "{commit}"
    );
    assert!(!machine["cpu"].as_str().unwrap().is_empty());
    // A merge of shards may come from several machines: it names none.
    crate::common::succeed(
        std::process::Command::new(&bin)
            .args(["race", "--merge"])
            .arg(dir.path().join("one/runs.csv"))
            .arg("--out")
            .arg(dir.path().join("merged")),
    );
    assert!(
        read(dir.path().join("merged/summary.json"))
            .get("machine")
            .is_none()
    );
}

/// A test-only backend that panics: a bug in one portfolio member.
struct Panics;

impl Backend for Panics {
    fn capabilities(&self) -> dominofit::backend::Capabilities {
        dominofit::backend::Capabilities::SEARCH
    }

    fn name(&self) -> &str {
        "panics"
    }

    fn solve(&self, _: &Model, _: usize, _: &Budget, _: &mut Sink) -> SolveResult {
        panic!("a member's bug");
    }
}

#[test]
fn a_panicking_portfolio_member_neither_hangs_it_nor_changes_the_answer() {
    use dominofit::backend::portfolio::Portfolio;
    let (instance, _) = planted(7, 7, 3, 0).unwrap();
    let request = dominofit::driver::Request {
        limit: 2,
        timeout: None,
        families: None,
    };
    let alone = dominofit::driver::run(&instance, &Native::default(), &request).unwrap();
    // The panicking member second (started at once) and first (in the caller's thread).
    let second = Portfolio::new(
        "p".to_string(),
        vec![Box::new(Native::default()), Box::new(Panics)],
    )
    .with_head_start(std::time::Duration::ZERO);
    let report = dominofit::driver::run(&instance, &second, &request).unwrap();
    assert_eq!(report.status, alone.status);
    assert_eq!(report.solutions, alone.solutions);
    let first = Portfolio::new(
        "p".to_string(),
        vec![Box::new(Panics), Box::new(Native::default())],
    );
    let err = dominofit::driver::run(&instance, &first, &request).unwrap_err();
    assert!(err.to_string().contains("panicked"), "{err}");
}
