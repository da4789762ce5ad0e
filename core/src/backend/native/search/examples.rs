//! Real inferences of each argument the search makes, with the node each was made at,
//! for the tests that prove one inference at a time (`certify/pb/single.rs`): the
//! seam's propagators met by a plain descent, the matching filter's Hall sets at a
//! settled root, and the LP's Farkas refutation of a root. Tests only.

use super::checks::Propagators;
use super::options::SearchOptions;
use super::state::Search;
use crate::backend::Budget;
use crate::backend::native::layout::Layout;
use crate::backend::native::proof::Trace;
use crate::backend::native::recipe::{Kind, NodeValues, Recipe};
use crate::model::Model;

/// One inference: its reason, and the node it was made at.
#[derive(Debug, Clone)]
pub struct Inference {
    /// The reason, as its propagator gave it.
    pub recipe: Recipe,
    /// Placements committed at the node.
    pub placed: Vec<u32>,
    /// Placements neither committed nor candidates at the node.
    pub ruled_out: Vec<u32>,
    /// The candidate the recipe rules out at the node; `None`: it refutes the node.
    pub deletes: Option<u32>,
}

/// A trace that hands every reason it is given to `V` (a list of them, or a count), and
/// keeps nothing else.
#[derive(Default)]
pub(super) struct Capture<V>(pub(super) V);

impl<V: Extend<Recipe>> Trace for Capture<V> {
    type Nogood = ();

    fn nogood(&self, _: impl FnOnce() -> Vec<u32>) {}

    fn reaches(_: &(), _: &[u32]) -> bool {
        true
    }

    fn words(_: &()) -> usize {
        0
    }

    fn dead_end(&mut self, _: impl FnOnce() -> Vec<u32>) {}

    fn justify<R: IntoIterator<Item = Recipe>>(&mut self, reasons: impl FnOnce() -> R) {
        self.0.extend(reasons());
    }

    fn root_settled(&mut self) {}
}

/// The root of `lay` propagated, or `None` when propagation refutes it.
fn settled_root<'a>(
    lay: &'a Layout<'a>,
    options: SearchOptions,
) -> Option<Search<'a, Capture<Vec<Recipe>>>> {
    let mut search = Search::traced(lay, options, Capture::default());
    for c in 0..lay.cells {
        search.queue.push((c as u32) << 1);
    }
    for g in 0..lay.groups() {
        search.queue.push((g as u32) << 1 | 1);
    }
    search.settle().then_some(search)
}

impl Search<'_, Capture<Vec<Recipe>>> {
    /// The current node's values with `recipe`, made there.
    fn inference(&self, recipe: Recipe, deletes: Option<u32>) -> Inference {
        let values = NodeValues::new(&self.active, &self.trail);
        let (mut placed, mut ruled_out) = (Vec::new(), Vec::new());
        for p in 0..self.active.len() as u32 {
            match values.get(p) {
                Some(true) => placed.push(p),
                Some(false) => ruled_out.push(p),
                None => {}
            }
        }
        Inference {
            recipe,
            placed,
            ruled_out,
            deletes,
        }
    }

    /// Depth-first below the current node (first uncovered cell, each candidate in
    /// turn), running `propagators` at every settled node, until `found` holds an
    /// inference or `nodes` run out.
    fn plain_descent(
        &mut self,
        propagators: &mut Propagators,
        nodes: &mut usize,
        found: &mut Option<Inference>,
    ) {
        let Some(cell) = (0..self.lay.cells).find(|&c| !self.covered[c]) else {
            return;
        };
        let candidates: Vec<u32> = self
            .lay
            .places_at(cell as u32)
            .iter()
            .copied()
            .filter(|&p| self.active[p as usize])
            .collect();
        for p in candidates {
            if found.is_some() || *nodes == 0 {
                return;
            }
            *nodes -= 1;
            let mark = self.trail.len();
            if self.commit(p).is_ok() && self.settle() {
                let node = node!(self);
                let verdict = propagators.check(&node, Some(mark), false, &mut self.trace);
                if verdict.is_err() {
                    let recipe = self.trace.0.pop().expect("a failure gives its reason");
                    *found = Some(self.inference(recipe, None));
                } else {
                    self.plain_descent(propagators, nodes, found);
                }
            } else {
                self.queue.clear();
            }
            self.undo_to(mark);
        }
    }
}

/// The first failure of the check `options` switch on (with nothing else behind the
/// seam) met by a plain depth-first descent of `model` within `nodes` nodes.
pub fn propagator_failure(
    model: &Model,
    options: SearchOptions,
    nodes: usize,
) -> Option<Inference> {
    let lay = Layout::new(model, options.transport);
    let mut search = settled_root(&lay, options)?;
    let mut propagators = Propagators::new(&options);
    let mut budget = nodes;
    let mut found = None;
    search.plain_descent(&mut propagators, &mut budget, &mut found);
    found
}

/// The matching filter's Hall sets at the settled root of `model`: each refuting the
/// root, or with the first candidate of the root it rules out (a set that does
/// neither is left out, and a test that wants sets notices).
pub fn hall_sets_at_root(model: &Model) -> Vec<Inference> {
    let lay = Layout::new(model, false);
    let Some(mut search) = settled_root(&lay, SearchOptions::default()) else {
        return Vec::new();
    };
    let root = search.inference(Recipe::sum_of(Kind::HallSet, []), None);
    let values = NodeValues::new(&search.active, &search.trail);
    let candidates: Vec<u32> = (0..search.active.len() as u32)
        .filter(|&p| search.active[p as usize])
        .collect();
    let _ = search.apply_matching(&Budget::unlimited());
    search
        .trace
        .0
        .iter()
        .map(|recipe| {
            let refutes = values.refuted_by(recipe, model);
            let deletes = candidates
                .iter()
                .copied()
                .find(|&p| values.rules_out(recipe, model, p));
            (refutes || deletes.is_some()).then(|| Inference {
                recipe: recipe.clone(),
                deletes: if refutes { None } else { deletes },
                ..root.clone()
            })
        })
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default()
}

/// The LP's Farkas refutation of the settled root of `model`, if it finds one.
pub fn farkas_at_root(model: &Model) -> Option<Inference> {
    let lay = Layout::new(model, false);
    let mut search = settled_root(&lay, SearchOptions::default())?;
    if !search.farkas_refutes_here() {
        return None;
    }
    let recipe = search.trace.0.pop()?;
    Some(search.inference(recipe, None))
}
