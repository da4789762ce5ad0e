//! `solve`, `count` and `verify`: workloads in, one answer per board out.

use super::args::*;
use super::errors::{UsageError, backend_named};
use super::output;
use super::progress::Progress;
use super::say::say;

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Result, bail};

use dominofit::backend::{Backend, BackendError, Status};
use dominofit::escape::terminal;

use dominofit::driver::{self, Request};
use dominofit::files::{read_instances, read_solutions};
use dominofit::puzzle::Instance;
use dominofit::puzzle::verify::verdict_line;

/// What `solve` and `count` share: the backend, the boards and the request.
fn prepare(common: &Common, limit: usize) -> Result<(Box<dyn Backend>, Vec<Instance>, Request)> {
    // Before the backend is made: the dp backend takes its budget from it.
    dominofit::memory::set_limit(common.memory.map(|mib| mib << 20));
    let backend = backend_named(&common.backend, common.encoding, common.threads)?;
    let request = Request {
        limit,
        timeout: common.timeout,
        families: common.families,
    };
    Ok((backend, read_instances(&common.file)?, request))
}

pub(super) fn solve(args: SolveArgs) -> Result<ExitCode> {
    let (backend, instances, request) = prepare(&args.common, args.limit)?;
    if args.common.format == Format::Jsonl {
        let refused = if args.repeat.is_some() {
            Some("--repeat times whole calls")
        } else if args.certify.is_some() {
            Some("--certify needs the tilings, which jsonl does not keep")
        } else {
            None
        };
        if let Some(why) = refused {
            return Err(UsageError(format!("{why}; it does not go with --format jsonl")).into());
        }
        return solve_streaming(backend.as_ref(), &instances, &request);
    }
    let certifier = match &args.certify {
        Some(dir) => Some(super::certify::Certifier::new(
            dir,
            &args.prover.name,
            args.common.timeout,
            &instances,
        )?),
        None => None,
    };
    let mut stdout = std::io::stdout().lock();
    let mut tally = Tally::default();
    let progress = Progress::new(instances.len());
    for (k, instance) in instances.iter().enumerate() {
        progress.show(k, &instance.name);
        let (result, logged) = match (args.repeat, &certifier) {
            (None, Some(certifier)) => {
                match certifier.answer(instance, backend.as_ref(), &request) {
                    Ok((report, logged)) => (Ok(report), logged),
                    Err(error) => (Err(error), None),
                }
            }
            (None, None) => (driver::run(instance, backend.as_ref(), &request), None),
            (Some(times), _) => (
                driver::run_repeated(instance, backend.as_ref(), &request, times),
                None,
            ),
        };
        progress.clear();
        let Some(report) = tally.take(instance, result)? else {
            continue;
        };
        tally.unknown |= report.status == Status::Unknown;
        let text = match args.common.format {
            Format::Json | Format::Jsonl => output::solve_json(&report),
            Format::Text => output::solve_text(instance, &report),
        };
        writeln!(stdout, "{text}")?;
        stdout.flush()?;
        if let Some(certifier) = &certifier
            && let Err(error) = certifier.certify(instance, &report, logged)
        {
            tally.no_certificate(instance, error)?;
        }
    }
    Ok(tally.exit_code())
}

/// `solve --format jsonl`: each tiling is written as it is found, then the board's end
/// line. A failed write (a reader that went away) stops the search and is the error.
fn solve_streaming(
    backend: &dyn Backend,
    instances: &[Instance],
    request: &Request,
) -> Result<ExitCode> {
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let mut tally = Tally::default();
    for instance in instances {
        let mut failed: Option<std::io::Error> = None;
        let result = driver::run_streaming(instance, backend, request, &mut |solution| {
            let line = driver::StreamedTiling {
                name: &instance.name,
                solution,
            };
            let written = serde_json::to_writer(&mut stdout, &line)
                .map_err(std::io::Error::from)
                .and_then(|()| writeln!(stdout))
                .and_then(|()| stdout.flush());
            match written {
                Ok(()) => dominofit::backend::Control::Continue,
                Err(e) => {
                    failed = Some(e);
                    dominofit::backend::Control::Stop
                }
            }
        });
        if let Some(e) = failed {
            return Err(e.into());
        }
        let Some(report) = tally.take(instance, result)? else {
            continue;
        };
        tally.unknown |= report.status == Status::Unknown;
        // As an io::Error, so that a reader that went away is not reported as an error.
        serde_json::to_writer(&mut stdout, &driver::StreamEnd(&report))
            .map_err(std::io::Error::from)?;
        writeln!(stdout)?;
        stdout.flush()?;
    }
    Ok(tally.exit_code())
}

