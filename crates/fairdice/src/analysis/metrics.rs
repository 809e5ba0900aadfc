//! The measures themselves: entropy fraction of a distribution, outcome variance
//! from count moments, and the per-step [`Curves`] every method produces.

pub use crate::entropy::entropy_fraction;

/// The population variance of `n` counts that sum to `total`, from the sum of their
/// squares: `Σc²/n − (total/n)²`.
pub fn variance_from_squares(sum_of_squares: f64, total: f64, n: usize) -> f64 {
    let n = n as f64;
    let mean = total / n;
    sum_of_squares / n - mean * mean
}

/// The population variance (divide by `n`) of a count vector.
pub fn population_variance(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let squares: f64 = counts.iter().map(|&c| (c as f64) * (c as f64)).sum();
    variance_from_squares(squares, total as f64, counts.len())
}

/// Expected per-step measures of a randomizer over its first `T` samples.
///
/// Index `t − 1` holds step `t` (1-based): `entropy[t − 1]` is the expected entropy
/// fraction of the next-sample distribution *before* sample `t`;
/// `outcome_variance[t − 1]` the expected population variance of the outcome
/// counts *after* sample `t`; `repeat[t − 1]` the probability that sample `t`
/// equals sample `t − 1` (0 for `t = 1`); `base_deviation[t − 1]` the expected
/// [base deviation](super::base_deviation) of the counts *after* sample `t`.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Curves {
    /// Expected entropy fraction before each sample.
    pub entropy: Vec<f64>,
    /// Expected outcome variance after each sample.
    pub outcome_variance: Vec<f64>,
    /// Probability that each sample repeats the one before.
    pub repeat: Vec<f64>,
    /// Expected deviation of the counts from the base after each sample (the
    /// normalized chi-square: 1 for plain dice).
    #[cfg_attr(feature = "serde", serde(default))]
    pub base_deviation: Vec<f64>,
    /// Standard errors of the curves (Monte Carlo only).
    pub errors: Option<CurveErrors>,
}

/// Standard errors of a Monte Carlo [`Curves`], entry by entry, plus those of the
/// whole-match mean entropy for each match length.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CurveErrors {
    /// Standard error of each `entropy` entry.
    pub entropy: Vec<f64>,
    /// Standard error of each `outcome_variance` entry.
    pub outcome_variance: Vec<f64>,
    /// Standard error of each `repeat` entry.
    pub repeat: Vec<f64>,
    /// Standard error of each `base_deviation` entry.
    #[cfg_attr(feature = "serde", serde(default))]
    pub base_deviation: Vec<f64>,
    /// Standard error of the mean entropy over the first `T` steps, index `T − 1`
    /// (the per-run means are correlated across steps, so this is measured, not
    /// derived from `entropy`).
    pub mean_entropy: Vec<f64>,
}

impl Curves {
    /// The number of steps covered.
    pub fn len(&self) -> usize {
        self.entropy.len()
    }

    /// True when no step is covered.
    pub fn is_empty(&self) -> bool {
        self.entropy.is_empty()
    }

    /// The mean entropy over a match of `samples` steps: the average of the first
    /// `samples` entropy entries. `samples` must be in `1..=len`.
    pub fn mean_entropy(&self, samples: usize) -> f64 {
        let steps = &self.entropy[..samples];
        steps.iter().sum::<f64>() / samples as f64
    }

    /// The expected outcome variance after `samples` samples (`1..=len`).
    pub fn outcome_variance(&self, samples: usize) -> f64 {
        self.outcome_variance[samples - 1]
    }

    /// The expected base deviation after `samples` samples (`1..=len`).
    pub fn base_deviation(&self, samples: usize) -> f64 {
        self.base_deviation[samples - 1]
    }

    /// The immediate-repeat rate of a match of `samples` samples: the expected
    /// fraction of samples 2..=`samples` that equal the sample before (0 for one
    /// sample).
    pub fn repeat_rate(&self, samples: usize) -> f64 {
        if samples < 2 {
            return 0.0;
        }
        self.repeat[1..samples].iter().sum::<f64>() / (samples - 1) as f64
    }

    /// Only the first `samples` steps.
    pub fn truncated(&self, samples: usize) -> Curves {
        let cut = |v: &Vec<f64>| v[..samples.min(v.len())].to_vec();
        Curves {
            entropy: cut(&self.entropy),
            outcome_variance: cut(&self.outcome_variance),
            repeat: cut(&self.repeat),
            base_deviation: cut(&self.base_deviation),
            errors: self.errors.as_ref().map(|e| CurveErrors {
                entropy: cut(&e.entropy),
                outcome_variance: cut(&e.outcome_variance),
                repeat: cut(&e.repeat),
                base_deviation: cut(&e.base_deviation),
                mean_entropy: cut(&e.mean_entropy),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entropy_fraction_bounds() {
        assert!((entropy_fraction(&[0.25; 4]) - 1.0).abs() < 1e-15);
        assert_eq!(entropy_fraction(&[0.0, 1.0, 0.0]), 0.0);
        assert_eq!(entropy_fraction(&[1.0]), 1.0);
        // Two of four outcomes left, equally likely: ln 2 / ln 4 = 1/2.
        assert!((entropy_fraction(&[0.5, 0.0, 0.5, 0.0]) - 0.5).abs() < 1e-15);
    }

    #[test]
    fn population_variance_divides_by_n() {
        assert_eq!(population_variance(&[1, 1, 1]), 0.0);
        // Counts 0 and 2: mean 1, squared deviations 1 and 1, divided by 2.
        assert_eq!(population_variance(&[0, 2]), 1.0);
        // Counts summing to 25: Σc² = 111, so 111/6 − (25/6)² = 41/36.
        assert!((population_variance(&[5, 3, 4, 4, 6, 3]) - 41.0 / 36.0).abs() < 1e-12);
    }

    #[test]
    fn match_summaries() {
        let curves = Curves {
            entropy: vec![1.0, 0.5, 0.0],
            outcome_variance: vec![0.25, 0.0, 0.5],
            repeat: vec![0.0, 0.5, 0.25],
            base_deviation: vec![1.0, 0.0, 0.5],
            errors: None,
        };
        assert_eq!(curves.mean_entropy(2), 0.75);
        assert_eq!(curves.outcome_variance(3), 0.5);
        assert_eq!(curves.base_deviation(1), 1.0);
        assert_eq!(curves.repeat_rate(3), 0.375);
        assert_eq!(curves.repeat_rate(1), 0.0);
        assert_eq!(curves.truncated(2).entropy, [1.0, 0.5]);
    }
}
