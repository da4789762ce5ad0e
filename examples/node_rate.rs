//! The native search's cost per node against board size. Each board's search
//! enumerates its tilings for a fixed time (or to its end), with a sink that only
//! counts them (no decoding, no verification), so the time measured is the search's
//! own: propagation, the stall checks and the matching filter. Compilation is left
//! out. Prints one row per board kind and size, and option set: boards, nodes,
//! seconds, nodes per second and microseconds per node. BENCHMARKS.md quotes it.
//!
//!     cargo run --release --example node_rate -- SECONDS WORKLOAD...
//!
//! The kind is the board's name before its size (`planted`, `open`, `unsat`,
//! `elsewhere-greedy`, ...). Two option sets: the default, and the matching filter at
//! every stall (whose cost per node is the one that grew with the board).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use dominofit::backend::native::{Native, SearchOptions};
use dominofit::backend::{Backend, Budget, Control};
use dominofit::files::read_instances;
use dominofit::model::compile;

/// The part of a board's name before its `RxC` size.
fn kind(name: &str) -> String {
    let parts: Vec<&str> = name.split('-').collect();
    let size = parts
        .iter()
        .position(|p| p.contains('x') && p.split('x').all(|n| n.parse::<u32>().is_ok()));
    match size {
        Some(k) => parts[..k].join("-"),
        None => name.to_string(),
    }
}

#[derive(Default)]
struct Total {
    boards: u32,
    nodes: u64,
    time: Duration,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(seconds) = args.get(1).and_then(|s| s.parse::<f64>().ok()) else {
        eprintln!("usage: node_rate SECONDS WORKLOAD...");
        std::process::exit(2);
    };
    let configs = [
        ("default", SearchOptions::default()),
        (
            "matching at every stall",
            SearchOptions {
                matching: true,
                ..SearchOptions::default()
            },
        ),
    ];
    // (option set, kind, rows) -> totals, in a fixed order.
    let mut totals: BTreeMap<(usize, String, usize), Total> = BTreeMap::new();
    for file in &args[2..] {
        let instances = read_instances(file).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1);
        });
        for instance in &instances {
            for (c, (_, options)) in configs.iter().enumerate() {
                let native = Native::new(SearchOptions {
                    // The general engine at every size: the small-board path has
                    // no nodes of the same kind.
                    small_boards: false,
                    ..*options
                });
                let model = compile(instance, native.default_families());
                if model.infeasible.is_some() {
                    continue;
                }
                let budget = Budget::with_timeout(Some(Duration::from_secs_f64(seconds)));
                let mut found = 0u64;
                let mut sink = |_: &[u32]| {
                    found += 1;
                    Control::Continue
                };
                let start = Instant::now();
                let outcome = native.solve(&model, 0, &budget, &mut sink);
                let time = start.elapsed();
                let nodes = match outcome {
                    Ok(outcome) => outcome.counters.nodes.unwrap_or(0),
                    Err(e) => {
                        eprintln!("{}: {e}", instance.name);
                        continue;
                    }
                };
                let total = totals
                    .entry((c, kind(&instance.name), instance.rows))
                    .or_default();
                total.boards += 1;
                total.nodes += nodes;
                total.time += time;
            }
        }
    }
    println!("| Options | Kind | Size | Boards | Nodes | Seconds | Nodes/s | µs/node |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    for ((c, kind, rows), t) in &totals {
        let secs = t.time.as_secs_f64();
        let rate = t.nodes as f64 / secs.max(1e-9);
        println!(
            "| {} | {kind} | {rows} | {} | {} | {secs:.2} | {rate:.0} | {:.1} |",
            configs[*c].0,
            t.boards,
            t.nodes,
            1e6 / rate.max(1e-9),
        );
    }
}
