//! The command line's shape: subcommands, their arguments and `--help` texts.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use dominofit::encode::Encoding;

use dominofit::model::Families;

mod exit;
mod explain;
mod grade;
mod seconds;

pub(super) use explain::{
    ExplainArgs, HINT_HELP, HintArgs, SHARED_EXIT, SharedArgs, StepFormat, WalkFormat,
};
pub(super) use grade::{GRADE_HELP, GradeArgs, GradeFormat, LevelArg};
use seconds::parse_seconds;

use exit::ends_on_ctrl_c;

/// The exit status of `solve` and `count`.
const SOLVE_EXIT: &str = concat!(
    "Exit status: 0 decisive answers; 3 when any instance ended unknown (its time limit \
     ran out); 1 bad input or backend failure; 2 usage error; ",
    ends_on_ctrl_c!(),
    "."
);

pub(super) const AFTER_HELP: &str = "\
Files: an instance is one JSON object ({\"rows\", \"cols\", \"blocked\", \"row_clues\", \
\"col_clues\"}, optional \"name\"); a workload (*.jsonl) holds one instance per line; `-` \
reads standard input. Coordinates are one-based.

Exit status: 0 decisive answers, 3 when any instance ended unknown, 1 bad input or backend \
failure, 2 usage error, 130 on Ctrl-C or SIGTERM (each command's --help says what it writes \
first).";

/// Compile, solve and verify Domino Fit puzzles with pluggable solver backends.
#[derive(Debug, Parser)]
#[command(name = "dominofit", version, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(Debug, Subcommand)]
pub(super) enum Command {
    /// Solve each instance: first solution, uniqueness check, or all solutions.
    #[command(after_help = SOLVE_EXIT)]
    Solve(SolveArgs),
    /// Count the solutions of each instance exactly (by enumeration, or --backend dp).
    #[command(after_help = SOLVE_EXIT)]
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
    /// Grade each board the way a puzzle designer needs: the weakest rung of the
    /// deduction ladder that solves it without search, the steps of each rung, a score.
    #[command(after_help = GRADE_HELP)]
    Grade(GradeArgs),
    /// The next deduction from the start or from the pieces placed so far: its rule, the
    /// pieces it places or rules out, the reason in words and the cells it rests on.
    #[command(after_help = HINT_HELP)]
    Hint(HintArgs),
    /// Walk through a board deduction by deduction (the ladder's rules, weakest first),
    /// as text, JSON or a page to step through in a browser.
    #[command(after_help = HINT_HELP)]
    Explain(ExplainArgs),
    /// What all the tilings of each board share: the pieces every tiling has, the cells
    /// where they differ, and a hole (a piece's two cells blocked, its dots taken off
    /// the clues) that makes the board unique.
    #[command(after_help = SHARED_EXIT)]
    Shared(SharedArgs),
    /// Check certificate bundles written by `solve --certify`: the board, the tilings
    /// (raw-rules verifier), the rules (rebuilt and compared byte for byte) and the proof
    /// (an external checker: VeriPB for cutting-planes proofs, rate or drat-trim for
    /// DRAT).
    CheckCertificate(CheckCertificateArgs),
    /// List the available backends.
    Backends(BackendsArgs),
    /// Print a completion script for a shell, e.g. `dominofit completions bash >
    /// ~/.local/share/bash-completion/completions/dominofit`.
    Completions(CompletionsArgs),
    /// Print the JSON Schema of one of dominofit's JSON outputs (the same files as
    /// `schemas/` in the repository); without a name, list them.
    Schema(SchemaArgs),
    /// An in-process solver that cannot be stopped (varisat, microlp, HiGHS, CBC) as a
    /// worker process of dominofit itself (internal: those backends start it so that a
    /// deadline can kill it; the task comes on standard input).
    #[command(hide = true)]
    WorkerSolve(WorkerArgs),
    /// One run of a race in a worker process (internal: `race --jobs` starts it, with
    /// the instance as JSON on standard input, and reads its row on standard output).
    #[command(hide = true)]
    WorkerRun(WorkerRunArgs),
    /// varisat writing a DRAT proof, as a worker process (internal: `solve --certify`
    /// starts it so that a deadline can kill it); prints `s SATISFIABLE` or
    /// `s UNSATISFIABLE`.
    #[command(hide = true)]
    WorkerProve(WorkerProveArgs),
}

#[derive(Debug, Args)]
pub(super) struct SchemaArgs {
    /// The output: instance, solution, solve, solve-jsonl, count, backends, model,
    /// race-summary or certificate.
    pub(super) name: Option<String>,
}

#[derive(Debug, Args)]
pub(super) struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub(super) shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub(super) struct WorkerProveArgs {
    /// The DIMACS file to refute.
    pub(super) file: PathBuf,
    /// Where the DRAT proof goes.
    pub(super) proof: PathBuf,
}

#[derive(Debug, Args)]
pub(super) struct CheckCertificateArgs {
    /// Bundle directories, or directories of bundles (as `solve --certify DIR` writes).
    #[arg(required = true)]
    pub(super) dirs: Vec<PathBuf>,
    /// The DRAT checker: a program taking `FORMULA PROOF` and printing `s VERIFIED`.
    /// Default: rate, else drat-trim, from the PATH.
    #[arg(long, value_name = "PROGRAM")]
    pub(super) checker: Option<String>,
    /// The VeriPB checker, for bundles with cutting-planes proofs: a program taking
    /// `FORMULA PROOF` and printing `s VERIFIED UNSATISFIABLE`. Default: veripb, from
    /// the PATH.
    #[arg(long, value_name = "PROGRAM")]
    pub(super) veripb: Option<String>,
    /// Time limit in seconds for checking each proof; past it the bundle is rejected.
    #[arg(long, value_parser = parse_seconds)]
    pub(super) timeout: Option<Duration>,
}

#[derive(Debug, Args)]
pub(super) struct WorkerRunArgs {
    /// The workload the instance comes from, as the row names it.
    #[arg(long)]
    pub(super) workload: String,
    /// The backend to run.
    #[arg(long)]
    pub(super) backend: String,
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=2))]
    pub(super) limit: u32,
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_REPEAT))]
    pub(super) repeat: u32,
    #[arg(long, value_parser = parse_seconds)]
    pub(super) timeout: Option<Duration>,
    #[arg(long, value_parser = parse_seconds)]
    pub(super) repeat_below: Duration,
    #[arg(long, value_enum)]
    pub(super) encoding: Encoding,
    #[arg(long)]
    pub(super) threads: Option<u32>,
    #[arg(long)]
    pub(super) memory: Option<u64>,
}

