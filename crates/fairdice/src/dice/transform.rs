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

/// What one level of an explosion costs beyond its multiply-adds (the parts and
/// the mixture it allocates), in steps; it also bounds how many levels a budget
/// may price.
const EXPLODE_LEVEL_STEPS: u64 = 200;

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
        let matched = self.outcomes().iter().filter(|&&o| condition(o)).count();
        control.afford(self.explode_steps(matched, depth, control.max_steps() as f64))?;
        let meter = &mut control.meter();
        let mut current = self.clone();
        for _ in 0..depth {
            let words = current.total_bits().div_ceil(64).max(1);
            meter.charge(EXPLODE_LEVEL_STEPS + (self.len() * current.len()) as u64 * words)?;
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

    /// An upper estimate of the steps of [`explode`](Self::explode) with `matched`
    /// exploding outcomes, up to `depth` levels; past `enough`, the levels left
    /// are counted at the cost of the last one summed. Level `k` mixes this die's outcomes over a die of at most
    /// `len_k` outcomes, where `len_k` grows by the exploding outcomes' copies of
    /// the last level but never past the span of `k + 1` rolls, with counts of
    /// `(k + 1)` times this die's bits.
    fn explode_steps(&self, matched: usize, depth: u32, enough: f64) -> f64 {
        let (faces, matched) = (self.len() as f64, matched as f64);
        let width = (self.max_outcome() as f64 - self.min_outcome() as f64) + 1.0;
        let bits = self.total_bits() as f64;
        let (mut len, mut steps) = (faces, 0.0);
        for level in 1..=depth {
            let words = (f64::from(level) * bits / 64.0).ceil().max(1.0);
            let this_level = EXPLODE_LEVEL_STEPS as f64 + faces * len * words;
            steps += this_level;
            if steps > enough {
                // Every later level costs at least as much as this one.
                return steps + f64::from(depth - level) * this_level;
            }
            len = (faces - matched + matched * len).min(f64::from(level + 1) * width);
        }
        steps
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
    use crate::Stop;
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
    fn a_deep_explosion_is_priced_before_it_starts() {
        // A million levels of a d6 would run for days; it is refused at once,
        // with an estimate far past the budget, and nothing metered.
        let control = Control::new();
        let refused = d(6).explode(|o| o == 6, 1_000_000, &control);
        assert!(matches!(
            refused,
            Err(DieError::Stopped(Stop::OverEstimate { estimate, .. })) if estimate > 1_000_000_000_000
        ));
        assert_eq!(control.steps_used(), 0);
        // The estimate bounds the work: a hundred levels fit and are metered
        // below it.
        let d6 = d(6);
        let estimate = d6.explode_steps(1, 100, f64::INFINITY);
        let hundred = d6.explode(|o| o == 6, 100, &control).unwrap();
        assert_eq!(hundred.max_outcome(), 606);
        assert!(
            (control.steps_used() as f64) <= estimate,
            "{} > {estimate}",
            control.steps_used()
        );
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
