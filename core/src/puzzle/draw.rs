//! A terminal picture of a board and, optionally, its pieces.
//!
//! Each cell shows the dots it carries: `1` on a vertical piece's top, `2` on a
//! horizontal piece's right cell, `·` on the blank halves, `█` on blocked cells and
//! `.` on open cells no piece covers. `─` joins the halves of a horizontal piece and
//! `│` those of a vertical one, so the pieces read as a player sees them.

use super::{Instance, Orientation, Solution};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Half {
    Empty,
    Blocked,
    VerticalTop,
    VerticalBottom,
    HorizontalLeft,
    HorizontalRight,
}

/// Draws the board with its clues: column clues on top, row clues on the left.
pub fn draw(instance: &Instance, solution: Option<&Solution>) -> String {
    let (m, n) = (instance.rows, instance.cols);
    let mut halves = vec![Half::Empty; m * n];
    for (r, c) in instance.blocked_cells() {
        halves[r * n + c] = Half::Blocked;
    }
    if let Some(solution) = solution {
        for piece in solution.pieces() {
            let (r2, c2) = piece.other_cell();
            if r2 >= m || c2 >= n {
                continue;
            }
            let (a, b) = match piece.orientation {
                Orientation::Vertical => (Half::VerticalTop, Half::VerticalBottom),
                Orientation::Horizontal => (Half::HorizontalLeft, Half::HorizontalRight),
            };
            halves[piece.row * n + piece.col] = a;
            halves[r2 * n + c2] = b;
        }
    }
    let width = instance
        .col_clues
        .iter()
        .map(|c| c.to_string().chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let margin = instance
        .row_clues
        .iter()
        .map(|c| c.to_string().chars().count())
        .max()
        .unwrap_or(1);

    let mut out = String::new();
    out.push_str(&" ".repeat(margin + 1));
    for clue in &instance.col_clues {
        out.push(' ');
        out.push_str(&format!("{clue:>width$}"));
    }
    out.push('\n');
    for r in 0..m {
        out.push_str(&format!("{:>margin$} ", instance.row_clues[r]));
        for c in 0..n {
            let half = halves[r * n + c];
            let joined = half == Half::HorizontalRight;
            out.push(if joined { '─' } else { ' ' });
            let symbol = match half {
                Half::Empty => '.',
                Half::Blocked => '█',
                Half::VerticalTop => '1',
                Half::HorizontalRight => '2',
                Half::VerticalBottom | Half::HorizontalLeft => '·',
            };
            let pad = if joined { '─' } else { ' ' };
            for _ in 1..width {
                out.push(pad);
            }
            out.push(symbol);
        }
        out.push('\n');
        if r + 1 < m && (0..n).any(|c| halves[r * n + c] == Half::VerticalTop) {
            out.push_str(&" ".repeat(margin + 1));
            for c in 0..n {
                out.push_str(&" ".repeat(width));
                out.push(if halves[r * n + c] == Half::VerticalTop {
                    '│'
                } else {
                    ' '
                });
            }
            let trimmed = out.trim_end_matches(' ').len();
            out.truncate(trimmed);
            out.push('\n');
        }
    }
    out
}
