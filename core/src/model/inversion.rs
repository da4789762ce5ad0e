//! Clue inversion (Theorem 3.1 of the paper) and the checkerboard colour splits (Eq. 10).
//!
//! Dot clues are awkward for every solver: a horizontal piece puts its two dots in one
//! column and its blank in another. Inverting them gives exact counts of pieces per
//! orientation and per cut of the board, which are plain cardinality constraints. The
//! arithmetic is exact (`i128`); a fractional or negative count is a proof that the
//! board has no solution, and that proof is kept in words a player understands.

use super::infeasibility::Infeasibility;
use crate::puzzle::Instance;

/// The orientation quotas of every solution, zero-based.
///
/// `u[i]`: vertical pieces with their top cell in row `i` (crossing below row `i`);
/// `p[i]`: horizontal pieces in row `i`; `q[j]`: vertical pieces in column `j`;
/// `t[j]`: horizontal pieces with their left cell in column `j` (crossing right of
/// column `j`). The colour splits count those crossing pieces by the parity of
/// `row + col` of their start cell (the same parity one-based or zero-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quotas {
    /// Vertical pieces crossing the cut below each row (Eq. 6).
    pub u: Vec<u32>,
    /// Horizontal pieces in each row (Eq. 7).
    pub p: Vec<u32>,
    /// Vertical pieces in each column (Eq. 9).
    pub q: Vec<u32>,
    /// Horizontal pieces crossing the cut right of each column (Eq. 8).
    pub t: Vec<u32>,
    /// The part of `u` starting on cells with even `row + col` (Eq. 10).
    pub u_even: Vec<u32>,
    /// The part of `u` starting on cells with odd `row + col`.
    pub u_odd: Vec<u32>,
    /// The part of `t` starting on cells with even `row + col` (Eq. 10).
    pub t_even: Vec<u32>,
    /// The part of `t` starting on cells with odd `row + col`.
    pub t_odd: Vec<u32>,
    /// `T_V` of Eq. 5: the total number of vertical pieces, the sum of `u` (each
    /// crosses exactly one row cut).
    pub vertical_total: u64,
    /// `T_H`, the sum of `p`.
    pub horizontal_total: u64,
}

/// Geometric room on the board, independent of the clues.
#[derive(Debug, Clone)]
struct Room {
    /// Open cells per row (`a_i`) and per column (`b_j`).
    row_open: Vec<i128>,
    col_open: Vec<i128>,
    /// Columns where a vertical piece can cross below row `i`, split by colour.
    vertical_cut: Vec<[usize; 2]>,
    /// Rows where a horizontal piece can cross right of column `j`, split by colour.
    horizontal_cut: Vec<[usize; 2]>,
    /// Most disjoint horizontal pieces that fit in row `i`.
    row_path: Vec<usize>,
    /// Most disjoint vertical pieces that fit in column `j`.
    col_path: Vec<usize>,
    /// Open even cells minus open odd cells in each row and in each column.
    row_colour: Vec<i128>,
    col_colour: Vec<i128>,
}

impl Room {
    fn measure(instance: &Instance) -> Room {
        let (m, n) = (instance.rows, instance.cols);
        let open = |r: usize, c: usize| instance.is_open(r, c);
        let mut room = Room {
            row_open: vec![0; m],
            col_open: vec![0; n],
            vertical_cut: vec![[0, 0]; m],
            horizontal_cut: vec![[0, 0]; n],
            row_path: vec![0; m],
            col_path: vec![0; n],
            row_colour: vec![0; m],
            col_colour: vec![0; n],
        };
        for r in 0..m {
            for c in 0..n {
                if !open(r, c) {
                    continue;
                }
                room.row_open[r] += 1;
                room.col_open[c] += 1;
                let colour = (r + c) % 2;
                let sign = 1 - 2 * colour as i128;
                room.row_colour[r] += sign;
                room.col_colour[c] += sign;
                if open(r + 1, c) {
                    room.vertical_cut[r][colour] += 1;
                }
                if open(r, c + 1) {
                    room.horizontal_cut[c][colour] += 1;
                }
            }
        }
        // A run of k open cells along a line holds at most floor(k/2) disjoint pieces.
        let pieces_along = |cells: &mut dyn Iterator<Item = bool>| {
            let (mut pieces, mut run) = (0, 0);
            for is_open in cells.chain([false]) {
                if is_open {
                    run += 1;
                } else {
                    pieces += run / 2;
                    run = 0;
                }
            }
            pieces
        };
        for r in 0..m {
            room.row_path[r] = pieces_along(&mut (0..n).map(|c| open(r, c)));
        }
        for c in 0..n {
            room.col_path[c] = pieces_along(&mut (0..m).map(|r| open(r, c)));
        }
        room
    }
}

/// Converts a checked count to the stored width. Counts are bounded by the board's
/// side, so this cannot fail after the room checks.
fn narrow(v: i128) -> u32 {
    u32::try_from(v).expect("counts are bounded by the board size after room checks")
}

