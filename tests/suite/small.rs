//! The native search's small-board path (`native::small`) against the brute-force
//! enumerator on the exhaustive domain, and against the general engine on every
//! committed game-size board: statuses and complete solution sets at limits 0, 1 and 2.

use dominofit::backend::native::small::Board;
use dominofit::backend::native::{Native, SearchOptions};
use dominofit::backend::{Budget, Control, Ending, Status};
use dominofit::files::read_instances;
use dominofit::puzzle::{Instance, Solution};

use crate::common::{Case, extended_cases, paper_cases};
use dominofit::driver::{self, Request};

/// Every tiling the path finds, decoded and sorted, and how its search ended.
fn small_tilings(board: &Board, limit: usize) -> (Vec<Solution>, Ending) {
    let mut found = Vec::new();
    let outcome = board.search(limit, &Budget::unlimited(), &mut |v, h| {
        found.push(board.decode(v, h));
        Control::Continue
    });
    found.sort();
    (found, outcome.ending)
}

/// The path's own answers on one case, without the driver: the complete set at limit 0,
/// and at limits 1 and 2 tilings from the set, stopping exactly where they should.
fn check_case(case: &Case) -> usize {
    let name = format!(
        "{}x{} blocked {:?} clues {:?}/{:?}",
        case.instance.rows,
        case.instance.cols,
        case.instance.blocked,
        case.instance.row_clues,
        case.instance.col_clues
    );
    let Some(board) = Board::compile(&case.instance) else {
        // Declined: it must be one clue inversion refutes (or too large, which none of
        // the domain is); the general path then answers with the reason.
        assert!(
            case.expected.is_empty(),
            "declined a board with tilings: {name}"
        );
        return 0;
    };
    let (all, ending) = small_tilings(&board, 0);
    assert_eq!(all, case.expected, "complete set, {name}");
    assert_eq!(ending, Ending::Exhausted, "{name}");
    for limit in [1, 2] {
        let (some, ending) = small_tilings(&board, limit);
        assert_eq!(
            some.len(),
            case.expected.len().min(limit),
            "limit {limit}, {name}"
        );
        assert!(some.iter().all(|s| case.expected.contains(s)), "{name}");
        let stopped = case.expected.len() >= limit;
        // At the limit the search stops; short of it, it is exhausted.
        assert_eq!(
            ending,
            if stopped {
                Ending::Stopped
            } else {
                Ending::Exhausted
            },
            "limit {limit}, {name}"
        );
    }
    3
}

#[test]
fn the_small_path_matches_brute_force_on_the_paper_domain() {
    let cases = paper_cases();
    let compared: usize = cases.iter().map(check_case).sum();
    // Most of the domain's cases are refuted by inversion (declined); 194 are searched.
    assert_eq!(compared, 3 * 194);
}

#[test]
fn the_small_path_matches_brute_force_beyond_the_paper() {
    let cases = extended_cases(6000, 3000);
    let compared: usize = cases.iter().map(check_case).sum();
    assert!(compared > 30_000, "{compared}");
}

fn general() -> Native {
    Native {
        options: SearchOptions {
            small_boards: false,
            ..SearchOptions::default()
        },
        ..Native::default()
    }
}

fn request(limit: usize) -> Request {
    Request {
        limit,
        timeout: None,
        families: None,
    }
}

fn committed_boards() -> Vec<Instance> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut boards = Vec::new();
    for file in [
        "models/game.jsonl",
        "models/observed.jsonl",
        "models/larger.jsonl",
    ] {
        boards.extend(read_instances(&format!("{root}/{file}")).unwrap());
    }
    boards
}

