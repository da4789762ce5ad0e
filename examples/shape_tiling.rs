//! A random tiling of a drawn shape (the blocked cells of a board, its clues unread) by
//! the paper's randomized row-major backtracking, as the studio's "random tiling" makes
//! it: seconds, pieces placed and ways the matching oracle refused, per seed.
//! BENCHMARKS.md quotes it.
//!
//!     cargo run --release --example shape_tiling -- SHAPE.json [SEEDS] [SECONDS]
//!
//! SEEDS defaults to 3, SECONDS (the time limit of each tiling) to 60.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use dominofit::backend::Budget;
use dominofit::puzzle::backtrack;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: shape_tiling SHAPE.json [SEEDS] [SECONDS]");
        std::process::exit(2);
    };
    let seeds: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let seconds: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(60.0);
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let boards = dominofit::puzzle::parse::parse_given_instances(&text, path, "shape")
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    println!("| shape | blocked | seed | seconds | pieces | refusals |");
    println!("|---|---|---|---|---|---|");
    for board in &boards {
        let blocked = board.blocked.iter().filter(|&&b| b).count();
        for seed in 0..seeds {
            let budget = Budget::with_timeout(Some(Duration::from_secs_f64(seconds)));
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let started = Instant::now();
            let found =
                backtrack::tiling(board.rows, board.cols, &board.blocked, &mut rng, &|| {
                    budget.expired()
                });
            let took = started.elapsed().as_secs_f64();
            let (pieces, refusals) = match found {
                Ok(Some(t)) => (t.nodes.to_string(), t.refusals.to_string()),
                Ok(None) => ("no tiling".into(), String::new()),
                Err(_) => ("stopped".into(), String::new()),
            };
            println!(
                "| {} {}x{} | {blocked} | {seed} | {took:.3} | {pieces} | {refusals} |",
                board.name, board.rows, board.cols
            );
        }
    }
}
