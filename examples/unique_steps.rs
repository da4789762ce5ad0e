//! How `generate --unique` spends its time: each step of one board's making, with the
//! seconds since the start. `cargo run --release --example unique_steps -- 64 3 flips`
//! (side, seed, and `flips` or `backtrack`).
use std::time::{Duration, Instant};

use dominofit::design::{self, DesignOptions, Step};
use dominofit::puzzle::generate::Tiling;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let side: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(64);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    let tiling = match args.get(2).map(String::as_str) {
        Some("backtrack") => Tiling::Backtrack,
        _ => Tiling::Flips,
    };
    let options = DesignOptions {
        timeout: Duration::from_secs(60),
        ..DesignOptions::default()
    };
    let start = Instant::now();
    let mut last = (0u32, 0usize);
    let made = design::unique_watched(side, side, seed, 0, tiling, &options, &mut |step| {
        if let Step::UniqueCheck { check, holes } = step {
            last = (check, holes);
            println!(
                "{:8.3} s  check {check}, {holes} holes",
                start.elapsed().as_secs_f64()
            );
        } else {
            println!("{:8.3} s  {step:?}", start.elapsed().as_secs_f64());
        }
    });
    match made {
        Ok(c) => println!(
            "{:8.3} s  {:?} after {} checks, {} holes, {} nodes",
            start.elapsed().as_secs_f64(),
            c.status,
            last.0,
            last.1,
            c.nodes
        ),
        Err(e) => println!("{:8.3} s  error: {e}", start.elapsed().as_secs_f64()),
    }
}
