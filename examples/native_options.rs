//! The native search under several option sets on one workload, side by side in one
//! process: boards decided, the median and the sum of the times of decided boards, the
//! slowest, and nodes. BENCHMARKS.md quotes it.
//!
//!     cargo run --release --example native_options -- models/stress.jsonl [LIMIT] [TIMEOUT_S]
//!
//! LIMIT defaults to 2 (uniqueness check), TIMEOUT_S to 5. NATIVE_OPTIONS=a,b picks option
//! sets by label; PER_BOARD=1 prints each board's time; SEEDS=1,2,3 runs each option set
//! once per seed of the search's random choices (`SearchOptions::seed`).

use std::time::Duration;

use dominofit::backend::Status;
use dominofit::backend::native::{Native, SearchOptions, WallsDraw};
use dominofit::driver::{self, Request};
use dominofit::files::read_instances;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(file) = args.get(1) else {
        eprintln!("usage: native_options WORKLOAD [LIMIT] [TIMEOUT_S]");
        std::process::exit(2);
    };
    let limit: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let timeout: f64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let instances = read_instances(file).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1);
    });
    let d = SearchOptions::default();
    // The default before the matching filter and the LP refutation were scheduled in.
    let before = SearchOptions {
        matching: false,
        matching_root: false,
        matching_share: 0,
        matching_after_failures: u64::MAX,
        farkas_after_failures: u64::MAX,
        ..d
    };
    let configs = [
        ("default", d),
        ("before (no matching, no LP)", before),
        (
            "matching-after-1024",
            SearchOptions {
                matching_after_failures: 1024,
                ..d
            },
        ),
        (
            "matching-after-16384",
            SearchOptions {
                matching_after_failures: 16384,
                ..d
            },
        ),
        (
            "lp-after-4096",
            SearchOptions {
                farkas_after_failures: 4096,
                ..d
            },
        ),
        (
            "lp-at-root",
            SearchOptions {
                farkas_after_failures: 0,
                ..d
            },
        ),
        (
            "matching-after-256",
            SearchOptions {
                matching_after_failures: 256,
                ..d
            },
        ),
        (
            "matching-256-lp-4096",
            SearchOptions {
                matching_after_failures: 256,
                farkas_after_failures: 4096,
                ..d
            },
        ),
        (
            "matching-1024-lp-4096",
            SearchOptions {
                matching_after_failures: 1024,
                farkas_after_failures: 4096,
                ..d
            },
        ),
        (
            "matching-every-stall",
            SearchOptions {
                matching: true,
                ..before
            },
        ),
        // The walls' tactics (issue 37): never, from the first restart on, and the
        // rotating sweep without the jumps.
        (
            "no-walls",
            SearchOptions {
                walls_after_restarts: u64::MAX,
                ..d
            },
        ),
        (
            "walls-from-restart-0",
            SearchOptions {
                walls_after_restarts: 0,
                ..d
            },
        ),
        (
            "walls-without-jumps",
            SearchOptions {
                jump_failures: 0,
                ..d
            },
        ),
        // The value order in the walls' runs (issue 37): the best value first with the
        // best two swapped now and then (the order before issue 37's third part), or
        // drawn in proportion to the shares in every walls' run, instead of the two in
        // turn; and the walls, with their draws in turn, from the first restart on.
        (
            "walls-draw-close",
            SearchOptions {
                walls_draw: WallsDraw::Close,
                ..d
            },
        ),
        (
            "walls-draw-proportional",
            SearchOptions {
                walls_draw: WallsDraw::Proportional,
                ..d
            },
        ),
        (
            "walls-after-1",
            SearchOptions {
                walls_after_restarts: 1,
                ..d
            },
        ),
    ];
    // NATIVE_OPTIONS=default,matching-every-stall picks the option sets to run.
    let wanted = std::env::var("NATIVE_OPTIONS").ok();
    let configs: Vec<_> = configs
        .into_iter()
        .filter(|(label, _)| {
            wanted
                .as_deref()
                .is_none_or(|w| w.split(',').any(|p| label == &p))
        })
        .collect();
    println!(
        "{file}: limit {limit}, {timeout} s per board, {} boards",
        instances.len()
    );
    println!(
        "{:28} {:>8} {:>11} {:>11} {:>11} {:>12}",
        "options", "decided", "median ms", "total ms", "max ms", "nodes"
    );
    // PER_BOARD=1 prints every board's time too.
    let per_board = std::env::var_os("PER_BOARD").is_some();
    // SEEDS=1,2,3: each option set once per seed, labelled `label@seed`.
    let seeds: Option<Vec<u64>> = std::env::var("SEEDS")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect());
    let configs: Vec<(String, SearchOptions)> = configs
        .into_iter()
        .flat_map(|(label, options)| match &seeds {
            None => vec![(label.to_string(), options)],
            Some(seeds) => seeds
                .iter()
                .map(|&seed| (format!("{label}@{seed}"), SearchOptions { seed, ..options }))
                .collect(),
        })
        .collect();
    for (label, options) in configs {
        let mut times = Vec::new();
        let mut nodes = 0u64;
        for inst in &instances {
            let request = Request {
                limit,
                timeout: Some(Duration::from_secs_f64(timeout)),
                families: None,
            };
            let r = driver::run(inst, &Native::new(options), &request).unwrap();
            nodes += r.header.counters.nodes.unwrap_or(0);
            if r.status != Status::Unknown {
                times.push(r.header.time.as_secs_f64() * 1e3);
            }
            if per_board {
                println!(
                    "  {label} {} {:?} {:.3} ms {} nodes",
                    inst.name,
                    r.status,
                    r.header.time.as_secs_f64() * 1e3,
                    r.header.counters.nodes.unwrap_or(0)
                );
            }
        }
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
        let total: f64 = times.iter().sum();
        let max = times.last().copied().unwrap_or(f64::NAN);
        println!(
            "{label:28} {:>4}/{:<3} {median:>11.3} {total:>11.1} {max:>11.1} {nodes:>12}",
            times.len(),
            instances.len()
        );
    }
}