/// Inverts the clues into quotas, or proves the board has no solution.
///
/// The checks run in a fixed order (conservation, rows, columns, colours), so the
/// reason reported for a given board is always the same.
///
/// # Errors
/// The first necessary condition the clues violate.
pub fn invert(instance: &Instance) -> Result<Quotas, Infeasibility> {
    let (m, n) = (instance.rows, instance.cols);
    let room = Room::measure(instance);
    let open = instance.open_cells();

    // Conservation (Eq. 5).
    if !open.is_multiple_of(2) {
        return Err(Infeasibility::OddArea { open });
    }
    let row_total: u128 = instance.row_clues.iter().map(|&c| c as u128).sum();
    let col_total: u128 = instance.col_clues.iter().map(|&c| c as u128).sum();
    if row_total != col_total {
        return Err(Infeasibility::UnequalTotals {
            row_total,
            col_total,
        });
    }
    if row_total < (open / 2) as u128 || row_total > open as u128 {
        return Err(Infeasibility::TotalOutOfRange {
            open,
            total: row_total,
        });
    }

    // Rows: u_i = a_{i+1} - R_{i+1} (Eq. 6), p_i = (R_i - u_i)/2 (Eq. 7).
    let row_clue = |i: usize| instance.row_clues[i] as i128;
    if row_clue(0) != room.row_open[0] {
        return Err(Infeasibility::TopRow {
            open: open_in(&room.row_open, 0),
            clue: instance.row_clues[0],
        });
    }
    let mut u = vec![0u32; m];
    for i in 0..m.saturating_sub(1) {
        let need = room.row_open[i + 1] - row_clue(i + 1);
        let cap = room.vertical_cut[i][0] + room.vertical_cut[i][1];
        if need < 0 || need > cap as i128 {
            return Err(Infeasibility::VerticalCut {
                row: i + 1,
                need,
                room: cap,
            });
        }
        u[i] = narrow(need);
    }
    let mut p = vec![0u32; m];
    for i in 0..m {
        let need_halves = row_clue(i) - u[i] as i128;
        if need_halves < 0 || need_halves % 2 != 0 || need_halves / 2 > room.row_path[i] as i128 {
            return Err(Infeasibility::RowHorizontal {
                row: i + 1,
                need_halves,
                room: room.row_path[i],
            });
        }
        p[i] = narrow(need_halves / 2);
    }

    // Columns: t_j = b_j - 2C_j + 3t_{j-1} (Eq. 8), q_j = C_j - 2t_{j-1} (Eq. 9).
    // Rejecting each t_j against its room at once keeps the recurrence from growing.
    let mut t = vec![0u32; n];
    let mut previous: i128 = 0;
    for j in 0..n {
        let need = room.col_open[j] - 2 * instance.col_clues[j] as i128 + 3 * previous;
        let cap = room.horizontal_cut[j][0] + room.horizontal_cut[j][1];
        if need < 0 || need > cap as i128 {
            return Err(Infeasibility::HorizontalCut {
                col: j + 1,
                cols: n,
                need,
                room: cap,
            });
        }
        t[j] = narrow(need);
        previous = need;
    }
    let mut q = vec![0u32; n];
    for j in 0..n {
        let before = if j == 0 { 0 } else { t[j - 1] as i128 };
        let need = instance.col_clues[j] as i128 - 2 * before;
        if need < 0 || need > room.col_path[j] as i128 {
            return Err(Infeasibility::ColumnVertical {
                col: j + 1,
                need,
                room: room.col_path[j],
            });
        }
        q[j] = narrow(need);
    }

    // Colour splits (Eq. 10): I_i and J_j are prefix imbalances, +1 for even cells.
    let (u_even, u_odd) = colour_splits(
        &u,
        &room.row_colour,
        &room.vertical_cut,
        |i, even, need_halves, room| Infeasibility::VerticalColour {
            row: i + 1,
            even,
            need_halves,
            room,
        },
    )?;
    let (t_even, t_odd) = colour_splits(
        &t,
        &room.col_colour,
        &room.horizontal_cut,
        |j, even, need_halves, room| Infeasibility::HorizontalColour {
            col: j + 1,
            even,
            need_halves,
            room,
        },
    )?;

    let vertical_total = u.iter().map(|&x| x as u64).sum();
    let horizontal_total = p.iter().map(|&x| x as u64).sum();
    Ok(Quotas {
        u,
        p,
        q,
        t,
        u_even,
        u_odd,
        t_even,
        t_odd,
        vertical_total,
        horizontal_total,
    })
}

fn open_in(counts: &[i128], k: usize) -> usize {
    counts[k] as usize
}

/// The colour splits of one kind of cut (Eq. 10): with `I` the prefix imbalance of
/// `colour` (+1 per even cell), the pieces crossing cut `k` from even cells are
/// `(counts[k] + I) / 2` and from odd cells `(counts[k] - I) / 2`; each must be a whole,
/// non-negative number within the room `cuts[k]` leaves for its colour, or `refuted`
/// says why not (cut, even side or not, the count in halves, the room).
fn colour_splits(
    counts: &[u32],
    colour: &[i128],
    cuts: &[[usize; 2]],
    refuted: impl Fn(usize, bool, i128, usize) -> Infeasibility,
) -> Result<(Vec<u32>, Vec<u32>), Infeasibility> {
    let mut even_part = vec![0u32; counts.len()];
    let mut odd_part = vec![0u32; counts.len()];
    let mut imbalance: i128 = 0;
    for k in 0..counts.len() {
        imbalance += colour[k];
        let count = i128::from(counts[k]);
        for (even, half_sum, cap, slot) in [
            (true, count + imbalance, cuts[k][0], &mut even_part[k]),
            (false, count - imbalance, cuts[k][1], &mut odd_part[k]),
        ] {
            if half_sum < 0 || half_sum % 2 != 0 || half_sum / 2 > cap as i128 {
                return Err(refuted(k, even, half_sum, cap));
            }
            *slot = narrow(half_sum / 2);
        }
    }
    Ok((even_part, odd_part))
}

#[cfg(test)]
#[path = "inversion_tests.rs"]
mod tests;
