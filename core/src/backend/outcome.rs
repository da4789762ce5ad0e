//! What a backend hands back: each tiling to a sink that says whether to go on, then
//! how its search ended and the work it did.

use num_bigint::BigUint;
use serde::Serialize;

/// Most solutions `run` keeps for printing; a larger enumeration ends `Capped` (use
/// `count` to count beyond it).
pub const MAX_STORED_SOLUTIONS: usize = 1_000_000;

/// Most pieces, over all the solutions `run` keeps, on every path (the small-board one
/// included): the memory they take is bounded before the search starts (a 128×128
/// tiling has 8,192 pieces, and a million of them did not fit), and so is the time to
/// decode, verify and print them after the search stops.
pub const MAX_STORED_PIECES: usize = 8_000_000;

/// Whether `solutions` tilings of `pieces` pieces in all fill what `run` keeps.
pub fn storage_full(solutions: usize, pieces: usize) -> bool {
    solutions >= MAX_STORED_SOLUTIONS || pieces >= MAX_STORED_PIECES
}

/// What the sink tells a backend after each solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Go on: the sink takes more solutions.
    Continue,
    /// End the search now: the sink wants no more solutions.
    Stop,
}

/// Why a backend's search ended.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Ending {
    /// Every solution was reported: the search space is exhausted.
    Exhausted,
    /// The sink asked to stop (the solution limit was reached).
    Stopped,
    /// The deadline passed.
    Timeout,
    /// Another resource cap (memory, a node budget) stopped it.
    Capped,
}

/// Work counters a backend reports; every field is optional so each backend fills
/// in what it has.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Counters {
    /// Nodes of the search tree visited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Placements forced by propagation before the first branch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced: Option<u64>,
    /// Propagation stalls cut off because the failure cache held them as proved empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_hits: Option<u64>,
    /// Restarts of the search (Luby schedule, bounded limits only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restarts: Option<u64>,
    /// Variables of the lowered model: CNF variables, or the 0/1 variables of an integer
    /// program.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vars: Option<u64>,
    /// Timed calls behind a median time (benchmark mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat: Option<u64>,
    /// Clauses of the CNF formula.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clauses: Option<u64>,
    /// Linear constraints of an integer program.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constraints: Option<u64>,
    /// Conflicts met by a CDCL SAT solver.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<u64>,
    /// Moves of the repair engine between descents (kept or not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<u64>,
    /// Candidates deleted by the matching filter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filtered: Option<u64>,
    /// Largest layer of a dynamic program.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub states: Option<u64>,
    /// Native: nodes refuted by the LP relaxation with an exact Farkas certificate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refuted: Option<u64>,
    /// Native under `solve --certify`: steps of the proof the answering search logged as
    /// it went (one search for the answer and its proof).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof_steps: Option<u64>,
    /// Portfolio: the member whose answer this is (only for a decisive answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// Portfolio: the members set aside while the others went on (one crashed, gave an
    /// answer that could not be read, or returned a tiling that breaks the rules), each
    /// as `` `NAME`: why ``. For standard error, not the JSON report.
    #[serde(skip)]
    #[schemars(skip)]
    pub set_aside: Vec<String>,
}

/// The end of one backend run.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Why the search ended; only `Exhausted` supports `unsat` or `unique`.
    pub ending: Ending,
    /// The work the backend reports having done.
    pub counters: Counters,
}

/// A count from a backend that counts directly.
#[derive(Debug, Clone)]
pub struct ExactCount {
    /// Exact when `ending` is `Exhausted`, otherwise a lower bound.
    pub count: BigUint,
    /// Why counting ended; the count is exact only when it is `Exhausted`.
    pub ending: Ending,
    /// The work the backend reports having done.
    pub counters: Counters,
}

/// How a run ended, as a race records it (the `end` column of `runs.csv`): an answer's
/// [`Ending`], or the kind of a failure ([`crate::backend::BackendError::end`]).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum End {
    /// The backend answered its question (its search was exhausted, or it found what was
    /// asked).
    Done,
    /// The time limit came first.
    Timeout,
    /// Another cap came first (kept tilings, a solver's own limits).
    Capped,
    /// A program ran out of the `--memory` limit.
    Memout,
    /// A program was killed by a signal; its answer was not trusted.
    Crash,
    /// Any other failure: a refusal, a solver error, a tiling that breaks the rules.
    Error,
}

impl End {
    /// Every end, in the order tables list them.
    pub const ALL: [End; 6] = [
        End::Done,
        End::Timeout,
        End::Capped,
        End::Memout,
        End::Crash,
        End::Error,
    ];

    /// How it is written in `runs.csv`.
    pub fn name(self) -> &'static str {
        match self {
            End::Done => "done",
            End::Timeout => "timeout",
            End::Capped => "capped",
            End::Memout => "memout",
            End::Crash => "crash",
            End::Error => "error",
        }
    }

    /// The inverse of [`End::name`].
    pub fn from_name(name: &str) -> Option<End> {
        End::ALL.into_iter().find(|e| e.name() == name)
    }
}

impl Ending {
    /// How the ending is written in reports (`stats.stopped`): its serde name.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Exhausted => "exhausted",
            Ending::Stopped => "stopped",
            Ending::Timeout => "timeout",
            Ending::Capped => "capped",
        }
    }

    /// How a run that ended so is recorded.
    pub fn end(self) -> End {
        match self {
            Ending::Exhausted | Ending::Stopped => End::Done,
            Ending::Timeout => End::Timeout,
            Ending::Capped => End::Capped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ending_is_named_as_serde_writes_it() {
        for ending in [
            Ending::Exhausted,
            Ending::Stopped,
            Ending::Timeout,
            Ending::Capped,
        ] {
            let serde = serde_json::to_string(&ending).expect("an ending serializes");
            assert_eq!(serde, format!("\"{}\"", ending.name()));
        }
    }
}
