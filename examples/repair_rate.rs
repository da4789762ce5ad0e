//! The repair engine alone on a workload: per board, the moves and seconds to a tiling
//! (or the deviation left at the time limit), and how the deviation fell. BENCHMARKS.md
//! quotes it for where the repair gets stuck.
//!
//!     cargo run --release --example repair_rate -- WORKLOAD [SECONDS] [SEED]

use std::time::{Duration, Instant};

use dominofit::backend::Budget;
use dominofit::backend::native::repair::{Repair, Repaired};
use dominofit::files::read_instances;
use dominofit::model::{Families, compile};
use dominofit::puzzle::verify::verify;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: repair_rate WORKLOAD [SECONDS] [SEED]");
        std::process::exit(2);
    };
    let seconds: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(60.0);
    let seed: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let boards = read_instances(path).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    println!(
        "| board | answer | seconds | moves | work per cell | deviation at start | trace (deviation per 10% of moves) |"
    );
    println!("|---|---|---|---|---|---|---|");
    for instance in &boards {
        let started = Instant::now();
        let model = compile(instance, Families::AllQuotas);
        let budget = Budget::with_timeout(Some(Duration::from_secs_f64(seconds)));
        let Ok(Some(mut repair)) = Repair::new(&model, seed, &budget) else {
            println!("| {} | no repair | | | | | |", instance.name);
            continue;
        };
        let first = repair.deviation();
        let mut trace = vec![first];
        let answer = loop {
            match repair.run(&model, 20_000, &budget) {
                Repaired::Unsolved => trace.push(repair.deviation()),
                other => break other,
            }
        };
        let time = started.elapsed().as_secs_f64();
        let said = match &answer {
            Repaired::Solved(ids) => match verify(instance, &model.decode(ids)) {
                Ok(()) => "sat".to_string(),
                Err(why) => format!("WRONG: {why}"),
            },
            _ => format!("unknown (deviation {})", repair.deviation()),
        };
        let step = (trace.len() / 10).max(1);
        let shown: Vec<String> = trace.iter().step_by(step).map(i64::to_string).collect();
        println!(
            "| {} | {said} | {time:.2} | {} | {:.1} | {first} | {} |",
            instance.name,
            repair.moves,
            repair.work() as f64 / (instance.rows * instance.cols) as f64,
            shown.join(" ")
        );
    }
}
