//! The proof checkers a bundle's refutation goes to: VeriPB for cutting planes, `rate` or
//! `drat-trim` for DRAT, found on the `PATH` or named, run through [`crate::process`].

use std::path::{Path, PathBuf};

use super::bundle::ProofSystem;
use crate::process::{self, RunError};
use crate::time::Instant;

/// DRAT checkers looked for on the `PATH`, in this order, when none is named.
pub const CHECKERS: [&str; 2] = ["rate", "drat-trim"];

/// The VeriPB checker looked for on the `PATH` when none is named.
pub const VERIPB: &str = "veripb";

/// Why a bundle could not be checked at all.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// No checker of the bundle's proof system to run.
    #[error("{}", match .0 {
        ProofSystem::Drat => "no DRAT checker found: install rate (`cargo install rate`, or \
            scripts/install-solvers.sh) or drat-trim, or name one with --checker",
        ProofSystem::Veripb => "no VeriPB checker found: install veripb (`cargo install \
            --locked veripb`, or scripts/install-solvers.sh), or name it with --veripb",
    })]
    NoChecker(ProofSystem),
    /// The checker the user named is not a program that exists.
    #[error("the checker `{program}` named with {option} is not a file{}", if .program.contains('/') { "" } else { " on the PATH" })]
    NamedMissing {
        /// The program, as named (escaped for the terminal).
        program: String,
        /// The option that named it.
        option: &'static str,
    },
    /// The private copy of the formula for the checker could not be written.
    #[error("cannot write a private copy of the formula: {source}")]
    Private {
        /// The system's error.
        source: std::io::Error,
    },
    /// The checker could not run.
    #[error("the checker {checker}: {source}")]
    Checker {
        /// The checker.
        checker: String,
        /// Why.
        source: RunError,
    },
}

/// A proof checker: a program taking `FORMULA PROOF`, of one proof system.
#[derive(Debug, Clone)]
pub struct Checker {
    program: PathBuf,
    system: ProofSystem,
}

impl Checker {
    /// `program` (a path, or a name looked up on the `PATH`), or the first of
    /// [`CHECKERS`] (DRAT) or [`VERIPB`] on the `PATH`.
    ///
    /// # Errors
    /// None is found.
    pub fn find(system: ProofSystem, program: Option<&str>) -> Result<Checker, CheckError> {
        let defaults: &[&str] = match system {
            ProofSystem::Drat => &CHECKERS,
            ProofSystem::Veripb => &[VERIPB],
        };
        let found = match program {
            Some(p) if p.contains('/') => Path::new(p).is_file().then(|| PathBuf::from(p)),
            Some(p) => on_path(p),
            None => defaults.iter().find_map(|p| on_path(p)),
        };
        match (found, program) {
            (Some(program), _) => Ok(Checker { program, system }),
            (None, Some(named)) => Err(CheckError::NamedMissing {
                program: crate::escape::terminal(named),
                option: match system {
                    ProofSystem::Drat => "--checker",
                    ProofSystem::Veripb => "--veripb",
                },
            }),
            (None, None) => Err(CheckError::NoChecker(system)),
        }
    }

    /// The program's file name.
    pub fn name(&self) -> String {
        self.program
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    }

    /// Runs the checker; `Ok(Err(said))` when it does not verify.
    pub(super) fn run(
        &self,
        cnf: &Path,
        proof: &Path,
        deadline: Option<Instant>,
    ) -> Result<Result<(), String>, CheckError> {
        let mut command = std::process::Command::new(&self.program);
        command.arg(cnf).arg(proof);
        // VeriPB and rate are Rust programs: under the caller's `RUST_BACKTRACE` a
        // rejection ends in a backtrace, whose last line would stand for the reason.
        command
            .env_remove("RUST_BACKTRACE")
            .env_remove("RUST_LIB_BACKTRACE");
        let limits = process::Limits {
            deadline,
            stop: &|| false,
            max_stdout: 1 << 20,
            stdout_is_answer: false,
            scratch: None,
        };
        let run = process::run(command, limits).map_err(|source| CheckError::Checker {
            checker: self.name(),
            source,
        })?;
        if run.timed_out {
            return Ok(Err("the time limit ran out".to_string()));
        }
        let said = |line: &str| run.stdout.lines().any(|l| l.trim_end() == line);
        let accepted = match self.system {
            // A verdict with exit status 0 (rate and drat-trim both exit 0 on success).
            // drat-trim's one exception: a formula its parser already finds trivially
            // unsatisfiable is reported `c trivial UNSAT`, `s VERIFIED`, and exits 1.
            ProofSystem::Drat => {
                let code = run.status.and_then(|s| s.code());
                let trivial =
                    code == Some(1) && run.stdout.lines().any(|l| l.trim() == "c trivial UNSAT");
                said("s VERIFIED") && !said("s NOT VERIFIED") && (code == Some(0) || trivial)
            }
            // A verified proof of less than unsatisfiability (`conclusion NONE`) is no
            // refutation; nor is a verdict without exit status 0.
            ProofSystem::Veripb => {
                said("s VERIFIED UNSATISFIABLE") && run.status.is_some_and(|s| s.success())
            }
        };
        if accepted {
            return Ok(Ok(()));
        }
        let verdict = match self.system {
            ProofSystem::Drat => "s VERIFIED",
            ProofSystem::Veripb => "s VERIFIED UNSATISFIABLE",
        };
        if said(verdict) && !said("s NOT VERIFIED") {
            // It said yes, and its exit status said otherwise: say which.
            use std::os::unix::process::ExitStatusExt;
            let how = match run.status {
                Some(status) => match (status.code(), status.signal()) {
                    (Some(code), _) => format!("exited with status {code}"),
                    (None, Some(signal)) => format!("was killed by signal {signal}"),
                    (None, None) => "ended abnormally".to_string(),
                },
                None => "left no exit status".to_string(),
            };
            return Ok(Err(format!("it printed `{verdict}` but {how}")));
        }
        Ok(Err(crate::escape::terminal(&last_words(
            &run.stdout,
            &run.stderr,
        ))))
    }
}

/// The reason a checker gives for a rejection: its last words. A parse error (VeriPB's)
/// ends with the offending line and carets under it, so the reason is the line above
/// those two, shown with the offending line.
fn last_words(stdout: &str, stderr: &str) -> String {
    let lines: Vec<&str> = (stdout.lines().chain(stderr.lines()))
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    let Some(&last) = lines.last() else {
        return "no verdict".to_string();
    };
    let k = lines.len() - 1;
    let carets = last.trim().chars().all(|c| c == '^' || c == '~');
    if carets && k >= 2 {
        return format!("{} (in `{}`)", lines[k - 2].trim(), lines[k - 1].trim());
    }
    last.trim().to_string()
}

/// A program of that name in a directory of the `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

#[cfg(test)]
mod last_words_tests {
    use super::last_words;

    #[test]
    fn a_parse_error_is_the_line_above_the_carets() {
        let err = "Error: Expected ';' at line 3 col 7.\nrup 1 x1 >= 1\n      ^\n";
        assert_eq!(
            last_words("", err),
            "Error: Expected ';' at line 3 col 7. (in `rup 1 x1 >= 1`)"
        );
        assert_eq!(last_words("s NOT VERIFIED\n", ""), "s NOT VERIFIED");
        assert_eq!(last_words("", "\n\n"), "no verdict");
    }
}
