//! What the native search tells a proof logger as it reasons (`--certify`).
//!
//! Propagation is unit propagation over the cover and quota constraints: a checker
//! redoes it by itself, so a dead end needs only its decisions (a nogood the checker
//! confirms by reverse unit propagation). Every other inference is a counting argument,
//! stated as the sum of constraints that gives it: a component of the candidate graph
//! with more cells of one colour (cover constraints summed), a Hall set of the matching
//! filter (likewise), a line whose quota exceeds its room (cover constraints of its
//! runs, halved, against its quota), and the LP's Farkas multipliers. Each is a
//! constraint true of every tiling, so the checker keeps it and unit propagation uses
//! it below the node where it was found. The logger turns them into the checker's
//! syntax; the search only names cells, groups and placements.
//!
//! Reasoning the logger could not justify is switched off while it logs (the transport
//! check): [`super::SearchOptions::for_proof`]. The failure cache stays, counting a hit only
//! where the decisions of the cached refutation are all committed at the node, so that
//! unit propagation reaches the refutation's nogood.

/// One run of a line's capacity argument: consecutive cells of the line and the live
/// members of the line's group that lie on them (each covers two of them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Run {
    /// The cells, as the model's cover indices.
    pub cells: Vec<u32>,
    /// The group's live members on those cells.
    pub members: Vec<u32>,
}

/// Where the search's reasoning goes while a proof is logged.
pub trait Justify {
    /// A component of the candidate graph (uncovered cells joined by live candidates)
    /// with more cells of one colour, `more`, than of the other, `fewer`: their cover
    /// constraints, `≥ 1` for `more` and `≤ 1` for `fewer`, summed, leave only the
    /// placements out of the component, which are out, against a positive degree.
    fn colour_imbalance(&mut self, more: &[u32], fewer: &[u32]);

    /// A Hall set of the matching filter: cells of one colour, `set`, and all their
    /// neighbours along live candidates, `neighbours`, no more of them than cells in the
    /// set; summed as for [`Justify::colour_imbalance`]. Fewer neighbours: the node has
    /// no tiling; as many: no piece joins a neighbour to a cell outside the set.
    fn hall_set(&mut self, set: &[u32], neighbours: &[u32]);

    /// Group `group` (a line of the model) holds at most `⌊r/2⌋` of its live members on
    /// each run of `r` cells, fewer than its quota still needs.
    fn capacity(&mut self, group: u32, runs: &[Run]);

    /// The LP's Farkas certificate for a node: a multiplier per uncovered cell and per
    /// quota group; the node, with what propagation fixed there, has no fractional
    /// solution. `root`: the node is the root, and the refutation ends the proof (what
    /// the search logged since [`Justify::root_settled`] is no longer needed).
    fn farkas(&mut self, cells: &[(u32, i64)], groups: &[(u32, i64)], root: bool);

    /// The root is settled (propagated, and filtered by the matching filter where it
    /// runs there): what follows is the search below it.
    fn root_settled(&mut self) {}

    /// No tiling (but the one the proof rules out, if any) lies below these decisions:
    /// placements committed on the path from the root, each by branching. Empty at the
    /// root: the board has none. A tiling the search reaches is a dead end too: the
    /// proof's formula rules out the one tiling it may have, and the caller's sink
    /// refuses any other.
    fn dead_end(&mut self, decisions: &[u32]);
}

/// Farkas multipliers: `(cell or group, multiplier)`, the zero ones left out.
pub type Multipliers = Vec<(u32, i64)>;

/// How a search tells its reasoning, chosen once, by type, when the search is built: a
/// search is generic over its trace, so no check asks whether a proof is being logged.
/// [`Unlogged`] is zero-sized and does nothing, and the closures that would build a
/// reason are never run. [`Logged`] builds each reason and hands it to a [`Justify`].
/// The failure cache keeps what the trace needs of a cached refutation
/// ([`Trace::Nogood`]): nothing unlogged; logged, the decisions of its nogood.
pub trait Trace {
    /// What a cached failure keeps for the proof: see [`Trace::reaches`].
    type Nogood;

    /// What to keep of a failure proved below `decisions`.
    fn nogood(&self, decisions: impl FnOnce() -> Vec<u32>) -> Self::Nogood;

