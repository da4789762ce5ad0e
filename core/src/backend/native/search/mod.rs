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
//! trail and the propagation rules), [`propagator`] (the seam for the propagators: a
//! trait, the node it reads, a from-scratch twin for each), [`checks`] (which run at
//! every stall, in order: where a new one is registered), one file per propagator
//! ([`capacity`], [`colour`]: the catalogue's arguments made incrementally;
//! [`transport`]; [`matching`], Régin's filter, which removes candidates), each giving
//! its reasons the catalogue's recipes (`argument/`), [`cache`] (subproblems proved empty),
//! [`stall`] (what runs at a stall, in order, and when the filter runs), [`order`]
//! (value order and restarts), [`sweep`] (the order cells are branched in, one of four
//! per restart), [`jump`] (backjumps over the line a
//! descent keeps failing at), [`lp`] (the LP refutation beside the search), [`dfs`]
//! (the depth-first search that drives them) and [`ladder`] (the same rules one rung at
//! a time, without branching, for grading puzzles).

/// The node as the propagators read it (`propagator::Node`), borrowed field by field
/// from a search so that a propagator and the trace can be borrowed beside it.
macro_rules! node {
    ($search:expr) => {
        super::propagator::Node {
            lay: $search.lay,
            active: &$search.active,
            covered: &$search.covered,
            left: &$search.left,
            quota: &$search.quota,
            trail: &$search.trail,
        }
    };
}

mod cache;
mod capacity;
mod checks;
mod colour;
mod dfs;
#[cfg(any(test, feature = "test-hooks"))]
pub mod examples;
mod jump;
mod ladder;
mod lp;
mod matching;
mod options;
mod order;
mod propagator;
mod repair;
mod stall;
mod state;
mod sweep;
mod transport;

pub(in crate::backend::native) use ladder::{climb, trial_refutes};
pub use options::{SearchOptions, WallsDraw};
pub(in crate::backend::native) use state::Search;

#[cfg(test)]
mod tests {
    use super::checks::Propagators;
    use super::examples::Capture;
    use super::order::luby;
    use super::propagator::{Dead, Node, Propagator, Verdict};
    use super::{Search, SearchOptions};
    use crate::backend::native::layout::Layout;
    use crate::backend::native::proof::Unlogged;
    use crate::backend::native::recipe::{Axiom, Kind, NodeValues, Recipe};
    use crate::model::{Families, compile};

