//! The puzzle as a player sees it: a board with blocked cells, dot clues, and tilings.
//!
//! Everything here speaks the raw game rules only. The compiled model lives in
//! [`crate::model`]; the verifier in [`verify`] deliberately never looks at it, so
//! that a mistake in clue inversion cannot hide a wrong answer.

pub mod backtrack;
pub mod draw;
pub mod generate;
pub mod parse;
pub mod perfect_matching;
mod strict_json;
pub mod svg;
pub mod verify;

use serde::Serialize;

/// Largest number of rows or columns accepted from a file.
pub const MAX_SIDE: usize = 4096;
/// Largest board area accepted from a file; beyond it the models would not fit in memory.
pub const MAX_CELLS: usize = 1 << 22;

/// The two pieces. They are never rotated: a vertical piece carries one dot on its top
/// cell, a horizontal piece two dots on its right cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Orientation {
    /// Covers `(r, c)` and `(r + 1, c)`; one dot on `(r, c)`.
    Vertical,
    /// Covers `(r, c)` and `(r, c + 1)`; two dots on `(r, c + 1)`.
    Horizontal,
}

impl Orientation {
    /// The single letter used in DIMACS comments and model dumps.
    pub fn letter(self) -> char {
        match self {
            Orientation::Vertical => 'V',
            Orientation::Horizontal => 'H',
        }
    }
}

/// A piece on the board, identified by its start cell (zero-based internally).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// Row of the start cell: the top cell of a vertical piece, the left cell of a
    /// horizontal one.
    pub row: usize,
    /// Column of the start cell.
    pub col: usize,
    /// Which of the two pieces: this fixes the other cell and where the dots are.
    pub orientation: Orientation,
}

impl Piece {
    /// The second cell the piece covers.
    pub fn other_cell(&self) -> (usize, usize) {
        match self.orientation {
            Orientation::Vertical => (self.row + 1, self.col),
            Orientation::Horizontal => (self.row, self.col + 1),
        }
    }

    /// Dots the piece puts on `(start, other)` cells respectively.
    pub fn dots(&self) -> (u64, u64) {
        match self.orientation {
            Orientation::Vertical => (1, 0),
            Orientation::Horizontal => (0, 2),
        }
    }
}

/// A Domino Fit board. Coordinates are zero-based here; files and output are one-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// Names the board in output, in runs.csv and in emitted files; unique within a
    /// workload.
    pub name: String,
    /// Board height, at most [`MAX_SIDE`].
    pub rows: usize,
    /// Board width, at most [`MAX_SIDE`].
    pub cols: usize,
    /// Row-major flags, `true` for a blocked cell.
    pub blocked: Vec<bool>,
    /// Dots each row must carry, top to bottom.
    pub row_clues: Vec<u64>,
    /// Dots each column must carry, left to right.
    pub col_clues: Vec<u64>,
}

/// Why parts do not make a board: the shapes that every other module relies on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InstanceError {
    /// No cell at all, or more than [`MAX_SIDE`] rows or columns or [`MAX_CELLS`] cells.
    #[error(
        "a {rows}x{cols} board is empty or larger than supported (at most {MAX_SIDE} rows or columns and {MAX_CELLS} cells)"
    )]
    Size {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A part has the wrong number of entries for the size of the board.
    #[error("{what} has {got} entries where the board needs {want}")]
    Length {
        /// Which part: `blocked`, `row_clues` or `col_clues`.
        what: &'static str,
        /// Entries given.
        got: usize,
        /// Entries the board needs: one per cell, per row or per column.
        want: usize,
    },
}

impl Instance {
    /// A board from its parts, checked: a size within [`MAX_SIDE`] and [`MAX_CELLS`],
    /// one blocked flag per cell (row-major), one clue per row and per column. Clues are
    /// not checked against each other: an unsatisfiable board is a board.
    ///
    /// # Errors
    /// The first part that does not fit.
    pub fn new(
        name: String,
        (rows, cols): (usize, usize),
        blocked: Vec<bool>,
        row_clues: Vec<u64>,
        col_clues: Vec<u64>,
    ) -> Result<Instance, InstanceError> {
        let cells = rows.checked_mul(cols).filter(|&n| n > 0 && n <= MAX_CELLS);
        if rows > MAX_SIDE || cols > MAX_SIDE || cells.is_none() {
            return Err(InstanceError::Size { rows, cols });
        }
        for (what, got, want) in [
            ("blocked", blocked.len(), rows * cols),
            ("row_clues", row_clues.len(), rows),
            ("col_clues", col_clues.len(), cols),
        ] {
            if got != want {
                return Err(InstanceError::Length { what, got, want });
            }
        }
        Ok(Instance {
            name,
            rows,
            cols,
            blocked,
            row_clues,
            col_clues,
        })
    }

    /// Whether a zero-based cell is on the board and not blocked. False off the board,
    /// so a neighbour can be probed without a bounds check.
    pub fn is_open(&self, row: usize, col: usize) -> bool {
        row < self.rows && col < self.cols && !self.blocked[row * self.cols + col]
    }

