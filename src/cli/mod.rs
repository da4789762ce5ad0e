//! Argument definitions and dispatch. Exit statuses follow FORMAT.md: 0 for decisive
//! answers, 3 when an instance ended `unknown`, 1 for bad input or a backend failure,
//! 2 for a usage error (clap's own).

mod files;
mod output;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};

use dominofit::backend::{self, Backend, BackendError, BackendOptions, Request, Status, external};
use dominofit::encode::Encoding;
use dominofit::escape::terminal;
use dominofit::lower::{dimacs, lp, mcc, opb};
use dominofit::model::{self, Families};
use dominofit::puzzle::generate::{planted, planted_open};
use dominofit::puzzle::parse::{read_instances, read_solutions};
use dominofit::puzzle::verify::verify;
use dominofit::puzzle::{Instance, draw::draw};

const AFTER_HELP: &str = "\
Files: an instance is one JSON object ({\"rows\", \"cols\", \"blocked\", \"row_clues\", \
\"col_clues\"}, optional \"name\"); a workload (*.jsonl) holds one instance per line; `-` \
reads standard input. Coordinates are one-based.

Exit status: 0 decisive answers, 3 when any instance ended unknown, 1 bad input or backend \
failure, 2 usage error.";

/// Compile, solve and verify Domino Fit puzzles with pluggable solver backends.
#[derive(Debug, Parser)]
#[command(name = "dominofit", version, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve each instance: first solution, uniqueness check, or all solutions.
    Solve(SolveArgs),
    /// Count the solutions of each instance exactly (by enumeration, or --backend dp).
    Count(CountArgs),
    /// Check a tiling against the raw game rules (coverage, blocked cells, dot clues).
    Verify(VerifyArgs),
    /// Write the compiled model of each instance.
    Emit(EmitArgs),
    /// Write planted, unique or adversarial unsatisfiable instances as JSON Lines.
    Generate(GenerateArgs),
    /// Race backends on workloads under one timing protocol; write tables and plots.
    Race(RaceArgs),
    /// Draw a board, and a solution over it, as text or as an SVG picture.
    Show(ShowArgs),
    /// List the available backends.
    Backends,
}

