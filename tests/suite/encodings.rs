//! Each cardinality encoding on its own: for every n <= 8 and every k, the formula has
//! exactly the right number of models projected on its inputs, counted by enumeration
//! with blocking clauses over the inputs only.

use dominofit::encode::{
    self, Bound, Cnf, EncodeError, Encoding, Lit, VarPool, encode_weighted_equal,
};
use varisat::ExtendFormula;

fn binomial(n: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i as u64 + 1))
}

/// Models of `cnf` projected on variables `1..=inputs`, each checked against `holds`.
fn projected_models(cnf: &Cnf, inputs: usize, holds: impl Fn(&[bool]) -> bool) -> u64 {
    let mut solver = varisat::Solver::new();
    for c in cnf.clauses() {
        let clause: Vec<varisat::Lit> = c
            .iter()
            .map(|&l| varisat::Lit::from_dimacs(l as isize))
            .collect();
        solver.add_clause(&clause);
    }
    // Make sure every input exists in the solver even if no clause mentions it.
    for v in 1..=inputs {
        let x = varisat::Lit::from_dimacs(v as isize);
        solver.add_clause(&[x, !x]);
    }
    let mut count = 0;
    while solver.solve().unwrap() {
        let model = solver.model().unwrap();
        let mut values = vec![false; inputs];
        for l in &model {
            if l.var().index() < inputs {
                values[l.var().index()] = l.is_positive();
            }
        }
        assert!(holds(&values), "a model breaks the bound: {values:?}");
        count += 1;
        let blocking: Vec<varisat::Lit> = (0..inputs)
            .map(|i| varisat::Lit::from_index(i, !values[i]))
            .collect();
        solver.add_clause(&blocking);
    }
    count
}

#[test]
fn every_encoding_counts_exactly() {
    let mut checked = 0;
    for encoding in Encoding::ALL {
        for n in 1..=8usize {
            let lits: Vec<Lit> = (1..=n as Lit).collect();
            for k in 0..=n + 1 {
                for bound in [Bound::AtMost(k), Bound::AtLeast(k), Bound::Exactly(k)] {
                    let mut pool = VarPool::starting_after(n as u32);
                    let mut cnf = Cnf::default();
                    encode::encode(encoding, &lits, bound, &mut pool, &mut cnf).unwrap();
                    let expected: u64 = match bound {
                        Bound::AtMost(k) => (0..=k.min(n)).map(|j| binomial(n, j)).sum(),
                        Bound::AtLeast(k) => (k..=n).map(|j| binomial(n, j)).sum(),
                        Bound::Exactly(k) if k <= n => binomial(n, k),
                        Bound::Exactly(_) => 0,
                    };
                    let holds = |v: &[bool]| {
                        let ones = v.iter().filter(|b| **b).count();
                        match bound {
                            Bound::AtMost(k) => ones <= k,
                            Bound::AtLeast(k) => ones >= k,
                            Bound::Exactly(k) => ones == k,
                        }
                    };
                    let got = projected_models(&cnf, n, holds);
                    assert_eq!(got, expected, "{encoding:?} n={n} {bound:?}");
                    // Every variable used comes from the pool: none beyond it.
                    let max_var = cnf
                        .clauses()
                        .flatten()
                        .map(|l| l.unsigned_abs())
                        .max()
                        .unwrap_or(0);
                    assert!(max_var <= pool.used(), "{encoding:?} n={n} {bound:?}");
                    checked += 1;
                }
            }
        }
    }
    println!("{checked} encodings counted");
}

#[test]
fn trivial_bounds_need_no_circuit() {
    for encoding in Encoding::ALL {
        let lits: Vec<Lit> = (1..=6).collect();
        for (bound, clauses) in [
            (Bound::Exactly(0), 6),
            (Bound::Exactly(6), 6),
            (Bound::AtMost(6), 0),
            (Bound::AtLeast(0), 0),
            (Bound::AtLeast(7), 1),
        ] {
            let mut pool = VarPool::starting_after(6);
            let mut cnf = Cnf::default();
            encode::encode(encoding, &lits, bound, &mut pool, &mut cnf).unwrap();
            assert_eq!(
                pool.used(),
                6,
                "{encoding:?} {bound:?}: no auxiliary variables"
            );
            assert_eq!(cnf.len(), clauses, "{encoding:?} {bound:?}");
            assert!(
                cnf.clauses().all(|c| c.len() <= 1),
                "{encoding:?} {bound:?}: units only"
            );
        }
    }
}

#[test]
fn pairwise_refuses_what_it_cannot_write() {
    let lits: Vec<Lit> = (1..=60).collect();
    let mut pool = VarPool::starting_after(60);
    let mut cnf = Cnf::default();
    let err = encode::encode(
        Encoding::Pairwise,
        &lits,
        Bound::Exactly(30),
        &mut pool,
        &mut cnf,
    )
    .unwrap_err();
    assert!(
        matches!(err, EncodeError::PairwiseTooLarge { n: 60, .. }),
        "{err}"
    );
}

#[test]
fn weighted_sums_count_exactly() {
    // Weights 1 and 2, as in the raw clue sums; every target from 0 past the maximum.
    let mut checked = 0;
    for n in 1..=7usize {
        for pattern in 0..1u32 << n {
            if n > 5 && pattern % 7 != 0 {
                continue;
            }
            let weights: Vec<u32> = (0..n).map(|i| 1 + (pattern >> i & 1)).collect();
            let total: u32 = weights.iter().sum();
            let terms: Vec<(u32, Lit)> = weights
                .iter()
                .enumerate()
                .map(|(i, &w)| (w, i as Lit + 1))
                .collect();
            for target in 0..=total as u64 + 1 {
                let mut pool = VarPool::starting_after(n as u32);
                let mut cnf = Cnf::default();
                encode_weighted_equal(&terms, target, &mut pool, &mut cnf).unwrap();
                let expected = (0..1u32 << n)
                    .filter(|m| {
                        (0..n)
                            .filter(|i| m >> i & 1 == 1)
                            .map(|i| weights[i] as u64)
                            .sum::<u64>()
                            == target
                    })
                    .count() as u64;
                let sum_is = |v: &[bool]| {
                    v.iter()
                        .zip(&weights)
                        .filter(|(b, _)| **b)
                        .map(|(_, &w)| w as u64)
                        .sum::<u64>()
                        == target
                };
                assert_eq!(
                    projected_models(&cnf, n, sum_is),
                    expected,
                    "weights {weights:?} target {target}"
                );
                checked += 1;
            }
        }
    }
    println!("{checked} weighted sums counted");
}
