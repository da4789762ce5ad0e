//! The `dp` backend: exact counting by the frontier dynamic program (Section 5.1),
//! with witnesses recovered backwards through the sweep.
//!
//! Counting by enumeration stops at a few million solutions; the dynamic program
//! counts in time proportional to its state space, however many tilings there are,
//! so it answers long narrow boards with astronomically many solutions. Its state
//! space grows like `2^width` times the cut budgets, so it is for narrow boards: it
//! sweeps the orientation with the smaller estimate, refuses, with the estimate, a board
//! estimated far beyond the memory limit, and stops any other sweep as soon as its live
//! states pass the limit, instead of being killed.

mod estimate;
pub mod frontier;

use num_bigint::BigUint;
use rustc_hash::FxHashMap;

use crate::backend::{
    Backend, BackendError, Budget, Control, Counters, Ending, ExactCount, Outcome, Sink,
    SolveResult,
};
use crate::model::{Families, Model, PlacementId};
use crate::puzzle::Piece;

pub use estimate::{Estimate, estimate};
use frontier::{CutProblem, Stop, Sweep, sweep, transpose_piece, witnesses};

/// Which way to sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Orientation {
    /// The orientation with the smaller state estimate (rows on a tie).
    #[default]
    Auto,
    /// Row by row, as the board is given.
    Rows,
    /// Column by column: the transposed cut problem.
    Columns,
}

/// Bytes a state costs, counted generously: the hash-map key and count and the
/// table's slack (a kept layer's key costs less, and is counted the same).
pub const BYTES_PER_STATE: u64 = 64;

/// The frontier DP backend.
#[derive(Debug, Clone)]
pub struct Dp {
    /// Which way to sweep; `Auto` takes the one with the smaller state estimate.
    pub orientation: Orientation,
    /// Memory the states may take, in bytes.
    pub memory_limit: u64,
}

impl Default for Dp {
    fn default() -> Self {
        Dp {
            orientation: Orientation::Auto,
            memory_limit: crate::memory::budget(),
        }
    }
}

/// The widest sweep a `u64` mask holds (with a spare bit for the cell past the end).
const MAX_WIDTH: usize = 63;

/// How far above the memory limit a state estimate may be before the board is refused
/// without sweeping: the estimates measured up to 50× above the real peaks.
const ESTIMATE_SLACK: f64 = 64.0;

impl Dp {
    fn refuse(&self, reason: String) -> BackendError {
        BackendError::Unsupported {
            backend: "dp".to_string(),
            reason,
        }
    }

