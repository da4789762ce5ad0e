//! The search's switches, so that the value of each part can be measured.

/// How a walls' run orders the values at a branching cell. On boards tiled by
/// randomized backtracking (the paper's protocol) the best share (`quota_ratio_order`) is
/// often not the planted piece, and runs that follow the scores closely fail at the same
/// wall again and again; drawn in proportion to the shares, a run lands on the planted
/// choice as often as the scores make it likely. On near-uniform tilings (flip-chain
/// boards) the scores are right more often and the draw alone loses boards that the close
/// order decides (BENCHMARKS.md, issue 37). The runs before the walls' keep close to the
/// scores always: a draw there would cost boards that a few restarts decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WallsDraw {
    /// The best value first, the best two swapped now and then, as before the walls.
    Close,
    /// The first value drawn at random in proportion to the candidates' shares.
    Proportional,
    /// Four runs (one per sweep) drawing in proportion, then four close, in turn.
    Turns,
}

impl WallsDraw {
    /// Whether walls' run `k` (0: the first run with walls) draws in proportion.
    pub(super) fn proportional(self, k: u64) -> bool {
        match self {
            WallsDraw::Close => false,
            WallsDraw::Proportional => true,
            WallsDraw::Turns => (k / 4).is_multiple_of(2),
        }
    }
}

/// Switches for the optional parts of the search, so their value can be measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Boards of at most 128 cells go to the fixed-size bitset path (`native::small`),
    /// which skips compiling the general model; only with every other option at its
    /// default, since the path has none of them.
    pub small_boards: bool,
    /// Dead ends after which the small-board path gives the board to the general engine
    /// (raised by 4 for each tiling found); see `native::small::search::FAILURE_CAP`.
    pub small_failure_cap: u64,
    /// Remember (covered cells, quotas) of subtrees proved empty.
    pub failure_cache: bool,
    /// At propagation stalls, reject line groups whose quota exceeds their room.
    pub path_capacity: bool,
    /// At propagation stalls, reject components of the candidate graph with unequal
    /// numbers of even and odd cells.
    pub colour_balance: bool,
    /// At propagation stalls, check that row and cut quotas can be met together
    /// (a bipartite flow per pair of families). Off by default: measured to cost more
    /// than it prunes on planted boards.
    pub transport: bool,
    /// Try first the candidate whose groups need the largest share of their remaining
    /// candidates; otherwise the vertical piece first.
    pub quota_ratio_order: bool,
    /// When looking for a bounded number of solutions, restart after a growing number
    /// of failures (Luby), keeping the failure cache, with a perturbed value order.
    pub restarts: bool,
    /// How the walls' runs (`walls_after_restarts`) choose the first value at each
    /// branching cell.
    pub walls_draw: WallsDraw,
    /// Seed of the search's random choices (value perturbation, jumps' shuffles): runs
    /// with the same seed make the same choices.
    pub seed: u64,
    /// With restarts: failures at the deepest line a descent reached after which it
    /// goes back above that line and explores afresh from there (`search/jump.rs`);
    /// 0: never.
    pub jump_failures: u64,
    /// With restarts: each run from this one on branches along another of the four
    /// sweeps (rows or columns, forwards or backwards; `search/sweep.rs`) and jumps over
    /// walls (`jump_failures`); the runs before it, always by rows, without jumps.
    /// `u64::MAX`: never. Boards the row sweep decides within a few restarts (the
    /// flip-chain planted boards, most unsat ones) keep their search node for node;
    /// boards that resist that long are the ones with walls.
    pub walls_after_restarts: u64,
    /// Failures allowed in restart run `k` are `luby(k) * restart_unit`.
    pub restart_unit: u64,
    /// With restarts, when one tiling is asked for: from this restart on, the repair
    /// engine (`native/repair/`) takes a turn after each descent; `u64::MAX`: never
    /// after a descent (its opening is `repair_opening`'s).
    pub repair_after_restarts: u64,
    /// With restarts, when one tiling is asked for: the repair's work before the first
    /// descent, per open cell; 0: none. On the paper's boards the repair finishes within
    /// 35 per cell from 96×96 to 2048×2048 (BENCHMARKS.md, "Repair"), while a single
    /// descent of a 2048×2048 board costs most of a minute before its first restart.
    pub repair_opening: u64,
    /// Open cells a board needs for the repair to take turns, and for a search for two
    /// tilings or more to try windows after its first (`native::retile`): smaller
    /// boards are the descent's alone (it decides them, or they have no tiling).
    pub repair_min_cells: usize,
    /// The repair's work in a turn, in sixteenths of the descents' work since its last
    /// turn per 4,096 open cells of the board (`search/repair.rs` says how each is
    /// counted, and why the share grows with the board).
    pub repair_share: u64,
    /// Components of the candidate graph up to this many cells are explored at every
    /// node for the colour check; larger ones only when two of them changed.
    pub component_limit: usize,
    /// Most 64-bit words the failure cache may hold before it is cleared.
    pub cache_words: usize,
    /// At propagation stalls, delete candidates in no perfect matching of the
    /// uncovered cells (Régin's filter), and fail when there is no perfect matching.
    pub matching: bool,
    /// Run the matching filter only at nodes with at most this many open branching
    /// frames above them: shallow nodes root the large subtrees where a pruned
    /// candidate saves the most.
    pub matching_depth: usize,
    /// The matching filter's SCC pass looks at about this many uncovered cells around
    /// what changed since its last call, the rest of the board contracted to one
    /// vertex; 0: the whole board at every call. Its cost per call is then that of the
    /// change plus a constant, not the board's area; what it misses lies far from the
    /// change. 256 was the best of 32 to 4,096 on planted 128×128 to 256×256 boards
    /// (BENCHMARKS.md, issue 26).
    pub matching_region: usize,
    /// When `matching` is off: run the matching filter once at the root, on boards of at
    /// least `matching_root_min_cells` cells. One pass over the board refutes there many
    /// boards that every cheap check passes.
    pub matching_root: bool,
    /// Boards with fewer open cells skip the root matching filter: a game board is
    /// decided in a few microseconds, of which the filter would take a fifth.
    pub matching_root_min_cells: usize,
    /// When `matching` is off: once the search has failed this many times (over all its
    /// descents), run the matching filter at every stall from then on; `u64::MAX`:
    /// never. A board that resists the search this long is one where the filter's
    /// deletions pay for it (the planted 128×128 boards, the 40×40
    /// unsat boards whose LP relaxation is feasible).
    pub matching_after_failures: u64,
    /// When `matching` is off: run the matching filter at other stalls while the
    /// filter's work stays within this share of the search's (both counted in candidate updates, so the schedule is the same on
    /// every machine). 0 switches it off. The filter refutes at the root many boards
    /// that every cheap check passes; its first call costs a pass over the whole board.
    /// In percent.
    pub matching_share: u32,
    /// Once the search has failed this many times, start the LP refutation of the root
    /// (`farkas`) on a thread beside the search, which goes on without waiting for it;
    /// when another LP holds the process's one LP slot, try again after sixteen times as
    /// many failures. `u64::MAX`: never. Boards the search finds easy never start it.
    pub farkas_after_failures: u64,
    /// Try the LP refutation at every stall (for the tests: every node must agree with
    /// brute force).
    pub farkas_every_stall: bool,
    /// Stop (`capped`) after this many nodes: a bound on the work that, unlike a time
    /// limit, gives the same answer on every machine (the generator ranks boards by it).
    pub node_limit: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            small_boards: true,
            small_failure_cap: crate::backend::native::small::search::FAILURE_CAP,
            failure_cache: true,
            path_capacity: true,
            colour_balance: true,
            transport: false,
            quota_ratio_order: true,
            restarts: true,
            walls_draw: WallsDraw::Turns,
            seed: 0x2545_F491_4F6C_DD1D,
            jump_failures: 32,
            walls_after_restarts: 16,
            restart_unit: 256,
            repair_after_restarts: 1,
            repair_opening: 32,
            repair_min_cells: 4096,
            repair_share: 32,
            component_limit: 256,
            cache_words: 1 << 23,
            matching: false,
            matching_depth: usize::MAX,
            matching_region: 256,
            matching_root: true,
            matching_root_min_cells: 200,
            matching_share: 0,
            matching_after_failures: 4096,
            farkas_after_failures: 256,
            farkas_every_stall: false,
            node_limit: u64::MAX,
        }
    }
}

