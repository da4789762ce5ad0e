//! Argument definitions and dispatch. Exit statuses follow FORMAT.md: 0 for decisive
//! answers, 3 when an instance ended `unknown`, 1 for bad input or a backend failure,
//! 2 for a usage error (clap's own).

mod args;
mod certify;
mod emit;
mod errors;
mod explain;
mod files;
mod grade;
mod output;
mod progress;
mod race;
pub(crate) mod say;
mod schema;
mod shared;
mod show;
mod solve;

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

pub use args::Cli;
use args::Command;
pub use errors::{describe, exit_code};
pub(crate) use say::say;

/// Runs one command line: each subcommand is a file of its own.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => solve::solve(args),
        Command::Count(args) => solve::count(args),
        Command::Verify(args) => solve::verify_files(args),
        Command::Emit(args) => emit::emit(args),
        Command::Generate(args) => emit::generate(args),
        Command::Race(args) => race::race(args),
        Command::Show(args) => show::show(args),
        Command::Grade(args) => grade::grade_files(args),
        Command::Hint(args) => explain::hint(args),
        Command::Explain(args) => explain::explain(args),
        Command::Shared(args) => shared::shared_files(args),
        Command::Backends(args) => show::backends(&args),
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
            dominofit::backend::worker::main(
                &args.backend,
                dominofit::backend::registry::build_builtin,
                stdin,
                stdout,
            )?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
