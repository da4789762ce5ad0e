//! `dominofit schema`: the JSON Schemas of the JSON the CLI writes, generated from the
//! types that write it, so a schema cannot drift from its output. The repository ships
//! the same files in `schemas/`; a test keeps the two equal and validates real outputs
//! against them.

use super::*;

use dominofit::backend::{CountReport, Report, StreamEnd, StreamedTiling};
use dominofit::certify::Manifest;
use dominofit::model::ModelDump;
use dominofit::puzzle::{InstanceJson, SolutionJson};
use dominofit::race::Summary;

/// A line of `solve --format jsonl`: a tiling as it is found, or the board's last line.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // Only its schema is used.
enum StreamLine<'a> {
    /// A tiling, verified.
    Tiling(StreamedTiling<'a>),
    /// The report, with `found` instead of the tilings.
    End(StreamEnd<'a>),
}

/// One JSON output and where it appears.
pub(super) struct Contract {
    pub(super) name: &'static str,
    pub(super) describes: &'static str,
    schema: fn() -> schemars::Schema,
}

pub(super) const CONTRACTS: &[Contract] = &[
    Contract {
        name: "instance",
        describes: "an instance as `generate` and certificate bundles write it (`name` may be left out in files people write)",
        schema: || schemars::schema_for!(InstanceJson),
    },
    Contract {
        name: "solution",
        describes: "a tiling: a *.solution.json file, a line of a bundle's solutions.jsonl",
        schema: || schemars::schema_for!(SolutionJson),
    },
    Contract {
        name: "solve",
        describes: "a line of `solve --format json`",
        schema: || schemars::schema_for!(Report),
    },
    Contract {
        name: "solve-jsonl",
        describes: "a line of `solve --format jsonl`",
        schema: || schemars::schema_for!(StreamLine),
    },
    Contract {
        name: "count",
        describes: "a line of `count --format json`",
        schema: || schemars::schema_for!(CountReport),
    },
    Contract {
        name: "backends",
        describes: "a line of `backends --format json`",
        schema: || schemars::schema_for!(show::BackendLine),
    },
    Contract {
        name: "model",
        describes: "`emit --to model-json`",
        schema: || schemars::schema_for!(ModelDump),
    },
    Contract {
        name: "race-summary",
        describes: "a race's summary.json",
        schema: || schemars::schema_for!(Summary),
    },
    Contract {
        name: "certificate",
        describes: "a certificate bundle's certificate.json",
        schema: || schemars::schema_for!(Manifest),
    },
];

/// The schema as the shipped file holds it: pretty, with a final newline.
pub(super) fn text(contract: &Contract) -> String {
    let schema = (contract.schema)();
    serde_json::to_string_pretty(&schema).expect("schemas always serialize") + "\n"
}

pub(super) fn schema(args: &SchemaArgs) -> Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let Some(name) = &args.name else {
        for contract in CONTRACTS {
            writeln!(stdout, "{:<13} {}", contract.name, contract.describes)?;
        }
        return Ok(ExitCode::SUCCESS);
    };
    let Some(contract) = CONTRACTS.iter().find(|c| c.name == name) else {
        let names: Vec<&str> = CONTRACTS.iter().map(|c| c.name).collect();
        return Err(UsageError(format!(
            "no schema named `{}`; the schemas are {}",
            terminal(name),
            names.join(", ")
        ))
        .into());
    };
    stdout.write_all(text(contract).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