#[derive(Debug, Args)]
pub(super) struct WorkerArgs {
    /// The built-in backend to run in-process.
    pub(super) backend: String,
}

#[derive(Debug, Args)]
pub(super) struct BackendsArgs {
    /// text: a table for people; json: one object per backend and line (name, kind,
    /// status, version, reads, capabilities, encodings), for scripts.
    #[arg(long, value_enum, default_value = "text")]
    pub(super) format: Format,
}

#[derive(Debug, Args)]
pub(super) struct ShowArgs {
    /// Instance file (or a workload, with --instance to pick one board).
    pub(super) file: String,
    /// Solution file to draw over the board; it must pass the verifier.
    pub(super) solution: Option<String>,
    /// Draw the first solution the native search finds (instead of a solution file).
    #[arg(long, conflicts_with = "solution")]
    pub(super) solve: bool,
    /// The board of a workload to draw, by name.
    #[arg(long)]
    pub(super) instance: Option<String>,
    /// Write an SVG picture to this file instead of drawing text on standard output.
    #[arg(long, value_name = "OUT")]
    pub(super) svg: Option<PathBuf>,
    /// Draw the next deduction (as `dominofit hint` finds it) over the board: the cells
    /// of its reason shaded, the pieces it places in green, those it rules out crossed.
    /// SOLUTION is then the pieces placed so far and may be partial.
    #[arg(long, requires = "svg", conflicts_with = "solve")]
    pub(super) hint: bool,
}

