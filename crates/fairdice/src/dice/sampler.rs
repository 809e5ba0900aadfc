//! [`DieSampler`]: draws outcomes of a [`Die`] with its exact weights, for Monte
//! Carlo estimates of what is too large to compute exactly.
//!
//! # Design decisions
//! A fair die (every count equal) draws an index with one bounded integer; a
//! weighted one searches its cumulative counts for a uniform integer below the
//! total, so the draw is exact for any total up to 2¹²⁸ — no floating point.

use num_traits::ToPrimitive;
use rand_core::Rng;

use super::die::{Die, DieError, Outcome};
use crate::rng;

/// Draws outcomes of one die.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DieSampler {
    outcomes: Vec<Outcome>,
    /// Running totals of the (reduced) counts; empty when every count is equal.
    cumulative: Vec<u128>,
}

impl DieSampler {
    /// A sampler for `die`.
    ///
    /// # Errors
    /// [`DieError::Overflow`] if the die's reduced total exceeds 2¹²⁸.
    pub fn new(die: &Die) -> Result<DieSampler, DieError> {
        let die = die.reduced();
        let outcomes: Vec<Outcome> = die.iter().map(|(o, _)| o).collect();
        let counts: Vec<u128> = die
            .iter()
            .map(|(_, c)| c.to_u128().ok_or(DieError::Overflow))
            .collect::<Result<_, _>>()?;
        let cumulative = if counts.iter().all(|&c| c == counts[0]) {
            Vec::new()
        } else {
            let mut total = 0u128;
            counts
                .iter()
                .map(|&c| {
                    total = total.checked_add(c).ok_or(DieError::Overflow)?;
                    Ok(total)
                })
                .collect::<Result<_, DieError>>()?
        };
        Ok(DieSampler {
            outcomes,
            cumulative,
        })
    }

    /// One outcome.
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Outcome {
        let index = match self.cumulative.last() {
            None => rng::below(rng, self.outcomes.len() as u64) as usize,
            Some(&total) => {
                let x = rng::below_u128(rng, total);
                self.cumulative.partition_point(|&c| c <= x)
            }
        };
        self.outcomes[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::testing::d;

    fn frequencies(die: &Die, draws: u32) -> Vec<(Outcome, u32)> {
        let sampler = DieSampler::new(die).unwrap();
        let mut rng = rng::seeded(11);
        let mut seen = std::collections::BTreeMap::new();
        for _ in 0..draws {
            *seen.entry(sampler.sample(&mut rng)).or_insert(0) += 1;
        }
        seen.into_iter().collect()
    }

    #[test]
    fn a_fair_die_draws_every_face_about_equally() {
        let seen = frequencies(&d(6), 60_000);
        assert_eq!(seen.len(), 6);
        for (face, n) in seen {
            assert!((9_500..10_500).contains(&n), "{face}: {n}");
        }
    }

    #[test]
    fn a_weighted_die_draws_in_proportion_to_its_counts() {
        // 2d6: 7 is six times as likely as 2; nothing outside 2..=12.
        let two_d6 = d(6).add(&d(6)).unwrap();
        let seen = frequencies(&two_d6, 72_000);
        assert_eq!(seen.first().unwrap().0, 2);
        assert_eq!(seen.last().unwrap().0, 12);
        let count = |o| seen.iter().find(|(x, _)| *x == o).unwrap().1;
        assert!((1_800..2_200).contains(&count(2)), "{}", count(2));
        assert!((11_500..12_500).contains(&count(7)), "{}", count(7));
    }

    #[test]
    fn the_same_seed_draws_the_same_outcomes() {
        let sampler = DieSampler::new(&Die::new([(1, 1u32), (5, 3)]).unwrap()).unwrap();
        let draw = |seed| {
            let mut rng = rng::seeded(seed);
            (0..20)
                .map(|_| sampler.sample(&mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
        assert!(draw(3).iter().all(|o| *o == 1 || *o == 5));
    }
}
