//! `emit` (the model in a solver's file format) and `generate` (new boards).

use super::args::*;
use super::errors::UsageError;
use super::files;
use super::progress::Progress;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use dominofit::escape::terminal;

use dominofit::action::{self, BoardKind, EmitOptions, GenerateRequest};
use dominofit::design::DesignOptions;
use dominofit::puzzle::Instance;
use dominofit::puzzle::parse::read_instances;

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
    let progress = Progress::new(args.count.try_into().unwrap_or(usize::MAX));
    // Boards are streamed as they are made: into a temporary file renamed into place
    // at the end (nothing half-written is left on an error), or to standard output.
    let mut fill = |out: &mut dyn Write| -> Result<()> {
        for index in 0..request.count {
            match kind {
                BoardKind::Unique => progress.show(index as usize, "certifying uniqueness"),
                BoardKind::Unsat => progress.show(index as usize, "proving unsatisfiability"),
                BoardKind::Planted | BoardKind::Open => {}
            }
            let made = request.board(index)?;
            if let (Some(certifier), Some(c)) = (&certifier, &made.certified) {
                progress.show(index as usize, "writing its certificate");
                let tilings: Vec<_> = c.solution.iter().cloned().collect();
                certifier
                    .certify_answer(&c.instance, c.status, &tilings, &c.prover)
                    .with_context(|| {
                        format!("board `{}`: no certificate", terminal(&c.instance.name))
                    })?;
            }
            progress.clear();
            writeln!(out, "{}", made.instance.to_json())?;
        }
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
    Ok(ExitCode::SUCCESS)
}
