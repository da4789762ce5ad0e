//! The model as a 0/1 integer program in CPLEX LP format, readable by CBC, GLPK, HiGHS,
//! SCIP and Gurobi: binary variables `v_R_C` and `h_R_C` (one-based start cells), one
//! equality per open cell (`cover_R_C`), one per quota group (`u_2`, `t_5`,
//! `u_even_3`, ...) or per raw clue (`row_4`, `col_1`), and a zero objective.
//!
//! Written here rather than through the `lp-solvers` crate: its writer names
//! constraints `c0, c1, …` and declares binaries as bounds plus `Generals`, and the
//! names are the point of this file for anyone reading a solver's log.

use std::io::Write;

use super::stream::{ROWS_PER_CHECK, stopped};
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

/// The placement an LP name stands for: the inverse of [`variable_name`], by binary
/// search over the placements (row-major by start cell, the vertical piece first), so
/// that reading a solver's answer needs no table of every name.
pub fn placement_named(model: &Model, name: &str) -> Option<u32> {
    let (kind, rest) = name.split_once('_')?;
    let orientation = match kind {
        "v" => Orientation::Vertical,
        "h" => Orientation::Horizontal,
        _ => return None,
    };
    let (row, col) = rest.split_once('_')?;
    let (row, col): (usize, usize) = (row.parse().ok()?, col.parse().ok()?);
    let key = (row.checked_sub(1)?, col.checked_sub(1)?, orientation as u8);
    let id = model
        .placements
        .binary_search_by_key(&key, |p| (p.row, p.col, p.orientation as u8))
        .ok()? as u32;
    // Only the name as written: `v_01_2` is no variable of the file.
    (variable_name(model, id) == name).then_some(id)
}

/// A constraint: name, `(coefficient, placement)` terms, right-hand side.
pub type LinearEquality = (String, Vec<(u64, u32)>, u64);

/// Every equality of the model, in a fixed order: covers, quota groups, raw sums.
pub fn equalities(model: &Model) -> Vec<LinearEquality> {
    each_equality(model).collect()
}

/// [`equalities`] one at a time, for writers that stream them.
pub fn each_equality(model: &Model) -> impl Iterator<Item = LinearEquality> + '_ {
    let covers = model.covers.iter().map(|cover| {
        (
            format!("cover_{}_{}", cover.row, cover.col),
            cover.placements.iter().map(|&p| (1, p)).collect(),
            1,
        )
    });
    let groups = model.quotas.iter().map(|group| {
        (
            format!("{}_{}", group.family.name(), group.index),
            model.members(group).iter().map(|&p| (1, p)).collect(),
            group.quota as u64,
        )
    });
    let sums = model.clue_sums.iter().map(|sum| {
        let line = match sum.line {
            Line::Row => "row",
            Line::Col => "col",
        };
        (
            format!("{line}_{}", sum.index),
            sum.terms.iter().map(|&(w, p)| (w as u64, p)).collect(),
            sum.target,
        )
    });
    covers.chain(groups).chain(sums)
}

/// Every placement's LP name, in model order; `None` when `stop` said so first.
pub(super) fn variable_names(model: &Model, stop: &dyn Fn() -> bool) -> Option<Vec<String>> {
    let mut names = Vec::with_capacity(model.placements.len());
    for id in 0..model.placements.len() as u32 {
        if (id as usize).is_multiple_of(ROWS_PER_CHECK) && stop() {
            return None;
        }
        names.push(variable_name(model, id));
    }
    Some(names)
}

/// The file into `out`, with one constraint ruling out each tiling of `blocked`, stopping with an error of kind `TimedOut` as soon as
/// `stop` says so.
///
/// # Errors
/// The writer's, or `TimedOut` when stopped.
pub fn write_to(
    out: &mut dyn Write,
    model: &Model,
    blocked: &[Vec<u32>],
    stop: &dyn Fn() -> bool,
) -> std::io::Result<()> {
    out.write_all(super::header(model, "\\", "").as_bytes())?;
    let names = variable_names(model, stop).ok_or_else(stopped)?;
    // A variable that is always 0, for constraints with no placements (an infeasible
    // model, a clue on a line with no room) and for the objective of an empty board.
    let zero = "z_zero";
    out.write_all(b"Minimize\n obj: 0 ")?;
    out.write_all(names.first().map_or(zero, String::as_str).as_bytes())?;
    out.write_all(b"\nSubject To\n")?;
    if model.infeasible.is_some() {
        writeln!(out, " infeasible: 0 {zero} = 1")?;
    }
    for (name, terms, rhs) in each_equality(model) {
        write!(out, " {name}:")?;
        if terms.is_empty() {
            write!(out, " 0 {zero}")?;
        }
        for (k, (coefficient, p)) in terms.iter().enumerate() {
            if k > 0 && k % TERMS_PER_LINE == 0 {
                out.write_all(b"\n  ")?;
            }
            let sign = if k == 0 { "" } else { "+ " };
            if *coefficient == 1 {
                write!(out, " {sign}{}", names[*p as usize])?;
            } else {
                write!(out, " {sign}{coefficient} {}", names[*p as usize])?;
            }
        }
        writeln!(out, " = {rhs}")?;
    }
    for (k, tiling) in blocked.iter().enumerate() {
        write!(out, " nogood_{}:", k + 1)?;
        if tiling.is_empty() {
            write!(out, " 0 {zero}")?;
        }
        for (i, &p) in tiling.iter().enumerate() {
            if i > 0 && i % TERMS_PER_LINE == 0 {
                out.write_all(b"\n  ")?;
            }
            let sign = if i == 0 { "" } else { "+ " };
            write!(out, " {sign}{}", names[p as usize])?;
        }
        writeln!(out, " <= {}", tiling.len() as i64 - 1)?;
    }
    out.write_all(b"Bounds\n")?;
    writeln!(out, " {zero} = 0")?;
    out.write_all(b"Binaries\n")?;
    for chunk in names.chunks(TERMS_PER_LINE) {
        writeln!(out, " {}", chunk.join(" "))?;
    }
    out.write_all(b"End\n")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Families, compile};
    use crate::puzzle::generate::planted;

    #[test]
    fn every_name_leads_back_to_its_placement() {
        let (instance, _) = planted(7, 9, 3, 0).unwrap();
        let model = compile(&instance, Families::AllQuotas);
        for id in 0..model.placements.len() as u32 {
            assert_eq!(
                placement_named(&model, &variable_name(&model, id)),
                Some(id)
            );
        }
        for name in [
            "v_01_1", "v_0_1", "x_1_1", "v_1", "v_1_1_1", "h_8_9", "v_+1_1", "",
        ] {
            let found = placement_named(&model, name);
            assert!(
                found.is_none_or(|id| variable_name(&model, id) == name),
                "{name}"
            );
        }
        assert_eq!(placement_named(&model, "v_01_1"), None);
        assert_eq!(placement_named(&model, "v_+1_1"), None);
    }
}
