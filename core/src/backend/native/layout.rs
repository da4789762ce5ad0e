//! The immutable incidence structure of a model, laid out flat for the search.

use crate::model::{Family, Model};

/// Two quota families that partition the same placements two ways (rows and cuts),
/// for the transportation check.
pub(super) struct Pairing {
    pub left_groups: Vec<u32>,
    pub right_groups: Vec<u32>,
    /// `(placement, left index, right index)` for each member placement.
    pub edges: Vec<(u32, u32, u32)>,
}

/// Most groups one placement can belong to (with colour splits: line, cut, colour).
pub(super) const MAX_GROUPS: usize = 4;

/// Covers (or groups) laid out between two looks at the caller's stop.
const ROWS_PER_LOOK: usize = 1 << 16;

/// Incidence arrays built once per model, next to the model itself. Cells are
/// numbered as the model's covers; what the model already holds (covers, group
/// members, quotas) is read from it rather than copied.
pub(super) struct Layout<'m> {
    pub model: &'m Model,
    pub cells: usize,
    /// The two cells of each placement, start cell first.
    pub place_cells: Vec<[u32; 2]>,
    /// Groups of each placement; the first `place_group_len` entries are valid.
    pub place_groups: Vec<[u32; MAX_GROUPS]>,
    pub place_group_len: Vec<u8>,
    /// `(p, t)` and `(q, u)` when asked for and the model carries all four families.
    pub pairings: Vec<Pairing>,
}

impl<'m> Layout<'m> {
    /// # Panics
    /// Never for models from [`crate::model::compile`]: every placement covers two
    /// cells and belongs to at most [`MAX_GROUPS`] groups.
    pub fn new(model: &'m Model, with_pairings: bool) -> Layout<'m> {
        match Layout::until(model, with_pairings, &|| false) {
            Some(layout) => layout,
            None => unreachable!("a layout that is never stopped is built"),
        }
    }

    /// [`Layout::new`], looking at `stop` every [`ROWS_PER_LOOK`] covers and groups:
    /// at 2048×2048 the layout takes 0.3 to 0.9 s (most of it the kernel handing over
    /// fresh pages), which a time limit of a second cannot wait for. `None` when `stop`
    /// said so.
    ///
    /// # Panics
    /// As [`Layout::new`].
    pub fn until(
        model: &'m Model,
        with_pairings: bool,
        stop: &dyn Fn() -> bool,
    ) -> Option<Layout<'m>> {
        let places = model.placements.len();
        let cells = model.covers.len();
        let look = |k: usize| k % ROWS_PER_LOOK == ROWS_PER_LOOK - 1 && stop();
        let mut place_cells = vec![[u32::MAX; 2]; places];
        for (k, cover) in model.covers.iter().enumerate() {
            if look(k) {
                return None;
            }
            for &p in &cover.placements {
                let slot = &mut place_cells[p as usize];
                if slot[0] == u32::MAX {
                    slot[0] = k as u32;
                } else {
                    slot[1] = k as u32;
                }
            }
        }
        let mut place_groups = vec![[u32::MAX; MAX_GROUPS]; places];
        let mut place_group_len = vec![0u8; places];
        if stop() {
            return None;
        }
        for (g, group) in model.quotas.iter().enumerate() {
            if look(g) {
                return None;
            }
            for &p in model.members(group) {
                let len = &mut place_group_len[p as usize];
                assert!((*len as usize) < MAX_GROUPS, "placement in too many groups");
                place_groups[p as usize][*len as usize] = g as u32;
                *len += 1;
            }
        }
        if stop() {
            return None;
        }
        let pairings = if with_pairings {
            [(Family::P, Family::T), (Family::Q, Family::U)]
                .into_iter()
                .filter_map(|(l, r)| pairing(model, l, r, places))
                .collect()
        } else {
            Vec::new()
        };
        Some(Layout {
            model,
            cells,
            place_cells,
            place_groups,
            place_group_len,
            pairings,
        })
    }

    #[inline]
    pub fn groups_of(&self, p: u32) -> &[u32] {
        let p = p as usize;
        &self.place_groups[p][..self.place_group_len[p] as usize]
    }

    #[inline]
    pub fn places_at(&self, c: u32) -> &[u32] {
        &self.model.covers[c as usize].placements
    }

    #[inline]
    pub fn members(&self, g: u32) -> &[u32] {
        self.model.members(&self.model.quotas[g as usize])
    }

    /// Checkerboard colour of a cell: 0 for even `row + col`, 1 for odd.
    #[inline]
    pub fn colour(&self, c: u32) -> u8 {
        let cover = &self.model.covers[c as usize];
        ((cover.row + cover.col) % 2) as u8
    }

    pub fn groups(&self) -> usize {
        self.model.quotas.len()
    }
}

/// The pairing of two families, if the model has both and each placement of one lies in
/// exactly one group of the other.
fn pairing(model: &Model, left: Family, right: Family, places: usize) -> Option<Pairing> {
    let mut side = vec![[u32::MAX; 2]; places];
    let mut groups = [Vec::new(), Vec::new()];
    for (g, group) in model.quotas.iter().enumerate() {
        let s = if group.family == left {
            0
        } else if group.family == right {
            1
        } else {
            continue;
        };
        for &p in model.members(group) {
            side[p as usize][s] = groups[s].len() as u32;
        }
        groups[s].push(g as u32);
    }
    if groups[0].is_empty() || groups[1].is_empty() {
        return None;
    }
    let mut edges = Vec::new();
    for (p, [l, r]) in side.into_iter().enumerate() {
        match (l != u32::MAX, r != u32::MAX) {
            (true, true) => edges.push((p as u32, l, r)),
            (false, false) => {}
            // A placement in one family but not the other (a group left out of the
            // model): the two sides do not partition the same pieces.
            _ => return None,
        }
    }
    let [left_groups, right_groups] = groups;
    Some(Pairing {
        left_groups,
        right_groups,
        edges,
    })
}