#[test]
fn the_small_path_matches_the_general_engine_on_every_committed_small_board() {
    let small = Native::default();
    let general = general();
    let mut compared = 0;
    for board in committed_boards() {
        if Board::compile(&board).is_none() {
            assert!(board.rows * board.cols > 128, "{} declined", board.name);
            continue;
        }
        let mut complete = Vec::new();
        for limit in [0, 1, 2] {
            let a = driver::run(&board, &small, &request(limit)).unwrap();
            let b = driver::run(&board, &general, &request(limit)).unwrap();
            assert_eq!(a.header.backend, "native");
            assert_eq!(b.header.backend, "native-general");
            assert_eq!(a.status, b.status, "{} limit {limit}", board.name);
            assert_eq!(a.complete, b.complete, "{} limit {limit}", board.name);
            assert_eq!(
                a.solutions.len(),
                b.solutions.len(),
                "{} limit {limit}",
                board.name
            );
            if limit == 0 {
                let (mut x, mut y) = (a.solutions.clone(), b.solutions.clone());
                x.sort();
                y.sort();
                assert_eq!(x, y, "{}: complete sets", board.name);
                complete = x;
            } else {
                // Which tilings come first may differ; all are in the complete set.
                assert!(
                    a.solutions
                        .iter()
                        .all(|s| complete.binary_search(s).is_ok())
                );
            }
            compared += 1;
        }
        // And the driver's counts agree.
        let a = driver::count(&board, &small, &request(0)).unwrap();
        let b = driver::count(&board, &general, &request(0)).unwrap();
        assert_eq!(a.count, b.count, "{}", board.name);
    }
    // Every game and observed board is small.
    assert!(compared >= 3 * 63, "{compared}");
}

/// The observed boards: unique, decided at the root, as the general engine says.
#[test]
fn the_observed_boards_are_decided_at_the_root() {
    let root = env!("CARGO_MANIFEST_DIR");
    for board in read_instances(&format!("{root}/models/observed.jsonl")).unwrap() {
        let report = driver::run(&board, &Native::default(), &request(2)).unwrap();
        assert_eq!(report.status, Status::Unique, "{}", board.name);
        assert_eq!(report.header.counters.nodes, Some(1), "{}", board.name);
        let general = driver::run(&board, &general(), &request(2)).unwrap();
        assert_eq!(
            report.header.counters.forced, general.header.counters.forced,
            "{}",
            board.name
        );
    }
}

/// A refuted board goes to the general path, which gives the reason in words.
#[test]
fn a_refuted_board_keeps_its_reason() {
    let board = dominofit::puzzle::parse::parse_instances(
        r#"{"name": "tiny", "rows": 2, "cols": 3, "blocked": [], "row_clues": [3, 3], "col_clues": [1, 3, 2]}"#,
        "tiny.json",
        "tiny",
        false,
    )
    .unwrap()
    .remove(0);
    assert!(Board::compile(&board).is_none());
    let report = driver::run(&board, &Native::default(), &request(1)).unwrap();
    assert_eq!(report.status, Status::Unsat);
    assert!(
        report
            .header
            .reason
            .unwrap()
            .contains("1.5 horizontal pieces")
    );
}

/// A deadline stops the path with `unknown`, never `unsat`: an open 11×11 board has
/// millions of tilings.
#[test]
fn a_deadline_stops_the_small_path() {
    let open = dominofit::puzzle::generate::planted_open(11, 11, 7, 0)
        .unwrap()
        .0;
    assert!(Board::compile(&open).is_some());
    let timed = Request {
        limit: 0,
        timeout: Some(std::time::Duration::from_millis(20)),
        families: None,
    };
    let report = driver::run(&open, &Native::default(), &timed).unwrap();
    assert_eq!(report.header.backend, "native");
    // A planted board has its tiling: never unsat, whatever stopped the search.
    assert_ne!(report.status, Status::Unsat);
    if report.status == Status::Unknown {
        assert!(!report.complete);
        assert_eq!(report.header.ending, Ending::Timeout);
    }
}

/// A board the path gives up on goes to the general engine, and the answer is the
/// general engine's. With a cap of no dead ends at all, every board whose search meets
/// one takes that road: on the exhaustive domain the answers still match brute force,
/// and where the path gave up, the counters are the general engine's.
#[test]
fn a_board_the_path_gives_up_on_is_answered_by_the_general_engine() {
    let impatient = Native {
        options: SearchOptions {
            small_failure_cap: 0,
            ..SearchOptions::default()
        },
        ..Native::default()
    };
    let general = general();
    let mut gave_up = 0;
    for case in extended_cases(1000, 500) {
        crate::common::check(&case, &impatient, dominofit::model::Families::ColourSplits);
        let Some(board) = Board::compile(&case.instance) else {
            continue;
        };
        let outcome = board
            .with_failure_cap(0)
            .search(0, &Budget::unlimited(), &mut |_, _| Control::Continue);
        if outcome.ending == Ending::Capped {
            gave_up += 1;
            let a = driver::run(&case.instance, &impatient, &request(0)).unwrap();
            let b = driver::run(&case.instance, &general, &request(0)).unwrap();
            assert_eq!(a.header.counters, b.header.counters);
            assert_eq!(a.header.backend, "native");
        }
    }
    // Small boards seldom meet a dead end; larger open ones do, before their first
    // tiling too.
    for index in 0..12 {
        let (board, _) = dominofit::puzzle::generate::planted_open(8, 10, 9, index).unwrap();
        let a = driver::run(&board, &impatient, &request(1)).unwrap();
        let b = driver::run(&board, &general, &request(1)).unwrap();
        assert_eq!(a.status, Status::Sat);
        assert_eq!(b.status, Status::Sat);
        let outcome = Board::compile(&board).unwrap().with_failure_cap(0).search(
            1,
            &Budget::unlimited(),
            &mut |_, _| Control::Continue,
        );
        if outcome.ending == Ending::Capped {
            gave_up += 1;
            assert_eq!(a.header.counters, b.header.counters);
            assert_eq!(a.solutions, b.solutions);
        }
    }
    assert!(gave_up >= 8, "{gave_up}");
}

