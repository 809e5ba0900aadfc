//! [`Base`]: the outcomes a randomizer draws from and their base weights.
//!
//! A base is either the faces `1..=n` of a fair die (`values=N`) or the exact
//! distribution of a dice expression (`base=2d6`: outcomes 2..=12 with counts
//! 1, 2, …, 6, …, 1 out of 36).

use num_traits::ToPrimitive;
use thiserror::Error;

use crate::control::{Control, Failure, FailureKind};
use crate::dice::die::{Die, Outcome};
use crate::dice::notation::{self, NotationError, Options};

/// The most outcomes a randomizer may have (a randomizer keeps per-outcome state).
pub const MAX_OUTCOMES: usize = 1 << 20;

/// The longest dice expression a base takes, in bytes (it is part of the spec a
/// session saves, which must stay within [`MAX_SPEC_BYTES`](super::MAX_SPEC_BYTES)).
pub const MAX_EXPRESSION_BYTES: usize = 2048;

/// Why a base could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BaseError {
    /// `values=0`.
    #[error("values must be at least 1 (the faces 1..=values), got 0")]
    NoValues,
    /// More outcomes than a randomizer keeps state for.
    #[error("{found} outcomes is more than the {max} a randomizer accepts")]
    TooManyOutcomes {
        /// Number of outcomes asked for.
        found: u128,
        /// The limit, [`MAX_OUTCOMES`].
        max: usize,
    },
    /// The dice expression is longer than [`MAX_EXPRESSION_BYTES`].
    #[error("base= is {found} bytes long; accepted: at most {MAX_EXPRESSION_BYTES} bytes")]
    ExpressionTooLong {
        /// Its length in bytes.
        found: usize,
    },
    /// The dice expression could not be evaluated.
    #[error("base={text} is not a dice expression the evaluator accepts: {message}")]
    Expression {
        /// The expression text.
        text: String,
        /// The evaluator's message.
        message: String,
    },
    /// The dice expression is too large to evaluate within the budget, or its
    /// evaluation was cancelled.
    #[error("base={text}: {message}")]
    Stopped {
        /// The expression text.
        text: String,
        /// The evaluator's message (its estimate, or why it stopped).
        message: String,
        /// Too large, or cancelled.
        kind: FailureKind,
    },
}

impl Failure for BaseError {
    fn kind(&self) -> FailureKind {
        match self {
            BaseError::Stopped { kind, .. } => *kind,
            _ => FailureKind::Invalid,
        }
    }
}

/// Where a base came from, so a spec can be written back.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Source {
    /// The faces `1..=n`.
    Values(u64),
    /// A dice expression, as written.
    Expression(String),
    /// The consecutive outcomes `low..=high`, fair (a dice bag, tetrominoes).
    Range(Outcome, Outcome),
}

/// Outcomes in ascending order with positive base weights.
///
/// # Example
/// ```
/// use fairdice::randomizer::Base;
///
/// let two_d6 = Base::expression("2d6")?;
/// assert_eq!(two_d6.outcomes().first(), Some(&2));
/// assert_eq!(two_d6.counts(), Some(&[1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1][..]));
/// assert!(!two_d6.is_uniform());
/// assert!(Base::values(6)?.is_uniform());
/// # Ok::<(), fairdice::randomizer::BaseError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Base {
    source: Source,
    // Boxed slices: a base is part of most randomizers, which an
    // `AnyRandomizer` holds inline.
    outcomes: Box<[Outcome]>,
    counts: Option<Box<[u64]>>,
    probabilities: Box<[f64]>,
    /// `ln p_i` (0 where `p_i = 0`): closed-form entropies of weights `p_i · r_i`.
    log_probabilities: Box<[f64]>,
    uniform: bool,
}

impl Base {
    /// The faces `1..=n` of a fair die.
    ///
    /// # Errors
    /// [`BaseError::NoValues`] for `n = 0`; [`BaseError::TooManyOutcomes`] past
    /// [`MAX_OUTCOMES`].
    pub fn values(n: u64) -> Result<Base, BaseError> {
        if n == 0 {
            return Err(BaseError::NoValues);
        }
        check_len(u128::from(n))?;
        Ok(Base::uniform(
            Source::Values(n),
            (1..=n as Outcome).collect(),
        ))
    }

