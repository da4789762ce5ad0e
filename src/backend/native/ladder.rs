//! The deduction ladder's rungs and what a climb found (`search/ladder.rs` climbs).

/// A rung of the deduction ladder: the rules a player may use, weakest first. Each
/// includes the ones below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rung {
    /// A cell with one piece left takes it; a line (a row's or column's pieces of one
    /// orientation, or the pieces crossing a cut between two rows or columns) whose
    /// count is reached loses the rest, and one that needs every piece left takes them.
    Singles,
    /// The same counts split by the checkerboard colour of the pieces' first cells.
    Colours,
    /// Pairings: a piece that no way of pairing up all open cells uses is out.
    Pairs,
    /// Trial: a piece placed for argument's sake that leads by the rungs below (and the
    /// line-room and colour-balance checks) to a contradiction is out.
    Trial,
}

impl Rung {
    /// Every rung, weakest first.
    pub const ALL: [Rung; 4] = [Rung::Singles, Rung::Colours, Rung::Pairs, Rung::Trial];

    /// The rung's name, as the command line and JSON write it.
    pub fn name(self) -> &'static str {
        match self {
            Rung::Singles => "singles",
            Rung::Colours => "colours",
            Rung::Pairs => "pairs",
            Rung::Trial => "trial",
        }
    }

    /// The rung's level, 1 for the weakest.
    pub fn level(self) -> u32 {
        self as u32 + 1
    }

    /// What a step of this rung weighs in a board's score: a trial costs a player more
    /// than a pairing argument, which costs more than a count.
    pub fn weight(self) -> u64 {
        match self {
            Rung::Singles => 1,
            Rung::Colours => 2,
            Rung::Pairs => 5,
            Rung::Trial => 20,
        }
    }
}

/// What one application of a rung decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepCount {
    /// The rung applied.
    pub rung: Rung,
    /// Pieces it placed.
    pub placed: u32,
    /// Pieces it ruled out.
    pub ruled_out: u32,
}

/// A climb of the ladder: the rungs applied in order (only those that decided
/// something), and where it ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Climb {
    /// Each application that decided something, in order.
    pub steps: Vec<StepCount>,
    /// Every piece was decided: the board has exactly the tiling `placed`.
    pub solved: bool,
    /// The rung that found the board has no tiling, if one did.
    pub contradiction: Option<Rung>,
    /// The pieces placed when the climb ended (the tiling, when `solved`).
    pub placed: Vec<u32>,
    /// The pieces ruled out when the climb ended.
    pub ruled_out: Vec<u32>,
    /// The budget (a time limit, Ctrl-C) stopped the climb before it ended.
    pub stopped: bool,
}

impl Climb {
    /// The strongest rung that decided anything.
    pub fn hardest(&self) -> Option<Rung> {
        self.steps
            .iter()
            .map(|s| s.rung)
            .chain(self.contradiction)
            .max()
    }
}

/// What the trial rung concludes from a state of knowledge, for a walkthrough that
/// takes its steps one at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trial {
    /// The open pieces a trial rules out, in placement order (none when trial is stuck
    /// too).
    Refuted(Vec<u32>),
    /// The rungs below already find the state has no tiling.
    Contradiction,
    /// The budget (a time limit, Ctrl-C) stopped it: nothing is shown either way.
    Stopped,
}

/// A check of the trial rung beyond the rules below it (the search's stall checks) that
/// fails on a position: what a trial's contradiction rests on when the counts and the
/// pairings run dry. Group and cell indices are the coloured model's (its quotas and its
/// covers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StallCheck {
    /// A line's group (pieces of one orientation along one row or column) still needs
    /// `needed` pieces, but its open pieces leave room for only `room` side by side.
    LineRoom {
        /// The group, an index of the model's quotas.
        group: u32,
        /// The most of its open pieces that fit without overlapping.
        room: u32,
        /// How many more of its pieces the clues call for.
        needed: u32,
    },
    /// A region of open cells joined by open pieces holds more cells of one colour than
    /// of the other, while every piece covers one of each.
    ColourBalance {
        /// The region's cells (cover indices).
        cells: Vec<u32>,
    },
}

/// A stall check's failure with its reason as a cutting-planes recipe, for a hint's
/// proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StallFailure {
    /// Which check failed, on what.
    pub check: StallCheck,
    /// Its justification over the model's covers and quotas.
    pub recipe: super::recipe::Recipe,
}

/// The level a name stands for: a rung's (1 to 4), or 5 for `search`, the level of a
/// board no rung finishes.
pub fn level_number(name: &str) -> Option<u32> {
    match Rung::ALL.iter().find(|r| r.name() == name) {
        Some(rung) => Some(rung.level()),
        None => (name == "search").then_some(Rung::ALL.len() as u32 + 1),
    }
}
