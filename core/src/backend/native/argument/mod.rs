//! The catalogue of arguments: one file per kind of argument the engine makes, each
//! holding what the argument is about, its detection from scratch, its recipe (the
//! cutting-planes justification a proof derives) and its words (what a hint, a
//! walkthrough or `solve`'s reason says). The search keeps its incremental checks
//! (`search/`), and holds each to the detection here in debug builds; the walkthrough,
//! the ladder's trial, `hint --proof` and the certificates take the argument from here,
//! so an argument is written once.
//!
//! | argument | file | detection | recipe | the search's incremental twin |
//! |---|---|---|---|---|
//! | a cell with one piece left, or none | `single.rs` | [`single::find`] | unit propagation (a proof's RUP) | `delete`/`commit` in `search/state.rs`, held to it by `counting_twin` (`search/stall.rs`) |
//! | a count reached, or needing all it has left, of a line, a cut or a colour split | `count.rs` | [`count::find`] | unit propagation | `state.rs`, held to it the same way |
//! | a Hall set of the matching: fewer neighbours than cells, or exactly as many | `hall.rs` | [`hall::find`] | [`hall::recipe`] | Régin's filter, `search/matching.rs` and `matching/` (its reach is [`hall::reach`]; its twin holds a failure to [`hall::find`]) |
//! | a line without room for the pieces its quota still needs | `room.rs` | [`room::first_short`] | [`room::recipe`] | `search/capacity.rs` |
//! | a region whose colours cannot balance | `balance.rs` | [`balance::first_unbalanced`] | [`balance::recipe`] | `search/colour.rs` |
//! | a trial: a piece supposed placed leads by the arguments above to a contradiction | `trial.rs` | [`trial::refute`] (which pieces: the ladder's `trial_refutes`) | the arguments it meets | `search/ladder.rs` |
//! | the cut quotas as a transport problem, too short | `cut.rs` | the flow, from scratch at every call (`search/transport.rs`) | [`cut::recipe`] | itself |
//! | the LP's multipliers (Farkas' lemma) | `multipliers.rs` | the LP beside the search (`farkas.rs`), checked in exact arithmetic | [`multipliers::recipe`] | itself |
//!
//! The last two have no words: no walkthrough makes them (the ladder's rungs are the
//! arguments a player follows).
//!
//! The trial's checks beyond the rules below it are the catalogue's *stall arguments*
//! ([`STALL`]): the ladder's trial and the search at a stall run each (its incremental
//! propagator where it has one, else its detection from scratch through
//! `search/checks.rs`), a trial's step in a walkthrough names the one that fails in its
//! words, and the step's proof derives its recipe. A new stall argument is a file here
//! and an entry in [`STALL`]; `certify/pb/catalogue.rs` adds a trivial one and sees it
//! in all four.

pub mod balance;
mod below;
mod board;
pub mod count;
pub mod cut;
mod finding;
pub mod hall;
pub mod multipliers;
pub mod room;
pub mod single;
mod stall;
pub mod trial;
pub mod words;

pub use below::below_trial;
pub use board::{Board, Clash, Stopped};
pub use finding::{Deduction, HallSet, Rule, StallArgument, StallFailure};
#[cfg(any(test, feature = "test-hooks"))]
pub use stall::added::Added;
pub use stall::{STALL, stall_arguments, stall_failure};

use crate::model::Model;

/// A position as an argument reads it: which placements are still open (neither placed
/// nor ruled out), which cells are covered, and what each quota still needs. A player's
/// board ([`Board`]) and the search's node are both positions, so a detection from
/// scratch is written once for the walkthrough and the search's debug twins.
pub trait Position {
    /// The model the position is of.
    fn model(&self) -> &Model;
    /// The cover indices of placement `p`'s two cells.
    fn cells(&self, p: u32) -> [u32; 2];
    /// Whether placement `p` is open: neither placed nor ruled out.
    fn open(&self, p: u32) -> bool;
    /// Whether cover `k`'s cell has a piece placed on it.
    fn covered(&self, k: u32) -> bool;
    /// How many more of group `g`'s members its quota needs (negative: too many placed).
    fn residual(&self, g: u32) -> i32;
    /// How many of group `g`'s members are open (the search keeps the count).
    fn open_members(&self, g: u32) -> u32;
}

/// Whether cover `k`'s cell has an even `row + column` (every piece covers one cell of
/// each colour).
pub fn even<P: Position + ?Sized>(pos: &P, k: u32) -> bool {
    let cover = &pos.model().covers[k as usize];
    (cover.row + cover.col).is_multiple_of(2)
}
