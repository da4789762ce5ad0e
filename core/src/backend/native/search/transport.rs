//! The catalogue's transport cut (`argument/cut.rs`, with its justification): the
//! residual quotas of rows and cuts as a bipartite flow (`flow.rs`), solved from scratch
//! at every call, whose minimum cut names the groups of the recipe. Off by default.

use super::propagator::{Dead, Node, Propagator, Verdict};
use crate::backend::native::argument::cut;
use crate::backend::native::flow::{Cut, Transport};
use crate::backend::native::recipe::{Kind, Recipe};

/// The transport check. Its state: the flow network and the residual quotas of one
/// pairing's two sides, reused from call to call.
#[derive(Default)]
pub(super) struct CutTransport {
    flow: Transport,
    left: Vec<i32>,
    right: Vec<i32>,
}

impl Propagator for CutTransport {
    /// The pairing whose flow fell short, and its minimum cut.
    type Reason = Option<(usize, Cut)>;

    /// From scratch at every call: the flow is global.
    fn check(
        &mut self,
        node: &Node,
        _: Option<usize>,
        _stop: &dyn Fn() -> bool,
    ) -> Result<Verdict, Dead<Self::Reason>> {
        for k in 0..node.lay.pairings.len() {
            if !self.pairing_feasible(node, k) {
                let failed = self.flow.cut().map(|cut| (k, cut));
                debug_assert!(failed.is_some(), "a short flow names its cut");
                return Err(Dead(failed));
            }
        }
        Ok(Verdict::Holds)
    }

    /// The quotas `≥` of the groups on the source's side of the cut that over-ask,
    /// and `≤` of the groups across.
    fn explain(&self, node: &Node, failed: &Self::Reason) -> Recipe {
        let Some((k, cut)) = failed else {
            return Recipe {
                kind: Kind::Transport,
                steps: Vec::new(),
            };
        };
        let pairing = &node.lay.pairings[*k];
        let (at_least, at_most): (Vec<u32>, Vec<u32>) = match cut {
            Cut::Totals { left_more: true } => {
                (pairing.left_groups.clone(), pairing.right_groups.clone())
            }
            Cut::Totals { left_more: false } => {
                (pairing.right_groups.clone(), pairing.left_groups.clone())
            }
            Cut::Sides { left, right } => (
                left.iter()
                    .map(|&i| pairing.left_groups[i as usize])
                    .collect(),
                right
                    .iter()
                    .map(|&i| pairing.right_groups[i as usize])
                    .collect(),
            ),
        };
        cut::recipe(at_least, at_most)
    }

    fn holds_from_scratch(&mut self, node: &Node) -> bool {
        (0..node.lay.pairings.len()).all(|k| self.pairing_feasible(node, k))
    }
}

impl CutTransport {
    /// Whether pairing `k`'s residual quotas can be met by its candidates.
    fn pairing_feasible(&mut self, node: &Node, k: usize) -> bool {
        let pairing = &node.lay.pairings[k];
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
        self.flow.feasible(&self.left, &self.right, edges)
    }
}