    /// The consecutive outcomes `low..=high`, each equally likely (`low <= high`).
    ///
    /// # Errors
    /// [`BaseError::NoValues`] if `low > high`; [`BaseError::TooManyOutcomes`] past
    /// [`MAX_OUTCOMES`].
    pub fn range(low: Outcome, high: Outcome) -> Result<Base, BaseError> {
        if low > high {
            return Err(BaseError::NoValues);
        }
        check_len((i128::from(high) - i128::from(low) + 1) as u128)?;
        Ok(Base::uniform(
            Source::Range(low, high),
            (low..=high).collect(),
        ))
    }

    /// The exact distribution of a dice expression (`2d6`, `d20`, `3d6+2`).
    ///
    /// # Errors
    /// [`BaseError::ExpressionTooLong`] past [`MAX_EXPRESSION_BYTES`];
    /// [`BaseError::Expression`] if the evaluator rejects it;
    /// [`BaseError::TooManyOutcomes`] past [`MAX_OUTCOMES`].
    pub fn expression(text: &str) -> Result<Base, BaseError> {
        Base::expression_with(text, &Control::new())
    }

    /// [`Base::expression`] evaluated under `control`'s budget and cancel switch.
    ///
    /// # Errors
    /// As [`Base::expression`]; [`BaseError::Stopped`] when the expression is too
    /// large for the budget or the control cancels it.
    pub fn expression_with(text: &str, control: &Control) -> Result<Base, BaseError> {
        check_text(text.trim())?;
        let die = notation::evaluate_with(text, &Options::default(), control).map_err(
            |e: NotationError| match e.kind() {
                FailureKind::Invalid | FailureKind::Internal => BaseError::Expression {
                    text: text.trim().to_string(),
                    message: e.to_string(),
                },
                kind => BaseError::Stopped {
                    text: text.trim().to_string(),
                    message: e.to_string(),
                    kind,
                },
            },
        )?;
        Base::from_die(&die, text.trim())
    }

    /// A base from an already evaluated die; `text` is how a spec names it.
    ///
    /// # Errors
    /// [`BaseError::ExpressionTooLong`] if `text` is longer than
    /// [`MAX_EXPRESSION_BYTES`]; [`BaseError::TooManyOutcomes`] past [`MAX_OUTCOMES`].
    pub fn from_die(die: &Die, text: &str) -> Result<Base, BaseError> {
        check_text(text)?;
        check_len(die.len() as u128)?;
        let counts = die
            .counts_u64()
            .map(<[u64]>::to_vec)
            .or_else(|| reduced_counts(die));
        let uniform = die.iter().all(|(_, c)| c == die.count(die.min_outcome()));
        let probabilities = die.probabilities();
        Ok(Base {
            source: Source::Expression(text.to_string()),
            outcomes: die.outcomes().into(),
            counts: counts.map(Vec::into_boxed_slice),
            log_probabilities: logs(&probabilities),
            probabilities: probabilities.into_boxed_slice(),
            uniform,
        })
    }

    fn uniform(source: Source, outcomes: Vec<Outcome>) -> Base {
        let n = outcomes.len();
        let probabilities = vec![1.0 / n as f64; n];
        Base {
            source,
            counts: Some(vec![1; n].into_boxed_slice()),
            log_probabilities: logs(&probabilities),
            probabilities: probabilities.into_boxed_slice(),
            outcomes: outcomes.into_boxed_slice(),
            uniform: true,
        }
    }

    /// The outcomes, ascending.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// The number of outcomes.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// Always false: a base has at least one outcome.
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// Exact integer weights, if they (and their total) fit a `u64`.
    pub fn counts(&self) -> Option<&[u64]> {
        self.counts.as_deref()
    }

    /// The base probability of each outcome.
    pub fn probabilities(&self) -> &[f64] {
        &self.probabilities
    }

    /// `ln p_i` of each outcome (0 for an outcome that cannot happen).
    pub(crate) fn log_probabilities(&self) -> &[f64] {
        &self.log_probabilities
    }

    /// True when every outcome is equally likely, so outcomes are exchangeable.
    pub fn is_uniform(&self) -> bool {
        self.uniform
    }

    /// How a spec writes this base: `values=6` or `base=2d6`. A range is written
    /// by the randomizer that uses it (`bag(min=…, max=…)`).
    pub fn spec(&self) -> String {
        match &self.source {
            Source::Values(n) => format!("values={n}"),
            Source::Expression(text) => format!("base={text}"),
            Source::Range(low, high) => format!("min={low}, max={high}"),
        }
    }
}

