//! The model in the pseudo-Boolean competition format (OPB): covers, quotas and raw clue
//! sums are all linear equalities, so PB solvers (RoundingSat, Exact, Sat4j) take the
//! model without any cardinality encoding. Variable `xK` is placement K (as in DIMACS).

use std::io::Write;

use crate::model::Model;

/// The file into `out`, with one constraint ruling out each tiling of `blocked`, (which the caller checks for a stop: the text is written
/// as it is made, constraint by constraint).
///
/// # Errors
/// The writer's.
pub fn write_to(out: &mut dyn Write, model: &Model, blocked: &[Vec<u32>]) -> std::io::Result<()> {
    let infeasible = model.infeasible.is_some();
    // The infeasible model's constraint is marked by an empty term list: written below
    // as `+1 x1 >= 2`, which no 0/1 value meets.
    let marker = infeasible.then(|| (Vec::new(), 2));
    let covers = model
        .covers
        .iter()
        .map(|cover| (cover.placements.iter().map(|&p| (1, p)).collect(), 1));
    let groups = model.quotas.iter().map(|group| {
        (
            model.members(group).iter().map(|&p| (1, p)).collect(),
            group.quota as u64,
        )
    });
    let sums = model.clue_sums.iter().map(|sum| {
        (
            sum.terms.iter().map(|&(w, p)| (w as u64, p)).collect(),
            sum.target,
        )
    });
    let count = usize::from(infeasible) + model.covers.len() + model.quotas.len();
    writeln!(
        out,
        "* #variable= {} #constraint= {}",
        model.placements.len().max(1),
        count + model.clue_sums.len() + blocked.len()
    )?;
    out.write_all(super::header(model, "*", "").as_bytes())?;
    super::legend(out, model, "* x")?;
    let constraints = marker.into_iter().chain(covers).chain(groups).chain(sums);
    for (terms, target) in constraints {
        let terms: Vec<(u64, u32)> = terms;
        if terms.is_empty() {
            // Nothing can add up to a positive target (an open cell no piece fits, a
            // clue on a line with no room): a constraint no 0/1 value meets. A zero
            // target is met by the empty sum.
            let bound = if target > 0 { 2 } else { 0 };
            writeln!(out, "+1 x1 >= {bound} ;")?;
            continue;
        }
        for (w, p) in terms {
            write!(out, "+{w} x{} ", p + 1)?;
        }
        writeln!(out, "= {target} ;")?;
    }
    for tiling in blocked {
        if tiling.is_empty() {
            // The empty tiling (a board with no open cell) is the only assignment.
            writeln!(out, "+1 x1 >= 2 ;")?;
            continue;
        }
        for p in tiling {
            write!(out, "-1 x{} ", p + 1)?;
        }
        writeln!(out, ">= {} ;", 1 - tiling.len() as i64)?;
    }
    Ok(())
}
