//! Clue inversion on the observed boards and on hand-made ones.

use super::*;
use crate::puzzle::parse::parse_instances;

fn observed_8x8() -> Instance {
    let text = r#"{"name": "observed-8x8", "rows": 8, "cols": 8,
        "blocked": [[1,8],[2,8],[5,1],[5,6],[8,5],[8,8]],
        "row_clues": [7,4,6,4,6,8,8,4], "col_clues": [3,5,2,14,4,5,7,7]}"#;
    parse_instances(text, "test", "test", false)
        .unwrap()
        .remove(0)
}

#[test]
fn paper_quotas_of_the_8x8_board() {
    let m = invert(&observed_8x8()).unwrap();
    assert_eq!(m.u, vec![3, 2, 4, 0, 0, 0, 2, 0]);
    assert_eq!(m.p, vec![2, 1, 1, 2, 3, 4, 3, 2]);
    assert_eq!(m.q, vec![3, 3, 0, 0, 2, 1, 1, 1]);
    assert_eq!(m.t, vec![1, 1, 7, 1, 2, 3, 3, 0]);
    assert_eq!((m.vertical_total, m.horizontal_total), (11, 18));
    for i in 0..8 {
        assert_eq!(m.u_even[i] + m.u_odd[i], m.u[i]);
        assert_eq!(m.t_even[i] + m.t_odd[i], m.t[i]);
    }
}

#[test]
fn fractional_row_is_explained() {
    // The top row carries exactly one dot per open cell.
    let mut inst = observed_8x8();
    inst.row_clues[0] = 6;
    inst.row_clues[1] = 5;
    let err = invert(&inst).unwrap_err();
    assert!(
        matches!(err, Infeasibility::TopRow { open: 7, clue: 6 }),
        "{err}"
    );

    let mut inst = observed_8x8();
    // u_2 = a_3 - R_3 = 1 leaves R_2 - u_2 = 3 dots for horizontal pieces in row 2.
    inst.row_clues[2] = 7;
    inst.row_clues[3] = 3;
    let err = invert(&inst).unwrap_err();
    assert_eq!(err.to_string(), "row 2 would need 1.5 horizontal pieces");
}
