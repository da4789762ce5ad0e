//! Reading the answers of external programs.

use std::path::Path;

use super::descriptor::{AnswerFormat, Descriptor};
use crate::backend::AnswerError;
use crate::model::PlacementId;
use crate::process::Run;

/// What a program said.
pub enum ProgramAnswer {
    Solution(Vec<PlacementId>),
    Unsatisfiable,
    /// The program gave up (its own limit) without deciding.
    Unknown,
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().rev().take(3).collect();
    let joined = lines.into_iter().rev().collect::<Vec<_>>().join(" | ");
    // What a program printed is data: no control characters reach the terminal, and a
    // long line is cut.
    let cut: String = joined.chars().take(400).collect();
    crate::escape::terminal(&cut)
}

/// Reads the verdict in the descriptor's format.
///
/// # Errors
/// A crash, an exit status that is not a verdict, or an answer that does not parse.
pub fn read(
    descriptor: &Descriptor,
    run: &Run,
    output: &Path,
    placements: usize,
    names: &dyn Fn(&str) -> Option<PlacementId>,
    max_answer: usize,
) -> Result<ProgramAnswer, AnswerError> {
    use std::os::unix::process::ExitStatusExt;
    // A program that printed a verdict and then crashed may have printed it in error (a
    // broken proof, a half-written model): no verdict from a crashed program is trusted.
    if let Some(signal) = run.status.and_then(|s| s.signal()) {
        let name = nix::sys::signal::Signal::try_from(signal)
            .map_or_else(|_| format!("signal {signal}"), |s| s.as_str().to_string());
        return Err(AnswerError::Killed {
            signal: name,
            printed: printed(run),
        });
    }
    let code = run.status.and_then(|s| s.code());
    // A shell wrapper reports its program's death by a signal as 128 + the signal.
    if let Some(code) = code.filter(|&c| c > 128) {
        return Err(AnswerError::ShellSignal {
            code,
            signal: code - 128,
            printed: printed(run),
        });
    }
    let answer_file = || -> Result<String, AnswerError> {
        let size = std::fs::metadata(output)
            .map_err(|_| crashed_message(run, code))?
            .len();
        if size > max_answer as u64 {
            return Err(AnswerError::TooLarge {
                size,
                max: max_answer,
            });
        }
        std::fs::read_to_string(output).map_err(|_| crashed_message(run, code))
    };
    let crashed = || crashed_message(run, code);
    match descriptor.answer {
        AnswerFormat::Competition => {
            competition(&run.stdout, code, placements).ok_or_else(crashed)?
        }
        AnswerFormat::Minisat => minisat(&answer_file()?, placements).ok_or_else(crashed)?,
        AnswerFormat::Cbc => cbc(&answer_file()?, names),
        AnswerFormat::Glpsol => glpsol(&answer_file()?, names),
        AnswerFormat::Pb => pb(&run.stdout, code, placements).ok_or_else(crashed)?,
        AnswerFormat::Minizinc => minizinc(&run.stdout, names).ok_or_else(crashed)?,
    }
}

fn crashed_message(run: &Run, code: Option<i32>) -> AnswerError {
    AnswerError::NoVerdict {
        status: code.map_or("no status".to_string(), |c| format!("status {c}")),
        printed: printed(run),
    }
}

/// The end of what a program printed: its standard error, or its output when that is
/// empty.
fn printed(run: &Run) -> String {
    tail(if run.stderr.trim().is_empty() {
        &run.stdout
    } else {
        &run.stderr
    })
}

/// Positive literals among the placement variables, from a stream of signed integers
/// ending in 0 (models may wrap over several lines).
fn model_from(
    tokens: impl Iterator<Item = String>,
    placements: usize,
) -> Result<Vec<PlacementId>, AnswerError> {
    let mut chosen = Vec::new();
    let mut closed = false;
    for token in tokens {
        let v: i64 = token
            .parse()
            .map_err(|_| AnswerError::Unreadable(format!("`{token}` is not a literal")))?;
        if v == 0 {
            closed = true;
            break;
        }
        if v > 0 && (v as usize) <= placements {
            chosen.push((v - 1) as PlacementId);
        }
    }
    if !closed {
        return Err(AnswerError::Unreadable(
            "the model does not end with 0".to_string(),
        ));
    }
    chosen.sort_unstable();
    chosen.dedup();
    Ok(chosen)
}

