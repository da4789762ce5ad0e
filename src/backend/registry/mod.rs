//! The one table of built-in backends, and the lookup of a backend by name.
//!
//! Every question about a built-in backend — is this name taken, may it take a
//! cardinality encoding, can it read the raw dot sums, may a portfolio hold it — is
//! answered from [`BUILTINS`], so a backend added here is known everywhere at once:
//! `dominofit backends`, the names descriptors may not take, `NAME:ENCODING` parsing,
//! the raw-sums refusal and the portfolio's member check. Entries for optional solvers
//! are compiled in with their Cargo feature, the way good_lp gates its solvers.

mod name;
pub use name::{DEFAULT_PORTFOLIO, Parsed, parse_name};

use super::renamed::Renamed;
use super::{Backend, BackendOptions, Capabilities, dp, external, ilp, native, portfolio, sat};
use crate::encode::Encoding;

/// One built-in backend.
pub struct Builtin {
    /// The name it is chosen by (`--backend NAME`); no descriptor may take it.
    pub name: &'static str,
    /// What it reads, for `dominofit backends`.
    pub reads: &'static str,
    build: fn(&BackendOptions) -> Box<dyn Backend>,
}

impl Builtin {
    /// The backend, with the choices of `options` that it takes.
    pub fn build(&self, options: &BackendOptions) -> Box<dyn Backend> {
        (self.build)(options)
    }

    /// What it can do, as the backend itself says ([`Backend::capabilities`]).
    pub fn capabilities(&self) -> Capabilities {
        self.build(&BackendOptions::default()).capabilities()
    }
}

/// Every built-in backend of this binary.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "native",
        reads: "the model's quota families (propagation and search)",
        build: |_| Box::new(native::Native::default()),
    },
    Builtin {
        name: "native-general",
        reads: "the native search on the general model always, without the small-board path (for comparison)",
        build: |_| native_variant("native-general"),
    },
    Builtin {
        name: "native-matching",
        reads: "the native search with Régin's matching filter at every propagation stall",
        build: |_| native_variant("native-matching"),
    },
    Builtin {
        name: "dp",
        reads: "the cut quotas u and t (frontier dynamic program: exact counts, narrow boards)",
        build: |_| Box::new(dp::Dp::default()),
    },
    Builtin {
        name: "portfolio",
        reads: "native and native-matching in parallel threads, the first decisive answer \
                wins (portfolio:A+B+... for other members)",
        build: |options| {
            // The default members are built-in and interruptible: this cannot fail.
            portfolio_of("portfolio", DEFAULT_PORTFOLIO, options).unwrap_or_else(|_| {
                Box::new(portfolio::Portfolio::new(
                    "portfolio".to_string(),
                    vec![Box::new(native::Native::default())],
                ))
            })
        },
    },
    Builtin {
        name: "varisat",
        reads: "CNF with the chosen cardinality encoding (pure-Rust CDCL)",
        build: |options| Box::new(sat::Sat::varisat(options.encoding)),
    },
    #[cfg(feature = "cadical-lib")]
    Builtin {
        name: "cadical-lib",
        reads: "CNF with the chosen cardinality encoding (CaDiCaL, in-process)",
        build: |options| Box::new(sat::Sat::cadical(options.encoding)),
    },
    Builtin {
        name: "microlp",
        reads: "the model as a 0/1 integer program (good_lp with microlp, pure Rust)",
        build: |_| Box::new(ilp::Ilp::MICROLP),
    },
    #[cfg(feature = "highs")]
    Builtin {
        name: "highs",
        reads: "the model as a 0/1 integer program (good_lp with HiGHS, in-process)",
        build: |_| {
            Box::new(ilp::Ilp {
                solver: ilp::IlpSolver::Highs,
            })
        },
    },
    #[cfg(feature = "coin-cbc")]
    Builtin {
        name: "coin-cbc",
        reads: "the model as a 0/1 integer program (good_lp with CBC, in-process)",
        build: |_| {
            Box::new(ilp::Ilp {
                solver: ilp::IlpSolver::CoinCbc,
            })
        },
    },
];

/// The built-in native backend of that name, with its search options.
fn native_variant(name: &str) -> Box<dyn Backend> {
    Box::new(native::Native {
        options: native_options(name).unwrap_or_default(),
        ..native::Native::default()
    })
}

