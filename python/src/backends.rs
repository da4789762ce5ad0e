//! Backends, made once per process and name: a loop of calls pays for the registry
//! lookup (and the descriptor directories it may read, and the count of the machine's
//! cores) once, and a backend's work that outlives a call (the native search's LP) is
//! let end before the next call's clock starts, as in the command line's loops.
//!
//! The key holds the descriptor directory named in the environment, so pointing
//! `DOMINOFIT_BACKENDS` elsewhere takes effect at the next call; a descriptor file
//! edited in place is read again by a new process.

use std::ffi::OsString;
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;

use dominofit::backend::external::USER_DIR_VAR;
use dominofit::backend::{self, Backend, BackendOptions};
use dominofit::encode::Encoding;

use crate::fail;

/// What a backend is made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub name: String,
    pub encoding: Option<String>,
    pub threads: Option<usize>,
}

impl Choice {
    /// A backend of this choice, made now (for a batch's threads, one each).
    pub fn build(&self) -> PyResult<Box<dyn Backend>> {
        let encoding = match &self.encoding {
            None => Encoding::Totalizer,
            Some(name) => name.parse::<Encoding>().map_err(fail)?,
        };
        let options = BackendOptions {
            encoding,
            threads: self.threads.unwrap_or_else(backend::available_threads),
        };
        backend::registry::lookup(&self.name, &options).map_err(fail)
    }
}

type Made = (Choice, Option<OsString>, Arc<dyn Backend>);

static MADE: Mutex<Vec<Made>> = Mutex::new(Vec::new());

/// The backend of `choice`, made at its first use.
pub fn cached(choice: &Choice) -> PyResult<Arc<dyn Backend>> {
    let directory = std::env::var_os(USER_DIR_VAR);
    let mut made = MADE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, _, backend)) = made.iter().find(|(c, d, _)| c == choice && *d == directory) {
        return Ok(backend.clone());
    }
    let backend: Arc<dyn Backend> = Arc::from(choice.build()?);
    made.push((choice.clone(), directory, backend.clone()));
    Ok(backend)
}
