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
//! trail and the propagation rules), [`stall`] (the checks when propagation stalls and
//! the failure cache), [`order`] (value order and restarts), [`sweep`] (the order cells
//! are branched in, one of four per restart), [`jump`] (backjumps over the line a
//! descent keeps failing at), [`lp`] (the LP refutation beside the search) and [`dfs`]
//! (the depth-first search that drives them).

mod dfs;
mod jump;
mod lp;
mod options;
mod order;
mod stall;
mod state;
mod sweep;

pub use options::{SearchOptions, WallsDraw};
pub(in crate::backend::native) use state::Search;

#[cfg(test)]
mod tests {
    use super::order::luby;
    use super::{Search, SearchOptions};
    use crate::backend::native::layout::Layout;
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
}
