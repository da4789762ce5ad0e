//! The intermediate model every backend lowers from: placements, an exact cover, and
//! cardinality quotas (or the raw weighted clue sums).
//!
//! Placements are numbered row-major by start cell, the vertical piece before the
//! horizontal one at the same cell. That order is the variable order of every
//! emitted file, so it must never depend on anything but the board.

mod compile;
mod dump;
pub mod footprint;
mod infeasibility;
pub mod inversion;

use serde::Serialize;

use crate::puzzle::{Instance, Piece};
pub use compile::{compile, compile_until};
pub use dump::{ModelDump, PlacementView, QuotaView};
pub use infeasibility::Infeasibility;
pub use inversion::{Quotas, invert};

/// Index of a placement in [`Model::placements`].
pub type PlacementId = u32;

/// Which constraint families a model carries besides the exact cover.
// The variants say what they hold; the command line, file headers and dumps name them
// by `Families::name` (`minimal`, `all`, `colour`, `raw`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Families {
    /// `u` and `t` only: by Corollary 3.2 they already imply every clue.
    #[serde(rename = "minimal")]
    #[cfg_attr(feature = "cli", value(name = "minimal"))]
    CutQuotas,
    /// `u`, `p`, `q`, `t`: redundant but stronger for propagation.
    #[default]
    #[serde(rename = "all")]
    #[cfg_attr(feature = "cli", value(name = "all"))]
    AllQuotas,
    /// All four plus the checkerboard colour splits of `u` and `t` (Eq. 10).
    #[serde(rename = "colour")]
    #[cfg_attr(feature = "cli", value(name = "colour"))]
    ColourSplits,
    /// No quotas: the raw clue sums `Σ v + 2 Σ h = clue`, for comparison with quotas.
    #[serde(rename = "raw")]
    #[cfg_attr(feature = "cli", value(name = "raw"))]
    RawSums,
}

impl Families {
    /// Every member; a name is parsed by looking it up here.
    pub const ALL: [Families; 4] = [
        Families::CutQuotas,
        Families::AllQuotas,
        Families::ColourSplits,
        Families::RawSums,
    ];

    /// The name on the command line, in file headers and in model dumps.
    pub fn name(self) -> &'static str {
        match self {
            Families::CutQuotas => "minimal",
            Families::AllQuotas => "all",
            Families::ColourSplits => "colour",
            Families::RawSums => "raw",
        }
    }
}

from_str_by_name!(Families, UnknownFamilies, "constraint families");

/// The family a quota group belongs to; the index in [`QuotaGroup`] says which line or cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
pub enum Family {
    /// Vertical pieces crossing below row `index`.
    #[serde(rename = "u")]
    U,
    /// Horizontal pieces in row `index`.
    #[serde(rename = "p")]
    P,
    /// Vertical pieces in column `index`.
    #[serde(rename = "q")]
    Q,
    /// Horizontal pieces crossing right of column `index`.
    #[serde(rename = "t")]
    T,
    /// The part of `u` whose top cells have even `row + col`.
    #[serde(rename = "u_even")]
    UEven,
    /// The part of `u` whose top cells have odd `row + col`.
    #[serde(rename = "u_odd")]
    UOdd,
    /// The part of `t` whose left cells have even `row + col`.
    #[serde(rename = "t_even")]
    TEven,
    /// The part of `t` whose left cells have odd `row + col`.
    #[serde(rename = "t_odd")]
    TOdd,
}

impl Family {
    /// The name model dumps and lowered files give the family (`u`, `t_even`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Family::U => "u",
            Family::P => "p",
            Family::Q => "q",
            Family::T => "t",
            Family::UEven => "u_even",
            Family::UOdd => "u_odd",
            Family::TEven => "t_even",
            Family::TOdd => "t_odd",
        }
    }

    /// Groups whose members lie along one line, where consecutive members overlap. Only
    /// these have a capacity below their member count.
    pub fn is_path(self) -> bool {
        matches!(self, Family::P | Family::Q)
    }
}

/// The placements covering one cell: at most four, so stored inline.
pub type CoverList = smallvec::SmallVec<[PlacementId; 4]>;

/// `ExactlyOne` over the placements covering one open cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Cover {
    /// One-based.
    #[schemars(range(min = 1))]
    pub row: usize,
    /// One-based column of the cell.
    #[schemars(range(min = 1))]
    pub col: usize,
    /// In increasing order.
    pub placements: CoverList,
}

/// `Exactly(quota)` over a group of placements. The members, in coordinate order along
/// the group, are `Model::members(group)`: all groups share one array, so compiling a
/// board costs a handful of allocations however many groups it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuotaGroup {
    /// Which family: what `index` counts and which placements are members.
    pub family: Family,
    /// One-based row or column of the line or cut.
    pub index: usize,
    /// Exactly this many members are placed in every solution, as clue inversion computed.
    pub quota: u32,
    start: u32,
    end: u32,
}

/// Which line a raw clue sum constrains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Line {
    /// The clue of a row.
    Row,
    /// The clue of a column.
    Col,
}

/// A raw clue: `Σ weight · placement = target`, weights 1 (vertical dot) or 2.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ClueSum {
    /// Whether `index` names a row or a column.
    pub line: Line,
    /// One-based.
    #[schemars(range(min = 1))]
    pub index: usize,
    /// The clue: the dots the line must carry.
    pub target: u64,
    /// `(weight, placement)` for each placement that puts dots on the line: 1 for a
    /// vertical piece whose top cell is on it, 2 for a horizontal piece whose right cell
    /// is on it.
    pub terms: Vec<(u32, PlacementId)>,
}

/// The compiled model. Plain data: backends read it, nothing writes back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Model {
    /// The board it was compiled from: a solver run in a worker process compiles it
    /// again there (compilation is deterministic, so placement ids agree).
    pub instance: Instance,
    /// The board's name, written in file headers and model dumps.
    pub name: String,
    /// Board height in cells.
    pub rows: usize,
    /// Board width in cells.
    pub cols: usize,
    /// The constraint families compiled besides the exact cover.
    pub families: Families,
    /// Every piece that fits on two open cells, indexed by [`PlacementId`] in the order
    /// of the module docs; coordinates zero-based.
    pub placements: Vec<Piece>,
    /// One exact-cover constraint per open cell, in row-major order.
    pub covers: Vec<Cover>,
    /// The quota groups of the chosen families; empty under [`Families::RawSums`] and on an
    /// infeasible board. A line or cut with no member and a zero quota is left out.
    pub quotas: Vec<QuotaGroup>,
    /// Members of all quota groups, group after group.
    quota_members: Vec<PlacementId>,
    /// The raw clue sums, every row then every column; only under [`Families::RawSums`].
    pub clue_sums: Vec<ClueSum>,
    /// Set when clue inversion already proves there is no solution; quotas are then empty.
    pub infeasible: Option<Infeasibility>,
}

impl Model {
    /// The tiling that placement ids stand for.
    pub fn decode(&self, ids: &[PlacementId]) -> crate::puzzle::Solution {
        crate::puzzle::Solution::from_pieces(ids.iter().map(|&id| self.placements[id as usize]))
    }

    /// The placements of a quota group, in coordinate order along it.
    pub fn members(&self, group: &QuotaGroup) -> &[PlacementId] {
        &self.quota_members[group.start as usize..group.end as usize]
    }
}
