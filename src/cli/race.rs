//! `race`: backends against each other on workloads, with its report files.

use super::args::*;
use super::errors::backend_named;
use super::files;
use super::progress::Progress;

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::ValueEnum;

use dominofit::backend::Backend;
use dominofit::driver::Request;
use dominofit::escape::terminal;

use dominofit::files::read_instances;

/// The files `race --out` writes.
pub(super) const RACE_FILES: [&str; 6] = [
    "runs.csv",
    "summary.json",
    "summary.md",
    "cactus.svg",
    "size.svg",
    "index.html",
];

pub(super) fn race(args: RaceArgs) -> Result<ExitCode> {
    use dominofit::race::{self, RaceOptions};
    dominofit::memory::set_limit(args.memory.map(|mib| mib << 20));
    let options = RaceOptions {
        limit: args.limit as usize,
        repeat: args.repeat,
        timeout: args.timeout,
        repeat_below: args.repeat_below,
    };
    let mut raced = None;
    let (rows, summary) = if args.merge {
        let mut rows = Vec::new();
        for file in &args.workloads {
            let input =
                std::fs::File::open(file).with_context(|| format!("{file}: cannot read"))?;
            rows.extend(race::read_runs_csv(input, file).map_err(anyhow::Error::msg)?);
        }
        race::check_disjoint(&rows)?;
        race::check_agreement(&rows)?;
        race::check_counts(&rows)?;
        let summary = race::summarize(&rows, None, None);
        (rows, summary)
    } else {
        if let Some(dir) = &args.out {
            files::check_output_dir(dir, &RACE_FILES)?;
        }
        let backends: Vec<Box<dyn Backend>> = args
            .backends
            .iter()
            .map(|name| backend_named(name, args.encoding, args.threads))
            .collect::<Result<_>>()?;
        let mut workloads = Vec::new();
        for file in &args.workloads {
            workloads.push((file.clone(), read_instances(file)?));
        }
        if let Some(shard) = args.shard {
            workloads = shard.select(workloads);
        }
        let total = workloads.iter().map(|(_, w)| w.len()).sum::<usize>() * backends.len();
        let progress = Progress::new(total);
        let mut show = |done: usize, _: usize, next: &str| progress.show(done, next);
        // Ctrl-C stops the race after the current run; what it measured is written.
        dominofit::interrupt::set_graceful(true);
        let rows = if args.jobs > 1 {
            let program = std::env::current_exe()
                .context("cannot find the dominofit program to start workers")?;
            race::race_in_processes(
                &program,
                &worker_args(&args),
                &workloads,
                &args.backends,
                args.jobs as usize,
                &mut show,
            )
        } else {
            race::race(&workloads, &backends, &options, &mut show)
        };
        progress.clear();
        let rows = rows?;
        let mut summary = race::summarize(
            &rows,
            Some(args.repeat),
            args.timeout.map(|t| t.as_secs_f64()),
        );
        summary.machine = Some(race::Machine::this());
        summary.memory_mib = args.memory;
        summary.repeat_below_s = Some(args.repeat_below.as_secs_f64());
        raced = Some(workloads);
        (rows, summary)
    };
    if let Some(dir) = &args.out {
        files::check_output_dir(dir, &RACE_FILES)?;
        let mut csv = Vec::new();
        race::write_runs_csv(&rows, &mut csv)?;
        files::write_atomically(&dir.join("runs.csv"), &csv)?;
        let json = serde_json::to_string_pretty(&summary)?;
        files::write_atomically(&dir.join("summary.json"), (json + "\n").as_bytes())?;
        files::write_atomically(
            &dir.join("summary.md"),
            race::markdown(&rows, &summary).as_bytes(),
        )?;
        let what = match summary.limits.as_slice() {
            [2] => "uniqueness check",
            [0] => "counting",
            _ => "first solution",
        };
        let cactus = race::cactus_svg(&rows, &format!("Instances solved, {what}"));
        let size = race::size_svg(&rows, &format!("Median time by board size, {what}"));
        files::write_atomically(&dir.join("cactus.svg"), cactus.as_bytes())?;
        files::write_atomically(&dir.join("size.svg"), size.as_bytes())?;
        let command = command_line();
        let page = race::race_page(
            &rows,
            &summary,
            &race::PageInfo {
                what,
                command: &command,
                boards: raced.as_deref(),
                plots: [&cactus, &size],
            },
        )?;
        files::write_atomically(&dir.join("index.html"), page.as_bytes())?;
    }
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "{:<28} {:<16} {:>9} {:>7} {:>6} {:>11} {:>11}",
        "workload", "backend", "solved", "capped", "errors", "median ms", "P95 ms"
    )?;
    let ms = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.3}"));
    for (file, per_backend) in &summary.workloads {
        for (name, a) in per_backend {
            writeln!(
                stdout,
                "{:<28} {:<16} {:>9} {:>7} {:>6} {:>11} {:>11}",
                terminal(file),
                terminal(name),
                format!("{}/{}", a.solved, a.instances),
                a.unknown,
                a.errors,
                ms(a.median_ms),
                ms(a.p95_ms)
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The options a `race --jobs` worker runs under: the race's own.
fn worker_args(args: &RaceArgs) -> Vec<String> {
    let mut out = vec![
        "--limit".to_string(),
        args.limit.to_string(),
        "--repeat".to_string(),
        args.repeat.to_string(),
        "--repeat-below".to_string(),
        args.repeat_below.as_secs_f64().to_string(),
        "--encoding".to_string(),
        args.encoding
            .to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_string()),
    ];
    if let Some(t) = args.timeout {
        out.extend(["--timeout".to_string(), t.as_secs_f64().to_string()]);
    }
    if let Some(m) = args.memory {
        out.extend(["--memory".to_string(), m.to_string()]);
    }
    if let Some(t) = args.threads {
        out.extend(["--threads".to_string(), t.to_string()]);
    }
    out
}

/// `worker-run`: one run of a race, its instance read as JSON from standard input, its
/// row written as one JSON line.
pub(super) fn worker_run(args: WorkerRunArgs) -> Result<ExitCode> {
    use dominofit::race::{self, RaceOptions};
    dominofit::memory::set_limit(args.memory.map(|mib| mib << 20));
    let backend = backend_named(&args.backend, args.encoding, args.threads)?;
    let instances = read_instances("-")?;
    let [instance] = instances.as_slice() else {
        anyhow::bail!(
            "a worker runs one instance; it was given {}",
            instances.len()
        );
    };
    let options = RaceOptions {
        limit: args.limit as usize,
        repeat: args.repeat,
        timeout: args.timeout,
        repeat_below: args.repeat_below,
    };
    let request = Request {
        limit: options.limit,
        timeout: options.timeout,
        families: None,
    };
    let row = race::measure(
        &args.workload,
        instance,
        backend.as_ref(),
        &request,
        &options,
    )?;
    writeln!(std::io::stdout().lock(), "{}", race::row_to_json(&row)?)?;
    Ok(ExitCode::SUCCESS)
}

/// The command line as it could be typed again: each argument as given (lossily, if it
/// is not UTF-8), single-quoted when a shell would read it otherwise.
fn command_line() -> String {
    let quoted = |arg: std::ffi::OsString| {
        let arg = arg.to_string_lossy().into_owned();
        let plain = !arg.is_empty()
            && (arg.chars()).all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
        if plain {
            arg
        } else {
            format!("'{}'", arg.replace('\'', r"'\''"))
        }
    };
    std::env::args_os()
        .map(quoted)
        .collect::<Vec<_>>()
        .join(" ")
}
