//! [`Dice`]: independent draws from the base distribution.

use rand::distr::Distribution;

use super::args::{Args, SpecError};
use super::base::Base;
use super::family::kinds::{Family, OutcomeKeys};
use super::{ObserveError, Randomizer, RestoreError, StateSpace, check_index, check_key_len};
use crate::dice::die::Outcome;
use crate::rng::{self, Rng};

/// Draws every outcome independently with its base probability; the past never
/// changes the next draw.
///
/// This is the "dice system" the other randomizers are measured against: as
/// unpredictable as possible, and as unfair (outcome counts spread like a
/// multinomial).
///
/// # Example
/// ```
/// use fairdice::randomizer::{Base, Dice, Randomizer};
/// use fairdice::rng;
///
/// let mut two_d6 = Dice::new(Base::expression("2d6")?);
/// assert!((two_d6.next_distribution()[5] - 6.0 / 36.0).abs() < 1e-15);
/// let index = two_d6.draw(&mut rng::seeded(1));
/// assert!((2..=12).contains(&two_d6.outcomes()[index]));
///
/// // Stateless, so also a `rand` distribution:
/// use rand::distr::Distribution;
/// let sums: Vec<i64> = two_d6.sample_iter(rng::seeded(2)).take(3).collect();
/// assert!(sums.iter().all(|s| (2..=12).contains(s)));
/// # Ok::<(), fairdice::randomizer::BaseError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Dice {
    base: Base,
    sampler: Sampler,
}

/// How a draw maps random words to outcomes.
#[derive(Debug, Clone, PartialEq)]
enum Sampler {
    /// Every outcome equally likely: one bounded integer.
    Uniform(u64),
    /// Exact integer weights: a bounded integer located in the running sums.
    Counts { cumulative: Vec<u64> },
    /// Weights too large for a `u64`: a uniform float located in the running sums.
    Float { cumulative: Vec<f64> },
}

impl Dice {
    /// Dice over `base`. Infallible: every base is a valid die.
    pub fn new(base: Base) -> Dice {
        let sampler = if base.is_uniform() {
            Sampler::Uniform(base.len() as u64)
        } else if let Some(counts) = base.counts() {
            let cumulative = running_sums(counts.iter().copied(), 0, |a, b| a + b);
            Sampler::Counts { cumulative }
        } else {
            let cumulative = running_sums(base.probabilities().iter().copied(), 0.0, |a, b| a + b);
            Sampler::Float { cumulative }
        };
        Dice { base, sampler }
    }

    /// The base distribution.
    pub fn base(&self) -> &Base {
        &self.base
    }

    /// Draws an outcome index: what [`Randomizer::draw`] does, without `&mut`
    /// (dice keep no state).
    #[inline(always)]
    pub fn sample_index<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        // A fair die, the common case, is drawn inline; weighted ones out of line.
        match &self.sampler {
            Sampler::Uniform(n) => rng::below(rng, *n) as usize,
            Sampler::Counts { cumulative } => counts_index(cumulative, rng),
            Sampler::Float { cumulative } => float_index(cumulative, rng),
        }
    }
}

/// An index drawn by exact integer weights: a uniform integer located in their
/// running sums.
#[inline(never)]
fn counts_index<R: Rng + ?Sized>(cumulative: &[u64], rng: &mut R) -> usize {
    let target = rng::below(rng, *cumulative.last().expect("a base has outcomes"));
    cumulative.partition_point(|&c| c <= target)
}

/// An index drawn by float weights: a uniform float located in their running sums.
#[inline(never)]
fn float_index<R: Rng + ?Sized>(cumulative: &[f64], rng: &mut R) -> usize {
    let target = rng::unit_f64(rng) * cumulative.last().expect("a base has outcomes");
    cumulative
        .partition_point(|&c| c <= target)
        .min(cumulative.len() - 1)
}

/// Dice keep no state, so they are a distribution in `rand`'s sense: a sample is
/// exactly the value [`Randomizer::draw_outcome`] would draw with the same
/// generator.
impl Distribution<Outcome> for Dice {
    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Outcome {
        self.base.outcomes()[self.sample_index(rng)]
    }
}