/// The text of the first `s` line (the competitions' status line).
fn status_line(stdout: &str) -> Option<&str> {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("s "))
        .map(str::trim)
}

/// `None` when there is no verdict at all (the caller reports a crash).
fn competition(
    stdout: &str,
    code: Option<i32>,
    placements: usize,
) -> Option<Result<ProgramAnswer, AnswerError>> {
    let status = status_line(stdout);
    // The SAT competition's convention, which every shipped solver follows: 10 with a
    // model, 20 with a refutation. Another status (0 included) is a program that did not
    // finish what it printed.
    let mismatch = |said: &'static str, wanted: i32| {
        (code != Some(wanted)).then(|| AnswerError::StatusMismatch {
            said,
            code: code.map_or("no status".to_string(), |c| format!("status {c}")),
        })
    };
    match status {
        Some("SATISFIABLE") => {
            if let Some(e) = mismatch("SATISFIABLE", 10) {
                return Some(Err(e));
            }
            let tokens = stdout
                .lines()
                .filter_map(|l| l.strip_prefix("v "))
                .flat_map(|l| l.split_whitespace().map(str::to_string));
            Some(model_from(tokens, placements).map(ProgramAnswer::Solution))
        }
        Some("UNSATISFIABLE") => {
            if let Some(e) = mismatch("UNSATISFIABLE", 20) {
                return Some(Err(e));
            }
            Some(Ok(ProgramAnswer::Unsatisfiable))
        }
        Some("UNKNOWN") | Some("INDETERMINATE") => Some(Ok(ProgramAnswer::Unknown)),
        Some(other) => Some(Err(AnswerError::Unreadable(format!(
            "unknown status line `s {other}`"
        )))),
        None => None,
    }
}

/// MiniZinc's answer: the first solution's `name = 1;` lines; `None` without any
/// status (the caller reports a crash).
fn minizinc(
    stdout: &str,
    names: &dyn Fn(&str) -> Option<PlacementId>,
) -> Option<Result<ProgramAnswer, AnswerError>> {
    let lines: Vec<&str> = stdout.lines().map(str::trim).collect();
    // A MIP solver cannot tell the two apart; with every domain 0..1 nothing is
    // unbounded.
    if lines.contains(&"=====UNSATISFIABLE=====") || lines.contains(&"=====UNSATorUNBOUNDED=====") {
        return Some(Ok(ProgramAnswer::Unsatisfiable));
    }
    if lines.contains(&"=====UNKNOWN=====") {
        return Some(Ok(ProgramAnswer::Unknown));
    }
    let end = lines.iter().position(|l| *l == "----------")?;
    let mut chosen = Vec::new();
    for line in &lines[..end] {
        let Some((name, value)) = line.trim_end_matches(';').split_once(" = ") else {
            continue;
        };
        let Some(id) = names(name.trim()) else {
            continue;
        };
        match value.trim() {
            "1" => chosen.push(id),
            "0" => {}
            other => {
                return Some(Err(AnswerError::Unreadable(format!(
                    "`{}` is not a 0/1 value of {}",
                    crate::escape::terminal(other),
                    crate::escape::terminal(name)
                ))));
            }
        }
    }
    chosen.sort_unstable();
    chosen.dedup();
    Some(Ok(ProgramAnswer::Solution(chosen)))
}

