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

    /// A variable never handed out before, as a positive literal.
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
    /// Adds the disjunction of `clause`; the empty clause makes the formula unsatisfiable.
    fn add_clause(&mut self, clause: &[Lit]);
}

/// A formula in memory: clauses stored back to back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cnf {
    lits: Vec<Lit>,
    ends: Vec<u32>,
}

impl Cnf {
    /// An empty formula with room for `clauses` clauses of `lits` literals in all: a
    /// formula of gigabytes that grows by doubling copies itself at each step, and a
    /// copy of a gigabyte cannot be stopped at a deadline.
    pub fn with_capacity(clauses: usize, lits: usize) -> Cnf {
        Cnf {
            lits: Vec::with_capacity(lits),
            ends: Vec::with_capacity(clauses),
        }
    }

    /// Clauses in the formula.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no clause was added (not the same as holding an empty clause).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The clauses in the order they were added.
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
    /// The name on the command line and in DIMACS headers.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Pairwise => "pairwise",
            Encoding::Sequential => "sequential",
            Encoding::Totalizer => "totalizer",
            Encoding::SortingNetwork => "sorting-network",
        }
    }

    /// Every encoding; names are parsed against this list.
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
    /// At most this many literals true.
    AtMost(usize),
    /// At least this many literals true.
    AtLeast(usize),
    /// Exactly this many literals true.
    Exactly(usize),
}

/// An encoding asked for what it does not support: an error, never a weaker formula.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// Pairwise asked for a group whose clauses exceed [`PAIRWISE_MAX_CLAUSES`].
    #[error(
        "the pairwise encoding of at most {k} of {n} literals needs {clauses} clauses \
         (limit {PAIRWISE_MAX_CLAUSES}); choose another encoding"
    )]
    PairwiseTooLarge {
        /// Literals in the constraint.
        n: usize,
        /// The at-most bound (an at-least bound arrives as at-most n − k over the negations).
        k: usize,
        /// Clauses the encoding would write: C(n, k+1).
        clauses: u128,
    },
    /// A weighted equality whose decision diagram would be too large.
    #[error(
        "the weighted sum needs {states} counter states (limit {limit}); the board is too large for the raw form"
    )]
    WeightedTooLarge {
        /// Decision-diagram nodes the sum could need: terms × (target + 1).
        states: u128,
        /// Most nodes one constraint may create.
        limit: u128,
    },
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
