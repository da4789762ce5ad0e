//! Cutting-planes proofs (VeriPB) of a board's rules, as text: the formula, the writer
//! that numbers the proof's lines as the checker does, the derivation of the quotas the
//! search propagates, and the logger that prints each counting argument's recipe.
//!
//! The DRAT route re-solves the raw-rules CNF with a CDCL solver, whose resolution
//! proofs of counting arguments blow up: boards the engine decides in under a second
//! took CaDiCaL over a minute. Here the engine's own reasoning is the proof. The formula
//! is the raw rules as linear equalities ([`formula`]); the proof derives the quotas the
//! search propagates ([`inversion`]), then replays the search: every dead end a nogood
//! that reverse unit propagation confirms, every counting argument (colour balance,
//! Hall sets of the matching filter, line capacity, transport cuts, the LP's Farkas
//! multipliers) the recipe its propagator wrote beside its check, printed as linear
//! combinations ([`logger`]). [`hint`] proves one step of a walkthrough the same way.
//! The proofs of whole searches, written to files as the search runs, are the
//! library's (`dominofit::certify::pb`).

pub mod formula;
pub mod hint;
pub mod inversion;
pub mod logger;
mod room;
pub mod writer;

pub use formula::{Ids, rules_opb};
pub use logger::Counts;
