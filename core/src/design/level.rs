//! A unique board at a level of the deduction ladder: unique candidates made in turn,
//! each graded, the first at exactly the level kept (Tatham's way: a puzzle is kept only
//! if the solver at its level solves it and the level below does not). The command
//! line's `generate --unique --level` and a page's call are this one loop.

use crate::puzzle::generate::Tiling;

use super::{Certified, DesignError, DesignOptions, GradeError, Step, grade, unique_watched};

/// The candidates of one leveled board come from planted boards `index × STRIDE + k`:
/// disjoint for every index, the same for the same request.
const LEVEL_STRIDE: u64 = 1 << 24;

/// Why a leveled board could not be looked for to the end.
#[derive(Debug, thiserror::Error)]
pub enum LevelError {
    /// A candidate could not be made or certified.
    #[error(transparent)]
    Design(#[from] DesignError),
    /// Grading a candidate failed.
    #[error(transparent)]
    Grade(#[from] GradeError),
}

/// Board `index` at `level` (1 to 5), named after its level
/// (`pairs-8x8-s5-1`), with the candidates graded at another level first; `None` when
/// none of `options.attempts` candidates is at `level`. Candidates are planted by
/// `planting`.
///
/// # Errors
/// A candidate could not be made, certified or graded.
pub fn unique_at_level(
    (rows, cols): (usize, usize),
    seed: u64,
    index: u64,
    level: u32,
    planting: Tiling,
    options: &DesignOptions,
    watch: &mut dyn FnMut(Step),
) -> Result<Option<(Certified, u64)>, LevelError> {
    for k in 0..u64::from(options.attempts) {
        let candidate = index.saturating_mul(LEVEL_STRIDE).saturating_add(k);
        let mut certified = unique_watched(rows, cols, seed, candidate, planting, options, watch)?;
        let graded = grade(&certified.instance, Some(options.timeout))?;
        if graded.level_number == Some(level) {
            let name = graded.level.as_deref().unwrap_or("level");
            certified.instance.name = format!("{name}-{rows}x{cols}-s{seed}-{}", index + 1);
            return Ok(Some((certified, k)));
        }
    }
    Ok(None)
}
