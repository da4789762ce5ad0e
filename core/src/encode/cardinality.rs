//! At-most-k circuits. Callers ([`super::encode`]) have already removed the trivial
//! bounds: here `1 <= k < lits.len()`.

use super::{ClauseSink, EncodeError, Encoding, Lit, PAIRWISE_MAX_CLAUSES, VarPool};

/// At most `k` of `lits` with the chosen encoding (`1 <= k < lits.len()`).
///
/// # Errors
/// The pairwise encoding would be too large.
pub fn encode_at_most(
    encoding: Encoding,
    lits: &[Lit],
    k: usize,
    pool: &mut VarPool,
    sink: &mut dyn ClauseSink,
) -> Result<(), EncodeError> {
    match encoding {
        Encoding::Pairwise => pairwise(lits, k, sink),
        Encoding::Sequential => {
            sequential(lits, k, pool, sink);
            Ok(())
        }
        Encoding::Totalizer => {
            totalizer(lits, k, pool, sink);
            Ok(())
        }
        Encoding::SortingNetwork => {
            sorting_network(lits, k, pool, sink);
            Ok(())
        }
    }
}

pub(super) fn binomial(n: usize, k: usize) -> u128 {
    let k = k.min(n - k.min(n));
    (0..k).fold(1u128, |acc, i| {
        acc.saturating_mul((n - i) as u128) / (i as u128 + 1)
    })
}

/// One clause `¬a ∨ ¬b ∨ …` for every subset of k+1 literals.
fn pairwise(lits: &[Lit], k: usize, sink: &mut dyn ClauseSink) -> Result<(), EncodeError> {
    let n = lits.len();
    let clauses = binomial(n, k + 1);
    if clauses > PAIRWISE_MAX_CLAUSES {
        return Err(EncodeError::PairwiseTooLarge { n, k, clauses });
    }
    // Walk the (k+1)-subsets in lexicographic order of positions.
    let size = k + 1;
    let mut pick: Vec<usize> = (0..size).collect();
    let mut clause = vec![0; size];
    loop {
        for (slot, &i) in clause.iter_mut().zip(&pick) {
            *slot = -lits[i];
        }
        sink.add_clause(&clause);
        // Advance to the next subset.
        let mut t = size;
        loop {
            if t == 0 {
                return Ok(());
            }
            t -= 1;
            if pick[t] < n - size + t {
                pick[t] += 1;
                for u in t + 1..size {
                    pick[u] = pick[u - 1] + 1;
                }
                break;
            }
        }
    }
}

/// Sinz's sequential counter: `s[i][j]` is implied by "at least j+1 of the first i+1
/// literals are true"; the (k+1)-th true literal is forbidden.
fn sequential(lits: &[Lit], k: usize, pool: &mut VarPool, sink: &mut dyn ClauseSink) {
    let n = lits.len();
    let s: Vec<Vec<Lit>> = (0..n - 1)
        .map(|_| (0..k).map(|_| pool.fresh()).collect())
        .collect();
    sink.add_clause(&[-lits[0], s[0][0]]);
    for j in 1..k {
        sink.add_clause(&[-s[0][j]]);
    }
    for i in 1..n - 1 {
        sink.add_clause(&[-lits[i], s[i][0]]);
        sink.add_clause(&[-s[i - 1][0], s[i][0]]);
        for j in 1..k {
            sink.add_clause(&[-lits[i], -s[i - 1][j - 1], s[i][j]]);
            sink.add_clause(&[-s[i - 1][j], s[i][j]]);
        }
        sink.add_clause(&[-lits[i], -s[i - 1][k - 1]]);
    }
    sink.add_clause(&[-lits[n - 1], -s[n - 2][k - 1]]);
}

/// The totalizer: a binary tree whose nodes count their leaves in unary, each count
/// cut at k+1; the root's (k+1)-th output is forbidden.
fn totalizer(lits: &[Lit], k: usize, pool: &mut VarPool, sink: &mut dyn ClauseSink) {
    let root = count_unary(lits, k + 1, pool, sink);
    if let Some(&over) = root.get(k) {
        sink.add_clause(&[-over]);
    }
}

