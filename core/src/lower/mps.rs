//! The model as a 0/1 integer program in free MPS, the exchange format of the MIP world:
//! the same variables (`v_R_C`, `h_R_C`) and rows (`cover_R_C`, `u_2`, `row_4`, …) as
//! the LP file, so a solver's answer is read back by the same names. Columns are
//! integer between the `INTORG`/`INTEND` markers, bounded above by 1; the objective row
//! is empty.

use std::io::Write;

use super::lp::{each_equality, variable_names};
use super::stream::{ROWS_PER_CHECK, stopped};
use crate::model::Model;

/// One row: name, sense (`E` or `L`), right-hand side; its terms are in [`Rows`].
struct Row {
    name: String,
    sense: char,
    rhs: i128,
}

/// The rows and, flat, the terms of each, in order (`terms[start[r]..start[r + 1]]`):
/// a 1024×1024 board has a million rows, and a vector each took longer to free than a
/// time limit allows.
#[derive(Default)]
struct Rows {
    rows: Vec<Row>,
    start: Vec<usize>,
    terms: Vec<(u64, u32)>,
}

impl Rows {
    fn push(
        &mut self,
        name: String,
        sense: char,
        terms: impl Iterator<Item = (u64, u32)>,
        rhs: i128,
    ) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        self.rows.push(Row { name, sense, rhs });
        self.terms.extend(terms);
        self.start.push(self.terms.len());
    }

    fn terms(&self, r: usize) -> &[(u64, u32)] {
        &self.terms[self.start[r]..self.start[r + 1]]
    }
}

/// The file into `out`, with one constraint ruling out each tiling of `blocked`, stopping with an error of kind `TimedOut` as soon as
/// `stop` says so (MPS is written column by column, so the rows are gathered first).
///
/// # Errors
/// The writer's, or `TimedOut` when stopped.
pub fn write_to(
    out: &mut dyn Write,
    model: &Model,
    blocked: &[Vec<u32>],
    stop: &dyn Fn() -> bool,
) -> std::io::Result<()> {
    out.write_all(super::header(model, "*", "").as_bytes())?;
    let names = variable_names(model, stop).ok_or_else(stopped)?;
    // Rows, in the LP file's order; an empty row keeps its right-hand side (a clue on a
    // line with no room, an infeasible model), which no assignment meets.
    let mut rows = Rows::default();
    if model.infeasible.is_some() {
        rows.push("infeasible".to_string(), 'E', std::iter::empty(), 1);
    }
    for (k, (name, terms, rhs)) in each_equality(model).enumerate() {
        if k.is_multiple_of(ROWS_PER_CHECK) && stop() {
            return Err(stopped());
        }
        rows.push(name, 'E', terms.into_iter(), i128::from(rhs));
    }
    for (k, tiling) in blocked.iter().enumerate() {
        rows.push(
            format!("nogood_{}", k + 1),
            'L',
            tiling.iter().map(|&p| (1, p)),
            tiling.len() as i128 - 1,
        );
    }
    // The column view: each placement's rows, in row order, flat as the rows are.
    let mut column_start = vec![0usize; names.len() + 1];
    for &(_, p) in &rows.terms {
        column_start[p as usize + 1] += 1;
    }
    for p in 0..names.len() {
        column_start[p + 1] += column_start[p];
    }
    let mut filled = column_start.clone();
    let mut entries = vec![(0usize, 0u64); rows.terms.len()];
    for r in 0..rows.rows.len() {
        if r.is_multiple_of(ROWS_PER_CHECK) && stop() {
            return Err(stopped());
        }
        for &(coefficient, p) in rows.terms(r) {
            entries[filled[p as usize]] = (r, coefficient);
            filled[p as usize] += 1;
        }
    }
    out.write_all(b"NAME dominofit\nROWS\n N obj\n")?;
    for row in &rows.rows {
        writeln!(out, " {} {}", row.sense, row.name)?;
    }
    out.write_all(b"COLUMNS\n MARKER 'MARKER' 'INTORG'\n")?;
    for (p, name) in names.iter().enumerate() {
        for &(r, coefficient) in &entries[column_start[p]..column_start[p + 1]] {
            writeln!(out, " {name} {} {coefficient}", rows.rows[r].name)?;
        }
    }
    out.write_all(b" MARKER 'MARKER' 'INTEND'\nRHS\n")?;
    for row in rows.rows.iter().filter(|row| row.rhs != 0) {
        writeln!(out, " RHS {} {}", row.name, row.rhs)?;
    }
    out.write_all(b"BOUNDS\n")?;
    for name in &names {
        writeln!(out, " UP BND {name} 1")?;
    }
    out.write_all(b"ENDATA\n")?;
    Ok(())
}
