//! Propagation and depth-first search over the layout (Section 4 of the paper).
//!
//! State: which placements are still candidates (`active`), which cells are covered,
//! and per group the number of active members (`left`) and the residual quota. Every
//! change goes on a trail so a branch is undone exactly. The rules, applied to a fixed
//! point through a work queue:
//!
//! * a group with quota 0 loses all its candidates; fewer candidates than quota fails;
//! * a group with exactly as many candidates as quota commits them all;
//! * an uncovered cell with no candidate fails, with one candidate commits it;
//! * committing a placement covers its cells and deletes every candidate touching them.
//!   Two forced placements that overlap are caught here: deleting one drops its group
//!   below quota.
//!
//! At a fixed point the candidates are exactly the placements on uncovered cells whose
//! groups all have quota left, so (covered cells, residual quotas) identifies the
//! subproblem and is a sound key for the cache of proved failures.
//!
//! One job per file: [`options`] (the switches), [`state`] (candidates, counters, the
//! trail and the propagation rules), [`propagator`] (the seam for the checks at a stall:
//! a trait, the node it reads, a from-scratch twin for each), [`checks`] (which run, in
//! order: where a new one is registered), one file per propagator
//! ([`capacity`], [`colour`], [`transport`]), each with the recipe of its reason
//! beside its check, [`cache`] (subproblems proved empty),
//! [`stall`] (what runs at a stall, in order, and the matching filter), [`order`]
//! (value order and restarts), [`sweep`] (the order cells are branched in, one of four
//! per restart), [`jump`] (backjumps over the line a
//! descent keeps failing at), [`lp`] (the LP refutation beside the search) and [`dfs`]
//! (the depth-first search that drives them).

mod cache;
mod capacity;
mod checks;
mod colour;
mod dfs;
#[cfg(test)]
pub(crate) mod examples;
mod jump;
mod lp;
mod options;
mod order;
mod propagator;
mod stall;
mod state;
mod sweep;
mod transport;

pub use options::{SearchOptions, WallsDraw};
pub(in crate::backend::native) use state::Search;

#[cfg(test)]
mod tests {
    use super::checks::Propagators;
    use super::order::luby;
    use super::propagator::{Dead, Node, Propagator};
    use super::{Search, SearchOptions};
    use crate::backend::native::layout::Layout;
    use crate::backend::native::proof::{Trace, Unlogged};
    use crate::backend::native::recipe::{Axiom, Kind, NodeValues, Recipe};
    use crate::model::{Families, compile};

    /// The background LP refutes, at the root, a committed board that every cheap check
    /// passes (the search alone needs hundreds of failures for it), and its verdict is
    /// read back by polling as the search does.
    #[test]
    fn background_lp_refutes_a_hard_board_at_the_root() {
        let instances = crate::puzzle::parse::read_instances(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/models/unsat-hard.jsonl"
        ))
        .unwrap();
        let instance = instances
            .iter()
            .find(|i| i.name == "unsat-16x16-s6605-4")
            .unwrap();
        let model = compile(instance, Families::ColourSplits);
        assert!(model.infeasible.is_none());
        let layout = Layout::new(&model, false);
        let mut search = Search::new(&layout, SearchOptions::default());
        for c in 0..layout.cells {
            search.queue.push((c as u32) << 1);
        }
        for g in 0..layout.groups() {
            search.queue.push((g as u32) << 1 | 1);
        }
        assert!(search.settle(), "propagation alone refutes it");
        search.mark_root_for_farkas();
        // Due at once, as if the search had failed often enough.
        search.lp_due_at = 0;
        search.start_farkas_when_due(&crate::backend::Budget::default());
        assert!(search.lp.is_some());
        let mut refuted = false;
        while search.lp.is_some() {
            refuted = search.farkas_refuted();
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert!(refuted);
        assert_eq!(search.farkas_refutations, 1);
    }

