//! The descriptor file of an external program (TOML).
//!
//! ```toml
//! name = "cadical"
//! about = "CaDiCaL SAT solver (Debian package cadical)"
//! reads = "dimacs"                      # or "lp"
//! command = ["cadical", "-q", "{input}"]
//! time_limit = ["-t", "{seconds}"]      # optional, inserted after the program name,
//!                                       # or where `command` has an element "{time_limit}"
//! version = ["cadical", "--version"]    # optional
//! answer = "competition"                # competition | minisat | cbc | glpsol | pb | minizinc
//! proof = ["--no-binary", "{proof}"]    # optional: how it writes a DRAT proof
//! ```
//!
//! Placeholders: `{input}` the model file, `{output}` a file for the answer, `{seconds}`
//! the time left, in whole seconds rounded up, `{proof}` (in `proof` only) the proof file.

use std::path::Path;
use std::process::Command;

use serde::Deserialize;

use crate::lower::Format;
use crate::time::Instant;

/// A `command` element that stands for the time-limit arguments, for programs that
/// take them only after some other argument; without it they follow the program name.
pub const TIME_LIMIT_SLOT: &str = "{time_limit}";

/// The placeholder of a descriptor's `proof` arguments for the proof file.
pub const PROOF_SLOT: &str = "{proof}";

/// How to read the program's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnswerFormat {
    /// SAT-competition `s` and `v` lines on standard output (exit 10/20).
    Competition,
    /// MiniSat's result file `{output}`: `SAT` and a model line, `UNSAT`, or `INDET`.
    Minisat,
    /// CBC's `solu` file `{output}`: a status line, then `index name value ...` rows.
    Cbc,
    /// glpsol's printable report `{output}` (`-o`): a `Status:` line and named columns.
    Glpsol,
    /// The pseudo-Boolean competition's output on standard output: an `s` line and `v`
    /// lines of `xK`/`-xK` literals (exit status 0, 10, 20 or 30).
    Pb,
    /// MiniZinc's output on standard output: `name = value;` lines of a solution ended
    /// by `----------`, or `=====UNSATISFIABLE=====` or `=====UNKNOWN=====`.
    Minizinc,
}

/// One external program.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Descriptor {
    /// The backend name it is chosen by (`--backend NAME`): letters, digits, `-`, `_` or
    /// `.`, and never a built-in backend's.
    pub name: String,
    /// What the program is, in one line, for `dominofit backends`.
    #[serde(default)]
    pub about: String,
    /// What the program reads: `dimacs` or `lp` (a [`Format`] that an answer format
    /// below goes with).
    pub reads: Format,
    /// The program and its arguments, with placeholders; it must mention `{input}`, and
    /// `{output}` when the answer is read from a file.
    pub command: Vec<String>,
    /// Arguments that pass the time left (`{seconds}`), placed after the program name or
    /// at `{time_limit}`; empty when the program takes none (it is killed at the deadline
    /// all the same).
    #[serde(default)]
    pub time_limit: Vec<String>,
    /// The command that prints the program's version for `dominofit backends`; empty: the
    /// program with `--version`.
    #[serde(default)]
    pub version: Vec<String>,
    /// Arguments, appended to `command`, that make the program write a DRAT proof of
    /// unsatisfiability to `{proof}` (for `solve --certify --prover NAME`); empty when it
    /// writes none.
    #[serde(default)]
    pub proof: Vec<String>,
    /// Where and how the program gives its verdict; it must go with `reads`.
    pub answer: AnswerFormat,
}

/// A descriptor that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DescriptorError {
    /// The descriptor does not parse, or could never run.
    #[error("{path}: {message}")]
    Invalid {
        /// The descriptor file, as shown to the user.
        path: String,
        /// What is wrong (with the line, for a TOML error).
        message: String,
    },
    /// The descriptor file, or the user directory, could not be read.
    #[error("{path}: cannot read: {message}")]
    Io {
        /// The file or directory, as shown to the user.
        path: String,
        /// The system's error.
        message: String,
    },
}

