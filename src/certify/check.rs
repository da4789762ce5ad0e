//! Checking a certificate bundle, trusting none of what wrote it.
//!
//! The board is read from the bundle; the tilings are checked by the raw-rules
//! verifier; the rules (OPB for a VeriPB proof, CNF for a DRAT proof) are rebuilt from
//! the board and must equal the bundle's byte for byte (so the proof refutes the
//! board's rules, not some other formula); the proof goes to an external checker:
//! VeriPB, whose `s VERIFIED UNSATISFIABLE` with exit status 0 is the only way to
//! acceptance (a proof that concludes less is no refutation), or a DRAT checker
//! (`rate`, `drat-trim`) and its `s VERIFIED`. A missing checker is an error, never a
//! pass.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::bundle::{KIND, Manifest, ProofSystem, VERSION, files};
pub use super::checker::{CHECKERS, CheckError, Checker, VERIPB};
use crate::puzzle::parse::{InputError, parse_instances, parse_solutions};
use crate::puzzle::verify::{Violation, verify};
use crate::time::Instant;

/// Why a bundle is rejected: each names what failed.
#[derive(Debug, thiserror::Error)]
pub enum Rejection {
    /// A file of the bundle is missing or unreadable.
    #[error("{file}: {message}")]
    Unreadable {
        /// The file.
        file: &'static str,
        /// What went wrong.
        message: String,
    },
    /// `certificate.json` is not a manifest this build reads.
    #[error("certificate.json: {0}")]
    Manifest(String),
    /// An entry of the directory given that is no bundle: every entry must be one.
    #[error("not a certificate bundle: {0}")]
    NotBundle(&'static str),
    /// `instance.json` is not a valid board.
    #[error(transparent)]
    Instance(InputError),
    /// The manifest names another board than `instance.json`.
    #[error("certificate.json names the board `{manifest}`, instance.json `{instance}`")]
    NameMismatch {
        /// The manifest's name.
        manifest: String,
        /// The instance's name.
        instance: String,
    },
    /// `solutions.jsonl` does not parse.
    #[error(transparent)]
    Solutions(InputError),
    /// The status needs another number of tilings.
    #[error("a {status} certificate holds {needed} tilings in solutions.jsonl, this one {found}")]
    TilingCount {
        /// The claimed status.
        status: String,
        /// Tilings it needs.
        needed: usize,
        /// Tilings there.
        found: usize,
    },
    /// A tiling breaks the rules of the board.
    #[error("tiling {index} of solutions.jsonl is not a solution: {violation}")]
    Tiling {
        /// One-based position in the file.
        index: usize,
        /// The broken rule.
        violation: Violation,
    },
    /// The two tilings of a `multiple` certificate are the same.
    #[error("the two tilings of solutions.jsonl are the same")]
    SameTilings,
    /// The rules file is not the rules of the board (with the tiling blocked).
    #[error("{file} is not the raw rules of instance.json{blocked}: {difference}")]
    RulesDiffer {
        /// `rules.opb` or `rules.cnf`.
        file: &'static str,
        /// `" with its tiling blocked"` for `unique`.
        blocked: &'static str,
        /// Where they part.
        difference: String,
    },
    /// The rules of the board could not be rebuilt (too large for the memory budget).
    #[error("cannot rebuild the rules CNF: {0}")]
    Rebuild(String),
    /// The checker did not verify the proof.
    #[error("{checker} did not verify {file}: {said}")]
    Proof {
        /// The checker.
        checker: String,
        /// `proof.pbp` or `proof.drat`.
        file: &'static str,
        /// Its last words.
        said: String,
    },
}

/// A bundle that passed.
#[derive(Debug, Clone)]
pub struct Accepted {
    /// The board's name.
    pub name: String,
    /// The certified status.
    pub status: String,
    /// The proof system of its proof, if it has one.
    pub system: Option<ProofSystem>,
    /// Constraints of the rules (clauses of `rules.cnf`, lines of `rules.opb`; 0
    /// without a proof).
    pub constraints: usize,
    /// Bytes of the proof (0 without one).
    pub proof_bytes: u64,
    /// Time the checker took (zero without a proof).
    pub check_time: Duration,
}

/// Checks the bundle in `dir`: `Ok(Ok(_))` accepted, `Ok(Err(_))` rejected with the
/// reason. `checker` is asked for the checker of the bundle's proof system only when
/// there is a proof to check, so that bundles of tilings alone need none.
///
/// # Errors
/// No checker, or it could not run.
pub fn check_bundle(
    dir: &Path,
    checker: &dyn Fn(ProofSystem) -> Result<Checker, CheckError>,
    deadline: Option<Instant>,
) -> Result<Result<Accepted, Rejection>, CheckError> {
    let read = |file: &'static str| read_small(&dir.join(file), file);
    if is_unfinished(dir) {
        return Ok(Err(Rejection::NotBundle(
            "an unfinished bundle (`.partial-…` is the name a bundle has while it is \
             written); not checked",
        )));
    }
    if !dir.is_dir() {
        return Ok(Err(Rejection::NotBundle("a file, not a directory")));
    }
    if !dir.join(files::MANIFEST).exists() {
        return Ok(Err(Rejection::NotBundle(
            "a directory without certificate.json",
        )));
    }
    type Settled = (
        Manifest,
        crate::puzzle::Instance,
        usize,
        Option<ProofSystem>,
    );
    let settled = || -> Result<Settled, Rejection> {
        let manifest: Manifest = serde_json::from_str(&read(files::MANIFEST)?)
            .map_err(|e| Rejection::Manifest(e.to_string()))?;
        if manifest.certificate != KIND || !(1..=VERSION).contains(&manifest.version) {
            return Err(Rejection::Manifest(format!(
                "not a {KIND} of version 1 to {VERSION} (found {} version {})",
                crate::escape::terminal(&manifest.certificate),
                manifest.version
            )));
        }
        let mut boards =
            parse_instances(&read(files::INSTANCE)?, files::INSTANCE, "instance", false)
                .map_err(Rejection::Instance)?;
        let instance = boards.remove(0);
        if instance.name != manifest.name {
            return Err(Rejection::NameMismatch {
                manifest: crate::escape::terminal(&manifest.name),
                instance: crate::escape::terminal(&instance.name),
            });
        }
        let (needed, proved) = match manifest.status.as_str() {
            "sat" => (1, false),
            "unique" => (1, true),
            "multiple" => (2, false),
            "unsat" => (0, true),
            other => {
                return Err(Rejection::Manifest(format!(
                    "status `{}` is none of sat, unique, multiple, unsat",
                    crate::escape::terminal(other)
                )));
            }
        };
        // Version 1 bundles have DRAT proofs and do not say so.
        let system = match (proved, manifest.version, manifest.proof_system.as_deref()) {
            (false, _, None) => None,
            (false, _, Some(_)) => {
                return Err(Rejection::Manifest(format!(
                    "a {} certificate has no proof, and names a proof system",
                    manifest.status
                )));
            }
            (true, 1, None) => Some(ProofSystem::Drat),
            (true, _, Some(name)) => Some(ProofSystem::named(name).ok_or_else(|| {
                Rejection::Manifest(format!(
                    "proof system `{}` is neither veripb nor drat",
                    crate::escape::terminal(name)
                ))
            })?),
            (true, _, None) => {
                return Err(Rejection::Manifest(
                    "no proof_system for the proof of a version 2 certificate".to_string(),
                ));
            }
        };
        Ok((manifest, instance, needed, system))
    };
    let (manifest, instance, needed, system) = match settled() {
        Ok(settled) => settled,
        Err(rejection) => return Ok(Err(rejection)),
    };
    let tilings = if needed == 0 && !dir.join(files::SOLUTIONS).exists() {
        Vec::new()
    } else {
        match read(files::SOLUTIONS).and_then(|text| {
            parse_solutions(&text, files::SOLUTIONS, true).map_err(Rejection::Solutions)
        }) {
            Ok(tilings) => tilings,
            Err(rejection) => return Ok(Err(rejection)),
        }
    };
    if tilings.len() != needed {
        return Ok(Err(Rejection::TilingCount {
            status: manifest.status,
            needed,
            found: tilings.len(),
        }));
    }
    for (k, tiling) in tilings.iter().enumerate() {
        if let Err(violation) = verify(&instance, tiling) {
            return Ok(Err(Rejection::Tiling {
                index: k + 1,
                violation,
            }));
        }
    }
    if needed == 2 && tilings[0] == tilings[1] {
        return Ok(Err(Rejection::SameTilings));
    }
    let mut accepted = Accepted {
        name: instance.name.clone(),
        status: manifest.status.clone(),
        system,
        constraints: 0,
        proof_bytes: 0,
        check_time: Duration::ZERO,
    };
    let Some(system) = system else {
        return Ok(Ok(accepted));
    };
    let (rules_file, proof_file) = (system.rules_file(), system.proof_file());
    let rebuilt = match system.rules(&instance, tilings.first()) {
        Ok(rules) => rules,
        Err(e) => return Ok(Err(Rejection::Rebuild(e.to_string()))),
    };
    // Read no more than the rules can hold: a longer file differs anyway.
    let given = match regular_file(&dir.join(rules_file), rules_file).and_then(|_| {
        let mut bytes = Vec::new();
        std::fs::File::open(dir.join(rules_file))
            .and_then(|f| {
                use std::io::Read;
                f.take(rebuilt.len() as u64 + 1).read_to_end(&mut bytes)
            })
            .map(|_| bytes)
            .map_err(|e| Rejection::Unreadable {
                file: rules_file,
                message: e.to_string(),
            })
    }) {
        Ok(bytes) => bytes,
        Err(rejection) => return Ok(Err(rejection)),
    };
    if let Some(difference) = first_difference(rebuilt.as_bytes(), &given) {
        return Ok(Err(Rejection::RulesDiffer {
            file: rules_file,
            blocked: if needed == 1 {
                " with its tiling blocked"
            } else {
                ""
            },
            difference,
        }));
    }
    accepted.constraints = rebuilt.lines().count().saturating_sub(1);
    let proof = match regular_file(&dir.join(proof_file), proof_file).and_then(|len| {
        std::fs::canonicalize(dir.join(proof_file))
            .map(|path| (path, len))
            .map_err(|e| Rejection::Unreadable {
                file: proof_file,
                message: e.to_string(),
            })
    }) {
        Ok((path, len)) => {
            accepted.proof_bytes = len;
            path
        }
        Err(rejection) => return Ok(Err(rejection)),
    };
    // The checker reads the formula just compared, from a private copy: the bundle's
    // file could change between the comparison and the check.
    let formula = crate::interrupt::TempGuard::directory()
        .and_then(|private| {
            let path = private.path().join(rules_file);
            std::fs::write(&path, rebuilt.as_bytes()).map(|()| (private, path))
        })
        .map_err(|source| CheckError::Private { source })?;
    let started = Instant::now();
    let checker = checker(system)?;
    let verdict = checker.run(&formula.1, &proof, deadline)?;
    accepted.check_time = started.elapsed();
    Ok(match verdict {
        Ok(()) => Ok(accepted),
        Err(said) => Err(Rejection::Proof {
            checker: checker.name(),
            file: proof_file,
            said,
        }),
    })
}

/// Most bytes read from a bundle's small files (manifest, board, tilings).
const SMALL_FILE_LIMIT: u64 = 64 << 20;

/// The length of a regular file (a link to one is followed); a directory, a FIFO or a
/// device is rejected before it is read.
fn regular_file(path: &Path, file: &'static str) -> Result<u64, Rejection> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(meta.len()),
        Ok(_) => Err(Rejection::Unreadable {
            file,
            message: "not a regular file".to_string(),
        }),
        Err(e) => Err(Rejection::Unreadable {
            file,
            message: e.to_string(),
        }),
    }
}

