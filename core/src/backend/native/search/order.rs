//! Value order at a branching cell, its perturbation after restarts, and the Luby
//! restart schedule.

use super::state::Search;
use crate::backend::native::proof::Trace;

/// With `Perturbation::Swap`, one branching decision in this many takes the second-best
/// value.
pub(super) const PERTURB_ONE_IN: u64 = 8;

/// How a descent varies the value order from the scores' order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Perturbation {
    /// The best value first, always (the first run: node for node as without restarts).
    None,
    /// The best two swapped one time in `PERTURB_ONE_IN`: close to the scores, for
    /// boards decided within a few restarts.
    Swap,
    /// The first value drawn in proportion to the shares (`SearchOptions::walls_draw`):
    /// where the best share is often not the planted piece.
    Proportional,
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, ...: within a constant factor of the best
/// fixed restart schedule for any unknown run-time distribution.
pub(super) fn luby(mut i: u32) -> u64 {
    // Find the block of size 2^k - 1 containing i.
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < i as u64 {
            k += 1;
        }
        if (1u64 << k) - 1 == i as u64 {
            return 1 << (k - 1);
        }
        i -= ((1u64 << (k - 1)) - 1) as u32;
    }
}

/// An index into `scored` drawn with probability proportional to its share, from 64
/// random bits; the first when no share is positive. Shares are never negative.
fn proportional_pick(scored: &[(f64, u32)], bits: u64) -> usize {
    let total: f64 = scored.iter().map(|s| s.0).sum();
    if total.is_nan() || total <= 0.0 {
        return 0;
    }
    // The top 53 bits: a uniform draw in [0, total).
    let draw = (bits >> 11) as f64 / (1u64 << 53) as f64 * total;
    let mut reach = 0.0;
    for (i, s) in scored.iter().enumerate() {
        reach += s.0;
        if draw < reach {
            return i;
        }
    }
    // Rounding in the sum: the last candidate with a share.
    scored.iter().rposition(|s| s.0 > 0.0).unwrap_or(0)
}

impl<'a, T: Trace> Search<'a, T> {
    /// Value order at a branching cell. With `quota_ratio_order`, candidates whose
    /// groups still need a larger share of their candidates go first: on planted boards
    /// that is what keeps column quotas reachable as the search moves down. After a
    /// restart the order is varied (`Perturbation`), so that the runs explore different
    /// parts of the tree. `cands` are the live candidates (at most
    /// four: the placements covering one cell).
    pub(super) fn order_values(&mut self, cands: &mut [u32], perturb: Perturbation) {
        if !self.options.quota_ratio_order || cands.len() < 2 {
            return;
        }
        let lay = self.lay;
        let mut scored: [(f64, u32); 4] = [(0.0, 0); 4];
        for (k, &p) in cands.iter().enumerate() {
            let share = lay
                .groups_of(p)
                .iter()
                .map(|&g| self.quota[g as usize] as f64 / self.left[g as usize].max(1) as f64)
                .product::<f64>();
            scored[k] = (share, p);
        }
        let scored = &mut scored[..cands.len()];
        // Stable on ties, so the board's own order decides them.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        match perturb {
            Perturbation::None => {}
            Perturbation::Swap => {
                if self.next_random().is_multiple_of(PERTURB_ONE_IN) {
                    scored.swap(0, 1);
                }
            }
            Perturbation::Proportional => {
                let pick = proportional_pick(scored, self.next_random());
                scored.swap(0, pick);
            }
        }
        for (slot, &(_, p)) in cands.iter_mut().zip(scored.iter()) {
            *slot = p;
        }
    }

    /// A uniformly random order of `cands`, for the lines re-explored after a jump
    /// ([`super::jump`]).
    pub(super) fn shuffle(&mut self, cands: &mut [u32]) {
        for i in (1..cands.len()).rev() {
            let j = (self.next_random() % (i as u64 + 1)) as usize;
            cands.swap(i, j);
        }
    }

    /// xorshift64: cheap, and seeded by `SearchOptions::seed` (0, its fixed point, taken
    /// as 1) so runs are reproducible.
    pub(super) fn next_random(&mut self) -> u64 {
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        x
    }
}

#[cfg(test)]
mod tests {
    use super::proportional_pick;

    #[test]
    fn no_positive_share_picks_the_first() {
        assert_eq!(proportional_pick(&[(0.0, 7), (0.0, 8)], u64::MAX), 0);
        assert_eq!(proportional_pick(&[(f64::NAN, 7), (1.0, 8)], 12345), 0);
    }

    #[test]
    fn draws_follow_the_shares() {
        // Shares 3 : 1 : 0 : 0 — the draw's top bits decide: below 3/4 the first, above it
        // the second, never a zero share, not even for the largest draw.
        let scored = [(3.0, 1), (1.0, 2), (0.0, 3), (0.0, 4)];
        assert_eq!(proportional_pick(&scored, 0), 0);
        assert_eq!(
            proportional_pick(&scored, (u64::MAX / 4) * 3 - (1 << 20)),
            0
        );
        assert_eq!(
            proportional_pick(&scored, (u64::MAX / 4) * 3 + (1 << 20)),
            1
        );
        assert_eq!(proportional_pick(&scored, u64::MAX), 1);
        // Over an even grid of draws, the picks' frequencies are the shares.
        let mut hits = [0u32; 4];
        for k in 0..1024u64 {
            hits[proportional_pick(&scored, k << 54)] += 1;
        }
        assert_eq!(hits, [768, 256, 0, 0]);
    }
}