fn running_sums<T: Copy>(
    items: impl Iterator<Item = T>,
    zero: T,
    add: impl Fn(T, T) -> T,
) -> Vec<T> {
    items
        .scan(zero, |acc, x| {
            *acc = add(*acc, x);
            Some(*acc)
        })
        .collect()
}

impl Randomizer for Dice {
    fn spec(&self) -> String {
        format!("dice({})", self.base.spec())
    }

    fn outcomes(&self) -> &[Outcome] {
        self.base.outcomes()
    }

    fn base_distribution(&self) -> Vec<f64> {
        self.base().probabilities().to_vec()
    }

    fn next_distribution(&self) -> Vec<f64> {
        self.base.probabilities().to_vec()
    }

    #[inline]
    fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> usize {
        self.sample_index(rng)
    }

    fn observe(&mut self, index: usize) -> Result<(), ObserveError> {
        check_index(index, self.base.len())
    }

    fn reset(&mut self) {}
}

impl StateSpace for Dice {
    /// One zero per outcome: dice keep no state.
    fn state_key(&self) -> Vec<i64> {
        vec![0; self.base.len()]
    }

    fn restore(&mut self, key: &[i64]) -> Result<(), RestoreError> {
        check_key_len(|| self.spec(), key, self.base.len())?;
        if let Some(position) = key.iter().position(|&k| k != 0) {
            return Err(RestoreError::Inconsistent {
                spec: self.spec(),
                reason: format!(
                    "dice keep no state, but entry {position} is {}",
                    key[position]
                ),
            });
        }
        Ok(())
    }

    fn exchangeable(&self) -> bool {
        self.base.is_uniform()
    }
}

/// `dice(values=N | base=EXPR)`.
pub(super) const FAMILY: Family = Family {
    name: "dice",
    summary: "independent draws: a fair die, or the sums of any dice expression",
    usage: "dice(values=N | base=EXPR)",
    example: "dice(values=6)",
    outcomes: OutcomeKeys::ValuesOrBase,
    params: &[],
    not_tunable: None,
};

/// Builds a `dice` randomizer from its spec's checked arguments.
pub(super) fn build(args: &Args<'_>) -> Result<Dice, SpecError> {
    Ok(Dice::new(args.base()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::testing::{assert_distribution_invariants, draws};

    fn d6() -> Dice {
        Dice::new(Base::values(6).expect("valid"))
    }

    #[test]
    fn guarantee_draws_follow_the_base_distribution() {
        let mut dice = Dice::new(Base::expression("2d6").expect("valid"));
        let mut counts = [0u32; 11];
        let mut rng = rng::seeded(5);
        for _ in 0..36_000 {
            counts[dice.draw(&mut rng)] += 1;
        }
        // Expected 1000·count; five standard deviations stay well inside ±250.
        for (i, &c) in counts.iter().enumerate() {
            let expected = 1000.0 * [1., 2., 3., 4., 5., 6., 5., 4., 3., 2., 1.][i];
            assert!(
                (f64::from(c) - expected).abs() < 250.0,
                "{i}: {c} vs {expected}"
            );
        }
    }

    #[test]
    fn value_stability() {
        assert_eq!(
            draws(&mut d6(), 3, 12),
            [0, 3, 5, 5, 3, 0, 1, 3, 3, 0, 3, 1]
        );
        let mut two_d6 = Dice::new(Base::expression("2d6").expect("valid"));
        assert_eq!(draws(&mut two_d6, 3, 8), [1, 6, 8, 8, 6, 2, 3, 6]);
        // As a rand distribution: the same values, shifted to 2..=12.
        let sums: Vec<Outcome> = two_d6.sample_iter(rng::seeded(3)).take(8).collect();
        assert_eq!(sums, [3, 8, 10, 10, 8, 4, 5, 8]);
    }

    #[test]
    fn distribution_never_changes() {
        let mut dice = d6();
        assert_distribution_invariants(&mut dice, 50, 1);
        assert_eq!(dice.state_key(), [0; 6]);
        assert!(dice.exchangeable());
        assert!(dice.observe(6).is_err());
        assert!(dice.restore(&[0, 0, 0, 0, 0, 1]).is_err());
        assert!(dice.restore(&[0; 5]).is_err());
        assert_eq!(dice.spec(), "dice(values=6)");
    }
}
