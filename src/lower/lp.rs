//! The model as a 0/1 integer program in CPLEX LP format, readable by CBC, GLPK, HiGHS,
//! SCIP and Gurobi: binary variables `v_R_C` and `h_R_C` (one-based start cells), one
//! equality per open cell (`cover_R_C`), one per quota group (`u_2`, `t_5`,
//! `u_even_3`, ...) or per raw clue (`row_4`, `col_1`), and a zero objective.
//!
//! Written here rather than through the `lp-solvers` crate: its writer names
//! constraints `c0, c1, …` and declares binaries as bounds plus `Generals`, and the
//! names are the point of this file for anyone reading a solver's log.

use std::fmt::Write as _;

use crate::model::{Line, Model};
use crate::puzzle::Orientation;

/// Terms per line: LP readers limit line length, and a constraint may continue on
/// following lines.
const TERMS_PER_LINE: usize = 8;

/// The LP name of a placement.
pub fn variable_name(model: &Model, id: u32) -> String {
    let p = model.placements[id as usize];
    let prefix = match p.orientation {
        Orientation::Vertical => 'v',
        Orientation::Horizontal => 'h',
    };
    format!("{prefix}_{}_{}", p.row + 1, p.col + 1)
}

/// A constraint: name, `(coefficient, placement)` terms, right-hand side.
pub type LinearEquality = (String, Vec<(u64, u32)>, u64);

/// Every equality of the model, in a fixed order: covers, quota groups, raw sums.
pub fn equalities(model: &Model) -> Vec<LinearEquality> {
    let mut out: Vec<LinearEquality> = Vec::new();
    for cover in &model.covers {
        out.push((
            format!("cover_{}_{}", cover.row, cover.col),
            cover.placements.iter().map(|&p| (1, p)).collect(),
            1,
        ));
    }
    for group in &model.quotas {
        out.push((
            format!("{}_{}", group.family.name(), group.index),
            model.members(group).iter().map(|&p| (1, p)).collect(),
            group.quota as u64,
        ));
    }
    for sum in &model.clue_sums {
        let line = match sum.line {
            Line::Row => "row",
            Line::Col => "col",
        };
        out.push((
            format!("{line}_{}", sum.index),
            sum.terms.iter().map(|&(w, p)| (w as u64, p)).collect(),
            sum.target,
        ));
    }
    out
}

/// The whole file, deterministic.
pub fn write(model: &Model) -> String {
    write_cuts(model, &[])
}

/// The file with one no-good cut per tiling in `blocked` (`Σ_{x∈S} x ≤ |S| − 1`), for
/// enumerating solutions with a solver that runs once per file.
pub fn write_cuts(model: &Model, blocked: &[Vec<u32>]) -> String {
    let mut out = String::new();
    out.push_str(&super::header(model, "\\", ""));
    let names: Vec<String> = (0..model.placements.len() as u32)
        .map(|id| variable_name(model, id))
        .collect();
    // A variable that is always 0, for constraints with no placements (an infeasible
    // model, a clue on a line with no room) and for the objective of an empty board.
    let zero = "z_zero";
    out.push_str("Minimize\n obj: 0 ");
    out.push_str(names.first().map_or(zero, String::as_str));
    out.push_str("\nSubject To\n");
    if model.infeasible.is_some() {
        let _ = writeln!(out, " infeasible: 0 {zero} = 1");
    }
    for (name, terms, rhs) in equalities(model) {
        let _ = write!(out, " {name}:");
        if terms.is_empty() {
            let _ = write!(out, " 0 {zero}");
        }
        for (k, (coefficient, p)) in terms.iter().enumerate() {
            if k > 0 && k % TERMS_PER_LINE == 0 {
                out.push_str("\n  ");
            }
            let sign = if k == 0 { "" } else { "+ " };
            if *coefficient == 1 {
                let _ = write!(out, " {sign}{}", names[*p as usize]);
            } else {
                let _ = write!(out, " {sign}{coefficient} {}", names[*p as usize]);
            }
        }
        let _ = writeln!(out, " = {rhs}");
    }
    for (k, tiling) in blocked.iter().enumerate() {
        let _ = write!(out, " nogood_{}:", k + 1);
        if tiling.is_empty() {
            let _ = write!(out, " 0 {zero}");
        }
        for (i, &p) in tiling.iter().enumerate() {
            if i > 0 && i % TERMS_PER_LINE == 0 {
                out.push_str("\n  ");
            }
            let sign = if i == 0 { "" } else { "+ " };
            let _ = write!(out, " {sign}{}", names[p as usize]);
        }
        let _ = writeln!(out, " <= {}", tiling.len() as i64 - 1);
    }
    out.push_str("Bounds\n");
    let _ = writeln!(out, " {zero} = 0");
    out.push_str("Binaries\n");
    for chunk in names.chunks(TERMS_PER_LINE) {
        let _ = writeln!(out, " {}", chunk.join(" "));
    }
    out.push_str("End\n");
    out
}
