//! A Hall set of the matching (the pairing rule, `pairs`): every open cell must be
//! paired with a neighbour by a piece, and each piece joins a cell of even `row +
//! column` to one of odd. A maximum matching of the open cells along the open pieces
//! shows the rule's two conclusions, each with a set of cells a player can count:
//!
//! * no perfect matching: the cells reached by alternating paths from a cell left
//!   unpaired have one neighbour fewer than themselves (Hall's condition fails), so
//!   they cannot all be covered;
//! * a piece in no perfect matching: the cells of one colour reached from its odd
//!   cell's partner have exactly as many neighbours as themselves, its odd cell among
//!   them and its even cell not; every one of those neighbours is needed by the set,
//!   so no piece joins one of them to a cell outside it.
//!
//! A piece lies in no perfect matching exactly when this second argument rules it out
//! (Régin's filter, `matching/`, finds the same pieces through strongly connected
//! components, and names its Hall sets by the same [`reach`]), so the rule decides what
//! the ladder's `pairs` rung decides.
//!
//! Justification ([`recipe`]): the cover constraints `≥ 1` of the set's cells and
//! `≤ 1` of its neighbours, summed. A piece joining a cell of the set to a neighbour
//! cancels; a piece on a cell of the set that is not open is out; what is left is
//! minus the pieces joining a neighbour to a cell outside the set, against the degree
//! `|set| − |neighbours|`: positive (no tiling), or zero (each of those pieces is out).

use super::board::{Board, Stopped};
use super::even;
use super::finding::{Deduction, HallSet, Rule};
use super::words::listed;
use crate::backend::Budget;
use crate::backend::native::ladder::Rung;
use crate::backend::native::recipe::{Axiom, Kind, Recipe};

/// How many cells or pieces between two looks at the budget.
const BUDGET_STRIDE: u32 = 256;

const NONE: u32 = u32::MAX;

/// The open cells and a maximum matching of them.
struct Pairing {
    /// For each cover index: its partner's cover index, or `NONE`.
    partner: Vec<u32>,
    /// For each cover index: whether the cell is open (not covered).
    open: Vec<bool>,
}

impl Pairing {
    fn new(board: &Board, budget: &Budget) -> Result<Pairing, Stopped> {
        let n = board.model.covers.len();
        let open: Vec<bool> = (0..n as u32).map(|k| !board.covered(k)).collect();
        let mut pairing = Pairing {
            partner: vec![NONE; n],
            open,
        };
        for k in 0..n as u32 {
            if k.is_multiple_of(BUDGET_STRIDE) && budget.expired() {
                return Err(Stopped);
            }
            if pairing.open[k as usize] && even(board, k) {
                let mut seen = vec![false; n];
                pairing.augment(board, k, &mut seen);
            }
        }
        Ok(pairing)
    }

    /// Kuhn's augmenting path from the unpaired even cell `x`.
    fn augment(&mut self, board: &Board, x: u32, seen: &mut [bool]) -> bool {
        for p in board.open_at(x).collect::<Vec<_>>() {
            let y = other(board, p, x);
            if seen[y as usize] {
                continue;
            }
            seen[y as usize] = true;
            let w = self.partner[y as usize];
            if w == NONE || self.augment(board, w, seen) {
                self.partner[y as usize] = x;
                self.partner[x as usize] = y;
                return true;
            }
        }
        false
    }

    /// The cells of `start`'s colour reached along alternating paths, and all their
    /// neighbours, each sorted.
    fn reach(&self, board: &Board, start: u32) -> (Vec<u32>, Vec<u32>) {
        let (mut set, mut neighbours) = reach(
            self.partner.len(),
            start,
            |x| board.open_at(x).map(move |p| other(board, p, x)),
            |y| self.partner[y as usize],
        );
        set.sort_unstable();
        neighbours.sort_unstable();
        (set, neighbours)
    }
}

