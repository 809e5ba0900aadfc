//! [`Mixture`]: a die chosen at random — die `i` with weight `w_i`, then rolled —
//! built one part at a time.
//!
//! # Design decisions
//! The exact mixture brings every part to a common total (the least common multiple
//! of the parts' totals), so its counts stay integers. Parts are folded into one
//! running distribution as they arrive, rescaling it when the common total grows,
//! so memory holds the result only, never every part at once: `(1000d6)d6` mixes
//! 5001 sums of up to 6000 dice, each with thousands of big counts.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

use super::die::{Die, DieError, Outcome};
use crate::control::Control;

/// A weighted mixture of dice under construction.
#[derive(Debug, Clone)]
pub struct Mixture {
    /// Count of each outcome, over the common total `scale`.
    counts: BTreeMap<Outcome, BigUint>,
    /// The least common multiple of the totals of the parts so far.
    scale: BigUint,
}

impl Default for Mixture {
    fn default() -> Self {
        Mixture::new()
    }
}

impl Mixture {
    /// An empty mixture.
    pub fn new() -> Self {
        Mixture {
            counts: BTreeMap::new(),
            scale: BigUint::one(),
        }
    }

    /// Adds `die`, chosen with `weight`, charging the work to `control`: about one
    /// step per 64-bit limb of every count touched.
    ///
    /// # Errors
    /// [`DieError::Stopped`] past the control's budget or once it is cancelled.
    pub fn add(&mut self, weight: &BigUint, die: &Die, control: &Control) -> Result<(), DieError> {
        let meter = &mut control.meter();
        if weight.is_zero() {
            return Ok(());
        }
        let total = die.total();
        let scale = self.scale.lcm(&total);
        let limbs = |n: &BigUint| n.bits() / 64 + 1;
        if scale != self.scale {
            let grow = &scale / &self.scale;
            meter.charge(self.counts.len() as u64 * (limbs(&scale) + 1))?;
            for count in self.counts.values_mut() {
                *count *= &grow;
            }
            self.scale = scale;
        }
        let factor = weight * (&self.scale / &total);
        meter.charge(die.len() as u64 * (limbs(&self.scale) + limbs(weight)))?;
        for (outcome, count) in die.iter() {
            *self.counts.entry(outcome).or_default() += count * &factor;
        }
        Ok(())
    }

    /// The mixed die.
    ///
    /// # Errors
    /// [`DieError::Empty`] if no part had a positive weight.
    pub fn finish(self) -> Result<Die, DieError> {
        Die::from_big_pairs(self.counts.into_iter().collect())
    }
}

impl Die {
    /// A weighted mixture: die `i` is chosen with weight `w_i` and then rolled.
    ///
    /// # Errors
    /// [`DieError::Empty`] if there are no parts or every weight is zero.
    pub fn mixture(parts: &[(BigUint, Die)]) -> Result<Die, DieError> {
        let mut mixture = Mixture::new();
        let control = Control::unlimited();
        for (weight, die) in parts {
            mixture.add(weight, die, &control)?;
        }
        mixture.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::testing::{big, d};

    #[test]
    fn parts_meet_at_the_least_common_multiple_of_their_totals() {
        // A fair coin chooses a d4 or a d6: totals 4 and 6 meet at 12.
        let mixed = Die::mixture(&[(big(1), d(4)), (big(1), d(6))]).unwrap();
        let expected = Die::new([(1, 5u32), (2, 5), (3, 5), (4, 5), (5, 2), (6, 2)]).unwrap();
        assert_eq!(mixed, expected);
        assert_eq!(mixed.total(), big(24));
    }

    #[test]
    fn weights_and_order_do_not_matter_beyond_their_ratio() {
        let a = Die::mixture(&[(big(2), d(3)), (big(1), d(8)), (big(0), d(100))]).unwrap();
        let b = Die::mixture(&[(big(1), d(8)), (big(2), d(3))]).unwrap();
        assert_eq!(a.reduced(), b.reduced());
        assert_eq!(a.max_outcome(), 8);
    }

    #[test]
    fn nothing_to_mix_is_an_error() {
        assert_eq!(Die::mixture(&[]), Err(DieError::Empty));
        assert_eq!(Die::mixture(&[(big(0), d(6))]), Err(DieError::Empty));
    }

    #[test]
    fn the_meter_sees_the_work() {
        let mut mixture = Mixture::new();
        // A budget of 5 steps stops a meter at 4 x 5 = 20.
        let control = Control::new().with_max_steps(5);
        assert!(mixture.add(&big(1), &d(6), &control).is_ok());
        assert_eq!(
            mixture.add(&big(1), &d(20), &control),
            Err(DieError::Stopped(crate::Stop::OverBudget { limit: 5 }))
        );
    }
}
