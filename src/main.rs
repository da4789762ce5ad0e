//! The `dominofit` command line: parse arguments, call the library, print.

// Standard error is written through `cli::say` alone, which survives a closed stream;
// standard output through writers whose errors are handled (a reader that went away).
#![deny(clippy::print_stderr, clippy::print_stdout)]

mod cli;

/// Small boards are solved in microseconds, where allocation is a large share of the
/// time; mimalloc roughly halves that share compared with the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use dominofit::interrupt;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    // The core's memory budget reads the memory available here (/proc/meminfo).
    dominofit::memory::install();
    // varisat, microlp, HiGHS and CBC cannot be stopped in-process: this binary runs
    // them as worker processes of itself (the hidden `worker-solve` subcommand), killed
    // at the deadline.
    if let Ok(program) = std::env::current_exe() {
        dominofit::backend::worker::register(vec![program.into_os_string()]);
    }
    // Ctrl-C (and SIGTERM): external programs run in process groups of their own, out of
    // the terminal's reach, so the handler kills them and removes every temporary file
    // before exiting. A command that winds down by itself (`race` keeps what it has
    // measured) is only told; a second interrupt exits at once.
    let _ = ctrlc::set_handler(|| {
        static SEEN: AtomicBool = AtomicBool::new(false);
        let again = SEEN.swap(true, Ordering::SeqCst);
        let ends_now = again || !interrupt::graceful();
        if ends_now {
            interrupt::silence_stdout();
        }
        interrupt::request();
        if ends_now {
            cli::say!("interrupted");
            interrupt::exit(130);
        }
    });
    let result = cli::run(args);
    // A portfolio's losing members may still be winding down on their own threads.
    interrupt::clean_up();
    match result {
        Ok(_) | Err(_) if interrupt::requested() => {
            cli::say!("interrupted");
            interrupt::exit(130)
        }
        Ok(code) => code,
        // A reader that went away (`dominofit solve w.jsonl | head`) is not an error.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            cli::say!("error: {}", cli::describe(&error));
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
