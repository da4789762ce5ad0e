//! The seam for the search's propagators: a propagator looks at a settled node,
//! incrementally (only what changed since its parent, which passed), says whether the
//! node can still have a tiling and which candidates lie in no tiling of it, and gives
//! the reason of a failure, and of each removal, to the search's trace. Each keeps its
//! own state, lives in a file of its own, and has from-scratch twins that debug builds
//! hold it to: a node it rejects must fail from scratch too, or tilings would be lost;
//! and the recipes of its reasons (its justification, `explain` and `explain_removals`,
//! beside the check) must refute the node, or rule out each candidate removed, by the
//! checker's arithmetic (`recipe.rs`), or a proof would be refused. Which run at every
//! stall, and in what order, is `checks.rs`.
//!
//! Behind the seam: [`super::capacity`] (a line's quota against its room),
//! [`super::colour`] (the colour balance of the candidate graph's components) and
//! [`super::transport`] (the cut quotas as a transport problem), which only judge; and
//! [`super::matching`], Régin's filter, which removes candidates, reads the budget
//! inside and runs on a schedule of its own (`stall.rs`). Where the seam does not fit,
//! and why:
//!
//! * the cover and quota rules are the domain's own unit propagation, counted in
//!   `delete` and `commit` (`state.rs`): a call through a trait per counter update would
//!   cost in the search's hottest loop, and their reasons need no words (a checker
//!   redoes unit propagation itself);
//! * the LP (`lp.rs`) runs beside the search on a thread of its own and is polled;
//! * the small-board path (`small/`) works on bitset words, where every rule is a few
//!   bitwise operations for all cells at once.

use crate::backend::native::argument::Position;
use crate::backend::native::layout::Layout;
use crate::backend::native::proof::Trace;
#[cfg(debug_assertions)]
use crate::backend::native::recipe::NodeValues;
use crate::backend::native::recipe::Recipe;

/// A contradiction: the current state has no completion. From a propagator it carries
/// its reason's subject `R` (the line without room, the unbalanced region, the short
/// cut, the cell no augmenting path reaches), from which [`Propagator::explain`] builds
/// the recipe, only when a proof is logged or a debug build checks it. From the cover
/// and quota rules it carries nothing ([`Dead::BY_PROPAGATION`]): a checker redoes unit
/// propagation itself.
pub(super) struct Dead<R = ()>(pub(super) R);

impl Dead {
    /// A contradiction of unit propagation, or one whose reason has gone to the trace.
    pub(super) const BY_PROPAGATION: Dead = Dead(());
}

/// What a propagator reads of the search's state at a settled node.
pub(super) struct Node<'s> {
    pub(super) lay: &'s Layout<'s>,
    /// Which placements are still candidates.
    pub(super) active: &'s [bool],
    /// Which cells are covered.
    pub(super) covered: &'s [bool],
    /// Live members per group.
    pub(super) left: &'s [u32],
    /// Residual quota per group.
    pub(super) quota: &'s [i32],
    /// `p << 1` for a deletion, `p << 1 | 1` for a commit, in order.
    pub(super) trail: &'s [u32],
}

/// A node is a position the catalogue's arguments read: their detections from scratch
/// are the propagators' twins, and their recipes the propagators' reasons.
impl Position for Node<'_> {
    #[inline]
    fn model(&self) -> &crate::model::Model {
        self.lay.model
    }

    #[inline]
    fn cells(&self, p: u32) -> [u32; 2] {
        self.lay.place_cells[p as usize]
    }

    #[inline]
    fn open(&self, p: u32) -> bool {
        self.active[p as usize]
    }

    #[inline]
    fn covered(&self, k: u32) -> bool {
        self.covered[k as usize]
    }

    #[inline]
    fn residual(&self, g: u32) -> i32 {
        self.quota[g as usize]
    }

    #[inline]
    fn open_members(&self, g: u32) -> u32 {
        self.left[g as usize]
    }
}

/// What a propagator concluded at a node it did not reject.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Nothing to remove.
    Holds,
    /// These candidates lie in no tiling of the node, each with its reason
    /// ([`Propagator::explain_removals`]): the search deletes them and settles.
    Removes(Vec<u32>),
    /// `stop` said so before it was done: nothing is known, nothing removed.
    Stopped,
}

/// One of the search's propagators: a check at a stall, or a filter that removes
/// candidates.
pub(super) trait Propagator {
    /// What a failure's reason is built from.
    type Reason;

    /// Whether the node can still have a tiling, and the candidates it lies in no tiling
    /// with, looking at the placements changed since trail position `since` (`None`:
    /// the whole board, at the root). `stop` is for long work: a call it stops says
    /// [`Verdict::Stopped`].
    fn check(
        &mut self,
        node: &Node,
        since: Option<usize>,
        stop: &dyn Fn() -> bool,
    ) -> Result<Verdict, Dead<Self::Reason>>;

    /// Why the node just rejected by [`Propagator::check`] with `reason` has no tiling:
    /// the recipe of a constraint of every tiling that the node falsifies (its
    /// justification, written beside the check). Asked only right after a failure, and
    /// only when a proof is logged or a debug build checks it.
    fn explain(&self, node: &Node, reason: &Self::Reason) -> Recipe;

    /// Why the candidates [`Propagator::check`] just removed are in no tiling: recipes
    /// of constraints of every tiling that, with the node, rule each out. Asked as
    /// [`Propagator::explain`] is; a check that never removes has none.
    fn explain_removals(&self, _node: &Node, _removed: &[u32]) -> Vec<Recipe> {
        Vec::new()
    }