    /// Whether a cached failure may count at a node whose committed placements are
    /// `chosen`: always unlogged; logged, only when the failure's decisions are all
    /// among them, so that unit propagation from the current decisions reaches its
    /// nogood.
    fn reaches(nogood: &Self::Nogood, chosen: &[u32]) -> bool;

    /// The cache room a kept nogood takes, in 64-bit words.
    fn words(nogood: &Self::Nogood) -> usize;

    /// See [`Justify::dead_end`].
    fn dead_end(&mut self, decisions: impl FnOnce() -> Vec<u32>);

    /// See [`Justify::colour_imbalance`]: the reason gives `(more, fewer)`.
    fn colour_imbalance(&mut self, reason: impl FnOnce() -> (Vec<u32>, Vec<u32>));

    /// See [`Justify::hall_set`]: each reason is a `(set, neighbours)` pair.
    fn hall_sets(&mut self, reason: impl FnOnce() -> Vec<(Vec<u32>, Vec<u32>)>);

    /// See [`Justify::capacity`].
    fn capacity(&mut self, group: u32, runs: impl FnOnce() -> Vec<Run>);

    /// See [`Justify::farkas`]: the reason gives the cells' and the groups' multipliers.
    fn farkas(&mut self, root: bool, reason: impl FnOnce() -> (Multipliers, Multipliers));

    /// See [`Justify::root_settled`].
    fn root_settled(&mut self);
}

/// No proof is logged.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unlogged;

impl Trace for Unlogged {
    type Nogood = ();

    #[inline(always)]
    fn nogood(&self, _: impl FnOnce() -> Vec<u32>) {}

    #[inline(always)]
    fn reaches(_: &(), _: &[u32]) -> bool {
        true
    }

    #[inline(always)]
    fn words(_: &()) -> usize {
        0
    }

    #[inline(always)]
    fn dead_end(&mut self, _: impl FnOnce() -> Vec<u32>) {}

    #[inline(always)]
    fn colour_imbalance(&mut self, _: impl FnOnce() -> (Vec<u32>, Vec<u32>)) {}

    #[inline(always)]
    fn hall_sets(&mut self, _: impl FnOnce() -> Vec<(Vec<u32>, Vec<u32>)>) {}

    #[inline(always)]
    fn capacity(&mut self, _: u32, _: impl FnOnce() -> Vec<Run>) {}

    #[inline(always)]
    fn farkas(&mut self, _: bool, _: impl FnOnce() -> (Multipliers, Multipliers)) {}

    #[inline(always)]
    fn root_settled(&mut self) {}
}

/// A proof is logged to the [`Justify`] held.
pub struct Logged<'j>(pub &'j mut dyn Justify);

impl Trace for Logged<'_> {
    type Nogood = Box<[u32]>;

    fn nogood(&self, decisions: impl FnOnce() -> Vec<u32>) -> Box<[u32]> {
        decisions().into_boxed_slice()
    }

    fn reaches(nogood: &Box<[u32]>, chosen: &[u32]) -> bool {
        let chosen: rustc_hash::FxHashSet<u32> = chosen.iter().copied().collect();
        nogood.iter().all(|d| chosen.contains(d))
    }

    fn words(nogood: &Box<[u32]>) -> usize {
        nogood.len().div_ceil(2)
    }

    fn dead_end(&mut self, decisions: impl FnOnce() -> Vec<u32>) {
        self.0.dead_end(&decisions());
    }

    fn colour_imbalance(&mut self, reason: impl FnOnce() -> (Vec<u32>, Vec<u32>)) {
        let (more, fewer) = reason();
        self.0.colour_imbalance(&more, &fewer);
    }

    fn hall_sets(&mut self, reason: impl FnOnce() -> Vec<(Vec<u32>, Vec<u32>)>) {
        for (set, neighbours) in reason() {
            self.0.hall_set(&set, &neighbours);
        }
    }

    fn capacity(&mut self, group: u32, runs: impl FnOnce() -> Vec<Run>) {
        self.0.capacity(group, &runs());
    }

    fn farkas(&mut self, root: bool, reason: impl FnOnce() -> (Multipliers, Multipliers)) {
        let (cells, groups) = reason();
        self.0.farkas(&cells, &groups, root);
    }

    fn root_settled(&mut self) {
        self.0.root_settled();
    }
}
