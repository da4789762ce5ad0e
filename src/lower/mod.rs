//! Lowerings of the model into solver input formats.
//!
//! Every lowering numbers the placements first, in model order (placement `i` is
//! variable `i + 1`), so any solver's model decodes the same way.

pub mod cnf;
pub mod dimacs;
pub mod lp;
pub mod mcc;
pub mod opb;
