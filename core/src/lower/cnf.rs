//! The model as CNF: exactly-one per open cell, each quota group as an exactly-k with
//! the chosen cardinality encoding, or the raw clue sums as weighted equalities.

use serde::Serialize;

use crate::encode::size::{self, Size};
use crate::encode::{self, Bound, Cnf, EncodeError, Encoding, Lit, VarPool};
use crate::model::Model;

/// What a consumer of a formula needs per byte of its clauses in a [`Cnf`]: the formula
/// itself, its DIMACS text or a solver's copy with watch lists, and that solver's own
/// growth. A rough rule, kept on the safe side: a refusal names the figure.
pub const BYTES_NEEDED_PER_CNF_BYTE: u64 = 4;

/// Why a model was not lowered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LowerError {
    /// An encoding refused a constraint.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// The estimated formula would not fit in the memory budget; nothing was written.
    #[error(
        "the formula would have {clauses} clauses and {lits} literals and need about \
         {needed} of memory, more than the {budget} allowed; {hint}",
        clauses = crate::memory::count_in_words(size.clauses),
        lits = crate::memory::count_in_words(size.lits),
        needed = crate::memory::human(*needed),
        budget = crate::memory::human(*budget),
        hint = too_large_hint(*encoding),
    )]
    TooLarge {
        /// The estimated size of the formula.
        size: Size,
        /// Bytes of memory the formula would need, by [`BYTES_NEEDED_PER_CNF_BYTE`].
        needed: u64,
        /// Bytes allowed.
        budget: u64,
        /// The cardinality encoding of the quota groups, when the user chose one: the
        /// hint names another.
        encoding: Option<Encoding>,
    },
    /// The caller's `stop` fired between constraints.
    #[error("the time limit ran out while the formula was being built")]
    Stopped,
}

/// What a user can try instead of a formula too large, in the host's words
/// ([`crate::memory::words`]): another encoding, another backend, more memory.
fn too_large_hint(encoding: Option<Encoding>) -> String {
    let words = crate::memory::words();
    let mut tries: Vec<&str> = Vec::new();
    // The raw rules have no encoding to change.
    if encoding.is_some_and(|e| e != Encoding::Sequential) {
        tries.push("the sequential encoding");
    }
    if words.other_backends {
        tries.push("an ILP backend");
    }
    tries.push("the native search");
    let more = words.more.unwrap_or("run it on a machine with more memory");
    match encoding {
        None => more.to_string(),
        Some(_) => match tries.as_slice() {
            [one] => format!("try {one}"),
            [first, last] => format!("try {first} or {last}"),
            [rest @ .., last] => format!("try {}, or {last}", rest.join(", ")),
            [] => more.to_string(),
        },
    }
}

/// The size of [`lower`]'s formula, from the model's shape alone (exact for the
/// pairwise, sequential and totalizer encodings, an upper bound otherwise).
pub fn estimate(model: &Model, encoding: Encoding) -> Size {
    let mut total = Size {
        vars: model.placements.len() as u64,
        ..Size::default()
    };
    if model.infeasible.is_some() {
        total.clauses += 1;
    }
    for cover in &model.covers {
        total += size::estimate(
            Encoding::Pairwise,
            cover.placements.len(),
            Bound::Exactly(1),
        );
    }
    for group in &model.quotas {
        total += size::estimate(
            encoding,
            model.members(group).len(),
            Bound::Exactly(group.quota as usize),
        );
    }
    for sum in &model.clue_sums {
        let weight: u64 = sum.terms.iter().map(|&(w, _)| u64::from(w)).sum();
        total += size::estimate_weighted(sum.terms.len(), sum.target, weight);
    }
    total
}

/// [`lower`] within a memory budget (bytes, for the estimate times
/// [`BYTES_NEEDED_PER_CNF_BYTE`]) and stopping when `stop` says so, checked between
/// constraints.
///
/// # Errors
/// The formula would not fit, `stop` fired, or an encoding refuses a constraint.
pub fn lower_within(
    model: &Model,
    encoding: Encoding,
    budget: u64,
    stop: &dyn Fn() -> bool,
) -> Result<LoweredCnf, LowerError> {
    let (size, needed) = needed_memory(model, encoding);
    if needed > budget {
        return Err(LowerError::TooLarge {
            size,
            needed,
            budget,
            // Raw sums have no quota groups: the encoding changes nothing.
            encoding: (!model.quotas.is_empty()).then_some(encoding),
        });
    }
    // Room for the whole formula at once: growing a vector of gigabytes copies it, and a
    // copy cannot be stopped at a deadline (the estimate is exact or an upper bound).
    let room = Cnf::with_capacity(
        usize::try_from(size.clauses).unwrap_or(0),
        usize::try_from(size.lits).unwrap_or(0),
    );
    build(model, encoding, room, stop)
}