    /// The cut problem of the model, in the orientation to sweep, and whether it is
    /// transposed; `Ok(None)` when the budget ran out while choosing.
    ///
    /// The cheap checks come first: an orientation wider than the sweep's mask is never
    /// estimated (on a 256×256 board the estimates alone took half a minute before the
    /// refusal), and the estimate itself looks at the budget at every row.
    fn problem(
        &self,
        model: &Model,
        budget: &Budget,
    ) -> Result<Option<(CutProblem, bool)>, BackendError> {
        if model.families == Families::RawSums {
            // `backend::run` refuses this first; a caller of `solve` may not have.
            return Err(self.refuse("the frontier DP works on the cut quotas u and t".to_string()));
        }
        let (by_rows_width, by_cols_width) = (model.cols, model.rows);
        let candidates: &[bool] = match self.orientation {
            Orientation::Rows => &[false],
            Orientation::Columns => &[true],
            Orientation::Auto => &[false, true],
        };
        let width = |flipped: bool| {
            if flipped {
                by_cols_width
            } else {
                by_rows_width
            }
        };
        let fitting: Vec<bool> = candidates
            .iter()
            .copied()
            .filter(|&flipped| width(flipped) <= MAX_WIDTH)
            .collect();
        if fitting.is_empty() {
            let narrowest = candidates.iter().map(|&f| width(f)).min().unwrap_or(0);
            return Err(self.refuse(format!(
                "the sweep would be {narrowest} cells wide; the frontier DP takes at most \
                 {MAX_WIDTH} (it is for narrow boards)"
            )));
        }
        let rows = CutProblem::from_model(model);
        let stop = || budget.expired();
        let mut chosen: Option<(CutProblem, bool, Estimate)> = None;
        for flipped in fitting {
            let problem = if flipped {
                rows.transposed()
            } else {
                rows.clone()
            };
            let Some(bound) = estimate(&problem, self.refusal_states(), &stop) else {
                return Ok(None);
            };
            // Rows on a tie: the first candidate is kept unless the next is smaller.
            if chosen
                .as_ref()
                .is_none_or(|(_, _, best)| bound.live_states < best.live_states)
            {
                chosen = Some((problem, flipped, bound));
            }
        }
        let Some((problem, flipped, chosen)) = chosen else {
            return Ok(None);
        };
        // The estimate bounds the states of a layer from above and was measured 5–50×
        // above the real peak: refusing at the memory limit turned away boards that fit.
        // Only a board estimated far beyond it is refused before the sweep; the others
        // run, and the sweep stops as soon as its live states pass the limit.
        let bytes = chosen.live_states * BYTES_PER_STATE as f64;
        if chosen.live_states > self.refusal_states() {
            return Err(self.refuse(format!(
                "its state space is estimated at {:.3e} states or more (about {}) sweeping \
                 by {}, far more than the memory limit of {}; the DP is for narrow boards",
                chosen.live_states,
                human_bytes(bytes),
                if flipped { "columns" } else { "rows" },
                human_bytes(self.memory_limit as f64)
            )));
        }
        Ok(Some((problem, flipped)))
    }

    /// Live states estimated past which a board is refused without sweeping.
    fn refusal_states(&self) -> f64 {
        self.memory_limit as f64 * ESTIMATE_SLACK / BYTES_PER_STATE as f64
    }

    fn max_states(&self) -> u64 {
        self.memory_limit / BYTES_PER_STATE
    }

    /// Runs the sweep, in machine integers first and again in arbitrary precision
    /// if the count outgrows them.
    fn count_exactly(
        &self,
        problem: &CutProblem,
        budget: &Budget,
        keep_layers: bool,
    ) -> Result<(Result<Sweep<BigUint>, Stop>, u64), BackendError> {
        match sweep::<u128>(problem, budget, self.max_states(), keep_layers) {
            Ok(s) => {
                let peak = s.peak_states;
                Ok((Ok(s.map_count(BigUint::from)), peak))
            }
            Err(Stop::Overflow) => {
                let result = sweep::<BigUint>(problem, budget, self.max_states(), keep_layers);
                let peak = result.as_ref().map_or(0, |s| s.peak_states);
                Ok((result, peak))
            }
            Err(stop) => Ok((Err(stop), 0)),
        }
    }

    /// The sweep, or the outcome of a sweep stopped by the deadline.
    fn sweep_or_stop(
        &self,
        problem: &CutProblem,
        budget: &Budget,
        keep_layers: bool,
    ) -> Result<Result<Sweep<BigUint>, Outcome>, BackendError> {
        let (result, peak) = self.count_exactly(problem, budget, keep_layers)?;
        Ok(match result {
            Ok(s) => Ok(s),
            Err(stop) => Err(Outcome {
                ending: self.stopped(stop)?,
                counters: counters(peak),
            }),
        })
    }

    fn stopped(&self, stop: Stop) -> Result<Ending, BackendError> {
        match stop {
            Stop::Deadline => Ok(Ending::Timeout),
            Stop::Memory { states } => Err(self.refuse(format!(
                "the sweep outgrew the memory limit of {} ({} live states); the DP is for \
                 narrow boards",
                human_bytes(self.memory_limit as f64),
                states
            ))),
            Stop::Overflow => Err(BackendError::Failed {
                backend: "dp".to_string(),
                message: "an arbitrary-precision count overflowed".to_string(),
            }),
        }
    }
}

