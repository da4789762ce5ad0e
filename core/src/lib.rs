//! dominofit's core: the pure computation of the Domino Fit constraint-model compiler.
//!
//! A board and its files ([`puzzle`]), clue inversion into the model ([`model`]), the
//! cardinality encodings ([`encode`]) and the lowerings to solver formats ([`lower`]);
//! the backend contract with the native search and the frontier DP ([`backend`]), the
//! designer's and player's tools ([`design`]), the proofs' text ([`certify`]); and what
//! tells work to stop besides its deadline ([`stop`]).
//! Nothing here starts a process, catches a signal, opens a file or spawns a thread, and
//! the clock is read through [`time`], so the crate builds for
//! `wasm32-unknown-unknown` and a page runs the same code as the command line. The
//! `dominofit` crate re-exports every module of it under the same name and adds what
//! needs an operating system.

// Index loops mirror the paper's subscripts (u_i, t_j, ...); iterator chains would hide them.
#![allow(clippy::needless_range_loop)]
#![warn(missing_docs)]
// The core reports through its return values; what reaches a terminal is the caller's.
#![deny(clippy::print_stderr, clippy::print_stdout)]

/// `FromStr` for an option enum that lists itself in `ALL` and names each member with
/// `name()`, and the error for a name that is none of them: a new member is parsed
/// without another edit. Exported, since the library's own option enums use it too.
#[macro_export]
macro_rules! from_str_by_name {
    ($enum:ty, $error:ident, $what:literal) => {
        #[doc = concat!("A name that is not one of [`", stringify!($enum), "::ALL`].")]
        #[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
        #[error("unknown {what} `{0}`", what = $what)]
        pub struct $error(pub String);

        impl std::str::FromStr for $enum {
            type Err = $error;

            fn from_str(text: &str) -> Result<$enum, $error> {
                <$enum>::ALL
                    .iter()
                    .copied()
                    .find(|member| member.name() == text)
                    .ok_or_else(|| $error(text.to_string()))
            }
        }
    };
}

pub mod backend;
pub mod certify;
pub mod design;
pub mod driver;
pub mod encode;
pub mod escape;
pub mod lower;
pub mod memory;
pub mod model;
pub mod program;
pub mod puzzle;
pub mod stop;
pub mod time;

#[cfg(test)]
mod testing;
