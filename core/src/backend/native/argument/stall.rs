//! The stall arguments: the checks the ladder's trial makes beyond the rules below it,
//! and the search at a stall. Each is detected from scratch here, with its recipe and
//! its words; the search runs an incremental propagator instead where one is written
//! (`incremental`), and the detection here otherwise (`search/checks.rs`).

use super::finding::{StallArgument, StallFailure};
use super::{Position, balance, room};

/// The stall arguments, in the order they are tried.
pub const STALL: &[StallArgument] = &[room::ARGUMENT, balance::ARGUMENT];

/// The stall arguments in force: [`STALL`], after those a test has added on its thread.
pub fn stall_arguments() -> Vec<StallArgument> {
    #[cfg(any(test, feature = "test-hooks"))]
    {
        let mut all = added::added();
        all.extend_from_slice(STALL);
        all
    }
    #[cfg(not(any(test, feature = "test-hooks")))]
    STALL.to_vec()
}

/// The first stall argument that fails on `pos`, from scratch; `None` when every one
/// passes.
pub fn stall_failure(pos: &dyn Position) -> Option<StallFailure> {
    stall_arguments().iter().find_map(|a| (a.find)(pos))
}

/// Stall arguments a test adds, on its own thread, so that tests running beside it see
/// the catalogue as it is (`certify/pb/catalogue.rs` adds one and sees it everywhere).
#[cfg(any(test, feature = "test-hooks"))]
pub mod added {
    use std::cell::RefCell;

    use super::super::finding::StallArgument;

    thread_local! {
        static ADDED: RefCell<Vec<StallArgument>> = const { RefCell::new(Vec::new()) };
    }

    /// The stall arguments added on this thread, tried before the catalogue's.
    pub fn added() -> Vec<StallArgument> {
        ADDED.with(|added| added.borrow().clone())
    }

    /// `argument` in the catalogue on this thread until the guard is dropped.
    pub struct Added;

    impl Added {
        /// Adds `argument`.
        pub fn new(argument: StallArgument) -> Added {
            ADDED.with(|added| added.borrow_mut().push(argument));
            Added
        }
    }

    impl Drop for Added {
        fn drop(&mut self) {
            ADDED.with(|added| added.borrow_mut().clear());
        }
    }
}
