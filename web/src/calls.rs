//! The calls, as plain functions of text to text (tested natively), each bound for
//! JavaScript by `#[wasm_bindgen]`: an `Err` is thrown as its message.

use wasm_bindgen::prelude::*;

use std::time::Duration;

use crate::numbers::{self, millis, whole, whole_in};

use dominofit_core::backend::Budget;
use dominofit_core::backend::native::Native;
use dominofit_core::certify::pb;
use dominofit_core::design;
use dominofit_core::driver::{self, Request};
use dominofit_core::encode::Encoding;
use dominofit_core::lower::Format;
use dominofit_core::lower::emit::{EmitOptions, emit_text_within};
use dominofit_core::model::Families;
use dominofit_core::puzzle::generate::{Tiling, check_size, planted_by, with_clues_of};
use dominofit_core::puzzle::parse::{
    MAX_WORKLOAD_CELLS, parse_given_instances, parse_given_solutions,
};
use dominofit_core::puzzle::verify::{verdict_line, verify};
use dominofit_core::puzzle::{Instance, Solution, draw::draw, svg::board_svg};
use dominofit_core::puzzle::{backtrack, perfect_matching};

/// What a page names the text it hands over, in messages (a file's name on the command
/// line), and the name a board without one gets (the command line's file stem).
const INSTANCE: (&str, &str) = ("<instance>", "board");
const SOLUTION: &str = "<solution>";

/// The memory a page's call may plan for: a tab's WebAssembly memory is at most 4 GiB,
/// and a page shares it with everything else it holds.
const BUDGET: u64 = 1 << 30;

/// The longest text a page is handed: V8's longest string (2^29 - 24 characters), which
/// a longer one would make JavaScript refuse in the glue, after the work.
const MAX_TEXT: u64 = (1 << 29) - 24;

/// What a page's refusals say the user can change: its budget is fixed, and its one
/// engine is the native search.
const WORDS: dominofit_core::memory::Words = dominofit_core::memory::Words {
    budget: "a page's fixed share of its memory",
    more: Some("a page cannot give it more memory; run the command line on a machine that has it"),
    other_backends: false,
};

/// The page's memory budget and the words of its refusals, set before each call plans.
fn page_budget() {
    dominofit_core::memory::set_words(WORDS);
    dominofit_core::memory::set_limit(Some(BUDGET));
}

/// The boards of an instance or workload text.
fn boards(text: &str) -> Result<Vec<Instance>, String> {
    parse_given_instances(text, INSTANCE.0, INSTANCE.1).map_err(|e| e.to_string())
}

/// The one board of `text`; a workload of several is refused (the command line's
/// `--instance NAME` picks one; a page hands over the board it shows).
fn one_board(text: &str) -> Result<Instance, String> {
    let mut boards = boards(text)?;
    match boards.len() {
        1 => Ok(boards.remove(0)),
        n => Err(format!(
            "{} holds {n} boards; this call takes one",
            INSTANCE.0
        )),
    }
}

/// The one tiling (or set of pieces) of `text`; `what` says what the call wants of it
/// when there are several.
fn one_tiling(text: &str, what: &str) -> Result<Solution, String> {
    let mut tilings = parse_given_solutions(text, SOLUTION).map_err(|e| e.to_string())?;
    match tilings.len() {
        1 => Ok(tilings.remove(0)),
        n => Err(format!("{SOLUTION} holds {n} solutions; {what}")),
    }
}

/// The one tiling of `text`, which must be a tiling of `board`.
fn one_tiling_of(board: &Instance, text: &str) -> Result<Solution, String> {
    let tiling = one_tiling(text, "this call takes one")?;
    verify(board, &tiling).map_err(|violation| {
        format!(
            "{SOLUTION} is not a solution of `{}`: {violation}",
            board.name
        )
    })?;
    Ok(tiling)
}

