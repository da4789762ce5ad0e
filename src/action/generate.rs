//! `generate`: boards of a kind, reproducible from `(seed, index)`, within what a
//! workload may hold.

use crate::design::{self, Certified, DesignError, DesignOptions};
use crate::puzzle::Instance;
use crate::puzzle::generate::{Tiling, planted_by};
use crate::puzzle::parse::MAX_WORKLOAD_CELLS;

/// The seed `generate` uses when none is given.
pub const DEFAULT_SEED: u64 = 20260912;

/// What kind of board to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardKind {
    /// A random tiling with holes, and its clues (satisfiable by construction).
    Planted,
    /// A random tiling of the whole board, no holes.
    Open,
    /// Holes placed until exactly one tiling is left, certified by an exhaustive run.
    Unique,
    /// An adversarial board with no tiling that clue inversion lets through, refuted by
    /// an independent prover.
    Unsat,
}

impl BoardKind {
    /// Every kind, in the order messages list them.
    pub const ALL: [BoardKind; 4] = [
        BoardKind::Planted,
        BoardKind::Open,
        BoardKind::Unique,
        BoardKind::Unsat,
    ];

    /// Its name: `planted`, `open`, `unique`, `unsat`.
    pub fn name(self) -> &'static str {
        match self {
            BoardKind::Planted => "planted",
            BoardKind::Open => "open",
            BoardKind::Unique => "unique",
            BoardKind::Unsat => "unsat",
        }
    }
}

dominofit_core::from_str_by_name!(BoardKind, UnknownBoardKind, "kind of board");

/// A request for `count` boards.
#[derive(Debug, Clone)]
pub struct GenerateRequest {
    /// Rows of every board.
    pub rows: usize,
    /// Columns of every board.
    pub cols: usize,
    /// How many boards: indices `0..count`.
    pub count: u64,
    /// The seed of the stream.
    pub seed: u64,
    /// What kind of board.
    pub kind: BoardKind,
    /// How `unique` and `unsat` boards are made and certified.
    pub design: DesignOptions,
    /// How the random tiling of a planted or open board is made.
    pub tiling: Tiling,
    /// `unique` boards at exactly this level of the deduction ladder (1 to 4 for its
    /// rungs, 5 for search): each board is the first candidate that `grade` puts there
    /// (solved at that level and not below, Tatham's rule).
    pub level: Option<u32>,
}

/// Why no board (or not this one) could be made.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The boards would not fit in one workload: `solve` would refuse to read them.
    #[error(
        "{count} boards of {rows}x{cols} add up to more than the {MAX_WORKLOAD_CELLS} cells a \
         workload may hold; generate fewer boards per file"
    )]
    TooMany {
        /// Boards asked for.
        count: u64,
        /// Their rows.
        rows: usize,
        /// Their columns.
        cols: usize,
    },
    /// The paper's tiling asked for a kind of board it does not make.
    #[error(
        "the backtracking tiling (the paper's protocol) makes planted, open and unique boards; \
         unsat boards start from the flip chain's"
    )]
    TilingKind,
    /// A ranking pool or node cap of zero.
    #[error("pool and node_cap are at least 1")]
    NoPool,
    /// A level was asked of boards that are not `unique`, or is not 1 to 5.
    #[error("a level (1 to 5: singles, colours, pairs, trial, search) is for unique boards")]
    Level,
    /// No candidate within the attempts graded at the level asked for.
    #[error(
        "no unique {rows}x{cols} board at level {level} in {attempts} candidates \
         (seed {seed}, board {index}); try another level, size or seed"
    )]
    NoneAtLevel {
        /// The level asked for.
        level: u32,
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// The seed.
        seed: u64,
        /// The board's one-based number.
        index: u64,
        /// Candidates tried.
        attempts: u32,
    },
    /// Grading a candidate failed.
    #[error(transparent)]
    Grade(#[from] design::GradeError),
    /// The board could not be made (bad sizes), or its certifying run failed.
    #[error(transparent)]
    Design(#[from] DesignError),
}

/// One board, and its certificate when its kind has one.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The board.
    pub instance: Instance,
    /// For `unique` and `unsat` boards: what the exhaustive run proved.
    pub certified: Option<Certified>,
    /// For boards at a level: the unique candidates graded at another level first.
    pub rejected: u64,
}

