//! The race harness: contradictory decisive answers stop the race with the instance
//! named; reports carry one row per instance and backend.

use dominofit::backend::native::Native;
use dominofit::backend::{Backend, BackendError, Budget, Control, Counters, Ending, Outcome};
use dominofit::model::{Model, PlacementId};
use dominofit::puzzle::generate::planted;
use dominofit::race::{self, RaceError, RaceOptions};

/// A test-only backend that claims every board has no solution.
struct AlwaysUnsat;

impl Backend for AlwaysUnsat {
    fn name(&self) -> &str {
        "always-unsat"
    }

    fn solve(
        &self,
        _model: &Model,
        _limit: usize,
        _budget: &Budget,
        _sink: &mut dyn FnMut(&[PlacementId]) -> Control,
    ) -> Result<Outcome, BackendError> {
        Ok(Outcome {
            ending: Ending::Exhausted,
            counters: Counters::default(),
        })
    }
}

fn options() -> RaceOptions {
    RaceOptions {
        limit: 2,
        repeat: 1,
        timeout: None,
    }
}

#[test]
fn a_wrong_backend_stops_the_race_naming_the_instance() {
    let instances: Vec<_> = (0..3).map(|k| planted(6, 6, 9, k).unwrap().0).collect();
    let workloads = vec![("game.jsonl".to_string(), instances)];
    let backends: Vec<Box<dyn Backend>> = vec![Box::new(Native::default()), Box::new(AlwaysUnsat)];
    let err = race::race(&workloads, &backends, &options(), &mut |_, _| {}).unwrap_err();
    assert!(matches!(err, RaceError::Contradiction(_)), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("planted-6x6-s9-1") && message.contains("always-unsat"),
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
    let mut calls = 0;
    let rows = race::race(&workloads, &backends, &options(), &mut |done, total| {
        calls += 1;
        assert_eq!(total, 8);
        assert_eq!(done, calls);
    })
    .unwrap();
    assert_eq!(rows.len(), 8);
    let summary = race::summarize(&rows, &options());
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
    let rows = race::race(&workloads, &backends, &options(), &mut |_, _| {}).unwrap();
    let mut csv = Vec::new();
    race::write_runs_csv(&rows, &mut csv).unwrap();
    let back = race::read_runs_csv(csv.as_slice(), "runs.csv").unwrap();
    assert_eq!(back.len(), rows.len());
    for (a, b) in back.iter().zip(&rows) {
        assert_eq!(
            (&a.instance, &a.backend, a.status, a.nodes),
            (&b.instance, &b.backend, b.status, b.nodes)
        );
        let (ta, tb) = (a.time_ms.unwrap(), b.time_ms.unwrap());
        assert!((ta - tb).abs() < 1e-3, "{ta} {tb}");
    }
}