/// What became of a workload's boards. A board that fails in its backend (too large for
/// it, a crashed program, a wrong tiling) gets an error line on standard error naming it,
/// and the others are still solved; the exit status then says some failed.
#[derive(Debug, Default)]
pub(super) struct Tally {
    unknown: bool,
    failed: usize,
}

impl Tally {
    /// The report, or `None` after writing the board's error line. An interrupt ends
    /// the whole command. Portfolio members set aside on the way are named on standard
    /// error.
    fn take<T: driver::Reported>(
        &mut self,
        instance: &Instance,
        result: Result<T, BackendError>,
    ) -> Result<Option<T>> {
        match result {
            Ok(report) => {
                for why in &report.header().counters.set_aside {
                    say!(
                        "warning: instance `{}`: portfolio member set aside: {}",
                        terminal(&instance.name),
                        terminal(why)
                    );
                }
                Ok(Some(report))
            }
            Err(BackendError::Interrupted) => Err(BackendError::Interrupted.into()),
            Err(error) => {
                self.failed += 1;
                say!(
                    "error: instance `{}`: {}",
                    terminal(&instance.name),
                    terminal(&error.to_string())
                );
                Ok(None)
            }
        }
    }

    /// A board whose certificate was not written counts as failed, with its error
    /// line; an interrupt ends the whole command.
    fn no_certificate(
        &mut self,
        instance: &Instance,
        error: dominofit::certify::CertifyError,
    ) -> Result<()> {
        use dominofit::certify::{CertifyError, ProveError};
        use dominofit::process::RunError;
        if matches!(
            error,
            CertifyError::Prove(ProveError::Run(RunError::Interrupted))
        ) {
            return Err(BackendError::Interrupted.into());
        }
        self.failed += 1;
        say!(
            "error: instance `{}`: no certificate: {}",
            terminal(&instance.name),
            terminal(&error.to_string())
        );
        Ok(())
    }

    /// 1 when any board failed, else 3 when any ended unknown (or incomplete), else 0.
    fn exit_code(&self) -> ExitCode {
        if self.failed > 0 {
            ExitCode::from(1)
        } else if self.unknown {
            ExitCode::from(3)
        } else {
            ExitCode::SUCCESS
        }
    }
}

pub(super) fn count(args: CountArgs) -> Result<ExitCode> {
    let (backend, instances, request) = prepare(&args.common, 0)?;
    let mut stdout = std::io::stdout().lock();
    let mut tally = Tally::default();
    let progress = Progress::new(instances.len());
    for (k, instance) in instances.iter().enumerate() {
        progress.show(k, &instance.name);
        let result = driver::count(instance, backend.as_ref(), &request);
        progress.clear();
        let Some(report) = tally.take(instance, result)? else {
            continue;
        };
        tally.unknown |= !report.complete;
        let text = match args.common.format {
            Format::Json | Format::Jsonl => output::count_json(&report),
            Format::Text => output::count_text(&report),
        };
        writeln!(stdout, "{text}")?;
        stdout.flush()?;
    }
    Ok(tally.exit_code())
}

pub(super) fn verify_files(args: VerifyArgs) -> Result<ExitCode> {
    if args.instance == "-" && args.solution == "-" {
        return Err(UsageError(
            "standard input can be read only once: give the instance or the solution as a file"
                .to_string(),
        )
        .into());
    }
    let instances = read_instances(&args.instance)?;
    let solutions = read_solutions(&args.solution)?;
    if instances.len() != solutions.len() {
        bail!(
            "{} holds {} instances but {} holds {} solutions; they are paired one to one",
            args.instance,
            instances.len(),
            args.solution,
            solutions.len()
        );
    }
    let mut all_valid = true;
    let mut stdout = std::io::stdout().lock();
    for (instance, solution) in instances.iter().zip(&solutions) {
        let (valid, line) = verdict_line(instance, solution);
        all_valid &= valid;
        writeln!(stdout, "{line}")?;
    }
    Ok(if all_valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
