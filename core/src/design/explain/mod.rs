//! Walkthroughs and hints: the deduction ladder one deduction at a time, each with its
//! rule, the reason in words and the cells it rests on, the way a player would follow
//! it.
//!
//! `grade` climbs the ladder a round at a time (a rung run to its fixed point); a
//! walkthrough takes one deduction of the weakest rung that has one and goes back to
//! the bottom after it. The rules are the rungs' own, taken from the engine's catalogue
//! of arguments (`backend/native/argument/`): the counting rules are unit propagation
//! over the same constraints, the pairing rule finds exactly the pieces Régin's filter
//! removes, and the trial rule takes the pieces the ladder's trial refutes. Every rule
//! only ever adds knowledge and never loses a conclusion when more is known, so any
//! order of taking them reaches the same end as the climb: a board a walkthrough solves
//! is one `grade` solves, at the same level.

use serde::Serialize;

use crate::backend::native::ladder::{Rung, Trial};
use crate::backend::native::trial_refutes;
use crate::backend::{BackendError, Budget};
use crate::model::{self, Families};
use crate::puzzle::{Instance, Orientation, Piece, Solution};

mod moves;
mod page;
mod step;

pub use crate::backend::native::argument::words::piece_words;
use crate::backend::native::argument::{self, Board, Clash, Deduction, Stopped, below_trial};
pub use crate::backend::native::argument::{HallSet, Rule};
use moves::{Extends, extends, to_take_back};
pub use page::page;
pub use step::Step;
use step::written;

/// How a walkthrough ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Every cell is covered: the board has exactly the tiling placed.
    Solved,
    /// A step showed that what is known has no tiling.
    NoTiling,
    /// The moves given extend to no tiling of the board (which has one): no step is
    /// taken, since every step would build on them; `take_back` names a move that no
    /// tiling with the others has, where there is one.
    WrongMoves,
    /// No rule of the ladder decides anything more: the board needs search (or has
    /// several tilings).
    Stuck,
    /// The number of steps asked for was taken (a hint takes one).
    Paused,
    /// The time limit or Ctrl-C stopped it.
    Stopped,
}

/// A walkthrough from a board's start (or from pieces a player placed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Walkthrough {
    /// The board's name.
    pub name: String,
    /// How it ended.
    pub outcome: Outcome,
    /// The pieces it started from (a player's moves; empty from the start).
    pub given: Solution,
    /// Whether the moves given extend to a tiling, by the complete search; `null` when no
    /// move was given or the search did not finish within its share of the time.
    pub moves_extend: Option<bool>,
    /// A move to take back: one that no tiling with the other moves has (empty unless
    /// the outcome is `wrong_moves` and one move alone is to blame).
    pub take_back: Solution,
    /// The deductions, in order.
    pub steps: Vec<Step>,
    /// The pieces placed at the end, given ones included (the tiling when solved).
    pub placed: Solution,
    /// Pieces neither placed nor ruled out at the end.
    pub open_pieces: u32,
    /// The hardest rung a step used (the board's level when it ends solved or with no
    /// tiling from the start); `null` with no step.
    pub hardest: Option<String>,
}

impl Walkthrough {
    /// How it ended, in words: what the command line prints after the last step, and a
    /// page says when there is no step to show or to prove.
    pub fn ending(&self) -> String {
        match self.outcome {
            Outcome::Solved => match self.hardest.as_deref() {
                Some(hardest) => {
                    format!("solved: every cell is covered (hardest rung: {hardest})")
                }
                None => "solved: every cell is covered".to_string(),
            },
            Outcome::NoTiling => "no tiling: the last step shows the position has none".to_string(),
            Outcome::WrongMoves => match self.take_back.pieces().next() {
                Some(piece) => format!(
                    "no tiling has all the pieces placed: no tiling with the others has {}; \
                     take it back",
                    piece_words(&piece)
                ),
                None => "no tiling has all the pieces placed (no one of them alone is to \
                         blame); take some back"
                    .to_string(),
            },
            Outcome::Stuck => format!(
                "stuck: no rule of the ladder decides anything more, with {} pieces open \
                 (the board needs search, or has several tilings)",
                self.open_pieces
            ),
            Outcome::Paused => "more steps follow".to_string(),
            Outcome::Stopped => "stopped by the time limit".to_string(),
        }
    }
}

