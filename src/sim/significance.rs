//! The statistics behind a balance report's honesty: 95% Wilson intervals
//! for rates, two-sided z-tests for differences between variants, and the
//! Holm–Bonferroni correction when several variants are compared with one
//! base.
//!
//! Wilson rather than the textbook `p ± 1.96·sqrt(p(1-p)/n)` interval:
//! it stays inside [0, 1] and is honest for rates near 0 or 1 (a rule that
//! fired in 3 games of 10,000), where the textbook interval collapses.

use serde::{Deserialize, Serialize};

/// The 97.5th percentile of the standard normal: a 95% two-sided interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A share of games with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    pub count: u64,
    pub of: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    /// `count` games out of `of`; a rate of nothing is 0 in [0, 1].
    pub fn new(count: u64, of: u64) -> Rate {
        let (low, high) = wilson(count, of);
        Rate {
            count,
            of,
            rate: if of == 0 {
                0.0
            } else {
                count as f64 / of as f64
            },
            low,
            high,
        }
    }
}

/// The 95% Wilson score interval of `count` successes in `n` trials.
pub fn wilson(count: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z2) = (n as f64, count as f64 / n as f64, Z95 * Z95);
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At the ends the interval's end is the end itself, not a rounding
    // error away from it.
    let low = if count == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if count as f64 == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// Two-sided p-value of the pooled two-proportion z-test: do `a` and `b`
/// come from the same rate? 1 when the test has nothing to go on (no
/// games, or both rates 0 or both 1).
pub fn two_proportion_p(a: &Rate, b: &Rate) -> f64 {
    if a.of == 0 || b.of == 0 {
        return 1.0;
    }
    let pooled = (a.count + b.count) as f64 / (a.of + b.of) as f64;
    let se = (pooled * (1.0 - pooled) * (1.0 / a.of as f64 + 1.0 / b.of as f64)).sqrt();
    if se == 0.0 {
        return 1.0;
    }
    two_sided((a.rate - b.rate) / se)
}

/// A sample's mean, variance and size, for comparing means.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    pub mean: f64,
    pub variance: f64,
    pub n: u64,
}

impl Sample {
    pub fn of(values: impl Iterator<Item = f64> + Clone) -> Sample {
        let n = values.clone().count() as u64;
        if n == 0 {
            return Sample {
                mean: 0.0,
                variance: 0.0,
                n,
            };
        }
        let mean = values.clone().sum::<f64>() / n as f64;
        let squares: f64 = values.map(|v| (v - mean).powi(2)).sum();
        Sample {
            mean,
            variance: if n > 1 { squares / (n - 1) as f64 } else { 0.0 },
            n,
        }
    }
}

/// Two-sided p-value of the two-sample (Welch) z-test on means: with
/// thousands of games a side the t distribution is the normal one.
pub fn two_means_p(a: &Sample, b: &Sample) -> f64 {
    if a.n == 0 || b.n == 0 {
        return 1.0;
    }
    let se = (a.variance / a.n as f64 + b.variance / b.n as f64).sqrt();
    if se == 0.0 {
        return if a.mean == b.mean { 1.0 } else { 0.0 };
    }
    two_sided((a.mean - b.mean) / se)
}

/// Holm–Bonferroni adjusted p-values, in the order given: the smallest of
/// m p-values is multiplied by m, the next by m-1, and so on, each kept at
/// least as large as the one before and at most 1. Rejecting where the
/// adjusted value is below α keeps the chance of any false alarm among
/// the m comparisons below α.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![0.0; m];
    let mut running = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// P(|Z| >= |z|) for a standard normal Z.
fn two_sided(z: f64) -> f64 {
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// The complementary error function, to about 1e-7 relative error
/// (Numerical Recipes' Chebyshev fit): plenty for a p-value.
fn erfc(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() < tolerance
    }

    #[test]
    fn wilson_intervals_match_published_values() {
        // 81 of 263 (Wilson 1927 as tabulated by Newcombe 1998): 0.2553–0.3662.
        let (low, high) = wilson(81, 263);
        assert!(
            close(low, 0.2553, 5e-4) && close(high, 0.3662, 5e-4),
            "{low} {high}"
        );
        // 0 of 10: [0, 0.2775].
        let (low, high) = wilson(0, 10);
        assert_eq!(low, 0.0);
        assert!(close(high, 0.2775, 5e-4), "{high}");
        // 10 of 10 mirrors it.
        let (low, high) = wilson(10, 10);
        assert!(close(low, 0.7225, 5e-4) && close(high, 1.0, 1e-12));
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn the_normal_tail_is_right() {
        assert!(close(two_sided(1.959_964), 0.05, 1e-6));
        assert!(close(two_sided(0.0), 1.0, 1e-6));
        assert!(close(two_sided(-2.575_829), 0.01, 1e-6));
        assert!(close(two_sided(3.290_527), 0.001, 1e-6));
    }

    #[test]
    fn two_proportion_test_of_a_known_case() {
        // 45/100 against 60/100: pooled 0.525, z = -2.1239, p = 0.0337.
        let p = two_proportion_p(&Rate::new(45, 100), &Rate::new(60, 100));
        assert!(close(p, 0.0337, 1e-4), "{p}");
        assert_eq!(two_proportion_p(&Rate::new(0, 50), &Rate::new(0, 70)), 1.0);
        assert_eq!(two_proportion_p(&Rate::new(3, 0), &Rate::new(0, 70)), 1.0);
    }

    #[test]
    fn two_means_test_of_a_known_case() {
        let a = Sample::of([1.0, 2.0, 3.0, 4.0, 5.0].into_iter());
        assert_eq!((a.mean, a.variance, a.n), (3.0, 2.5, 5));
        // Means 3 and 5, variances 2.5 each, n = 5: z = 2 / 1 = 2, p = 0.0455.
        let b = Sample { mean: 5.0, ..a };
        assert!(close(two_means_p(&a, &b), 0.0455, 1e-4));
        assert_eq!(two_means_p(&a, &a), 1.0);
    }

    #[test]
    fn holm_adjusts_in_order_and_stays_monotone() {
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.005]);
        // Sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 -> 0.06.
        let expected = [0.03, 0.06, 0.06, 0.02];
        for (a, e) in adjusted.iter().zip(expected) {
            assert!(close(*a, e, 1e-12), "{adjusted:?}");
        }
        assert_eq!(holm(&[0.9, 0.8]), vec![1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }
}
