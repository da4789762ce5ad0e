//! A cell with one piece left takes it; a cell with none left shows that what is known
//! has no tiling. Unit propagation over a cover's "exactly one": a proof needs no
//! recipe for it (reverse unit propagation finds it), and the search makes it in
//! `delete` and `commit` (`search/state.rs`).

use super::board::Board;
use super::finding::{Deduction, Rule};
use crate::backend::native::ladder::Rung;

/// The first cell with one piece left or none, in row-major order.
pub fn find(board: &Board) -> Option<Deduction> {
    for k in 0..board.model.covers.len() as u32 {
        if board.covered(k) {
            continue;
        }
        let open: Vec<u32> = board.open_at(k).collect();
        let cell = board.cell(k);
        let at = format!("({},{})", cell.0[0], cell.0[1]);
        match open.as_slice() {
            [] => {
                return Some(Deduction::contradiction(
                    Rung::Singles,
                    Rule::NoPiece,
                    format!("No piece is left that could cover the cell {at}."),
                    vec![cell],
                ));
            }
            [p] => {
                return Some(Deduction {
                    rung: Rung::Singles,
                    rule: Rule::LastPiece,
                    place: vec![*p],
                    rule_out: Vec::new(),
                    contradiction: false,
                    reason: format!("The cell {at} can only be covered by {}.", board.piece(*p)),
                    cells: vec![cell],
                    hall_sets: Vec::new(),
                    recipes: Vec::new(),
                });
            }
            _ => {}
        }
    }
    None
}
