//! dominofit: a constraint-model compiler for the Domino Fit puzzle.
//!
//! The pipeline runs one way: an [`puzzle::Instance`] is compiled by [`model::compile`]
//! into a [`model::Model`] (exact cover plus orientation quotas from clue inversion);
//! a [`backend::Backend`] enumerates assignments of its placement variables; every
//! decoded [`puzzle::Solution`] is judged by [`puzzle::verify::verify`] against the raw
//! game rules, never against the model. See ARCHITECTURE.md for the map.

// Index loops mirror the paper's subscripts (u_i, t_j, ...); iterator chains would hide them.
#![allow(clippy::needless_range_loop)]

pub mod backend;
pub mod design;
pub mod encode;
pub mod escape;
pub mod interrupt;
pub mod lower;
pub mod memory;
pub mod model;
pub mod puzzle;
pub mod race;