/// The board (and, when given, its tiling) as text: what `dominofit show FILE
/// [SOLUTION]` prints.
///
/// # Errors
/// The text is not one board, or the tiling not one of its solutions.
#[wasm_bindgen(js_name = showText)]
pub fn show_text(instance: &str, solution: Option<String>) -> Result<String, String> {
    let board = one_board(instance)?;
    let tiling = solution.map(|s| one_tiling_of(&board, &s)).transpose()?;
    Ok(format!("{}\n", draw(&board, tiling.as_ref())))
}

/// The board (and its tiling) as SVG: what `dominofit show FILE [SOLUTION] --svg OUT`
/// writes.
///
/// # Errors
/// As [`show_text`].
#[wasm_bindgen(js_name = showSvg)]
pub fn show_svg(instance: &str, solution: Option<String>) -> Result<String, String> {
    let board = one_board(instance)?;
    let tiling = solution.map(|s| one_tiling_of(&board, &s)).transpose()?;
    Ok(board_svg(&board, tiling.as_ref()))
}

/// Each board's verdict on its tiling, paired one to one, a line each: what `dominofit
/// verify INSTANCE SOLUTION` prints (whose exit status says whether every line is
/// `valid`; here, the lines say it).
///
/// # Errors
/// Unreadable text, or not as many tilings as boards.
#[wasm_bindgen]
pub fn verify_text(instance: &str, solution: &str) -> Result<String, String> {
    let boards = boards(instance)?;
    let tilings = parse_given_solutions(solution, SOLUTION).map_err(|e| e.to_string())?;
    if boards.len() != tilings.len() {
        return Err(format!(
            "{} holds {} instances but {SOLUTION} holds {} solutions; they are paired one to one",
            INSTANCE.0,
            boards.len(),
            tilings.len()
        ));
    }
    let mut out = String::new();
    for (board, tiling) in boards.iter().zip(&tilings) {
        out.push_str(&verdict_line(board, tiling).1);
        out.push('\n');
    }
    Ok(out)
}

/// The board whose clues are the dots of `solution`, with the blocked cells and name of
/// `instance` (whose own clues are ignored): a designer places pieces and reads the
/// clues they make. One line of instance JSON, as `generate` writes boards.
///
/// # Errors
/// The text is not one board, or the tiling does not cover its open cells exactly once.
#[wasm_bindgen(js_name = cluesOf)]
pub fn clues_of(instance: &str, solution: &str) -> Result<String, String> {
    let board = one_board(instance)?;
    let tiling = one_tiling(solution, "this call takes one")?;
    let clued = with_clues_of(
        board.name.clone(),
        board.rows,
        board.cols,
        board.blocked.clone(),
        &tiling,
    )
    .map_err(|e| e.to_string())?;
    // The clues are the tiling's own, so a verdict other than valid is about the cover:
    // a piece off the board or on a blocked cell, an overlap or an open cell left bare.
    verify(&clued, &tiling)
        .map_err(|violation| format!("{SOLUTION} does not tile `{}`: {violation}", board.name))?;
    Ok(format!("{}\n", clued.to_json()))
}

/// A random tiling of the open cells of `instance` (its clues are not read), drawn by the
/// paper's randomized row-major backtracking from `seed`, as solution JSON: a designer's
/// shape filled with pieces, whose clues [`clues_of`] then gives. Within `timeout_ms`
/// milliseconds (0: no limit), and stopped by a newer request like every call.
///
/// # Errors
/// The text is not one board, its open cells have no tiling, or the time ran out.
#[wasm_bindgen(js_name = randomTiling)]
pub fn random_tiling(instance: &str, seed: u64, timeout_ms: f64) -> Result<String, String> {
    use rand_chacha::rand_core::SeedableRng;
    let timeout = millis(timeout_ms)?;
    let board = one_board(instance)?;
    let budget = Budget::with_timeout(timeout);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let stop = || budget.expired();
    let found = backtrack::tiling(board.rows, board.cols, &board.blocked, &mut rng, &stop)
        .map_err(|_| stopped("the random tiling", timeout))?;
    let Some(found) = found else {
        return Err(format!("the open cells of `{}` have no tiling", board.name));
    };
    let pieces = perfect_matching::pieces(board.cols, &found.mate);
    serde_json::to_string(&Solution::from_pieces(pieces)).map_err(|e| e.to_string())
}

