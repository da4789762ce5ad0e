//! How reports are printed: FORMAT.md's JSON lines, and text for people.

use dominofit::backend::{Counters, Ending};
use dominofit::driver::{CountReport, Report};
use dominofit::escape::terminal;
use dominofit::puzzle::Instance;

pub fn solve_json(report: &Report) -> String {
    serde_json::to_string(report).expect("reports always serialize")
}

fn summary_tail(time: std::time::Duration, counters: &Counters) -> String {
    let mut parts = vec![format!("{:.3} ms", time.as_secs_f64() * 1e3)];
    if let Some(nodes) = counters.nodes {
        parts.push(format!("{nodes} node{}", if nodes == 1 { "" } else { "s" }));
    }
    if let Some(forced) = counters.forced {
        parts.push(format!("{forced} forced at the root"));
    }
    if let Some(moves) = counters.moves {
        parts.push(format!("{moves} repair moves"));
    }
    if let Some(states) = counters.states {
        parts.push(format!("peak of {states} frontier states"));
    }
    if let Some(refuted) = counters.refuted {
        parts.push(format!(
            "{refuted} node{} refuted by the LP relaxation",
            if refuted == 1 { "" } else { "s" }
        ));
    }
    if let Some(steps) = counters.proof_steps {
        parts.push(format!("{steps} proof steps logged"));
    }
    if let Some(winner) = &counters.winner {
        parts.push(format!("won by {}", terminal(winner)));
    }
    parts.join(", ")
}

pub fn solve_text(instance: &Instance, report: &Report) -> String {
    let mut out = format!(
        "{}: {} ({}, {})",
        terminal(&report.header.name),
        report.status.name(),
        terminal(&report.header.backend),
        summary_tail(report.header.time, &report.header.counters)
    );
    if let Some(reason) = &report.header.reason {
        out.push_str(&format!("\n  no solution: {reason}"));
    }
    match report.header.ending {
        Ending::Timeout => out.push_str("\n  stopped by the time limit"),
        Ending::Capped => out.push_str(
            "\n  stopped before answering: a resource cap, or the solver gave up by its own limits",
        ),
        _ => {}
    }
    out.push('\n');
    // The board with its clues, beside the reason it has no tiling; an undecided board
    // shows nothing new (and a large one would be pages of drawing).
    if report.solutions.is_empty() && report.status == dominofit::backend::Status::Unsat {
        out.push_str(&super::show::picture(instance, None));
    }
    let many = report.solutions.len() > 1;
    for (k, solution) in report.solutions.iter().enumerate() {
        if many {
            out.push_str(&format!("solution {}:\n", k + 1));
        }
        out.push_str(&super::show::picture(instance, Some(solution)));
    }
    out
}

pub fn count_json(report: &CountReport) -> String {
    serde_json::to_string(report).expect("reports always serialize")
}

pub fn count_text(report: &CountReport) -> String {
    let bound = if report.complete { "" } else { "at least " };
    let mut out = format!(
        "{}: {bound}{} solution{} ({}, {})",
        terminal(&report.header.name),
        report.count,
        if report.count == num_bigint::BigUint::from(1u8) {
            ""
        } else {
            "s"
        },
        terminal(&report.header.backend),
        summary_tail(report.header.time, &report.header.counters)
    );
    if let Some(reason) = &report.header.reason {
        out.push_str(&format!("\n  no solution: {reason}"));
    }
    if !report.complete {
        out.push_str("\n  stopped before the count was complete");
    }
    out
}
