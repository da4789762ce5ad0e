//! The FORMAT.md status table, derived in one place from the evidence.

use serde::Serialize;

/// The FORMAT.md statuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// At least one solution found; the search stopped at the limit without being
    /// exhausted.
    Sat,
    /// Exactly one solution, and the search was exhausted.
    Unique,
    /// Two or more solutions found.
    Multiple,
    /// No solution, and the search was exhausted: a proof, never a guess.
    Unsat,
    /// The time limit or another cap stopped the search before it answered its question.
    Unknown,
}

impl Status {
    /// How the status is written in reports (FORMAT.md): `sat`, `unique`, `multiple`,
    /// `unsat` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
        }
    }

    /// The inverse of [`Status::name`].
    pub fn from_name(name: &str) -> Option<Status> {
        [
            Status::Sat,
            Status::Unique,
            Status::Multiple,
            Status::Unsat,
            Status::Unknown,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }

    /// Derives the status from the evidence: how many solutions were found, whether
    /// the search was exhausted, and the limit asked for (0: all).
    ///
    /// Zero solutions is `unsat` only when exhausted. One solution without exhaustion
    /// is `sat` only when one was all that was asked; a uniqueness check (or a full
    /// enumeration) cut short after one solution has not answered its question, so it
    /// is `unknown`, its solution still shown.
    pub fn from_evidence(found: u64, exhausted: bool, limit: usize) -> Status {
        match (found, exhausted) {
            (0, true) => Status::Unsat,
            (1, true) => Status::Unique,
            (1, false) if limit == 1 => Status::Sat,
            (0 | 1, false) => Status::Unknown,
            _ => Status::Multiple,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_table() {
        use Status::*;
        // (found, exhausted, limit) -> status
        let table = [
            (0, true, 1, Unsat),
            (0, true, 0, Unsat),
            (0, false, 1, Unknown),
            (0, false, 2, Unknown),
            (1, false, 1, Sat),
            (1, false, 2, Unknown),
            (1, false, 0, Unknown),
            (1, true, 2, Unique),
            (1, true, 0, Unique),
            (2, false, 2, Multiple),
            (2, true, 0, Multiple),
            (5, false, 0, Multiple),
        ];
        for (found, exhausted, limit, status) in table {
            assert_eq!(
                Status::from_evidence(found, exhausted, limit),
                status,
                "{found} {exhausted} {limit}"
            );
        }
    }
}
