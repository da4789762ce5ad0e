//! The model as a 0/1 integer program in free MPS, the exchange format of the MIP world:
//! the same variables (`v_R_C`, `h_R_C`) and rows (`cover_R_C`, `u_2`, `row_4`, …) as
//! the LP file, so a solver's answer is read back by the same names. Columns are
//! integer between the `INTORG`/`INTEND` markers, bounded above by 1; the objective row
//! is empty.

use std::fmt::Write as _;

use super::lp::{equalities, variable_name};
use crate::model::Model;

/// One row: name, sense (`E` or `L`), `(coefficient, placement)` terms, right-hand side.
struct Row {
    name: String,
    sense: char,
    terms: Vec<(u64, u32)>,
    rhs: i128,
}

/// The whole file, deterministic.
pub fn write(model: &Model) -> String {
    write_cuts(model, &[])
}

/// The file with one no-good row per tiling in `blocked` (`Σ_{x∈S} x ≤ |S| − 1`).
pub fn write_cuts(model: &Model, blocked: &[Vec<u32>]) -> String {
    let mut out = super::header(model, "*", "");
    let names: Vec<String> = (0..model.placements.len() as u32)
        .map(|id| variable_name(model, id))
        .collect();
    // Rows, in the LP file's order; an empty row keeps its right-hand side (a clue on a
    // line with no room, an infeasible model), which no assignment meets.
    let mut rows: Vec<Row> = Vec::new();
    if model.infeasible.is_some() {
        rows.push(Row {
            name: "infeasible".to_string(),
            sense: 'E',
            terms: Vec::new(),
            rhs: 1,
        });
    }
    for (name, terms, rhs) in equalities(model) {
        rows.push(Row {
            name,
            sense: 'E',
            terms,
            rhs: i128::from(rhs),
        });
    }
    for (k, tiling) in blocked.iter().enumerate() {
        rows.push(Row {
            name: format!("nogood_{}", k + 1),
            sense: 'L',
            terms: tiling.iter().map(|&p| (1, p)).collect(),
            rhs: tiling.len() as i128 - 1,
        });
    }
    // The column view: each placement's rows, in row order.
    let mut columns: Vec<Vec<(usize, u64)>> = vec![Vec::new(); names.len()];
    for (r, row) in rows.iter().enumerate() {
        for &(coefficient, p) in &row.terms {
            columns[p as usize].push((r, coefficient));
        }
    }
    out.push_str("NAME dominofit\nROWS\n N obj\n");
    for row in &rows {
        let _ = writeln!(out, " {} {}", row.sense, row.name);
    }
    out.push_str("COLUMNS\n MARKER 'MARKER' 'INTORG'\n");
    for (name, entries) in names.iter().zip(&columns) {
        for (r, coefficient) in entries {
            let _ = writeln!(out, " {name} {} {coefficient}", rows[*r].name);
        }
    }
    out.push_str(" MARKER 'MARKER' 'INTEND'\nRHS\n");
    for row in rows.iter().filter(|row| row.rhs != 0) {
        let _ = writeln!(out, " RHS {} {}", row.name, row.rhs);
    }
    out.push_str("BOUNDS\n");
    for name in &names {
        let _ = writeln!(out, " UP BND {name} 1");
    }
    out.push_str("ENDATA\n");
    out
}
