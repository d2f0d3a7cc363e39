//! Score statistics for balance reports: mean, spread, percentiles and a
//! histogram of many games' scores.

use crate::sim::significance::Sample;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreStats {
    pub count: usize,
    pub mean: f64,
    pub std_dev: f64,
    pub min: i64,
    pub max: i64,
    /// (percent, score): the lowest score at or below which at least that
    /// share of games fell (the nearest-rank percentile).
    pub percentiles: Vec<(u8, i64)>,
    /// (lowest score of the bucket, games), non-empty buckets only, all of
    /// the width [`ScoreStats::bucket_width`] gives.
    pub histogram: Vec<(i64, u64)>,
}

const PERCENTS: [u8; 7] = [1, 5, 25, 50, 75, 95, 99];
const BUCKETS: i64 = 20;

/// The width of the histogram's buckets for scores from `min` to `max`
/// (in 128 bits: the spread of two 64-bit scores may not fit in 64).
fn bucket_width(min: i64, max: i64) -> i128 {
    ((i128::from(max) - i128::from(min)) / i128::from(BUCKETS) + 1).max(1)
}

impl ScoreStats {
    /// The width of one histogram bucket, in points of score.
    pub fn bucket_width(&self) -> f64 {
        bucket_width(self.min, self.max) as f64
    }

    /// Statistics of a non-empty list of scores.
    pub fn new(mut scores: Vec<i64>) -> Option<ScoreStats> {
        if scores.is_empty() {
            return None;
        }
        scores.sort_unstable();
        let n = scores.len();
        let mean = scores.iter().map(|&s| s as f64).sum::<f64>() / n as f64;
        let var = scores
            .iter()
            .map(|&s| (s as f64 - mean).powi(2))
            .sum::<f64>()
            / n as f64;
        let (min, max) = (scores[0], scores[n - 1]);
        let percentiles = PERCENTS
            .iter()
            .map(|&p| (p, scores[(n * usize::from(p)).div_ceil(100).max(1) - 1]))
            .collect();
        let width = bucket_width(min, max);
        let mut histogram: Vec<(i64, u64)> = Vec::new();
        for &s in &scores {
            let offset = (i128::from(s) - i128::from(min)) / width * width;
            let low = (i128::from(min) + offset) as i64; // between min and s
            match histogram.last_mut() {
                Some((l, c)) if *l == low => *c += 1,
                _ => histogram.push((low, 1)),
            }
        }
        Some(ScoreStats {
            count: n,
            mean,
            std_dev: var.sqrt(),
            min,
            max,
            percentiles,
            histogram,
        })
    }

    /// Mean, (sample) variance and count, for comparing variants.
    pub fn sample(&self) -> Sample {
        let n = self.count as f64;
        Sample {
            mean: self.mean,
            variance: if self.count > 1 {
                self.std_dev.powi(2) * n / (n - 1.0)
            } else {
                0.0
            },
            n: self.count as u64,
        }
    }

    /// The histogram as text bars, for the table report.
    pub fn histogram_text(&self, width: usize) -> String {
        let top = self.histogram.iter().map(|(_, c)| *c).max().unwrap_or(1);
        // Not the distance between the first two buckets: empty buckets
        // are left out, so that distance may be several widths.
        let step = i64::try_from(bucket_width(self.min, self.max)).unwrap_or(i64::MAX);
        self.histogram
            .iter()
            .map(|(low, c)| {
                let bar = "#".repeat(((*c as f64 / top as f64) * width as f64).ceil() as usize);
                let high = low.saturating_add(step).saturating_sub(1);
                format!("  {low:>6}..{high:<6} {c:>8} {bar}\n")
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_of_known_scores() {
        let s = ScoreStats::new(vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10]).unwrap();
        assert_eq!(s.mean, 5.5);
        assert!((s.std_dev - 2.8722).abs() < 1e-3);
        assert_eq!((s.min, s.max), (1, 10));
        assert_eq!(s.percentiles[3], (50, 5));
        assert_eq!(s.histogram.iter().map(|(_, c)| c).sum::<u64>(), 10);
        assert!(ScoreStats::new(vec![]).is_none());
    }

    #[test]
    fn a_high_percentile_of_few_games_reaches_the_top_score() {
        let s = ScoreStats::new(vec![-26, 3, 31, 41]).unwrap();
        let at = |p: u8| s.percentiles.iter().find(|(q, _)| *q == p).unwrap().1;
        assert_eq!(
            (at(1), at(25), at(50), at(75), at(95)),
            (-26, -26, 3, 31, 41)
        );
    }

    #[test]
    fn histogram_buckets_do_not_overlap_when_some_are_empty() {
        // Width 4 (spread 67 over 20 buckets): the buckets hold -26, 3, 31
        // and 41, with empty buckets between them.
        let s = ScoreStats::new(vec![-26, 3, 31, 41]).unwrap();
        let text = s.histogram_text(10);
        let ranges: Vec<(i64, i64)> = text
            .lines()
            .map(|l| {
                let range = l.split_whitespace().next().unwrap();
                let (a, b) = range.split_once("..").unwrap();
                (a.parse().unwrap(), b.parse().unwrap())
            })
            .collect();
        assert_eq!(ranges, vec![(-26, -23), (2, 5), (30, 33), (38, 41)]);
    }
}
