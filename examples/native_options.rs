//! Sums time, nodes and capped boards of the native search under a few option sets on
//! one workload, at `--limit 2` with a 5 s limit per board; BENCHMARKS.md quotes it.
//!
//!     cargo run --release --example native_options -- models/stress.jsonl

use dominofit::backend::native::{Native, SearchOptions};
use dominofit::backend::{self, Request, Status};
use dominofit::puzzle::parse::read_instances;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(file) = args.get(1) else {
        eprintln!("usage: native_options WORKLOAD");
        std::process::exit(2);
    };
    let instances = read_instances(file).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1);
    });
    let d = SearchOptions::default();
    let configs = [
        ("default", d),
        (
            "matching",
            SearchOptions {
                matching: true,
                ..d
            },
        ),
        (
            "matching-no-colour-check",
            SearchOptions {
                matching: true,
                colour_balance: false,
                ..d
            },
        ),
        (
            "no-colour-check",
            SearchOptions {
                colour_balance: false,
                ..d
            },
        ),
    ];
    for (label, options) in configs {
        let (mut ms, mut nodes, mut capped) = (0.0, 0u64, 0);
        for inst in &instances {
            let req = Request {
                limit: 2,
                timeout: Some(std::time::Duration::from_secs(5)),
                families: None,
            };
            let r = backend::run(inst, &Native { options }, &req).unwrap();
            if r.status == Status::Unknown {
                capped += 1;
                continue;
            }
            ms += r.time.as_secs_f64() * 1e3;
            nodes += r.counters.nodes.unwrap_or(0);
        }
        println!("{label:26} capped {capped} total {ms:.1} ms nodes {nodes}");
    }
}