impl Descriptor {
    /// Parses and checks a descriptor.
    ///
    /// # Errors
    /// Malformed TOML, unknown fields, or a descriptor that could never run.
    pub fn parse(text: &str, path: &str) -> Result<Descriptor, DescriptorError> {
        let invalid = |message: String| DescriptorError::Invalid {
            path: path.to_string(),
            message,
        };
        let d: Descriptor = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1);
            invalid(match line {
                Some(line) => format!(
                    "line {line}: {}",
                    e.message().trim_end().replace('\n', "; ")
                ),
                None => e.message().trim_end().replace('\n', "; "),
            })
        })?;
        if d.name.is_empty()
            || !d
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            return Err(invalid(format!(
                "`name` must be letters, digits, `-`, `_` or `.`, not {:?}",
                d.name
            )));
        }
        if d.command.is_empty() {
            return Err(invalid("`command` is empty".to_string()));
        }
        if !d.command.iter().any(|a| a.contains("{input}")) {
            return Err(invalid("`command` never mentions {input}".to_string()));
        }
        let needs_output = matches!(
            d.answer,
            AnswerFormat::Minisat | AnswerFormat::Cbc | AnswerFormat::Glpsol
        );
        if needs_output && !d.command.iter().any(|a| a.contains("{output}")) {
            return Err(invalid(
                "this answer format is read from {output}, which `command` never mentions"
                    .to_string(),
            ));
        }
        let slots = d.command.iter().filter(|a| *a == TIME_LIMIT_SLOT).count();
        if slots > 1 || d.command[0] == TIME_LIMIT_SLOT {
            return Err(invalid(
                "{time_limit} may stand once in `command`, after the program".to_string(),
            ));
        }
        if !d.time_limit.is_empty() && !d.time_limit.iter().any(|a| a.contains("{seconds}")) {
            return Err(invalid("`time_limit` never mentions {seconds}".to_string()));
        }
        if !d.proof.is_empty() {
            if !d.proof.iter().any(|a| a.contains(PROOF_SLOT)) {
                return Err(invalid("`proof` never mentions {proof}".to_string()));
            }
            if d.answer != AnswerFormat::Competition {
                return Err(invalid(
                    "`proof` goes only with the competition answer format".to_string(),
                ));
            }
            if d.command.iter().any(|a| a.contains("{output}")) {
                return Err(invalid(
                    "with `proof`, the proof file takes {output}: `command` may not use it"
                        .to_string(),
                ));
            }
        }
        let fits = matches!(
            (d.reads, d.answer),
            (
                Format::Dimacs,
                AnswerFormat::Competition | AnswerFormat::Minisat
            ) | (
                Format::Lp | Format::Mps,
                AnswerFormat::Cbc | AnswerFormat::Glpsol
            ) | (Format::Opb, AnswerFormat::Pb)
                | (Format::Mzn, AnswerFormat::Minizinc)
        );
        if !fits {
            return Err(invalid(format!(
                "answer format {:?} does not go with input {:?}",
                d.answer, d.reads
            )));
        }
        Ok(d)
    }

    /// The command line of one run on `input`, its answer file `output` and the time
    /// left until `deadline` (`{seconds}`, in whole seconds rounded up).
    pub fn command_line(&self, input: &Path, output: &Path, deadline: Option<Instant>) -> Command {
        let seconds = deadline.map(|d| d.saturating_duration_since(Instant::now()).as_secs() + 1);
        let limit: Vec<String> = match seconds {
            Some(seconds) => self
                .time_limit
                .iter()
                .map(|a| expand(a, input, output, seconds))
                .collect(),
            None => Vec::new(),
        };
        let mut args: Vec<String> = Vec::new();
        if !self.command.iter().any(|a| a == TIME_LIMIT_SLOT) {
            args.extend(limit.iter().cloned());
        }
        for a in &self.command[1..] {
            if a == TIME_LIMIT_SLOT {
                args.extend(limit.iter().cloned());
            } else {
                args.push(expand(a, input, output, seconds.unwrap_or(0)));
            }
        }
        let mut command = Command::new(&self.command[0]);
        command.args(args);
        command
    }

    /// The same program writing a DRAT proof: `proof`'s arguments appended, the proof
    /// file in the place of `{output}` (placeholders are expanded in one pass, so a path
    /// is never read as one).
    pub fn proving(&self) -> Descriptor {
        let mut d = self.clone();
        d.command
            .extend(d.proof.iter().map(|a| a.replace(PROOF_SLOT, "{output}")));
        d
    }

    /// The command that prints its version: `version`, else the program with
    /// `--version`.
    pub fn version_command(&self) -> Vec<String> {
        if self.version.is_empty() {
            vec![self.command[0].clone(), "--version".to_string()]
        } else {
            self.version.clone()
        }
    }
}

/// Replaces the placeholders in one argument, in one pass: text put in for one (a path)
/// is never read as another placeholder.
fn expand(arg: &str, input: &Path, output: &Path, seconds: u64) -> String {
    let slots = [
        ("{input}", input.display().to_string()),
        ("{output}", output.display().to_string()),
        ("{seconds}", seconds.to_string()),
    ];
    let mut out = String::with_capacity(arg.len());
    let mut rest = arg;
    'scan: while !rest.is_empty() {
        for (slot, value) in &slots {
            if let Some(after) = rest.strip_prefix(slot) {
                out.push_str(value);
                rest = after;
                continue 'scan;
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::expand;
    use std::path::Path;

    /// A path is data: one that contains a placeholder's text is put in as it is.
    #[test]
    fn placeholders_are_expanded_in_one_pass() {
        let input = Path::new("/runs/{output}/in.cnf");
        let output = Path::new("/runs/{input}/out");
        assert_eq!(expand("{input}", input, output, 7), "/runs/{output}/in.cnf");
        assert_eq!(
            expand("--out={output}:{seconds}s", input, output, 7),
            "--out=/runs/{input}/out:7s"
        );
        assert_eq!(expand("{input", input, output, 7), "{input");
        assert_eq!(expand("é{seconds}é", input, output, 12), "é12é");
    }
}
