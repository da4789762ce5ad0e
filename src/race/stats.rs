//! The aggregates of the paper's protocol: per-instance medians, then the median and
//! the nearest-rank 95th percentile across instances, capped runs left out.

/// The median; for an even count, the mean of the two middle values. `None` when empty.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => None,
        n if n % 2 == 1 => Some(v[n / 2]),
        n => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// The nearest-rank percentile: the smallest value with at least `p` percent of the
/// values at or below it. `None` when empty.
pub fn nearest_rank(values: &[f64], p: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v: Vec<f64> = values.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * v.len() as f64).ceil().max(1.0) as usize;
    Some(v[rank.min(v.len()) - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0]), Some(3.0));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn nearest_rank_percentiles() {
        assert_eq!(nearest_rank(&[], 95.0), None);
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        // ceil(0.95 * 20) = 19th value.
        assert_eq!(nearest_rank(&v, 95.0), Some(19.0));
        let v: Vec<f64> = (1..=60).map(f64::from).collect();
        assert_eq!(nearest_rank(&v, 95.0), Some(57.0));
        assert_eq!(nearest_rank(&[7.0, 1.0, 3.0], 95.0), Some(7.0));
        assert_eq!(nearest_rank(&[2.0], 95.0), Some(2.0));
        assert_eq!(nearest_rank(&[1.0, 2.0], 50.0), Some(1.0));
    }
}