/// Unary outputs `o[j]` implied by "at least j+1 inputs true", for j < cap.
fn count_unary(
    lits: &[Lit],
    cap: usize,
    pool: &mut VarPool,
    sink: &mut dyn ClauseSink,
) -> Vec<Lit> {
    if lits.len() == 1 {
        return vec![lits[0]];
    }
    let (left, right) = lits.split_at(lits.len() / 2);
    let a = count_unary(left, cap, pool, sink);
    let b = count_unary(right, cap, pool, sink);
    let width = (a.len() + b.len()).min(cap);
    let out: Vec<Lit> = (0..width).map(|_| pool.fresh()).collect();
    // a_i ∧ b_j → o_{i+j}, with a_0 = b_0 = true and counts from 1.
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            let total = i + j;
            if total == 0 {
                continue;
            }
            let target = out[total.min(width) - 1];
            let mut clause = Vec::with_capacity(3);
            if i > 0 {
                clause.push(-a[i - 1]);
            }
            if j > 0 {
                clause.push(-b[j - 1]);
            }
            clause.push(target);
            sink.add_clause(&clause);
        }
    }
    out
}

/// A wire of the sorting network: a literal, or the constant false used for padding.
type Wire = Option<Lit>;

/// Batcher's odd–even merge sort of half comparators: output `i` is implied by "at
/// least i+1 inputs true". The (k+1)-th output is forbidden.
fn sorting_network(lits: &[Lit], k: usize, pool: &mut VarPool, sink: &mut dyn ClauseSink) {
    let size = lits.len().next_power_of_two();
    let mut wires: Vec<Wire> = lits.iter().map(|&l| Some(l)).collect();
    wires.resize(size, None);
    sort(&mut wires, pool, sink);
    if let Some(Some(over)) = wires.get(k) {
        sink.add_clause(&[-*over]);
    }
}

/// Sorts `wires` (a power of two long) in decreasing order: Batcher's odd–even merge
/// sort, in the classic index form.
fn sort(wires: &mut [Wire], pool: &mut VarPool, sink: &mut dyn ClauseSink) {
    sort_range(wires, 0, wires.len(), pool, sink);
}

fn sort_range(
    wires: &mut [Wire],
    lo: usize,
    n: usize,
    pool: &mut VarPool,
    sink: &mut dyn ClauseSink,
) {
    if n > 1 {
        let m = n / 2;
        sort_range(wires, lo, m, pool, sink);
        sort_range(wires, lo + m, m, pool, sink);
        merge(wires, lo, n, 1, pool, sink);
    }
}

/// Merges the sorted halves of `wires[lo..lo + n]`, looking at every `r`-th wire.
fn merge(
    wires: &mut [Wire],
    lo: usize,
    n: usize,
    r: usize,
    pool: &mut VarPool,
    sink: &mut dyn ClauseSink,
) {
    let m = r * 2;
    if m < n {
        merge(wires, lo, n, m, pool, sink);
        merge(wires, lo + r, n, m, pool, sink);
        let mut i = lo + r;
        while i + r < lo + n {
            compare(wires, i, i + r, pool, sink);
            i += m;
        }
    } else {
        compare(wires, lo, lo + r, pool, sink);
    }
}

/// A half comparator: wire `i` becomes the maximum (OR), wire `j` the minimum (AND),
/// with only the clauses that push truth upward (enough for at-most bounds).
fn compare(wires: &mut [Wire], i: usize, j: usize, pool: &mut VarPool, sink: &mut dyn ClauseSink) {
    if j >= wires.len() {
        return;
    }
    match (wires[i], wires[j]) {
        (None, b) => {
            wires[i] = b;
            wires[j] = None;
        }
        (_, None) => {}
        (Some(a), Some(b)) => {
            let high = pool.fresh();
            let low = pool.fresh();
            sink.add_clause(&[-a, high]);
            sink.add_clause(&[-b, high]);
            sink.add_clause(&[-a, -b, low]);
            wires[i] = Some(high);
            wires[j] = Some(low);
        }
    }
}
