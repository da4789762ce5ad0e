//! DIMACS CNF text, as FORMAT.md fixes it: a `c var K V|H R C` line per placement, the
//! projection `c p show …` over exactly the placements, then the formula.

use std::io::Write;

use super::cnf::LoweredCnf;
use crate::model::Model;

/// The whole file. Comments come before the `p cnf` header, where every reader accepts
/// them. Deterministic: the same model and encoding give the same bytes.
pub fn write(model: &Model, lowered: &LoweredCnf) -> String {
    let mut out = Vec::with_capacity(lowered.cnf.len() * 12 + model.placements.len() * 16);
    // Writing into memory fails only when `stop` says so, and it never does here.
    let _ = write_to(&mut out, model, lowered, &[], &|| false);
    String::from_utf8(out).unwrap_or_default()
}

/// How many clauses are written between two looks at `stop`.
const CLAUSES_PER_CHECK: usize = 1 << 16;

/// Writes the file with one more clause per tiling in `blocked`, excluding it (for
/// enumerating solutions with a solver that runs once per file), and stops with an
/// error of kind `TimedOut` as soon as `stop` says so: a formula of hundreds of
/// megabytes takes seconds to write, and the deadline covers that too.
///
/// # Errors
/// The writer's, or `TimedOut` when stopped.
pub fn write_to(
    out: &mut dyn Write,
    model: &Model,
    lowered: &LoweredCnf,
    blocked: &[Vec<u32>],
    stop: &dyn Fn() -> bool,
) -> std::io::Result<()> {
    let encoding = format!(", encoding {}", lowered.encoding.name());
    out.write_all(super::header(model, "c", &encoding).as_bytes())?;
    for part in &lowered.parts {
        writeln!(
            out,
            "c part {} constraints {} vars {} clauses {}",
            part.part, part.constraints, part.vars, part.clauses
        )?;
    }
    super::legend(out, model, "c var ")?;
    out.write_all(b"c p show")?;
    for k in 1..=lowered.placements {
        write!(out, " {k}")?;
    }
    out.write_all(b" 0\n")?;
    writeln!(
        out,
        "p cnf {} {}",
        lowered.vars,
        lowered.cnf.len() + blocked.len()
    )?;
    for (k, clause) in lowered.cnf.clauses().enumerate() {
        if k % CLAUSES_PER_CHECK == 0 && stop() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "stopped while writing the formula",
            ));
        }
        for lit in clause {
            write!(out, "{lit} ")?;
        }
        out.write_all(b"0\n")?;
    }
    for tiling in blocked {
        for &p in tiling {
            write!(out, "-{} ", p + 1)?;
        }
        out.write_all(b"0\n")?;
    }
    Ok(())
}