    /// The background LP refutes, at the root, a committed board that every cheap check
    /// passes (the search alone needs hundreds of failures for it), and its verdict is
    /// read back by polling as the search does.
    #[test]
    fn background_lp_refutes_a_hard_board_at_the_root() {
        let instances = crate::testing::read_instances(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../models/unsat-hard.jsonl"
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
        search.start_farkas_when_due(&crate::backend::Budget::unlimited());
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
    }

    impl Propagator for EveryCellCoverable {
        /// The cell without a candidate.
        type Reason = u32;

        fn check(
            &mut self,
            node: &Node,
            since: Option<usize>,
            _stop: &dyn Fn() -> bool,
        ) -> Result<Verdict, Dead<u32>> {
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
                        return Err(Dead(c));
                    }
                }
            }
            Ok(Verdict::Holds)
        }

        fn explain(&self, _: &Node, &bare: &u32) -> Recipe {
            Recipe::sum_of(Kind::Colour, [Axiom::CoverAtLeast(bare)])
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

    /// The trivial propagator and every registered one pass the settled root of each
    /// observed board, incrementally and from scratch; with a cell's candidates taken
    /// away by hand, the new one fails both ways.
    #[test]
    fn a_propagator_is_a_file_of_its_own_and_its_twin() {
        let mut broken_boards = 0;
        for instance in crate::testing::read_instances(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../models/observed.jsonl"
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
            let root = node!(search);
            assert!(fresh.checked(&root, None, &|| false, &mut Unlogged).is_ok());
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
            let broken = node!(search);
            assert!(
                fresh
                    .checked(&broken, Some(mark), &|| false, &mut Unlogged)
                    .is_err()
            );
            assert!(!fresh.holds_from_scratch(&broken));
            assert_eq!(fresh.calls, 2, "checked calls check once");
            // The failure carries its reason: the cell without a candidate.
            let Err(Dead(bare)) = fresh.check(&broken, Some(mark), &|| false) else {
                panic!("a cell lost its candidates");
            };
            let values = NodeValues::new(&search.active, &search.trail);
            assert!(values.refuted_by(&fresh.explain(&broken, &bare), &model));
            broken_boards += 1;
        }
        assert!(broken_boards > 0, "some root leaves a cell open");
    }

    /// Reasons counted by kind: colour, Hall set, capacity, transport, Farkas.
    struct Kinds<'c>(&'c mut [u64; 5]);

    impl Extend<Recipe> for Kinds<'_> {
        fn extend<I: IntoIterator<Item = Recipe>>(&mut self, reasons: I) {
            for recipe in reasons {
                let kind = match recipe.kind {
                    Kind::Colour => 0,
                    Kind::HallSet => 1,
                    Kind::Capacity => 2,
                    Kind::Transport => 3,
                    Kind::Farkas { .. } => 4,
                };
                self.0[kind] += 1;
            }
        }
    }

    /// The checks with their reasons built, as under a proof, on planted 16×16 to 32×32
    /// boards and the committed unsat boards to 24×24: the line capacity, colour (its
    /// large-component path on every component), transport and matching checks, and
    /// the LP at every stall. In debug builds (the tests) each failure is held to its
    /// check's from-scratch twin and each sampled reason to the checker's arithmetic;
    /// every search finds as many tilings (up to two) as the default one; and each
    /// check but transport fails somewhere. Transport passes every node here (its
    /// failures are rare: `certify/pb/single.rs` meets one in a plain descent, through
    /// the same twins), so here it shows only that it cuts no tiling.
    #[test]
    fn every_check_fails_somewhere_and_its_twins_accept_it() {
        // The matching filter left to its schedule (after 4,096 failures), and not at
        // the root, so that the cheaper checks meet the failures first; then transport
        // as the only check.
        let eager = SearchOptions {
            transport: true,
            component_limit: 1,
            small_boards: false,
            matching_root: false,
            farkas_after_failures: u64::MAX,
            ..SearchOptions::default()
        };
        let configs = [
            eager,
            SearchOptions {
                path_capacity: false,
                colour_balance: false,
                ..eager
            },
        ];
        let committed = |file: &str| {
            let path = format!("{}/../models/{file}", env!("CARGO_MANIFEST_DIR"));
            crate::testing::read_instances(&path).unwrap()
        };
        let mut boards: Vec<crate::puzzle::Instance> = Vec::new();
        for size in [16, 24, 32] {
            boards.push(
                crate::puzzle::generate::planted(size, size, 11, 0)
                    .unwrap()
                    .0,
            );
        }
        boards.extend(
            committed("unsat.jsonl")
                .into_iter()
                .filter(|i| i.rows <= 24),
        );
        boards.extend(
            committed("unsat-hard.jsonl")
                .into_iter()
                .filter(|i| i.rows <= 24),
        );
        let lp_board = committed("unsat-hard.jsonl")
            .into_iter()
            .find(|i| i.name == "unsat-16x16-s6605-4")
            .unwrap();
        let mut counts = [0u64; 5];
        fn tilings(
            instance: &crate::puzzle::Instance,
            options: SearchOptions,
            counts: &mut [u64; 5],
        ) -> usize {
            let model = compile(instance, Families::ColourSplits);
            let layout = Layout::new(&model, options.transport);
            let mut found = 0;
            // The sink stops the search, as the driver's does at the limit.
            let mut sink = |_: &[u32]| {
                found += 1;
                if found < 2 {
                    crate::backend::Control::Continue
                } else {
                    crate::backend::Control::Stop
                }
            };
            let budget = crate::backend::Budget::unlimited();
            Search::traced(&layout, options, Capture(Kinds(counts))).run(2, &budget, &mut sink);
            found
        }
        for instance in &boards {
            let mut unused = [0u64; 5];
            let expected = tilings(instance, SearchOptions::default(), &mut unused);
            for options in configs {
                assert_eq!(
                    tilings(instance, options, &mut counts),
                    expected,
                    "{}",
                    instance.name
                );
            }
        }
        let lp = SearchOptions {
            farkas_every_stall: true,
            ..eager
        };
        assert_eq!(tilings(&lp_board, lp, &mut counts), 0);
        let [colour, hall, capacity, _, farkas] = counts;
        assert!(
            colour > 0 && hall > 0 && capacity > 0 && farkas > 0,
            "{counts:?}"
        );
    }
}
