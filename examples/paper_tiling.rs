//! The paper's randomized row-major backtracking at each size: time per tiling, ways the
//! matching oracle refused, peak memory planned, and the horizontal share of the tilings
//! (the flip chain's beside it). BENCHMARKS.md quotes it.
//!
//!     cargo run --release --example paper_tiling -- [SIZES] [TILINGS]
//!
//! SIZES defaults to 32,64,128,192,256,384,512, TILINGS (per size) to 5.

use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use dominofit::puzzle::backtrack;
use dominofit::puzzle::generate::{Tiling, planted_by};

fn horizontal_share(mate: &[u32], cols: usize) -> f64 {
    let (mut h, mut all) = (0usize, 0usize);
    for (k, &m) in mate.iter().enumerate() {
        if m != u32::MAX && (m as usize) > k {
            all += 1;
            h += usize::from(m as usize == k + 1 && k % cols + 1 < cols);
        }
    }
    h as f64 / all.max(1) as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sizes: Vec<usize> = args
        .get(1)
        .map_or("32,64,128,256,512,1024,2048", String::as_str)
        .split(',')
        .filter_map(|s| s.parse().ok())
        .collect();
    let tilings: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5);
    println!(
        "| side | median s | max s | median refusals | horizontal share, backtracking | \
         flip chain |"
    );
    println!("|---|---|---|---|---|---|");
    for side in sizes {
        let (mut times, mut refused, mut shares, mut flips) = (vec![], vec![], vec![], vec![]);
        for k in 0..tilings {
            let mut blocked = vec![false; side * side];
            if side % 2 == 1 {
                blocked[side * side - 1] = true;
            }
            let mut rng = ChaCha8Rng::seed_from_u64(5);
            rng.set_stream(k);
            let started = Instant::now();
            let found = backtrack::tiling(side, side, &blocked, &mut rng, &|| false)
                .ok()
                .flatten()
                .expect("a tiling");
            times.push(started.elapsed().as_secs_f64());
            refused.push(found.refusals as f64);
            shares.push(horizontal_share(&found.mate, side));
            let (open, _) = planted_by(side, side, 5, k, false, Tiling::Flips).expect("a board");
            let h = open.row_clues.iter().sum::<u64>() as f64 - (side * side / 2) as f64;
            flips.push(h / (side * side / 2) as f64);
        }
        println!(
            "| {side} | {:.3} | {:.3} | {:.0} | {:.3} | {:.3} |",
            median(times.clone()),
            times.iter().copied().fold(0.0, f64::max),
            median(refused),
            median(shares),
            median(flips)
        );
    }
}
