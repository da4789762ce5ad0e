//! The `dominofit` command line: parse arguments, call the library, print.

mod cli;

/// Small boards are solved in microseconds, where allocation is a large share of the
/// time; mimalloc roughly halves that share compared with the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    // Ctrl-C: an external solver runs in its own process group, out of the terminal's
    // reach; the runner kills it and removes its temporary files before we exit.
    let _ = ctrlc::set_handler(|| {
        if dominofit::backend::external::interrupt() {
            std::process::exit(130);
        }
    });
    match cli::run(args) {
        Ok(code) => code,
        // A reader that went away (`dominofit solve w.jsonl | head`) is not an error.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            if format!("{error:#}").ends_with("interrupted") {
                return ExitCode::from(130);
            }
            ExitCode::from(cli::exit_code(&error))
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