#[derive(Debug, Args)]
pub(super) struct RaceArgs {
    /// Workload (.jsonl) or instance (.json) files; with --merge, runs.csv files of shards.
    #[arg(required = true)]
    pub(super) workloads: Vec<String>,
    /// Run only slice i of n (i/n): the k-th instance of all the workloads belongs to
    /// slice k mod n + 1, so n machines together run every instance exactly once.
    #[arg(long, value_parser = dominofit::race::Shard::parse)]
    pub(super) shard: Option<dominofit::race::Shard>,
    /// Combine the runs.csv files of shards (given in place of workloads) into one report,
    /// stopping on contradictory answers between them.
    #[arg(long, conflicts_with = "shard")]
    pub(super) merge: bool,
    /// Comma-separated backend names (see `dominofit backends`).
    #[arg(long, value_delimiter = ',', default_value = "native")]
    pub(super) backends: Vec<String>,
    /// 1: first solution; 2: uniqueness check; 0: count the solutions (by the backend's
    /// own counter, such as dp's, or by enumeration), comparing the counts across
    /// backends like statuses: a disagreement stops the race naming the instance.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=2))]
    pub(super) limit: u32,
    /// Timed calls per instance after three warm-ups; the per-instance time is their median.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=MAX_REPEAT))]
    pub(super) repeat: u32,
    /// Time limit per call in seconds; an instance stopped by it is capped (unknown).
    #[arg(long, value_parser = parse_seconds)]
    pub(super) timeout: Option<Duration>,
    /// A first call taking at least this many seconds is timed once, not repeated.
    #[arg(long, value_parser = parse_seconds, default_value = "1")]
    pub(super) repeat_below: Duration,
    /// Directory for runs.csv, summary.json, summary.md, cactus.svg, size.svg and index.html
    /// (created if missing; each file written whole or not at all).
    #[arg(long)]
    pub(super) out: Option<PathBuf>,
    /// Cardinality encoding for SAT backends.
    #[arg(long, value_enum, default_value = "totalizer")]
    pub(super) encoding: Encoding,
    /// Portfolio members run at once. Default: the cores available.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub(super) threads: Option<u32>,
    /// Runs at once, each in a worker process of its own pinned to one core (CPU time
    /// and peak memory are then each run's own). Runs side by side share caches and
    /// memory bandwidth: times are noisier than with the default, 1, which runs one at
    /// a time in this process; statuses and counts are the same.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub(super) jobs: u32,
    /// Memory limit in MiB (at least 64): the budget of the backends that size their
    /// work before starting (dp, the SAT lowering), which refuse or stop past it, and a
    /// hard limit on the address space of every program run (external solvers, the
    /// varisat worker), whose allocations then fail: such a run ends `memout`.
    /// Default: half the memory available, at most 8 GiB, for the budget; no limit for
    /// programs.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(64..=1 << 24))]
    pub(super) memory: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Format {
    /// A picture of each board with its pieces, and a summary line.
    Text,
    /// One JSON object per instance and line, as fixed by FORMAT.md.
    Json,
    /// `solve` only: one line per tiling as soon as it is found and verified
    /// ({"name", "solution"}), then one line with the status and statistics
    /// ({"name", "backend", "limit", "status", "complete", "found", "stats"}), also when
    /// the time limit ends the search. Nothing is kept: `--limit 0` runs in constant
    /// memory however many tilings a board has.
    Jsonl,
}

#[derive(Debug, Args)]
pub(super) struct Common {
    /// Instance (.json) or workload (.jsonl) file, or `-` for standard input.
    pub(super) file: String,
    /// Backend to run (see `dominofit backends`).
    #[arg(long, short, default_value = "native")]
    pub(super) backend: String,
    /// Time limit per instance in seconds; a board stopped by it ends `unknown`.
    #[arg(long, value_parser = parse_seconds)]
    pub(super) timeout: Option<Duration>,
    /// Constraint families to compile: minimal (u,t), all (u,p,q,t), colour (all plus
    /// checkerboard splits) or raw (the dot sums themselves). Default: the backend's choice.
    #[arg(long, value_enum)]
    pub(super) families: Option<Families>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub(super) format: Format,
    /// Cardinality encoding of quota groups for the SAT backends.
    #[arg(long, value_enum, default_value = "totalizer")]
    pub(super) encoding: Encoding,
    /// Portfolio members run at once (the first N of its list). Default: the cores
    /// available.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub(super) threads: Option<u32>,
    /// Memory limit in MiB (at least 64): the budget of the backends that size their
    /// work before starting (dp, the SAT lowering), which refuse or stop past it, and a
    /// hard limit on the address space of every program run (external solvers, the
    /// varisat worker), whose allocations then fail: such a run ends `memout`.
    /// Default: half the memory available, at most 8 GiB, for the budget; no limit for
    /// programs.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(64..=1 << 24))]
    pub(super) memory: Option<u64>,
}

#[derive(Debug, Args)]
pub(super) struct SolveArgs {
    #[command(flatten)]
    pub(super) common: Common,
    /// Solutions to look for: 1 the first, 2 to check uniqueness, 0 all of them.
    #[arg(long, short, default_value_t = 1)]
    pub(super) limit: usize,
    /// Benchmark mode: after three warm-up calls, solve each instance N more times (at
    /// most 100000) and report the median time (compilation and search, in-process; not
    /// verification). Ctrl-C stops it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_REPEAT))]
    pub(super) repeat: Option<u32>,
    /// After each decisive answer, write a certificate bundle into DIR/NAME that anyone
    /// can check with `check-certificate`: the tilings, and for `unsat` and `unique` the
    /// raw rules (no clue inversion) with a proof that they have no (further) solution:
    /// by default (--prover native) `rules.opb` and a VeriPB cutting-planes proof, with a
    /// SAT prover `rules.cnf` and a DRAT proof. The prover gets its own --timeout; a
    /// prover that finds a model the answer rules out is an error naming the board.
    #[arg(long, value_name = "DIR", conflicts_with = "repeat")]
    pub(super) certify: Option<PathBuf>,
    #[command(flatten)]
    pub(super) prover: ProverArg,
}

/// The prover of `--certify`, for `solve` and `generate` alike.
#[derive(Debug, Args)]
pub(super) struct ProverArg {
    /// Who proves unsat and unique answers for --certify: native (the native engine
    /// logs its reasoning as a cutting-planes proof of the rules as linear equalities,
    /// checked by VeriPB; seconds where CDCL solvers take minutes), or, for a DRAT proof
    /// of the rules as CNF: auto (the first installed of cadical and kissat, else
    /// varisat), varisat (built in, much slower on large unsat boards), or an external
    /// solver whose descriptor has a `proof` field.
    #[arg(
        long = "prover",
        value_name = "NAME",
        default_value = "native",
        requires = "certify"
    )]
    pub(super) name: String,
}

