//! From an instance to the model: the placements, the covers, and the quota groups of
//! the chosen families from clue inversion (or the raw clue sums).

use super::{
    ClueSum, Cover, CoverList, Families, Family, Line, Model, PlacementId, QuotaGroup, Quotas,
    invert,
};
use crate::puzzle::{Instance, Orientation, Piece};

/// Compiles an instance into the model with the chosen constraint families.
pub fn compile(instance: &Instance, families: Families) -> Model {
    match compile_until(instance, families, &|| false) {
        Some(model) => model,
        None => unreachable!("a compilation that is never stopped ends"),
    }
}

/// [`compile`], given up (`None`) as soon as `out_of_time` says so: it is asked once per
/// row and between the steps. On a board of a million cells compiling takes a quarter
/// of a second on a warm machine and seconds where memory is touched for the first time
/// slowly (most of the time goes to the kernel clearing fresh pages), so a time limit
/// must hold here as in the search.
pub fn compile_until(
    instance: &Instance,
    families: Families,
    out_of_time: &dyn Fn() -> bool,
) -> Option<Model> {
    let (m, n) = (instance.rows, instance.cols);
    let mut placements = Vec::with_capacity(2 * m * n);
    // The placement starting at a cell, per orientation: covers and groups are read
    // off this table.
    let mut id_at: Vec<PlacementId> = vec![NO_PLACEMENT; 2 * m * n];
    for r in 0..m {
        if out_of_time() {
            return None;
        }
        for c in 0..n {
            if !instance.is_open(r, c) {
                continue;
            }
            for orientation in [Orientation::Vertical, Orientation::Horizontal] {
                let piece = Piece {
                    row: r,
                    col: c,
                    orientation,
                };
                let (r2, c2) = piece.other_cell();
                if instance.is_open(r2, c2) {
                    id_at[2 * (r * n + c) + orientation as usize] = placements.len() as PlacementId;
                    placements.push(piece);
                }
            }
        }
    }
    let start_at = |r: usize, c: usize, o: Orientation| id_at[2 * (r * n + c) + o as usize];
    let mut covers = Vec::with_capacity(m * n);
    for r in 0..m {
        if out_of_time() {
            return None;
        }
        for c in 0..n {
            if !instance.is_open(r, c) {
                continue;
            }
            // In increasing id order: the piece from above, from the left, then the
            // two starting here.
            let mut ids = CoverList::new();
            let from_above = (r > 0).then(|| start_at(r - 1, c, Orientation::Vertical));
            let from_left = (c > 0).then(|| start_at(r, c - 1, Orientation::Horizontal));
            let here = [
                Some(start_at(r, c, Orientation::Vertical)),
                Some(start_at(r, c, Orientation::Horizontal)),
            ];
            for id in [from_above, from_left].into_iter().chain(here).flatten() {
                if id != NO_PLACEMENT {
                    ids.push(id);
                }
            }
            covers.push(Cover {
                row: r + 1,
                col: c + 1,
                placements: ids,
            });
        }
    }

    let mut model = Model {
        instance: instance.clone(),
        name: instance.name.clone(),
        rows: m,
        cols: n,
        families,
        placements,
        covers,
        quotas: Vec::new(),
        quota_members: Vec::new(),
        clue_sums: Vec::new(),
        infeasible: None,
    };
    if out_of_time() {
        return None;
    }
    if families == Families::RawSums {
        model.clue_sums = raw_clue_sums(instance, &model.placements);
        return Some(model);
    }
    match invert(instance) {
        Ok(quotas) => {
            (model.quotas, model.quota_members) =
                quota_groups(instance, &id_at, &quotas, families, out_of_time)?
        }
        Err(reason) => model.infeasible = Some(reason),
    }
    Some(model)
}

const NO_PLACEMENT: PlacementId = PlacementId::MAX;

fn quota_groups(
    instance: &Instance,
    id_at: &[PlacementId],
    quotas: &Quotas,
    families: Families,
    out_of_time: &dyn Fn() -> bool,
) -> Option<(Vec<QuotaGroup>, Vec<PlacementId>)> {
    let (m, n) = (instance.rows, instance.cols);
    let mut wanted: Vec<(Family, &[u32])> = vec![(Family::U, &quotas.u)];
    if families != Families::CutQuotas {
        wanted.push((Family::P, &quotas.p));
        wanted.push((Family::Q, &quotas.q));
    }
    wanted.push((Family::T, &quotas.t));
    if families == Families::ColourSplits {
        wanted.push((Family::UEven, &quotas.u_even));
        wanted.push((Family::UOdd, &quotas.u_odd));
        wanted.push((Family::TEven, &quotas.t_even));
        wanted.push((Family::TOdd, &quotas.t_odd));
    }
    let mut groups = Vec::new();
    let mut members: Vec<PlacementId> = Vec::new();
    for (family, quotas) in wanted {
        if out_of_time() {
            return None;
        }
        let (by_row, orientation, parity) = match family {
            Family::U => (true, Orientation::Vertical, None),
            Family::P => (true, Orientation::Horizontal, None),
            Family::Q => (false, Orientation::Vertical, None),
            Family::T => (false, Orientation::Horizontal, None),
            Family::UEven => (true, Orientation::Vertical, Some(0)),
            Family::UOdd => (true, Orientation::Vertical, Some(1)),
            Family::TEven => (false, Orientation::Horizontal, Some(0)),
            Family::TOdd => (false, Orientation::Horizontal, Some(1)),
        };
        let (lines, along) = if by_row { (m, n) } else { (n, m) };
        for line in 0..lines {
            let start = members.len();
            for k in 0..along {
                let (r, c) = if by_row { (line, k) } else { (k, line) };
                let id = id_at[2 * (r * n + c) + orientation as usize];
                if id != NO_PLACEMENT && parity.is_none_or(|p| (r + c) % 2 == p) {
                    members.push(id);
                }
            }
            let quota = quotas[line];
            // A cut with no room and a zero quota (the last row or column, a wall of
            // blocked cells) constrains nothing; leave it out of the model.
            if members.len() == start && quota == 0 {
                continue;
            }
            groups.push(QuotaGroup {
                family,
                index: line + 1,
                quota,
                start: start as u32,
                end: members.len() as u32,
            });
        }
    }
    Some((groups, members))
}

fn raw_clue_sums(instance: &Instance, placements: &[Piece]) -> Vec<ClueSum> {
    let empty_sums = |line: Line, clues: &[u64]| -> Vec<ClueSum> {
        (clues.iter().enumerate())
            .map(|(i, &target)| ClueSum {
                line,
                index: i + 1,
                target,
                terms: Vec::new(),
            })
            .collect()
    };
    let mut rows = empty_sums(Line::Row, &instance.row_clues);
    let mut cols = empty_sums(Line::Col, &instance.col_clues);
    for (id, p) in placements.iter().enumerate() {
        let id = id as PlacementId;
        match p.orientation {
            Orientation::Vertical => {
                rows[p.row].terms.push((1, id));
                cols[p.col].terms.push((1, id));
            }
            Orientation::Horizontal => {
                rows[p.row].terms.push((2, id));
                cols[p.col + 1].terms.push((2, id));
            }
        }
    }
    rows.extend(cols);
    rows
}
