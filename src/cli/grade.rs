//! `dominofit grade`: each board's level on the deduction ladder, its steps per rung and
//! its score; for a workload, a table of them too.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use super::args::{GradeArgs, GradeFormat};
use dominofit::backend::Status;
use dominofit::design::{Grade, grade};
use dominofit::escape::terminal;
use dominofit::files::read_instances;

pub(super) fn grade_files(args: GradeArgs) -> Result<ExitCode> {
    let instances = read_instances(&args.file)?;
    let mut stdout = std::io::stdout().lock();
    let mut undecided = false;
    let mut grades = Vec::with_capacity(instances.len());
    for instance in &instances {
        let graded = grade(instance, args.timeout)?;
        undecided |= graded.status == Status::Unknown;
        match args.format {
            GradeFormat::Json => writeln!(stdout, "{}", serde_json::to_string(&graded)?)?,
            GradeFormat::Text => writeln!(stdout, "{}", text(&graded))?,
        }
        grades.push(graded);
    }
    if args.format == GradeFormat::Text && grades.len() > 1 {
        write!(stdout, "{}", table(&grades))?;
    }
    Ok(if undecided {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// One board in words.
fn text(g: &Grade) -> String {
    let name = terminal(&g.name);
    let level = match (&g.level, g.level_number) {
        (Some(level), Some(n)) => format!("level {n}, {level}"),
        _ => "no level".to_string(),
    };
    let verdict = match (g.status, g.reasoning_alone) {
        (Status::Unique, true) => "solved by reasoning alone".to_string(),
        (Status::Unsat, true) => "shown to have no tiling by reasoning alone".to_string(),
        (Status::Unique | Status::Unsat, false) => format!(
            "needs search: reasoning stops with {} pieces undecided",
            g.open_pieces
        ),
        (Status::Multiple | Status::Sat, _) => {
            "has more than one tiling: no reasoning can finish it".to_string()
        }
        (Status::Unknown, _) => "undecided within the time limit".to_string(),
    };
    let s = g.steps;
    format!(
        "{name}: {} {}, {verdict}; steps: singles {}, colours {}, pairs {}, trial {}; score {}",
        g.status.name(),
        format_args!("({level})"),
        s.singles,
        s.colours,
        s.pairs,
        s.trial,
        g.score
    )
}

/// A table over a workload: boards per level.
fn table(grades: &[Grade]) -> String {
    let mut out = String::from("\n| level | boards | median score |\n|---|---:|---:|\n");
    let levels = ["singles", "colours", "pairs", "trial", "search"];
    for level in levels.iter().map(|l| Some(*l)).chain([None]) {
        let mut scores: Vec<u64> = grades
            .iter()
            .filter(|g| g.level.as_deref() == level)
            .map(|g| g.score)
            .collect();
        if scores.is_empty() {
            continue;
        }
        scores.sort_unstable();
        let median = scores[scores.len() / 2];
        out.push_str(&format!(
            "| {} | {} | {median} |\n",
            level.unwrap_or("none (not unique)"),
            scores.len()
        ));
    }
    out
}
