//! The sweep: the order in which a descent visits cells to branch on.
//!
//! A descent branches at the first uncovered cell of its sweep. Every cell before it is
//! covered, so the cell has at most two candidates (the pieces reaching forward), and
//! propagation is strongest along the frontier. Any of the four sweeps along rows or
//! columns, forwards or backwards, keeps that property, and the failure cache's key
//! (covered cells, residual quotas) does not depend on the sweep, so a failure proved
//! in one sweep is a failure for every other.
//!
//! Why more than one: on boards tiled by row-major backtracking (the paper's protocol)
//! the forward row sweep meets a wall some rows down, a row it reaches easily and fails
//! at every time (BENCHMARKS.md, issue 37); another sweep meets other walls, on other
//! boards. Measured on `models/paper.jsonl` (10 s a board), each sweep alone decides
//! 8–10 of the 18 boards, not the same ones; taking them in turn at restarts decides
//! more than any one of them.

use crate::backend::native::layout::Layout;

/// A direction to visit the cells in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sweep {
    /// Row by row from the top, each row from the left: the paper's order.
    Rows,
    /// Column by column from the right, each column from the bottom.
    ColumnsBack,
    /// Row by row from the bottom, each row from the right.
    RowsBack,
    /// Column by column from the left, each column from the top.
    Columns,
}

impl Sweep {
    /// The sweep of restart run `run` (0: the first descent), when sweeps rotate.
    pub fn of_run(run: u64) -> Sweep {
        [
            Sweep::Rows,
            Sweep::ColumnsBack,
            Sweep::RowsBack,
            Sweep::Columns,
        ][(run % 4) as usize]
    }

    /// The line (row or column, counted in the sweep's direction from 0) of a cell at
    /// one-based `row`, `col` on a board of `rows` × `cols`: how far the sweep has come.
    pub fn line(self, row: usize, col: usize, rows: usize, cols: usize) -> usize {
        match self {
            Sweep::Rows => row.saturating_sub(1),
            Sweep::RowsBack => rows.saturating_sub(row),
            Sweep::Columns => col.saturating_sub(1),
            Sweep::ColumnsBack => cols.saturating_sub(col),
        }
    }

    /// The cells in this sweep's order.
    fn cells(self, lay: &Layout) -> Vec<u32> {
        let covers = &lay.model.covers;
        let mut order: Vec<u32> = (0..lay.cells as u32).collect();
        // Cells are numbered row by row, left to right.
        match self {
            Sweep::Rows => {}
            Sweep::RowsBack => order.reverse(),
            Sweep::Columns => order.sort_by_key(|&c| {
                let cover = &covers[c as usize];
                (cover.col, cover.row)
            }),
            Sweep::ColumnsBack => order.sort_by_key(|&c| {
                let cover = &covers[c as usize];
                (std::cmp::Reverse(cover.col), std::cmp::Reverse(cover.row))
            }),
        }
        order
    }
}

/// The orders of the sweeps used so far, built when first needed: a board that never
/// restarts only ever has the row sweep, which is the cells' own numbering.
#[derive(Debug, Default)]
pub(super) struct Sweeps {
    /// Per sweep: the cells in order, and each cell's position in it.
    orders: [Option<(Vec<u32>, Vec<u32>)>; 4],
}

impl Sweeps {
    /// The cells of `sweep` in order, and each cell's position in that order.
    pub fn order(&mut self, lay: &Layout, sweep: Sweep) -> (&[u32], &[u32]) {
        let (cells, positions) = self.orders[sweep as usize].get_or_insert_with(|| {
            let cells = sweep.cells(lay);
            let mut positions = vec![0u32; cells.len()];
            for (i, &c) in cells.iter().enumerate() {
                positions[c as usize] = i as u32;
            }
            (cells, positions)
        });
        (cells, positions)
    }
}

#[cfg(test)]
mod tests {
    use super::{Sweep, Sweeps};
    use crate::backend::native::layout::Layout;
    use crate::model::{Families, compile};

    /// Each sweep visits every cell once, and its lines only grow along its order: the
    /// jumps (`super::super::jump`) take the open frames' lines as increasing.
    #[test]
    fn every_sweep_is_a_permutation_with_growing_lines() {
        let text = r#"{"name":"t","rows":3,"cols":4,"blocked":[[2,2]],"row_clues":[0,0,0],"col_clues":[0,0,0,0]}"#;
        let instance = crate::puzzle::parse::parse_instances(text, "t.json", "t", false)
            .unwrap()
            .remove(0);
        let model = compile(&instance, Families::ColourSplits);
        let lay = Layout::new(&model, false);
        let mut sweeps = Sweeps::default();
        for run in 0..4 {
            let sweep = Sweep::of_run(run);
            let (cells, positions) = sweeps.order(&lay, sweep);
            let mut seen = cells.to_vec();
            seen.sort_unstable();
            assert_eq!(seen, (0..lay.cells as u32).collect::<Vec<_>>(), "{sweep:?}");
            for (i, &c) in cells.iter().enumerate() {
                assert_eq!(positions[c as usize] as usize, i);
            }
            let lines: Vec<usize> = cells
                .iter()
                .map(|&c| {
                    let cover = &model.covers[c as usize];
                    sweep.line(cover.row, cover.col, model.rows, model.cols)
                })
                .collect();
            assert!(
                lines.windows(2).all(|w| w[0] <= w[1]),
                "{sweep:?}: {lines:?}"
            );
        }
        assert_eq!(Sweep::of_run(4), Sweep::Rows);
    }
}
