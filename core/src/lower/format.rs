//! The file formats dominofit writes, in one list: `emit --to` takes any of them, and a
//! descriptor's `reads` names the one its program reads. A new format is a variant here
//! with its names and its writer, and a module beside this one.

use std::io::Write;

use super::cnf::LoweredCnf;
use super::stream::Checked;
use super::{dimacs, lp, mcc, mps, mzn, opb};
use crate::model::{Model, PlacementId};

/// A file format for a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// The intermediate model: placements, covers, quota groups, raw clue sums.
    ModelJson,
    /// DIMACS CNF with `c var` lines and the `c p show` projection over the placements.
    Dimacs,
    /// Pseudo-Boolean competition format: every constraint a linear equality.
    Opb,
    /// CPLEX LP format: binary `v_R_C`/`h_R_C`, named equalities, zero objective.
    Lp,
    /// Free MPS: the LP file's variables and rows, integer columns bounded by 1.
    Mps,
    /// MiniZinc: the LP file's variables as `var 0..1` and its rows as constraints.
    Mzn,
    /// Exact cover with multiplicities for Knuth's dlx3/ssxcc (quota families only).
    Mcc,
}

/// Why a model could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// Writing to the output failed, or `stop` fired (`TimedOut`).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The model has no MCC form.
    #[error(transparent)]
    Mcc(#[from] mcc::MccError),
    /// DIMACS needs the CNF lowering, which the caller did not pass.
    #[error("DIMACS needs the CNF lowering of the model")]
    NoCnf,
    /// Tilings to exclude, in a format that cannot exclude them.
    #[error("{format} cannot exclude tilings")]
    CannotBlock {
        /// The format's title.
        format: &'static str,
    },
}

impl Format {
    /// Every format; names are parsed against this list.
    pub const ALL: [Format; 7] = [
        Format::ModelJson,
        Format::Dimacs,
        Format::Opb,
        Format::Lp,
        Format::Mps,
        Format::Mzn,
        Format::Mcc,
    ];

