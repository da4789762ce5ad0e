//! The intermediate model every backend lowers from: placements, an exact cover, and
//! cardinality quotas (or the raw weighted clue sums).
//!
//! Placements are numbered row-major by start cell, the vertical piece before the
//! horizontal one at the same cell. That order is the variable order of every
//! emitted file, so it must never depend on anything but the board.

pub mod inversion;

use std::fmt::Write as _;

use serde::Serialize;

use crate::puzzle::{Instance, Orientation, Piece};
pub use inversion::{Infeasibility, Margins, invert};

/// Index of a placement in [`Model::placements`].
pub type PlacementId = u32;

/// Which constraint families a model carries besides the exact cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default, schemars::JsonSchema)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Families {
    /// `u` and `t` only: by Corollary 3.2 they already imply every clue.
    Minimal,
    /// `u`, `p`, `q`, `t`: redundant but stronger for propagation.
    #[default]
    All,
    /// All four plus the checkerboard colour splits of `u` and `t` (Eq. 10).
    Colour,
    /// No quotas: the raw clue sums `Σ v + 2 Σ h = clue`, for comparison with quotas.
    Raw,
}

impl Families {
    /// Every member; a name is parsed by looking it up here.
    pub const ALL: [Families; 4] = [
        Families::Minimal,
        Families::All,
        Families::Colour,
        Families::Raw,
    ];