/// The cells of `start`'s colour reached from it along alternating paths (out along an
/// open piece to a neighbour `y`, back along `y`'s partner, `NONE` for none), and all
/// their neighbours, in the order found: the one reach of the walkthrough's pairing rule
/// and the matching filter's Hall sets.
pub fn reach<I: IntoIterator<Item = u32>>(
    cells: usize,
    start: u32,
    neighbours_of: impl Fn(u32) -> I,
    partner: impl Fn(u32) -> u32,
) -> (Vec<u32>, Vec<u32>) {
    let mut seen = vec![false; cells];
    let mut set = vec![start];
    let mut neighbours = Vec::new();
    seen[start as usize] = true;
    let mut head = 0;
    while head < set.len() {
        let x = set[head];
        head += 1;
        for y in neighbours_of(x) {
            if !seen[y as usize] {
                seen[y as usize] = true;
                neighbours.push(y);
            }
            let w = partner(y);
            if w != NONE && !seen[w as usize] {
                seen[w as usize] = true;
                set.push(w);
            }
        }
    }
    (set, neighbours)
}

/// The recipe of a Hall set: see the module's justification.
pub fn recipe(set: &[u32], neighbours: &[u32]) -> Recipe {
    Recipe::sum_of(
        Kind::HallSet,
        set.iter()
            .map(|&k| Axiom::CoverAtLeast(k))
            .chain(neighbours.iter().map(|&k| Axiom::CoverAtMost(k))),
    )
}

/// The cell of `p` that is not `k`.
fn other(board: &Board, p: u32, k: u32) -> u32 {
    let [a, b] = board.cells(p);
    if a == k { b } else { a }
}

/// The first conclusion of the pairing rule: the board's open cells cannot all be
/// paired, or the pieces a tight set of cells rules out.
pub fn find(board: &Board, budget: &Budget) -> Result<Option<Deduction>, Stopped> {
    let pairing = Pairing::new(board, budget)?;
    let n = pairing.partner.len() as u32;
    if let Some(lone) =
        (0..n).find(|&k| pairing.open[k as usize] && pairing.partner[k as usize] == NONE)
    {
        let (set, neighbours) = pairing.reach(board, lone);
        let (set_words, mut cells) = listed(board, &set);
        let (_, near) = listed(board, &neighbours);
        cells.extend(near);
        let mut found = Deduction::contradiction(
            Rung::Pairs,
            Rule::NoPairing,
            format!(
                "The {} cells {set_words} can only be paired with {} neighbouring cells, \
                 fewer than themselves: they cannot all be covered.",
                set.len(),
                neighbours.len()
            ),
            cells,
        );
        found.hall_sets.push(HallSet {
            cells: set,
            neighbours,
        });
        return Ok(Some(found));
    }
    for (i, p) in board.with(None).into_iter().enumerate() {
        if (i as u32).is_multiple_of(BUDGET_STRIDE) && budget.expired() {
            return Err(Stopped);
        }
        let [a, b] = board.cells(p);
        let (x, y) = if even(board, a) { (a, b) } else { (b, a) };
        if pairing.partner[x as usize] == y {
            continue;
        }
        let w = pairing.partner[y as usize];
        let (set, neighbours) = pairing.reach(board, w);
        if set.binary_search(&x).is_ok() {
            continue;
        }
        let rule_out: Vec<u32> = board
            .with(None)
            .into_iter()
            .filter(|&q| {
                let [c, d] = board.cells(q);
                let joins = |u: u32, v: u32| {
                    neighbours.binary_search(&u).is_ok() && set.binary_search(&v).is_err()
                };
                joins(c, d) || joins(d, c)
            })
            .collect();
        let (set_words, mut cells) = listed(board, &set);
        let (near_words, near) = listed(board, &neighbours);
        cells.extend(near);
        cells.sort_unstable_by_key(|c| c.0);
        return Ok(Some(Deduction {
            rung: Rung::Pairs,
            rule: Rule::Pairing,
            place: Vec::new(),
            contradiction: false,
            reason: format!(
                "The {} cells {set_words} can only be paired with the {} cells {near_words}, \
                 so each of those is needed by them: {}.",
                set.len(),
                neighbours.len(),
                match rule_out.len() {
                    1 => "the piece joining one of those to another cell is out".to_string(),
                    n => format!("the {n} pieces joining one of those to other cells are out"),
                }
            ),
            rule_out,
            cells,
            hall_sets: vec![HallSet {
                cells: set,
                neighbours,
            }],
            recipes: Vec::new(),
        }));
    }
    Ok(None)
}