#[derive(Debug, Args)]
struct ShowArgs {
    /// Instance file (or a workload, with --instance to pick one board).
    file: String,
    /// Solution file to draw over the board; it must pass the verifier.
    solution: Option<String>,
    /// Draw the first solution the native search finds (instead of a solution file).
    #[arg(long, conflicts_with = "solution")]
    solve: bool,
    /// The board of a workload to draw, by name.
    #[arg(long)]
    instance: Option<String>,
    /// Write an SVG picture to this file instead of drawing text on standard output.
    #[arg(long, value_name = "OUT")]
    svg: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct RaceArgs {
    /// Workload (.jsonl) or instance (.json) files; with --merge, runs.csv files of shards.
    #[arg(required = true)]
    workloads: Vec<String>,
    /// Run only slice i of n (i/n): the k-th instance of all the workloads belongs to
    /// slice k mod n + 1, so n machines together run every instance exactly once.
    #[arg(long, value_parser = dominofit::race::Shard::parse)]
    shard: Option<dominofit::race::Shard>,
    /// Combine the runs.csv files of shards (given in place of workloads) into one report,
    /// stopping on contradictory answers between them.
    #[arg(long, conflicts_with = "shard")]
    merge: bool,
    /// Comma-separated backend names (see `dominofit backends`).
    #[arg(long, value_delimiter = ',', default_value = "native")]
    backends: Vec<String>,
    /// 1: first solution; 2: uniqueness check.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=2))]
    limit: u32,
    /// Timed calls per instance after three warm-ups; the per-instance time is their median.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=MAX_REPEAT))]
    repeat: u32,
    /// Time limit per call in seconds; an instance stopped by it is capped (unknown).
    #[arg(long, value_parser = parse_seconds)]
    timeout: Option<Duration>,
    /// A first call taking at least this many seconds is timed once, not repeated.
    #[arg(long, value_parser = parse_seconds, default_value = "1")]
    repeat_below: Duration,
    /// Directory for runs.csv, summary.json, summary.md, cactus.svg and size.svg
    /// (created if missing; each file written whole or not at all).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Cardinality encoding for SAT backends.
    #[arg(long, value_enum, default_value = "totalizer")]
    encoding: Encoding,
    /// Portfolio members run at once. Default: the cores available.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A picture of each board with its pieces, and a summary line.
    Text,
    /// One JSON object per instance and line, as fixed by FORMAT.md.
    Json,
}

#[derive(Debug, Args)]
struct Common {
    /// Instance (.json) or workload (.jsonl) file, or `-` for standard input.
    file: String,
    /// Backend to run (see `dominofit backends`).
    #[arg(long, short, default_value = "native")]
    backend: String,
    /// Time limit per instance in seconds; a board stopped by it ends `unknown`.
    #[arg(long, value_parser = parse_seconds)]
    timeout: Option<Duration>,
    /// Constraint families to compile: minimal (u,t), all (u,p,q,t), colour (all plus
    /// checkerboard splits) or raw (the dot sums themselves). Default: the backend's choice.
    #[arg(long, value_enum)]
    families: Option<Families>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Cardinality encoding of quota groups for the SAT backends.
    #[arg(long, value_enum, default_value = "totalizer")]
    encoding: Encoding,
    /// Portfolio members run at once (the first N of its list). Default: the cores
    /// available.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
}

#[derive(Debug, Args)]
struct SolveArgs {
    #[command(flatten)]
    common: Common,
    /// Solutions to look for: 1 the first, 2 to check uniqueness, 0 all of them.
    #[arg(long, short, default_value_t = 1)]
    limit: usize,
    /// Benchmark mode: after three warm-up calls, solve each instance N more times (at
    /// most 100000) and report the median time (compilation and search, in-process; not
    /// verification). Ctrl-C stops it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_REPEAT))]
    repeat: Option<u32>,
}

#[derive(Debug, Args)]
struct CountArgs {
    #[command(flatten)]
    common: Common,
}

#[derive(Debug, Args)]
struct VerifyArgs {
    /// Instance file (or a workload, paired line by line with a JSON Lines solution file).
    instance: String,
    /// Solution file: {"vertical": [[r,c],...], "horizontal": [[r,c],...]}.
    solution: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EmitFormat {
    /// The intermediate model: placements, covers, quota groups, raw clue sums.
    ModelJson,
    /// DIMACS CNF with `c var` lines and the `c p show` projection over the placements.
    Dimacs,
    /// Pseudo-Boolean competition format: every constraint a linear equality.
    Opb,
    /// CPLEX LP format: binary `v_R_C`/`h_R_C`, named equalities, zero objective.
    Lp,
    /// Exact cover with multiplicities for Knuth's dlx3/ssxcc (quota families only).
    Mcc,
}

impl EmitFormat {
    fn extension(self) -> &'static str {
        match self {
            EmitFormat::ModelJson => "model.json",
            EmitFormat::Dimacs => "cnf",
            EmitFormat::Opb => "opb",
            EmitFormat::Lp => "lp",
            EmitFormat::Mcc => "dlx",
        }
    }
}

#[derive(Debug, Args)]
struct EmitArgs {
    /// Instance (.json) or workload (.jsonl) file, or `-` for standard input.
    file: String,
    /// Output format.
    #[arg(long, value_enum)]
    to: EmitFormat,
    /// Output file (one instance) or directory (a workload: one file per instance).
    /// Written whole or not at all. Default: standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Constraint families to compile.
    #[arg(long, value_enum, default_value = "all")]
    families: Families,
    /// Cardinality encoding of quota groups (DIMACS only).
    #[arg(long, value_enum, default_value = "totalizer")]
    encoding: Encoding,
}

#[derive(Debug, Args)]
#[command(after_help = "\
Planted boards (the default) take a random tiling, turn up to a fifth of its pieces into \
holes and read the clues off the rest: they always have a solution, often several.

--unique keeps turning pieces of the planted tiling into holes, where it differs from \
another solution, until a native uniqueness check finds only the planted one.

--unsat makes candidates from a planted board by moving crossing pieces between its cuts \
(rewriting the clues to match, which keeps both totals and every parity) or moving dots \
between two rows or two columns, and drops those clue inversion refutes (totals, \
integral margins, t_n = 0, cut and path capacities, colour splits). The default native \
search ranks the first --pool survivors it does not solve by the nodes it needs (up to \
--node-cap), and the hardest one that an independent prover refutes is kept: microlp on \
the raw clue sums, or varisat on the quota families — never the native search, whose \
own hard cases would otherwise be left out.

Every --unique and --unsat board is certified by an exhaustive run before it is written \
(each within --timeout); a slower machine may certify fewer candidates and so pick \
differently.")]
struct GenerateArgs {
    /// Rows of each board.
    #[arg(long)]
    rows: usize,
    /// Columns of each board.
    #[arg(long)]
    cols: usize,
    /// Number of instances.
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// Seed of the random stream; the same seed gives the same instances.
    #[arg(long, default_value_t = 20260912)]
    seed: u64,
    /// Boards with exactly one solution, for puzzle design.
    #[arg(long, conflicts_with = "unsat")]
    unique: bool,
    /// Unsatisfiable boards that pass every cheap necessary check.
    #[arg(long)]
    unsat: bool,
    /// Planted boards without holes: every cell open, clues from a random tiling.
    #[arg(long, conflicts_with_all = ["unique", "unsat"])]
    open: bool,
    /// Time limit in seconds of each certifying search (--unique, --unsat).
    #[arg(long, value_parser = parse_seconds, default_value = "60")]
    timeout: Duration,
    /// --unsat: candidates ranked by the native search before the hardest certified one
    /// is kept.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pool: u32,
    /// --unsat: the native ranking run of a candidate stops after this many nodes.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    node_cap: u64,
    /// Output file (JSON Lines). Default: standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

/// Most timed calls per instance: enough for a stable median of microsecond runs, and
/// the timings of that many calls take a few megabytes.
const MAX_REPEAT: i64 = 100_000;

/// A year: longer limits are surely typing mistakes.
const MAX_TIMEOUT_SECONDS: f64 = 31_536_000.0;

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(format!(
            "the time limit must be a positive number of seconds, not {text}"
        ));
    }
    if seconds > MAX_TIMEOUT_SECONDS {
        return Err(format!(
            "the time limit is at most {MAX_TIMEOUT_SECONDS} seconds; leave it out for none"
        ));
    }
    Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())
}

pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => solve(args),
        Command::Count(args) => count(args),
        Command::Verify(args) => verify_files(args),
        Command::Emit(args) => emit(args),
        Command::Generate(args) => generate(args),
        Command::Race(args) => race(args),
        Command::Show(args) => show(args),
        Command::Backends => backends(),
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
    let unknown = match backend::by_name(name, &options) {
        Ok(b) => return Ok(b),
        Err(e @ backend::LookupError::Unknown { .. }) => e,
        Err(e) => {
            return Err(UsageError(format!(
                "`{}`: {}",
                terminal(name),
                terminal(&e.to_string())
            ))
            .into());
        }
    };
    let mut names: Vec<String> = backend::registry::BUILTINS
        .iter()
        .map(|b| b.name.to_string())
        .collect();
    let descriptors = external::descriptors();
    names.extend(descriptors.found.into_keys());
    let mut message = format!(
        "{}; available: {} (see `dominofit backends`), and NAME:ENCODING for SAT backends \
         (e.g. varisat:sequential)",
        terminal(&unknown.to_string()),
        names.join(", ")
    );
    for broken in &descriptors.broken {
        message.push_str(&format!("; a descriptor could not be read: {broken}"));
    }
    Err(UsageError(message).into())
}

/// A one-line progress indicator on stderr for workloads, shown only on a terminal so
/// that logs and pipes stay clean.
struct Progress {
    total: usize,
    enabled: bool,
}

impl Progress {
    fn new(total: usize) -> Progress {
        use std::io::IsTerminal;
        Progress {
            total,
            enabled: total > 1 && std::io::stderr().is_terminal(),
        }
    }

    fn show(&self, done: usize, name: &str) {
        if self.enabled {
            eprint!("\r\x1b[K[{}/{}] {}", done + 1, self.total, terminal(name));
        }
    }

    fn clear(&self) {
        if self.enabled {
            eprint!("\r\x1b[K");
        }
    }
}