impl SearchOptions {
    /// Whether a board small enough goes to the small-board path first: the path switched
    /// on and every other option at its default (an explicit choice asks for the general
    /// engine). The one rule, for answers and for proofs alike.
    pub fn takes_small_path(&self) -> bool {
        let default = SearchOptions::default();
        SearchOptions {
            small_failure_cap: default.small_failure_cap,
            ..*self
        } == default
    }
}

#[cfg(test)]
mod tests {
    use super::WallsDraw;

    #[test]
    fn turns_give_each_sweep_both_orders() {
        let drawn: Vec<bool> = (0..16).map(|k| WallsDraw::Turns.proportional(k)).collect();
        // Four runs (the four sweeps) drawing, four close, and again.
        assert_eq!(
            &drawn[..8],
            &[true, true, true, true, false, false, false, false]
        );
        assert_eq!(&drawn[..8], &drawn[8..]);
        assert!((0..16).all(|k| WallsDraw::Proportional.proportional(k)));
        assert!((0..16).all(|k| !WallsDraw::Close.proportional(k)));
    }

    /// The small-board rule: the default options and any failure cap take the path; the
    /// path switched off, or any other option changed, asks for the general engine.
    #[test]
    fn the_small_path_is_for_the_default_options_and_any_cap() {
        use super::SearchOptions;
        let default = SearchOptions::default();
        assert!(default.takes_small_path());
        let capped = SearchOptions {
            small_failure_cap: 7,
            ..default
        };
        assert!(capped.takes_small_path());
        for other in [
            SearchOptions {
                small_boards: false,
                ..default
            },
            SearchOptions {
                matching: true,
                ..default
            },
            SearchOptions {
                restarts: false,
                ..default
            },
        ] {
            assert!(!other.takes_small_path(), "{other:?}");
        }
    }
}