fn check_text(text: &str) -> Result<(), BaseError> {
    if text.len() > MAX_EXPRESSION_BYTES {
        return Err(BaseError::ExpressionTooLong { found: text.len() });
    }
    Ok(())
}

/// The counts of `die` divided by their greatest common divisor, if they and their sum
/// then fit in a `u64`. The divisor is given up on as soon as it is too small for that
/// (`total / gcd` would pass 2^64), which for most large dice is at the first count:
/// the extreme outcomes are usually reached one way only. (A die of 568,000 outcomes
/// whose counts run to 6,800 bits spent minutes on the full divisor before.)
fn reduced_counts(die: &Die) -> Option<Vec<u64>> {
    let too_small = die.total() >> 64u32;
    let mut gcd = num_bigint::BigUint::ZERO;
    for (_, count) in die.iter() {
        gcd = num_integer::Integer::gcd(&gcd, &count);
        if gcd <= too_small {
            return None;
        }
    }
    let counts: Option<Vec<u64>> = die.iter().map(|(_, c)| (c / &gcd).to_u64()).collect();
    counts.filter(|c| c.iter().try_fold(0u64, |a, &b| a.checked_add(b)).is_some())
}

fn check_len(n: u128) -> Result<(), BaseError> {
    if n > MAX_OUTCOMES as u128 {
        return Err(BaseError::TooManyOutcomes {
            found: n,
            max: MAX_OUTCOMES,
        });
    }
    Ok(())
}

/// `ln p` of each probability, 0 where `p = 0` (such an outcome has no weight).
fn logs(probabilities: &[f64]) -> Box<[f64]> {
    probabilities
        .iter()
        .map(|&p| if p > 0.0 { p.ln() } else { 0.0 })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the C library's fuzz target: a base of many outcomes whose counts
    /// pass a machine word spent minutes (uncharged) on a divisor of all counts and a
    /// total per outcome; 704d809 took over 200 s, now about 3. This one: 89,701
    /// outcomes of 2,470-bit counts, a quarter of a second in a release build.
    #[test]
    fn a_base_of_many_outcomes_with_long_counts_builds_in_time() {
        let base = Base::expression("300d300").expect("valid");
        assert_eq!(base.len(), 89_701);
        let sum: f64 = base.probabilities().iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "{sum}");
        assert!(
            base.counts.is_none(),
            "the counts pass a u64 and do not reduce"
        );
    }

    #[test]
    fn values_are_the_faces_of_a_fair_die() {
        let base = Base::values(4).expect("valid");
        assert_eq!(base.outcomes(), [1, 2, 3, 4]);
        assert_eq!(base.probabilities(), [0.25; 4]);
        assert_eq!(base.spec(), "values=4");
        assert_eq!(Base::values(0), Err(BaseError::NoValues));
        assert!(matches!(
            Base::values(u64::MAX),
            Err(BaseError::TooManyOutcomes { .. })
        ));
    }

    #[test]
    fn expressions_keep_their_exact_counts() {
        let base = Base::expression(" 2d6 ").expect("valid");
        assert_eq!(base.spec(), "base=2d6");
        assert_eq!(base.counts().map(|c| c.iter().sum::<u64>()), Some(36));
        assert!((base.probabilities()[5] - 6.0 / 36.0).abs() < 1e-15);
        assert!(Base::expression("d6").expect("valid").is_uniform());
        let error = Base::expression("2d").expect_err("invalid");
        assert!(error.to_string().contains("base=2d"), "{error}");
    }

    #[test]
    fn long_expressions_are_refused_before_evaluation() {
        let long = vec!["d6"; 700].join("+");
        assert!(long.len() > MAX_EXPRESSION_BYTES);
        assert_eq!(
            Base::expression(&long),
            Err(BaseError::ExpressionTooLong { found: long.len() })
        );
        let die = notation::evaluate("d6").expect("valid");
        assert!(Base::from_die(&die, &long).is_err());
    }

    #[test]
    fn ranges() {
        assert_eq!(Base::range(-1, 1).expect("valid").outcomes(), [-1, 0, 1]);
        assert_eq!(Base::range(2, 1), Err(BaseError::NoValues));
    }
}