/// Why no walkthrough could be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExplainError {
    /// A given piece does not lie on two open cells of the board.
    #[error("{piece} does not lie on two open cells of `{name}`")]
    NotAPiece {
        /// The board.
        name: String,
        /// The piece, in words.
        piece: String,
    },
    /// Two given pieces share a cell.
    #[error("{piece} overlaps another piece given for `{name}`")]
    Overlap {
        /// The board.
        name: String,
        /// The piece, in words.
        piece: String,
    },
    /// A piece is given more than once.
    #[error("{piece} is given twice for `{name}`")]
    Repeated {
        /// The board.
        name: String,
        /// The piece, in words.
        piece: String,
    },
    /// The search that checks whether the moves extend to a tiling failed.
    #[error(transparent)]
    Search(#[from] BackendError),
    /// The ladder's trial and the rules below it disagree about a state (a bug):
    /// reported, never explained.
    #[error(
        "the trial rung found no tiling where the rules below it found none missing, on `{name}`"
    )]
    Disagrees {
        /// The board.
        name: String,
    },
}

/// The walkthrough of `instance` from the pieces `given` (a player's moves), taking at
/// most `max_steps` deductions, within `budget`. Moves that extend to no tiling (of a
/// board that has one) end it at once, `wrong_moves`, with a move to take back where
/// one alone is to blame.
///
/// # Errors
/// A given piece is not on two open cells, overlaps another or is given twice; the
/// search that checks the moves failed; or (a bug) the ladder's trial and the rules
/// below it disagree.
pub fn explain(
    instance: &Instance,
    given: &Solution,
    max_steps: usize,
    budget: &Budget,
) -> Result<Walkthrough, ExplainError> {
    walkthrough(instance, given, max_steps, budget, true)
}

/// The walkthrough as [`explain`] makes it, without first asking whether the moves
/// extend to a tiling: every step still follows from them, and from moves no tiling
/// extends the steps end in a contradiction, however far away. For studying the rules
/// from any position (the tests walk from wrong moves this way).
///
/// # Errors
/// As [`explain`].
pub fn walk(
    instance: &Instance,
    given: &Solution,
    max_steps: usize,
    budget: &Budget,
) -> Result<Walkthrough, ExplainError> {
    walkthrough(instance, given, max_steps, budget, false)
}

