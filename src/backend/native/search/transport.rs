//! The cut quotas as a transport problem (`flow.rs`): forgetting overlaps, the residual
//! quotas of rows and cuts must still be met by a choice of candidates, which is a
//! bipartite flow. Off by default, and switched off while a proof is logged
//! ([`super::SearchOptions::for_proof`]): no justification is written for it yet, so its
//! failures give the trace no reason.

use super::propagator::{Dead, Node, Propagator};
use crate::backend::native::flow::Transport;
use crate::backend::native::proof::Trace;

/// The transport check. Its state: the flow network and the residual quotas of one
/// pairing's two sides, reused from call to call.
#[derive(Default)]
pub(super) struct CutTransport {
    flow: Transport,
    left: Vec<i32>,
    right: Vec<i32>,
}

impl Propagator for CutTransport {
    /// From scratch at every call: the flow is global.
    fn check<T: Trace>(&mut self, node: &Node, _: Option<usize>, _: &mut T) -> Result<(), Dead> {
        if self.holds_from_scratch(node) {
            Ok(())
        } else {
            Err(Dead)
        }
    }

    fn holds_from_scratch(&mut self, node: &Node) -> bool {
        for pairing in &node.lay.pairings {
            self.left.clear();
            self.left
                .extend(pairing.left_groups.iter().map(|&g| node.quota[g as usize]));
            self.right.clear();
            self.right
                .extend(pairing.right_groups.iter().map(|&g| node.quota[g as usize]));
            let active = node.active;
            let edges = pairing
                .edges
                .iter()
                .filter(|e| active[e.0 as usize])
                .map(|&(_, l, r)| (l, r));
            if !self.flow.feasible(&self.left, &self.right, edges) {
                return false;
            }
        }
        true
    }
}
