//! Value order at a branching cell, its perturbation after restarts, and the Luby
//! restart schedule.

use super::state::Search;

/// After a restart, one branching decision in this many takes the second-best value.
pub(super) const PERTURB_ONE_IN: u64 = 8;

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

impl<'a> Search<'a> {
    /// Value order at a branching cell. With `quota_ratio_order`, candidates whose
    /// groups still need a larger share of their candidates go first: on planted boards
    /// that is what keeps column quotas reachable as the search moves down. After a
    /// restart the order of two candidates is swapped now and then, so that the runs
    /// explore different parts of the tree. `cands` are the live candidates (at most
    /// four: the placements covering one cell).
    pub(super) fn order_values(&mut self, cands: &mut [u32], perturb: bool) {
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
        if perturb && self.next_random().is_multiple_of(PERTURB_ONE_IN) {
            scored.swap(0, 1);
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

    /// xorshift64: cheap, and seeded by a constant so runs are reproducible.
    pub(super) fn next_random(&mut self) -> u64 {
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        x
    }
}
