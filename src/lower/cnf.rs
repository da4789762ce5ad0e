//! The model as CNF: exactly-one per open cell, each quota group as an exactly-k with
//! the chosen cardinality encoding, or the raw clue sums as weighted equalities.

use serde::Serialize;

use crate::encode::{self, Bound, Cnf, EncodeError, Encoding, Lit, VarPool};
use crate::model::Model;

/// Size of one part of the formula.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PartSize {
    /// `cover`, a quota family name (`u`, `p`, ...), or `row`/`col` for raw clue sums.
    pub part: String,
    pub constraints: usize,
    /// Auxiliary variables the part added.
    pub vars: u32,
    pub clauses: usize,
}

/// A lowered formula and what it is made of.
#[derive(Debug, Clone)]
pub struct LoweredCnf {
    /// Variables `1..=placements` are the placements, in model order.
    pub placements: u32,
    /// Every variable used, auxiliary ones included.
    pub vars: u32,
    pub cnf: Cnf,
    pub encoding: Encoding,
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
pub fn lower(model: &Model, encoding: Encoding) -> Result<LoweredCnf, EncodeError> {
    let placements = model.placements.len() as u32;
    let mut pool = VarPool::starting_after(placements);
    let mut cnf = Cnf::default();
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
    for cover in &model.covers {
        let lits: Vec<Lit> = cover.placements.iter().map(|&p| lit(p)).collect();
        part("cover", &mut pool, &mut cnf, &mut |pool, sink| {
            encode::encode(Encoding::Pairwise, &lits, Bound::Exactly(1), pool, sink)
        })?;
    }
    for group in &model.quotas {
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