/// Why work that gives no partial answer ended early: its time limit, or a stop (a
/// newer request, the host's stop flag).
fn stopped(what: &str, timeout: Option<Duration>) -> String {
    match timeout {
        Some(limit) if !dominofit_core::stop::stopped_here() => format!(
            "{what} was not made within the time limit ({} ms)",
            limit.as_millis()
        ),
        _ => format!("{what} was stopped before it was made"),
    }
}

/// `count` planted boards of `rows` × `cols` from `seed`, one line of instance JSON each:
/// what `dominofit generate --rows R --cols C --seed S --count N [--open] [--tiling T]`
/// prints. `tiling` is `flips` (the default) or `backtrack` (the paper's protocol). The
/// seed is a `u64`, a `BigInt` in JavaScript, as on the command line.
///
/// # Errors
/// A size out of range, too many cells for one workload, or an unknown tiling.
#[wasm_bindgen]
pub fn generate(
    rows: f64,
    cols: f64,
    seed: i128,
    count: f64,
    open: bool,
    tiling: &str,
) -> Result<String, String> {
    let (rows, cols): (usize, usize) = (whole("rows", rows)?, whole("cols", cols)?);
    let (seed, count): (u64, u64) = (numbers::seed(seed)?, whole("count", count)?);
    check_size(rows, cols).map_err(|e| e.to_string())?;
    let cells = (rows as u64).saturating_mul(cols as u64);
    if cells.saturating_mul(count) > MAX_WORKLOAD_CELLS as u64 {
        return Err(format!(
            "{count} boards of {rows}×{cols} are more than one workload holds ({MAX_WORKLOAD_CELLS} cells)"
        ));
    }
    let tiling = match tiling {
        "" | "flips" => Tiling::Flips,
        "backtrack" => Tiling::Backtrack,
        other => return Err(format!("unknown tiling `{other}` (flips or backtrack)")),
    };
    let mut out = String::new();
    for index in 0..count {
        let (board, _) =
            planted_by(rows, cols, seed, index, !open, tiling).map_err(|e| e.to_string())?;
        out.push_str(&board.to_json());
        out.push('\n');
    }
    Ok(out)
}

/// Each board solved by the native engine, looking for `limit` tilings (1: the first; 2:
/// whether it is unique; 0: all), within `timeout_ms` milliseconds (0: no limit): one
/// line of JSON each, what `dominofit solve FILE --limit L --timeout T --format json`
/// prints (but for the time measured). A page's worker makes this call; a newer request
/// stops it through the core's stop flag.
///
/// # Errors
/// Unreadable text, a board too large for a page, or a failure of the engine (never an
/// answer about the board: no tiling is the status `unsat`, a time limit `unknown`).
#[wasm_bindgen]
pub fn solve(instance: &str, limit: f64, timeout_ms: f64) -> Result<String, String> {
    let request = Request {
        limit: whole("limit", limit)?,
        timeout: millis(timeout_ms)?,
        families: None,
    };
    page_budget();
    let engine = Native::default();
    let mut out = String::new();
    for board in boards(instance)? {
        let report = driver::run(&board, &engine, &request).map_err(|e| e.to_string())?;
        out.push_str(&serde_json::to_string(&report).map_err(|e| e.to_string())?);
        out.push('\n');
    }
    Ok(out)
}

/// The pieces placed so far: none when not given (the command line's PARTIAL left out).
fn placed(partial: Option<String>) -> Result<Solution, String> {
    match partial {
        None => Ok(Solution::default()),
        Some(text) => one_tiling(&text, "give the pieces placed so far as one"),
    }
}

