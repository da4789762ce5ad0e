//! The clock the library reads. `Instant` is `web-time`'s, which is the standard
//! library's own on every native target and reads `performance.now()` in a browser,
//! where `std::time::Instant::now` traps (wasm32-unknown-unknown has no clock of its
//! own). Every deadline of a search, a walkthrough, a proof or a child process is
//! measured with it, so that the same code stops on time natively and in a web page;
//! `tests/suite/architecture.rs` holds every file to it.

pub use web_time::Instant;
