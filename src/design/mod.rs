//! Boards made to order, grading, hints and walkthroughs, what tilings share: the
//! core's (`dominofit_core::design`), and beside it `unsat`, the adversarial
//! unsatisfiable boards, whose refutation is by provers that are the library's
//! (microlp, varisat), never by the native search.

mod unsat;

pub use dominofit_core::design::*;
pub use unsat::{unsat, unsat_watched};
