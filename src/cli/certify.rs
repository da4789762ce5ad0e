//! `solve --certify`, `check-certificate` and the `worker-prove` process.

use super::args::*;
use super::errors::UsageError;
use super::files;
use super::say::say;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use dominofit::backend::Status;
use dominofit::escape::terminal;
use dominofit::time::Instant;

use dominofit::puzzle::Instance;

use dominofit::backend::{Backend, BackendError};
use dominofit::certify::check::{self, Checker};
use dominofit::certify::pb::answer::{self, LoggedProof};
use dominofit::certify::{self, CertifyError, ProofSystem, Prover};
use dominofit::driver::{self, Report, Request};

/// Where `solve --certify` writes, checked before any board is solved.
pub(super) struct Certifier {
    dir: PathBuf,
    prover: Prover,
    timeout: Option<Duration>,
}

impl Certifier {
    /// The prover by name, and `dir` ready to be written in; board names that would
    /// share a bundle are refused now.
    pub(super) fn new(
        dir: &Path,
        prover: &str,
        timeout: Option<Duration>,
        instances: &[Instance],
    ) -> Result<Certifier> {
        let prover = Prover::named(prover).map_err(|e| UsageError(terminal(&e.to_string())))?;
        files::one_file_per_board(instances, "")?;
        files::check_output_dir(dir, &[])?;
        // A bundle replaces an earlier bundle of the same board; anything else in its
        // place is refused now, not after the board was solved and proved.
        for instance in instances {
            let place = dir.join(dominofit::escape::file_stem(&instance.name));
            let earlier = place.join(certify::files::MANIFEST).is_file();
            if place.symlink_metadata().is_ok() && !earlier {
                bail!(
                    "{} is in the way of the certificate of `{}`: it exists and is not a \
                     certificate bundle; move it or choose another directory",
                    terminal(&place.display().to_string()),
                    terminal(&instance.name)
                );
            }
        }
        Ok(Certifier {
            dir: dir.to_path_buf(),
            prover,
            timeout,
        })
    }

    /// The certificate of one answer, with a line on standard error saying where it
    /// went; `Err` for a board with no certificate (the caller counts it as failed).
    pub(super) fn certify(
        &self,
        instance: &Instance,
        report: &Report,
        logged: Option<LoggedProof>,
    ) -> Result<(), CertifyError> {
        if report.status == Status::Unknown {
            return Ok(());
        }
        self.certify_claim(
            instance,
            certify::Claim {
                status: report.status,
                solutions: &report.solutions,
                backend: &report.header.backend,
                logged,
            },
        )
    }

    /// The answer of `backend`, with the proof its own search logged where it can log
    /// one: with VeriPB, a native backend or a portfolio of them searches once for the
    /// answer and its proof.
    pub(super) fn answer(
        &self,
        instance: &Instance,
        backend: &dyn Backend,
        request: &Request,
    ) -> Result<(Report, Option<LoggedProof>), BackendError> {
        if self.prover.proof_system() == ProofSystem::Veripb
            && let Some(answer) = answer::answer(instance, backend, request, &self.dir)?
        {
            return Ok((answer.report, answer.proof));
        }
        Ok((driver::run(instance, backend, request)?, None))
    }

    /// The certificate of `status` with these tilings, as `backend` answered it.
    pub(super) fn certify_answer(
        &self,
        instance: &Instance,
        status: Status,
        solutions: &[dominofit::puzzle::Solution],
        backend: &str,
    ) -> Result<(), CertifyError> {
        self.certify_claim(
            instance,
            certify::Claim {
                status,
                solutions,
                backend,
                logged: None,
            },
        )
    }

