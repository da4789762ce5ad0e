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

/// The level a name stands for: a rung's (1 to 4), or 5 for `search`, the level of a
/// board no rung finishes.
pub fn level_number(name: &str) -> Option<u32> {
    match Rung::ALL.iter().find(|r| r.name() == name) {
        Some(rung) => Some(rung.level()),
        None => (name == "search").then_some(Rung::ALL.len() as u32 + 1),
    }
}
