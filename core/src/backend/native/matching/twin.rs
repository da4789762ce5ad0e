//! The debug-build twin of the incremental filter: after every call, on boards of up
//! to [`TWIN_MAX_CELLS`] cells, the kept matching is checked to be a valid matching
//! whose unmatched cells are all on the free list, and the outcome is compared with a
//! filter that starts from nothing and looks at the whole board.
//!
//! Both must agree on `Dead` (the matching is exact), and so must the catalogue's
//! pairing argument from scratch (`argument/hall.rs`, the walkthrough's rule), which
//! then names a Hall set. A region pass may delete less than the whole-board pass,
//! never more; a whole-board pass deletes the same.

use rustc_hash::FxHashSet;

use super::{Filtered, Graph, Matching, NONE};

/// Larger boards skip the twin, so that the tests' large boards stay quick; planted
/// 16×16 to 32×32 boards are checked at every call.
const TWIN_MAX_CELLS: usize = 1024;

pub(super) fn check(kept: &Matching, g: &Graph, outcome: &Filtered, whole: bool) {
    if g.lay.cells > TWIN_MAX_CELLS {
        return;
    }
    for c in (0..g.lay.cells as u32).filter(|&c| g.open(c)) {
        let p = kept.mate[c as usize];
        if p == NONE {
            assert!(
                kept.free.contains(&c),
                "free cell {c} is not on the free list"
            );
            continue;
        }
        assert!(
            g.active[p as usize],
            "cell {c} is matched to a deleted candidate"
        );
        assert_eq!(kept.mate[g.other(p, c) as usize], p, "the mate of cell {c}");
    }
    let fresh = Matching::from_scratch(g);
    match (outcome, &fresh) {
        (Filtered::Dead, Filtered::Dead) => catalogue_agrees(g),
        (Filtered::Delete(kept_doomed), Filtered::Delete(all_doomed)) => {
            let all: FxHashSet<u32> = all_doomed.iter().copied().collect();
            for p in kept_doomed {
                assert!(
                    all.contains(p),
                    "the incremental filter deleted candidate {p}, which is in a tiling"
                );
            }
            if whole {
                assert_eq!(
                    kept_doomed.len(),
                    all.len(),
                    "a whole-board pass missed candidates in no tiling"
                );
            }
        }
        (kept, fresh) => {
            panic!("the incremental filter found {kept:?}, the filter from scratch {fresh:?}")
        }
    }
}

/// The catalogue's pairing argument, on the node as a player's board, finds the node
/// has no tiling, with a Hall set of fewer neighbours than cells.
fn catalogue_agrees(g: &Graph) {
    use crate::backend::native::argument::{Board, Rule, hall};
    let board = Board::of_node(g.lay.model, g.active, g.trail);
    let found = hall::find(&board, &crate::backend::Budget::unlimited());
    match found {
        Ok(Some(d)) if d.rule == Rule::NoPairing => {
            let set = &d.hall_sets[0];
            assert!(set.neighbours.len() < set.cells.len(), "{set:?}");
        }
        other => panic!("the filter found no perfect matching, the catalogue {other:?}"),
    }
}
