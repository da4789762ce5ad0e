//! The text of certificates: the formulas of a board's raw rules and the proofs that
//! refute them, as strings and byte streams. Writing them to files, running provers and
//! checkers, and the bundle a certificate is are the library's (`dominofit::certify`);
//! here is what a page can make too, such as a hint's proof.
//!
//! The raw rules say only what the game says, with no clue inversion and no colour
//! splits, so that trusting a refutation needs no theorem: as CNF ([`rules`], refuted
//! by DRAT proofs) or as linear equalities ([`pb::formula`], refuted by the cutting-planes
//! proofs of [`pb`], checked by VeriPB).

pub mod pb;
pub mod rules;

pub use rules::{RulesError, rules_cnf};