/// The search options of a built-in native backend, by its name.
pub fn native_options(name: &str) -> Option<native::SearchOptions> {
    let default = native::SearchOptions::default();
    match name {
        "native" => Some(default),
        "native-general" => Some(native::SearchOptions {
            small_boards: false,
            ..default
        }),
        "native-matching" => Some(native::SearchOptions {
            matching: true,
            ..default
        }),
        _ => None,
    }
}

/// The native searches that log a proof of an answer of backend `name`: its own
/// options for a native backend, its native members for a portfolio (which logs its
/// winner's proof), and the default search for any other backend.
pub fn proof_searches(name: &str, options: &BackendOptions) -> Vec<native::SearchOptions> {
    let members: Vec<&str> = match parse_name(name) {
        Parsed::Portfolio(members) => members,
        Parsed::Encoded { .. } | Parsed::Single(_) => vec![name],
    };
    let searches: Vec<native::SearchOptions> = members
        .into_iter()
        .take(options.threads.max(1))
        .filter_map(native_options)
        .collect();
    if searches.is_empty() {
        vec![native::SearchOptions::default()]
    } else {
        searches
    }
}

/// Names that belong to backends built into some build of dominofit, compiled in or
/// not: a descriptor may not take one, or it would change meaning with a feature.
const ALL_BUILTIN_NAMES: &[&str] = &[
    "native",
    "native-general",
    "native-matching",
    "dp",
    "portfolio",
    "varisat",
    "cadical-lib",
    "microlp",
    "highs",
    "coin-cbc",
];

/// The built-in backend of that name, if this binary has it.
pub fn builtin(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// The built-in backend of a name, built: what a worker process runs
/// ([`super::worker::Builder`]).
pub fn build_builtin(name: &str, options: &BackendOptions) -> Option<Box<dyn Backend>> {
    builtin(name).map(|b| b.build(options))
}

/// The external programs that join the registry: every descriptor read
/// ([`external::read_descriptors`]) whose name no built-in backend holds, in this build
/// or another; one that takes such a name is reported with the broken ones, so that a
/// feature compiled in later never changes what a user's descriptor means.
pub fn descriptors() -> external::Descriptors {
    let mut all = external::read_descriptors();
    let reserved: Vec<String> = all
        .found
        .keys()
        .filter(|name| is_reserved(name))
        .cloned()
        .collect();
    for name in reserved {
        all.found.remove(&name);
        let path = all.origins.remove(&name).unwrap_or_default();
        all.broken.push(external::DescriptorError::Invalid {
            path,
            message: format!("`{name}` is the name of a built-in backend"),
        });
    }
    all
}

/// Whether `name` is a built-in backend's, in this build or another.
pub fn is_reserved(name: &str) -> bool {
    ALL_BUILTIN_NAMES.contains(&name) || builtin(name).is_some()
}

/// Why a backend name does not give a backend.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LookupError {
    /// No built-in backend and no descriptor has the name.
    #[error("unknown backend `{name}`")]
    Unknown {
        /// The name asked for.
        name: String,
    },
    /// `NAME:ENCODING` for a backend that lowers no cardinality constraints.
    #[error("`{backend}` takes no cardinality encoding; `NAME:ENCODING` is for SAT backends")]
    NoEncoding {
        /// The name before the `:`.
        backend: String,
    },
    /// `NAME:ENCODING` with an encoding that does not exist.
    #[error("unknown encoding `{encoding}` (pairwise, sequential, totalizer, sorting-network)")]
    UnknownEncoding {
        /// The name after the `:`.
        encoding: String,
    },
    /// A portfolio member that may not be one.
    #[error("portfolio member `{member}`: {reason}")]
    Member {
        /// The member's name as written.
        member: String,
        /// Why it cannot be a member (an empty name, or a backend that cannot be stopped
        /// in-process).
        reason: String,
    },
}

