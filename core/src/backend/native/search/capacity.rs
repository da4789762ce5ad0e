//! A line's quota against its room, incrementally: the catalogue's argument
//! (`argument/room.rs`: a line group cannot take more disjoint pieces than its live
//! members leave room for, with its detection, its recipe and its words) checked only
//! in the groups that changed since the parent node.

use super::propagator::{Dead, Node, Propagator, Stamps, Verdict};
use crate::backend::native::argument::room::{first_short, has_room, recipe};
use crate::backend::native::recipe::Recipe;

/// The line-capacity check. Its state: which groups it has looked at in this call.
#[derive(Debug, Default)]
pub(super) struct LineCapacity {
    stamps: Stamps,
}

impl Propagator for LineCapacity {
    /// The line group without room.
    type Reason = u32;

    /// Only the groups that lost candidates since `since` are looked at again: the
    /// others passed at the parent.
    fn check(
        &mut self,
        node: &Node,
        since: Option<usize>,
        _stop: &dyn Fn() -> bool,
    ) -> Result<Verdict, Dead<u32>> {
        let lay = node.lay;
        let epoch = self.stamps.next(lay.groups());
        for &op in &node.trail[since.unwrap_or(0)..] {
            for &g in lay.groups_of(op >> 1) {
                let g = g as usize;
                if self.stamps.marks[g] == epoch {
                    continue;
                }
                self.stamps.marks[g] = epoch;
                if !has_room(node, g as u32) {
                    return Err(Dead(g as u32));
                }
            }
        }
        Ok(Verdict::Holds)
    }

    /// The catalogue's recipe for the group (`argument/room.rs`).
    fn explain(&self, node: &Node, &group: &u32) -> Recipe {
        recipe(node, group)
    }

    fn holds_from_scratch(&mut self, node: &Node) -> bool {
        first_short(node).is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::native::layout::Layout;
    use crate::backend::native::search::propagator::HandNode;
    use crate::model::{Families, compile};
    use crate::puzzle::Orientation;
    use crate::puzzle::parse::parse_instances;

    /// One row of six cells with three horizontal pieces to place (six dots): the row's
    /// five horizontal candidates leave room for three side by side; without the middle
    /// one, two runs of three cells hold one each, and the check fails with a reason
    /// that refutes the node, as its twin says.
    #[test]
    fn a_line_without_room_for_its_quota_fails() {
        let text = r#"{"rows": 1, "cols": 6, "blocked": [], "row_clues": [6],
                       "col_clues": [0, 2, 0, 2, 0, 2]}"#;
        let board = &parse_instances(text, "row.json", "row", false).unwrap()[0];
        let model = compile(board, Families::AllQuotas);
        assert!(model.infeasible.is_none());
        let lay = Layout::new(&model, false);
        let middle = model
            .placements
            .iter()
            .position(|p| p.orientation == Orientation::Horizontal && p.col == 2)
            .unwrap() as u32;
        let whole = HandNode::new(&lay, &[]);
        let mut check = LineCapacity::default();
        assert!(check.check(&whole.node(&lay), None, &|| false).is_ok());
        assert!(check.holds_from_scratch(&whole.node(&lay)));
        let cut = HandNode::new(&lay, &[middle]);
        let node = cut.node(&lay);
        let Err(Dead(group)) = check.check(&node, Some(0), &|| false) else {
            panic!("the line has room");
        };
        assert!(!check.holds_from_scratch(&node));
        assert!(
            cut.values()
                .refuted_by(&check.explain(&node, &group), &model)
        );
    }
}
