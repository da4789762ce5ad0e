//! The cache of subproblems proved empty, keyed by (covered cells, residual quotas):
//! at a fixed point that pair identifies the subproblem, whatever path led to it, and no
//! sweep or restart changes it. Each entry keeps what the trace needs of its refutation
//! ([`Trace::Nogood`]: nothing, or the decisions it was proved under), and a hit counts
//! only where the trace lets it ([`Trace::reaches`]).

use rustc_hash::FxHashMap;

use crate::backend::native::proof::Trace;

/// The failure cache, within a bound of 64-bit words (cleared whole when full).
pub(super) struct FailureCache<T: Trace> {
    entries: FxHashMap<Box<[u64]>, T::Nogood>,
    words: usize,
    bound: usize,
}

impl<T: Trace> FailureCache<T> {
    pub(super) fn new(bound: usize) -> FailureCache<T> {
        FailureCache {
            entries: FxHashMap::default(),
            words: 0,
            bound,
        }
    }

    /// The key of a node: its covered cells (as bits) and its residual quotas, two to
    /// a word.
    pub(super) fn key(covered_bits: &[u64], quota: &[i32]) -> Box<[u64]> {
        let mut key = Vec::with_capacity(covered_bits.len() + quota.len().div_ceil(2));
        key.extend_from_slice(covered_bits);
        for pair in quota.chunks(2) {
            let lo = pair[0] as u32 as u64;
            let hi = pair.get(1).map_or(0, |&q| q as u32 as u64);
            key.push(lo | hi << 32);
        }
        key.into_boxed_slice()
    }

    /// Whether the node of `key`, with `chosen` committed, was proved empty before.
    pub(super) fn hit(&self, key: &[u64], chosen: &[u32]) -> bool {
        self.entries
            .get(key)
            .is_some_and(|nogood| T::reaches(nogood, chosen))
    }

    /// Remembers that the node of `key` has no tiling; `nogood` is what the trace keeps.
    pub(super) fn remember(&mut self, key: Box<[u64]>, nogood: T::Nogood) {
        let words = key.len() + T::words(&nogood);
        if self.words + words > self.bound {
            self.entries.clear();
            self.words = 0;
        }
        self.words += words;
        self.entries.insert(key, nogood);
    }
}
