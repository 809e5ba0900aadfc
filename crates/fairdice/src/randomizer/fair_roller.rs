//! [`FairRoller`]: the fair die roller, pulling outcome counts toward their
//! expected counts with a tightness.

use thiserror::Error;

use super::base::Base;
use super::portable_math::exp2;
use super::{ObserveError, Randomizer, RestoreError, check_index, check_key_len};
use crate::dice::die::Outcome;
use crate::rng::{self, Generator};

/// The largest tightness accepted; beyond it every weight but the most behind
/// outcome's underflows, and the roller is a deck in all but name.
pub const MAX_TIGHTNESS: f64 = 1000.0;

/// Why a fair die roller could not be built.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum FairRollerError {
    /// The tightness is negative, not finite or above [`MAX_TIGHTNESS`].
    #[error("tightness must be in [0, 1000] (0 = plain dice, 1 halves a repeat's odds), got {0}")]
    TightnessOutOfRange(f64),
}

/// Keeps every outcome's count close to what its base probability predicts, even
/// over a few rolls: `P_i ∝ Po_i · 2^(−k · error_i)` with
/// `error_i = count_i − Po_i · rolls` and `k` the tightness.
///
/// The fair die roller: before each roll the base table `Po` is reweighted by how
/// far each outcome is ahead of (or behind) its expected count, then renormalized.
/// `k = 0` is plain dice, large `k` approaches drawing from a hat; with a uniform
/// base it equals [`DynamicDice`](super::DynamicDice) with `d = 2^(−k)`. No outcome
/// ever becomes impossible.
///
/// # Example
/// ```
/// use fairdice::randomizer::{Base, FairRoller, Randomizer};
///
/// let mut roller = FairRoller::new(Base::expression("2d6")?, 1.0)?;
/// for index in [0, 2, 5, 5] {
///     roller.observe(index)?; // rolled 2, 4, 7, 7
/// }
/// let next = roller.next_distribution();
/// assert!((next[5] - 0.05965).abs() < 5e-6); // P(7)
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Design decisions
/// Every roll changes every error (`rolls` grows), so each draw recomputes all `n`
/// weights (`O(n)`). The error's numerator `count_i · total − weight_i · rolls` is
/// exact integer arithmetic, and `2^x` comes from a portable polynomial, so weights
/// are a pure, platform-independent function of the counts: seeded draws repeat
/// everywhere, and a restored state continues bit for bit.
#[derive(Debug, Clone, PartialEq)]
pub struct FairRoller {
    base: Base,
    tightness: f64,
    /// The sum of the base's integer weights, when it has them.
    weight_total: Option<u64>,
    counts: Vec<u64>,
    rolls: u64,
    /// The next roll's weights (scaled so the largest exponent is 0) and their sum.
    weights: Vec<f64>,
    total: f64,
}

impl FairRoller {
    /// A fair die roller over `base` with tightness `k` in `[0, 1000]`.
    ///
    /// # Errors
    /// [`FairRollerError::TightnessOutOfRange`] otherwise (NaN included).
    pub fn new(base: Base, tightness: f64) -> Result<FairRoller, FairRollerError> {
        if !(0.0..=MAX_TIGHTNESS).contains(&tightness) {
            return Err(FairRollerError::TightnessOutOfRange(tightness));
        }
        let n = base.len();
        let weight_total = base.counts().map(|c| c.iter().sum());
        let mut roller = FairRoller {
            base,
            tightness,
            weight_total,
            counts: vec![0; n],
            rolls: 0,
            weights: vec![0.0; n],
            total: 0.0,
        };
        roller.reweigh();
        Ok(roller)
    }

    /// The base distribution `Po`.
    pub fn base(&self) -> &Base {
        &self.base
    }

    /// The tightness `k`.
    pub fn tightness(&self) -> f64 {
        self.tightness
    }

    /// `error_i = count_i − Po_i · rolls`, exact while the products fit.
    #[inline]
    fn error(&self, index: usize) -> f64 {
        let count = self.counts[index];
        if let (Some(weights), Some(total)) = (self.base.counts(), self.weight_total) {
            let scaled = i128::from(count).checked_mul(i128::from(total));
            let expected = i128::from(weights[index]).checked_mul(i128::from(self.rolls));
            if let Some((scaled, expected)) = scaled.zip(expected) {
                return (scaled - expected) as f64 / total as f64;
            }
        }
        count as f64 - self.base.probabilities()[index] * self.rolls as f64
    }

    /// Recomputes the weights from the counts.
    fn reweigh(&mut self) {
        let mut top = f64::NEG_INFINITY;
        for i in 0..self.counts.len() {
            let exponent = -self.tightness * self.error(i);
            self.weights[i] = exponent;
            top = top.max(exponent);
        }
        let mut total = 0.0;
        for (weight, &p) in self.weights.iter_mut().zip(self.base.probabilities()) {
            *weight = p * exp2(*weight - top);
            total += *weight;
        }
        self.total = total;
    }

    fn record(&mut self, index: usize) {
        self.counts[index] += 1;
        self.rolls += 1;
        if self.base.is_uniform() {
            // Only differences matter with a uniform base; keep the counts small.
            let floor = self.counts.iter().copied().min().unwrap_or(0);
            if floor > 0 {
                self.counts.iter_mut().for_each(|c| *c -= floor);
                self.rolls -= floor * self.counts.len() as u64;
            }
        }
        self.reweigh();
    }
}

impl Randomizer for FairRoller {
    fn spec(&self) -> String {
        format!("fair({}, tightness={})", self.base.spec(), self.tightness)
    }

    fn outcomes(&self) -> &[Outcome] {
        self.base.outcomes()
    }