/// Bytes in words; past a thousand TiB (estimates can be astronomical) in powers of ten.
fn human_bytes(bytes: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    if bytes >= 1e15 {
        return format!("{bytes:.1e} bytes");
    }
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

fn counters(peak: u64) -> Counters {
    Counters {
        states: Some(peak),
        ..Counters::default()
    }
}

impl Backend for Dp {
    fn name(&self) -> &str {
        "dp"
    }

    fn capabilities(&self) -> crate::backend::Capabilities {
        crate::backend::Capabilities::DP
    }

    fn default_families(&self) -> Families {
        Families::CutQuotas
    }

    fn solve(&self, model: &Model, _limit: usize, budget: &Budget, sink: &mut Sink) -> SolveResult {
        // A counting pass first: it needs two layers only, says whether there is
        // anything to recover, and measures exactly what keeping every layer costs.
        let Some((problem, flipped)) = self.problem(model, budget)? else {
            return Ok(Outcome {
                ending: Ending::Timeout,
                counters: Counters::default(),
            });
        };
        let counted = match self.sweep_or_stop(&problem, budget, false)? {
            Ok(s) => s,
            Err(stopped) => return Ok(stopped),
        };
        let peak = counted.peak_states;
        if counted.count == BigUint::default() {
            return Ok(Outcome {
                ending: Ending::Exhausted,
                counters: counters(peak),
            });
        }
        if counted.all_states > self.max_states() {
            return Err(self.refuse(format!(
                "recovering a tiling keeps every layer of the sweep: {} states (about {}), \
                 more than the memory limit of {}; `dominofit count --backend dp` needs only \
                 {} states",
                counted.all_states,
                human_bytes((counted.all_states * BYTES_PER_STATE) as f64),
                human_bytes(self.memory_limit as f64),
                2 * peak
            )));
        }
        let swept = match self.sweep_or_stop(&problem, budget, true)? {
            Ok(s) => s,
            Err(stopped) => return Ok(stopped),
        };
        let ids: FxHashMap<Piece, PlacementId> = model
            .placements
            .iter()
            .enumerate()
            .map(|(id, &p)| (p, id as PlacementId))
            .collect();
        let mut stopped = false;
        let mut missing = None;
        let mut tiling: Vec<PlacementId> = Vec::new();
        witnesses(&problem, &swept, &mut |pieces| {
            tiling.clear();
            for &p in pieces {
                let p = if flipped { transpose_piece(p) } else { p };
                match ids.get(&p) {
                    Some(&id) => tiling.push(id),
                    None => {
                        missing = Some(p);
                        return false;
                    }
                }
            }
            tiling.sort_unstable();
            if sink(&tiling) == Control::Stop {
                stopped = true;
                return false;
            }
            true
        });
        if let Some(p) = missing {
            return Err(BackendError::Failed {
                backend: "dp".to_string(),
                message: format!("a witness used a piece the model does not have: {p:?}"),
            });
        }
        Ok(Outcome {
            ending: if stopped {
                Ending::Stopped
            } else {
                Ending::Exhausted
            },
            counters: counters(peak),
        })
    }

    fn count(&self, model: &Model, budget: &Budget) -> Option<Result<ExactCount, BackendError>> {
        Some((|| {
            let Some((problem, _)) = self.problem(model, budget)? else {
                return Ok(ExactCount {
                    count: BigUint::default(),
                    ending: Ending::Timeout,
                    counters: Counters::default(),
                });
            };
            let (result, peak) = self.count_exactly(&problem, budget, false)?;
            Ok(match result {
                Ok(s) => ExactCount {
                    count: s.count,
                    ending: Ending::Exhausted,
                    counters: counters(peak),
                },
                Err(stop) => ExactCount {
                    count: BigUint::default(),
                    ending: self.stopped(stop)?,
                    counters: counters(peak),
                },
            })
        })())
    }
}
