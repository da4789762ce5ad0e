//! The model as a self-contained MiniZinc model, for the solvers MiniZinc reaches
//! (Gecode, Chuffed, OR-Tools, the MIP solvers): one `var 0..1` per placement with the
//! LP file's names (`v_R_C`, `h_R_C`), one linear equality per row of the LP file with
//! its name in a comment, and no output item, so a solution prints every placement as
//! `v_R_C = 1;` and is read back by name.

use std::io::Write;

use super::lp::{each_equality, variable_names};
use super::stream::stopped;
use crate::model::Model;

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
    out.write_all(super::header(model, "%", "").as_bytes())?;
    out.write_all(
        b"% v_R_C = 1: the vertical piece on (R,C) and (R+1,C), one dot on (R,C)\n\
         % h_R_C = 1: the horizontal piece on (R,C) and (R,C+1), two dots on (R,C+1)\n",
    )?;
    let names = variable_names(model, stop).ok_or_else(stopped)?;
    for name in &names {
        writeln!(out, "var 0..1: {name};")?;
    }
    if model.infeasible.is_some() {
        out.write_all(b"constraint false; % infeasible\n")?;
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
    for (name, terms, rhs) in each_equality(model) {
        writeln!(
            out,
            "constraint {} = {rhs}; % {name}",
            sum(&mut terms.into_iter())
        )?;
    }
    for (k, tiling) in blocked.iter().enumerate() {
        writeln!(
            out,
            "constraint {} <= {}; % nogood_{}",
            sum(&mut tiling.iter().map(|&p| (1, p))),
            tiling.len() as i64 - 1,
            k + 1
        )?;
    }
    out.write_all(b"solve satisfy;\n")?;
    Ok(())
}
