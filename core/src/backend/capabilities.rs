//! What a backend can do, for the checks made before it runs: every backend says it
//! ([`super::Backend::capabilities`]); these are the kinds the engines share.

/// What a backend can do, for the checks that happen before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Capabilities {
    /// Counts solutions without enumerating them (`count` does not need blocking).
    pub counts_directly: bool,
    /// Reads `--families raw` (the raw dot sums instead of quotas).
    pub takes_raw_sums: bool,
    /// Lowers cardinality constraints with a chosen encoding (`NAME:ENCODING`).
    pub takes_encoding: bool,
    /// Stops promptly when asked in-process (may be a portfolio member).
    pub interruptible: bool,
}

impl Capabilities {
    /// Nothing: what may be assumed of a backend that says nothing more.
    pub const NONE: Capabilities = Capabilities {
        counts_directly: false,
        takes_raw_sums: false,
        takes_encoding: false,
        interruptible: false,
    };

    /// A search over the quota families: no encoding, no raw sums, stops at any node.
    pub const SEARCH: Capabilities = Capabilities {
        interruptible: true,
        ..Capabilities::NONE
    };

    /// The frontier DP: a search that also counts directly.
    pub const DP: Capabilities = Capabilities {
        counts_directly: true,
        ..Capabilities::SEARCH
    };

    /// A SAT solver on the CNF lowering (varisat: it runs on in its thread when abandoned).
    pub const SAT: Capabilities = Capabilities {
        takes_encoding: true,
        ..Capabilities::ILP
    };

    /// An ILP solver on the 0/1 program: it reads sums directly, no encoding.
    pub const ILP: Capabilities = Capabilities {
        takes_raw_sums: true,
        ..Capabilities::NONE
    };
}
