//! Fairness against the base distribution: how far the outcome counts of a match
//! stray from what the base promises, `p_i·T`, for weighted bases (2d6 sums,
//! custom tables) as well as uniform ones.
//!
//! The article's outcome variance expects every outcome equally often, which a
//! 2d6 base never should; this measure is reported beside it (which stays as
//! defined). Over a match of `T` samples, with `c_i` the count of outcome `i`:
//! - **base deviation**: `E[Σ_i (c_i − p_i·T)² / (p_i·T)] / (k − 1)`, the expected
//!   chi-square statistic of the counts against the base over its value for
//!   independent draws (`k` outcomes with `p_i > 0`): 1 = as scattered as plain
//!   dice, 0 = every outcome exactly `p_i·T` times;
//! - **per outcome**: `E[(c_i − p_i·T)²] / (T·p_i·(1 − p_i))`, 1 for plain dice.

use crate::randomizer::Randomizer;

/// The counts' deviation from the base after the last sample.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BaseDeviation {
    /// The expected chi-square statistic over `k − 1` (1 = plain dice).
    pub normalized: f64,
    /// Per outcome, the expected squared deviation over the binomial variance.
    pub per_outcome: Vec<f64>,
    /// Standard errors of `normalized` and of each `per_outcome` entry (Monte
    /// Carlo only).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub errors: Option<(f64, Vec<f64>)>,
}

/// The base's probabilities of `randomizer`'s outcomes: its
/// [`base_distribution`](Randomizer::base_distribution).
pub fn base_probabilities<R: Randomizer + ?Sized>(randomizer: &R) -> Vec<f64> {
    randomizer.base_distribution()
}

/// `T·p·(1 − p)`, the binomial variance, or `None` when it is 0.
fn binomial(samples: usize, p: f64) -> Option<f64> {
    let v = samples as f64 * p * (1.0 - p);
    (v > 0.0).then_some(v)
}

/// The deviation from `E[c_i]` (`first`) and `E[c_i²]` (`second`).
pub(crate) fn from_moments(
    base: &[f64],
    samples: usize,
    first: &[f64],
    second: &[f64],
) -> BaseDeviation {
    let t = samples as f64;
    let squared: Vec<f64> = base
        .iter()
        .zip(first.iter().zip(second))
        .map(|(&p, (&m, &s))| (s - 2.0 * p * t * m + (p * t) * (p * t)).max(0.0))
        .collect();
    summarize(base, samples, &squared)
}

/// The deviation of a randomizer with a uniform base over `n` outcomes that
/// treats them alike: every outcome's expected squared deviation is the expected
/// outcome variance.
pub(crate) fn from_outcome_variance(n: usize, samples: usize, variance: f64) -> BaseDeviation {
    let base = vec![1.0 / n.max(1) as f64; n];
    summarize(&base, samples, &vec![variance; n])
}

/// The deviation from each outcome's expected squared deviation `squared[i]`.
pub(crate) fn summarize(base: &[f64], samples: usize, squared: &[f64]) -> BaseDeviation {
    let (per_outcome, normalized) = scale(base, samples, squared);
    BaseDeviation {
        normalized,
        per_outcome,
        errors: None,
    }
}

