//! Slices of a campaign, so that a batch scheduler can spread a race over machines.

use crate::puzzle::Instance;

/// A slice of a campaign: shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 1 to `count`.
    pub index: usize,
    /// Shards in the whole campaign.
    pub count: usize,
}

impl Shard {
    /// Parses `i/n` with 1 <= i <= n.
    ///
    /// # Errors
    /// Anything else, with a message saying what was expected.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not a shard: expected i/n with 1 <= i <= n, e.g. 2/8");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Keeps this shard's instances: the k-th instance of the whole campaign (all
    /// workloads in order) belongs to shard `k mod n + 1`, so shards are balanced across
    /// workloads and together cover every instance exactly once.
    pub fn select(&self, workloads: Vec<(String, Vec<Instance>)>) -> Vec<(String, Vec<Instance>)> {
        let mut k = 0usize;
        workloads
            .into_iter()
            .map(|(file, instances)| {
                let kept = instances
                    .into_iter()
                    .filter(|_| {
                        let mine = k % self.count == self.index - 1;
                        k += 1;
                        mine
                    })
                    .collect();
                (file, kept)
            })
            .collect()
    }
}
