//! The propagators the search runs at a stall (`propagator.rs` is their seam): the one
//! place a new propagator is registered. The catalogue's stall arguments without a
//! propagator of their own (`argument/stall.rs`) run here from scratch.

use super::capacity::LineCapacity;
use super::colour::ColourBalance;
use super::options::SearchOptions;
use super::propagator::{Dead, Node, Propagator, Verdict};
use super::transport::CutTransport;
use crate::backend::native::argument::{StallArgument, StallFailure, stall_arguments};
use crate::backend::native::proof::Trace;
use crate::backend::native::recipe::Recipe;

/// The propagators the search runs at a stall, in order, each switched by its option:
/// the one place a new propagator is registered.
pub(super) struct Propagators {
    capacity: Option<LineCapacity>,
    colour: Option<ColourBalance>,
    transport: Option<CutTransport>,
    /// The catalogue's stall arguments that have no propagator of their own (none
    /// outside the tests today), each run from scratch.
    from_scratch: Option<FromScratch>,
}

impl Propagators {
    pub(super) fn new(options: &SearchOptions) -> Propagators {
        Propagators {
            capacity: options.path_capacity.then(LineCapacity::default),
            colour: options
                .colour_balance
                .then(|| ColourBalance::new(options.component_limit)),
            transport: options.transport.then(CutTransport::default),
            from_scratch: FromScratch::new(),
        }
    }

    /// Runs each until one fails or removes candidates (which the search deletes before
    /// it runs them again): the catalogue's arguments without a propagator first (so
    /// that one added is made even where a propagator would find the same failure; none
    /// runs outside the tests today), then the propagators, cheapest first. When the
    /// matching filter follows (`matching_follows`), the colour check is left to it: an
    /// unbalanced component has no perfect matching, and the filter finds that in the
    /// cells the change touched, where the colour check may explore two large
    /// components whole. The checks are quick, and none is stopped inside.
    pub(super) fn check<T: Trace>(
        &mut self,
        node: &Node,
        since: Option<usize>,
        matching_follows: bool,
        trace: &mut T,
    ) -> Result<Verdict, Dead> {
        fn run<P: Propagator, T: Trace>(
            propagator: Option<&mut P>,
            node: &Node,
            since: Option<usize>,
            trace: &mut T,
        ) -> Result<Verdict, Dead> {
            match propagator {
                Some(p) => p.checked(node, since, &|| false, trace),
                None => Ok(Verdict::Holds),
            }
        }
        let mut verdict = run(self.from_scratch.as_mut(), node, since, trace)?;
        if verdict == Verdict::Holds {
            verdict = run(self.capacity.as_mut(), node, since, trace)?;
        }
        if verdict == Verdict::Holds {
            let colour = self.colour.as_mut().filter(|_| !matching_follows);
            verdict = run(colour, node, since, trace)?;
        }
        if verdict == Verdict::Holds {
            verdict = run(self.transport.as_mut(), node, since, trace)?;
        }
        Ok(verdict)
    }
}

/// The catalogue's stall arguments that the search has no propagator for, each detected
/// from scratch at every stall: slow on large boards, but correct at once, so that an
/// argument added to the catalogue reaches the search before anyone writes its
/// incremental twin.
struct FromScratch {
    arguments: Vec<StallArgument>,
}

impl FromScratch {
    /// `None` when every stall argument has a propagator of its own.
    fn new() -> Option<FromScratch> {
        let arguments: Vec<StallArgument> = (stall_arguments().into_iter())
            .filter(|a| !a.incremental)
            .collect();
        (!arguments.is_empty()).then_some(FromScratch { arguments })
    }
}

impl Propagator for FromScratch {
    /// The failure found, its recipe built (the detection builds it).
    type Reason = StallFailure;

    fn check(
        &mut self,
        node: &Node,
        _since: Option<usize>,
        _stop: &dyn Fn() -> bool,
    ) -> Result<Verdict, Dead<StallFailure>> {
        match self.arguments.iter().find_map(|a| (a.find)(node)) {
            Some(failure) => Err(Dead(failure)),
            None => Ok(Verdict::Holds),
        }
    }

    fn explain(&self, _node: &Node, failure: &StallFailure) -> Recipe {
        failure.recipe.clone()
    }

    fn holds_from_scratch(&mut self, node: &Node) -> bool {
        self.arguments.iter().all(|a| (a.find)(node).is_none())
    }
}
