//! Clue inversion (Theorem 3.1) as integer arithmetic over line counts.
//!
//! A row's dots are one per vertical piece whose top is in it and two per horizontal
//! piece in it; its open cells are covered by those tops, by the bottoms of the vertical
//! pieces crossing from the row above, and by two cells per horizontal piece. So with
//! `n_r` open cells and clue `R_r`, the vertical pieces crossing below row `r - 1` number
//! `u_{r-1} = n_r - R_r`, and the horizontal pieces in row `r` number
//! `p_r = (R_r - u_r) / 2`. Columns likewise: a column's dots are one per vertical piece
//! in it and two per horizontal piece ending in it, so with `m_c` open cells and clue
//! `C_c`, `q_c = C_c - 2 t_{c-1}` vertical pieces lie in column `c` and
//! `t_c = m_c - 2 q_c - t_{c-1}` horizontal pieces cross to its right. Every tiling meets
//! these counts, and a tiling that meets them meets every clue.

use super::board::{Board, Quotas};
use crate::puzzle::Instance;

/// A count as a quota: between 0 and the 128 cells a board of the path holds.
fn quota(value: i32) -> Option<u8> {
    u8::try_from(value).ok().filter(|&q| q <= 128)
}

impl Quotas {
    /// The quotas, or `None` when the clues admit no tiling: a count that is negative,
    /// odd where it must be even, or not zero at the board's edge, or totals that
    /// disagree between rows and columns.
    pub(super) fn invert(instance: &Instance, board: &Board) -> Option<Quotas> {
        let (rows, cols) = (board.rows, board.cols);
        let mut out = Quotas::default();
        // No line of 128 cells carries more than 256 dots; larger clues (up to 2^64)
        // stay out of the arithmetic.
        let clue = |value: u64| -> Option<i32> { i32::try_from(value).ok().filter(|&v| v <= 256) };
        let open_in_row = |r: usize| board.row(r).count_ones() as i32;
        // Rows: the vertical pieces crossing below row r are u_r = n_{r+1} - R_{r+1},
        // none below the last row and none into the top row (n_1 = R_1).
        if open_in_row(0) != clue(instance.row_clues[0])? {
            return None;
        }
        for r in 0..rows {
            let crossing = if r + 1 < rows {
                open_in_row(r + 1) - clue(instance.row_clues[r + 1])?
            } else {
                0
            };
            let pairs = clue(instance.row_clues[r])? - crossing;
            if pairs % 2 != 0 {
                return None;
            }
            out.u[r] = quota(crossing)?;
            out.p[r] = quota(pairs / 2)?;
        }
        // Columns: q_c = C_c - 2 t_{c-1} and t_c = m_c - 2 q_c - t_{c-1}; none to the
        // right of the last column.
        let mut left = 0i32; // t_{c-1}
        for c in 0..cols {
            let m = board.col(c).count_ones() as i32;
            let q = clue(instance.col_clues[c])? - 2 * left;
            let t = m - 2 * q - left;
            out.q[c] = quota(q)?;
            out.t[c] = quota(t)?;
            left = t;
        }
        if left != 0 {
            return None;
        }
        let sum = |v: &[u8]| v.iter().map(|&x| u32::from(x)).sum::<u32>();
        let verticals = sum(&out.u[..rows]);
        let horizontals = sum(&out.p[..rows]);
        if verticals != sum(&out.q[..cols]) || horizontals != sum(&out.t[..cols]) {
            return None;
        }
        Some(out)
    }
}
