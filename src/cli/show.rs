//! `show` (a board as text or SVG) and `backends` (what can solve).

use super::args::*;
use super::files;
use super::say::say;

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Result, bail};

use dominofit::backend::{self, BackendOptions, external};
use dominofit::encode::Encoding;
use dominofit::escape::terminal;

use dominofit::driver::{self, Request};
use dominofit::files::{read_instances, read_solutions};
use dominofit::puzzle::verify::verify;
use dominofit::puzzle::{Instance, draw::draw};

pub(super) fn show(args: ShowArgs) -> Result<ExitCode> {
    let instances = read_instances(&args.file)?;
    let instance = files::one_board(&args.file, &instances, args.instance.as_deref())?;
    if args.hint {
        return super::explain::draw_hint(instance, args.solution.as_deref(), args.svg.as_deref());
    }
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
        let report = driver::run(instance, &backend::native::Native::default(), &request)?;
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

/// One line of `backends --format json`.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(super) struct BackendLine<'a> {
    /// The name `--backend` takes.
    name: &'a str,
    /// `built-in` (in-process) or `external` (a program dominofit runs).
    #[schemars(regex(pattern = "^(built-in|external)$"))]
    kind: &'static str,
    /// `available` (built in), `found` or `missing` (external programs).
    #[schemars(regex(pattern = "^(available|found|missing)$"))]
    status: &'static str,
    /// The program's version line, when it was found and says one.
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    /// Why a missing program is missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    missing: Option<String>,
    /// What it reads: the model in-process, or a file format.
    reads: &'a str,
    /// What it can do, checked before it runs.
    capabilities: backend::Capabilities,
    /// The encodings `NAME:ENCODING` takes, when it takes one.
    encodings: Vec<&'static str>,
}

fn encodings(capabilities: backend::Capabilities) -> Vec<&'static str> {
    if capabilities.takes_encoding {
        Encoding::ALL.iter().map(|e| e.name()).collect()
    } else {
        Vec::new()
    }
}

pub(super) fn backends(args: &BackendsArgs) -> Result<ExitCode> {
    let mut lines: Vec<BackendLine> = Vec::new();
    let options = BackendOptions::default();
    for builtin in backend::registry::BUILTINS {
        lines.push(BackendLine {
            name: builtin.name,
            kind: "built-in",
            status: "available",
            version: None,
            missing: None,
            reads: builtin.reads,
            capabilities: builtin.capabilities(),
            encodings: encodings(builtin.capabilities()),
        });
    }
    let descriptors = backend::registry::descriptors();
    for (name, descriptor) in &descriptors.found {
        let capabilities = backend::by_name(name, &options)
            .map(|b| b.capabilities())
            .unwrap_or(backend::Capabilities::SEARCH);
        let (status, version, missing) = match external::probe(descriptor) {
            Ok(version) if version.is_empty() => ("found", None, None),
            Ok(version) => ("found", Some(version), None),
            Err(why) => ("missing", None, Some(why.to_string())),
        };
        lines.push(BackendLine {
            name,
            kind: "external",
            status,
            version,
            missing,
            reads: descriptor.reads.title(),
            capabilities,
            encodings: encodings(capabilities),
        });
    }
    let mut stdout = std::io::stdout().lock();
    if args.format != Format::Text {
        for line in &lines {
            writeln!(stdout, "{}", serde_json::to_string(line)?)?;
        }
        for broken in &descriptors.broken {
            say!("unreadable descriptor: {}", terminal(&broken.to_string()));
        }
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        stdout,
        "{:<15} {:<9} {:<36} reads",
        "name", "kind", "status"
    )?;
    for line in &lines {
        let status = match (&line.version, &line.missing) {
            (_, Some(why)) => format!("missing ({})", terminal(why)),
            (Some(version), None) => {
                let short: String = version.chars().take(28).collect();
                format!("found: {}", terminal(&short))
            }
            (None, None) => line.status.to_string(),
        };
        let reads = match descriptors.found.get(line.name) {
            Some(descriptor) => format!("{}: {}", line.reads, terminal(&descriptor.about)),
            None => line.reads.to_string(),
        };
        writeln!(
            stdout,
            "{:<15} {:<9} {status:<36} {reads}",
            terminal(line.name),
            line.kind
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