    /// The certificate of `claim`.
    fn certify_claim(
        &self,
        instance: &Instance,
        claim: certify::Claim,
    ) -> Result<(), CertifyError> {
        let status = claim.status;
        let deadline = self.timeout.map(|t| Instant::now() + t);
        let written =
            certify::write_certificate(instance, claim, &self.prover, deadline, &self.dir)?;
        let proof = if written.proof_bytes > 0 {
            let system = self.prover.proof_system();
            // One search or two: the proof the answer's search logged, or a search of
            // the prover's own after the answer.
            let by = if written.logged {
                "logged by the answer's search, one search".to_string()
            } else {
                format!(
                    "by {} in {:.1} ms",
                    self.prover.name(),
                    written.time.as_secs_f64() * 1e3
                )
            };
            format!(
                ", {} {}, {} {} {by}",
                system.rules_file(),
                dominofit::memory::human(written.rules_bytes),
                system.proof_file(),
                dominofit::memory::human(written.proof_bytes),
            )
        } else {
            String::new()
        };
        say!(
            "certificate: {} ({}{proof})",
            terminal(&written.dir.display().to_string()),
            status.name()
        );
        Ok(())
    }
}

pub(super) fn check_certificate(args: CheckCertificateArgs) -> Result<ExitCode> {
    // Looked for at the first proof of each system: bundles of tilings alone need no
    // checker, nor DRAT bundles VeriPB.
    let drat = std::cell::OnceCell::new();
    let veripb = std::cell::OnceCell::new();
    let checker = |system: ProofSystem| {
        let (found, named) = match system {
            ProofSystem::Drat => (&drat, args.checker.as_deref()),
            ProofSystem::Veripb => (&veripb, args.veripb.as_deref()),
        };
        match found.get_or_init(|| Checker::find(system, named).ok()) {
            Some(checker) => Ok(checker.clone()),
            // Looked for again for its error, which says what was missing.
            None => Err(Checker::find(system, named)
                .err()
                .unwrap_or(check::CheckError::NoChecker(system))),
        }
    };
    let mut bundles = Vec::new();
    for dir in &args.dirs {
        let found = check::bundles_in(dir)
            .with_context(|| format!("cannot read {}", terminal(&dir.display().to_string())))?;
        if found.is_empty() {
            bail!(
                "{}: no certificate bundle (a directory holding certificate.json, or a \
                 directory of them)",
                terminal(&dir.display().to_string())
            );
        }
        bundles.extend(found);
    }
    let mut stdout = std::io::stdout().lock();
    let mut all_accepted = true;
    for bundle in &bundles {
        let deadline = args.timeout.map(|t| Instant::now() + t);
        let shown = terminal(&bundle.display().to_string());
        match check::check_bundle(bundle, &checker, deadline)? {
            Ok(accepted) if let Some(system) = accepted.system => writeln!(
                stdout,
                "{shown}: accepted: {} `{}` ({} rebuilt, {} constraints; {} {} verified by {} \
                 in {:.1} ms)",
                accepted.status,
                terminal(&accepted.name),
                system.rules_file(),
                accepted.constraints,
                system.proof_file(),
                dominofit::memory::human(accepted.proof_bytes),
                checker(system)?.name(),
                accepted.check_time.as_secs_f64() * 1e3
            )?,
            Ok(accepted) => writeln!(
                stdout,
                "{shown}: accepted: {} `{}` (tilings verified)",
                accepted.status,
                terminal(&accepted.name)
            )?,
            Err(rejection) => {
                all_accepted = false;
                writeln!(
                    stdout,
                    "{shown}: rejected: {}",
                    terminal(&rejection.to_string())
                )?;
            }
        }
    }
    Ok(if all_accepted {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The worker's side: varisat with its DRAT proof, answering as a SAT solver does (exit
/// 10 or 20, an `s` line).
pub(super) fn worker_prove(args: WorkerProveArgs) -> Result<ExitCode> {
    match certify::prove::prove_in_process(&args.file, &args.proof)? {
        certify::ProverVerdict::Refuted => {
            writeln!(std::io::stdout().lock(), "s UNSATISFIABLE")?;
            Ok(ExitCode::from(20))
        }
        certify::ProverVerdict::Satisfiable(model) => {
            let mut out = String::from("s SATISFIABLE\nv");
            for var in model {
                out.push_str(&format!(" {var}"));
            }
            out.push_str(" 0");
            writeln!(std::io::stdout().lock(), "{out}")?;
            Ok(ExitCode::from(10))
        }
        certify::ProverVerdict::Unknown(reason) => {
            writeln!(std::io::stdout().lock(), "s UNKNOWN")?;
            say!("{reason}");
            Ok(ExitCode::SUCCESS)
        }
    }
}
