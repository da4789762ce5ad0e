//! The colour balance of the candidate graph: every connected component of uncovered
//! cells joined by candidates must hold as many cells of one checkerboard colour as of
//! the other, since each piece covers one of each.
//!
//! The catalogue's argument (`argument/balance.rs`, with its detection from scratch,
//! its recipe and its words) made incrementally: only the components next to what
//! changed are explored.

use super::propagator::{Dead, Node, Propagator, Stamps, Verdict};
use crate::backend::native::argument::balance;
use crate::backend::native::recipe::Recipe;

/// What exploring one component of the candidate graph found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Component {
    Balanced,
    Unbalanced,
    /// Larger than the exploration limit.
    Large,
    /// Ran into a component already found large.
    SeenLarge,
}

/// The colour check. Its state: visit marks and the component being explored (handed
/// to a failure as its reason).
#[derive(Debug)]
pub(super) struct ColourBalance {
    stamps: Stamps,
    component: Vec<u32>,
    /// Cells a changed component is explored to before it counts as large.
    limit: usize,
}

impl ColourBalance {
    pub(super) fn new(limit: usize) -> ColourBalance {
        ColourBalance {
            stamps: Stamps::default(),
            component: Vec::new(),
            limit,
        }
    }
}

impl Propagator for ColourBalance {
    /// The cells of the unbalanced component.
    type Reason = Vec<u32>;

    /// Only components next to cells that changed since `since` can have changed; the
    /// others passed at the parent. Uncovered cells as a whole always balance (each
    /// committed piece takes one cell of each colour), so if every component but one is
    /// balanced, that one is too. Hence each changed component is explored only up to
    /// `limit` cells, and only when two or more are larger than that is any explored in
    /// full. Near a row-by-row frontier this keeps the check local.
    fn check(
        &mut self,
        node: &Node,
        since: Option<usize>,
        _stop: &dyn Fn() -> bool,
    ) -> Result<Verdict, Dead<Vec<u32>>> {
        let Some(since) = since else {
            return self.whole_board(node).map(|()| Verdict::Holds);
        };
        let lay = node.lay;
        let epoch = self.stamps.next(lay.cells);
        let mut large: Vec<u32> = Vec::new();
        for &op in &node.trail[since..] {
            for start in lay.place_cells[(op >> 1) as usize] {
                let stamp = self.stamps.marks[start as usize];
                if node.covered[start as usize] || stamp == epoch || stamp == epoch + 1 {
                    continue;
                }
                match self.explore(node, start, epoch, self.limit) {
                    Component::Unbalanced => return Err(self.unbalanced()),
                    Component::Balanced | Component::SeenLarge => {}
                    Component::Large => large.push(start),
                }
            }
        }
        if large.len() < 2 {
            return Ok(Verdict::Holds);
        }
        // Two large explorations that did not meet: settle them in full.
        let epoch = self.stamps.next(lay.cells);
        for start in large {
            if self.stamps.marks[start as usize] != epoch
                && self.explore(node, start, epoch, usize::MAX) == Component::Unbalanced
            {
                return Err(self.unbalanced());
            }
        }
        Ok(Verdict::Holds)
    }

    /// The catalogue's recipe for the component (`argument/balance.rs`).
    fn explain(&self, node: &Node, cells: &Vec<u32>) -> Recipe {
        balance::recipe(node, cells)
    }

    fn holds_from_scratch(&mut self, node: &Node) -> bool {
        balance::first_unbalanced(node).is_none()
    }
}

impl ColourBalance {
    /// The component just explored, unbalanced, as the reason of a failure.
    fn unbalanced(&mut self) -> Dead<Vec<u32>> {
        Dead(std::mem::take(&mut self.component))
    }

    /// Every component explored in full (the root).
    fn whole_board(&mut self, node: &Node) -> Result<(), Dead<Vec<u32>>> {
        let epoch = self.stamps.next(node.lay.cells);
        for c in 0..node.lay.cells as u32 {
            if !node.covered[c as usize]
                && self.stamps.marks[c as usize] != epoch
                && self.explore(node, c, epoch, usize::MAX) == Component::Unbalanced
            {
                return Err(self.unbalanced());
            }
        }
        Ok(())
    }

    /// Explores the component of `start`, marking its cells `epoch`. An exploration that
    /// passes `limit` cells marks what it reached `epoch + 1` instead, so a later
    /// exploration that runs into those cells knows it is in the same large component
    /// rather than stopping short of it and misjudging the balance.
    fn explore(&mut self, node: &Node, start: u32, epoch: u32, limit: usize) -> Component {
        let lay = node.lay;
        let large_mark = epoch + 1;
        let marks = &mut self.stamps.marks;
        let component = &mut self.component;
        let mut balance: i64 = 0;
        let mut explored = 0usize;
        let mut outcome = None;
        marks[start as usize] = epoch;
        component.clear();
        component.push(start);
        'explore: while explored < component.len() {
            let x = component[explored];
            explored += 1;
            if explored > limit {
                outcome = Some(Component::Large);
                break;
            }
            balance += if lay.colour(x) == 0 { 1 } else { -1 };
            for &p in lay.places_at(x) {
                if !node.active[p as usize] {
                    continue;
                }
                let [a, b] = lay.place_cells[p as usize];
                let y = if a == x { b } else { a };
                let stamp = marks[y as usize];
                if stamp == large_mark {
                    outcome = Some(Component::SeenLarge);
                    break 'explore;
                }
                if stamp != epoch {
                    marks[y as usize] = epoch;
                    component.push(y);
                }
            }
        }
        match outcome {
            Some(large) => {
                for &c in component.iter() {
                    marks[c as usize] = large_mark;
                }
                large
            }
            None if balance == 0 => Component::Balanced,
            None => Component::Unbalanced,
        }
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

    /// One row of four cells: the middle piece gone leaves two components of two cells,
    /// each one of each colour; the first piece gone instead leaves the first cell alone,
    /// a component of one colour, and the check fails with a reason that refutes the
    /// node, as its twin says.
    #[test]
    fn a_component_of_more_cells_of_one_colour_fails() {
        let text = r#"{"rows": 1, "cols": 4, "blocked": [], "row_clues": [4],
                       "col_clues": [0, 2, 0, 2]}"#;
        let board = &parse_instances(text, "row.json", "row", false).unwrap()[0];
        let model = compile(board, Families::ColourSplits);
        assert!(model.infeasible.is_none());
        let lay = Layout::new(&model, false);
        let at = |col: usize| {
            model
                .placements
                .iter()
                .position(|p| p.orientation == Orientation::Horizontal && p.col == col)
                .unwrap() as u32
        };
        let mut check = ColourBalance::new(256);
        let split = HandNode::new(&lay, &[at(1)]);
        assert!(check.check(&split.node(&lay), Some(0), &|| false).is_ok());
        assert!(check.holds_from_scratch(&split.node(&lay)));
        let lone = HandNode::new(&lay, &[at(0)]);
        let node = lone.node(&lay);
        let Err(Dead(cells)) = check.check(&node, Some(0), &|| false) else {
            panic!("the colours balance");
        };
        assert!(!check.holds_from_scratch(&node));
        assert!(
            lone.values()
                .refuted_by(&check.explain(&node, &cells), &model)
        );
    }
}