    /// The name on the command line, in file headers and in model dumps.
    pub fn name(self) -> &'static str {
        match self {
            Families::Minimal => "minimal",
            Families::All => "all",
            Families::Colour => "colour",
            Families::Raw => "raw",
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

/// A quota group as a model dump shows it, with its members.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct QuotaView<'a> {
    /// The family: `u`, `p`, `q`, `t` or a colour split.
    pub family: Family,
    /// One-based row or column of the line or cut.
    #[schemars(range(min = 1))]
    pub index: usize,
    /// Exactly this many members are placed.
    pub quota: u32,
    /// The members, placement numbers.
    pub placements: &'a [PlacementId],
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

/// A placement as written in a model dump: kind and one-based start cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PlacementView {
    /// `V` or `H`, from [`Orientation::letter`].
    #[schemars(regex(pattern = "^[VH]$"))]
    pub kind: char,
    /// One-based row of the start cell: the top cell of a vertical piece, the left cell of
    /// a horizontal one.
    #[schemars(range(min = 1))]
    pub row: usize,
    /// One-based column of the start cell.
    #[schemars(range(min = 1))]
    pub col: usize,
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
    /// The quota groups of the chosen families; empty under [`Families::Raw`] and on an
    /// infeasible board. A line or cut with no member and a zero quota is left out.
    pub quotas: Vec<QuotaGroup>,
    /// Members of all quota groups, group after group.
    quota_members: Vec<PlacementId>,
    /// The raw clue sums, every row then every column; only under [`Families::Raw`].
    pub clue_sums: Vec<ClueSum>,
    /// Set when clue inversion already proves there is no solution; quotas are then empty.
    pub infeasible: Option<Infeasibility>,
}

/// Compiles an instance into the model with the chosen constraint families.
pub fn compile(instance: &Instance, families: Families) -> Model {
    let (m, n) = (instance.rows, instance.cols);
    let mut placements = Vec::with_capacity(2 * m * n);
    // The placement starting at a cell, per orientation: covers and groups are read
    // off this table.
    let mut id_at: Vec<PlacementId> = vec![NO_PLACEMENT; 2 * m * n];
    for r in 0..m {
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
    if families == Families::Raw {
        model.clue_sums = raw_clue_sums(instance, &model.placements);
        return model;
    }
    match invert(instance) {
        Ok(margins) => {
            (model.quotas, model.quota_members) = quota_groups(instance, &id_at, &margins, families)
        }
        Err(reason) => model.infeasible = Some(reason),
    }
    model
}

const NO_PLACEMENT: PlacementId = PlacementId::MAX;

fn quota_groups(
    instance: &Instance,
    id_at: &[PlacementId],
    margins: &Margins,
    families: Families,
) -> (Vec<QuotaGroup>, Vec<PlacementId>) {
    let (m, n) = (instance.rows, instance.cols);
    let mut wanted: Vec<(Family, &[u32])> = vec![(Family::U, &margins.u)];
    if families != Families::Minimal {
        wanted.push((Family::P, &margins.p));
        wanted.push((Family::Q, &margins.q));
    }
    wanted.push((Family::T, &margins.t));
    if families == Families::Colour {
        wanted.push((Family::UEven, &margins.u_even));
        wanted.push((Family::UOdd, &margins.u_odd));
        wanted.push((Family::TEven, &margins.t_even));
        wanted.push((Family::TOdd, &margins.t_odd));
    }
    let mut groups = Vec::new();
    let mut members: Vec<PlacementId> = Vec::new();
    for (family, quotas) in wanted {
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
    (groups, members)
}

fn raw_clue_sums(instance: &Instance, placements: &[Piece]) -> Vec<ClueSum> {
    let mut rows: Vec<ClueSum> = (0..instance.rows)
        .map(|i| ClueSum {
            line: Line::Row,
            index: i + 1,
            target: instance.row_clues[i],
            terms: Vec::new(),
        })
        .collect();
    let mut cols: Vec<ClueSum> = (0..instance.cols)
        .map(|j| ClueSum {
            line: Line::Col,
            index: j + 1,
            target: instance.col_clues[j],
            terms: Vec::new(),
        })
        .collect();
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

impl Model {
    /// The placements of a quota group, in coordinate order along it.
    pub fn members(&self, group: &QuotaGroup) -> &[PlacementId] {
        &self.quota_members[group.start as usize..group.end as usize]
    }

    /// The placements as a dump shows them.
    pub fn placement_view(&self, id: PlacementId) -> PlacementView {
        let p = self.placements[id as usize];
        PlacementView {
            kind: p.orientation.letter(),
            row: p.row + 1,
            col: p.col + 1,
        }
    }

    /// A readable, deterministic JSON dump: one line per placement, cover and quota,
    /// so that a diff of two dumps shows which constraint changed.
    pub fn to_json_dump(&self) -> String {
        let dump = self.dump();
        let mut out = String::new();
        let _ = writeln!(out, "{{");
        let _ = writeln!(out, "  \"name\": {},", one_line(&dump.name));
        let _ = writeln!(out, "  \"rows\": {},", dump.rows);
        let _ = writeln!(out, "  \"cols\": {},", dump.cols);
        let _ = writeln!(out, "  \"families\": {},", one_line(&dump.families));
        let _ = writeln!(out, "  \"infeasible\": {},", one_line(&dump.infeasible));
        write_list(
            &mut out,
            "placements",
            dump.placements.iter().map(one_line),
            false,
        );
        write_list(&mut out, "covers", dump.covers.iter().map(one_line), false);
        write_list(&mut out, "quotas", dump.quotas.iter().map(one_line), false);
        write_list(
            &mut out,
            "clue_sums",
            dump.clue_sums.iter().map(one_line),
            true,
        );
        let _ = writeln!(out, "}}");
        out
    }

    /// The parts of the dump, which [`Model::to_json_dump`] writes one per line.
    pub fn dump(&self) -> ModelDump<'_> {
        ModelDump {
            name: &self.name,
            rows: self.rows,
            cols: self.cols,
            families: self.families,
            infeasible: self.infeasible.as_ref().map(|r| r.to_string()),
            placements: (0..self.placements.len() as PlacementId)
                .map(|id| self.placement_view(id))
                .collect(),
            covers: &self.covers,
            quotas: self
                .quotas
                .iter()
                .map(|g| QuotaView {
                    family: g.family,
                    index: g.index,
                    quota: g.quota,
                    placements: self.members(g),
                })
                .collect(),
            clue_sums: &self.clue_sums,
        }
    }
}

/// `emit --to model-json`: the compiled model as data.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ModelDump<'a> {
    /// The board's name.
    pub name: &'a str,
    /// Board height.
    pub rows: usize,
    /// Board width.
    pub cols: usize,
    /// The constraint families compiled besides the exact cover.
    pub families: Families,
    /// Why clue inversion proved the board infeasible, or null.
    pub infeasible: Option<String>,
    /// Placement `K` (zero-based position in this list) is the piece at this start cell.
    pub placements: Vec<PlacementView>,
    /// One exactly-one constraint per open cell, row-major.
    pub covers: &'a [Cover],
    /// The quota groups: exactly `quota` of `placements` are placed.
    pub quotas: Vec<QuotaView<'a>>,
    /// The raw clue sums (under `--families raw`).
    pub clue_sums: &'a [ClueSum],
}

fn write_list(out: &mut String, key: &str, items: impl Iterator<Item = String>, last: bool) {
    let items: Vec<String> = items.collect();
    let comma = if last { "" } else { "," };
    if items.is_empty() {
        let _ = writeln!(out, "  \"{key}\": []{comma}");
        return;
    }
    let _ = writeln!(out, "  \"{key}\": [");
    for (k, item) in items.iter().enumerate() {
        let sep = if k + 1 < items.len() { "," } else { "" };
        let _ = writeln!(out, "    {item}{sep}");
    }
    let _ = writeln!(out, "  ]{comma}");
}

/// One-line JSON for any serializable model part.
fn one_line<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("model parts always serialize")
}
