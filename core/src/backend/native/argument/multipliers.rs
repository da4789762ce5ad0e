//! The LP's multipliers (Farkas' lemma): a multiplier per uncovered cell and per quota
//! group such that what the constraints, weighted, ask for is more than any choice of
//! pieces in the box `0 ≤ x ≤ 1` can reach, so that the node has no fractional solution,
//! let alone a tiling. Its detection is the LP (`farkas.rs`: Clarabel's multipliers,
//! scaled to integers and checked in exact arithmetic), run beside the search on a
//! thread of its own. No walkthrough makes it, so it has no words.
//!
//! Justification ([`recipe`]): each uncovered cell's cover constraint and each group's
//! quota constraint times its multiplier, the `≥` half for a positive one and the `≤`
//! half for a negative one, summed. A piece the box lets reach more than the sum's
//! degree has a positive coefficient and is no candidate, so what is left cannot reach
//! it.

use crate::backend::native::recipe::{Axiom, Kind, Recipe};

/// The recipe of integer multipliers `pi` (one per cell) and `mu` (one per quota group)
/// at a node whose covered cells are `covered` (their multipliers count for nothing
/// there); `root`: the node is the root.
pub fn recipe(pi: &[i64], mu: &[i64], covered: &[bool], root: bool) -> Recipe {
    let half = |m: i64, at_least: Axiom, at_most: Axiom| {
        (if m > 0 { at_least } else { at_most }, m.unsigned_abs())
    };
    let cells = (pi.iter().enumerate())
        .filter(|&(c, &m)| m != 0 && !covered[c])
        .map(|(c, &m)| {
            let c = c as u32;
            half(m, Axiom::CoverAtLeast(c), Axiom::CoverAtMost(c))
        });
    let groups = (mu.iter().enumerate())
        .filter(|&(_, &m)| m != 0)
        .map(|(g, &m)| {
            let g = g as u32;
            half(m, Axiom::QuotaAtLeast(g), Axiom::QuotaAtMost(g))
        });
    Recipe::weighted(Kind::Farkas { root }, cells.chain(groups))
}