fn solve(args: SolveArgs) -> Result<ExitCode> {
    let common = &args.common;
    let backend = backend_named(
        &common.backend,
        common.encoding,
        common.threads.map(|t| t as usize),
    )?;
    let instances = read_instances(&common.file)?;
    let request = Request {
        limit: args.limit,
        timeout: common.timeout,
        families: common.families,
    };
    let mut stdout = std::io::stdout().lock();
    let mut tally = Tally::default();
    let progress = Progress::new(instances.len());
    for (k, instance) in instances.iter().enumerate() {
        progress.show(k, &instance.name);
        let result = match args.repeat {
            None => backend::run(instance, backend.as_ref(), &request),
            Some(times) => backend::run_repeated(instance, backend.as_ref(), &request, times),
        };
        progress.clear();
        let Some(report) = tally.take(instance, result)? else {
            continue;
        };
        tally.unknown |= report.status == Status::Unknown;
        let text = match common.format {
            Format::Json => output::solve_json(&report),
            Format::Text => output::solve_text(instance, &report),
        };
        writeln!(stdout, "{text}")?;
        stdout.flush()?;
    }
    Ok(tally.exit_code())
}

/// What became of a workload's boards. A board that fails in its backend (too large for
/// it, a crashed program, a wrong tiling) gets an error line on standard error naming it,
/// and the others are still solved; the exit status then says some failed.
#[derive(Debug, Default)]
struct Tally {
    unknown: bool,
    failed: usize,
}

