//! Hall sets that explain the filter's conclusions to a proof: a set of cells of one
//! colour with fewer neighbours than cells (no perfect matching), or with exactly as
//! many (every neighbour is used inside, so no piece joins one to the outside). The
//! argument is the catalogue's (`argument/hall.rs`: its reach, its recipe, its words);
//! this file finds its sets in the kept matching.

use super::{Graph, Matching, NONE};
use crate::backend::native::argument::hall::{reach, recipe as hall_set};
use crate::backend::native::recipe::Recipe;

impl Matching {
    /// After [`Matching::filter`] found no perfect matching: the cell that no augmenting
    /// path reaches (the Hall set's root, `u32::MAX` for none).
    pub fn unreached(&self) -> u32 {
        self.short
    }

    /// The cells of one colour reached along alternating paths from `root`, the cell
    /// that no augmenting path reaches ([`Matching::unreached`]), and their neighbours
    /// along live candidates, which are fewer (each is matched to a cell of the set, and
    /// the root is not matched at all): its recipe.
    pub fn hall_violator(&self, g: &Graph, root: u32) -> Recipe {
        if root == NONE {
            return hall_set(&[], &[]);
        }
        let (set, neighbours) = self.alternating_reach(g, root);
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
    /// along live candidates: the catalogue's reach over the kept matching.
    fn alternating_reach(&self, g: &Graph, start: u32) -> (Vec<u32>, Vec<u32>) {
        reach(
            g.lay.cells,
            start,
            |x| {
                (g.lay.places_at(x).iter())
                    .filter(|&&p| g.active[p as usize])
                    .map(move |&p| g.other(p, x))
            },
            |y| self.partner(g, y),
        )
    }
}
