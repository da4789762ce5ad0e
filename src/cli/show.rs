//! `show` (a board as text or SVG) and `backends` (what can solve).

use super::*;

pub(super) fn show(args: ShowArgs) -> Result<ExitCode> {
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

pub(super) fn backends() -> Result<ExitCode> {
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
