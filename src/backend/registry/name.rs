//! Backend names as users write them (`native`, `portfolio:A+B`, `varisat:sequential`, a
//! descriptor's name), taken apart in one place: building a backend, the searches that
//! log its proofs and the portfolio's member check all read a name through [`parse_name`].

/// The members of `portfolio`: the native search as it is by default, and with the
/// matching filter at every stall, which wins on the boards where the default's
/// schedule is too sparse (BENCHMARKS.md).
pub const DEFAULT_PORTFOLIO: &[&str] = &["native", "native-matching"];

/// A backend name as written, taken apart once: what [`by_name`](super::by_name), the proofs' searches
/// and the member check read the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed<'a> {
    /// `portfolio` (its default members, [`DEFAULT_PORTFOLIO`]) or `portfolio:A+B+...`
    /// (`,` separates members too), all its members, before `--threads` takes the first.
    Portfolio(Vec<&'a str>),
    /// `NAME:ENCODING`: a backend that takes an encoding, with one chosen.
    Encoded {
        /// The backend's own name.
        base: &'a str,
        /// The encoding's name, not yet checked.
        encoding: &'a str,
    },
    /// A built-in backend's or a descriptor's name.
    Single(&'a str),
}

/// Takes a backend name apart ([`Parsed`]).
pub fn parse_name(name: &str) -> Parsed<'_> {
    if name == "portfolio" {
        return Parsed::Portfolio(DEFAULT_PORTFOLIO.to_vec());
    }
    if let Some(members) = name.strip_prefix("portfolio:") {
        return Parsed::Portfolio(members.split(['+', ',']).collect());
    }
    match name.split_once(':') {
        Some((base, encoding)) => Parsed::Encoded { base, encoding },
        None => Parsed::Single(name),
    }
}
