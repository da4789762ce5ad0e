//! The arguments of `grade`, and the ladder's levels as `generate --level` names them.

use std::time::Duration;

use clap::{Args, ValueEnum};

use super::exit::ends_on_ctrl_c;
use super::seconds::parse_seconds;

pub(in crate::cli) const GRADE_HELP: &str = concat!(
    "\
The ladder, weakest rung first; each includes the ones below it:
  1 singles  a cell with one piece left takes it; a count (a row's or column's pieces of one
             orientation, or the pieces crossing between two rows or columns, as the clues
             fix them) that is reached loses the rest, one that needs every piece left takes
             them
  2 colours  the same counts split by the checkerboard colour of the pieces
  3 pairs    a piece that no way of pairing up all the open cells uses is out
  4 trial    a piece placed for argument's sake that leads by the rungs below to a
             contradiction is out
  5 search   none of them finishes the board: it needs guessing

A board's level is the weakest rung that settles it (places its one tiling, or shows it has
none), applying the weakest rung that decides anything first, as a solver on paper does. Its
steps are the rounds in which each rung decided something, its score the steps weighted by
rung (singles 1, colours 2, pairs 5, trial 20; search adds 100). Uniqueness comes from the
native search (--limit 2): a board with more than one tiling has no level.

Exit status: 0; 3 when the time limit left a board unknown; 1 bad input, 2 usage error; ",
    ends_on_ctrl_c!(),
    "."
);

#[derive(Debug, Args)]
pub(in crate::cli) struct GradeArgs {
    /// Instance (.json), workload (.jsonl) or - for standard input.
    pub(in crate::cli) file: String,
    /// text: one line per board (and a table of levels for a workload); json: one
    /// object per board and line (see `dominofit schema grade`).
    #[arg(long, value_enum, default_value = "text")]
    pub(in crate::cli) format: GradeFormat,
    /// Time limit in seconds for each board, shared by its uniqueness check and its
    /// climb of the ladder; a board either leaves undecided is `unknown` (exit 3).
    #[arg(long, value_parser = parse_seconds)]
    pub(in crate::cli) timeout: Option<Duration>,
}

/// A level of the deduction ladder, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(in crate::cli) enum LevelArg {
    /// 1: counts and single pieces.
    Singles,
    /// 2: counts split by colour.
    Colours,
    /// 3: pairings of the open cells.
    Pairs,
    /// 4: one piece tried.
    Trial,
    /// 5: no rung finishes it.
    Search,
}

impl LevelArg {
    /// Its number, 1 to 5.
    pub(in crate::cli) fn number(self) -> u32 {
        self as u32 + 1
    }
}

/// How `grade` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(in crate::cli) enum GradeFormat {
    /// One line per board in words, and a table of levels for a workload.
    Text,
    /// One JSON object per board and line.
    Json,
}