/// A small file of the bundle, whole, refused past [`SMALL_FILE_LIMIT`].
fn read_small(path: &Path, file: &'static str) -> Result<String, Rejection> {
    let len = regular_file(path, file)?;
    if len > SMALL_FILE_LIMIT {
        return Err(Rejection::Unreadable {
            file,
            message: format!("{len} bytes, more than a certificate's {SMALL_FILE_LIMIT}"),
        });
    }
    std::fs::read_to_string(path).map_err(|e| Rejection::Unreadable {
        file,
        message: e.to_string(),
    })
}

/// Where two texts part, by line, or `None` when they are equal.
fn first_difference(expected: &[u8], given: &[u8]) -> Option<String> {
    if expected == given {
        return None;
    }
    let mut expected_lines = expected.split(|&b| b == b'\n');
    let mut given_lines = given.split(|&b| b == b'\n');
    let mut line = 1usize;
    loop {
        match (expected_lines.next(), given_lines.next()) {
            (Some(a), Some(b)) if a == b => line += 1,
            (Some(_), Some(_)) => return Some(format!("line {line} differs")),
            (Some(_), None) => return Some(format!("it ends early, at line {line}")),
            (None, Some(_)) => return Some(format!("it goes on past line {}", line - 1)),
            (None, None) => return Some("they differ".to_string()),
        }
    }
}

/// The bundles under `dir`: itself when it holds `certificate.json`, else every entry, in
/// name order, each to be checked as a bundle (one still being written, `.partial-…`,
/// is rejected as unfinished: a name is no proof of what a directory holds).
///
/// # Errors
/// The directory cannot be read.
pub fn bundles_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    if dir.join(files::MANIFEST).is_file() {
        return Ok(vec![dir.to_path_buf()]);
    }
    // Every entry is checked as a bundle, so one that is none (a directory without a
    // manifest, a stray file) is rejected, not passed over: a check that skips what it
    // cannot read would accept a directory of nothing.
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    found.sort();
    Ok(found)
}

/// Whether `dir` has the name of a bundle still being written.
fn is_unfinished(dir: &Path) -> bool {
    dir.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with(".partial-"))
}
