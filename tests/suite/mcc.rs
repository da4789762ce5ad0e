//! The MCC export read back by an independent exact-cover-with-multiplicities search
//! (test code: it knows only the file's items and options) gives exactly the tilings of
//! the brute-force enumerator, on the paper's exhaustive domain.

use std::collections::BTreeMap;

use crate::common::paper_cases;
use dominofit::lower::mcc;
use dominofit::model::{Families, compile};
use dominofit::puzzle::Solution;

/// Parses the file: primary items with their multiplicity, and options (item lists).
fn parse(text: &str) -> (BTreeMap<String, usize>, Vec<Vec<String>>) {
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('|') && !l.trim().is_empty());
    let header = lines.next().unwrap();
    let primary = header.split('|').next().map(|_| header).unwrap();
    let mut items = BTreeMap::new();
    for token in primary.split_whitespace() {
        if token == "|" {
            break;
        }
        match token.split_once('|') {
            Some((bounds, name)) => {
                let (lo, hi) = bounds.split_once(':').unwrap();
                assert_eq!(lo, hi);
                items.insert(name.to_string(), lo.parse().unwrap());
            }
            None => {
                items.insert(token.to_string(), 1);
            }
        }
    }
    let options = lines
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    (items, options)
}

/// Every set of options covering each primary item exactly its multiplicity.
fn exact_covers(items: &BTreeMap<String, usize>, options: &[Vec<String>]) -> Vec<Vec<usize>> {
    fn go(
        k: usize,
        options: &[Vec<String>],
        need: &mut BTreeMap<String, i64>,
        chosen: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if need.values().any(|&v| v < 0) {
            return;
        }
        if k == options.len() {
            if need.values().all(|&v| v == 0) {
                out.push(chosen.clone());
            }
            return;
        }
        go(k + 1, options, need, chosen, out);
        for item in &options[k] {
            if let Some(v) = need.get_mut(item) {
                *v -= 1;
            }
        }
        chosen.push(k);
        go(k + 1, options, need, chosen, out);
        chosen.pop();
        for item in &options[k] {
            if let Some(v) = need.get_mut(item) {
                *v += 1;
            }
        }
    }
    let mut need: BTreeMap<String, i64> =
        items.iter().map(|(k, &v)| (k.clone(), v as i64)).collect();
    let mut out = Vec::new();
    go(0, options, &mut need, &mut Vec::new(), &mut out);
    out
}

#[test]
fn mcc_export_has_exactly_the_tilings() {
    let mut checked = 0;
    for case in paper_cases() {
        if case.instance.rows * case.instance.cols > 6 {
            continue;
        }
        for families in [
            Families::CutQuotas,
            Families::AllQuotas,
            Families::ColourSplits,
        ] {
            let model = compile(&case.instance, families);
            let text = mcc::write(&model).unwrap();
            let (items, options) = parse(&text);
            let mut got: Vec<Solution> = exact_covers(&items, &options)
                .into_iter()
                .map(|set| {
                    let mut s = Solution::default();
                    for k in set {
                        let label = options[k].last().unwrap();
                        let (kind, rest) = label.split_at(1);
                        let (r, c) = rest.split_once('_').unwrap();
                        let cell = (
                            r.parse::<usize>().unwrap() - 1,
                            c.parse::<usize>().unwrap() - 1,
                        );
                        if kind == "v" {
                            s.vertical.push(cell)
                        } else {
                            s.horizontal.push(cell)
                        }
                    }
                    s.vertical.sort();
                    s.horizontal.sort();
                    s
                })
                .collect();
            got.sort();
            assert_eq!(
                got, case.expected,
                "{:?} {families:?}\n{text}",
                case.instance
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}
