//! [`MatchLength`]: how many samples a match takes, fixed or uncertain.
//!
//! The article tunes for one match length and then notes that real matches vary;
//! a tuner that knows the distribution of lengths optimizes for it directly. With
//! `T` drawn from the distribution `w`, independently of the draws:
//! - the **expected mean entropy** is `Σ_T w_T · (1/T) Σ_{t ≤ T} e_t`, the mean
//!   entropy of a match averaged over match lengths (`e_t` is the expected entropy
//!   fraction before sample `t`);
//! - the **expected outcome variance** is `Σ_T w_T · v_T`, the outcome variance at
//!   the match's (random) end.
//!
//! One sweep to the longest length yields every shorter one, so an uncertain length
//! costs no more than its maximum.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::analysis::{Curves, MAX_SAMPLES};

/// Why a match length could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MatchLengthError {
    /// Not one of the accepted forms.
    #[error(
        "`{0}` is not a match length; accepted: 25 (fixed), 20..40 (uniform, inclusive), 20:1,30:2,40:1 (samples:weight)"
    )]
    Syntax(String),
    /// A length outside `1..=MAX_SAMPLES`.
    #[error("a match length must be in 1..={max}, got {0}", max = MAX_SAMPLES)]
    OutOfRange(u64),
    /// `a..b` with `b < a`.
    #[error("the range {0}..{1} is empty; write the shorter length first")]
    EmptyRange(u64, u64),
    /// A weight that is negative, not finite, or all weights zero.
    #[error("weights must be finite, non-negative and not all zero; got `{0}`")]
    Weight(String),
    /// The same length twice in a weighted list.
    #[error("the length {0} appears twice in the weighted list")]
    Duplicate(u64),
}

crate::control::invalid_input!(MatchLengthError);

/// A distribution of match lengths (numbers of samples), with weights summing to 1.
///
/// # Example
/// ```
/// use fairdice::tune::MatchLength;
///
/// let fixed: MatchLength = "25".parse()?;
/// assert_eq!(fixed.max(), 25);
/// let uniform: MatchLength = "20..40".parse()?;
/// assert_eq!(uniform.lengths().len(), 21);
/// let weighted: MatchLength = "20:1, 30:2, 40:1".parse()?;
/// assert_eq!(weighted.lengths()[1], (30, 0.5));
/// # Ok::<(), fairdice::tune::MatchLengthError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MatchLength {
    /// `(samples, weight)`, ascending by samples, weights summing to 1.
    lengths: Vec<(usize, f64)>,
    form: Form,
}

#[derive(Debug, Clone, PartialEq)]
enum Form {
    Fixed,
    Uniform,
    Weighted,
}

fn check_length(t: u64) -> Result<usize, MatchLengthError> {
    if t == 0 || t > MAX_SAMPLES as u64 {
        return Err(MatchLengthError::OutOfRange(t));
    }
    Ok(t as usize)
}

impl MatchLength {
    /// Always `samples` samples.
    ///
    /// # Errors
    /// [`MatchLengthError::OutOfRange`] outside `1..=MAX_SAMPLES`.
    pub fn fixed(samples: u64) -> Result<MatchLength, MatchLengthError> {
        Ok(MatchLength {
            lengths: vec![(check_length(samples)?, 1.0)],
            form: Form::Fixed,
        })
    }

    /// Uniformly `low..=high` samples.
    ///
    /// # Errors
    /// [`MatchLengthError::OutOfRange`], [`MatchLengthError::EmptyRange`].
    pub fn uniform(low: u64, high: u64) -> Result<MatchLength, MatchLengthError> {
        check_length(low)?;
        check_length(high)?;
        if high < low {
            return Err(MatchLengthError::EmptyRange(low, high));
        }
        let weight = 1.0 / (high - low + 1) as f64;
        Ok(MatchLength {
            lengths: (low..=high).map(|t| (t as usize, weight)).collect(),
            form: Form::Uniform,
        })
    }

    /// The given lengths with relative weights (normalized here).
    ///
    /// # Errors
    /// [`MatchLengthError`] for a bad length, a bad weight or a repeated length.
    pub fn weighted(pairs: &[(u64, f64)]) -> Result<MatchLength, MatchLengthError> {
        let mut lengths = Vec::with_capacity(pairs.len());
        for &(t, w) in pairs {
            if !(w.is_finite() && w >= 0.0) {
                return Err(MatchLengthError::Weight(w.to_string()));
            }
            lengths.push((check_length(t)?, w));
        }
        lengths.sort_by_key(|&(t, _)| t);
        if let Some(pair) = lengths.windows(2).find(|p| p[0].0 == p[1].0) {
            return Err(MatchLengthError::Duplicate(pair[0].0 as u64));
        }
        let total: f64 = lengths.iter().map(|&(_, w)| w).sum();
        if total <= 0.0 {
            return Err(MatchLengthError::Weight("all zero".to_string()));
        }
        for (_, w) in &mut lengths {
            *w /= total;
        }
        Ok(MatchLength {
            lengths,
            form: Form::Weighted,
        })
    }

