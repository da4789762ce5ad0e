//! The cut quotas as a transport problem: forgetting overlaps, the residual quotas of a
//! line family (rows' horizontal pieces, say) and of the cuts across the other way (the
//! horizontal pieces crossing between two columns) must still be met by a choice of open
//! pieces, each a member of one group of each side; a flow too short shows that what is
//! known has no tiling. Its detection is the flow itself (`flow.rs`), run from scratch at
//! every call by `search/transport.rs`, whose minimum cut names the groups below. No
//! walkthrough makes it, so it has no words.
//!
//! Justification ([`recipe`]): the quota constraints `≥` of the groups on one side of
//! the minimum cut (`at_least`) and `≤` of the groups across (`at_most`), summed, cancel
//! every piece that joins two of them; what is left is at most one per open piece from an
//! `at_least` group to an `at_most` group outside the cut, and the degree is what the
//! first need less what the second take, which the cut's capacity (smaller than the flow
//! asked for) shows is more. When the two sides' totals differ, the `≥` of every group of
//! the larger side and the `≤` of every group of the other cancel to `0 ≥` their
//! difference.

use crate::backend::native::recipe::{Axiom, Kind, Recipe};

/// The recipe of a short transport: see the module's justification.
pub fn recipe(at_least: Vec<u32>, at_most: Vec<u32>) -> Recipe {
    Recipe::sum_of(
        Kind::Transport,
        (at_least.into_iter().map(Axiom::QuotaAtLeast))
            .chain(at_most.into_iter().map(Axiom::QuotaAtMost)),
    )
}
