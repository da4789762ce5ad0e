//! The shipped JSON Schemas (`schemas/`) as a test oracle: every JSON the CLI prints in
//! this suite goes through [`validated`] or [`validated_lines`] before a test reads it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

/// The compiled validator of `schemas/NAME.schema.json`, compiled once per test binary.
fn validator(name: &str) -> Arc<jsonschema::Validator> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    cache
        .entry(name.to_string())
        .or_insert_with(|| {
            let path = format!("{}/schemas/{name}.schema.json", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let schema: Value = serde_json::from_str(&text).unwrap();
            Arc::new(jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{path}: {e}")))
        })
        .clone()
}

/// Parses one JSON document and checks it against the named schema; panics naming
/// every violation.
pub fn validated(name: &str, text: &str) -> Value {
    let value: Value =
        serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    let validator = validator(name);
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "output does not match schemas/{name}.schema.json:\n  {}\n{text}",
        errors.join("\n  ")
    );
    value
}

/// [`validated`] for each non-empty line.
pub fn validated_lines(name: &str, bytes: &[u8]) -> Vec<Value> {
    std::str::from_utf8(bytes)
        .expect("JSON output is UTF-8")
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| validated(name, line))
        .collect()
}

/// An `assert_cmd` predicate: every line of the output meets the named schema (a line
/// that does not panics with the violations).
pub fn conforms(name: &'static str) -> impl predicates::Predicate<[u8]> {
    predicates::function::function(move |out: &[u8]| {
        validated_lines(name, out);
        true
    })
}
