//! `dominofit schema`: the JSON Schemas of the JSON the CLI writes, generated from the
//! types that write it, so a schema cannot drift from its output. The repository ships
//! the same files in `schemas/`; a test keeps the two equal and validates real outputs
//! against them.

use super::args::*;
use super::errors::UsageError;
use super::show;

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use dominofit::escape::terminal;

use dominofit::certify::Manifest;
use dominofit::driver::{CountReport, Report, StreamEnd, StreamedTiling};
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
        schema: || output::<InstanceJson>(),
    },
    Contract {
        name: "solution",
        describes: "a tiling: a *.solution.json file, a line of a bundle's solutions.jsonl",
        schema: || output::<SolutionJson>(),
    },
    Contract {
        name: "solve",
        describes: "a line of `solve --format json`",
        schema: || output::<Report>(),
    },
    Contract {
        name: "solve-jsonl",
        describes: "a line of `solve --format jsonl`",
        schema: || output::<StreamLine>(),
    },
    Contract {
        name: "count",
        describes: "a line of `count --format json`",
        schema: || output::<CountReport>(),
    },
    Contract {
        name: "backends",
        describes: "a line of `backends --format json`",
        schema: || output::<show::BackendLine>(),
    },
    Contract {
        name: "model",
        describes: "`emit --to model-json`",
        schema: || output::<ModelDump>(),
    },
    Contract {
        name: "race-summary",
        describes: "a race's summary.json",
        schema: || output::<Summary>(),
    },
    Contract {
        name: "grade",
        describes: "a line of `grade --format json`",
        schema: || output::<dominofit::design::Grade>(),
    },
    Contract {
        name: "walkthrough",
        describes: "`explain --format json` and `hint --format json`",
        schema: || output::<dominofit::design::Walkthrough>(),
    },
    Contract {
        name: "shared",
        describes: "a line of `shared --format json`",
        schema: || output::<dominofit::design::Shared>(),
    },
    Contract {
        name: "certificate",
        describes: "a certificate bundle's certificate.json",
        schema: || output::<Manifest>(),
    },
];

/// The schema of how `T` serializes (the default would describe deserializing).
fn output<T: schemars::JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
}

/// Optional fields are left out when they have no value, never written as `null`: a
/// property that is not required loses its `null` alternative, so a `null` there fails.
fn omitted_not_null(value: &mut serde_json::Value) {
    use serde_json::Value;
    let Value::Object(object) = value else {
        if let Value::Array(items) = value {
            items.iter_mut().for_each(omitted_not_null);
        }
        return;
    };
    let required: Vec<String> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            if required.contains(name) {
                continue;
            }
            let Value::Object(property) = property else {
                continue;
            };
            if let Some(Value::Array(types)) = property.get_mut("type") {
                types.retain(|t| t != "null");
                if let [only] = types.as_slice() {
                    let only = only.clone();
                    property.insert("type".into(), only);
                }
            }
            if let Some(Value::Array(alternatives)) = property.get("anyOf") {
                let kept: Vec<Value> = alternatives
                    .iter()
                    .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"))
                    .cloned()
                    .collect();
                property.remove("anyOf");
                match <[Value; 1]>::try_from(kept) {
                    Ok([Value::Object(only)]) => property.extend(only),
                    Ok([other]) => {
                        property.insert("anyOf".into(), Value::Array(vec![other]));
                    }
                    Err(kept) => {
                        property.insert("anyOf".into(), Value::Array(kept));
                    }
                }
            }
        }
    }
    object.values_mut().for_each(omitted_not_null);
}

/// The schema as the shipped file holds it: pretty, with a final newline.
pub(super) fn text(contract: &Contract) -> String {
    let mut schema = serde_json::to_value((contract.schema)()).expect("schemas are JSON");
    omitted_not_null(&mut schema);
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
