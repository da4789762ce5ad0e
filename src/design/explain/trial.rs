//! The trial rule (`trial`): a piece placed for argument's sake that leads, by the
//! rules below, to a contradiction is out. Which pieces it rules out is the ladder's
//! own answer (`native::trial_refutes`), so a walkthrough agrees with `grade`; the
//! reason a player reads is found here, by following the rules below from the piece
//! to the contradiction they meet. Where they run dry first, the contradiction is one
//! of the trial's own checks (`native::stall_failure`: a line without room for its
//! pieces, a region whose colours cannot balance), named in the reason and carried as
//! its recipe into the step's proof.

use super::below::below_trial;
use super::board::{Board, Stopped, cells_words, group_words};
use super::deduction::{Deduction, Rule};
use crate::backend::Budget;
use crate::backend::native::ladder::{Rung, StallCheck};
use crate::backend::native::stall_failure;

/// The deduction ruling out `p`, which the ladder's trial refuted from `board`; `None`
/// when neither the rules below nor the trial's checks find the contradiction the
/// ladder found (a bug, reported by the caller).
pub(super) fn refute(board: &Board, p: u32, budget: &Budget) -> Result<Option<Deduction>, Stopped> {
    let mut supposed = board.clone();
    let mut forced = 0usize;
    let mut cells: Vec<_> = board.piece_cells(p).to_vec();
    let mut hall_sets = Vec::new();
    let mut recipes = Vec::new();
    let then = if supposed.place(p).is_err() {
        "it overlaps a piece already placed".to_string()
    } else {
        loop {
            match below_trial(&supposed, budget)? {
                Some(d) if d.contradiction => {
                    cells.extend(d.cells.iter().copied());
                    hall_sets.extend(d.hall_sets);
                    break format!("{}{}", after(forced), lower_first(&d.reason));
                }
                Some(d) => {
                    hall_sets.extend(d.hall_sets.iter().cloned());
                    if d.apply(&mut supposed).is_err() {
                        break "two forced pieces would overlap".to_string();
                    }
                    forced += 1;
                }
                None => {
                    let Some(failure) = stall_failure(supposed.model, &supposed.known) else {
                        return Ok(None);
                    };
                    recipes.push(failure.recipe);
                    let (words, on) = stall_words(&supposed, &failure.check);
                    cells.extend(on);
                    break format!("{}{words}", after(forced),);
                }
            }
        }
    };
    cells.sort_unstable_by_key(|c| c.0);
    cells.dedup();
    Ok(Some(Deduction {
        rung: Rung::Trial,
        rule: Rule::Trial,
        place: Vec::new(),
        rule_out: vec![p],
        contradiction: false,
        reason: format!(
            "Suppose {} were placed: {}. So it is out.",
            board.piece(p),
            then.trim_end_matches('.'),
        ),
        cells,
        hall_sets,
        recipes,
    }))
}

/// A failed stall check in words, and the cells it rests on.
fn stall_words(board: &Board, check: &StallCheck) -> (String, Vec<crate::puzzle::CellJson>) {
    match check {
        StallCheck::LineRoom {
            group,
            room,
            needed,
        } => {
            let group = &board.model.quotas[*group as usize];
            let open: Vec<u32> = (board.model.members(group).iter().copied())
                .filter(|&q| board.open(q))
                .collect();
            let mut cells: Vec<_> = open.iter().flat_map(|&q| board.piece_cells(q)).collect();
            cells.sort_unstable_by_key(|c| c.0);
            cells.dedup();
            let fit = match room {
                0 => "none of them fits".to_string(),
                1 => "only 1 fits".to_string(),
                n => format!("only {n} fit side by side"),
            };
            let words = format!(
                "{} still need {needed} more, and of their {} open pieces {fit}",
                group_words(group),
                open.len(),
            );
            (words, cells)
        }
        StallCheck::ColourBalance { cells } => {
            let on: Vec<_> = cells.iter().map(|&k| board.cell(k)).collect();
            let odd = on.iter().filter(|c| (c.0[0] + c.0[1]) % 2 == 1).count();
            let (more, fewer) = (odd.max(on.len() - odd), odd.min(on.len() - odd));
            let words = format!(
                "the open cells {} and those joined to them by open pieces hold {more} \
                 squares of one colour and {fewer} of the other, while every piece covers \
                 one of each",
                cells_words(&on),
            );
            (words, on)
        }
    }
}

/// How a contradiction's sentence begins after `forced` steps forced by the supposition.
fn after(forced: usize) -> String {
    match forced {
        0 => String::new(),
        1 => "after 1 forced step, ".to_string(),
        n => format!("after {n} forced steps, "),
    }
}

/// `s` with its first letter in lower case (a sentence continued after a colon).
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}