fn walkthrough(
    instance: &Instance,
    given: &Solution,
    max_steps: usize,
    budget: &Budget,
    check: bool,
) -> Result<Walkthrough, ExplainError> {
    // The walkthrough's model and board, and the search that checks the moves beside.
    crate::driver::plan(instance, &crate::backend::native::Native::default(), 2)
        .map_err(ExplainError::Search)?;
    let model = model::compile(instance, Families::ColourSplits);
    let mut board = Board::new(&model);
    let moves: Vec<Piece> = given.pieces().collect();
    for (list, orientation) in [
        (&given.vertical, Orientation::Vertical),
        (&given.horizontal, Orientation::Horizontal),
    ] {
        // Kept sorted, so a piece given twice lies twice in a row.
        if let Some(twice) = list.windows(2).find(|w| w[0] == w[1]) {
            let (row, col) = twice[0];
            return Err(ExplainError::Repeated {
                name: instance.name.clone(),
                piece: piece_words(&Piece {
                    row,
                    col,
                    orientation,
                }),
            });
        }
    }
    for piece in given.pieces() {
        let words = || piece_words(&piece);
        let p = model
            .placements
            .binary_search(&piece)
            .map_err(|_| ExplainError::NotAPiece {
                name: instance.name.clone(),
                piece: words(),
            })?;
        board
            .place(p as u32)
            .map_err(|Clash| ExplainError::Overlap {
                name: instance.name.clone(),
                piece: words(),
            })?;
    }
    let mut steps: Vec<Step> = Vec::new();
    let mut hardest: Option<Rung> = None;
    let (mut moves_extend, mut take_back) = (None, Solution::default());
    if check && model.infeasible.is_none() && !moves.is_empty() {
        match check_moves(instance, &moves, budget)? {
            Checked::Extend => moves_extend = Some(true),
            Checked::Undecided => {}
            Checked::BoardHasNone => moves_extend = Some(false),
            Checked::Wrong(piece) => {
                take_back = Solution::from_pieces(piece);
                return Ok(Walkthrough {
                    name: instance.name.clone(),
                    outcome: Outcome::WrongMoves,
                    given: given.clone(),
                    moves_extend: Some(false),
                    take_back,
                    steps,
                    placed: board.placed(),
                    open_pieces: board.with(None).len() as u32,
                    hardest: None,
                });
            }
        }
    }
    let all_covered = |b: &Board| (0..b.model.covers.len() as u32).all(|k| b.covered(k));
    let outcome = if let Some(why) = &model.infeasible {
        hardest = Some(Rung::Singles);
        steps.push(written(
            Deduction::contradiction(Rung::Singles, Rule::Clues, format!("{why}."), Vec::new()),
            &board,
        ));
        Outcome::NoTiling
    } else {
        loop {
            if budget.expired() {
                break Outcome::Stopped;
            }
            if steps.len() >= max_steps && !all_covered(&board) {
                break Outcome::Paused;
            }
            let below = match below_trial(&board, budget) {
                Ok(below) => below,
                Err(Stopped) => break Outcome::Stopped,
            };
            let found = match below {
                Some(d) => Some(d),
                None if all_covered(&board) => None,
                None => match trial_refutes(&model, &board.known, budget) {
                    Trial::Stopped => break Outcome::Stopped,
                    Trial::Contradiction => {
                        return Err(ExplainError::Disagrees {
                            name: instance.name.clone(),
                        });
                    }
                    Trial::Refuted(out) => match out.first() {
                        None => None,
                        Some(&p) => match argument::trial::refute(&board, p, budget) {
                            Ok(Some(d)) => Some(d),
                            Ok(None) => {
                                return Err(ExplainError::Disagrees {
                                    name: instance.name.clone(),
                                });
                            }
                            Err(Stopped) => break Outcome::Stopped,
                        },
                    },
                },
            };
            let Some(deduction) = found else {
                break if all_covered(&board) {
                    Outcome::Solved
                } else {
                    Outcome::Stuck
                };
            };
            if steps.len() >= max_steps {
                break Outcome::Paused;
            }
            hardest = hardest.max(Some(deduction.rung));
            let clash = deduction.apply(&mut board).is_err();
            let contradiction = deduction.contradiction;
            steps.push(written(deduction, &board));
            if contradiction || clash {
                break Outcome::NoTiling;
            }
        }
    };
    Ok(Walkthrough {
        name: instance.name.clone(),
        outcome,
        given: given.clone(),
        moves_extend,
        take_back,
        steps,
        placed: board.placed(),
        open_pieces: board.with(None).len() as u32,
        hardest: hardest.map(|r| r.name().to_string()),
    })
}

/// What the check of a player's moves found.
enum Checked {
    /// Some tiling has them all.
    Extend,
    /// The search did not finish within its share of the time.
    Undecided,
    /// No tiling has them, and none has the board either: the walkthrough shows why.
    BoardHasNone,
    /// No tiling has them all, though the board has one; the move to take back, where
    /// one alone is to blame.
    Wrong(Option<Piece>),
}

/// The longest the check of a player's moves may take when the walkthrough has no time
/// limit: past it the steps are given unchecked (they follow from the moves all the
/// same), rather than a hint waiting as long as solving a board of a million cells.
const CHECK_WITHOUT_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Whether `moves` extend to a tiling of `instance`, within half of what is left of
/// `budget` (the rest is the walkthrough's).
fn check_moves(
    instance: &Instance,
    moves: &[Piece],
    budget: &Budget,
) -> Result<Checked, BackendError> {
    let share = budget
        .remaining()
        .map_or(CHECK_WITHOUT_LIMIT, |left| left / 2);
    let budget = budget
        .clone()
        .ending_by(crate::time::Instant::now().checked_add(share));
    Ok(match extends(instance, moves, &budget)? {
        Extends::Yes => Checked::Extend,
        Extends::Undecided => Checked::Undecided,
        Extends::No => match to_take_back(instance, moves, &budget)? {
            Some(piece) => Checked::Wrong(Some(piece)),
            None => match extends(instance, &[], &budget)? {
                Extends::No => Checked::BoardHasNone,
                Extends::Yes | Extends::Undecided => Checked::Wrong(None),
            },
        },
    })
}

/// The next step from `given` (a player's moves): a walkthrough of at most one step.
///
/// # Errors
/// As [`explain`].
pub fn hint(
    instance: &Instance,
    given: &Solution,
    budget: &Budget,
) -> Result<Walkthrough, ExplainError> {
    explain(instance, given, 1, budget)
}