#[derive(Debug, Args)]
pub(super) struct CountArgs {
    #[command(flatten)]
    pub(super) common: Common,
}

#[derive(Debug, Args)]
pub(super) struct VerifyArgs {
    /// Instance file (or a workload, paired line by line with a JSON Lines solution file).
    pub(super) instance: String,
    /// Solution file: {"vertical": [[r,c],...], "horizontal": [[r,c],...]}.
    pub(super) solution: String,
}

#[derive(Debug, Args)]
pub(super) struct EmitArgs {
    /// Instance (.json) or workload (.jsonl) file, or `-` for standard input.
    pub(super) file: String,
    /// Output format.
    #[arg(long, value_enum)]
    pub(super) to: dominofit::lower::Format,
    /// Output file (one instance) or directory (a workload: one file per instance).
    /// Written whole or not at all. Default: standard output.
    #[arg(long, short)]
    pub(super) output: Option<PathBuf>,
    /// Constraint families to compile.
    #[arg(long, value_enum, default_value = "all")]
    pub(super) families: Families,
    /// Cardinality encoding of quota groups (DIMACS only).
    #[arg(long, value_enum, default_value = "totalizer")]
    pub(super) encoding: Encoding,
}

#[derive(Debug, Args)]
#[command(after_help = "\
Planted boards (the default) take a random tiling, turn up to a fifth of its pieces into \
holes and read the clues off the rest: they always have a solution, often several.

--tiling backtrack makes the random tiling as the paper (Zhao, Section 6.2) does: \
randomized row-major backtracking (at the first uncovered cell the vertical and the \
horizontal piece in random order), on odd-area boards the bottom-right cell blocked \
first; then a uniform number (0 to a fifth of the pieces) of uniformly chosen pieces \
become holes. It follows the protocol exactly and never backtracks: a perfect matching \
of the uncovered cells, kept up to date, tells at once which way still leads to a \
tiling (a 2048x2048 board in about a second). Its tilings have about 34-39% horizontal \
pieces; the default --tiling flips (a canonical tiling shuffled by random 2x2 flips) \
about 50%.

