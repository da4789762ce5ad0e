//! `emit` (the model in a solver's file format) and `generate` (new boards).

use super::args::*;
use super::errors::UsageError;
use super::files;
use super::progress::Progress;
use super::say::say;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use dominofit::escape::terminal;

use dominofit::action::{self, BoardKind, EmitOptions, GenerateRequest};
use dominofit::design::DesignOptions;
use dominofit::files::read_instances;
use dominofit::puzzle::Instance;

/// Writes the emitted form of one instance to `out`.
pub(super) fn emit_one(instance: &Instance, args: &EmitArgs, out: &mut dyn Write) -> Result<()> {
    let options = EmitOptions {
        to: args.to,
        encoding: args.encoding,
        families: args.families,
    };
    action::emit(instance, &options, out, &dominofit::interrupt::requested)?;
    Ok(())
}

pub(super) fn emit(args: EmitArgs) -> Result<ExitCode> {
    let instances = read_instances(&args.file)?;
    match (&args.output, instances.as_slice()) {
        (None, _) => {
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            for instance in &instances {
                emit_one(instance, &args, &mut stdout)?;
            }
            stdout.flush()?;
        }
        (Some(path), [instance]) if !path.is_dir() => {
            files::write_with(path, &mut |out| emit_one(instance, &args, out))?;
        }
        (Some(dir), _) => {
            let files_of: Vec<PathBuf> =
                files::one_file_per_board(&instances, &format!(".{}", args.to.extension()))?
                    .into_iter()
                    .map(|file| dir.join(file))
                    .collect();
            files::check_output_dir(dir, &[])?;
            for (instance, file) in instances.iter().zip(&files_of) {
                files::write_with(file, &mut |out| emit_one(instance, &args, out))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn generate(args: GenerateArgs) -> Result<ExitCode> {
    let kind = if args.unique {
        BoardKind::Unique
    } else if args.unsat {
        BoardKind::Unsat
    } else if args.open {
        BoardKind::Open
    } else {
        BoardKind::Planted
    };
    let request = GenerateRequest {
        rows: args.rows,
        cols: args.cols,
        count: args.count,
        seed: args.seed,
        kind,
        design: DesignOptions {
            timeout: args.timeout,
            pool: args.pool,
            node_cap: args.node_cap,
            ..DesignOptions::default()
        },
        tiling: args.tiling,
        level: args.level.map(|l| l.number()),
    }
    .checked()
    .map_err(|e| UsageError(e.to_string()))?;
    let certifier = match &args.certify {
        Some(_) if !(args.unique || args.unsat) => {
            return Err(UsageError(
                "--certify goes with --unique or --unsat: planted boards are satisfiable by \
                 construction, and their tiling is their certificate"
                    .to_string(),
            )
            .into());
        }
        Some(dir) => Some(super::certify::Certifier::new(
            dir,
            &args.prover.name,
            Some(args.timeout),
            &[],
        )?),
        None => None,
    };
    let certified = matches!(kind, BoardKind::Unique | BoardKind::Unsat);
    // A certified board can take minutes: the bar shows even for one board, and Ctrl-C
    // ends the run after the boards finished so far are written.
    let progress = if certified {
        Progress::always(args.count.try_into().unwrap_or(usize::MAX))
    } else {
        Progress::new(args.count.try_into().unwrap_or(usize::MAX))
    };
    if certified {
        dominofit::interrupt::set_graceful(true);
    }
    let mut skipped = 0u64;
    let mut written = 0u64;
    let mut rejected = 0u64;
    // Boards are streamed as they are made, each flushed as soon as it is certified: into
    // a temporary file renamed into place at the end (a reader never sees half a board,
    // and the boards finished before a skipped board or Ctrl-C are kept), or to
    // standard output.
    let mut fill = |out: &mut dyn Write| -> Result<()> {
        for index in 0..request.count {
            let shown = index as usize;
            let made = request.board_watched(index, &mut |step| {
                progress.show(shown, &step_words(index, step));
            });
            let made = match made {
                Ok(made) => made,
                Err(_) if dominofit::interrupt::requested() => break,
                Err(error) if args.strict || !check_failed(&error) => {
                    return Err(error).with_context(|| format!("board {}", index + 1));
                }
                Err(error) => {
                    skipped += 1;
                    progress.suspend(|| {
                        say!(
                            "warning: board {} skipped: {}",
                            index + 1,
                            terminal(&error.to_string())
                        )
                    });
                    continue;
                }
            };
            if let (Some(certifier), Some(c)) = (&certifier, &made.certified) {
                progress.show(shown, "writing its certificate");
                let tilings: Vec<_> = c.solution.iter().cloned().collect();
                let done = certifier.certify_answer(&c.instance, c.status, &tilings, &c.prover);
                if let Err(error) = done {
                    if dominofit::interrupt::requested() {
                        break;
                    }
                    use dominofit::certify::CertifyError;
                    // A prover that disagrees with the generator's certificate is an
                    // alarm about soundness, never a board to pass over.
                    let alarm = matches!(
                        error,
                        CertifyError::Disagreement { .. } | CertifyError::WrongModel { .. }
                    );
                    let error = anyhow::Error::from(error).context(format!(
                        "board `{}`: no certificate",
                        terminal(&c.instance.name)
                    ));
                    if args.strict || alarm {
                        return Err(error);
                    }
                    skipped += 1;
                    progress.suspend(|| {
                        say!(
                            "warning: board {} skipped: {}",
                            index + 1,
                            super::errors::describe(&error)
                        )
                    });
                    continue;
                }
            }
            writeln!(out, "{}", made.instance.to_json())?;
            out.flush()?;
            written += 1;
            rejected += made.rejected;
            progress.show(shown + 1, "");
        }
        progress.clear();
        Ok(())
    };
    match &args.output {
        Some(path) => files::write_with(path, &mut fill)?,
        None => {
            let mut stdout = std::io::stdout().lock();
            fill(&mut stdout)?;
            stdout.flush()?;
        }
    }
    if dominofit::interrupt::requested() {
        say!("interrupted after {written} board{}", plural(written));
        return Err(dominofit::backend::BackendError::Interrupted.into());
    }
    if let (Some(level), true) = (args.level, written > 0) {
        say!(
            "{written} unique board{} at level {}: {rejected} candidate{} graded at another \
             level and rejected, {:.1} per board",
            plural(written),
            level.number(),
            plural(rejected),
            rejected as f64 / written as f64
        );
    }
    if skipped > 0 {
        say!(
            "{written} board{} written, {skipped} skipped (--strict stops at the first)",
            plural(written)
        );
        return Ok(ExitCode::from(3));
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether a board's making failed its check (no certificate within the limits) rather
/// than found something wrong: only such a board is skipped. A wrong tiling from a backend
/// or a bad size stops the run.
fn check_failed(error: &action::GenerateError) -> bool {
    use dominofit::design::DesignError;
    matches!(
        error,
        action::GenerateError::Design(
            DesignError::Undecided { .. }
                | DesignError::NotFound { .. }
                | DesignError::OutOfTime { .. }
        ) | action::GenerateError::NoneAtLevel { .. }
    )
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// What the progress bar says of a certified board's making.
fn step_words(index: u64, step: dominofit::design::Step) -> String {
    use dominofit::design::Step;
    let board = index + 1;
    match step {
        Step::Windows => format!("board {board}: making its windows locally unique"),
        Step::UniqueCheck { check, holes } => format!(
            "board {board}: uniqueness check {check} ({holes} piece{} made holes)",
            if holes == 1 { "" } else { "s" }
        ),
        Step::Ranking { ranked, tried } => {
            format!("board {board}: ranking candidates ({ranked} in the pool after {tried} tried)")
        }
        Step::Refuting { candidate, of } => {
            format!("board {board}: proving candidate {candidate} of {of} unsatisfiable")
        }
    }
}
