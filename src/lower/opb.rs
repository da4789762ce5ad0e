//! The model in the pseudo-Boolean competition format (OPB): covers, quotas and raw clue
//! sums are all linear equalities, so PB solvers (RoundingSat, Exact, Sat4j) take the
//! model without any cardinality encoding. Variable `xK` is placement K (as in DIMACS).

use std::fmt::Write as _;

use crate::model::Model;

/// The whole file, deterministic.
pub fn write(model: &Model) -> String {
    write_cuts(model, &[])
}

/// The file with one constraint per tiling in `blocked` ruling it out
/// (`Σ_{x∈S} −x ≥ 1 − |S|`), for enumerating solutions with a solver that runs once per
/// file.
pub fn write_cuts(model: &Model, blocked: &[Vec<u32>]) -> String {
    let mut constraints: Vec<(Vec<(u64, u32)>, u64)> = Vec::new();
    if model.infeasible.is_some() {
        // Marked by an empty term list: written below as `+1 x1 >= 2`, which no
        // 0/1 value meets.
        constraints.push((vec![], 2));
    }
    for cover in &model.covers {
        constraints.push((cover.placements.iter().map(|&p| (1, p)).collect(), 1));
    }
    for group in &model.quotas {
        constraints.push((
            model.members(group).iter().map(|&p| (1, p)).collect(),
            group.quota as u64,
        ));
    }
    for sum in &model.clue_sums {
        constraints.push((
            sum.terms.iter().map(|&(w, p)| (w as u64, p)).collect(),
            sum.target,
        ));
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "* #variable= {} #constraint= {}",
        model.placements.len().max(1),
        constraints.len() + blocked.len()
    );
    out.push_str(&super::header(model, "*", ""));
    for (k, p) in model.placements.iter().enumerate() {
        let _ = writeln!(
            out,
            "* x{} {} {} {}",
            k + 1,
            p.orientation.letter(),
            p.row + 1,
            p.col + 1
        );
    }
    for (terms, target) in constraints {
        if terms.is_empty() {
            // Nothing can add up to a positive target (an open cell no piece fits, a
            // clue on a line with no room): a constraint no 0/1 value meets. A zero
            // target is met by the empty sum.
            let bound = if target > 0 { 2 } else { 0 };
            let _ = writeln!(out, "+1 x1 >= {bound} ;");
            continue;
        }
        for (w, p) in terms {
            let _ = write!(out, "+{w} x{} ", p + 1);
        }
        let _ = writeln!(out, "= {target} ;");
    }
    for tiling in blocked {
        if tiling.is_empty() {
            // The empty tiling (a board with no open cell) is the only assignment.
            let _ = writeln!(out, "+1 x1 >= 2 ;");
            continue;
        }
        for p in tiling {
            let _ = write!(out, "-1 x{} ", p + 1);
        }
        let _ = writeln!(out, ">= {} ;", 1 - tiling.len() as i64);
    }
    out
}