/// The pseudo-Boolean competition's answer; `None` without an `s` line.
fn pb(
    stdout: &str,
    code: Option<i32>,
    placements: usize,
) -> Option<Result<ProgramAnswer, AnswerError>> {
    let status = status_line(stdout)?;
    let mismatch = |said: &'static str, allowed: &[i32]| {
        code.filter(|c| !allowed.contains(c))
            .map(|code| AnswerError::StatusMismatch {
                said,
                code: format!("status {code}"),
            })
    };
    Some(match status {
        "SATISFIABLE" | "OPTIMUM FOUND" => {
            if let Some(e) = mismatch("SATISFIABLE", &[0, 10, 30]) {
                return Some(Err(e));
            }
            let mut chosen = Vec::new();
            let tokens = stdout
                .lines()
                .filter_map(|l| l.strip_prefix("v "))
                .flat_map(str::split_whitespace);
            for token in tokens {
                let (positive, name) = match token.strip_prefix('-') {
                    Some(name) => (false, name),
                    None => (true, token),
                };
                let index = name
                    .strip_prefix('x')
                    .and_then(|k| k.parse::<usize>().ok())
                    .filter(|&k| k > 0);
                let Some(index) = index else {
                    return Some(Err(AnswerError::Unreadable(format!(
                        "`{}` is not a literal",
                        crate::escape::terminal(token)
                    ))));
                };
                if positive && index <= placements {
                    chosen.push((index - 1) as PlacementId);
                }
            }
            chosen.sort_unstable();
            chosen.dedup();
            Ok(ProgramAnswer::Solution(chosen))
        }
        "UNSATISFIABLE" => match mismatch("UNSATISFIABLE", &[0, 20]) {
            Some(e) => Err(e),
            None => Ok(ProgramAnswer::Unsatisfiable),
        },
        "UNKNOWN" => Ok(ProgramAnswer::Unknown),
        other => Err(AnswerError::Unreadable(format!(
            "unknown status line `s {}`",
            crate::escape::terminal(other)
        ))),
    })
}

fn minisat(text: &str, placements: usize) -> Option<Result<ProgramAnswer, AnswerError>> {
    let mut lines = text.lines();
    match lines.next().map(str::trim) {
        Some("SAT") => {
            let tokens = lines.flat_map(|l| l.split_whitespace().map(str::to_string));
            Some(model_from(tokens, placements).map(ProgramAnswer::Solution))
        }
        Some("UNSAT") => Some(Ok(ProgramAnswer::Unsatisfiable)),
        Some("INDET") => Some(Ok(ProgramAnswer::Unknown)),
        _ => None,
    }
}

/// Values `name value` of the placement columns, looked up by name.
fn named_solution<'a>(
    rows: impl Iterator<Item = (&'a str, &'a str)>,
    names: &dyn Fn(&str) -> Option<PlacementId>,
) -> Result<ProgramAnswer, AnswerError> {
    let mut chosen = Vec::new();
    for (name, value) in rows {
        let Some(id) = names(name) else { continue };
        let v: f64 = value.parse().map_err(|_| {
            AnswerError::Unreadable(format!("value `{value}` of {name} is not a number"))
        })?;
        if v > 0.5 {
            chosen.push(id);
        }
    }
    chosen.sort_unstable();
    Ok(ProgramAnswer::Solution(chosen))
}

fn cbc(
    text: &str,
    names: &dyn Fn(&str) -> Option<PlacementId>,
) -> Result<ProgramAnswer, AnswerError> {
    let first = text.lines().next().unwrap_or("").trim();
    if first.starts_with("Optimal") || first.starts_with("Stopped on time - objective value") {
        let rows = text.lines().skip(1).filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() >= 3).then(|| (f[1], f[2]))
        });
        named_solution(rows, names)
    } else if first.starts_with("Infeasible") || first.starts_with("Integer infeasible") {
        Ok(ProgramAnswer::Unsatisfiable)
    } else if first.starts_with("Stopped") {
        Ok(ProgramAnswer::Unknown)
    } else {
        Err(AnswerError::Unreadable(format!(
            "unreadable solution file, first line `{first}`"
        )))
    }
}

