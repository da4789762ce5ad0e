//! One library call per user action, beside the ones that already are one
//! (`driver::run` and `driver::count` for solve and count, `certify::write_certificate`
//! and `certify::check::check_bundle` for certificates): [`emit()`] and [`generate`]. The
//! command line and the Python module map their arguments to these and print what they
//! return; neither repeats what an action decides (the workload-size bound, which
//! kinds of board there are, how a model is lowered).

pub mod emit;
pub mod generate;

pub use emit::{EmitError, EmitOptions, emit};
pub use generate::{BoardKind, GenerateError, GenerateRequest, Generated};