/// [`by_name`], with the error as a message for a person: for an unknown name, the
/// names there are (built-in and installed external programs) and the descriptors that
/// could not be read. The command line and the Python package say the same.
///
/// # Errors
/// The message, when the name gives no backend.
pub fn lookup(name: &str, options: &BackendOptions) -> Result<Box<dyn Backend>, String> {
    match by_name(name, options) {
        Ok(backend) => Ok(backend),
        Err(unknown @ LookupError::Unknown { .. }) => {
            let mut names: Vec<String> = BUILTINS.iter().map(|b| b.name.to_string()).collect();
            let descriptors = descriptors();
            names.extend(descriptors.found.into_keys());
            let mut message = format!(
                "{unknown}; available: {} (see `dominofit backends`), and NAME:ENCODING for SAT \
                 backends (e.g. varisat:sequential)",
                names.join(", ")
            );
            for broken in &descriptors.broken {
                message.push_str(&format!("; a descriptor could not be read: {broken}"));
            }
            Err(message)
        }
        Err(other) => Err(format!("`{name}`: {other}")),
    }
}

/// The backend a name stands for: a built-in one, `portfolio:A+B+...`, `NAME:ENCODING`
/// for a backend that takes an encoding, or an external program with a descriptor.
///
/// # Errors
/// The name is unknown, or asks for something its backend cannot do.
pub fn by_name(name: &str, options: &BackendOptions) -> Result<Box<dyn Backend>, LookupError> {
    match parse_name(name) {
        Parsed::Portfolio(members) => portfolio_of(name, &members, options),
        Parsed::Encoded { base, encoding } => encoded(name, base, encoding, options),
        Parsed::Single(name) => single(name, options),
    }
}

/// `NAME:ENCODING`: backend `base` with the encoding, under the whole name.
fn encoded(
    name: &str,
    base: &str,
    encoding: &str,
    options: &BackendOptions,
) -> Result<Box<dyn Backend>, LookupError> {
    let Ok(encoding) = encoding.parse::<Encoding>() else {
        return Err(LookupError::UnknownEncoding {
            encoding: encoding.to_string(),
        });
    };
    let inner = by_name(
        base,
        &BackendOptions {
            encoding,
            ..*options
        },
    )?;
    if !inner.capabilities().takes_encoding {
        return Err(LookupError::NoEncoding {
            backend: base.to_string(),
        });
    }
    Ok(Box::new(Renamed {
        name: name.to_string(),
        inner,
    }))
}

/// A built-in backend, or an external program with a descriptor.
fn single(name: &str, options: &BackendOptions) -> Result<Box<dyn Backend>, LookupError> {
    if let Some(builtin) = builtin(name) {
        return Ok(builtin.build(options));
    }
    let descriptors = descriptors();
    descriptors
        .found
        .get(name)
        .map(|d| {
            Box::new(external::External {
                descriptor: d.clone(),
                encoding: options.encoding,
            }) as Box<dyn Backend>
        })
        .ok_or_else(|| LookupError::Unknown {
            name: name.to_string(),
        })
}

/// Why `name` (a backend name, possibly `NAME:ENCODING`) may not be a portfolio member.
pub fn member_refusal(name: &str) -> Option<String> {
    let base = match parse_name(name) {
        Parsed::Portfolio(_) => return Some("a portfolio cannot hold a portfolio".to_string()),
        Parsed::Encoded { base, .. } => base,
        Parsed::Single(name) => name,
    };
    // External programs run as processes that are killed when told to stop.
    let interruptible = builtin(base).is_none_or(|b| b.capabilities().interruptible);
    (!interruptible).then(|| {
        format!(
            "`{base}` cannot be stopped in-process once it runs, so it cannot be a portfolio \
             member; use an external solver (cadical, kissat, cbc, glpsol) instead"
        )
    })
}

/// A portfolio of the named members, the first `options.threads` of them.
fn portfolio_of(
    name: &str,
    members: &[&str],
    options: &BackendOptions,
) -> Result<Box<dyn Backend>, LookupError> {
    let mut built: Vec<Box<dyn Backend>> = Vec::new();
    for &member in members.iter().take(options.threads.max(1)) {
        if member.is_empty() {
            return Err(LookupError::Member {
                member: member.to_string(),
                reason: "an empty name".to_string(),
            });
        }
        if let Some(reason) = member_refusal(member) {
            return Err(LookupError::Member {
                member: member.to_string(),
                reason,
            });
        }
        built.push(by_name(member, options)?);
    }
    Ok(Box::new(portfolio::Portfolio::new(name.to_string(), built)))
}

#[cfg(test)]
mod tests;
