//! The propagators the search runs at a stall (`propagator.rs` is their seam): the one
//! place a new propagator is registered.

use super::capacity::LineCapacity;
use super::colour::ColourBalance;
use super::options::SearchOptions;
use super::propagator::{Dead, Node, Propagator};
use super::transport::CutTransport;
use crate::backend::native::proof::Trace;

/// The propagators the search runs at a stall, in order, each switched by its option:
/// the one place a new propagator is registered.
pub(super) struct Propagators {
    capacity: Option<LineCapacity>,
    colour: Option<ColourBalance>,
    transport: Option<CutTransport>,
}

impl Propagators {
    pub(super) fn new(options: &SearchOptions) -> Propagators {
        Propagators {
            capacity: options.path_capacity.then(LineCapacity::default),
            colour: options
                .colour_balance
                .then(|| ColourBalance::new(options.component_limit)),
            transport: options.transport.then(CutTransport::default),
        }
    }

    /// Runs each, cheapest first, until one fails. When the matching filter follows
    /// (`matching_follows`), the colour check is left to it: an unbalanced component has
    /// no perfect matching, and the filter finds that in the cells the change touched,
    /// where the colour check may explore two large components whole.
    pub(super) fn check<T: Trace>(
        &mut self,
        node: &Node,
        since: Option<usize>,
        matching_follows: bool,
        trace: &mut T,
    ) -> Result<(), Dead> {
        if let Some(capacity) = &mut self.capacity {
            capacity.checked(node, since, trace)?;
        }
        if let Some(colour) = self.colour.as_mut().filter(|_| !matching_follows) {
            colour.checked(node, since, trace)?;
        }
        if let Some(transport) = &mut self.transport {
            transport.checked(node, since, trace)?;
        }
        Ok(())
    }
}
