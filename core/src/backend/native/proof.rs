//! What the native search tells a proof logger as it reasons (`--certify`).
//!
//! Propagation is unit propagation over the cover and quota constraints: a checker
//! redoes it by itself, so a dead end needs only its decisions (a nogood the checker
//! confirms by reverse unit propagation). Every other inference is a counting argument:
//! its propagator gives it as a [`Recipe`] (`recipe.rs`), a sum of the model's
//! constraints written with the argument in the catalogue (`argument/`): a component of
//! the candidate graph with more cells of one colour (`argument/balance.rs`), a Hall set
//! of the matching filter (`argument/hall.rs`), a line whose quota exceeds its room
//! (`argument/room.rs`), a minimum cut of the cut quotas' transport problem
//! (`argument/cut.rs`), the LP's Farkas multipliers (`argument/multipliers.rs`). Each
//! derives a constraint true of every tiling, so the checker keeps it and unit
//! propagation uses it below the node where it was found. The logger only numbers and prints the steps.
//!
//! The failure cache stays while a proof is logged, counting a hit only where the
//! decisions of the cached refutation are all committed at the node, so that unit
//! propagation reaches the refutation's nogood.

#[cfg(doc)]
use super::recipe::Kind;
use super::recipe::Recipe;

/// Where the search's reasoning goes while a proof is logged.
pub trait Justify {
    /// An inference of a propagator, as the recipe of the constraint that gives it
    /// (`recipe.rs`): a constraint true of every tiling, which the node falsifies (a
    /// failure) or which rules out what the propagator deleted. A Farkas refutation of
    /// the root ([`Kind::Farkas`] with `root`) ends the proof: what was logged since
    /// [`Justify::root_settled`] is no longer needed.
    fn derive(&mut self, recipe: &Recipe);

    /// The root is settled (propagated, and filtered by the matching filter where it
    /// runs there): what follows is the search below it.
    fn root_settled(&mut self) {}

    /// No tiling (but the one the proof rules out, if any) lies below these decisions:
    /// placements committed on the path from the root, each by branching. Empty at the
    /// root: the board has none. A tiling the search reaches is a dead end too: the
    /// proof's formula rules out the one tiling it may have, and the caller's sink
    /// refuses any other.
    fn dead_end(&mut self, decisions: &[u32]);
}

/// How a search tells its reasoning, chosen once, by type, when the search is built: a
/// search is generic over its trace, so no check asks whether a proof is being logged.
/// [`Unlogged`] is zero-sized and does nothing, and the closures that would build a
/// reason are never run. [`Logged`] builds each reason and hands it to a [`Justify`].
/// The failure cache keeps what the trace needs of a cached refutation
/// ([`Trace::Nogood`]): nothing unlogged; logged, the decisions of its nogood.
pub trait Trace {
    /// What a cached failure keeps for the proof: see [`Trace::reaches`].
    type Nogood;

    /// What to keep of a failure proved below `decisions`.
    fn nogood(&self, decisions: impl FnOnce() -> Vec<u32>) -> Self::Nogood;

    /// Whether a cached failure may count at a node whose committed placements are
    /// `chosen`: always unlogged; logged, only when the failure's decisions are all
    /// among them, so that unit propagation from the current decisions reaches its
    /// nogood.
    fn reaches(nogood: &Self::Nogood, chosen: &[u32]) -> bool;

    /// The cache room a kept nogood takes, in 64-bit words.
    fn words(nogood: &Self::Nogood) -> usize;

    /// See [`Justify::dead_end`].
    fn dead_end(&mut self, decisions: impl FnOnce() -> Vec<u32>);

    /// See [`Justify::derive`]: each reason is a recipe, built only when logged.
    fn justify<R: IntoIterator<Item = Recipe>>(&mut self, reasons: impl FnOnce() -> R);

    /// See [`Justify::root_settled`].
    fn root_settled(&mut self);
}

/// No proof is logged.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unlogged;

impl Trace for Unlogged {
    type Nogood = ();

    #[inline(always)]
    fn nogood(&self, _: impl FnOnce() -> Vec<u32>) {}

    #[inline(always)]
    fn reaches(_: &(), _: &[u32]) -> bool {
        true
    }

    #[inline(always)]
    fn words(_: &()) -> usize {
        0
    }

    #[inline(always)]
    fn dead_end(&mut self, _: impl FnOnce() -> Vec<u32>) {}

    #[inline(always)]
    fn justify<R: IntoIterator<Item = Recipe>>(&mut self, _: impl FnOnce() -> R) {}

    #[inline(always)]
    fn root_settled(&mut self) {}
}

/// A proof is logged to the [`Justify`] held.
pub struct Logged<'j>(pub &'j mut dyn Justify);

impl Trace for Logged<'_> {
    type Nogood = Box<[u32]>;

    fn nogood(&self, decisions: impl FnOnce() -> Vec<u32>) -> Box<[u32]> {
        decisions().into_boxed_slice()
    }

    fn reaches(nogood: &Box<[u32]>, chosen: &[u32]) -> bool {
        let chosen: rustc_hash::FxHashSet<u32> = chosen.iter().copied().collect();
        nogood.iter().all(|d| chosen.contains(d))
    }

    fn words(nogood: &Box<[u32]>) -> usize {
        nogood.len().div_ceil(2)
    }

    fn dead_end(&mut self, decisions: impl FnOnce() -> Vec<u32>) {
        self.0.dead_end(&decisions());
    }

    fn justify<R: IntoIterator<Item = Recipe>>(&mut self, reasons: impl FnOnce() -> R) {
        for recipe in reasons() {
            self.0.derive(&recipe);
        }
    }

    fn root_settled(&mut self) {
        self.0.root_settled();
    }
}
