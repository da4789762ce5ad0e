//! VeriPB proof lines (version 3.0), numbered as the checker numbers them.
//!
//! Only the rules a cutting-planes refutation of the board needs: `pol` (a linear
//! combination, in reverse Polish notation, with division and weakening), `rup` (a
//! constraint unit propagation confirms), and the conclusion. Every derived constraint
//! gets the next number after the formula's, and the writer keeps count, so that the
//! logger can name what it derived.

use std::io::Write;

/// A constraint's number in the checker's database.
pub type Id = u64;

/// A linear combination in reverse Polish notation: constraints times positive factors,
/// summed, then divided or weakened.
#[derive(Debug, Default, Clone)]
pub struct Sum {
    text: String,
    terms: usize,
}

/// Both halves of an equality being derived: the same combination taken of the `≥`
/// constraints (into `at_least`) and of the `≤` constraints (into `at_most`) of
/// equalities. An equality added puts its `≥` half on one side and its `≤` half on the
/// other; one taken away (its halves swapped) the other way round.
#[derive(Debug, Default, Clone)]
pub struct Sides {
    /// The sum of `≥` constraints: a lower bound.
    pub at_least: Sum,
    /// The sum of `≤` constraints: an upper bound.
    pub at_most: Sum,
}

impl Sides {
    /// Nothing yet.
    pub fn new() -> Sides {
        Sides::default()
    }

    /// Adds `times` × the equality whose halves are `at_least` and `at_most`.
    pub fn add(&mut self, at_least: Id, at_most: Id, times: u64) -> &mut Sides {
        self.at_least.add(at_least, times);
        self.at_most.add(at_most, times);
        self
    }
}

impl Sum {
    /// An empty combination.
    pub fn new() -> Sum {
        Sum::default()
    }

    /// Adds `times` × constraint `id`.
    pub fn add(&mut self, id: Id, times: u64) -> &mut Sum {
        use std::fmt::Write as _;
        if times == 0 {
            return self;
        }
        let _ = write!(self.text, " {id}");
        if times > 1 {
            let _ = write!(self.text, " {times} *");
        }
        if self.terms > 0 {
            self.text.push_str(" +");
        }
        self.terms += 1;
        self
    }

    /// Divides the sum by `divisor`, rounding up (the checker's division, in normalized
    /// form: the degree and every coefficient).
    pub fn divide(&mut self, divisor: u64) -> &mut Sum {
        use std::fmt::Write as _;
        if divisor > 1 && self.terms > 0 {
            let _ = write!(self.text, " {divisor} d");
        }
        self
    }

    /// Weakens the sum on placement `p`: drops its variable, with what it could add.
    pub fn weaken(&mut self, p: u32) -> &mut Sum {
        use std::fmt::Write as _;
        if self.terms > 0 {
            let _ = write!(self.text, " x{} w", p + 1);
        }
        self
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        self.terms == 0
    }
}

/// Where a proof goes: written in order, and cut back to an earlier length when what
/// followed is not needed (a refutation of the root makes the search's steps moot).
/// Implemented here for memory (a hint's proof); the library implements it for the
/// proof file a logged search writes.
pub trait Output: Write {
    /// Drops everything after the first `bytes` bytes; writing goes on from there.
    ///
    /// # Errors
    /// The file cannot be cut.
    fn cut_to(&mut self, bytes: u64) -> std::io::Result<()>;

    /// Writes `bytes` over what is at offset `at`, then goes on writing at the end.
    ///
    /// # Errors
    /// The file cannot be written.
    fn patch(&mut self, at: u64, bytes: &[u8]) -> std::io::Result<()>;
}

impl Output for Vec<u8> {
    fn cut_to(&mut self, bytes: u64) -> std::io::Result<()> {
        self.truncate(usize::try_from(bytes).unwrap_or(usize::MAX));
        Ok(())
    }

    fn patch(&mut self, at: u64, bytes: &[u8]) -> std::io::Result<()> {
        let at = usize::try_from(at).unwrap_or(usize::MAX);
        match self.get_mut(at..at.saturating_add(bytes.len())) {
            Some(place) => {
                place.copy_from_slice(bytes);
                Ok(())
            }
            None => Err(std::io::Error::other("a patch past the end of the proof")),
        }
    }
}

/// A point of the proof to come back to: its length and its last constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    bytes: u64,
    last: Id,
}

/// The proof file, line by line. The first I/O error is kept and ends the writing; it
/// is reported by [`ProofWriter::finish`].
pub struct ProofWriter<W: Output> {
    out: W,
    /// Constraints in the database: the formula's, then each derived one.
    last: Id,
    /// The constraints the header counts: the rules and the blocking one.
    counted: Id,
    error: Option<std::io::Error>,
    bytes: u64,
}