    /// The name on the command line and in descriptors.
    pub fn name(self) -> &'static str {
        match self {
            Format::ModelJson => "model-json",
            Format::Dimacs => "dimacs",
            Format::Opb => "opb",
            Format::Lp => "lp",
            Format::Mps => "mps",
            Format::Mzn => "mzn",
            Format::Mcc => "mcc",
        }
    }

    /// The file name extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::ModelJson => "model.json",
            Format::Dimacs => "cnf",
            Format::Opb => "opb",
            Format::Lp => "lp",
            Format::Mps => "mps",
            Format::Mzn => "mzn",
            Format::Mcc => "dlx",
        }
    }

    /// The format's own name, for people.
    pub fn title(self) -> &'static str {
        match self {
            Format::ModelJson => "dominofit model JSON",
            Format::Dimacs => "DIMACS CNF",
            Format::Opb => "OPB",
            Format::Lp => "CPLEX LP",
            Format::Mps => "free MPS",
            Format::Mzn => "MiniZinc",
            Format::Mcc => "MCC exact cover",
        }
    }

    /// A lower bound of the text's bytes for `model`, so that a host that must hold the
    /// whole text refuses before it writes a byte a text surely too long (and never one
    /// that fits: a test holds the bound to the text on every format, family and shape).
    /// The largest of what the format takes at the least per open cell
    /// ([`Self::least_bytes_per_open_cell`]) and, for the formats that name the pieces
    /// (`v_R_C`), the names written: each piece is named once where it is declared, in
    /// its two cells' cover rows and in the row of each quota group it is in, every name
    /// with at least one byte beside it. The names' digits are what make a large board's
    /// text grow faster than its cells. DIMACS: the clauses of the covers alone (their
    /// size is exact, whatever the encoding of the rest), each literal at least a digit
    /// and a space, each clause ended by `0` and a newline.
    pub fn least_bytes(self, model: &Model) -> u64 {
        let per_cell = self
            .least_bytes_per_open_cell()
            .map_or(0, |bytes| (model.covers.len() as u64).saturating_mul(bytes));
        let named = match self {
            // `var 0..1: NAME;` and a newline around each declared name in MiniZinc.
            Format::Mzn => Some(12),
            Format::Lp => Some(0),
            _ => None,
        };
        let names = named.map_or(0, |declared| least_name_bytes(model, declared));
        let clauses = if self == Format::Dimacs {
            (model.covers.iter())
                .map(|cover| {
                    let size = crate::encode::size::estimate(
                        crate::encode::Encoding::Pairwise,
                        cover.placements.len(),
                        crate::encode::Bound::Exactly(1),
                    );
                    (size.lits.saturating_mul(2)).saturating_add(size.clauses.saturating_mul(2))
                })
                .fold(0u64, u64::saturating_add)
        } else {
            0
        };
        per_cell.max(names).max(clauses)
    }

    /// Bytes of text per open cell that the format takes at the least, about: measured on
    /// planted boards of every shape with every family (the fewest per cell are on thin
    /// boards with the `minimal` families), less 10%. DIMACS, whose size is its
    /// encoding's, has none.
    pub fn least_bytes_per_open_cell(self) -> Option<u64> {
        match self {
            Format::ModelJson => Some(110),
            Format::Dimacs => None,
            Format::Opb => Some(43),
            Format::Lp => Some(57),
            Format::Mps => Some(109),
            Format::Mzn => Some(88),
            Format::Mcc => Some(29),
        }
    }

    /// Whether the writer reads the CNF lowering (and so a cardinality encoding).
    pub fn needs_cnf(self) -> bool {
        self == Format::Dimacs
    }

    /// The whole file for `model` as text, deterministic: for the formats that need no
    /// CNF lowering (DIMACS says [`WriteError::NoCnf`]).
    ///
    /// # Errors
    /// As [`Format::write`].
    pub fn text(self, model: &Model) -> Result<String, WriteError> {
        let mut out = Vec::new();
        self.write(&mut out, model, None, &[], &|| false)?;
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    /// Writes `model` in this format, excluding the tilings in `blocked` (blocking
    /// clauses in DIMACS, no-good cuts in LP, MPS, MiniZinc and OPB; the others take
    /// none). DIMACS is
    /// streamed clause by clause and looks at `stop` as it goes: its text is the largest
    /// of the formats and is never held whole.
    ///
    /// # Errors
    /// Writing failed or was stopped (`TimedOut`), the format refuses the model (MCC on
    /// raw sums), or the arguments do not fit the format.
    pub fn write(
        self,
        out: &mut dyn Write,
        model: &Model,
        lowered: Option<&LoweredCnf>,
        blocked: &[Vec<PlacementId>],
        stop: &dyn Fn() -> bool,
    ) -> Result<(), WriteError> {
        if !blocked.is_empty()
            && !matches!(
                self,
                Format::Dimacs | Format::Lp | Format::Mps | Format::Mzn | Format::Opb
            )
        {
            return Err(WriteError::CannotBlock {
                format: self.title(),
            });
        }
        let mut checked = Checked::new(out, stop);
        let out = &mut checked;
        match self {
            Format::Dimacs => {
                let lowered = lowered.ok_or(WriteError::NoCnf)?;
                dimacs::write_to(out, model, lowered, blocked, stop)?;
            }
            Format::ModelJson => {
                let text = model.to_json_dump();
                out.write_all(text.as_bytes())?;
            }
            Format::Opb => opb::write_to(out, model, blocked)?,
            Format::Lp => lp::write_to(out, model, blocked, stop)?,
            Format::Mps => mps::write_to(out, model, blocked, stop)?,
            Format::Mzn => mzn::write_to(out, model, blocked, stop)?,
            Format::Mcc => {
                let text = mcc::write(model)?;
                out.write_all(text.as_bytes())?;
            }
        }
        Ok(())
    }
}

/// The bytes the pieces' names take in a text that names each piece `v_R_C` or `h_R_C`
/// (one-based) once where it is declared (with `declared` bytes more there), once in
/// each of its two cells' cover rows and once in each of its quota groups' rows, with
/// at least one byte beside each name.
fn least_name_bytes(model: &Model, declared: u64) -> u64 {
    let mut groups = vec![0u64; model.placements.len()];
    for group in &model.quotas {
        for &p in model.members(group) {
            groups[p as usize] += 1;
        }
    }
    let digits = |n: usize| n.checked_ilog10().map_or(1, |d| u64::from(d) + 1);
    (model.placements.iter().zip(&groups))
        .map(|(piece, &in_groups)| {
            let name = 3 + digits(piece.row + 1) + digits(piece.col + 1);
            (3 + in_groups) * (name + 1) + declared
        })
        .fold(0u64, u64::saturating_add)
}

from_str_by_name!(Format, UnknownFormat, "format");
