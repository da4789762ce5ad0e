//! dominofit's core in WebAssembly: the calls a page makes.
//!
//! Each call takes the text the command line reads (an instance or workload, a solution)
//! and returns the text it prints, byte for byte: both go through the same core
//! functions, and `scripts/wasm-test.sh` runs both on the committed boards and compares.
//! A failure is one message, thrown as a JavaScript string; nothing here panics on what
//! a page hands it.
//!
//! What is here so far is what the core holds: reading and checking boards, drawing them,
//! judging a tiling, the clues of a tiling, planted boards and the model in every output
//! format. The searches join when the native engine moves into the core.

mod calls;
mod numbers;

pub use calls::*;