/// The proof's first line.
const VERSION: &str = "pseudo-Boolean proof version 3.0";

/// The line after the header, reserved for the constraint the formula may end with: a
/// comment while the formula blocks a tiling (its last constraint is that one), else
/// [`COPY`] over it, which derives a copy of constraint 1 in the same place.
const RESERVED: &str = "% the blocked tiling, or a copy of constraint 1";

/// What the reserved line becomes without a blocked tiling (padded to its length).
const COPY: &str = "pol 1;";

impl<W: Output> ProofWriter<W> {
    /// A proof of the board's rules, `rules` constraints as the checker loads them,
    /// maybe followed by one that blocks a tiling: which, [`ProofWriter::finish`] is
    /// told. Until then the proof numbers constraints as if it were there, so that one
    /// search can prove `unsat` or `unique`, whichever its answer turns out to be.
    pub fn new(out: W, rules: Id) -> ProofWriter<W> {
        let mut writer = ProofWriter {
            out,
            last: rules + 1,
            counted: rules + 1,
            error: None,
            bytes: 0,
        };
        writer.line(format_args!("{VERSION}"));
        writer.line(format_args!("f {};", rules + 1));
        writer.line(format_args!("{RESERVED}"));
        writer
    }

    fn line(&mut self, text: std::fmt::Arguments) {
        if self.error.is_some() {
            return;
        }
        let mut buffer = Vec::with_capacity(64);
        let _ = std::io::Write::write_fmt(&mut buffer, text);
        buffer.push(b'\n');
        self.bytes += buffer.len() as u64;
        if let Err(e) = self.out.write_all(&buffer) {
            self.error = Some(e);
        }
    }

    /// A comment line, for a person reading the proof.
    pub fn comment(&mut self, text: &str) {
        self.line(format_args!("% {text}"));
    }

    /// Derives the combination; its number.
    pub fn pol(&mut self, sum: &Sum) -> Id {
        debug_assert!(!sum.is_empty(), "an empty combination derives nothing");
        self.line(format_args!("pol{};", sum.text));
        self.last += 1;
        self.last
    }

    /// Derives, by reverse unit propagation, that not all of `placements` are placed
    /// (`Σ ¬x ≥ 1`; with none, the contradiction `0 ≥ 1`); its number.
    pub fn nogood(&mut self, placements: &[u32]) -> Id {
        use std::fmt::Write as _;
        let mut terms = String::with_capacity(placements.len() * 8);
        for &p in placements {
            let _ = write!(terms, " 1 ~x{}", p + 1);
        }
        self.line(format_args!("rup{terms} >= 1;"));
        self.last += 1;
        self.last
    }

    /// The proof as it stands, to come back to.
    pub fn mark(&self) -> Mark {
        Mark {
            bytes: self.bytes,
            last: self.last,
        }
    }

    /// Drops every line written after `mark`: the constraints they derived are gone,
    /// and numbering goes on from there.
    pub fn rewind(&mut self, mark: Mark) {
        if self.error.is_some() {
            return;
        }
        match self.out.cut_to(mark.bytes) {
            Ok(()) => {
                self.bytes = mark.bytes;
                self.last = mark.last;
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// The number the next derived constraint gets.
    pub fn next(&self) -> Id {
        self.last + 1
    }

    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Ends the proof: the formula is refuted by constraint `contradiction` (`0 ≥ 1`).
    pub fn conclude_unsat(&mut self, contradiction: Id) {
        self.line(format_args!("output NONE;"));
        self.line(format_args!("conclusion UNSAT : {contradiction};"));
        self.line(format_args!("end pseudo-Boolean proof;"));
    }

    /// The output, flushed, or the first error met while writing.
    ///
    /// # Errors
    /// Writing failed.
    /// With `blocked` the formula ends with the constraint that blocks a tiling; without,
    /// the header is made to count the rules alone, and the reserved line derives the
    /// constraint numbered as the blocking one would be.
    ///
    /// # Errors
    /// Writing failed.
    pub fn finish(mut self, blocked: bool) -> std::io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if !blocked {
            let header = VERSION.len() as u64 + 1;
            let counted = self.counted;
            let was = format!("f {};", counted);
            let line = format!("f {};", counted - 1);
            self.out.patch(
                header,
                format!("{line:<width$}", width = was.len()).as_bytes(),
            )?;
            let reserved = header + was.len() as u64 + 1;
            self.out.patch(
                reserved,
                format!("{COPY:<width$}", width = RESERVED.len()).as_bytes(),
            )?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}
