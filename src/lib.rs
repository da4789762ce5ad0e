//! dominofit: a constraint-model compiler for the Domino Fit puzzle.
//!
//! The pipeline runs one way: an [`puzzle::Instance`] is compiled by [`model::compile`]
//! into a [`model::Model`] (exact cover plus orientation quotas from clue inversion);
//! a [`backend::Backend`] enumerates assignments of its placement variables; every
//! decoded [`puzzle::Solution`] is judged by [`puzzle::verify::verify`] against the raw
//! game rules, never against the model. See ARCHITECTURE.md for the map.
//!
//! ```
//! use dominofit::backend::{Status, native::Native};
//! use dominofit::driver::{self, Request};
//! use dominofit::model::{self, Families};
//! use dominofit::puzzle::{parse::parse_instances, verify::verify};
//!
//! // A 2×2 board whose clues only two vertical pieces meet: each puts its dot on row 1.
//! let text = r#"{"name": "two-verticals", "rows": 2, "cols": 2, "blocked": [],
//!                "row_clues": [2, 0], "col_clues": [1, 1]}"#;
//! let instances = parse_instances(text, "example.json", "example", false)?;
//! let board = &instances[0];
//!
//! // Clue inversion turns the dot clues into orientation quotas.
//! let compiled = model::compile(board, Families::ColourSplits);
//! assert!(compiled.infeasible.is_none());
//!
//! // `driver::run` compiles, searches, and verifies every tiling it reports.
//! let request = Request { limit: 2, timeout: None, families: None };
//! let report = driver::run(board, &Native::default(), &request)?;
//! assert_eq!(report.status, Status::Unique);
//! verify(board, &report.solutions[0])?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Index loops mirror the paper's subscripts (u_i, t_j, ...); iterator chains would hide them.
#![allow(clippy::needless_range_loop)]
#![warn(missing_docs)]
// The library reports through its return values; the command line decides what reaches a
// terminal (and how a closed one is met).
#![deny(clippy::print_stderr, clippy::print_stdout)]

pub mod action;
pub mod backend;
pub mod certify;
pub mod design;
pub mod driver;
pub mod files;
pub mod interrupt;
pub mod memory;
pub mod process;
pub mod race;
pub mod usage;

// The pure computation lives in the core crate (`core/`), which builds for
// wasm32-unknown-unknown; its modules keep their paths here.
pub use dominofit_core::{encode, escape, lower, model, puzzle, stop, time};
