//! The quick reader against the validating reader: on every board of every committed
//! workload, and on each of those boards bent out of shape, the quick reader either
//! declines or gives exactly the board the validating reader gives; it never accepts
//! what the validating reader refuses.

use dominofit::puzzle::parse::{Origin, instance_from_json, quick};

fn model(name: &str) -> String {
    format!("{}/models/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The validating reader's answer for one document: the board, or its message.
fn validated(text: &str) -> Result<dominofit::puzzle::Instance, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let origin = Origin {
        file: "<test>".to_string(),
        line: None,
    };
    instance_from_json(&value, &origin, "unnamed").map_err(|e| e.to_string())
}

/// Variants of one board's JSON text: valid ones and ones each reader must refuse.
fn bent(board: &serde_json::Value) -> Vec<String> {
    let mut out = vec![board.to_string()];
    let mut with = |change: &dyn Fn(&mut serde_json::Map<String, serde_json::Value>)| {
        let mut copy = board.as_object().expect("a board is an object").clone();
        change(&mut copy);
        out.push(serde_json::Value::Object(copy).to_string());
    };
    use serde_json::json;
    with(&|b| {
        b.remove("name");
    });
    with(&|b| {
        b.insert("name".into(), json!(null));
    });
    with(&|b| {
        b.insert("name".into(), json!(7));
    });
    with(&|b| {
        b.insert("rows".into(), json!(0));
    });
    with(&|b| {
        b.insert("rows".into(), json!(2.0));
    });
    with(&|b| {
        b.insert("rows".into(), json!(true));
    });
    with(&|b| {
        b.insert("cols".into(), json!(5000));
    });
    with(&|b| {
        b.insert("blocked".into(), json!([[0, 1]]));
    });
    with(&|b| {
        b.insert("blocked".into(), json!([[1, 1], [1, 1]]));
    });
    with(&|b| {
        b.insert("blocked".into(), json!([[1, 1, 1]]));
    });
    with(&|b| {
        b.insert("blocked".into(), json!([[99999, 1]]));
    });
    with(&|b| {
        b.insert("row_clues".into(), json!([1]));
    });
    with(&|b| {
        b.insert("extra".into(), json!(1));
    });
    with(&|b| {
        b.remove("col_clues");
    });
    with(&|b| {
        if let Some(serde_json::Value::Array(clues)) = b.get_mut("col_clues") {
            clues[0] = json!(-1);
        }
    });
    out
}

#[test]
fn the_quick_reader_gives_the_validating_readers_board_or_declines() {
    let mut accepted = 0;
    let mut lines = 0;
    for workload in [
        "game.jsonl",
        "observed.jsonl",
        "larger.jsonl",
        "stress.jsonl",
        "unsat.jsonl",
        "unsat-hard.jsonl",
        "huge.jsonl",
        "giant.jsonl",
    ] {
        let text = std::fs::read_to_string(model(workload)).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            lines += 1;
            let board: serde_json::Value = serde_json::from_str(line).unwrap();
            for variant in bent(&board) {
                let Some(quick) = quick::board_from_text(&variant, "unnamed") else {
                    continue;
                };
                accepted += 1;
                assert_eq!(validated(&variant).as_ref(), Ok(&quick), "{variant}");
            }
            // Every committed board is in the shape the quick reader takes.
            assert!(quick::board_from_text(line, "unnamed").is_some(), "{line}");
            // A key named twice: serde_json's tree keeps one value, the file reader
            // refuses the text; the quick reader declines it.
            let twice = format!("{{\"rows\": 1, {}", &line.trim_start()[1..]);
            assert!(
                quick::board_from_text(&twice, "unnamed").is_none(),
                "{twice}"
            );
        }
    }
    assert_eq!(lines, 162);
    // The valid variants: the board itself, without its name, and (for a board whose
    // first column clue is 0 and that has no blocked cells) nothing else of those bent.
    assert!(
        accepted >= 2 * lines,
        "{accepted} accepted of {lines} boards"
    );
}

#[test]
fn the_quick_reader_gives_the_validating_readers_tiling_or_declines() {
    use dominofit::puzzle::parse::solution_from_json;
    let origin = Origin {
        file: "<test>".to_string(),
        line: None,
    };
    let mut accepted = 0;
    for name in ["6x6", "7x7", "8x8"] {
        let text =
            std::fs::read_to_string(model(&format!("observed/{name}.solution.json"))).unwrap();
        let tiling: serde_json::Value = serde_json::from_str(&text).unwrap();
        let first = tiling["vertical"][0].clone();
        let mut variants = vec![tiling.to_string()];
        let mut with = |change: &dyn Fn(&mut serde_json::Value)| {
            let mut copy = tiling.clone();
            change(&mut copy);
            variants.push(copy.to_string());
        };
        use serde_json::json;
        with(&|t| t["vertical"].as_array_mut().unwrap().reverse());
        with(&|t| t["vertical"].as_array_mut().unwrap().push(first.clone()));
        with(&|t| t["horizontal"][0] = json!([0, 1]));
        with(&|t| t["horizontal"][0] = json!([5000, 1]));
        with(&|t| t["horizontal"][0] = json!([1, 2, 3]));
        with(&|t| t["horizontal"][0] = json!([1, true]));
        with(&|t| t["horizontal"] = json!(null));
        with(&|t| t["diagonal"] = json!([]));
        with(&|t| {
            t.as_object_mut().unwrap().remove("horizontal");
        });
        for variant in variants {
            let validated = solution_from_json(&serde_json::from_str(&variant).unwrap(), &origin)
                .map_err(|e| e.to_string());
            if let Some(quick) = quick::tiling_from_text(&variant) {
                accepted += 1;
                assert_eq!(validated.as_ref(), Ok(&quick), "{variant}");
            }
        }
        assert!(quick::tiling_from_text(&text).is_some());
    }
    // Each tiling, reversed, and with a piece twice.
    assert_eq!(accepted, 9);
}
