//! `NAME:ENCODING`: a backend under another name.

use super::{Backend, BackendError, Budget, Capabilities, ExactCount, FastPath, Sink, SolveResult};
use crate::model::{Families, Model};
use crate::puzzle::Instance;

/// A backend shown under another name: `varisat:sequential` is varisat with the
/// sequential counter, so that one race can put several encodings side by side. Every
/// method is forwarded.
pub(super) struct Renamed {
    pub(super) name: String,
    pub(super) inner: Box<dyn Backend>,
}

impl Backend for Renamed {
    fn name(&self) -> &str {
        &self.name
    }

    fn capabilities(&self) -> Capabilities {
        self.inner.capabilities()
    }

    fn default_families(&self) -> Families {
        self.inner.default_families()
    }

    fn footprint(&self, rows: usize, cols: usize) -> u64 {
        self.inner.footprint(rows, cols)
    }

    fn solve(&self, model: &Model, limit: usize, budget: &Budget, sink: &mut Sink) -> SolveResult {
        self.inner.solve(model, limit, budget, sink)
    }

    fn count(&self, model: &Model, budget: &Budget) -> Option<Result<ExactCount, BackendError>> {
        self.inner.count(model, budget)
    }

    fn fast_path(
        &self,
        instance: &Instance,
        families: Option<Families>,
    ) -> Option<Box<dyn FastPath>> {
        self.inner.fast_path(instance, families)
    }

    fn settle(&self) {
        self.inner.settle();
    }
}
