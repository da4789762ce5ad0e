//! The model as exact cover with multiplicities, in the input format of Knuth's
//! `dlx3`/`ssxcc` programs: one primary item per open cell (covered exactly once), one
//! primary item per quota group with its quota as multiplicity (`k:k|name`), and one
//! option per placement listing its two cells and its groups. Each option also names its
//! placement through a secondary item (`v3_4`, `h1_2`), so a solution reads back directly.
//!
//! Item names in those programs have at most eight characters, so boards are limited to
//! 999 rows and columns here. Placements in a group with quota 0 can never be chosen and
//! are left out with the group; raw clue sums (weights 1 and 2) have no exact-cover form.

use std::fmt::Write as _;

use crate::model::{Families, Family, Model};
use crate::puzzle::Orientation;

/// Why a model has no MCC form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MccError {
    /// The model holds raw clue sums, which have no exact-cover form.
    #[error("the exact-cover format has no weighted sums: use quota families, not `raw`")]
    RawFamilies,
    /// More than 999 rows or columns: item names would pass eight characters.
    #[error(
        "item names are limited to 8 characters: boards up to 999x999 (this one is {rows}x{cols})"
    )]
    TooLarge {
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
    },
}

fn group_item(family: Family, index: usize) -> String {
    let tag = match family {
        Family::U => "u",
        Family::P => "p",
        Family::Q => "q",
        Family::T => "t",
        Family::UEven => "ue",
        Family::UOdd => "uo",
        Family::TEven => "te",
        Family::TOdd => "to",
    };
    format!("{tag}{index}")
}

/// The whole file, deterministic.
///
/// # Errors
/// Raw families, or a board too large for the item names.
pub fn write(model: &Model) -> Result<String, MccError> {
    if model.families == Families::RawSums {
        return Err(MccError::RawFamilies);
    }
    if model.rows > 999 || model.cols > 999 {
        return Err(MccError::TooLarge {
            rows: model.rows,
            cols: model.cols,
        });
    }
    let mut excluded = vec![false; model.placements.len()];
    for group in &model.quotas {
        if group.quota == 0 {
            for &p in model.members(group) {
                excluded[p as usize] = true;
            }
        }
    }
    let mut groups_of: Vec<Vec<String>> = vec![Vec::new(); model.placements.len()];
    let mut out = String::new();
    out.push_str(&super::header(
        model,
        "|",
        ": exact cover with multiplicities",
    ));
    let mut items: Vec<String> = model
        .covers
        .iter()
        .map(|c| format!("r{}c{}", c.row, c.col))
        .collect();
    if model.infeasible.is_some() {
        // An item no option covers: no solution.
        items.push("none".to_string());
    }
    for group in &model.quotas {
        if group.quota == 0 {
            continue;
        }
        let name = group_item(group.family, group.index);
        for &p in model.members(group) {
            groups_of[p as usize].push(name.clone());
        }
        items.push(format!("{}:{}|{name}", group.quota, group.quota));
    }
    let label = |p: usize| {
        let piece = model.placements[p];
        let kind = match piece.orientation {
            Orientation::Vertical => 'v',
            Orientation::Horizontal => 'h',
        };
        format!("{kind}{}_{}", piece.row + 1, piece.col + 1)
    };
    out.push_str(&items.join(" "));
    out.push_str(" |");
    for p in (0..model.placements.len()).filter(|&p| !excluded[p]) {
        let _ = write!(out, " {}", label(p));
    }
    out.push('\n');
    for p in (0..model.placements.len()).filter(|&p| !excluded[p]) {
        let piece = model.placements[p];
        let (r2, c2) = piece.other_cell();
        let _ = write!(
            out,
            "r{}c{} r{}c{}",
            piece.row + 1,
            piece.col + 1,
            r2 + 1,
            c2 + 1
        );
        for g in &groups_of[p] {
            let _ = write!(out, " {g}");
        }
        let _ = writeln!(out, " {}", label(p));
    }
    Ok(out)
}