/// Each board's level on the deduction ladder, its steps per rung and its score, one
/// line of JSON each: what `dominofit grade FILE --format json [--timeout T]` prints.
///
/// # Errors
/// Unreadable text, or a board too large.
#[wasm_bindgen]
pub fn grade(instance: &str, timeout_ms: f64) -> Result<String, String> {
    let timeout = millis(timeout_ms)?;
    page_budget();
    let mut out = String::new();
    for board in boards(instance)? {
        let graded = design::grade(&board, timeout).map_err(|e| e.to_string())?;
        out.push_str(&serde_json::to_string(&graded).map_err(|e| e.to_string())?);
        out.push('\n');
    }
    Ok(out)
}

/// The next deduction from the pieces placed so far (`partial`, none when not given),
/// with its cells and its reason: what `dominofit hint FILE [PARTIAL] --format json`
/// prints.
///
/// # Errors
/// The text is not one board, the pieces are not readable, or the board too large.
#[wasm_bindgen]
pub fn hint(instance: &str, partial: Option<String>, timeout_ms: f64) -> Result<String, String> {
    let (_, walk) = next_step(instance, partial, timeout_ms)?;
    let mut out = serde_json::to_string(&walk).map_err(|e| e.to_string())?;
    out.push('\n');
    Ok(out)
}

/// The board of `instance` and its next step from the pieces of `partial`, within
/// `timeout_ms` (0: none): what [`hint`] prints and [`hint_proof`] proves.
fn next_step(
    instance: &str,
    partial: Option<String>,
    timeout_ms: f64,
) -> Result<(Instance, design::explain::Walkthrough), String> {
    let timeout = millis(timeout_ms)?;
    page_budget();
    let board = one_board(instance)?;
    let given = placed(partial)?;
    let budget = Budget::with_timeout(timeout);
    let walk = design::hint(&board, &given, &budget).map_err(|e| e.to_string())?;
    Ok((board, walk))
}

/// The next deduction's proof: `{"formula", "proof"}`, the texts `dominofit hint FILE
/// [PARTIAL] --proof DIR` writes to `DIR/hint.opb` and `DIR/hint.pbp`, which VeriPB
/// checks (the rules, the pieces placed and the hint's conclusion denied, refuted).
///
/// # Errors
/// As [`hint`]; and a position with no next step has nothing to prove.
#[wasm_bindgen(js_name = hintProof)]
pub fn hint_proof(
    instance: &str,
    partial: Option<String>,
    timeout_ms: f64,
) -> Result<String, String> {
    let (board, walk) = next_step(instance, partial, timeout_ms)?;
    let Some(step) = walk.steps.first() else {
        return Err(format!("there is no step to prove: {}", walk.ending()));
    };
    let proof = pb::hint::hint_proof(&board, &walk.given, &Solution::default(), step)
        .map_err(|e| e.to_string())?;
    let mut out = serde_json::to_string(&proof).map_err(|e| e.to_string())?;
    out.push('\n');
    Ok(out)
}

/// The walkthrough from the pieces placed so far to the end, every step with its rule
/// and reason: what `dominofit explain FILE [PARTIAL] --format json` prints, or with
/// `page` the self-contained page of `--format html`.
///
/// # Errors
/// As [`hint`].
#[wasm_bindgen]
pub fn explain(
    instance: &str,
    partial: Option<String>,
    timeout_ms: f64,
    page: bool,
) -> Result<String, String> {
    let timeout = millis(timeout_ms)?;
    page_budget();
    let board = one_board(instance)?;
    let given = placed(partial)?;
    let budget = Budget::with_timeout(timeout);
    let walk = design::explain(&board, &given, usize::MAX, &budget).map_err(|e| e.to_string())?;
    if page {
        return design::explain::page(&board, &walk).map_err(|e| e.to_string());
    }
    let mut out = serde_json::to_string(&walk).map_err(|e| e.to_string())?;
    out.push('\n');
    Ok(out)
}

