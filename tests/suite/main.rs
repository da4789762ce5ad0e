//! The integration tests, as one test binary: each binary links the whole crate, and on
//! a two-core machine sixteen of them took most of the test build. One module per
//! subject; `common` holds the oracles that know nothing of the model.

mod common;

mod architecture;
mod certify;
mod cli;
mod design;
mod dp;
mod encodings;
mod exhaustive;
mod explain;
mod external_backends;
mod external_dimacs;
mod external_lp;
mod grade;
mod hardening;
mod hardening3;
mod hardening4;
mod hint_sweep;
mod ilp_exhaustive;
mod interrupts;
mod limits;
mod mcc;
mod observed;
mod paper_protocol;
mod planted;
mod quick_reader;
mod race;
mod repair;
mod retile;
mod sat_exhaustive;
mod schemas;
mod shared;
mod small;
mod snapshots;
mod unique_design;
mod veripb;
