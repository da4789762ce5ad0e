//! Everything that solves a model, and the one place where answers become statuses.
//!
//! A backend only enumerates assignments of the placement variables and says whether
//! its search was exhausted. Decoding, verification against the raw rules, and the
//! FORMAT.md status table live here, once, so that no backend can report a status its
//! evidence does not support.

pub mod external;
pub mod ilp;
mod lowering;
pub mod portfolio;
pub mod registry;
mod renamed;
pub mod sat;
pub mod worker;

// The contract and the pure engines (native, dp) are the core's.
pub use dominofit_core::backend::*;

pub use registry::{DEFAULT_PORTFOLIO, LookupError, by_name};
