//! The quick reader: a board in exactly the expected shape, read without a JSON tree.
//!
//! Most boards a program is given are well formed, and for a game-size board building
//! and walking a `serde_json::Value` costs more than solving it. This reader takes a
//! board's parts by their types (JSON text through serde, or a Python dict through the
//! package) and makes every value check the validating reader (`parse::fields`)
//! makes. It accepts a subset of what that reader accepts and gives the same board; for
//! anything else, valid or not, it gives `None`, and the validating reader reads the
//! board again and words what is wrong. The tests hold the two to the same answers.

use serde::Deserialize;

use crate::puzzle::{Instance, MAX_CELLS, MAX_SIDE, Solution};

/// A board's parts, as the instance format names them; cells one-based.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parts {
    /// The board's name; one given as `null` is not read here: the validating reader
    /// refuses it.
    #[serde(default, deserialize_with = "present_string")]
    pub name: Option<String>,
    /// Board height.
    pub rows: u64,
    /// Board width.
    pub cols: u64,
    /// Blocked cells, one-based `[row, col]`.
    pub blocked: Vec<[u64; 2]>,
    /// Dots each row must carry.
    pub row_clues: Vec<u64>,
    /// Dots each column must carry.
    pub col_clues: Vec<u64>,
}

impl Parts {
    /// The board, named `default_name` unless it names itself; `None` where the
    /// validating reader would refuse it (or must be the one to decide).
    pub fn board(self, default_name: &str) -> Option<Instance> {
        let rows = usize::try_from(self.rows).ok()?;
        let cols = usize::try_from(self.cols).ok()?;
        let sides = 1..=MAX_SIDE;
        if !sides.contains(&rows) || !sides.contains(&cols) || rows * cols > MAX_CELLS {
            return None;
        }
        let mut blocked = vec![false; rows * cols];
        for [row, col] in self.blocked {
            let (r, c) = (row.checked_sub(1)?, col.checked_sub(1)?);
            if r >= rows as u64 || c >= cols as u64 {
                return None;
            }
            let cell = &mut blocked[r as usize * cols + c as usize];
            if *cell {
                return None;
            }
            *cell = true;
        }
        if self.row_clues.len() != rows || self.col_clues.len() != cols {
            return None;
        }
        let name = self.name.unwrap_or_else(|| default_name.to_string());
        Instance::new(name, (rows, cols), blocked, self.row_clues, self.col_clues).ok()
    }
}

fn present_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    String::deserialize(d).map(Some)
}

/// The board of one JSON document, when it is in exactly the expected shape.
pub fn board_from_text(text: &str, default_name: &str) -> Option<Instance> {
    serde_json::from_str::<Parts>(text)
        .ok()?
        .board(default_name)
}

/// A tiling's parts, as the solution format names them; cells one-based.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TilingParts {
    /// Top cells of vertical pieces.
    pub vertical: Vec<[u64; 2]>,
    /// Left cells of horizontal pieces.
    pub horizontal: Vec<[u64; 2]>,
}

impl TilingParts {
    /// The tiling, cells zero-based and sorted (duplicates kept, for the verifier to
    /// report); `None` where the validating reader would refuse it.
    pub fn tiling(self) -> Option<Solution> {
        let zero_based = |cells: Vec<[u64; 2]>| -> Option<Vec<(usize, usize)>> {
            let in_range = |v: u64| {
                let v = usize::try_from(v.checked_sub(1)?).ok()?;
                (v < MAX_SIDE).then_some(v)
            };
            let mut out = (cells.into_iter())
                .map(|[r, c]| Some((in_range(r)?, in_range(c)?)))
                .collect::<Option<Vec<_>>>()?;
            out.sort_unstable();
            Some(out)
        };
        Some(Solution {
            vertical: zero_based(self.vertical)?,
            horizontal: zero_based(self.horizontal)?,
        })
    }
}

/// The tiling of one JSON document, when it is in exactly the expected shape.
pub fn tiling_from_text(text: &str) -> Option<Solution> {
    serde_json::from_str::<TilingParts>(text).ok()?.tiling()
}