impl Tally {
    /// The report, or `None` after writing the board's error line. An interrupt ends
    /// the whole command.
    fn take<T>(
        &mut self,
        instance: &Instance,
        result: Result<T, BackendError>,
    ) -> Result<Option<T>> {
        match result {
            Ok(report) => Ok(Some(report)),
            Err(BackendError::Interrupted) => Err(BackendError::Interrupted.into()),
            Err(error) => {
                self.failed += 1;
                eprintln!(
                    "error: instance `{}`: {}",
                    terminal(&instance.name),
                    terminal(&error.to_string())
                );
                Ok(None)
            }
        }
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

fn count(args: CountArgs) -> Result<ExitCode> {
    let common = &args.common;
    let backend = backend_named(
        &common.backend,
        common.encoding,
        common.threads.map(|t| t as usize),
    )?;
    let instances = read_instances(&common.file)?;
    let request = Request {
        limit: 0,
        timeout: common.timeout,
        families: common.families,
    };
    let mut stdout = std::io::stdout().lock();
    let mut tally = Tally::default();
    let progress = Progress::new(instances.len());
    for (k, instance) in instances.iter().enumerate() {
        progress.show(k, &instance.name);
        let result = backend::count(instance, backend.as_ref(), &request);
        progress.clear();
        let Some(report) = tally.take(instance, result)? else {
            continue;
        };
        tally.unknown |= !report.complete;
        let text = match common.format {
            Format::Json => output::count_json(&report),
            Format::Text => output::count_text(&report),
        };
        writeln!(stdout, "{text}")?;
        stdout.flush()?;
    }
    Ok(tally.exit_code())
}

fn verify_files(args: VerifyArgs) -> Result<ExitCode> {
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
        match verify(instance, solution) {
            Ok(()) => writeln!(
                stdout,
                "{}: valid: {} vertical and {} horizontal pieces cover all {} open cells and meet every clue",
                terminal(&instance.name),
                solution.vertical.len(),
                solution.horizontal.len(),
                instance.open_cells()
            )?,
            Err(violation) => {
                all_valid = false;
                writeln!(stdout, "{}: invalid: {violation}", terminal(&instance.name))?;
            }
        }
    }
    Ok(if all_valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Writes the emitted form of one instance to `out`. DIMACS is streamed clause by
/// clause: its text is the largest of the formats and is never held whole.
fn emit_one(instance: &Instance, args: &EmitArgs, out: &mut dyn Write) -> Result<()> {
    let model = model::compile(instance, args.families);
    let context = || format!("instance `{}`", terminal(&instance.name));
    let text = match args.to {
        EmitFormat::ModelJson => model.to_json_dump(),
        EmitFormat::Dimacs => {
            let lowered = dominofit::lower::cnf::lower_within(
                &model,
                args.encoding,
                dominofit::memory::default_budget(),
                &dominofit::interrupt::requested,
            )
            .with_context(context)?;
            dimacs::write_to(out, &model, &lowered, &[], &dominofit::interrupt::requested)?;
            return Ok(());
        }
        EmitFormat::Opb => opb::write(&model),
        EmitFormat::Lp => lp::write(&model),
        EmitFormat::Mcc => mcc::write(&model).with_context(context)?,
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

fn emit(args: EmitArgs) -> Result<ExitCode> {
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
            // Names that differ can map to one file name (`a/b` and `a_b`): refuse
            // before writing anything rather than overwrite.
            let mut owner: std::collections::BTreeMap<String, &str> = Default::default();
            let mut files_of = Vec::with_capacity(instances.len());
            for instance in &instances {
                let file = format!(
                    "{}.{}",
                    dominofit::escape::file_stem(&instance.name),
                    args.to.extension()
                );
                if let Some(first) = owner.insert(file.clone(), &instance.name) {
                    bail!(
                        "boards `{}` and `{}` would both be written to {file}; rename one \
                         (file names keep letters, digits, `-`, `_` and `.` of a name, and \
                         its first {} characters)",
                        terminal(first),
                        terminal(&instance.name),
                        dominofit::escape::MAX_NAME_CHARS
                    );
                }
                files_of.push(dir.join(file));
            }
            files::check_output_dir(dir, &[])?;
            for (instance, file) in instances.iter().zip(&files_of) {
                files::write_with(file, &mut |out| emit_one(instance, &args, out))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn generate(args: GenerateArgs) -> Result<ExitCode> {
    use dominofit::design::{self, DesignOptions};
    let options = DesignOptions {
        timeout: args.timeout,
        pool: args.pool,
        node_cap: args.node_cap,
        ..DesignOptions::default()
    };
    // What `solve` would refuse to read, `generate` refuses to write.
    let cells = (args.rows as u128) * (args.cols as u128) * u128::from(args.count);
    if cells > dominofit::puzzle::parse::MAX_WORKLOAD_CELLS as u128 {
        return Err(UsageError(format!(
            "{} boards of {}x{} add up to more than the {} cells a workload may hold; \
             generate fewer boards per file",
            args.count,
            args.rows,
            args.cols,
            dominofit::puzzle::parse::MAX_WORKLOAD_CELLS
        ))
        .into());
    }
    let progress = Progress::new(args.count.try_into().unwrap_or(usize::MAX));
    // Boards are streamed as they are made: into a temporary file renamed into place
    // at the end (nothing half-written is left on an error), or to standard output.
    let mut fill = |out: &mut dyn Write| -> Result<()> {
        for index in 0..args.count {
            let instance = if args.unique {
                progress.show(index as usize, "certifying uniqueness");
                design::unique(args.rows, args.cols, args.seed, index, &options)?.instance
            } else if args.unsat {
                progress.show(index as usize, "proving unsatisfiability");
                design::unsat(args.rows, args.cols, args.seed, index, &options)?.instance
            } else if args.open {
                planted_open(args.rows, args.cols, args.seed, index)?.0
            } else {
                planted(args.rows, args.cols, args.seed, index)?.0
            };
            progress.clear();
            writeln!(out, "{}", instance.to_json())?;
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

/// The files `race --out` writes.
const RACE_FILES: [&str; 5] = [
    "runs.csv",
    "summary.json",
    "summary.md",
    "cactus.svg",
    "size.svg",
];

fn race(args: RaceArgs) -> Result<ExitCode> {
    use dominofit::race::{self, RaceOptions};
    let options = RaceOptions {
        limit: args.limit as usize,
        repeat: args.repeat,
        timeout: args.timeout,
        repeat_below: args.repeat_below,
    };
    let (rows, summary) = if args.merge {
        let mut rows = Vec::new();
        for file in &args.workloads {
            let input =
                std::fs::File::open(file).with_context(|| format!("{file}: cannot read"))?;
            rows.extend(race::read_runs_csv(input, file).map_err(anyhow::Error::msg)?);
        }
        race::check_disjoint(&rows).map_err(anyhow::Error::msg)?;
        race::check_agreement(&rows)?;
        let summary = race::summarize(&rows, None, None);
        (rows, summary)
    } else {
        if let Some(dir) = &args.out {
            files::check_output_dir(dir, &RACE_FILES)?;
        }
        let backends: Vec<Box<dyn Backend>> = args
            .backends
            .iter()
            .map(|name| backend_named(name, args.encoding, args.threads.map(|t| t as usize)))
            .collect::<Result<_>>()?;
        let mut workloads = Vec::new();
        for file in &args.workloads {
            workloads.push((file.clone(), read_instances(file)?));
        }
        if let Some(shard) = args.shard {
            workloads = shard.select(workloads);
        }
        let progress = Progress::new(2);
        // Ctrl-C stops the race after the current run; what it measured is written.
        dominofit::interrupt::set_graceful(true);
        let rows = race::race(&workloads, &backends, &options, &mut |done, total| {
            progress.show(done.saturating_sub(1), &format!("run {done} of {total}"));
        });
        progress.clear();
        let rows = rows?;
        let summary = race::summarize(
            &rows,
            Some(args.repeat),
            args.timeout.map(|t| t.as_secs_f64()),
        );
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
            _ => "first solution",
        };
        files::write_atomically(
            &dir.join("cactus.svg"),
            race::cactus_svg(&rows, &format!("Instances solved, {what}")).as_bytes(),
        )?;
        files::write_atomically(
            &dir.join("size.svg"),
            race::size_svg(&rows, &format!("Median time by board size, {what}")).as_bytes(),
        )?;
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

fn show(args: ShowArgs) -> Result<ExitCode> {
    let instances = read_instances(&args.file)?;
    let instance = match (&args.instance, instances.as_slice()) {
        (None, [one]) => one,
        (None, many) => {
            return Err(UsageError(format!(
                "{} holds {} boards; pick one with --instance NAME (the first is `{}`)",
                args.file,
                many.len(),
                terminal(&many[0].name)
            ))
            .into());
        }
        (Some(name), all) => all.iter().find(|i| &i.name == name).with_context(|| {
            format!(
                "{} holds no board named `{}`",
                terminal(&args.file),
                terminal(name)
            )
        })?,
    };
    let solution = if let Some(file) = &args.solution {
        let solutions = read_solutions(file)?;
        let [solution] = <[_; 1]>::try_from(solutions).map_err(|s: Vec<_>| {
            anyhow::anyhow!("{file} holds {} solutions; show draws one", s.len())
        })?;
        if let Err(violation) = verify(instance, &solution) {
            bail!(
                "{file} is not a solution of `{}`: {violation}",
                instance.name
            );
        }
        Some(solution)
    } else if args.solve {
        let request = Request {
            limit: 1,
            timeout: None,
            families: None,
        };
        let report = backend::run(instance, &backend::native::Native::default(), &request)?;
        match report.solutions.into_iter().next() {
            Some(solution) => Some(solution),
            None => bail!(
                "`{}` has no solution ({})",
                instance.name,
                report.status.name()
            ),
        }
    } else {
        None
    };
    match &args.svg {
        Some(path) => files::write_atomically(
            path,
            dominofit::puzzle::svg::board_svg(instance, solution.as_ref()).as_bytes(),
        )?,
        None => writeln!(
            std::io::stdout().lock(),
            "{}",
            draw(instance, solution.as_ref())
        )?,
    }
    Ok(ExitCode::SUCCESS)
}

fn backends() -> Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "{:<15} {:<9} {:<36} reads",
        "name", "kind", "status"
    )?;
    for builtin in backend::registry::BUILTINS {
        writeln!(
            stdout,
            "{:<15} {:<9} {:<36} {}",
            builtin.name, "built-in", "available", builtin.reads
        )?;
    }
    let descriptors = external::descriptors();
    for (name, descriptor) in &descriptors.found {
        let status = match external::probe(descriptor) {
            Ok(version) if version.is_empty() => "found".to_string(),
            Ok(version) => {
                let short: String = version.chars().take(28).collect();
                format!("found: {}", terminal(&short))
            }
            Err(why) => format!("missing ({})", terminal(&why)),
        };
        writeln!(
            stdout,
            "{name:<15} {:<9} {status:<36} {}: {}",
            "external",
            descriptor.reads.name(),
            terminal(&descriptor.about)
        )?;
    }
    for broken in &descriptors.broken {
        writeln!(
            stdout,
            "unreadable descriptor: {}",
            terminal(&broken.to_string())
        )?;
    }
    if let Some(dir) = external::user_dir() {
        writeln!(
            stdout,
            "\nuser descriptors from {} ({})",
            terminal(&dir.display().to_string()),
            external::USER_DIR_VAR
        )?;
    } else {
        writeln!(
            stdout,
            "\nmore external programs: put descriptors (*.toml, see backends/) in a directory named by {}",
            external::USER_DIR_VAR
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Draws an instance for text output; kept here so `output` stays about formats.
pub(crate) fn picture(
    instance: &Instance,
    solution: Option<&dominofit::puzzle::Solution>,
) -> String {
    draw(instance, solution)
}