    /// `(samples, probability)` pairs, ascending.
    pub fn lengths(&self) -> &[(usize, f64)] {
        &self.lengths
    }

    /// The longest match.
    pub fn max(&self) -> usize {
        self.lengths.last().map_or(1, |&(t, _)| t)
    }

    /// True when the length is certain.
    pub fn is_fixed(&self) -> bool {
        self.lengths.len() == 1
    }

    /// The expected mean entropy over a match (see the module docs). `curves` must
    /// cover [`max`](Self::max) steps.
    pub fn mean_entropy(&self, curves: &Curves) -> f64 {
        self.expect(|t| curves.mean_entropy(t))
    }

    /// The expected outcome variance at the end of a match.
    pub fn outcome_variance(&self, curves: &Curves) -> f64 {
        self.expect(|t| curves.outcome_variance(t))
    }

    /// `Σ_T w_T · f(T)`.
    pub fn expect(&self, f: impl Fn(usize) -> f64) -> f64 {
        self.lengths.iter().map(|&(t, w)| w * f(t)).sum()
    }
}

impl FromStr for MatchLength {
    type Err = MatchLengthError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let syntax = || MatchLengthError::Syntax(text.to_string());
        let number = |s: &str| s.trim().parse::<u64>().map_err(|_| syntax());
        let text_trimmed = text.trim();
        if let Some((low, high)) = text_trimmed.split_once("..") {
            let high = high.strip_prefix('=').unwrap_or(high);
            return MatchLength::uniform(number(low)?, number(high)?);
        }
        if text_trimmed.contains(':') {
            let mut pairs = Vec::new();
            for item in text_trimmed.split(',') {
                let (t, w) = item.split_once(':').ok_or_else(syntax)?;
                let weight: f64 = w
                    .trim()
                    .parse()
                    .map_err(|_| MatchLengthError::Weight(w.trim().to_string()))?;
                pairs.push((number(t)?, weight));
            }
            return MatchLength::weighted(&pairs);
        }
        MatchLength::fixed(number(text_trimmed)?)
    }
}

impl fmt::Display for MatchLength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.form {
            Form::Fixed => write!(f, "{}", self.max()),
            Form::Uniform => write!(f, "{}..{}", self.lengths[0].0, self.max()),
            Form::Weighted => {
                let items: Vec<String> = self
                    .lengths
                    .iter()
                    .map(|(t, w)| format!("{t}:{}", (w * 1e12).round() / 1e12))
                    .collect();
                f.write_str(&items.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> Curves {
        Curves {
            entropy: vec![1.0, 0.5, 0.0, 1.0],
            outcome_variance: vec![0.1, 0.2, 0.3, 0.4],
            repeat: vec![0.0; 4],
            base_deviation: vec![1.0; 4],
            errors: None,
        }
    }

    #[test]
    fn fixed_length_is_the_plain_definition() {
        let m: MatchLength = "3".parse().expect("valid");
        assert_eq!(m.mean_entropy(&toy()), 0.5);
        assert_eq!(m.outcome_variance(&toy()), 0.3);
    }

    #[test]
    fn uncertain_length_averages_per_match() {
        // T = 2 or 4 equally likely: mean entropies 0.75 and 0.625; variances 0.2, 0.4.
        let m: MatchLength = "2:1,4:1".parse().expect("valid");
        assert!((m.mean_entropy(&toy()) - 0.6875).abs() < 1e-15);
        assert!((m.outcome_variance(&toy()) - 0.3).abs() < 1e-15);
        // Uniform 1..=4: mean entropies 1, 0.75, 0.5, 0.625.
        let u: MatchLength = "1..4".parse().expect("valid");
        assert!((u.mean_entropy(&toy()) - 2.875 / 4.0).abs() < 1e-15);
        assert_eq!(u.to_string(), "1..4");
    }

    #[test]
    fn rejects_bad_lengths_with_the_accepted_forms() {
        for bad in ["", "x", "0", "5..3", "3:-1", "3:1,3:2", "2:0"] {
            let error = bad.parse::<MatchLength>().expect_err(bad);
            assert!(!error.to_string().is_empty());
        }
        let error = "x".parse::<MatchLength>().expect_err("syntax");
        assert!(error.to_string().contains("20..40"), "{error}");
        assert_eq!(
            "10..10".parse::<MatchLength>().map(|m| m.is_fixed()),
            Ok(true)
        );
    }
}
