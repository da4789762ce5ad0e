//! Argument definitions and dispatch. Exit statuses follow FORMAT.md: 0 for decisive
//! answers, 3 when an instance ended `unknown`, 1 for bad input or a backend failure,
//! 2 for a usage error (clap's own).

mod args;
mod certify;
mod emit;
mod files;
mod output;
mod race;
mod schema;
mod show;
mod solve;

pub use args::Cli;
use args::*;
use emit::{emit, generate};
use race::race;
pub(crate) use show::picture;
use show::{backends, show};
use solve::{count, solve, verify_files};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};

use dominofit::backend::{self, Backend, BackendError, BackendOptions, Request, Status, external};
use dominofit::encode::Encoding;
use dominofit::escape::terminal;

use dominofit::model::{self, Families};
use dominofit::puzzle::generate::{planted, planted_open};
use dominofit::puzzle::parse::{read_instances, read_solutions};
use dominofit::puzzle::verify::verify;
use dominofit::puzzle::{Instance, draw::draw};

pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => solve(args),
        Command::Count(args) => count(args),
        Command::Verify(args) => verify_files(args),
        Command::Emit(args) => emit(args),
        Command::Generate(args) => generate(args),
        Command::Race(args) => race(args),
        Command::Show(args) => show(args),
        Command::Backends(args) => backends(&args),
        Command::Schema(args) => schema::schema(&args),
        Command::Completions(args) => {
            use clap::CommandFactory;
            // Hidden (internal) subcommands are left out: a user never types them, and
            // clap_complete would offer them.
            let full = Cli::command();
            let mut command = clap::Command::new("dominofit")
                .version(env!("CARGO_PKG_VERSION"))
                .subcommands(full.get_subcommands().filter(|c| !c.is_hide_set()).cloned());
            // Into memory first: clap_complete panics when its writer fails (a closed
            // pipe); a failed write here is an ordinary error.
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut command, "dominofit", &mut script);
            std::io::stdout().lock().write_all(&script)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::WorkerRun(args) => race::worker_run(args),
        Command::CheckCertificate(args) => certify::check_certificate(args),
        Command::WorkerProve(args) => certify::worker_prove(args),
        Command::WorkerSolve(args) => {
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            backend::worker::main(&args.backend, stdin, stdout)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A mistake in the command line found after clap's own checks: exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(String);

/// An error as one line for the terminal: each cause once (an I/O error's text is often
/// part of the message that wraps it too), and no control characters from file names or
/// board names.
pub fn describe(error: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    terminal(&out)
}

/// The exit status for an error: 2 for usage errors, 1 for everything else.
pub fn exit_code(error: &anyhow::Error) -> u8 {
    if error.downcast_ref::<UsageError>().is_some() {
        2
    } else {
        1
    }
}

fn backend_named(
    name: &str,
    encoding: Encoding,
    threads: Option<usize>,
) -> Result<Box<dyn Backend>> {
    let options = BackendOptions {
        encoding,
        threads: threads.unwrap_or_else(backend::available_threads),
    };
    backend::registry::lookup(name, &options)
        .map_err(|message| UsageError(terminal(&message)).into())
}

/// A one-line progress indicator on stderr for workloads, shown only on a terminal so
/// that logs and pipes stay clean.
struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// A bar of `total` steps on standard error; hidden when that is not a terminal
    /// (indicatif's choice) or when there is only one step.
    fn new(total: usize) -> Progress {
        let bar = if total > 1 {
            indicatif::ProgressBar::new(total as u64)
        } else {
            indicatif::ProgressBar::hidden()
        };
        if let Ok(style) = indicatif::ProgressStyle::with_template("[{pos}/{len}] {elapsed} {msg}")
        {
            bar.set_style(style);
        }
        Progress { bar }
    }

    /// `done` steps are done; `name` says what runs now (shown escaped).
    fn show(&self, done: usize, name: &str) {
        self.bar.set_position(done as u64);
        self.bar.set_message(terminal(name));
    }

    fn clear(&self) {
        self.bar.finish_and_clear();
    }
}
