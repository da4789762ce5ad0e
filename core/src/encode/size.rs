//! The size of an encoding, computed from the shape of the constraint alone, before any
//! clause is written: a board whose formula would not fit in memory is refused in
//! microseconds instead of after minutes of lowering (or by the kernel).
//!
//! Pairwise, sequential and totalizer sizes are exact; the sorting network and the
//! weighted diagram are upper bounds (padding wires and dead diagram nodes cost nothing
//! in the real encoding). Tests compare each with the real encoder.

use std::collections::HashMap;

use super::{Bound, Encoding};

/// Variables, clauses and literals a formula or a part of it takes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Size {
    /// Variables: the auxiliary ones of one constraint; for a whole formula, the
    /// placements too.
    pub vars: u64,
    /// Clauses, the empty clause included.
    pub clauses: u64,
    /// Literal occurrences over all the clauses.
    pub lits: u64,
}

impl Size {
    /// Bytes the clauses take in a [`super::Cnf`]: a literal and a clause end each 4 bytes.
    pub fn cnf_bytes(&self) -> u64 {
        self.lits.saturating_add(self.clauses).saturating_mul(4)
    }
}

impl std::ops::AddAssign for Size {
    fn add_assign(&mut self, other: Size) {
        self.vars = self.vars.saturating_add(other.vars);
        self.clauses = self.clauses.saturating_add(other.clauses);
        self.lits = self.lits.saturating_add(other.lits);
    }
}

/// The size of [`super::encode`] of `bound` over `n` literals.
pub fn estimate(encoding: Encoding, n: usize, bound: Bound) -> Size {
    let (at_most, at_least) = match bound {
        Bound::AtMost(k) => (Some(k), None),
        Bound::AtLeast(k) => (None, Some(k)),
        Bound::Exactly(k) => (Some(k), Some(k)),
    };
    if at_least.is_some_and(|k| k > n) {
        return Size {
            vars: 0,
            clauses: 1,
            lits: 0,
        };
    }
    let mut size = Size::default();
    if let Some(k) = at_most {
        size += at_most_k(encoding, n, k);
    }
    if let Some(k) = at_least {
        size += at_most_k(encoding, n, n - k);
    }
    size
}

fn at_most_k(encoding: Encoding, n: usize, k: usize) -> Size {
    if k >= n {
        return Size::default();
    }
    if k == 0 {
        return Size {
            vars: 0,
            clauses: n as u64,
            lits: n as u64,
        };
    }
    match encoding {
        Encoding::Pairwise => {
            let clauses = u64::try_from(super::cardinality::binomial(n, k + 1)).unwrap_or(u64::MAX);
            Size {
                vars: 0,
                clauses,
                lits: clauses.saturating_mul(k as u64 + 1),
            }
        }
        Encoding::Sequential => sequential(n as u64, k as u64),
        Encoding::Totalizer => totalizer(n, k),
        Encoding::SortingNetwork => sorting_network(n),
    }
}

/// Sinz's counter as `cardinality::sequential` writes it (n ≥ 2, 1 ≤ k < n).
fn sequential(n: u64, k: u64) -> Size {
    Size {
        vars: (n - 1) * k,
        // first row: 1 + (k − 1); each middle row: 2 + 2(k − 1) + 1; last: 1.
        clauses: k + (n - 2) * (2 * k + 1) + 1,
        lits: 2 + (k - 1) + (n - 2) * (2 + 2 + 5 * (k - 1) + 2) + 2,
    }
}

/// The totalizer tree as `cardinality::totalizer` builds it: each inner node merges two
/// unary counters of widths a and b into min(a + b, k + 1) outputs with one clause per
/// pair (i, j) ≠ (0, 0), of 3 literals when both are positive and 2 otherwise.
fn totalizer(n: usize, k: usize) -> Size {
    fn node(len: usize, cap: usize, memo: &mut HashMap<usize, (usize, Size)>) -> (usize, Size) {
        if len == 1 {
            return (1, Size::default());
        }
        if let Some(&known) = memo.get(&len) {
            return known;
        }
        let (a, left) = node(len / 2, cap, memo);
        let (b, right) = node(len - len / 2, cap, memo);
        let width = (a + b).min(cap);
        let (a64, b64) = (a as u64, b as u64);
        let mut size = left;
        size += right;
        size += Size {
            vars: width as u64,
            clauses: (a64 + 1) * (b64 + 1) - 1,
            lits: 3 * a64 * b64 + 2 * a64 + 2 * b64,
        };
        memo.insert(len, (width, size));
        (width, size)
    }
    let (width, mut size) = node(n, k + 1, &mut HashMap::new());
    if width > k {
        size += Size {
            vars: 0,
            clauses: 1,
            lits: 1,
        };
    }
    size
}

