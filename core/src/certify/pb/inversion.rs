//! Clue inversion (Theorem 3.1) and the colour splits (Eq. 10), derived in the proof
//! from the raw rules: every quota group the search propagates becomes two constraints
//! of the checker's database (`≥ quota` and `≤ quota`), each one `pol` step.
//!
//! The derivations are the paper's equations read as sums of constraints:
//! * a row's cover equalities minus its clue leave the vertical pieces crossing into it
//!   from above: `u_{i-1} = n_i − R_i`;
//! * a row's clue minus those crossing below it leaves twice its horizontal pieces:
//!   `2 p_i = R_i − u_i` (divided by 2, rounding each side its way, so an odd count is
//!   a contradiction);
//! * a column's covers, minus twice its clue, plus three times the horizontal pieces
//!   crossing in from the left, leave those crossing out to the right:
//!   `t_j = b_j − 2 C_j + 3 t_{j−1}`; its clue minus twice those crossing in leaves its
//!   vertical pieces: `q_j = C_j − 2 t_{j−1}`;
//! * the covers of the even cells above a cut minus those of the odd cells leave the
//!   crossing pieces starting on even cells minus those starting on odd ones; with
//!   `u_i`, halved, each colour's share.
//!
//! The checks run in clue inversion's order, and the first count the clues cannot meet
//! (negative, odd, or beyond the room there is) ends the derivation with a contradiction.

use super::formula::Ids;
use super::writer::{Id, ProofWriter, Sides, Sum};
use crate::model::{Family, Model};
use crate::puzzle::{Instance, Orientation};

/// What the derivation gave.
pub enum Inverted {
    /// Both constraints (`≥`, `≤`) of each of the model's quota groups, in model order.
    Quotas(Vec<(Id, Id)>),
    /// The clues admit no tiling: the contradiction `0 ≥ 1`.
    Refuted(Id),
}

/// The board's cells, grouped for the sums.
pub(super) struct Cells {
    /// Cover index of each open cell, by row and by column.
    pub(super) by_row: Vec<Vec<u32>>,
    pub(super) by_col: Vec<Vec<u32>>,
}

impl Cells {
    fn of(model: &Model) -> Cells {
        let mut by_row = vec![Vec::new(); model.rows];
        let mut by_col = vec![Vec::new(); model.cols];
        for (k, cover) in model.covers.iter().enumerate() {
            by_row[cover.row - 1].push(k as u32);
            by_col[cover.col - 1].push(k as u32);
        }
        Cells { by_row, by_col }
    }
}

/// A derived equality: its two constraints, and how many placements it holds (its room,
/// for the checks).
#[derive(Clone, Copy)]
struct Pair {
    at_least: Id,
    at_most: Id,
}

impl Pair {
    /// Both sides of `sides` written as constraints, divided by `divisor` (rounding up)
    /// when it is above 1.
    fn logged<W: super::writer::Output>(
        out: &mut ProofWriter<W>,
        sides: &mut Sides,
        divisor: u64,
    ) -> Pair {
        Pair {
            at_least: out.pol(sides.at_least.divide(divisor)),
            at_most: out.pol(sides.at_most.divide(divisor)),
        }
    }
}

/// Adds the cover equality of every cell of `cells` (cover indices).
fn add_covers(sides: &mut Sides, ids: &Ids, cells: &[u32]) {
    for &k in cells {
        sides.add(ids.cover_at_least(k), ids.cover_at_most(k), 1);
    }
}

/// Derives the quotas of `model` (any families; the derivation covers them all) from
/// the raw rules of `instance`.
pub fn derive<W: super::writer::Output>(
    model: &Model,
    instance: &Instance,
    ids: &Ids,
    out: &mut ProofWriter<W>,
) -> Inverted {
    match Derivation::new(model, instance, ids).run(out) {
        Ok(found) => {
            let groups = model
                .quotas
                .iter()
                .map(|g| {
                    let pair = found
                        .get(&(g.family, g.index))
                        .expect("every quota group of the model is derived");
                    (pair.at_least, pair.at_most)
                })
                .collect();
            Inverted::Quotas(groups)
        }
        Err(contradiction) => Inverted::Refuted(contradiction),
    }
}

