//! `emit --to model-json`: the compiled model as data, one line per placement, cover
//! and quota group, so that a diff of two dumps shows which constraint changed.

use std::fmt::Write as _;

use serde::Serialize;

#[cfg(doc)]
use crate::puzzle::Orientation;

use super::{ClueSum, Cover, Families, Family, Model, PlacementId};

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

impl Model {
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