/// [`estimate`], and the bytes of memory the formula would need by
/// [`BYTES_NEEDED_PER_CNF_BYTE`].
pub fn needed_memory(model: &Model, encoding: Encoding) -> (Size, u64) {
    let size = estimate(model, encoding);
    let needed = size.cnf_bytes().saturating_mul(BYTES_NEEDED_PER_CNF_BYTE);
    (size, needed)
}

/// Size of one part of the formula.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PartSize {
    /// `cover`, a quota family name (`u`, `p`, ...), or `row`/`col` for raw clue sums.
    pub part: String,
    /// Constraints of the model in the part.
    pub constraints: usize,
    /// Auxiliary variables the part added.
    pub vars: u32,
    /// Clauses the part added.
    pub clauses: usize,
}

/// A lowered formula and what it is made of.
#[derive(Debug, Clone)]
pub struct LoweredCnf {
    /// Variables `1..=placements` are the placements, in model order.
    pub placements: u32,
    /// Every variable used, auxiliary ones included.
    pub vars: u32,
    /// The clauses.
    pub cnf: Cnf,
    /// The cardinality encoding of the quota groups.
    pub encoding: Encoding,
    /// Clauses and auxiliary variables per part, in the order the parts were written.
    pub parts: Vec<PartSize>,
}

/// Counts clauses on their way into the formula.
struct Counting<'a> {
    cnf: &'a mut Cnf,
    added: usize,
}

impl encode::ClauseSink for Counting<'_> {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.added += 1;
        self.cnf.add_clause(clause);
    }
}

/// Lowers a model. Covers use the pairwise form (at most four literals); quota groups
/// use `encoding`; raw clue sums use the weighted decision diagram. An infeasible model
/// becomes the empty clause.
///
/// # Errors
/// An encoding refuses a constraint (for example pairwise on a large group).
pub fn lower(model: &Model, encoding: Encoding) -> Result<LoweredCnf, LowerError> {
    build(model, encoding, Cnf::default(), &|| false)
}

fn build(
    model: &Model,
    encoding: Encoding,
    mut cnf: Cnf,
    stop: &dyn Fn() -> bool,
) -> Result<LoweredCnf, LowerError> {
    let placements = model.placements.len() as u32;
    let mut pool = VarPool::starting_after(placements);
    let mut parts: Vec<PartSize> = Vec::new();
    let lit = |id: u32| id as Lit + 1;

    let mut part =
        |name: &str,
         pool: &mut VarPool,
         cnf: &mut Cnf,
         write: &mut dyn FnMut(&mut VarPool, &mut Counting) -> Result<(), EncodeError>|
         -> Result<(), EncodeError> {
            let vars_before = pool.used();
            let mut sink = Counting { cnf, added: 0 };
            write(pool, &mut sink)?;
            let added = sink.added;
            match parts.iter_mut().find(|p| p.part == name) {
                Some(p) => {
                    p.constraints += 1;
                    p.vars += pool.used() - vars_before;
                    p.clauses += added;
                }
                None => parts.push(PartSize {
                    part: name.to_string(),
                    constraints: 1,
                    vars: pool.used() - vars_before,
                    clauses: added,
                }),
            }
            Ok(())
        };

    if model.infeasible.is_some() {
        part("infeasible", &mut pool, &mut cnf, &mut |_, sink| {
            encode::ClauseSink::add_clause(sink, &[]);
            Ok(())
        })?;
    }
    for (k, cover) in model.covers.iter().enumerate() {
        if k % 1024 == 0 && stop() {
            return Err(LowerError::Stopped);
        }
        let lits: Vec<Lit> = cover.placements.iter().map(|&p| lit(p)).collect();
        part("cover", &mut pool, &mut cnf, &mut |pool, sink| {
            encode::encode(Encoding::Pairwise, &lits, Bound::Exactly(1), pool, sink)
        })?;
    }
    for group in &model.quotas {
        if stop() {
            return Err(LowerError::Stopped);
        }
        let lits: Vec<Lit> = model.members(group).iter().map(|&p| lit(p)).collect();
        let bound = Bound::Exactly(group.quota as usize);
        part(
            group.family.name(),
            &mut pool,
            &mut cnf,
            &mut |pool, sink| encode::encode(encoding, &lits, bound, pool, sink),
        )?;
    }
    for sum in &model.clue_sums {
        if stop() {
            return Err(LowerError::Stopped);
        }
        let terms: Vec<(u32, Lit)> = sum.terms.iter().map(|&(w, p)| (w, lit(p))).collect();
        let name = match sum.line {
            crate::model::Line::Row => "row",
            crate::model::Line::Col => "col",
        };
        part(name, &mut pool, &mut cnf, &mut |pool, sink| {
            encode::encode_weighted_equal(&terms, sum.target, pool, sink)
        })?;
    }
    Ok(LoweredCnf {
        placements,
        vars: pool.used(),
        cnf,
        encoding,
        parts,
    })
}
