//! The model as a self-contained MiniZinc model, for the solvers MiniZinc reaches
//! (Gecode, Chuffed, OR-Tools, the MIP solvers): one `var 0..1` per placement with the
//! LP file's names (`v_R_C`, `h_R_C`), one linear equality per row of the LP file with
//! its name in a comment, and no output item, so a solution prints every placement as
//! `v_R_C = 1;` and is read back by name.

use std::fmt::Write as _;

use super::lp::{equalities, variable_name};
use crate::model::Model;

/// The whole file, deterministic.
pub fn write(model: &Model) -> String {
    write_cuts(model, &[])
}

/// The file with one constraint per tiling in `blocked` ruling it out.
pub fn write_cuts(model: &Model, blocked: &[Vec<u32>]) -> String {
    let mut out = super::header(model, "%", "");
    out.push_str(
        "% v_R_C = 1: the vertical piece on (R,C) and (R+1,C), one dot on (R,C)\n\
         % h_R_C = 1: the horizontal piece on (R,C) and (R,C+1), two dots on (R,C+1)\n",
    );
    let names: Vec<String> = (0..model.placements.len() as u32)
        .map(|id| variable_name(model, id))
        .collect();
    for name in &names {
        let _ = writeln!(out, "var 0..1: {name};");
    }
    if model.infeasible.is_some() {
        out.push_str("constraint false; % infeasible\n");
    }
    let sum = |terms: &mut dyn Iterator<Item = (u64, u32)>| -> String {
        let parts: Vec<String> = terms
            .map(|(coefficient, p)| match coefficient {
                1 => names[p as usize].clone(),
                c => format!("{c}*{}", names[p as usize]),
            })
            .collect();
        if parts.is_empty() {
            "0".to_string()
        } else {
            parts.join(" + ")
        }
    };
    for (name, terms, rhs) in equalities(model) {
        let _ = writeln!(
            out,
            "constraint {} = {rhs}; % {name}",
            sum(&mut terms.into_iter())
        );
    }
    for (k, tiling) in blocked.iter().enumerate() {
        let _ = writeln!(
            out,
            "constraint {} <= {}; % nogood_{}",
            sum(&mut tiling.iter().map(|&p| (1, p))),
            tiling.len() as i64 - 1,
            k + 1
        );
    }
    out.push_str("solve satisfy;\n");
    out
}
