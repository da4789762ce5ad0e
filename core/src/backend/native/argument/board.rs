//! What a player knows of a board: each piece placed, ruled out or open, with the
//! cells each piece covers so that placing one rules out the pieces it overlaps (every
//! cell is covered once). The position the walkthrough's arguments read.

use super::Position;
use super::words::{cell, piece_words};
use crate::model::Model;
use crate::puzzle::{CellJson, Solution};

/// Placing a piece met one already placed on one of its cells, or ruling out a piece
/// met it placed: what is known has no tiling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clash;

/// The budget (a time limit, Ctrl-C) ran out before a rule finished: nothing is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

/// The board as known at one moment.
#[derive(Debug, Clone)]
pub struct Board<'m> {
    /// The model with colour splits: every family's groups, placements in the order of
    /// every other model of the board.
    pub model: &'m Model,
    /// For each placement: placed, ruled out, or open.
    pub known: Vec<Option<bool>>,
    /// For each placement, the indices in `model.covers` of its two cells.
    cells_of: Vec<[u32; 2]>,
}

impl<'m> Board<'m> {
    /// What is known from `known` (over `model`'s placements: placed, ruled out or
    /// open), taken as it is.
    pub fn from_known(model: &'m Model, known: Vec<Option<bool>>) -> Board<'m> {
        Board {
            known,
            ..Board::new(model)
        }
    }

    /// The board a search's node stands for (`active` its candidates, `trail` with
    /// `p << 1 | 1` for a commit): a candidate open, a committed placement placed, every
    /// other ruled out. What the search's debug twins read the catalogue's arguments on.
    pub fn of_node(model: &'m Model, active: &[bool], trail: &[u32]) -> Board<'m> {
        let mut known: Vec<Option<bool>> = active
            .iter()
            .map(|&live| (!live).then_some(false))
            .collect();
        for &op in trail {
            if op & 1 == 1 {
                known[(op >> 1) as usize] = Some(true);
            }
        }
        Board::from_known(model, known)
    }

    /// Nothing known yet.
    pub fn new(model: &'m Model) -> Board<'m> {
        let mut cells_of = vec![[u32::MAX; 2]; model.placements.len()];
        for (k, cover) in model.covers.iter().enumerate() {
            for &p in &cover.placements {
                let slot = &mut cells_of[p as usize];
                let i = usize::from(slot[0] != u32::MAX);
                slot[i] = k as u32;
            }
        }
        Board {
            model,
            known: vec![None; model.placements.len()],
            cells_of,
        }
    }

    /// Places `p`, ruling out every piece sharing a cell with it.
    pub fn place(&mut self, p: u32) -> Result<(), Clash> {
        match self.known[p as usize] {
            Some(true) => return Ok(()),
            Some(false) => return Err(Clash),
            None => {}
        }
        for k in self.cells_of[p as usize] {
            for &q in &self.model.covers[k as usize].placements {
                if q != p {
                    if self.known[q as usize] == Some(true) {
                        return Err(Clash);
                    }
                    self.known[q as usize] = Some(false);
                }
            }
        }
        self.known[p as usize] = Some(true);
        Ok(())
    }

    /// Rules out `p`.
    pub fn rule_out(&mut self, p: u32) -> Result<(), Clash> {
        if self.known[p as usize] == Some(true) {
            return Err(Clash);
        }
        self.known[p as usize] = Some(false);
        Ok(())
    }

    /// Whether `p` is still open.
    pub fn open(&self, p: u32) -> bool {
        self.known[p as usize].is_none()
    }

    /// The cover indices of `p`'s two cells.
    pub fn cells(&self, p: u32) -> [u32; 2] {
        self.cells_of[p as usize]
    }

    /// Whether cover `k`'s cell has a piece placed on it.
    pub fn covered(&self, k: u32) -> bool {
        self.model.covers[k as usize]
            .placements
            .iter()
            .any(|&p| self.known[p as usize] == Some(true))
    }

    /// The open pieces on cover `k`'s cell.
    pub fn open_at(&self, k: u32) -> impl Iterator<Item = u32> + '_ {
        (self.model.covers[k as usize].placements.iter().copied()).filter(|&p| self.open(p))
    }

    /// The pieces placed, as a tiling (partial until every cell is covered).
    pub fn placed(&self) -> Solution {
        self.model.decode(&self.with(Some(true)))
    }

    /// The placements with this value.
    pub fn with(&self, value: Option<bool>) -> Vec<u32> {
        (0..self.known.len() as u32)
            .filter(|&p| self.known[p as usize] == value)
            .collect()
    }

    /// A cover's cell, one-based.
    pub fn cell(&self, k: u32) -> CellJson {
        cell(self, k)
    }

    /// `p`'s two cells, one-based.
    pub fn piece_cells(&self, p: u32) -> [CellJson; 2] {
        self.cells_of[p as usize].map(|k| self.cell(k))
    }

    /// The piece `p` in words: "the vertical piece on (3,4)–(4,4)".
    pub fn piece(&self, p: u32) -> String {
        piece_words(&self.model.placements[p as usize])
    }
}

impl Position for Board<'_> {
    fn model(&self) -> &Model {
        self.model
    }

    fn cells(&self, p: u32) -> [u32; 2] {
        self.cells_of[p as usize]
    }

    fn open(&self, p: u32) -> bool {
        Board::open(self, p)
    }

    fn covered(&self, k: u32) -> bool {
        Board::covered(self, k)
    }

    fn residual(&self, g: u32) -> i32 {
        let group = &self.model.quotas[g as usize];
        let placed = (self.model.members(group).iter())
            .filter(|&&p| self.known[p as usize] == Some(true))
            .count();
        group.quota as i32 - placed as i32
    }

    fn open_members(&self, g: u32) -> u32 {
        let group = &self.model.quotas[g as usize];
        (self.model.members(group).iter())
            .filter(|&&p| self.open(p))
            .count() as u32
    }
}
