//! Transformations of one die: mapping outcomes, rerolling, exploding, and a random
//! number of dice (a [`Mixture`] of sums).
//!
//! # Design decisions
//! Rerolling "until the die no longer matches" is exact conditioning, so it needs no
//! depth limit: the matching outcomes are removed and the rest keep their relative
//! weights. Exploding has no closed form and is truncated at a depth: the last roll
//! is kept as it lands.

use num_bigint::BigUint;
use num_traits::Zero;

use super::arithmetic::BinaryOp;
use super::die::{Die, DieError, Outcome};
use super::mixture::Mixture;
use crate::control::Control;

/// How many extra rolls an exploding die may make unless told otherwise. At depth 9
/// the truncated mass of a d6 is 6⁻¹⁰ ≈ 1.7·10⁻⁸.
pub const DEFAULT_EXPLODE_DEPTH: u32 = 9;

impl Die {
    /// The distribution of `f(X)`; outcomes that map to the same value merge.
    pub fn map(&self, f: impl Fn(Outcome) -> Outcome) -> Die {
        self.try_map(|o| Ok(f(o))).expect("an infallible map")
    }

    /// The distribution of `f(X)` for a fallible `f`.
    ///
    /// # Errors
    /// The first error `f` returns.
    pub fn try_map(
        &self,
        f: impl Fn(Outcome) -> Result<Outcome, DieError>,
    ) -> Result<Die, DieError> {
        let pairs = self
            .iter()
            .map(|(o, c)| Ok((f(o)?, c)))
            .collect::<Result<Vec<_>, DieError>>()?;
        Die::from_big_pairs(pairs)
    }

    /// Rerolls every outcome that matches `condition` until one does not match: the
    /// die conditioned on not matching.
    ///
    /// # Errors
    /// [`DieError::RerollsEverything`] if every outcome matches.
    pub fn reroll(&self, condition: impl Fn(Outcome) -> bool) -> Result<Die, DieError> {
        Die::from_big_pairs(self.iter().filter(|&(o, _)| !condition(o)).collect())
            .map_err(|_| DieError::RerollsEverything)
    }

    /// Rerolls a matching outcome once and keeps the second roll whatever it shows.
    pub fn reroll_once(&self, condition: impl Fn(Outcome) -> bool) -> Die {
        let total = self.total();
        let matching: BigUint = self
            .iter()
            .filter(|&(o, _)| condition(o))
            .map(|(_, c)| c)
            .sum();
        // P'(x) = P(x)·[x kept] + P(match)·P(x), over the total T².
        let pairs = self
            .iter()
            .map(|(o, c)| {
                let kept = if condition(o) {
                    BigUint::zero()
                } else {
                    &c * &total
                };
                (o, kept + &matching * c)
            })
            .collect();
        Die::from_big_pairs(pairs).expect("rerolling once keeps every outcome possible")
    }

    /// Explodes: whenever a roll matches `condition`, roll again and add, for at most
    /// `depth` extra rolls (the last roll stands as it lands). The work is metered
    /// against `control`.
    ///
    /// # Errors
    /// [`DieError::Overflow`] if a sum leaves the `i64` range; [`DieError::Stopped`]
    /// past the control's budget or once it is cancelled.
    pub fn explode(
        &self,
        condition: impl Fn(Outcome) -> bool,
        depth: u32,
        control: &Control,
    ) -> Result<Die, DieError> {
        let meter = &mut control.meter();
        let mut current = self.clone();
        for _ in 0..depth {
            meter.charge((self.len() * current.len()) as u64)?;
            let parts = self
                .iter()
                .map(|(o, c)| {
                    let part = if condition(o) {
                        current.combine_constant(o, BinaryOp::Add)?
                    } else {
                        Die::constant(o)
                    };
                    Ok((c, part))
                })
                .collect::<Result<Vec<_>, DieError>>()?;
            current = Die::mixture(&parts)?;
        }
        Ok(current)
    }

    /// The sum of a random number of dice: roll `count` to learn how many copies of
    /// this die to roll and add (AnyDice's `(d4)d6`), metered against `control`.
    ///
    /// # Errors
    /// [`DieError::NegativeDiceCount`] if `count` can be negative; as
    /// [`repeat_sum`](Self::repeat_sum).
    pub fn repeat_sum_random(&self, count: &Die, control: &Control) -> Result<Die, DieError> {
        if count.min_outcome() < 0 {
            return Err(DieError::NegativeDiceCount(count.min_outcome()));
        }
        let mut mixture = Mixture::new();
        let mut previous: Option<(u64, Die)> = None;
        for (k, weight) in count.iter() {
            let k = k as u64;
            // Each sum extends the previous one, so the work is that of the largest;
            // but sums of big counts that the recurrence makes directly are made
            // anew (convolving two of them multiplies big integers pairwise:
            // (d6*2000)d6 ran for minutes, and takes about 2 s this way).
            let sum = match &previous {
                Some((j, sum)) if !self.sums_by_recurrence(k) => {
                    sum.combine(&self.repeat_sum(k - j, control)?, BinaryOp::Add, control)?
                }
                _ => self.repeat_sum(k, control)?,
            };
            mixture.add(&weight, &sum, control)?;
            previous = Some((k, sum));
        }
        mixture.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::testing::{big, brute_force, d};
    use num_rational::BigRational;

    #[test]
    fn map_merges_outcomes() {
        let parity = d(6).map(|o| o % 2);
        assert_eq!(parity, Die::new([(0, 3u32), (1, 3)]).unwrap());
    }

    #[test]
    fn reroll_conditions_exactly() {
        let d6 = d(6);
        assert_eq!(d6.reroll(|o| o == 1).unwrap(), Die::range(2, 6));
        assert_eq!(d6.reroll(|_| true), Err(DieError::RerollsEverything));
    }

    #[test]
    fn reroll_once_matches_brute_force() {
        let d6 = d(6);
        let expected = brute_force(&[&d6, &d6], |v| if v[0] <= 2 { v[1] } else { v[0] });
        assert_eq!(d6.reroll_once(|o| o <= 2), expected);
    }

    #[test]
    fn explode_matches_brute_force() {
        // d4 exploding on 4 with depth 2 = up to three rolls.
        let d4 = d(4);
        let expected = brute_force(&[&d4, &d4, &d4], |v| {
            if v[0] < 4 {
                v[0]
            } else if v[1] < 4 {
                4 + v[1]
            } else {
                8 + v[2]
            }
        });
        assert_eq!(
            d4.explode(|o| o == 4, 2, &Control::new()).unwrap(),
            expected
        );
        assert_eq!(d4.explode(|o| o == 4, 0, &Control::new()).unwrap(), d4);
    }

    #[test]
    fn mixture_of_dice_counts() {
        // (d4)d6 by brute force over d4 then up to four d6.
        let d6 = d(6);
        let mixed = d6.repeat_sum_random(&d(4), &Control::new()).unwrap();
        let expected = brute_force(&[&d(4), &d6, &d6, &d6, &d6], |v| {
            v[1..=v[0] as usize].iter().sum()
        });
        assert_eq!(mixed.reduced(), expected.reduced());
        assert_eq!(mixed.total(), big(4 * 1296));
        let zero_or_two = Die::from_faces(&[0, 2]).unwrap();
        let m = d6.repeat_sum_random(&zero_or_two, &Control::new()).unwrap();
        assert_eq!(m.probability(0), BigRational::new(1.into(), 2.into()));
        assert_eq!(
            d6.repeat_sum_random(&Die::range(-1, 1), &Control::new()),
            Err(DieError::NegativeDiceCount(-1))
        );
    }
}
