//! Cardinality and pseudo-Boolean encodings into CNF, independent of the puzzle.
//!
//! Literals are DIMACS-style `i32` (variable `v` is `v`, its negation `-v`). Encoders
//! never pick variable numbers: every auxiliary variable comes from the [`VarPool`] the
//! caller owns, so encodings combined in one formula cannot clash. Clauses go to any
//! [`ClauseSink`] (a formula in memory, or a live solver).
//!
//! Every encoding is implemented for at-most-k only; at-least-k over `x` is at-most-(n-k)
//! over `¬x`, and exactly-k is both. Bounds that need no circuit (k = 0, k = n, k > n)
//! become unit clauses, an empty clause, or nothing, before any encoding is asked.
//!
//! # References
//! * C. Sinz, *Towards an optimal CNF encoding of Boolean cardinality constraints*, CP 2005
//!   (sequential counter).
//! * O. Bailleux, Y. Boufkhad, *Efficient CNF encoding of Boolean cardinality
//!   constraints*, CP 2003 (totalizer).
//! * N. Eén, N. Sörensson, *Translating pseudo-Boolean constraints into SAT*, JSAT 2006
//!   (sorting networks of half comparators; BDD-style encodings of linear sums).

mod cardinality;
mod pb;
pub mod size;

pub use cardinality::encode_at_most;
pub use pb::encode_weighted_equal;

/// A DIMACS literal: `v` or `-v` for variable `v >= 1`.
pub type Lit = i32;

/// Hands out fresh variables. The lowering owns one pool; every encoder draws from it.
#[derive(Debug, Clone, Default)]
pub struct VarPool {
    last: u32,
}

impl VarPool {
    /// A pool whose first fresh variable is `used + 1`.
    pub fn starting_after(used: u32) -> VarPool {
        VarPool { last: used }
    }

    pub fn fresh(&mut self) -> Lit {
        self.last += 1;
        self.last as Lit
    }

    /// Every variable handed out so far (the `p cnf` header counts them all).
    pub fn used(&self) -> u32 {
        self.last
    }
}

/// Where clauses go.
pub trait ClauseSink {
    fn add_clause(&mut self, clause: &[Lit]);
}

/// A formula in memory: clauses stored back to back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cnf {
    lits: Vec<Lit>,
    ends: Vec<u32>,
}

impl Cnf {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> + '_ {
        let mut start = 0usize;
        self.ends.iter().map(move |&end| {
            let clause = &self.lits[start..end as usize];
            start = end as usize;
            clause
        })
    }
}

impl ClauseSink for Cnf {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.lits.extend_from_slice(clause);
        self.ends.push(self.lits.len() as u32);
    }
}

/// The cardinality encodings, selectable by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// Binomial: one clause per forbidden subset. No auxiliary variables; only for small
    /// groups (refused beyond [`PAIRWISE_MAX_CLAUSES`] clauses).
    Pairwise,
    /// Sinz's sequential counter: n·k auxiliary variables, about 2nk clauses.
    Sequential,
    /// Bailleux–Boufkhad totalizer, outputs cut at k+1: O(n log n) variables.
    Totalizer,
    /// Batcher's odd–even merge sorting network of half comparators (Eén–Sörensson):
    /// O(n log² n) variables and clauses.
    SortingNetwork,
}

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Pairwise => "pairwise",
            Encoding::Sequential => "sequential",
            Encoding::Totalizer => "totalizer",
            Encoding::SortingNetwork => "sorting-network",
        }
    }

    pub const ALL: [Encoding; 4] = [
        Encoding::Pairwise,
        Encoding::Sequential,
        Encoding::Totalizer,
        Encoding::SortingNetwork,
    ];
}

from_str_by_name!(Encoding, UnknownEncoding, "encoding");

/// Most clauses the pairwise encoding may write for one constraint.
pub const PAIRWISE_MAX_CLAUSES: u128 = 100_000;

/// A cardinality bound over a list of literals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    AtMost(usize),
    AtLeast(usize),
    Exactly(usize),
}

/// An encoding asked for what it does not support: an error, never a weaker formula.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    #[error(
        "the pairwise encoding of at most {k} of {n} literals needs {clauses} clauses \
         (limit {PAIRWISE_MAX_CLAUSES}); choose another encoding"
    )]
    PairwiseTooLarge { n: usize, k: usize, clauses: u128 },
    #[error(
        "the weighted sum needs {states} counter states (limit {limit}); the board is too large for the raw form"
    )]
    WeightedTooLarge { states: u128, limit: u128 },
}

/// Writes `bound` over `lits` with `encoding`.
///
/// # Errors
/// The encoding cannot express the bound within its limits.
pub fn encode(
    encoding: Encoding,
    lits: &[Lit],
    bound: Bound,
    pool: &mut VarPool,
    sink: &mut dyn ClauseSink,
) -> Result<(), EncodeError> {
    let n = lits.len();
    let (at_most, at_least) = match bound {
        Bound::AtMost(k) => (Some(k), None),
        Bound::AtLeast(k) => (None, Some(k)),
        Bound::Exactly(k) => (Some(k), Some(k)),
    };
    if at_least.is_some_and(|k| k > n) {
        sink.add_clause(&[]);
        return Ok(());
    }
    if let Some(k) = at_most {
        at_most_k(encoding, lits, k, pool, sink)?;
    }
    if let Some(k) = at_least {
        let negated: Vec<Lit> = lits.iter().map(|&l| -l).collect();
        at_most_k(encoding, &negated, n - k, pool, sink)?;
    }
    Ok(())
}

/// At most `k` of `lits`, with the trivial bounds written directly.
fn at_most_k(
    encoding: Encoding,
    lits: &[Lit],
    k: usize,
    pool: &mut VarPool,
    sink: &mut dyn ClauseSink,
) -> Result<(), EncodeError> {
    if k >= lits.len() {
        return Ok(());
    }
    if k == 0 {
        for &l in lits {
            sink.add_clause(&[-l]);
        }
        return Ok(());
    }
    encode_at_most(encoding, lits, k, pool, sink)
}