    fn next_distribution(&self) -> Vec<f64> {
        self.weights.iter().map(|&w| w / self.total).collect()
    }

    #[inline]
    fn draw(&mut self, rng: &mut Generator) -> usize {
        let mut target = rng::unit_f64(rng) * self.total;
        let mut index = 0;
        for (i, &w) in self.weights.iter().enumerate() {
            if w > 0.0 {
                index = i;
                if target < w {
                    break;
                }
                target -= w;
            }
        }
        self.record(index);
        index
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        check_index(index, self.base.len())?;
        self.record(index);
        Ok(())
    }

    fn reset(&mut self) {
        self.counts.fill(0);
        self.rolls = 0;
        self.reweigh();
    }

    /// Times each outcome was rolled (minus the least rolled outcome's count when
    /// the base is uniform, since only differences matter then).
    fn state_key(&self) -> Vec<i64> {
        self.counts.iter().map(|&c| c as i64).collect()
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        check_key_len(|| self.spec(), key, self.base.len())?;
        if let Some(position) = key.iter().position(|&k| k < 0) {
            return Err(RestoreError::Inconsistent {
                spec: self.spec(),
                reason: format!(
                    "times rolled cannot be negative, but entry {position} is {}",
                    key[position]
                ),
            });
        }
        self.counts = key.iter().map(|&k| k as u64).collect();
        self.rolls = self.counts.iter().sum();
        if self.base.is_uniform() {
            let floor = self.counts.iter().copied().min().unwrap_or(0);
            self.counts.iter_mut().for_each(|c| *c -= floor);
            self.rolls -= floor * self.counts.len() as u64;
        }
        self.reweigh();
        Ok(())
    }

    fn exchangeable(&self) -> bool {
        self.base.is_uniform()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::DynamicDice;
    use crate::randomizer::testing::{assert_distribution_invariants, draws};

    fn two_d6(tightness: f64) -> FairRoller {
        FairRoller::new(Base::expression("2d6").expect("valid"), tightness).expect("valid")
    }

    #[test]
    fn check_value_2d6_after_2_4_7_7() {
        let mut roller = two_d6(1.0);
        for value in [2, 4, 7, 7] {
            roller.observe(value - 2).expect("possible");
        }
        let p = roller.next_distribution();
        let at = |value: usize| p[value - 2];
        assert!((at(7) - 0.05965).abs() < 5e-6, "P(7) = {}", at(7));
        assert!((at(2) - 0.01353).abs() < 5e-6, "P(2) = {}", at(2));
        assert!((at(6) - 0.18408).abs() < 5e-6, "P(6) = {}", at(6));
        assert!((at(6) - at(8)).abs() < 1e-15);
        // The unnormalized total of the published table.
        let unnormalized: f64 = (0..11)
            .map(|i| roller.base().probabilities()[i] * (-roller.error(i)).exp2())
            .sum();
        assert!((unnormalized - 1.108906).abs() < 5e-7, "{unnormalized}");
    }

    #[test]
    fn guarantee_counts_stay_near_expected_counts() {
        let mut roller = two_d6(2.0);
        let mut rng = rng::seeded(6);
        let mut worst: f64 = 0.0;
        for _ in 0..3600 {
            roller.draw(&mut rng);
            worst = (0..11).map(|i| roller.error(i).abs()).fold(worst, f64::max);
        }
        // Plain dice drift by about sqrt(rolls); the roller stays within a few.
        assert!(worst < 3.0, "largest |count − expected| = {worst}");
    }

    #[test]
    fn uniform_base_equals_dynamic_dice() {
        let mut fair = FairRoller::new(Base::values(6).expect("valid"), 1.5).expect("valid");
        let mut dynamic =
            DynamicDice::new(Base::values(6).expect("valid"), 2f64.powf(-1.5)).expect("valid");
        for index in [0, 3, 3, 5, 1, 0, 0, 2] {
            fair.observe(index).expect("possible");
            dynamic.observe(index).expect("possible");
            for (a, b) in fair
                .next_distribution()
                .iter()
                .zip(dynamic.next_distribution())
            {
                assert!((a - b).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn tightness_zero_is_plain_dice() {
        let mut roller = two_d6(0.0);
        for index in [5, 5, 5] {
            roller.observe(index).expect("possible");
        }
        for (a, b) in roller
            .next_distribution()
            .iter()
            .zip(roller.base().probabilities())
        {
            assert!((a - b).abs() < 1e-15);
        }
    }

    #[test]
    fn invalid_tightness() {
        for bad in [-1.0, 1001.0, f64::NAN, f64::INFINITY] {
            assert!(FairRoller::new(Base::values(6).expect("valid"), bad).is_err());
        }
        assert!(
            two_d6(1.0)
                .restore(&[0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0])
                .is_err()
        );
        assert_eq!(two_d6(0.5).spec(), "fair(base=2d6, tightness=0.5)");
    }

    #[test]
    fn distribution_invariants() {
        assert_distribution_invariants(&mut two_d6(1.0), 60, 1);
        assert_distribution_invariants(
            &mut FairRoller::new(Base::values(6).expect("valid"), 3.0).expect("valid"),
            60,
            2,
        );
    }

    #[test]
    fn value_stability() {
        assert_eq!(
            draws(&mut two_d6(1.0), 3, 12),
            [1, 6, 8, 7, 5, 2, 3, 5, 5, 0, 5, 3]
        );
        let mut d6 = FairRoller::new(Base::values(6).expect("valid"), 1.0).expect("valid");
        assert_eq!(draws(&mut d6, 3, 12), [0, 4, 5, 4, 3, 0, 1, 3, 2, 0, 3, 1]);
    }
}
