//! A trial (the rule `trial`): a piece placed for argument's sake that leads, by the
//! rules below, to a contradiction is out. Which pieces it rules out is the ladder's
//! own answer (`native::trial_refutes`), so a walkthrough agrees with `grade`; the
//! reason a player reads is found here, by following the rules below from the piece
//! to the contradiction they meet. Where they run dry first, the contradiction is one
//! of the catalogue's stall arguments ([`super::stall_failure`]: a line without room
//! for its pieces, a region whose colours cannot balance, ...), named in the reason
//! and carried as its recipe into the step's proof.

use super::below::below_trial;
use super::board::{Board, Stopped};
use super::finding::{Deduction, Rule};
use super::stall::stall_failure;
use crate::backend::Budget;
use crate::backend::native::ladder::Rung;

/// The deduction ruling out `p`, which the ladder's trial refuted from `board`; `None`
/// when neither the rules below nor the trial's checks find the contradiction the
/// ladder found (a bug, reported by the caller).
pub fn refute(board: &Board, p: u32, budget: &Budget) -> Result<Option<Deduction>, Stopped> {
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
                    let Some(failure) = stall_failure(&supposed) else {
                        return Ok(None);
                    };
                    recipes.push(failure.recipe);
                    cells.extend(failure.cells);
                    break format!("{}{}", after(forced), failure.words);
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
