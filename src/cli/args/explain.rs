//! The arguments of `hint` and `explain`.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::exit::ends_on_ctrl_c;
use super::seconds::parse_seconds;

/// The exit status of `shared`.
pub(in crate::cli) const SHARED_EXIT: &str = concat!(
    "Exit status: 0; 3 when the time limit left a board unknown; 1 bad input, 2 usage \
     error; ",
    ends_on_ctrl_c!(),
    "."
);

pub(in crate::cli) const HINT_HELP: &str = concat!(
    "\
A step is one deduction of the weakest rung of the ladder that has one (see `dominofit grade \
--help`): its rung and rule, the pieces it places or rules out, the reason in words and the \
cells the reason rests on. Rules: last_piece (a cell with one piece left), count_reached, \
count_needs_all (a count the clues fix), pairing (cells with only as many neighbours), trial \
(a piece that leads to a contradiction); no_piece, count_broken, no_pairing and clues show \
that the position has no tiling (a board without one). Moves that no tiling has are \
checked first (by the complete search, within half of the time limit and at most 10 s \
without one): the answer is then `wrong_moves`, naming a move to take back where one \
alone is to blame, and no step is taken.

Exit status: 0; 3 when the time limit stopped it (what was found by then is written, \
ending `stopped`); 1 bad input, 2 usage error; ",
    ends_on_ctrl_c!(),
    "."
);

#[derive(Debug, Args)]
pub(in crate::cli) struct HintArgs {
    /// Instance file (or a workload, with --instance to pick one board).
    pub(in crate::cli) file: String,
    /// The pieces placed so far, as a solution file (`{"vertical": [...], "horizontal":
    /// [...]}`, any subset of a tiling); without it, the hint from the start.
    pub(in crate::cli) partial: Option<String>,
    /// The board of a workload, by name.
    #[arg(long)]
    pub(in crate::cli) instance: Option<String>,
    /// text: the step in words; json: one object (see `dominofit schema walkthrough`).
    #[arg(long, value_enum, default_value = "text")]
    pub(in crate::cli) format: StepFormat,
    /// Also draw the board with the pieces so far and the step (cells of the reason
    /// shaded, pieces placed in green, pieces ruled out crossed) as an SVG picture.
    #[arg(long, value_name = "OUT")]
    pub(in crate::cli) svg: Option<PathBuf>,
    /// Also write the step as a proof into this directory: `hint.opb` (the rules, the
    /// pieces placed so far, the step's conclusion denied) and `hint.pbp` (a VeriPB
    /// derivation refuting it). `veripb DIR/hint.opb DIR/hint.pbp` checks that the
    /// step is right.
    #[arg(long, value_name = "DIR")]
    pub(in crate::cli) proof: Option<PathBuf>,
    /// Time limit in seconds (exit 3 when it stops the hint).
    #[arg(long, value_parser = parse_seconds)]
    pub(in crate::cli) timeout: Option<Duration>,
}

#[derive(Debug, Args)]
pub(in crate::cli) struct ExplainArgs {
    /// Instance file (or a workload, with --instance to pick one board).
    pub(in crate::cli) file: String,
    /// The pieces placed so far, as a solution file; without it, from the start.
    pub(in crate::cli) partial: Option<String>,
    /// The board of a workload, by name.
    #[arg(long)]
    pub(in crate::cli) instance: Option<String>,
    /// text: numbered steps in words; json: one object (see `dominofit schema
    /// walkthrough`); html: one self-contained page that steps through the board in a
    /// browser.
    #[arg(long, value_enum, default_value = "text")]
    pub(in crate::cli) format: WalkFormat,
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, short = 'o', value_name = "OUT")]
    pub(in crate::cli) output: Option<PathBuf>,
    /// Time limit in seconds. What was found by then is written, ending `stopped` (exit
    /// 3).
    #[arg(long, value_parser = parse_seconds)]
    pub(in crate::cli) timeout: Option<Duration>,
}

/// How `hint` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(in crate::cli) enum StepFormat {
    /// The step in words.
    Text,
    /// One JSON object.
    Json,
}

/// How `explain` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(in crate::cli) enum WalkFormat {
    /// Numbered steps in words.
    Text,
    /// One JSON object.
    Json,
    /// A self-contained page.
    Html,
}

#[derive(Debug, Args)]
pub(in crate::cli) struct SharedArgs {
    /// Instance (.json), workload (.jsonl) or - for standard input.
    pub(in crate::cli) file: String,
    /// text: each board in words, with the changed board as JSON; json: one object per
    /// board and line (see `dominofit schema shared`).
    #[arg(long, value_enum, default_value = "text")]
    pub(in crate::cli) format: StepFormat,
    /// Enumerate at most this many tilings; beyond it the shared pieces are those of the
    /// tilings found (`complete: false`).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    pub(in crate::cli) max_tilings: u64,
    /// Pieces tried as a hole that would make the board unique.
    #[arg(long, default_value_t = 64)]
    pub(in crate::cli) tries: usize,
    /// Time limit in seconds for each board, shared by the enumeration and the search for
    /// a change; a board left undecided is `unknown` (exit 3).
    #[arg(long, value_parser = parse_seconds)]
    pub(in crate::cli) timeout: Option<Duration>,
}
