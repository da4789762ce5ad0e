//! `hint` (the next deduction) and `explain` (every deduction, as text, JSON or a page).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Result, bail};

use super::args::{ExplainArgs, HintArgs, StepFormat, WalkFormat};
use super::files;
use super::say::say;
use dominofit::backend::Budget;
use dominofit::certify::pb::hint::hint_proof;
use dominofit::design::explain::{Outcome, Step, page};
use dominofit::design::{Walkthrough, explain as walk, hint as next_step};
use dominofit::escape::terminal;
use dominofit::files::{read_instances, read_solutions};
use dominofit::puzzle::parse::InputError;
use dominofit::puzzle::svg::{Marks, marked_svg};
use dominofit::puzzle::{Instance, Solution};
use std::path::Path;

/// The pieces of a partial solution file, or none.
fn given(partial: Option<&str>) -> Result<Solution> {
    let Some(file) = partial else {
        return Ok(Solution::default());
    };
    let solutions = match read_solutions(file) {
        Err(InputError::Empty { .. }) => bail!(
            "{} holds no pieces; give the pieces placed so far as one solution object \
             (`{{\"vertical\": [], \"horizontal\": []}}` for none), or leave PARTIAL out \
             to start from the beginning",
            terminal(file)
        ),
        read => read?,
    };
    match <[_; 1]>::try_from(solutions) {
        Ok([one]) => Ok(one),
        Err(many) => bail!(
            "{} holds {} solutions; give the pieces placed so far as one",
            terminal(file),
            many.len()
        ),
    }
}

fn budget(timeout: Option<std::time::Duration>) -> Budget<'static> {
    Budget::with_timeout(timeout)
}

fn exit(walk: &Walkthrough) -> ExitCode {
    if walk.outcome == Outcome::Stopped {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

pub(super) fn hint(args: HintArgs) -> Result<ExitCode> {
    let instances = read_instances(&args.file)?;
    let instance = files::one_board(&args.file, &instances, args.instance.as_deref())?;
    let given = given(args.partial.as_deref())?;
    let walk = next_step(instance, &given, &budget(args.timeout))?;
    if let Some(path) = &args.svg {
        write_svg(instance, &walk, path)?;
    }
    if let Some(dir) = &args.proof {
        write_proof(instance, &walk, dir)?;
    }
    let mut stdout = std::io::stdout().lock();
    match args.format {
        StepFormat::Json => writeln!(stdout, "{}", serde_json::to_string(&walk)?)?,
        StepFormat::Text => write!(stdout, "{}", hint_text(&walk))?,
    }
    Ok(exit(&walk))
}

/// `show --hint --svg OUT`: the next step from the pieces in `partial`, drawn.
pub(super) fn draw_hint(
    instance: &Instance,
    partial: Option<&str>,
    svg: Option<&Path>,
) -> Result<ExitCode> {
    let walk = next_step(instance, &given(partial)?, &Budget::unlimited())?;
    if let Some(path) = svg {
        write_svg(instance, &walk, path)?;
    }
    Ok(exit(&walk))
}

/// The hint's step as a formula and a VeriPB proof in `dir`; a hint with no step has
/// nothing to prove, and `dir` is then left as it was.
fn write_proof(instance: &Instance, walk: &Walkthrough, dir: &Path) -> Result<()> {
    let Some(step) = walk.steps.first() else {
        bail!("there is no step to prove: {}", walk.ending());
    };
    files::check_output_dir(dir, &["hint.opb", "hint.pbp"])?;
    let proof = hint_proof(instance, &walk.given, &Solution::default(), step)?;
    files::write_atomically(&dir.join("hint.opb"), proof.formula.as_bytes())?;
    files::write_atomically(&dir.join("hint.pbp"), proof.proof.as_bytes())?;
    let dir = terminal(&dir.display().to_string());
    say!("the step's proof: veripb {dir}/hint.opb {dir}/hint.pbp checks it");
    Ok(())
}

/// The board with the walkthrough's given pieces and its first step drawn.
fn write_svg(instance: &Instance, walk: &Walkthrough, path: &Path) -> Result<()> {
    let marks = walk.steps.first().map(marks).unwrap_or_default();
    files::write_atomically(
        path,
        marked_svg(instance, Some(&walk.given), &marks).as_bytes(),
    )
}

pub(super) fn explain(args: ExplainArgs) -> Result<ExitCode> {
    let instances = read_instances(&args.file)?;
    let instance = files::one_board(&args.file, &instances, args.instance.as_deref())?;
    let given = given(args.partial.as_deref())?;
    let walk = walk(instance, &given, usize::MAX, &budget(args.timeout))?;
    let text = match args.format {
        WalkFormat::Json => format!("{}\n", serde_json::to_string(&walk)?),
        WalkFormat::Text => walk_text(&walk),
        WalkFormat::Html => page(instance, &walk)?,
    };
    match &args.output {
        Some(path) => files::write_atomically(path, text.as_bytes())?,
        None => write!(std::io::stdout().lock(), "{text}")?,
    }
    Ok(exit(&walk))
}

/// A step's marks for a picture, zero-based.
fn marks(step: &Step) -> Marks {
    Marks {
        cells: step
            .cells
            .iter()
            .map(|c| (c.0[0] - 1, c.0[1] - 1))
            .collect(),
        placed: step.placed.clone(),
        ruled_out: step.ruled_out.clone(),
    }
}

/// A step in words, indented under its heading.
fn step_text(step: &Step) -> String {
    let mut out = format!("[{}, {}] {}\n", step.rung, rule_name(step), step.reason);
    let pieces = |s: &Solution| -> Vec<String> {
        s.pieces()
            .map(|p| format!("{}({},{})", p.orientation.letter(), p.row + 1, p.col + 1))
            .collect()
    };
    for (what, list) in [
        ("places", pieces(&step.placed)),
        ("rules out", pieces(&step.ruled_out)),
    ] {
        if !list.is_empty() {
            out.push_str(&format!("     {what}: {}\n", list.join(" ")));
        }
    }
    out
}

fn rule_name(step: &Step) -> String {
    serde_json::to_value(step.rule)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn hint_text(walk: &Walkthrough) -> String {
    let name = terminal(&walk.name);
    match walk.steps.first() {
        Some(step) => format!("{name}: next step {}", step_text(step)),
        None => format!("{name}: {}\n", walk.ending()),
    }
}

fn walk_text(walk: &Walkthrough) -> String {
    let mut out = format!("{}: {} steps\n", terminal(&walk.name), walk.steps.len());
    for (i, step) in walk.steps.iter().enumerate() {
        out.push_str(&format!("{:>4}. {}", i + 1, step_text(step)));
    }
    out.push_str(&format!("{}\n", walk.ending()));
    out
}