/// The pieces every tiling shares and a hole that would make the board unique, one line
/// of JSON each: what `dominofit shared FILE --format json --max-tilings M --tries T`
/// prints (the command line's defaults are 1000 and 64).
///
/// # Errors
/// Unreadable text, a cap below 2, or a board too large.
#[wasm_bindgen]
pub fn shared(
    instance: &str,
    max_tilings: f64,
    tries: f64,
    timeout_ms: f64,
) -> Result<String, String> {
    // The command line's `--max-tilings` range and `--tries` type.
    let max_tilings = whole_in("max_tilings", max_tilings, 2..=1_000_000)?;
    let tries: usize = whole("tries", tries)?;
    let timeout = millis(timeout_ms)?;
    page_budget();
    let mut out = String::new();
    for board in boards(instance)? {
        let found = design::shared(&board, max_tilings as usize, tries, timeout)
            .map_err(|e| e.to_string())?;
        out.push_str(&serde_json::to_string(&found).map_err(|e| e.to_string())?);
        out.push('\n');
    }
    Ok(out)
}

/// `count` unique boards of `rows` × `cols` from `seed`, each certified by an exhaustive
/// search, and with `level` (1 to 5: singles, colours, pairs, trial, search; 0: any) the
/// first candidate graded at exactly that level: one line of instance JSON each, what
/// `dominofit generate --unique [--level L] --rows R --cols C --seed S --count N` prints.
///
/// # Errors
/// A size out of range, a level out of range, no candidate at the level, or a
/// certifying search that ran out of time.
#[wasm_bindgen(js_name = generateUnique)]
pub fn generate_unique(
    rows: f64,
    cols: f64,
    seed: i128,
    count: f64,
    level: f64,
) -> Result<String, String> {
    let (rows, cols): (usize, usize) = (whole("rows", rows)?, whole("cols", cols)?);
    let (seed, count): (u64, u64) = (numbers::seed(seed)?, whole("count", count)?);
    let level: u32 = whole("level", level)?;
    check_size(rows, cols).map_err(|e| e.to_string())?;
    if level > 5 {
        return Err(format!("level {level} is none of 1 to 5 (0: any)"));
    }
    page_budget();
    let options = design::DesignOptions::default();
    let mut out = String::new();
    for index in 0..count {
        let board = if level == 0 {
            design::unique(rows, cols, seed, index, &options).map_err(|e| e.to_string())?
        } else {
            let found = design::unique_at_level(
                (rows, cols),
                seed,
                index,
                level,
                Tiling::Flips,
                &options,
                &mut |_| {},
            )
            .map_err(|e| e.to_string())?;
            let Some((board, _)) = found else {
                return Err(format!(
                    "no board at level {level} among {} unique candidates of {rows}×{cols} (seed {seed}, board {})",
                    options.attempts,
                    index + 1
                ));
            };
            board
        };
        out.push_str(&board.instance.to_json());
        out.push('\n');
    }
    Ok(out)
}

/// Each board's model in `to` (a format's name, as `emit --to` takes it), with the
/// cardinality `encoding` and constraint `families` named as on the command line: what
/// `dominofit emit FILE --to T --encoding E --families F` prints.
///
/// # Errors
/// An unknown name, unreadable text, or a model too large for a page.
#[wasm_bindgen]
pub fn emit(instance: &str, to: &str, encoding: &str, families: &str) -> Result<String, String> {
    let options = EmitOptions {
        to: to.parse::<Format>().map_err(|e| e.to_string())?,
        encoding: encoding.parse::<Encoding>().map_err(|e| e.to_string())?,
        families: families.parse::<Families>().map_err(|e| e.to_string())?,
    };
    page_budget();
    let mut out = String::new();
    for board in boards(instance)? {
        let room = MAX_TEXT - out.len() as u64;
        let text = emit_text_within(
            &board,
            &options,
            BUDGET,
            room,
            &dominofit_core::stop::stopped_here,
        )
        .map_err(|e| e.to_string())?;
        out.push_str(&text);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