impl GenerateRequest {
    /// The request, refused before any board is made when the boards would not fit in a
    /// workload or the design options are empty.
    ///
    /// # Errors
    /// [`GenerateError::TooMany`], [`GenerateError::NoPool`].
    pub fn checked(self) -> Result<GenerateRequest, GenerateError> {
        // What `solve` would refuse to read, `generate` refuses to write: before any
        // board is made, so that every bad size is the same usage error.
        crate::puzzle::generate::check_size(self.rows, self.cols)
            .map_err(|e| GenerateError::Design(DesignError::Generate(e)))?;
        let cells = (self.rows as u128) * (self.cols as u128) * u128::from(self.count);
        if cells > MAX_WORKLOAD_CELLS as u128 {
            return Err(GenerateError::TooMany {
                count: self.count,
                rows: self.rows,
                cols: self.cols,
            });
        }
        if self.tiling != Tiling::Flips && self.kind == BoardKind::Unsat {
            return Err(GenerateError::TilingKind);
        }
        if self.design.pool == 0 || self.design.node_cap == 0 {
            return Err(GenerateError::NoPool);
        }
        if let Some(level) = self.level
            && (self.kind != BoardKind::Unique || !(1..=5).contains(&level))
        {
            return Err(GenerateError::Level);
        }
        Ok(self)
    }

    /// Board `index` of the stream: the same board for the same request and index.
    ///
    /// # Errors
    /// Bad sizes, or a failed certifying run.
    pub fn board(&self, index: u64) -> Result<Generated, GenerateError> {
        self.board_watched(index, &mut |_| {})
    }

    /// [`GenerateRequest::board`], telling `watch` each step of a certified board's
    /// making as it starts.
    ///
    /// # Errors
    /// As [`GenerateRequest::board`].
    pub fn board_watched(
        &self,
        index: u64,
        watch: &mut dyn FnMut(design::Step),
    ) -> Result<Generated, GenerateError> {
        let (rows, cols, seed) = (self.rows, self.cols, self.seed);
        let options = &self.design;
        if let Some(level) = self.level {
            return self.board_at_level(index, level, watch);
        }
        let certified = match self.kind {
            BoardKind::Unique => Some(design::unique_watched(
                rows,
                cols,
                seed,
                index,
                self.tiling,
                options,
                watch,
            )?),
            BoardKind::Unsat => Some(design::unsat_watched(
                rows, cols, seed, index, options, watch,
            )?),
            BoardKind::Planted | BoardKind::Open => None,
        };
        let instance = match (&certified, self.kind) {
            (Some(c), _) => c.instance.clone(),
            (None, kind) => {
                let holes = kind != BoardKind::Open;
                planted_by(rows, cols, seed, index, holes, self.tiling)
                    .map_err(DesignError::from)?
                    .0
            }
        };
        Ok(Generated {
            instance,
            certified,
            rejected: 0,
        })
    }

    /// Board `index` at `level` ([`design::unique_at_level`]).
    fn board_at_level(
        &self,
        index: u64,
        level: u32,
        watch: &mut dyn FnMut(design::Step),
    ) -> Result<Generated, GenerateError> {
        let (rows, cols, seed) = (self.rows, self.cols, self.seed);
        let options = &self.design;
        match design::unique_at_level(
            (rows, cols),
            seed,
            index,
            level,
            self.tiling,
            options,
            watch,
        ) {
            Ok(Some((certified, rejected))) => Ok(Generated {
                instance: certified.instance.clone(),
                certified: Some(certified),
                rejected,
            }),
            Ok(None) => Err(GenerateError::NoneAtLevel {
                level,
                rows,
                cols,
                seed,
                index: index + 1,
                attempts: options.attempts,
            }),
            Err(design::LevelError::Design(e)) => Err(e.into()),
            Err(design::LevelError::Grade(e)) => Err(e.into()),
        }
    }

    /// Every board, made lazily, in index order.
    pub fn boards(&self) -> impl Iterator<Item = Result<Generated, GenerateError>> + '_ {
        (0..self.count).map(|index| self.board(index))
    }
}
