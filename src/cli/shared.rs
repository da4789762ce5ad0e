//! `shared`: what all the tilings of each board share, and a change that makes it unique.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use super::args::{SharedArgs, StepFormat};
use dominofit::backend::Status;
use dominofit::design::{Shared, shared};
use dominofit::escape::terminal;
use dominofit::files::read_instances;

pub(super) fn shared_files(args: SharedArgs) -> Result<ExitCode> {
    let instances = read_instances(&args.file)?;
    let mut stdout = std::io::stdout().lock();
    let mut undecided = false;
    let cap = usize::try_from(args.max_tilings).unwrap_or(usize::MAX);
    for instance in &instances {
        let found = shared(instance, cap, args.tries, args.timeout)?;
        undecided |= found.status == Status::Unknown;
        match args.format {
            StepFormat::Json => writeln!(stdout, "{}", serde_json::to_string(&found)?)?,
            StepFormat::Text => write!(stdout, "{}", text(&found)?)?,
        }
    }
    Ok(if undecided {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// One board in words.
fn text(s: &Shared) -> Result<String> {
    let name = terminal(&s.name);
    let mut out = match s.status {
        Status::Unique => format!("{name}: unique: its one tiling is the answer\n"),
        Status::Unsat => format!("{name}: unsat: no tiling\n"),
        Status::Unknown => format!("{name}: unknown: undecided within the time limit\n"),
        _ => {
            let cells: Vec<String> = (s.differ.iter().take(8))
                .map(|c| format!("({},{})", c.0[0], c.0[1]))
                .collect();
            let more = s.differ.len().saturating_sub(cells.len());
            format!(
                "{name}: multiple: {} tilings ({}); {} pieces in every one; they differ on {} cells: {}{}\n",
                s.tilings,
                if s.complete {
                    "all of them"
                } else {
                    "the first found: the enumeration stopped"
                },
                s.common.vertical.len() + s.common.horizontal.len(),
                s.differ.len(),
                cells.join(" "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            )
        }
    };
    if s.status == Status::Multiple {
        match &s.change {
            Some(change) => {
                out.push_str(&format!("  unique if you {}:\n", change.words));
                out.push_str(&format!(
                    "  {}\n",
                    serde_json::to_string(&change.board.json())?
                ));
            }
            None => out.push_str("  no single hole tried makes it unique\n"),
        }
    }
    Ok(out)
}