/// What the path cannot refute in words, the general model's inversion can (its colour
/// splits): the answer then carries the same refutation and counters as the general
/// path's. Two holes of one colour of a planted board trade places with two open cells
/// of the other colour in the same rows and columns, which keeps every clue and quota.
#[test]
fn a_refutation_by_colour_splits_is_given_in_words() {
    use dominofit::puzzle::generate::planted;
    let mut compared = 0;
    for index in 0..40 {
        let (mut board, _) = planted(10, 12, 41, index).unwrap();
        let cols = board.cols;
        let colour = |k: usize| (k / cols + k % cols) % 2;
        let holes: Vec<usize> = (0..board.blocked.len())
            .filter(|&k| board.blocked[k])
            .collect();
        let swap = holes.iter().enumerate().find_map(|(i, &a)| {
            holes[i + 1..].iter().find_map(|&b| {
                let (x, y) = ((a / cols) * cols + b % cols, (b / cols) * cols + a % cols);
                (a / cols != b / cols
                    && a % cols != b % cols
                    && colour(a) == colour(b)
                    && colour(x) != colour(a)
                    && !board.blocked[x]
                    && !board.blocked[y])
                    .then_some((a, b, x, y))
            })
        });
        let Some((a, b, x, y)) = swap else { continue };
        board.blocked[a] = false;
        board.blocked[b] = false;
        board.blocked[x] = true;
        board.blocked[y] = true;
        if Board::compile(&board).is_none() {
            continue;
        }
        let report = driver::run(&board, &Native::default(), &request(2)).unwrap();
        let general = driver::run(&board, &general(), &request(2)).unwrap();
        assert_eq!(report.status, Status::Unsat, "index {index}");
        assert_eq!(report.header.reason, general.header.reason, "index {index}");
        assert_eq!(
            report.header.counters, general.header.counters,
            "index {index}"
        );
        compared += usize::from(general.header.reason.is_some());
    }
    assert!(compared >= 10, "{compared}");
}

/// The word's edges: a single row of 128 cells (declined: a vertical piece would be a
/// shift by the word's width), a single column of 128, two rows of 64, and thin boards
/// between; on each, the path and the general engine give the same complete sets.
#[test]
fn the_path_agrees_at_the_edges_of_its_word() {
    use dominofit::puzzle::generate::{planted, planted_open};
    let one_row = planted_open(1, 128, 3, 0).unwrap().0;
    assert!(Board::compile(&one_row).is_none());
    let general = general();
    let mut compared = 0;
    for (rows, cols) in [
        (128, 1),
        (2, 64),
        (64, 2),
        (1, 126),
        (4, 32),
        (3, 42),
        (11, 11),
    ] {
        for index in 0..3 {
            let boards = [
                planted(rows, cols, 5, index).unwrap().0,
                planted_open(rows, cols, 5, index)
                    .map(|p| p.0)
                    .unwrap_or_else(|_| planted(rows, cols, 6, index).unwrap().0),
            ];
            for board in boards {
                assert!(Board::compile(&board).is_some(), "{rows}x{cols}");
                let a = driver::run(&board, &Native::default(), &request(0)).unwrap();
                let b = driver::run(&board, &general, &request(0)).unwrap();
                let (mut x, mut y) = (a.solutions, b.solutions);
                x.sort();
                y.sort();
                assert_eq!(x, y, "{rows}x{cols} index {index}");
                assert_eq!(a.status, b.status);
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 42);
}
