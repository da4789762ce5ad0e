//! Hall sets that explain the filter's conclusions to a proof: a set of cells of one
//! colour with fewer neighbours than cells (no perfect matching), or with exactly as
//! many (every neighbour is used inside, so no piece joins one to the outside).
//!
//! Justification ([`hall_set`]): the cover constraints `≥ 1` of the set's cells and
//! `≤ 1` of its neighbours, summed. A piece joining a cell of the set to a neighbour
//! cancels; a piece on a cell of the set that is no candidate is out; what is left is
//! minus the pieces joining a neighbour to a cell outside the set, against the degree
//! `|set| − |neighbours|`: positive (no tiling), or zero (each of those pieces is out).

use super::{Graph, Matching, NONE};
use crate::backend::native::recipe::{Axiom, Kind, Recipe};

/// The recipe of a Hall set: see the module's justification.
pub fn hall_set(set: &[u32], neighbours: &[u32]) -> Recipe {
    Recipe::sum_of(
        Kind::HallSet,
        set.iter()
            .map(|&k| Axiom::CoverAtLeast(k))
            .chain(neighbours.iter().map(|&k| Axiom::CoverAtMost(k))),
    )
}

impl Matching {
    /// After [`Matching::filter`] found no perfect matching: the cells of one colour
    /// reached along alternating paths from the cell that no augmenting path reaches,
    /// and their neighbours along live candidates, which are fewer (each is matched to
    /// a cell of the set, and the free one is not matched at all): its recipe.
    pub fn hall_violator(&self, g: &Graph) -> Recipe {
        if self.short == NONE {
            return hall_set(&[], &[]);
        }
        let (set, neighbours) = self.alternating_reach(g, self.short);
        hall_set(&set, &neighbours)
    }

    /// After [`Matching::filter`] deleted `doomed`: for each, a tight set that rules it
    /// out, `(set, neighbours)` with as many neighbours as cells. For a doomed candidate
    /// on even cell `x` and odd cell `y`, the even cells reached from `y`'s partner along
    /// alternating paths are matched exactly onto their neighbours, `y` among them and
    /// `x` not (else `x` and the partner would share a component): a tiling covering
    /// them all uses every neighbour, so no piece joins a neighbour to a cell outside
    /// the set. A set already made serves every later candidate whose partner is in it
    /// and whose even cell is not. Their recipes.
    pub fn tight_sets(&self, g: &Graph, doomed: &[u32]) -> Vec<Recipe> {
        let mut sorted: Vec<Vec<u32>> = Vec::new();
        let mut sets = Vec::new();
        for &p in doomed {
            let [a, b] = g.lay.place_cells[p as usize];
            let (x, y) = if g.even(a) { (a, b) } else { (b, a) };
            let w = self.partner(g, y);
            if w == NONE {
                continue;
            }
            let served = sorted
                .iter()
                .any(|s| s.binary_search(&w).is_ok() && s.binary_search(&x).is_err());
            if served {
                continue;
            }
            let (set, neighbours) = self.alternating_reach(g, w);
            debug_assert!(
                !set.contains(&x),
                "a doomed candidate's even cell is reached"
            );
            let mut key = set.clone();
            key.sort_unstable();
            sorted.push(key);
            sets.push(hall_set(&set, &neighbours));
        }
        sets
    }

    /// The cells of `start`'s colour reached from it by alternating paths (out along a
    /// live candidate, back along the neighbour's matched one), and all their neighbours
    /// along live candidates.
    fn alternating_reach(&self, g: &Graph, start: u32) -> (Vec<u32>, Vec<u32>) {
        let mut seen = vec![false; g.lay.cells];
        let mut set = vec![start];
        let mut neighbours = Vec::new();
        seen[start as usize] = true;
        let mut head = 0;
        while head < set.len() {
            let x = set[head];
            head += 1;
            for &p in g.lay.places_at(x) {
                if !g.active[p as usize] {
                    continue;
                }
                let y = g.other(p, x);
                if !seen[y as usize] {
                    seen[y as usize] = true;
                    neighbours.push(y);
                }
                let w = self.partner(g, y);
                if w != NONE && !seen[w as usize] {
                    seen[w as usize] = true;
                    set.push(w);
                }
            }
        }
        (set, neighbours)
    }
}
