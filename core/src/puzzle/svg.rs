//! An SVG picture of a board as a player knows it: the grid, blocked cells filled,
//! column clues above and row clues to the left, and each piece as a tile with its
//! dots (one on a vertical piece's top cell, two on a horizontal piece's right cell).
//!
//! Hand-written: the picture is a few dozen shapes and must be the same bytes for the
//! same board, so that it can be committed next to the README.

use std::fmt::Write;

use super::{Instance, Orientation, Solution};

const CELL: usize = 40;
const MARGIN: usize = 36;
const INSET: f64 = 3.5;
const DOT: f64 = 4.5;

/// What a step of a walkthrough adds to a picture: the cells its reason rests on
/// (shaded), the pieces it places (drawn in colour) and those it rules out (crossed
/// outlines). Zero-based, like [`Solution`].
#[derive(Debug, Clone, Default)]
pub struct Marks {
    /// Cells shaded.
    pub cells: Vec<(usize, usize)>,
    /// Pieces the step places.
    pub placed: Solution,
    /// Pieces the step rules out.
    pub ruled_out: Solution,
}

/// Draws `instance`, and `solution` over it when given. The caller checks the solution
/// first (pieces off the board are skipped, not drawn).
pub fn board_svg(instance: &Instance, solution: Option<&Solution>) -> String {
    marked_svg(instance, solution, &Marks::default())
}

/// [`board_svg`] with a step's `marks` over it; `solution` may be partial (a player's
/// moves).
pub fn marked_svg(instance: &Instance, solution: Option<&Solution>, marks: &Marks) -> String {
    let (m, n) = (instance.rows, instance.cols);
    let (width, height) = (MARGIN + n * CELL + 8, MARGIN + m * CELL + 8);
    let x = |c: usize| (MARGIN + c * CELL) as f64;
    let y = |r: usize| (MARGIN + r * CELL) as f64;
    let cell = CELL as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="16">"#
    );
    let _ = writeln!(svg, "<title>{}</title>", crate::escape::xml(&instance.name));
    let _ = writeln!(
        svg,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#f4efe6"/>"##,
        x(0),
        y(0),
        n * CELL,
        m * CELL
    );
    for (r, c) in instance.blocked_cells() {
        let _ = writeln!(
            svg,
            r##"<rect x="{}" y="{}" width="{cell}" height="{cell}" fill="#3b3b3b"/>"##,
            x(c),
            y(r)
        );
    }
    for &(r, c) in &marks.cells {
        let _ = writeln!(
            svg,
            r##"<rect x="{}" y="{}" width="{cell}" height="{cell}" fill="#f6d98b" class="reason"/>"##,
            x(c),
            y(r)
        );
    }
    let grid_lines = (0..=m)
        .map(|r| (x(0), y(r), x(n), y(r)))
        .chain((0..=n).map(|c| (x(c), y(0), x(c), y(m))));
    for (x1, y1, x2, y2) in grid_lines {
        let _ = writeln!(
            svg,
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#b9b0a0"/>"##,
        );
    }
    for (c, clue) in instance.col_clues.iter().enumerate() {
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{clue}</text>"#,
            x(c) + cell / 2.0,
            MARGIN - 12
        );
    }
    for (r, clue) in instance.row_clues.iter().enumerate() {
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{:.1}" text-anchor="end">{clue}</text>"#,
            MARGIN - 10,
            y(r) + cell / 2.0 + 6.0
        );
    }
    for piece in marks.ruled_out.pieces() {
        let (r2, c2) = piece.other_cell();
        if r2 >= m || c2 >= n {
            continue;
        }
        let (x1, y1) = (x(piece.col) + cell / 2.0, y(piece.row) + cell / 2.0);
        let (x2, y2) = (x(c2) + cell / 2.0, y(r2) + cell / 2.0);
        let _ = writeln!(
            svg,
            r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#b3261e" stroke-width="3" stroke-dasharray="6 4" class="ruled-out"/>"##
        );
    }
    let given = solution
        .into_iter()
        .flat_map(Solution::pieces)
        .map(|p| (p, false));
    for (piece, new) in given.chain(marks.placed.pieces().map(|p| (p, true))) {
        let (r2, c2) = piece.other_cell();
        if r2 >= m || c2 >= n {
            continue;
        }
        let (w, h) = match piece.orientation {
            Orientation::Vertical => (cell, 2.0 * cell),
            Orientation::Horizontal => (2.0 * cell, cell),
        };
        let _ = writeln!(
            svg,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="6" fill="{}" stroke="#2b2b2b" stroke-width="1.5"/>"##,
            x(piece.col) + INSET,
            y(piece.row) + INSET,
            w - 2.0 * INSET,
            h - 2.0 * INSET,
            if new { "#bfe3c6" } else { "#fffdf8" }
        );
        // The seam between the two halves.
        let (sx1, sy1, sx2, sy2) = match piece.orientation {
            Orientation::Vertical => (
                x(piece.col) + 2.0 * INSET,
                y(r2),
                x(piece.col) + cell - 2.0 * INSET,
                y(r2),
            ),
            Orientation::Horizontal => (
                x(c2),
                y(piece.row) + 2.0 * INSET,
                x(c2),
                y(piece.row) + cell - 2.0 * INSET,
            ),
        };
        let _ = writeln!(
            svg,
            r##"<line x1="{sx1:.1}" y1="{sy1:.1}" x2="{sx2:.1}" y2="{sy2:.1}" stroke="#c8c0b0"/>"##
        );
        let dots: Vec<(f64, f64)> = match piece.orientation {
            Orientation::Vertical => vec![(x(piece.col) + cell / 2.0, y(piece.row) + cell / 2.0)],
            Orientation::Horizontal => vec![
                (x(c2) + cell / 3.0, y(piece.row) + cell / 2.0),
                (x(c2) + 2.0 * cell / 3.0, y(piece.row) + cell / 2.0),
            ],
        };
        for (cx, cy) in dots {
            let _ = writeln!(
                svg,
                r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{DOT}" fill="#2b2b2b"/>"##
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}
