//! The tiling's counts across the cuts against the quotas clue inversion gives, kept as
//! pieces come and go: by Zhao's Corollary 3.2 a tiling with `u*_i` vertical pieces
//! across every row cut and `t*_j` horizontal pieces across every column cut meets every
//! clue, so these counts are all the repair has to fix.

use super::tiling::Cut;

/// The counts, their targets, and the cuts whose count is off, as a set that can be
/// drawn from.
#[derive(Debug, Clone)]
pub(super) struct Counts {
    /// Vertical pieces across row cut `i`, then horizontal pieces across column cut `j`
    /// (at `rows + j`).
    count: Vec<i64>,
    target: Vec<i64>,
    rows: usize,
    /// The cuts whose count is off, in no order; `slot[k]` is cut `k`'s place in it.
    off: Vec<u32>,
    slot: Vec<u32>,
    /// `Σ |count - target|` over the cuts.
    pub deviation: i64,
}

const ABSENT: u32 = u32::MAX;

impl Counts {
    /// Targets `u` (row cuts) and `t` (column cuts); every count zero.
    pub fn new(u: &[i64], t: &[i64]) -> Counts {
        let target: Vec<i64> = u.iter().chain(t).copied().collect();
        let n = target.len();
        let mut counts = Counts {
            count: vec![0; n],
            target,
            rows: u.len(),
            off: Vec::new(),
            slot: vec![ABSENT; n],
            deviation: 0,
        };
        for k in 0..n {
            counts.deviation += counts.target[k].abs();
            counts.settle(k);
        }
        counts
    }

    fn index(&self, cut: Cut) -> usize {
        match cut {
            Cut::Row(i) => i,
            Cut::Col(j) => self.rows + j,
        }
    }

    /// The cut at index `k`.
    pub fn cut(&self, k: usize) -> Cut {
        if k < self.rows {
            Cut::Row(k)
        } else {
            Cut::Col(k - self.rows)
        }
    }

    /// One more (`by = 1`) or one fewer (`-1`) piece across `cut`.
    pub fn add(&mut self, cut: Cut, by: i64) {
        let k = self.index(cut);
        let before = (self.count[k] - self.target[k]).abs();
        self.count[k] += by;
        self.deviation += (self.count[k] - self.target[k]).abs() - before;
        self.settle(k);
    }

    /// Keeps cut `k`'s membership of the off set.
    fn settle(&mut self, k: usize) {
        let off = self.count[k] != self.target[k];
        let here = self.slot[k] != ABSENT;
        if off && !here {
            self.slot[k] = self.off.len() as u32;
            self.off.push(k as u32);
        } else if !off && here {
            let at = self.slot[k] as usize;
            let last = self.off.pop().unwrap_or(k as u32);
            if last as usize != k {
                self.off[at] = last;
                self.slot[last as usize] = at as u32;
            }
            self.slot[k] = ABSENT;
        }
    }

    /// The cuts whose count is off, in no particular order.
    pub fn off(&self) -> &[u32] {
        &self.off
    }

    /// How many pieces cut `k` needs beyond those across it (negative: too many).
    pub fn wanted(&self, k: usize) -> i64 {
        self.target[k] - self.count[k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deviation and the off set kept by `add` are those counted from scratch.
    #[test]
    fn counts_kept_agree_with_counts_from_scratch() {
        let mut c = Counts::new(&[2, 0, 1], &[1, 1]);
        let moves = [
            (Cut::Row(0), 1),
            (Cut::Col(1), 1),
            (Cut::Row(0), 1),
            (Cut::Row(1), 1),
            (Cut::Row(0), -1),
            (Cut::Row(2), 1),
            (Cut::Col(0), 1),
            (Cut::Row(1), -1),
        ];
        for (cut, by) in moves {
            c.add(cut, by);
            let scratch: i64 = (0..c.count.len())
                .map(|k| (c.count[k] - c.target[k]).abs())
                .sum();
            assert_eq!(c.deviation, scratch);
            let mut off: Vec<u32> = c.off().to_vec();
            off.sort_unstable();
            let expected: Vec<u32> = (0..c.count.len() as u32)
                .filter(|&k| c.count[k as usize] != c.target[k as usize])
                .collect();
            assert_eq!(off, expected);
        }
        assert_eq!(c.deviation, 1);
        assert_eq!(c.off(), &[0]);
    }
}
