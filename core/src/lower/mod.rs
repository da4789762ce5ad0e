//! Lowerings of the model into solver input formats.
//!
//! Every lowering numbers the placements first, in model order (placement `i` is
//! variable `i + 1`), so any solver's model decodes the same way.

pub mod cnf;
pub mod dimacs;
pub mod emit;
mod format;
pub mod lp;
pub mod mcc;
pub mod mps;
pub mod mzn;
pub mod opb;
mod stream;

pub use format::{Format, UnknownFormat, WriteError};

/// The opening comment lines every file format carries: which board, which families
/// (and `detail`, such as the encoding), and the clue-inversion refutation when there
/// is one. `mark` starts a comment line in the format. The board's name is escaped for
/// a comment (`escape::comment`): it is data, never syntax.
pub(crate) fn header(model: &crate::model::Model, mark: &str, detail: &str) -> String {
    let mut out = format!(
        "{mark} dominofit model of {} ({}x{}), families {}{detail}\n",
        crate::escape::comment(&model.name),
        model.rows,
        model.cols,
        model.families.name(),
    );
    if let Some(reason) = &model.infeasible {
        out.push_str(&format!("{mark} infeasible by clue inversion: {reason}\n"));
    }
    out
}

/// One comment line per placement, `{mark}{k} {V|H} {row} {col}` (one-based), so that a
/// reader of the file can map variable `k` back to a piece without the model.
pub(crate) fn legend(
    out: &mut dyn std::io::Write,
    model: &crate::model::Model,
    mark: &str,
) -> std::io::Result<()> {
    for (k, p) in model.placements.iter().enumerate() {
        let (kind, row, col) = (p.orientation.letter(), p.row + 1, p.col + 1);
        writeln!(out, "{mark}{} {kind} {row} {col}", k + 1)?;
    }
    Ok(())
}