/// Batcher's odd–even merge sort on the next power of two: an upper bound, since
/// comparators that meet a padding wire cost nothing.
fn sorting_network(n: usize) -> Size {
    let p = n.next_power_of_two() as u64;
    let m = u64::from(p.trailing_zeros());
    let comparators = ((m * m - m + 4) * p / 4).saturating_sub(1);
    Size {
        vars: 2 * comparators,
        clauses: 3 * comparators + 1,
        lits: 7 * comparators + 1,
    }
}

/// An upper bound on [`super::encode_weighted_equal`] over `terms` weights with `target`:
/// one variable and at most four clauses of three literals per diagram node.
pub fn estimate_weighted(terms: usize, target: u64, total: u64) -> Size {
    if target > total {
        // `encode_weighted_equal` writes the empty clause and nothing else.
        return Size {
            vars: 0,
            clauses: 1,
            lits: 0,
        };
    }
    let states = (terms as u64).saturating_mul(target.saturating_add(1));
    Size {
        vars: states,
        clauses: states.saturating_mul(4).saturating_add(1),
        lits: states.saturating_mul(12).saturating_add(1),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ClauseSink, Lit, VarPool, encode, encode_weighted_equal};
    use super::*;

    #[derive(Default)]
    struct Tally(Size);

    impl ClauseSink for Tally {
        fn add_clause(&mut self, clause: &[Lit]) {
            self.0.clauses += 1;
            self.0.lits += clause.len() as u64;
        }
    }

    fn measure(encoding: Encoding, n: usize, bound: Bound) -> Size {
        let lits: Vec<Lit> = (1..=n as Lit).collect();
        let mut pool = VarPool::starting_after(n as u32);
        let mut tally = Tally::default();
        encode(encoding, &lits, bound, &mut pool, &mut tally).unwrap();
        tally.0.vars = u64::from(pool.used()) - n as u64;
        tally.0
    }

    #[test]
    fn exact_for_pairwise_sequential_and_totalizer() {
        for encoding in [
            Encoding::Pairwise,
            Encoding::Sequential,
            Encoding::Totalizer,
        ] {
            for n in 1..=13 {
                for k in 0..=n + 1 {
                    for bound in [Bound::AtMost(k), Bound::AtLeast(k), Bound::Exactly(k)] {
                        assert_eq!(
                            estimate(encoding, n, bound),
                            measure(encoding, n, bound),
                            "{encoding:?} n={n} {bound:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn bounds_for_sorting_networks_and_weighted_sums() {
        for n in 1..=40 {
            for k in 0..=n {
                let bound = Bound::Exactly(k);
                let real = measure(Encoding::SortingNetwork, n, bound);
                let est = estimate(Encoding::SortingNetwork, n, bound);
                assert!(
                    est.vars >= real.vars && est.clauses >= real.clauses && est.lits >= real.lits,
                    "n={n} k={k}: {est:?} < {real:?}"
                );
            }
        }
        for weights in [vec![1u32, 2, 1, 2, 2], vec![2; 9], vec![1; 12]] {
            let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
            for target in 0..=total {
                let terms: Vec<(u32, Lit)> = weights
                    .iter()
                    .enumerate()
                    .map(|(i, &w)| (w, i as Lit + 1))
                    .collect();
                let mut pool = VarPool::starting_after(terms.len() as u32);
                let mut tally = Tally::default();
                encode_weighted_equal(&terms, target, &mut pool, &mut tally).unwrap();
                let est = estimate_weighted(terms.len(), target, total);
                assert!(est.clauses >= tally.0.clauses && est.lits >= tally.0.lits);
                assert!(est.vars >= u64::from(pool.used()) - terms.len() as u64);
            }
        }
    }
}