    /// The same judgement of failure from scratch, over the whole board, telling no one.
    fn holds_from_scratch(&mut self, node: &Node) -> bool;

    /// [`Propagator::check`], with the reason of a failure (which the `Dead` returned no
    /// longer carries) or a removal given to `trace`; in debug builds a failure is held
    /// to the twin, and each reason to the checker's arithmetic
    /// ([`crate::backend::native::recipe::NodeValues::refuted_by`]): a node rejected
    /// that passes from scratch would lose tilings, and a reason that does not refute the
    /// node (or rule out a removed candidate) would make a proof the checker refuses.
    fn checked<T: Trace>(
        &mut self,
        node: &Node,
        since: Option<usize>,
        stop: &dyn Fn() -> bool,
        trace: &mut T,
    ) -> Result<Verdict, Dead> {
        match self.check(node, since, stop) {
            Err(Dead(reason)) => {
                trace.justify(|| [self.explain(node, &reason)]);
                #[cfg(debug_assertions)]
                self.reason_refutes(node, &reason);
                debug_assert!(
                    !self.holds_from_scratch(node),
                    "{}: rejected a node its from-scratch twin passes",
                    std::any::type_name::<Self>()
                );
                Err(Dead::BY_PROPAGATION)
            }
            Ok(verdict) => {
                if let Verdict::Removes(removed) = &verdict {
                    trace.justify(|| self.explain_removals(node, removed));
                    #[cfg(debug_assertions)]
                    self.removals_ruled_out(node, removed);
                }
                Ok(verdict)
            }
        }
    }

    /// Debug builds: the reason of the failure just found refutes the node, by the
    /// checker's arithmetic (on the schedule of
    /// [`crate::backend::native::recipe::due_for_check`]).
    #[cfg(debug_assertions)]
    fn reason_refutes(&self, node: &Node, reason: &Self::Reason) {
        if !crate::backend::native::recipe::due_for_check() {
            return;
        }
        let recipe = self.explain(node, reason);
        let values = NodeValues::new(node.active, node.trail);
        assert!(
            values.refuted_by(&recipe, node.lay.model),
            "{}: its reason {recipe:?} does not refute the node",
            std::any::type_name::<Self>()
        );
    }

    /// Debug builds: the reasons of the removals just made rule out each removed
    /// candidate, by the checker's arithmetic (on the same schedule).
    #[cfg(debug_assertions)]
    fn removals_ruled_out(&self, node: &Node, removed: &[u32]) {
        if !crate::backend::native::recipe::due_for_check() {
            return;
        }
        let values = NodeValues::new(node.active, node.trail);
        let derived: Vec<_> = (self.explain_removals(node, removed).iter())
            .filter_map(|r| r.derive(node.lay.model))
            .collect();
        for &p in removed {
            assert!(
                derived.iter().any(|c| values.rules_out_by(c, p)),
                "{}: no reason rules out the removed candidate {p}",
                std::any::type_name::<Self>()
            );
        }
    }
}

/// Per-node visit marks that need no clearing: a fresh epoch per use. Epochs advance by
/// two, so that `epoch + 1` is a second mark of the same use.
#[derive(Debug, Default)]
pub(super) struct Stamps {
    pub(super) marks: Vec<u32>,
    pub(super) epoch: u32,
}

impl Stamps {
    /// A fresh epoch for `len` items.
    pub(super) fn next(&mut self, len: usize) -> u32 {
        if self.marks.len() != len {
            self.marks = vec![0; len];
            self.epoch = 0;
        }
        if self.epoch >= u32::MAX - 3 {
            self.marks.fill(0);
            self.epoch = 0;
        }
        self.epoch += 2;
        self.epoch
    }
}

/// A node built by hand, for a propagator's test in its own file (no search state, so
/// no import circle): every placement a candidate and no cell covered, each group's
/// members live and its quota whole; then `deleted` taken away, as deletions on the
/// trail. Nothing propagates: a reason that rests on propagation having run (the
/// transport's cut leaves out a zero quota's members, which propagation deletes) needs
/// a node propagation would leave as it is, which is the test's to choose.
#[cfg(test)]
pub(super) struct HandNode {
    active: Vec<bool>,
    covered: Vec<bool>,
    left: Vec<u32>,
    quota: Vec<i32>,
    trail: Vec<u32>,
}

#[cfg(test)]
impl HandNode {
    pub(super) fn new(lay: &Layout, deleted: &[u32]) -> HandNode {
        let mut active = vec![true; lay.model.placements.len()];
        let mut left: Vec<u32> = (0..lay.groups() as u32)
            .map(|g| lay.members(g).len() as u32)
            .collect();
        let mut trail = Vec::new();
        for &p in deleted {
            active[p as usize] = false;
            for &g in lay.groups_of(p) {
                left[g as usize] -= 1;
            }
            trail.push(p << 1);
        }
        HandNode {
            active,
            covered: vec![false; lay.cells],
            left,
            quota: lay.model.quotas.iter().map(|g| g.quota as i32).collect(),
            trail,
        }
    }

    pub(super) fn node<'s>(&'s self, lay: &'s Layout<'s>) -> Node<'s> {
        Node {
            lay,
            active: &self.active,
            covered: &self.covered,
            left: &self.left,
            quota: &self.quota,
            trail: &self.trail,
        }
    }

    /// The node's values, as the recipes' checker reads them.
    pub(super) fn values(&self) -> crate::backend::native::recipe::NodeValues {
        crate::backend::native::recipe::NodeValues::new(&self.active, &self.trail)
    }
}