/// Per outcome `squared[i] / (T·p_i·(1 − p_i))`, and `Σ squared[i] / (T·p_i)`
/// over `k − 1`: one run's values (from its squared deviations) or their
/// expectations.
pub(crate) fn scale(base: &[f64], samples: usize, squared: &[f64]) -> (Vec<f64>, f64) {
    let t = samples as f64;
    let per_outcome = base
        .iter()
        .zip(squared)
        .map(|(&p, &d)| binomial(samples, p).map_or(0.0, |v| d / v))
        .collect();
    let possible = base.iter().filter(|&&p| p > 0.0).count();
    let chi: f64 = base
        .iter()
        .zip(squared)
        .filter(|(p, _)| **p > 0.0)
        .map(|(&p, &d)| d / (t * p))
        .sum();
    let normalized = if possible > 1 {
        chi / (possible - 1) as f64
    } else {
        0.0
    };
    (per_outcome, normalized)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Control;
    use crate::analysis::exact::{self, ExactOptions};
    use crate::analysis::monte_carlo;
    use crate::randomizer::Spec;

    /// How far the sweep may stray from brute force (`f64` rounding).
    const TOLERANCE: f64 = 1e-12;

    /// The deviation straight from every sequence of `samples` outcomes.
    fn brute_force(spec: &str, samples: usize) -> BaseDeviation {
        let r = Spec::build(spec).expect("valid");
        let base = base_probabilities(&r);
        let n = base.len();
        let mut squared = vec![0.0; n];
        let mut stack = vec![(r, 1.0, vec![0u64; n], 0usize)];
        while let Some((r, p, counts, t)) = stack.pop() {
            if t == samples {
                for i in 0..n {
                    let d = counts[i] as f64 - base[i] * samples as f64;
                    squared[i] += p * d * d;
                }
                continue;
            }
            for (i, &q) in r.next_distribution().iter().enumerate() {
                if q > 0.0 {
                    let mut child = r.clone();
                    child.observe(i).expect("possible");
                    let mut c = counts.clone();
                    c[i] += 1;
                    stack.push((child, p * q, c, t + 1));
                }
            }
        }
        summarize(&base, samples, &squared)
    }

    fn swept(spec: &str, samples: usize) -> BaseDeviation {
        let r = Spec::build(spec).expect("valid");
        exact::curves(&r, samples, &ExactOptions::default(), &Control::new())
            .expect("small")
            .base_deviation
    }

    #[test]
    fn the_sweep_agrees_with_every_sequence() {
        for spec in [
            "dice(base=2d2)",
            "deck(base=d{1,2,2}, copies=1, refill_below=2, refill=reshuffle)",
            "fair(base=2d2, tightness=1)",
            "dynamic(base=d{1,1,2}, decrease=0.3)",
            "prd(p=0.3)",
            "deck(values=3, copies=2, refill_below=2)",
            "fair(values=4, tightness=1)",
        ] {
            for samples in [1, 4, 7] {
                let (exact, oracle) = (swept(spec, samples), brute_force(spec, samples));
                assert!(
                    (exact.normalized - oracle.normalized).abs() < TOLERANCE,
                    "{spec} T={samples}: {} vs {}",
                    exact.normalized,
                    oracle.normalized
                );
                for (a, b) in exact.per_outcome.iter().zip(&oracle.per_outcome) {
                    assert!((a - b).abs() < TOLERANCE, "{spec} T={samples}: {a} vs {b}");
                }
            }
        }
    }

    #[test]
    fn plain_2d6_is_one_everywhere_and_the_fair_roller_is_below() {
        let dice = swept("dice(base=2d6)", 60);
        assert!((dice.normalized - 1.0).abs() < 1e-12, "{}", dice.normalized);
        assert!(dice.per_outcome.iter().all(|d| (d - 1.0).abs() < 1e-12));
        let fair = swept("fair(base=2d4, tightness=1)", 12);
        assert!(fair.normalized < 1.0, "{}", fair.normalized);
    }

    #[test]
    fn monte_carlo_agrees_within_its_standard_errors() {
        let r = Spec::build("fair(base=2d4, tightness=1)").expect("valid");
        let exact = swept("fair(base=2d4, tightness=1)", 12);
        let estimate = monte_carlo::estimate(&r, 12, 40_000, 5, false, &Control::new())
            .expect("runs")
            .base_deviation;
        let (error, errors) = estimate.errors.clone().expect("Monte Carlo has errors");
        assert!(
            (exact.normalized - estimate.normalized).abs() < 4.0 * error,
            "{} vs {} ± {error}",
            exact.normalized,
            estimate.normalized
        );
        for ((a, b), e) in exact
            .per_outcome
            .iter()
            .zip(&estimate.per_outcome)
            .zip(&errors)
        {
            assert!((a - b).abs() < 4.0 * e + 1e-12, "{a} vs {b} ± {e}");
        }
    }

    #[test]
    fn the_per_step_curve_ends_at_the_final_figure_and_agrees_between_methods() {
        // A weighted base with an outcome the base never gives (0 for the deck's
        // missing faces is not possible here, so PRD's two weights instead).
        for spec in [
            "fair(base=2d4, tightness=1)",
            "prd(p=0.3)",
            "dice(base=2d6)",
        ] {
            let r = Spec::build(spec).expect("valid");
            let exact =
                exact::curves(&r, 12, &ExactOptions::default(), &Control::new()).expect("small");
            let curve = &exact.curves.base_deviation;
            assert_eq!(curve.len(), 12);
            assert!((curve[11] - exact.base_deviation.normalized).abs() < TOLERANCE);
            for t in [1, 5, 9] {
                assert!(
                    (curve[t - 1] - swept(spec, t).normalized).abs() < TOLERANCE,
                    "{spec} t={t}"
                );
            }
            let estimate =
                monte_carlo::estimate(&r, 12, 20_000, 9, false, &Control::new()).expect("runs");
            let errors = &estimate
                .curves
                .errors
                .as_ref()
                .expect("errors")
                .base_deviation;
            let mc = &estimate.curves.base_deviation;
            assert!(
                (mc[11] - estimate.base_deviation.normalized).abs() < 1e-9,
                "{spec}: the running statistic and the final one differ"
            );
            for t in 0..12 {
                assert!(
                    (mc[t] - curve[t]).abs() < 4.0 * errors[t] + 1e-12,
                    "{spec} t={}: {} vs {} ± {}",
                    t + 1,
                    mc[t],
                    curve[t],
                    errors[t]
                );
            }
        }
    }
}