    /// Number of open cells, `N` in the paper.
    pub fn open_cells(&self) -> usize {
        self.blocked.iter().filter(|b| !**b).count()
    }

    /// Blocked cells in row-major order, zero-based.
    pub fn blocked_cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let cols = self.cols;
        self.blocked
            .iter()
            .enumerate()
            .filter(|(_, b)| **b)
            .map(move |(k, _)| (k / cols, k % cols))
    }

    /// The instance in the FORMAT.md JSON shape, on one line (for workloads).
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.json()).expect("plain data always serializes")
    }

    /// The board in the shape of the instance format, for any serde serializer (the
    /// Python package makes dicts of it directly).
    pub fn json(&self) -> InstanceJson<'_> {
        InstanceJson {
            name: &self.name,
            rows: self.rows,
            cols: self.cols,
            blocked: self.blocked_cells().map(CellJson::one_based).collect(),
            row_clues: &self.row_clues,
            col_clues: &self.col_clues,
        }
    }
}

/// An instance as dominofit writes it (FORMAT.md; in files people write, `name` may be
/// left out).
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct InstanceJson<'a> {
    /// The board's name.
    pub name: &'a str,
    /// Board height.
    #[schemars(range(min = 1))]
    pub rows: usize,
    /// Board width.
    #[schemars(range(min = 1))]
    pub cols: usize,
    /// Blocked cells as one-based `[row, col]` pairs, row-major.
    #[schemars(schema_with = "one_based_cells")]
    pub blocked: Vec<CellJson>,
    /// The dots each row must carry, top to bottom.
    pub row_clues: &'a [u64],
    /// The dots each column must carry, left to right.
    pub col_clues: &'a [u64],
}

/// A one-based `[row, col]` cell as the formats write it. Serialized as a sequence, not
/// a tuple: the same JSON array, and a list (not a tuple) where serde makes Python
/// values, as JSON loads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellJson(pub [usize; 2]);

impl CellJson {
    /// The zero-based cell `(row, col)`, written one-based.
    pub fn one_based((row, col): (usize, usize)) -> CellJson {
        CellJson([row + 1, col + 1])
    }
}

impl Serialize for CellJson {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0)
    }
}

/// The schema of a list of one-based `[row, col]` cells.
pub fn one_based_cells(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "array",
        "items": {
            "type": "array",
            "items": { "type": "integer", "minimum": 1 },
            "minItems": 2,
            "maxItems": 2
        }
    })
}

/// A tiling as FORMAT.md writes it: one-based start cells, sorted row-major.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SolutionJson {
    /// Top cells of vertical pieces (one dot on top, blank below).
    #[schemars(schema_with = "one_based_cells")]
    pub vertical: Vec<CellJson>,
    /// Left cells of horizontal pieces (blank on the left, two dots on the right).
    #[schemars(schema_with = "one_based_cells")]
    pub horizontal: Vec<CellJson>,
}

/// A set of placed pieces, kept sorted row-major so equal tilings compare equal.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Solution {
    /// Top cells of vertical pieces, zero-based, sorted.
    pub vertical: Vec<(usize, usize)>,
    /// Left cells of horizontal pieces, zero-based, sorted.
    pub horizontal: Vec<(usize, usize)>,
}

impl Solution {
    /// The tiling made of these pieces, sorted into canonical order.
    pub fn from_pieces(pieces: impl IntoIterator<Item = Piece>) -> Self {
        let mut s = Solution::default();
        for p in pieces {
            match p.orientation {
                Orientation::Vertical => s.vertical.push((p.row, p.col)),
                Orientation::Horizontal => s.horizontal.push((p.row, p.col)),
            }
        }
        s.vertical.sort_unstable();
        s.horizontal.sort_unstable();
        s
    }

    /// The pieces, vertical ones first, each kind in row-major order.
    pub fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        let v = self.vertical.iter().map(|&(row, col)| Piece {
            row,
            col,
            orientation: Orientation::Vertical,
        });
        let h = self.horizontal.iter().map(|&(row, col)| Piece {
            row,
            col,
            orientation: Orientation::Horizontal,
        });
        v.chain(h)
    }

    /// Whether the tiling places this piece.
    pub fn contains(&self, piece: &Piece) -> bool {
        let cells = match piece.orientation {
            Orientation::Vertical => &self.vertical,
            Orientation::Horizontal => &self.horizontal,
        };
        cells.binary_search(&(piece.row, piece.col)).is_ok()
    }
}

/// Serializes as the FORMAT.md solution object, with one-based coordinates.
impl Serialize for Solution {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let one_based = |v: &[(usize, usize)]| v.iter().copied().map(CellJson::one_based).collect();
        SolutionJson {
            vertical: one_based(&self.vertical),
            horizontal: one_based(&self.horizontal),
        }
        .serialize(serializer)
    }
}

/// The schema of a serialized tiling.
impl schemars::JsonSchema for Solution {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Solution".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        SolutionJson::json_schema(generator)
    }
}
