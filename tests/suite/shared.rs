//! `shared` against varisat's enumeration of the raw clue sums (no clue inversion, no
//! quotas, none of the native engine's rules): the tilings counted, the pieces they all
//! have, the cells where they differ; and each change it proposes leaves a board with
//! exactly one tiling by the same oracle, made by blocking the two cells of one piece.

use std::collections::HashSet;

use crate::common::every_tiling;
use dominofit::backend::Status;
use dominofit::design::shared;
use dominofit::puzzle::{Instance, Solution};

/// `change` leaves a board with exactly one tiling by the oracle, made from `instance`
/// by blocking only the cells of pieces of one of its `tilings`, and lowering the clues
/// by those pieces' dots.
fn check_change(
    name: &str,
    instance: &Instance,
    tilings: &[Solution],
    change: &dominofit::design::Change,
) {
    assert_eq!(
        every_tiling(&change.board).len(),
        1,
        "{name}: the change is not unique"
    );
    let cells = instance.rows * instance.cols;
    assert!(
        (0..cells).all(|k| !instance.blocked[k] || change.board.blocked[k]),
        "{name}"
    );
    let newly: Vec<(usize, usize)> = (0..cells)
        .filter(|&k| change.board.blocked[k] && !instance.blocked[k])
        .map(|k| (k / instance.cols, k % instance.cols))
        .collect();
    let listed: Vec<(usize, usize)> = change
        .blocked
        .iter()
        .map(|c| (c.0[0] - 1, c.0[1] - 1))
        .collect();
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted, newly,
        "{name}: the cells blocked are the ones listed"
    );
    let holes: Vec<((usize, usize), (usize, usize))> =
        listed.chunks(2).map(|c| (c[0], c[1])).collect();
    let is_hole = |p: &dominofit::puzzle::Piece| holes.contains(&((p.row, p.col), p.other_cell()));
    let tiling = tilings
        .iter()
        .find(|t| t.pieces().filter(is_hole).count() == holes.len())
        .unwrap_or_else(|| panic!("{name}: the holes are not pieces of one tiling"));
    let dots: u64 = tiling
        .pieces()
        .filter(is_hole)
        .map(|p| p.dots().0 + p.dots().1)
        .sum();
    let total = |i: &Instance| i.row_clues.iter().sum::<u64>();
    assert_eq!(total(instance) - total(&change.board), dots, "{name}");
}

#[test]
fn shared_pieces_differing_cells_and_changes_hold_on_the_game_boards() {
    let path = format!("{}/models/game.jsonl", env!("CARGO_MANIFEST_DIR"));
    let instances = dominofit::files::read_instances(&path).unwrap();
    let (mut changed, mut single) = (0, 0);
    for instance in &instances {
        let name = &instance.name;
        let tilings = every_tiling(instance);
        let found = shared(instance, 1000, 64, None).unwrap();
        assert!(found.complete, "{name}");
        assert_eq!(found.tilings as usize, tilings.len(), "{name}");
        let expected_status = match tilings.len() {
            0 => Status::Unsat,
            1 => Status::Unique,
            _ => Status::Multiple,
        };
        assert_eq!(found.status, expected_status, "{name}");
        let Some((first, rest)) = tilings.split_first() else {
            assert!(found.differ.is_empty() && found.change.is_none(), "{name}");
            continue;
        };
        let common = Solution::from_pieces(
            first
                .pieces()
                .filter(|p| rest.iter().all(|t| t.contains(p))),
        );
        assert_eq!(found.common, common, "{name}");
        let covered: HashSet<(usize, usize)> = common
            .pieces()
            .flat_map(|p| [(p.row, p.col), p.other_cell()])
            .collect();
        let differ: Vec<[usize; 2]> = (0..instance.rows)
            .flat_map(|r| (0..instance.cols).map(move |c| (r, c)))
            .filter(|&(r, c)| instance.is_open(r, c) && !covered.contains(&(r, c)))
            .map(|(r, c)| [r + 1, c + 1])
            .collect();
        assert_eq!(
            found.differ.iter().map(|c| c.0).collect::<Vec<_>>(),
            differ,
            "{name}"
        );
        if tilings.len() == 1 {
            assert!(differ.is_empty() && found.change.is_none(), "{name}");
            continue;
        }
        let change = found
            .change
            .as_ref()
            .expect("every board with several tilings gets a change");
        changed += 1;
        check_change(name, instance, &tilings, change);
        single += usize::from(change.blocked.len() == 2);
    }
    assert_eq!(
        changed,
        instances
            .iter()
            .filter(|i| every_tiling(i).len() > 1)
            .count()
    );
    assert!(single > 10, "{single}");

    // A cap below the count: the tilings found, marked incomplete.
    let several = instances
        .iter()
        .find(|i| every_tiling(i).len() > 3)
        .expect("a game board with four tilings or more");
    let capped = shared(several, 2, 0, None).unwrap();
    assert_eq!(
        (capped.tilings, capped.complete, capped.status),
        (2, false, Status::Multiple)
    );
    let tilings = every_tiling(several);
    check_change(
        &several.name,
        several,
        &tilings,
        capped.change.as_ref().unwrap(),
    );
}

#[test]
fn shared_on_the_command_line() {
    use assert_cmd::Command;
    use predicates::prelude::*;
    use predicates::str::contains;
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/models/game.jsonl");
    Command::cargo_bin("dominofit")
        .unwrap()
        .args(["shared", game])
        .assert()
        .success()
        .stdout(contains("planted-6x6-s6601-1: unique: its one tiling is the answer"))
        .stdout(contains("planted-6x6-s6601-3: multiple: 2 tilings (all of them); 10 pieces in every one; they differ on 12 cells"))
        .stdout(contains(
            "  unique if you block the cells of the vertical piece on (1,1)–(2,1), which lies \
             in a tiling, and lower row 1's clue from 6 to 5 and column 1's clue from 1 to 0:",
        ));
    Command::cargo_bin("dominofit")
        .unwrap()
        .args(["shared", game, "--max-tilings", "1"])
        .assert()
        .code(2)
        .stderr(contains("--max-tilings"))
        .stderr(contains("panicked").not());
}
