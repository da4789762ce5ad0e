//! DIMACS CNF text, as FORMAT.md fixes it: a `c var K V|H R C` line per placement, the
//! projection `c p show …` over exactly the placements, then the formula.

use std::fmt::Write as _;

use super::cnf::LoweredCnf;
use crate::model::Model;

/// The whole file. Comments come before the `p cnf` header, where every reader accepts
/// them. Deterministic: the same model and encoding give the same bytes.
pub fn write(model: &Model, lowered: &LoweredCnf) -> String {
    write_blocking(model, lowered, &[])
}

/// The file with one more clause per tiling in `blocked`, excluding it (for
/// enumerating solutions with a solver that runs once per file).
pub fn write_blocking(model: &Model, lowered: &LoweredCnf, blocked: &[Vec<u32>]) -> String {
    let mut out = String::with_capacity(lowered.cnf.len() * 12 + model.placements.len() * 16);
    let _ = writeln!(
        out,
        "c dominofit model of {} ({}x{}), families {}, encoding {}",
        model.name,
        model.rows,
        model.cols,
        model.families.name(),
        lowered.encoding.name()
    );
    if let Some(reason) = &model.infeasible {
        let _ = writeln!(out, "c infeasible by clue inversion: {reason}");
    }
    for part in &lowered.parts {
        let _ = writeln!(
            out,
            "c part {} constraints {} vars {} clauses {}",
            part.part, part.constraints, part.vars, part.clauses
        );
    }
    for (k, p) in model.placements.iter().enumerate() {
        let _ = writeln!(
            out,
            "c var {} {} {} {}",
            k + 1,
            p.orientation.letter(),
            p.row + 1,
            p.col + 1
        );
    }
    out.push_str("c p show");
    for k in 1..=lowered.placements {
        let _ = write!(out, " {k}");
    }
    out.push_str(" 0\n");
    let _ = writeln!(
        out,
        "p cnf {} {}",
        lowered.vars,
        lowered.cnf.len() + blocked.len()
    );
    for clause in lowered.cnf.clauses() {
        for lit in clause {
            let _ = write!(out, "{lit} ");
        }
        out.push_str("0\n");
    }
    for tiling in blocked {
        for &p in tiling {
            let _ = write!(out, "-{} ", p + 1);
        }
        out.push_str("0\n");
    }
    out
}
