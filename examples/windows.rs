//! Which windows pay for a second tiling (`backend::native::retile`): for each board of
//! a workload, its first tiling by `solve --limit 1`, then for each window side the
//! windows tried, how many have a second local tiling, and the time to try them all
//! (each window with one also rebuilds the whole tiling's placement list, as a search
//! handing it out would) and to reach the first that has one. BENCHMARKS.md ("Is it unique?") quotes it.
//!
//!     cargo run --release --example windows -- WORKLOAD.jsonl [SIDES]
//!
//! SIDES defaults to 4,6,8,10.

use std::time::Instant;

use dominofit::backend::native::retile::{retilings_in, windows_of};
use dominofit::backend::native::{Native, SearchOptions};
use dominofit::backend::{Backend, Budget, Control};
use dominofit::model::{Families, PlacementId, compile};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: windows WORKLOAD.jsonl [SIDES]");
        std::process::exit(2);
    };
    let sides: Vec<usize> = args
        .get(2)
        .map_or("4,6,8,10", String::as_str)
        .split(',')
        .filter_map(|s| s.parse().ok())
        .collect();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let boards = dominofit::puzzle::parse::parse_given_instances(&text, path, "board")
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    println!("| board | side | windows | with a second tiling | all (ms) | to the first (ms) |");
    println!("|---|---|---|---|---|---|");
    let native = Native::new(SearchOptions::default());
    for board in &boards {
        let model = compile(board, Families::ColourSplits);
        let mut first: Option<Vec<PlacementId>> = None;
        let budget = Budget::with_timeout(Some(std::time::Duration::from_secs(60)));
        let _ = native.solve(&model, 1, &budget, &mut |ids: &[PlacementId]| {
            first = Some(ids.to_vec());
            Control::Stop
        });
        let Some(first) = first else {
            println!("| {} | no tiling in 60 s |||||", board.name);
            continue;
        };
        for &side in &sides {
            let all: Vec<_> = windows_of(board.rows, board.cols, side).collect();
            let started = Instant::now();
            let (mut with, mut to_first) = (0usize, None);
            // One re-tiling a window at most: each one handed out is a window with one.
            let ids = all.iter().copied();
            retilings_in(&model, &first, ids, 1, &Budget::unlimited(), &mut |_| {
                with += 1;
                to_first.get_or_insert(started.elapsed().as_secs_f64() * 1e3);
                Control::Continue
            });
            let all_ms = started.elapsed().as_secs_f64() * 1e3;
            let to_first = to_first.map_or("–".to_string(), |t| format!("{t:.3}"));
            println!(
                "| {} | {side} | {} | {with} | {all_ms:.2} | {to_first} |",
                board.name,
                all.len()
            );
        }
    }
}