fn glpsol(
    text: &str,
    names: &dyn Fn(&str) -> Option<PlacementId>,
) -> Result<ProgramAnswer, AnswerError> {
    let unreadable = |what: &str| AnswerError::Unreadable(what.to_string());
    let status = text
        .lines()
        .find_map(|l| l.strip_prefix("Status:"))
        .map(str::trim)
        .ok_or_else(|| unreadable("no `Status:` line in the report"))?;
    match status {
        "INTEGER OPTIMAL" | "INTEGER FEASIBLE" => {
            let columns = text
                .split("Column name")
                .nth(1)
                .ok_or_else(|| unreadable("no column section in the report"))?;
            let rows = columns
                .lines()
                .skip(2)
                .take_while(|l| !l.trim().is_empty())
                .filter_map(|l| {
                    let f: Vec<&str> = l.split_whitespace().collect();
                    // `No. name [*] activity lower upper`: `*` marks integer columns.
                    match f.as_slice() {
                        [_, name, "*", value, ..] => Some((*name, *value)),
                        [_, name, value, ..] => Some((*name, *value)),
                        _ => None,
                    }
                });
            named_solution(rows, names)
        }
        // EMPTY: no integer point; INFEASIBLE (FINAL): even the LP relaxation has none
        // (glpsol stops before the integer phase).
        "INTEGER EMPTY" | "INFEASIBLE (FINAL)" => Ok(ProgramAnswer::Unsatisfiable),
        s if s.contains("UNDEFINED") || s.contains("INTERMEDIATE") => Ok(ProgramAnswer::Unknown),
        other => Err(AnswerError::Unreadable(format!(
            "unexpected status `{other}`"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::{AnswerError, ProgramAnswer, minizinc, pb};
    use std::collections::BTreeMap;

    #[test]
    fn minizinc_answers_are_read_by_name() {
        let names: BTreeMap<String, u32> = [("v_1_1", 0), ("h_1_1", 1), ("v_1_2", 2)]
            .map(|(n, k)| (n.to_string(), k))
            .into();
        let first = "v_1_1 = 1;\nh_1_1 = 0;\nv_1_2 = 1;\n----------\nv_1_1 = 0;\n----------\n";
        assert!(
            matches!(minizinc(first, &|n| names.get(n).copied()), Some(Ok(ProgramAnswer::Solution(v))) if v == [0, 2])
        );
        assert!(matches!(
            minizinc("=====UNSATISFIABLE=====\n", &|n| names.get(n).copied()),
            Some(Ok(ProgramAnswer::Unsatisfiable))
        ));
        assert!(matches!(
            minizinc("=====UNKNOWN=====\n", &|n| names.get(n).copied()),
            Some(Ok(ProgramAnswer::Unknown))
        ));
        assert!(
            minizinc("v_1_1 = 1;\n", &|n| names.get(n).copied()).is_none(),
            "a solution never finished"
        );
        assert!(matches!(
            minizinc("v_1_1 = 2;\n----------\n", &|n| names.get(n).copied()),
            Some(Err(AnswerError::Unreadable(_)))
        ));
    }

    #[test]
    fn pseudo_boolean_answers_are_read_by_their_literals() {
        let sat = "c comment\ns SATISFIABLE\nv x1 -x2 x3\nv -x4 x5 x9\n";
        // x9 is past the placements (an auxiliary variable): not a placement.
        assert!(
            matches!(pb(sat, Some(0), 5), Some(Ok(ProgramAnswer::Solution(v))) if v == [0, 2, 4])
        );
        assert!(matches!(
            pb("s OPTIMUM FOUND\nv x2\n", Some(30), 5),
            Some(Ok(ProgramAnswer::Solution(v))) if v == [1]
        ));
        assert!(matches!(
            pb("s UNSATISFIABLE\n", Some(20), 5),
            Some(Ok(ProgramAnswer::Unsatisfiable))
        ));
        assert!(matches!(
            pb("s UNKNOWN\n", Some(0), 5),
            Some(Ok(ProgramAnswer::Unknown))
        ));
        assert!(pb("nothing\n", Some(0), 5).is_none());
        assert!(matches!(
            pb("s UNSATISFIABLE\n", Some(10), 5),
            Some(Err(AnswerError::StatusMismatch { .. }))
        ));
        assert!(matches!(
            pb("s SATISFIABLE\nv x1 y2\n", Some(0), 5),
            Some(Err(AnswerError::Unreadable(_)))
        ));
        assert!(matches!(
            pb("s SATISFIABLE\nv x0\n", Some(0), 5),
            Some(Err(AnswerError::Unreadable(_)))
        ));
    }
}
