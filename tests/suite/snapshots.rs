//! Snapshots of everything `emit` writes for the observed boards, stored under
//! `snapshots/`: any change to the model or to an encoding shows up in review as a
//! diff. After an intended change: `INSTA_UPDATE=always cargo test --test snapshots`,
//! then read the diff before committing.

use dominofit::encode::Encoding;
use dominofit::files::read_instances;
use dominofit::lower::{Format, cnf, dimacs};
use dominofit::model::{Families, compile};

fn observed(board: &str) -> dominofit::puzzle::Instance {
    let path = format!(
        "{}/models/observed/{board}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    read_instances(&path).unwrap().remove(0)
}

macro_rules! snapshot {
    ($name:expr, $text:expr) => {
        insta::with_settings!({
            snapshot_path => "../../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!($name, $text);
        })
    };
}

#[test]
fn model_dumps() {
    for board in ["6x6", "7x7", "8x8"] {
        for families in Families::ALL {
            let model = compile(&observed(board), families);
            snapshot!(
                format!("model-{board}-{}", families.name()),
                model.to_json_dump()
            );
        }
    }
}

#[test]
fn dimacs_per_encoding() {
    for board in ["6x6", "7x7", "8x8"] {
        let model = compile(&observed(board), Families::AllQuotas);
        for encoding in Encoding::ALL {
            let lowered = cnf::lower(&model, encoding).unwrap();
            snapshot!(
                format!("dimacs-{board}-all-{}", encoding.name()),
                dimacs::write(&model, &lowered)
            );
        }
        let raw = compile(&observed(board), Families::RawSums);
        let lowered = cnf::lower(&raw, Encoding::Totalizer).unwrap();
        snapshot!(format!("dimacs-{board}-raw"), dimacs::write(&raw, &lowered));
    }
}

#[test]
fn opb() {
    for board in ["6x6", "7x7", "8x8"] {
        for families in [Families::AllQuotas, Families::RawSums] {
            let model = compile(&observed(board), families);
            snapshot!(
                format!("opb-{board}-{}", families.name()),
                Format::Opb.text(&model).unwrap()
            );
        }
    }
}

#[test]
fn lp_per_family() {
    for board in ["6x6", "7x7", "8x8"] {
        for families in Families::ALL {
            let model = compile(&observed(board), families);
            snapshot!(
                format!("lp-{board}-{}", families.name()),
                Format::Lp.text(&model).unwrap()
            );
        }
    }
}

#[test]
fn mps_per_family() {
    for board in ["6x6", "7x7", "8x8"] {
        for families in [Families::AllQuotas, Families::RawSums] {
            let model = compile(&observed(board), families);
            snapshot!(
                format!("mps-{board}-{}", families.name()),
                Format::Mps.text(&model).unwrap()
            );
        }
    }
}

#[test]
fn minizinc_per_family() {
    for board in ["6x6", "7x7", "8x8"] {
        for families in [Families::AllQuotas, Families::RawSums] {
            let model = compile(&observed(board), families);
            snapshot!(
                format!("mzn-{board}-{}", families.name()),
                Format::Mzn.text(&model).unwrap()
            );
        }
    }
}

#[test]
fn mcc_exact_cover() {
    for board in ["6x6", "7x7", "8x8"] {
        for families in [Families::AllQuotas, Families::ColourSplits] {
            let model = compile(&observed(board), families);
            snapshot!(
                format!("mcc-{board}-{}", families.name()),
                dominofit::lower::mcc::write(&model).unwrap()
            );
        }
    }
    let raw = compile(&observed("8x8"), Families::RawSums);
    assert!(dominofit::lower::mcc::write(&raw).is_err());
}
