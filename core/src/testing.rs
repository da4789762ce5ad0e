//! What the core's tests read: the committed workloads, from the repository's files
//! (the core itself opens none).

use crate::puzzle::Instance;
use crate::puzzle::parse::{InputError, parse_instances};

/// The boards of the instance or workload file at `path`.
pub fn read_instances(path: &str) -> Result<Vec<Instance>, InputError> {
    let text = std::fs::read_to_string(path).map_err(|source| InputError::Io {
        file: path.to_string(),
        source,
    })?;
    let workload = path.ends_with(".jsonl");
    parse_instances(&text, path, "test", workload)
}