    #[test]
    fn luby_sequence() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    /// A new propagator as one would be written: the trait, its state, its reason, its
    /// twin. This one asks that every uncovered cell keep a candidate (what propagation
    /// already ensures), so it must pass every settled node and fail where a cell lost
    /// them all; its reason is that cell's cover constraint `≥ 1` (counted with the
    /// colour arguments: a cell without a candidate is the smallest unbalanced
    /// component).
    #[derive(Default)]
    struct EveryCellCoverable {
        calls: usize,
        bare: u32,
    }

    impl Propagator for EveryCellCoverable {
        fn check(&mut self, node: &Node, since: Option<usize>) -> Result<(), Dead> {
            self.calls += 1;
            let changed = node.trail[since.unwrap_or(0)..].iter().map(|op| op >> 1);
            for p in changed {
                for c in node.lay.place_cells[p as usize] {
                    let live = node
                        .lay
                        .places_at(c)
                        .iter()
                        .any(|&q| node.active[q as usize]);
                    if !node.covered[c as usize] && !live {
                        self.bare = c;
                        return Err(Dead);
                    }
                }
            }
            Ok(())
        }

        fn explain(&self, _: &Node) -> Recipe {
            Recipe::sum_of(Kind::Colour, [Axiom::CoverAtLeast(self.bare)])
        }

        fn holds_from_scratch(&mut self, node: &Node) -> bool {
            (0..node.lay.cells as u32).all(|c| {
                node.covered[c as usize]
                    || node
                        .lay
                        .places_at(c)
                        .iter()
                        .any(|&q| node.active[q as usize])
            })
        }
    }

    fn node<'s, T: Trace>(search: &'s Search<'s, T>) -> Node<'s> {
        Node {
            lay: search.lay,
            active: &search.active,
            covered: &search.covered,
            left: &search.left,
            quota: &search.quota,
            trail: &search.trail,
        }
    }

    /// The trivial propagator and every registered one pass the settled root of each
    /// observed board, incrementally and from scratch; with a cell's candidates taken
    /// away by hand, the new one fails both ways.
    #[test]
    fn a_propagator_is_a_file_of_its_own_and_its_twin() {
        let mut broken_boards = 0;
        for instance in crate::puzzle::parse::read_instances(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/models/observed.jsonl"
        ))
        .unwrap()
        {
            let model = compile(&instance, Families::ColourSplits);
            let layout = Layout::new(&model, true);
            let options = SearchOptions {
                transport: true,
                ..SearchOptions::default()
            };
            let mut search = Search::new(&layout, options);
            for c in 0..layout.cells {
                search.queue.push((c as u32) << 1);
            }
            assert!(search.settle(), "{}: the root settles", instance.name);
            let mut fresh = EveryCellCoverable::default();
            let mut registered = Propagators::new(&options);
            let root = node(&search);
            assert!(fresh.checked(&root, None, &mut Unlogged).is_ok());
            assert!(fresh.holds_from_scratch(&root));
            assert!(
                registered.check(&root, None, false, &mut Unlogged).is_ok(),
                "{}: the registered propagators pass a board with a tiling",
                instance.name
            );
            // Every candidate of the first open cell gone, as a broken rule would leave it.
            let Some(cell) = (0..layout.cells).find(|&c| !search.covered[c]) else {
                continue;
            };
            let mark = search.trail.len();
            for &p in layout.places_at(cell as u32) {
                if search.active[p as usize] {
                    search.active[p as usize] = false;
                    search.trail.push(p << 1);
                }
            }
            let broken = node(&search);
            assert!(fresh.checked(&broken, Some(mark), &mut Unlogged).is_err());
            assert!(!fresh.holds_from_scratch(&broken));
            assert_eq!(fresh.calls, 2, "checked calls check once");
            let values = NodeValues::new(&search.active, &search.trail);
            assert!(values.refuted_by(&fresh.explain(&broken), &model));
            broken_boards += 1;
        }
        assert!(broken_boards > 0, "some root leaves a cell open");
    }
}