--unique keeps turning pieces of the planted tiling into holes, where it differs from \
another solution, until a native uniqueness check finds only the planted one. The other \
solutions inside an 8x8 window (most of them) go first, each window re-tiled exactly with \
the rest of the tiling fixed; the complete uniqueness checks then remove those that cross \
windows. It takes either --tiling.

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
differently.

Exit status: 0; 3 when a board's check failed and it was skipped; 1 bad input, or with \
--strict a failed check; 2 usage error; 130 on Ctrl-C or SIGTERM: --unique and --unsat \
first write the boards they finished, the others write nothing more.")]
pub(super) struct GenerateArgs {
    /// Rows of each board.
    #[arg(long)]
    pub(super) rows: usize,
    /// Columns of each board.
    #[arg(long)]
    pub(super) cols: usize,
    /// Number of instances.
    #[arg(long, default_value_t = 1)]
    pub(super) count: u64,
    /// Seed of the random stream; the same seed gives the same instances.
    #[arg(long, default_value_t = dominofit::action::generate::DEFAULT_SEED)]
    pub(super) seed: u64,
    /// Boards with exactly one solution, for puzzle design.
    #[arg(long, conflicts_with = "unsat")]
    pub(super) unique: bool,
    /// Unsatisfiable boards that pass every cheap necessary check.
    #[arg(long)]
    pub(super) unsat: bool,
    /// Planted boards without holes: every cell open, clues from a random tiling.
    #[arg(long, conflicts_with_all = ["unique", "unsat"])]
    pub(super) open: bool,
    /// How the random tiling of planted, --open and --unique boards is made. The paper's protocol
    /// is `backtrack`; the default, `flips`, makes a different distribution (see
    /// notes below). Seeds give the same boards as before with `flips`.
    #[arg(long, value_enum, default_value = "flips")]
    pub(super) tiling: dominofit::puzzle::generate::Tiling,
    /// With --unique: boards at exactly this level of the deduction ladder (see `grade
    /// --help`): candidates are made and graded in turn, and the first at the level is
    /// kept (solved there and not at any weaker rung). Says how many were rejected.
    #[arg(long, value_enum, requires = "unique")]
    pub(super) level: Option<LevelArg>,
    /// Time limit in seconds. --unsat: of each board as a whole (ranking its candidates
    /// and refuting them share it), so the call takes at most about COUNT times it; a
    /// board not made within it is reported and skipped. --unique: of each uniqueness
    /// check (a board takes one check per hole it needs, shown on the progress line).
    #[arg(long, value_parser = parse_seconds, default_value = "60")]
    pub(super) timeout: Duration,
    /// --unsat: candidates ranked by the native search before the hardest certified one
    /// is kept.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub(super) pool: u32,
    /// --unsat: the native ranking run of a candidate stops after this many nodes.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) node_cap: u64,
    /// Output file (JSON Lines). Default: standard output.
    #[arg(long, short)]
    pub(super) output: Option<PathBuf>,
    /// --unique, --unsat: write a certificate bundle of each board into DIR/NAME, as
    /// `solve --certify` does: the raw rules with a proof checked by another program
    /// than the generator (by default `rules.opb` and a VeriPB proof; with a SAT
    /// --prover, `rules.cnf` and a DRAT proof).
    #[arg(long, value_name = "DIR")]
    pub(super) certify: Option<PathBuf>,
    #[command(flatten)]
    pub(super) prover: ProverArg,
    /// --unique, --unsat: stop at the first board whose check fails (its uniqueness check
    /// reaches --timeout, no candidate is refuted, its certificate cannot be written)
    /// with exit 1; an -o file is then not written (on standard output the boards before
    /// it are already out). Default: such a board is reported and skipped, every other
    /// board is written, and the exit status is 3.
    #[arg(long)]
    pub(super) strict: bool,
}

/// Most timed calls per instance: enough for a stable median of microsecond runs, and
/// the timings of that many calls take a few megabytes.
pub(super) const MAX_REPEAT: i64 = 100_000;
