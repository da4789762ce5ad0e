//! A region whose colours cannot balance: every connected region of uncovered cells
//! joined by open pieces must hold as many cells of one checkerboard colour as of the
//! other, since each piece covers one of each.
//!
//! Justification ([`recipe`]): the cover constraints of the region's cells, `≥ 1` for
//! the more numerous colour and `≤ 1` for the other, summed: every piece inside the
//! region has one cell of each colour and cancels, which leaves only placements that
//! leave the region (none is open) against a positive degree.

use super::finding::{StallArgument, StallFailure};
use super::words::{cell, cells_words};
use super::{Position, even};
use crate::backend::native::recipe::{Axiom, Kind, Recipe};

/// The stall argument, as [`super::STALL`] lists it: `search/colour.rs` makes it
/// incrementally (and the matching filter subsumes it where it runs).
pub(super) const ARGUMENT: StallArgument = StallArgument {
    name: "colour balance",
    find,
    incremental: true,
};

/// The recipe of the unbalanced region `cells`: see the module's justification.
pub fn recipe<P: Position + ?Sized>(pos: &P, cells: &[u32]) -> Recipe {
    let (even_cells, odd_cells): (Vec<u32>, Vec<u32>) = cells.iter().partition(|&&k| even(pos, k));
    let (more, fewer) = if even_cells.len() > odd_cells.len() {
        (even_cells, odd_cells)
    } else {
        (odd_cells, even_cells)
    };
    Recipe::sum_of(
        Kind::Colour,
        more.into_iter()
            .map(Axiom::CoverAtLeast)
            .chain(fewer.into_iter().map(Axiom::CoverAtMost)),
    )
}

/// The cells of the first unbalanced region, from scratch: regions are explored from
/// each uncovered cell in order, breadth first along open pieces in the order of each
/// cell's placements (as `search/colour.rs` explores them, so that both name the same
/// cells in the same order).
pub fn first_unbalanced<P: Position + ?Sized>(pos: &P) -> Option<Vec<u32>> {
    let covers = &pos.model().covers;
    let mut seen = vec![false; covers.len()];
    for start in 0..covers.len() as u32 {
        if pos.covered(start) || seen[start as usize] {
            continue;
        }
        seen[start as usize] = true;
        let mut region = vec![start];
        let mut balance: i64 = 0;
        let mut head = 0;
        while head < region.len() {
            let x = region[head];
            head += 1;
            balance += if even(pos, x) { 1 } else { -1 };
            for &p in covers[x as usize].placements.iter() {
                if !pos.open(p) {
                    continue;
                }
                let [a, b] = pos.cells(p);
                let y = if a == x { b } else { a };
                if !seen[y as usize] {
                    seen[y as usize] = true;
                    region.push(y);
                }
            }
        }
        if balance != 0 {
            return Some(region);
        }
    }
    None
}

/// The first unbalanced region, with its recipe and words: "the open cells (2,3),
/// (2,4) and those joined to them by open pieces hold 3 squares of one colour and 1 of
/// the other, while every piece covers one of each".
fn find(pos: &dyn Position) -> Option<StallFailure> {
    let region = first_unbalanced(pos)?;
    let on: Vec<_> = region.iter().map(|&k| cell(pos, k)).collect();
    let odd = region.iter().filter(|&&k| !even(pos, k)).count();
    let (more, fewer) = (odd.max(on.len() - odd), odd.min(on.len() - odd));
    Some(StallFailure {
        argument: ARGUMENT.name,
        recipe: recipe(pos, &region),
        words: format!(
            "the open cells {} and those joined to them by open pieces hold {more} \
             squares of one colour and {fewer} of the other, while every piece covers \
             one of each",
            cells_words(&on),
        ),
        cells: on,
    })
}
