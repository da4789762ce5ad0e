//! What a certificate bundle is made of: its manifest (`certificate.json`), its files,
//! and the proof systems its refutation may be written in.

use serde::{Deserialize, Serialize};

use super::prove::Prover;
use super::rules::{RulesError, rules_cnf};
use crate::puzzle::{Instance, Solution};

/// The `certificate` field of every manifest.
pub const KIND: &str = "dominofit-certificate";
/// The manifest version this build writes. Version 1 (DRAT proofs only, no
/// `proof_system`) is still read and checked.
pub const VERSION: u32 = 2;

/// The files of a bundle.
pub mod files {
    /// The manifest.
    pub const MANIFEST: &str = "certificate.json";
    /// The board.
    pub const INSTANCE: &str = "instance.json";
    /// The tilings, one per line.
    pub const SOLUTIONS: &str = "solutions.jsonl";
    /// The raw-rules CNF (DRAT route).
    pub const RULES_CNF: &str = "rules.cnf";
    /// The DRAT proof.
    pub const PROOF_DRAT: &str = "proof.drat";
    /// The raw rules as linear equalities (VeriPB route).
    pub const RULES_OPB: &str = "rules.opb";
    /// The VeriPB proof.
    pub const PROOF_PBP: &str = "proof.pbp";
}

/// How a bundle's refutation is written and checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofSystem {
    /// Cutting planes: the rules as OPB equalities, a VeriPB proof (version 3.0).
    Veripb,
    /// Resolution: the rules as CNF, a DRAT proof.
    Drat,
}

impl ProofSystem {
    /// The name in `certificate.json`.
    pub fn name(self) -> &'static str {
        match self {
            ProofSystem::Veripb => "veripb",
            ProofSystem::Drat => "drat",
        }
    }

    /// The proof system of that name.
    pub fn named(name: &str) -> Option<ProofSystem> {
        [ProofSystem::Veripb, ProofSystem::Drat]
            .into_iter()
            .find(|p| p.name() == name)
    }

    /// The file holding the rules.
    pub fn rules_file(self) -> &'static str {
        match self {
            ProofSystem::Veripb => files::RULES_OPB,
            ProofSystem::Drat => files::RULES_CNF,
        }
    }

    /// The file holding the proof.
    pub fn proof_file(self) -> &'static str {
        match self {
            ProofSystem::Veripb => files::PROOF_PBP,
            ProofSystem::Drat => files::PROOF_DRAT,
        }
    }

    /// The rules of `instance`, with `blocked` ruled out, in this system's formula.
    ///
    /// # Errors
    /// The formula would not fit in memory, or `blocked` is no tiling of the board.
    pub fn rules(
        self,
        instance: &Instance,
        blocked: Option<&Solution>,
    ) -> Result<String, RulesError> {
        match self {
            ProofSystem::Veripb => super::pb::rules_opb(instance, blocked),
            ProofSystem::Drat => rules_cnf(instance, blocked),
        }
    }
}

/// `certificate.json`: what the bundle claims.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Always [`KIND`].
    pub certificate: String,
    /// [`VERSION`].
    pub version: u32,
    /// The board's name.
    pub name: String,
    /// `sat`, `unique`, `multiple` or `unsat`.
    pub status: String,
    /// The backend whose answer is certified.
    pub backend: String,
    /// The solver that wrote the proof, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prover: Option<String>,
    /// `veripb` or `drat`: how the proof is written and checked, when there is one
    /// (version 2; a version 1 bundle's proof is DRAT).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_system: Option<String>,
}

impl Prover {
    /// The proof system of its proofs.
    pub fn proof_system(&self) -> ProofSystem {
        match self {
            Prover::Native => ProofSystem::Veripb,
            Prover::Varisat | Prover::External(_) => ProofSystem::Drat,
        }
    }
}