/// The derivation's inputs: the model, its board, where VeriPB numbers each rule, and
/// the cells grouped by line.
pub(super) struct Derivation<'a> {
    pub(super) model: &'a Model,
    pub(super) instance: &'a Instance,
    pub(super) ids: &'a Ids,
    pub(super) cells: Cells,
}

/// The derived pairs by (family, one-based index).
type Found = std::collections::HashMap<(Family, usize), Pair>;

impl<'a> Derivation<'a> {
    fn new(model: &'a Model, instance: &'a Instance, ids: &'a Ids) -> Derivation<'a> {
        Derivation {
            model,
            instance,
            ids,
            cells: Cells::of(model),
        }
    }

    fn colour(&self, k: u32) -> usize {
        let cover = &self.model.covers[k as usize];
        (cover.row + cover.col) % 2
    }

    /// Placements of `orientation` whose start cell is in row `r` (or column `c`), and
    /// whose start cell has colour `colour` if given.
    fn count_starting(&self, orientation: Orientation, line: Line, colour: Option<usize>) -> i128 {
        self.model
            .placements
            .iter()
            .filter(|p| p.orientation == orientation)
            .filter(|p| match line {
                Line::Row(r) => p.row == r,
                Line::Col(c) => p.col == c,
            })
            .filter(|p| colour.is_none_or(|k| (p.row + p.col) % 2 == k))
            .count() as i128
    }

    fn run<W: super::writer::Output>(&self, out: &mut ProofWriter<W>) -> Result<Found, Id> {
        let (m, n) = (self.instance.rows, self.instance.cols);
        let ids = self.ids;
        let all: Vec<u32> = (0..self.model.covers.len() as u32).collect();
        let open = all.len() as i128;
        let row_clue = |i: usize| self.instance.row_clues[i] as i128;
        let col_clue = |j: usize| self.instance.col_clues[j] as i128;
        let contradiction = |out: &mut ProofWriter<W>| out.nogood(&[]);

        // Conservation (Eq. 5).
        if open % 2 != 0 {
            let mut sides = Sides::new();
            add_covers(&mut sides, ids, &all);
            let a = out.pol(sides.at_least.divide(2));
            let b = out.pol(sides.at_most.divide(2));
            out.pol(Sum::new().add(a, 1).add(b, 1));
            return Err(contradiction(out));
        }
        let row_total: i128 = (0..m).map(row_clue).sum();
        let col_total: i128 = (0..n).map(col_clue).sum();
        if row_total != col_total {
            let mut sum = Sum::new();
            for r in 0..m {
                sum.add(
                    if row_total > col_total {
                        ids.row_at_least(r)
                    } else {
                        ids.row_at_most(r)
                    },
                    1,
                );
            }
            for c in 0..n {
                sum.add(
                    if row_total > col_total {
                        ids.col_at_most(c)
                    } else {
                        ids.col_at_least(c)
                    },
                    1,
                );
            }
            out.pol(&sum);
            return Err(contradiction(out));
        }
        if row_total < open / 2 || row_total > open {
            // Too many dots: the clues' V + 2H against the covers' 2V + 2H. Too few:
            // twice the clues' against the covers'.
            let too_many = row_total > open;
            let mut sum = Sum::new();
            for r in 0..m {
                if too_many {
                    sum.add(ids.row_at_least(r), 1);
                } else {
                    sum.add(ids.row_at_most(r), 2);
                }
            }
            for &k in &all {
                sum.add(
                    if too_many {
                        ids.cover_at_most(k)
                    } else {
                        ids.cover_at_least(k)
                    },
                    1,
                );
            }
            out.pol(&sum);
            return Err(contradiction(out));
        }

        let mut found = Found::new();
        // Rows: nothing crosses into the top row, so its covers and its clue agree.
        let top = &self.cells.by_row[0];
        let n0 = top.len() as i128;
        if n0 != row_clue(0) {
            let mut sum = Sum::new();
            for &k in top {
                sum.add(
                    if n0 > row_clue(0) {
                        ids.cover_at_least(k)
                    } else {
                        ids.cover_at_most(k)
                    },
                    1,
                );
            }
            sum.add(
                if n0 > row_clue(0) {
                    ids.row_at_most(0)
                } else {
                    ids.row_at_least(0)
                },
                1,
            );
            out.pol(&sum);
            return Err(contradiction(out));
        }
        // u_i from row i + 1.
        let mut u: Vec<i128> = vec![0; m];
        for i in 0..m.saturating_sub(1) {
            let below = &self.cells.by_row[i + 1];
            let need = below.len() as i128 - row_clue(i + 1);
            let room = self.count_starting(Orientation::Vertical, Line::Row(i), None);
            let mut sides = Sides::new();
            add_covers(&mut sides, ids, below);
            sides.add(ids.row_at_most(i + 1), ids.row_at_least(i + 1), 1);
            let pair = Pair::logged(out, &mut sides, 1);
            if need < 0 || need > room {
                return Err(contradiction(out));
            }
            u[i] = need;
            found.insert((Family::U, i + 1), pair);
        }
        // p_i = (R_i - u_i) / 2.
        for i in 0..m {
            let need_halves = row_clue(i) - u[i];
            let crossing = found.get(&(Family::U, i + 1)).copied();
            let mut sides = Sides::new();
            sides.add(ids.row_at_least(i), ids.row_at_most(i), 1);
            if let Some(crossing) = crossing {
                sides.add(crossing.at_most, crossing.at_least, 1);
            }
            let pair = Pair::logged(out, &mut sides, 2);
            if need_halves < 0 {
                return Err(contradiction(out));
            }
            if need_halves % 2 != 0 {
                out.pol(Sum::new().add(pair.at_least, 1).add(pair.at_most, 1));
                return Err(contradiction(out));
            }
            let (room, runs) = self.line_room(Line::Row(i));
            if need_halves / 2 > room {
                return Err(self.beyond_room(out, pair.at_least, &runs, Orientation::Horizontal));
            }
            found.insert((Family::P, i + 1), pair);
        }
        // Columns: t_j = b_j - 2 C_j + 3 t_{j-1}, then q_j = C_j - 2 t_{j-1}.
        let mut t: Vec<i128> = vec![0; n];
        let mut previous: Option<Pair> = None;
        let mut previous_need: i128 = 0;
        for j in 0..n {
            let column = &self.cells.by_col[j];
            let need = column.len() as i128 - 2 * col_clue(j) + 3 * previous_need;
            let room = self.count_starting(Orientation::Horizontal, Line::Col(j), None);
            let mut sides = Sides::new();
            add_covers(&mut sides, ids, column);
            sides.add(ids.col_at_most(j), ids.col_at_least(j), 2);
            if let Some(previous) = previous {
                sides.add(previous.at_least, previous.at_most, 3);
            }
            let pair = Pair::logged(out, &mut sides, 1);
            if need < 0 || need > room {
                return Err(contradiction(out));
            }
            t[j] = need;
            previous_need = need;
            previous = (room > 0).then_some(pair);
            if room > 0 {
                found.insert((Family::T, j + 1), pair);
            }
        }
        for j in 0..n {
            let before = if j == 0 { 0 } else { t[j - 1] };
            let need = col_clue(j) - 2 * before;
            let crossing = if j == 0 {
                None
            } else {
                found.get(&(Family::T, j)).copied()
            };
            let mut sides = Sides::new();
            sides.add(ids.col_at_least(j), ids.col_at_most(j), 1);
            if let Some(crossing) = crossing {
                sides.add(crossing.at_most, crossing.at_least, 2);
            }
            let pair = Pair::logged(out, &mut sides, 1);
            if need < 0 {
                return Err(contradiction(out));
            }
            let (room, runs) = self.line_room(Line::Col(j));
            if need > room {
                return Err(self.beyond_room(out, pair.at_least, &runs, Orientation::Vertical));
            }
            found.insert((Family::Q, j + 1), pair);
        }
        // Colour splits (Eq. 10), rows then columns, from the running difference of the
        // covers of even and odd cells above (left of) the cut.
        for (lines, by_line, quotas, even_family, odd_family, whole) in [
            (
                m,
                &self.cells.by_row,
                &u,
                Family::UEven,
                Family::UOdd,
                Family::U,
            ),
            (
                n,
                &self.cells.by_col,
                &t,
                Family::TEven,
                Family::TOdd,
                Family::T,
            ),
        ] {
            let mut difference: Option<Pair> = None;
            let mut imbalance: i128 = 0;
            for i in 0..lines {
                // `at_least`: even minus odd ≥ imbalance; `at_most`: odd minus even.
                let mut sides = Sides::new();
                if let Some(before) = difference {
                    sides.add(before.at_least, before.at_most, 1);
                }
                for &k in &by_line[i] {
                    let even = self.colour(k) == 0;
                    imbalance += if even { 1 } else { -1 };
                    sides.at_least.add(
                        if even {
                            ids.cover_at_least(k)
                        } else {
                            ids.cover_at_most(k)
                        },
                        1,
                    );
                    sides.at_most.add(
                        if even {
                            ids.cover_at_most(k)
                        } else {
                            ids.cover_at_least(k)
                        },
                        1,
                    );
                }
                let current = if sides.at_least.is_empty() {
                    difference
                } else {
                    Some(Pair::logged(out, &mut sides, 1))
                };
                difference = current;
                let whole_pair = found.get(&(whole, i + 1)).copied();
                let line = if whole == Family::U {
                    Line::Row(i)
                } else {
                    Line::Col(i)
                };
                let orientation = if whole == Family::U {
                    Orientation::Vertical
                } else {
                    Orientation::Horizontal
                };
                for (even, family, sign) in [(true, even_family, 1), (false, odd_family, -1)] {
                    let half_sum = quotas[i] + sign * imbalance;
                    let colour = usize::from(!even);
                    let room = self.count_starting(orientation, line, Some(colour));
                    // even: (difference ≥ + whole ≥)/2 and (difference ≤ + whole ≤)/2;
                    // odd: the difference's other side.
                    let (for_at_least, for_at_most) = match (current, even) {
                        (Some(d), true) => (Some(d.at_least), Some(d.at_most)),
                        (Some(d), false) => (Some(d.at_most), Some(d.at_least)),
                        (None, _) => (None, None),
                    };
                    let mut sides = Sides::new();
                    if let Some(id) = for_at_least {
                        sides.at_least.add(id, 1);
                    }
                    if let Some(id) = for_at_most {
                        sides.at_most.add(id, 1);
                    }
                    if let Some(w) = whole_pair {
                        sides.add(w.at_least, w.at_most, 1);
                    }
                    if sides.at_least.is_empty() {
                        // No cell above and no crossing piece: 0 = 0.
                        continue;
                    }
                    let pair = Pair::logged(out, &mut sides, 2);
                    if half_sum < 0 || half_sum / 2 > room {
                        return Err(contradiction(out));
                    }
                    if half_sum % 2 != 0 {
                        out.pol(Sum::new().add(pair.at_least, 1).add(pair.at_most, 1));
                        return Err(contradiction(out));
                    }
                    if room > 0 {
                        found.insert((family, i + 1), pair);
                    }
                }
            }
        }
        Ok(found)
    }
}

/// A row or a column, zero-based.
#[derive(Clone, Copy)]
pub(super) enum Line {
    Row(usize),
    Col(usize),
}
